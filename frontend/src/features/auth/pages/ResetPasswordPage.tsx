import '../../../shared/i18n/manageTexts'; // this screen's English texts (not in the feed's bundle)
import { Alert, Anchor, Button, Loader, Stack, Text } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';

import { errorMessage, fieldErrors } from '../../../shared/api/apiError';
import { authCheckResetToken } from '../../../shared/api/generated/sdk.gen';
import { paths } from '../../../shared/routing/paths';
import { PageShell } from '../../../shared/ui/PageShell';
import { authQueryKeys } from '../api/queryKeys';
import { InvalidResetLink } from '../components/InvalidResetLink';
import { NewPasswordForm } from '../components/NewPasswordForm';
import { ResetRequestForm } from '../components/ResetRequestForm';

/**
 * The reset-password page (spec §2 `/resetpassword`, route name resetPasswordSend): without a token
 * it asks for a link by email; the link from the mail (`?token=…`) opens the new-password form.
 */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const token = useSearchParams()[0].get('token');
  return (
    <PageShell
      icon={<IconKey size={28} />}
      title={token ? t('resetPassword.newTitle') : t('resetPassword.title')}
      description={token ? t('resetPassword.newDescription') : t('resetPassword.description')}
      size="sm"
    >
      {token ? <ResetWithToken token={token} /> : <ResetRequestForm />}
      <Text size="sm" c="dimmed">
        {t('resetPassword.remembered')}{' '}
        <Anchor component={Link} to={paths.registration}>
          {t('resetPassword.signIn')}
        </Anchor>
      </Text>
    </PageShell>
  );
}

/** The link is checked before the form shows, so a spent or expired one is told at once. */
function ResetWithToken({ token }: { token: string }) {
  const check = useQuery({
    queryKey: authQueryKeys.resetToken(token),
    queryFn: async ({ signal }) => (await authCheckResetToken({ query: { token }, signal, throwOnError: true })).data,
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
  });
  if (check.isPending) return <ResetTokenChecking />;
  if (check.isError) {
    if ('token' in fieldErrors(check.error)) return <InvalidResetLink />;
    return <ResetCheckFailed error={check.error} onRetry={() => void check.refetch()} />;
  }
  return <NewPasswordForm token={token} email={check.data.email} />;
}

/** Not a verdict on the link (network down, too many tries): the server's message and a retry. */
function ResetCheckFailed({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" variant="light" radius="lg" role="alert" title={t('page.errorTitle')}>
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{errorMessage(error, t('page.errorText'))}</Text>
        <Button size="xs" variant="white" color="red" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      </Stack>
    </Alert>
  );
}

function ResetTokenChecking() {
  const { t } = useTranslation();
  return (
    <Stack align="center" gap="xs" py="md" aria-busy="true" data-testid="reset-checking">
      <Loader size="sm" />
      <Text size="sm" c="dimmed">
        {t('resetPassword.checking')}
      </Text>
    </Stack>
  );
}
