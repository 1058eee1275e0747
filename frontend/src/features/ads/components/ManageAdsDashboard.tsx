import '../../../shared/i18n/adsTexts';

import { Button, Group, SegmentedControl, Stack, Text, TextInput, ThemeIcon } from '@mantine/core';
import { IconAd2, IconArchive, IconCheck, IconPlayerPlay, IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import { keepPreviousData, useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useMemo, useReducer, useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { AdCounts, AdOut, AdUserStatus } from '../../../shared/api/generated/types.gen';
import { useSession } from '../../../shared/auth/session';
import { discoveryQueryKeys } from '../../../shared/discovery/discoveryQueryKeys';
import { confirmBulkDelete, reportBulkResult, runForEach } from '../../../shared/manage/bulkActions';
import { BulkBar, LoadMoreButton, ManageListError, ManageListLoading, manageListClasses } from '../../../shared/manage/ManageListParts';
import { useDebouncedValue } from '../../../shared/timing/useDebouncedValue';
import { OwnerFilter } from '../../../shared/users/OwnerFilter';
import { adCountsQueryOptions, deleteAd, runAdTask, userAdsQueryOptions } from '../api/adsApi';
import { adsQueryKeys } from '../api/queryKeys';
import type { AdFormOwner } from '../model/adForm';
import { adSelectionReducer } from '../model/adSelection';
import type { AdFormRequest } from './AdFormDialog';
import classes from './ManageAds.module.css';
import { type AdRowAction, ManageAdRow } from './ManageAdRow';

// The form (tags picker, upload) is fetched when the user first adds or edits an ad.
const AdFormDialog = lazy(async () => ({ default: (await import('./AdFormDialog')).AdFormDialog }));

const STATUSES: readonly AdUserStatus[] = ['all', 'active', 'draft', 'pending', 'rejected'];
const SEARCH_DEBOUNCE_MS = 400;

/** The count shown beside a filter; `all` is the counts' total. */
function countOf(counts: AdCounts | undefined, status: AdUserStatus): number | null {
  if (!counts) return null;
  return status === 'all' ? counts.total : counts[status];
}

/** Spec §2 manage ads: filter, search, select, move to drafts, publish, delete, edit, add. */
export function ManageAdsDashboard() {
  const { t } = useTranslation();
  const session = useSession();
  const queryClient = useQueryClient();
  const isAdmin = session.role === 'admin';
  const selfId = Number(session.claims?.sub ?? NaN);
  const [owner, setOwner] = useState<AdFormOwner | null>(null);
  const ownerId = owner?.userid ?? selfId;
  const [status, setStatus] = useState<AdUserStatus>('all');
  const [searchText, setSearchText] = useState('');
  const { debounced: search } = useDebouncedValue(searchText.trim(), SEARCH_DEBOUNCE_MS);
  const [selected, select] = useReducer(adSelectionReducer, new Set<number>());
  const [working, setWorking] = useState<AdRowAction | null>(null);
  const [formRequest, setFormRequest] = useState<AdFormRequest | null>(null);

  const valid = Number.isFinite(ownerId);
  const ads = useInfiniteQuery({ ...userAdsQueryOptions(ownerId, { status, search }), enabled: valid, placeholderData: keepPreviousData });
  const counts = useQuery({ ...adCountsQueryOptions(ownerId), enabled: valid });
  const list = useMemo(() => (ads.data?.pages ?? []).flatMap((page) => page.data), [ads.data]);
  const visible = useMemo(() => list.map((ad) => ad.id), [list]);

  useEffect(() => select({ type: 'keepOnly', visible }), [visible]);

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: adsQueryKeys.all });
    // A published, drafted or deleted ad changes the feed's Sponsored cards.
    void queryClient.invalidateQueries({ queryKey: discoveryQueryKeys.all });
  };

  const runBulk = async (action: AdRowAction, ids: readonly number[]) => {
    setWorking(action);
    const result = await runForEach(ids, (id) => (action === 'delete' ? deleteAd(id) : runAdTask(id, action)));
    setWorking(null);
    reportBulkResult(result, {
      done: (count) => t(`manageAds.done.${action}`, { count }),
      someFailed: (count) => t('manageAds.someFailed', { count }),
      failed: t('manageAds.actionFailed'),
      ok: t('common.ok'),
    });
    select({ type: 'clear' });
    await refresh();
  };

  const confirmDelete = (ids: readonly number[]) =>
    confirmBulkDelete({
      title: t('manageAds.deleteTitle', { count: ids.length }),
      text: t('manageAds.deleteText', { count: ids.length }),
      confirm: t('manageAds.delete'),
      cancel: t('common.cancel'),
      confirmTestId: 'confirm-delete-ads',
      onConfirm: () => void runBulk('delete', ids),
    });

  const act = (action: AdRowAction, ids: readonly number[]) => (action === 'delete' ? confirmDelete(ids) : void runBulk(action, ids));
  const selectedAds = list.filter((ad) => selected.has(ad.id));
  const total = ads.data?.pages[0]?.total_items ?? 0;
  const idsWhere = (keep: (ad: AdOut) => boolean) => selectedAds.filter(keep).map((ad) => ad.id);

  return (
    <Stack gap="md" className={manageListClasses.dashboard} data-testid="manage-ads">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Text c="dimmed" size="sm" data-testid="manage-ads-total">
          {t('manageAds.total', { count: total })}
          {owner && ` · @${owner.platform_username}`}
        </Text>
        <Group gap="xs">
          {isAdmin && <OwnerFilter label={t('manageAds.owner')} onPick={(picked) => setOwner(picked && { userid: picked.userid, platform_username: picked.platform_username })} />}
          <Button radius="xl" leftSection={<IconPlus size={16} />} onClick={() => setFormRequest({ mode: 'add', onBehalfOf: owner })} data-testid="add-ad">
            {t('manageAds.add')}
          </Button>
        </Group>
      </Group>

      <div className={classes.toolbar}>
        <SegmentedControl
          value={status}
          onChange={(value) => setStatus(value as AdUserStatus)}
          radius="xl"
          data={STATUSES.map((value) => {
            const count = countOf(counts.data, value);
            return { value, label: count === null ? t(`manageAds.filter.${value}`) : `${t(`manageAds.filter.${value}`)} · ${count}` };
          })}
          aria-label={t('manageAds.filterLabel')}
          data-testid="manage-ads-filter"
        />
        <TextInput
          value={searchText}
          onChange={(event) => setSearchText(event.currentTarget.value)}
          placeholder={t('manageAds.search')}
          aria-label={t('manageAds.search')}
          leftSection={<IconSearch size={16} />}
          radius="xl"
          maxLength={200}
        />
      </div>

      <BulkBar
        selected={selected}
        visible={visible}
        onToggleAll={() => select({ type: 'toggleAll', visible })}
        label={selected.size > 0 ? t('manageAds.selected', { count: selected.size }) : t('manageAds.selectAll')}
        testId="manage-ads-bulk"
      >
        <Button size="xs" radius="xl" variant="default" leftSection={<IconArchive size={14} />} disabled={idsWhere((ad) => ad.status === 'active').length === 0} loading={working === 'deactivate'} onClick={() => act('deactivate', idsWhere((ad) => ad.status === 'active'))} data-testid="bulk-drafts">
          {t('manageAds.toDrafts')}
        </Button>
        <Button size="xs" radius="xl" variant="default" leftSection={<IconPlayerPlay size={14} />} disabled={idsWhere((ad) => ad.status === 'draft').length === 0} loading={working === 'activate'} onClick={() => act('activate', idsWhere((ad) => ad.status === 'draft'))}>
          {t('manageAds.publish')}
        </Button>
        {isAdmin && (
          <Button size="xs" radius="xl" variant="light" color="teal" leftSection={<IconCheck size={14} />} disabled={idsWhere((ad) => ad.approval_state !== 'approved').length === 0} loading={working === 'approve'} onClick={() => act('approve', idsWhere((ad) => ad.approval_state !== 'approved'))}>
            {t('manageAds.approve')}
          </Button>
        )}
        <Button size="xs" radius="xl" variant="light" color="red" leftSection={<IconTrash size={14} />} disabled={selected.size === 0} loading={working === 'delete'} onClick={() => act('delete', [...selected])} data-testid="bulk-delete-ads">
          {t('manageAds.delete')}
        </Button>
      </BulkBar>

      <AdList
        ads={list}
        loading={ads.isPending && valid}
        error={ads.isError}
        filtered={status !== 'all' || search !== ''}
        onRetry={() => void ads.refetch()}
        onAdd={() => setFormRequest({ mode: 'add', onBehalfOf: owner })}
        selected={selected}
        onToggle={(id) => select({ type: 'toggle', id })}
        isAdmin={isAdmin}
        onAction={(action, id) => act(action, [id])}
        onEdit={(ad) => setFormRequest({ mode: 'edit', ad })}
      />
      {ads.hasNextPage && <LoadMoreButton loading={ads.isFetchingNextPage} onClick={() => void ads.fetchNextPage()} label={t('manageAds.more')} />}
      {formRequest && (
        <Suspense fallback={null}>
          <AdFormDialog request={formRequest} onClose={() => setFormRequest(null)} onSaved={() => void refresh()} />
        </Suspense>
      )}
    </Stack>
  );
}

