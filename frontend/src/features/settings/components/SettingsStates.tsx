import { Alert, Button, Skeleton, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** While a tab's data loads: its shape in grey; when it fails: why, and a retry. */
export function TabLoading({ error, onRetry }: { error?: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  if (error) {
    return (
      <Alert color="red" variant="light" radius="md" icon={<IconAlertTriangle size={18} />} title={t('page.errorTitle')} role="alert">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{t('page.errorText')}</Text>
          <Button size="xs" variant="white" color="red" onClick={onRetry}>
            {t('common.retry')}
          </Button>
        </Stack>
      </Alert>
    );
  }
  return (
    <Stack gap="sm" role="status" aria-busy="true" aria-label={t('page.loading')}>
      <Skeleton height={36} radius="md" />
      <Skeleton height={36} radius="md" />
      <Skeleton height={36} width="60%" radius="md" />
    </Stack>
  );
}
