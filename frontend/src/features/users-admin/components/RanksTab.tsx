import '../../../shared/i18n/adminTexts'; // this screen's English texts (not in the feed's bundle)
import { ActionIcon, Alert, Button, Group, Modal, Pagination, SegmentedControl, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconPencil, IconPlus, IconRefresh, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { errorMessage } from '../../../shared/api/apiError';
import type { RankSourceOut } from '../../../shared/api/generated/types.gen';
import {
  RANK_VALUE_LIMIT,
  RANKS_PAGE_SIZE,
  type RankRow,
  rankListQueryOptions,
  rankSourcesQueryOptions,
  useCalculateRanks,
  useDeleteTourRank,
  useSaveRank,
} from '../api/platformAdminApi';
import type { RankKind } from '../api/queryKeys';
import { type RankFormErrors, type RankFormValues, validateRank } from '../model/forms';
import { ListEmpty, ListError, ListLoading } from './ListStates';
import classes from './UsersAdmin.module.css';

type Editing = { row: RankRow | null } | null;

/** Ranks by source of tours and creators (spec §7 ranks, ranks/calc, rank-sources). */
export function RanksTab() {
  const { t, i18n } = useTranslation();
  const [kind, setKind] = useState<RankKind>('tours');
  const [source, setSource] = useState<number | null>(null);
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<RankRow | null>(null);
  const sources = useQuery(rankSourcesQueryOptions());
  const list = useQuery(rankListQueryOptions(kind, source, (page - 1) * RANKS_PAGE_SIZE));
  const calc = useCalculateRanks(kind);
  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / RANKS_PAGE_SIZE));
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 4 });
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' });

  const recalc = () =>
    calc.mutate(undefined, {
      onSuccess: () => notifications.show({ color: 'teal', message: t('usersAdmin.ranks.recalcStarted') }),
      onError: (error) => notifications.show({ color: 'red', title: t('usersAdmin.ranks.recalcFailed'), message: errorMessage(error, t('page.errorText')) }),
    });

  let body;
  if (list.isPending) body = <ListLoading rows={3} testId="ranks-loading" />;
  else if (list.isError) body = <ListError error={list.error} onRetry={() => void list.refetch()} testId="ranks-error" />;
  else if (list.data.rows.length === 0) body = <ListEmpty text={t('usersAdmin.ranks.empty')} testId="ranks-empty" />;
  else
    body = (
      <div className={classes.tableWrap}>
        <Table striped withTableBorder verticalSpacing="xs" data-testid="ranks-table" aria-busy={list.isFetching}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('usersAdmin.ranks.name')}</Table.Th>
              <Table.Th>{t('usersAdmin.ranks.source')}</Table.Th>
              <Table.Th ta="right">{t('usersAdmin.ranks.value')}</Table.Th>
              <Table.Th ta="right">{t('usersAdmin.ranks.position')}</Table.Th>
              <Table.Th>{t('usersAdmin.ranks.updated')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.data.rows.map((row) => (
              <Table.Tr key={row.id} data-testid="rank-row">
                <Table.Td className={classes.name}>{row.name}</Table.Td>
                <Table.Td>{row.rank_source}</Table.Td>
                <Table.Td ta="right">{number.format(row.value)}</Table.Td>
                <Table.Td ta="right">{row.position ?? '—'}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{date.format(new Date(row.updated_date))}</Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap" justify="flex-end">
                    <ActionIcon variant="subtle" onClick={() => setEditing({ row })} aria-label={t('usersAdmin.ranks.editOf', { name: row.name })}>
                      <IconPencil size={16} aria-hidden="true" />
                    </ActionIcon>
                    {kind === 'tours' && (
                      <ActionIcon variant="subtle" color="red" onClick={() => setDeleting(row)} aria-label={t('usersAdmin.ranks.deleteOf', { name: row.name })}>
                        <IconTrash size={16} aria-hidden="true" />
                      </ActionIcon>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </div>
    );

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed" maw={760}>
        {t('usersAdmin.ranks.intro')}
      </Text>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <SegmentedControl
          aria-label={t('usersAdmin.ranks.kind')}
          value={kind}
          onChange={(value) => {
            setKind(value === 'creators' ? 'creators' : 'tours');
            setPage(1);
          }}
          data={[
            { value: 'tours', label: t('usersAdmin.ranks.tours') },
            { value: 'creators', label: t('usersAdmin.ranks.creators') },
          ]}
          data-testid="ranks-kind"
        />
        <Select
          label={t('usersAdmin.ranks.source')}
          data={[{ value: '', label: t('usersAdmin.ranks.allSources') }, ...(sources.data ?? []).map((item) => ({ value: String(item.id), label: item.name }))]}
          value={source === null ? '' : String(source)}
          onChange={(value) => {
            setSource(value ? Number(value) : null);
            setPage(1);
          }}
          allowDeselect={false}
          w={220}
          data-testid="ranks-source"
        />
        <Group gap="sm" ml="auto">
          <Button variant="default" leftSection={<IconRefresh size={16} aria-hidden="true" />} onClick={recalc} loading={calc.isPending} data-testid="ranks-recalc">
            {t('usersAdmin.ranks.recalc')}
          </Button>
          <Button leftSection={<IconPlus size={16} aria-hidden="true" />} onClick={() => setEditing({ row: null })} disabled={!sources.data?.length} data-testid="ranks-add">
            {t('usersAdmin.ranks.add')}
          </Button>
        </Group>
      </Group>
      {sources.data?.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('usersAdmin.ranks.noSources')}
        </Text>
      )}
      {body}
      {pages > 1 && (
        <Group justify="center">
          <Pagination total={pages} value={page} onChange={setPage} aria-label={t('usersAdmin.ranks.pages')} />
        </Group>
      )}
      {editing && <RankDialog kind={kind} row={editing.row} sources={sources.data ?? []} onClose={() => setEditing(null)} />}
      {deleting && <DeleteRankDialog row={deleting} onClose={() => setDeleting(null)} />}
    </Stack>
  );
}

