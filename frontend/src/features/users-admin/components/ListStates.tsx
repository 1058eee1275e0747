import '../../../shared/i18n/adminTexts'; // this screen's English texts (not in the feed's bundle)
import { Alert, Button, Center, Skeleton, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

import { errorMessage } from '../../../shared/api/apiError';

/** Rows drawn while the first answer is on its way. */
export function ListLoading({ rows = 4, testId }: { rows?: number; testId: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" aria-busy="true" aria-label={t('page.loading')} data-testid={testId}>
      {Array.from({ length: rows }, (_, index) => (
        <Skeleton key={index} height={64} radius="md" />
      ))}
    </Stack>
  );
}

/** A failed load: the server's message when it has one, and a way to ask again. */
export function ListError({ error, onRetry, testId }: { error: unknown; onRetry: () => void; testId: string }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" variant="light" radius="md" icon={<IconAlertTriangle size={20} />} title={t('page.errorTitle')} data-testid={testId}>
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{errorMessage(error, t('usersAdmin.loadFailed'))}</Text>
        <Button size="xs" variant="white" color="red" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      </Stack>
    </Alert>
  );
}

export function ListEmpty({ text, testId }: { text: string; testId: string }) {
  return (
    <Center py="xl" data-testid={testId}>
      <Text c="dimmed">{text}</Text>
    </Center>
  );
}
