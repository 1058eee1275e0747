import '../../../shared/i18n/manageTexts'; // this screen's English texts (not in the feed's bundle)
import { Alert, Button, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconMailCheck } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';

import { errorMessage } from '../../../shared/api/apiError';
import { authRequestResetPassword } from '../../../shared/api/generated/sdk.gen';
import { validateEmail } from '../../../shared/validation/account';

/**
 * Step one of the reset: ask for a link by email. The answer is the same whether or not the account
 * exists (the server tells nobody which emails are registered), so the page says "check your mail".
 */
export function ResetRequestForm() {
  const { t } = useTranslation();
  const form = useForm({
    mode: 'controlled',
    initialValues: { email: '' },
    validate: {
      email: (value) => {
        const key = validateEmail(value);
        return key && t(key);
      },
    },
  });
  const mutation = useMutation({
    mutationFn: async (email: string) => (await authRequestResetPassword({ body: { email }, throwOnError: true })).data,
  });

  if (mutation.isSuccess) {
    return (
      <Alert color="teal" variant="light" radius="lg" icon={<IconMailCheck size={20} />} title={t('resetPassword.sentTitle')} data-testid="reset-sent">
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{t('resetPassword.sentText', { email: mutation.variables })}</Text>
          <Button size="xs" variant="white" color="teal" onClick={() => mutation.reset()}>
            {t('resetPassword.sendAgain')}
          </Button>
        </Stack>
      </Alert>
    );
  }

  return (
    <form onSubmit={form.onSubmit((values) => mutation.mutate(values.email.trim()))} noValidate data-testid="reset-request-form">
      <Stack gap="sm">
        {mutation.error && (
          <Alert color="red" variant="light" radius="md" role="alert">
            {errorMessage(mutation.error, t('auth.errors.generic'))}
          </Alert>
        )}
        <TextInput
          label={t('auth.email')}
          description={t('resetPassword.emailHint')}
          type="email"
          name="email"
          autoComplete="email"
          data-autofocus
          {...form.getInputProps('email')}
        />
        <Button type="submit" size="md" radius="xl" loading={mutation.isPending}>
          {t('resetPassword.send')}
        </Button>
      </Stack>
    </form>
  );
}