function RankDialog({ kind, row, sources, onClose }: { kind: RankKind; row: RankRow | null; sources: readonly RankSourceOut[]; onClose: () => void }) {
  const { t } = useTranslation();
  const adding = row === null;
  const [values, setValues] = useState<RankFormValues>({
    sourceId: row ? String(row.rank_source_id) : sources.length === 1 ? String(sources[0]?.id) : null,
    target: row?.target ?? '',
    value: row ? String(row.value) : '',
    position: row?.position ? String(row.position) : '',
  });
  const [errors, setErrors] = useState<RankFormErrors>({});
  const save = useSaveRank(kind);
  const set = (field: keyof RankFormValues) => (value: string | null) => setValues((current) => ({ ...current, [field]: value ?? (field === 'sourceId' ? null : '') }));
  const message = (error: string | undefined) => (error ? t(`usersAdmin.ranks.errors.${error as 'required'}`) : undefined);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateRank(values, { adding, creators: kind === 'creators', limit: RANK_VALUE_LIMIT });
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    save.mutate(
      {
        id: row?.id ?? null,
        rank_source_id: Number(values.sourceId ?? row?.rank_source_id),
        target: values.target,
        value: Number(values.value),
        position: values.position.trim() ? Number(values.position) : null,
      },
      {
        onSuccess: () => {
          notifications.show({ color: 'teal', message: t('usersAdmin.ranks.saved') });
          onClose();
        },
      },
    );
  };

  return (
    <Modal opened onClose={onClose} title={adding ? t('usersAdmin.ranks.addTitle') : t('usersAdmin.ranks.editTitle')} centered radius="lg" attributes={{ content: { 'data-testid': 'rank-dialog' } }}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {!adding && <Text fw={600}>{row.name}</Text>}
          <Select
            label={t('usersAdmin.ranks.source')}
            data={sources.map((item) => ({ value: String(item.id), label: item.name }))}
            value={values.sourceId}
            onChange={set('sourceId')}
            disabled={!adding}
            error={message(errors.sourceId)}
            required
          />
          {adding && (
            <TextInput
              label={kind === 'tours' ? t('usersAdmin.ranks.guid') : t('usersAdmin.ranks.creatorId')}
              value={values.target}
              onChange={(event) => set('target')(event.currentTarget.value)}
              error={message(errors.target)}
              inputMode={kind === 'creators' ? 'numeric' : undefined}
              required
              data-testid="rank-target"
            />
          )}
          <TextInput
            label={t('usersAdmin.ranks.value')}
            value={values.value}
            onChange={(event) => set('value')(event.currentTarget.value)}
            error={message(errors.value)}
            inputMode="decimal"
            required
            data-testid="rank-value"
          />
          <TextInput
            label={t('usersAdmin.ranks.position')}
            description={t('usersAdmin.ranks.positionHint')}
            value={values.position}
            onChange={(event) => set('position')(event.currentTarget.value)}
            error={message(errors.position)}
            inputMode="numeric"
            data-testid="rank-position"
          />
          {save.isError && (
            <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title={t('usersAdmin.ranks.failed')} data-testid="rank-error">
              {errorMessage(save.error, t('page.errorText'))}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm" mt="xs">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending} data-testid="rank-save">
              {t('usersAdmin.ranks.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function DeleteRankDialog({ row, onClose }: { row: RankRow; onClose: () => void }) {
  const { t } = useTranslation();
  const remove = useDeleteTourRank();
  return (
    <Modal opened onClose={onClose} title={t('usersAdmin.ranks.deleteTitle')} centered radius="lg" attributes={{ content: { 'data-testid': 'rank-delete-dialog' } }}>
      <Stack gap="md">
        <Text size="sm">{t('usersAdmin.ranks.deleteText', { source: row.rank_source, value: row.value, name: row.name })}</Text>
        {remove.isError && (
          <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />}>
            {errorMessage(remove.error, t('page.errorText'))}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            color="red"
            loading={remove.isPending}
            onClick={() =>
              remove.mutate(row.id, {
                onSuccess: () => {
                  notifications.show({ color: 'teal', message: t('usersAdmin.ranks.deleted') });
                  onClose();
                },
              })
            }
            data-testid="rank-delete-confirm"
          >
            {t('usersAdmin.ranks.delete')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
