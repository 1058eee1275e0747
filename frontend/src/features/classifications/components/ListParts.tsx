import '../../../shared/i18n/adminTexts'; // this screen's English texts (not in the feed's bundle)
import { ActionIcon, Alert, Button, CloseButton, Group, Pagination, Select, Skeleton, Stack, Switch, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle, IconPencil, IconPlus, IconSearch } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { useIsMobile } from '../../../shared/layout/breakpoints';
import { type ActiveFilter, PAGE_SIZE } from '../api/classificationsApi';
import classes from './Classifications.module.css';

interface ToolbarProps {
  search: string;
  onSearch: (text: string) => void;
  active?: ActiveFilter;
  onActive?: (filter: ActiveFilter) => void;
  /** Further filters (a category, a topic). */
  children?: ReactNode;
  onAdd?: () => void;
  addLabel?: string;
  testId: string;
}

/** A list's search box, its status filter, its own filters and its Add button. */
export function ListToolbar({ search, onSearch, active, onActive, children, onAdd, addLabel, testId }: ToolbarProps) {
  const { t } = useTranslation();
  return (
    <div className={classes.toolbar}>
      <TextInput
        className={classes.search}
        label={t('classifications.list.search')}
        value={search}
        onChange={(event) => onSearch(event.currentTarget.value)}
        leftSection={<IconSearch size={16} aria-hidden="true" />}
        rightSection={search ? <CloseButton size="sm" aria-label={t('common.close')} onClick={() => onSearch('')} /> : null}
        type="search"
        data-testid={`${testId}-search`}
      />
      {active !== undefined && onActive && (
        <Select
          className={classes.filter}
          label={t('classifications.list.status')}
          value={active}
          onChange={(value) => onActive((value as ActiveFilter | null) ?? 'all')}
          allowDeselect={false}
          data={[
            { value: 'all', label: t('classifications.list.all') },
            { value: 'active', label: t('classifications.list.active') },
            { value: 'inactive', label: t('classifications.list.inactive') },
          ]}
          data-testid={`${testId}-status`}
        />
      )}
      {children}
      {onAdd && (
        <Button leftSection={<IconPlus size={16} aria-hidden="true" />} onClick={onAdd} data-testid={`${testId}-add`}>
          {addLabel ?? t('classifications.list.add')}
        </Button>
      )}
    </div>
  );
}

interface ListBodyProps {
  loading: boolean;
  error: unknown;
  onRetry: () => void;
  total: number;
  searching: boolean;
  page: number;
  onPage: (page: number) => void;
  testId: string;
  children: ReactNode;
}

/** A list's loading, error and empty states, its count and its pages. */
export function ListBody({ loading, error, onRetry, total, searching, page, onPage, testId, children }: ListBodyProps) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  if (loading) {
    return (
      <Stack gap="xs" aria-busy="true" aria-label={t('page.loading')} data-testid={`${testId}-loading`}>
        {[0, 1, 2, 3].map((index) => (
          <Skeleton key={index} height={44} radius="md" />
        ))}
      </Stack>
    );
  }
  if (error) {
    return (
      <Alert color="red" variant="light" radius="md" icon={<IconAlertTriangle size={18} />} title={t('classifications.list.failed')} data-testid={`${testId}-error`}>
        <Button size="xs" variant="white" color="red" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      </Alert>
    );
  }
  if (total === 0) {
    return (
      <Text c="dimmed" ta="center" py="xl" data-testid={`${testId}-empty`}>
        {searching ? t('classifications.list.emptySearch') : t('classifications.list.empty')}
      </Text>
    );
  }
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed" data-testid={`${testId}-total`}>
        {t('classifications.list.total', { count: total })}
      </Text>
      {children}
      {pages > 1 && (
        <Group justify="center">
          <Pagination total={pages} value={Math.min(page, pages)} onChange={onPage} size={mobile ? 'sm' : 'md'} radius="xl" aria-label={t('classifications.list.paging')} />
        </Group>
      )}
    </Stack>
  );
}

/** The server's refusal of a change made from a list (a row in use cannot be deactivated: 409). */
export function ListProblem({ message, onClose, testId }: { message: string | null; onClose: () => void; testId: string }) {
  const { t } = useTranslation();
  if (!message) return null;
  return (
    <Alert
      color="red"
      variant="light"
      radius="md"
      role="alert"
      icon={<IconAlertTriangle size={18} />}
      title={t('classifications.list.refused')}
      withCloseButton
      closeButtonLabel={t('classifications.list.dismiss')}
      onClose={onClose}
      data-testid={`${testId}-problem`}
    >
      {message}
    </Alert>
  );
}

/** A row's active switch: it sends the change at once and says so while it waits (aria-busy). */
export function ActiveSwitch({ name, active, busy, onChange }: { name: string; active: boolean; busy: boolean; onChange: (active: boolean) => void }) {
  const { t } = useTranslation();
  return (
    <Switch
      checked={active}
      onChange={(event) => {
        if (!busy) onChange(event.currentTarget.checked);
      }}
      aria-label={t('classifications.list.toggle', { name })}
      aria-busy={busy}
      color="teal"
      data-testid="row-active"
    />
  );
}

/** A row's edit button, named after the row. */
export function EditButton({ name, onClick }: { name: string; onClick: () => void }) {
  const { t } = useTranslation();
  return (
    <ActionIcon variant="subtle" size="lg" onClick={onClick} aria-label={t('classifications.list.editNamed', { name })} data-testid="row-edit">
      <IconPencil size={18} aria-hidden="true" />
    </ActionIcon>
  );
}

