import { Alert, Button, Center, Checkbox, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import classes from './ManageList.module.css';

/** The class names the manage dashboards share (the dashboard's padding, the list). */
export const manageListClasses = { dashboard: classes.dashboard, list: classes.list };

/** The rows' placeholders while the first page loads. */
export function ManageListLoading({ testId }: { testId?: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs" aria-busy="true" aria-label={t('page.loading')} data-testid={testId}>
      {Array.from({ length: 5 }, (_, index) => (
        <Skeleton key={index} h={76} radius="md" />
      ))}
    </Stack>
  );
}

/** The list could not be loaded: what failed, and a retry. */
export function ManageListError({ message, onRetry }: { message: string; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" variant="light" radius="lg" icon={<IconAlertTriangle size={20} />} title={t('page.errorTitle')}>
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{message}</Text>
        <Button size="xs" variant="white" color="red" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      </Stack>
    </Alert>
  );
}

interface BulkBarProps<Key> {
  selected: ReadonlySet<Key>;
  visible: readonly Key[];
  onToggleAll: () => void;
  /** "N selected" while some are, else "Select all". */
  label: string;
  testId: string;
  /** The bulk action buttons. */
  children: ReactNode;
}

/** The sticky bar above a manage list: select all (or how many are), and the actions on them. */
export function BulkBar<Key>({ selected, visible, onToggleAll, label, testId, children }: BulkBarProps<Key>) {
  const allSelected = visible.length > 0 && visible.every((key) => selected.has(key));
  return (
    <Group justify="space-between" className={classes.bulkBar} wrap="wrap" gap="xs" data-testid={testId}>
      <Checkbox label={label} checked={allSelected} indeterminate={selected.size > 0 && !allSelected} onChange={onToggleAll} disabled={visible.length === 0} />
      <Group gap="xs">{children}</Group>
    </Group>
  );
}

/** "Show more" under a list with another page. */
export function LoadMoreButton({ loading, onClick, label }: { loading: boolean; onClick: () => void; label: string }) {
  return (
    <Center>
      <Button variant="default" radius="xl" loading={loading} onClick={onClick}>
        {label}
      </Button>
    </Center>
  );
}