interface AdListProps {
  ads: readonly AdOut[];
  loading: boolean;
  error: boolean;
  filtered: boolean;
  onRetry: () => void;
  onAdd: () => void;
  selected: ReadonlySet<number>;
  onToggle: (id: number) => void;
  isAdmin: boolean;
  onAction: (action: AdRowAction, id: number) => void;
  onEdit: (ad: AdOut) => void;
}

function AdList({ ads, loading, error, filtered, onRetry, onAdd, selected, onToggle, isAdmin, onAction, onEdit }: AdListProps) {
  const { t } = useTranslation();
  if (loading) return <ManageListLoading testId="manage-ads-loading" />;
  if (error) return <ManageListError message={t('manageAds.failed')} onRetry={onRetry} />;
  if (ads.length === 0) {
    return filtered ? (
      <Text c="dimmed" ta="center" py="xl" data-testid="manage-ads-empty">
        {t('manageAds.emptyFiltered')}
      </Text>
    ) : (
      <Stack align="center" ta="center" gap="sm" py="xl" data-testid="manage-ads-empty">
        <ThemeIcon size={56} radius="xl" variant="light">
          <IconAd2 size={28} />
        </ThemeIcon>
        <Text fw={650}>{t('manageAds.empty')}</Text>
        <Text c="dimmed" size="sm">
          {t('manageAds.emptyHint')}
        </Text>
        <Button radius="xl" leftSection={<IconPlus size={16} />} onClick={onAdd}>
          {t('manageAds.add')}
        </Button>
      </Stack>
    );
  }
  return (
    <Stack gap="xs" component="ul" className={manageListClasses.list} data-testid="manage-ads-list">
      {ads.map((ad) => (
        <ManageAdRow
          key={ad.id}
          ad={ad}
          selected={selected.has(ad.id)}
          onToggle={() => onToggle(ad.id)}
          isAdmin={isAdmin}
          onAction={(action) => onAction(action, ad.id)}
          onEdit={() => onEdit(ad)}
        />
      ))}
    </Stack>
  );
}
