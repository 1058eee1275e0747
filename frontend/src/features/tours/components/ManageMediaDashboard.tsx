import '../../../shared/i18n/manageTexts'; // this screen's English texts (not in the feed's bundle)
import { Button, Group, Menu, SegmentedControl, Select, Stack, Text, ThemeIcon } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArchive, IconCheck, IconChevronDown, IconEyeOff, IconMovie, IconPlayerPlay, IconPlus, IconTrash, IconWorld } from '@tabler/icons-react';
import { keepPreviousData, useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useReducer, useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { TaskName, TourOut, UserTourSort } from '../../../shared/api/generated/types.gen';
import { useSession } from '../../../shared/auth/session';
import { discoveryQueryKeys } from '../../../shared/discovery/discoveryQueryKeys';
import { confirmBulkDelete, reportBulkResult, runForEach } from '../../../shared/manage/bulkActions';
import { BulkBar, LoadMoreButton, ManageListError, ManageListLoading, manageListClasses } from '../../../shared/manage/ManageListParts';
import { openMediaForm } from '../../../shared/media/mediaFormRequest';
import { openOwnerMail } from '../../../shared/moderation/ownerMailRequest';
import { tourQueryKeys } from '../../../shared/tours/tourQueryKeys';
import { showMessageDialog } from '../../../shared/ui/messageDialog';
import { OwnerFilter } from '../../../shared/users/OwnerFilter';
import { categoriesQueryOptions, vendorsQueryOptions } from '../../../shared/dictionaries/queries';
import {
  creatorFeaturedQueryOptions,
  deleteTour,
  type ManageQuery,
  runTourTask,
  saveFeaturedOrder,
  userToursQueryOptions,
} from '../api/tourApi';
import { selectionReducer, toggleFeatured } from '../model/manageSelection';
import { type FeaturedItem, FeaturedOrder } from './FeaturedOrder';
import classes from './ManageMedia.module.css';
import { ManageTourRow } from './ManageTourRow';

interface Owner {
  userid: number;
  name: string | null;
  hasCreator: boolean;
}

type BulkAction = 'deactivate' | 'activate' | 'approve' | 'delete' | 'make_unlisted' | 'make_public';

const asOptions = (items: ReadonlyArray<{ id: number; name: string }>) => items.map((item) => ({ value: String(item.id), label: item.name }));

/** Spec §2 manage media dashboard: sort, filter, select, move to drafts, delete, approve, edit, feature. */
export function ManageMediaDashboard({ onOpenTour }: { onOpenTour: () => void }) {
  const { t } = useTranslation();
  const session = useSession();
  const queryClient = useQueryClient();
  const isAdmin = session.role === 'admin';
  const selfId = Number(session.claims?.sub ?? NaN);
  const [owner, setOwner] = useState<Owner>({ userid: selfId, name: null, hasCreator: session.creatorId !== null });
  const [sort, setSort] = useState<UserTourSort>('date');
  const [provider, setProvider] = useState<string | null>(null);
  const [category, setCategory] = useState<string | null>(null);
  const [subcategory, setSubcategory] = useState<string | null>(null);
  const [selected, select] = useReducer(selectionReducer, new Set<string>());
  const [working, setWorking] = useState<BulkAction | null>(null);

  const vendors = useQuery(vendorsQueryOptions());
  const categories = useQuery(categoriesQueryOptions());
  const subcategories = categories.data?.find((item) => String(item.id) === category)?.subcategories ?? [];
  const query: ManageQuery = { sort, provider: provider ? Number(provider) : null, category: category ? Number(category) : null, subcategory: subcategory ? Number(subcategory) : null };
  const tours = useInfiniteQuery({ ...userToursQueryOptions(owner.userid, query), enabled: Number.isFinite(owner.userid), placeholderData: keepPreviousData });
  const list = useMemo(() => (tours.data?.pages ?? []).flatMap((page) => page.data), [tours.data]);
  const total = tours.data?.pages[0]?.total_items ?? 0;
  const visible = useMemo(() => list.map((tour) => tour.guid), [list]);

  useEffect(() => select({ type: 'keepOnly', visible }), [visible]);

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: tourQueryKeys.all });
    void queryClient.invalidateQueries({ queryKey: discoveryQueryKeys.all });
  };

  const runBulk = async (action: BulkAction, guids: readonly string[]) => {
    setWorking(action);
    const result = await runForEach(guids, (guid) => (action === 'delete' ? deleteTour(guid) : runTourTask(guid, action as TaskName)));
    setWorking(null);
    const texts = {
      done: (count: number) => t(`manageMedia.done.${action}`, { count }),
      someFailed: (count: number) => t('manageMedia.someFailed', { count }),
      failed: t('mediaForm.failed'),
      ok: t('common.ok'),
    };
    reportBulkResult(result, texts, () => {
      // Spec §4: an admin who deleted or deactivated someone else's media writes to the owner.
      if (result.succeeded.length > 0 && isAdmin && owner.userid !== selfId && (action === 'delete' || action === 'deactivate')) {
        const succeeded = new Set(result.succeeded);
        openOwnerMail({
          userid: owner.userid,
          username: owner.name,
          titles: list.filter((tour) => succeeded.has(tour.guid)).map((tour) => tour.title),
          action: action === 'delete' ? 'deleted' : 'deactivated',
        });
      }
    });
    select({ type: 'clear' });
    await refresh();
  };

  const confirmDelete = (guids: readonly string[]) =>
    confirmBulkDelete({
      title: t('manageMedia.deleteTitle', { count: guids.length }),
      text: t('manageMedia.deleteText', { count: guids.length }),
      confirm: t('manageMedia.delete'),
      cancel: t('common.cancel'),
      confirmTestId: 'confirm-delete-tours',
      onConfirm: () => void runBulk('delete', guids),
    });

  const act = (action: BulkAction, guids: readonly string[]) => (action === 'delete' ? confirmDelete(guids) : void runBulk(action, guids));
  const selectedList = [...selected];
  const selectedTours = list.filter((tour) => selected.has(tour.guid));
  const pendingSelected = selectedTours.filter((tour) => tour.approval_state !== 'approved').length;
  const featured = useFeatured(owner, sort === 'featured');

  return (
    <Stack gap="md" className={manageListClasses.dashboard} data-testid="manage-media">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Text c="dimmed" size="sm" data-testid="manage-total">
          {t('manageMedia.total', { count: total })}
          {owner.name && ` · @${owner.name}`}
        </Text>
        <Group gap="xs">
          {isAdmin && (
            <OwnerFilter
              label={t('manageMedia.owner')}
              onPick={(picked) =>
                setOwner(picked ? { userid: picked.userid, name: picked.platform_username, hasCreator: picked.creatorId !== null } : { userid: selfId, name: null, hasCreator: session.creatorId !== null })
              }
            />
          )}
          <Button radius="xl" leftSection={<IconPlus size={16} />} onClick={() => openMediaForm({ mode: 'add' })}>
            {t('media.add')}
          </Button>
        </Group>
      </Group>

      <div className={classes.toolbar}>
        <SegmentedControl
          value={sort}
          onChange={(value) => setSort(value as UserTourSort)}
          radius="xl"
          data={[
            { value: 'date', label: t('manageMedia.sort.date') },
            { value: 'title', label: t('manageMedia.sort.title') },
            { value: 'featured', label: t('manageMedia.sort.featured') },
          ]}
          aria-label={t('manageMedia.sortLabel')}
          data-testid="manage-sort"
        />
        <Select
          placeholder={t('manageMedia.provider')}
          aria-label={t('manageMedia.provider')}
          data={(vendors.data ?? []).map((vendor) => ({ value: String(vendor.vendor_id), label: vendor.vendor_name }))}
          value={provider}
          onChange={setProvider}
          clearable
          searchable
          comboboxProps={{ zIndex: 400 }}
          maxDropdownHeight={250}
        />
        <Select
          placeholder={t('manageMedia.category')}
          aria-label={t('manageMedia.category')}
          data={asOptions(categories.data ?? [])}
          value={category}
          onChange={(value) => {
            setCategory(value);
            setSubcategory(null);
          }}
          clearable
          searchable
          comboboxProps={{ zIndex: 400 }}
          maxDropdownHeight={250}
        />
        <Select
          placeholder={t('manageMedia.subcategory')}
          aria-label={t('manageMedia.subcategory')}
          data={asOptions(subcategories)}
          value={subcategory}
          onChange={setSubcategory}
          disabled={subcategories.length === 0}
          clearable
          searchable
          comboboxProps={{ zIndex: 400 }}
          maxDropdownHeight={250}
        />
      </div>

      {featured.available && (
        <FeaturedOrder
          items={featured.items}
          onReorder={featured.setOrder}
          onRemove={(guid) => void featured.save(toggleFeatured(featured.order, guid))}
          changed={featured.changed}
          saving={featured.saving}
          onSave={() => void featured.save(featured.order)}
          onReset={featured.reset}
        />
      )}

      <BulkBar
        selected={selected}
        visible={visible}
        onToggleAll={() => select({ type: 'toggleAll', visible })}
        label={selected.size > 0 ? t('manageMedia.selected', { count: selected.size }) : t('manageMedia.selectAll')}
        testId="manage-bulk"
      >
        <Button size="xs" radius="xl" variant="default" leftSection={<IconArchive size={14} />} disabled={selected.size === 0} loading={working === 'deactivate'} onClick={() => act('deactivate', selectedList)}>
          {t('manageMedia.toDrafts')}
        </Button>
        <Button size="xs" radius="xl" variant="default" leftSection={<IconPlayerPlay size={14} />} disabled={selected.size === 0} loading={working === 'activate'} onClick={() => act('activate', selectedList)}>
          {t('manageMedia.activate')}
        </Button>
        <Menu position="bottom-start" withinPortal>
          <Menu.Target>
            <Button
              size="xs"
              radius="xl"
              variant="default"
              leftSection={<IconEyeOff size={14} />}
              rightSection={<IconChevronDown size={12} />}
              disabled={selected.size === 0}
              loading={working === 'make_unlisted' || working === 'make_public'}
              data-testid="bulk-visibility"
            >
              {t('manageMedia.visibility')}
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item leftSection={<IconWorld size={14} />} onClick={() => act('make_public', selectedList)}>
              {t('manageMedia.makePublic')}
            </Menu.Item>
            <Menu.Item leftSection={<IconEyeOff size={14} />} onClick={() => act('make_unlisted', selectedList)} data-testid="bulk-make-unlisted">
              {t('manageMedia.makeUnlisted')}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
        {isAdmin && (
          <Button size="xs" radius="xl" variant="light" color="teal" leftSection={<IconCheck size={14} />} disabled={pendingSelected === 0} loading={working === 'approve'} onClick={() => act('approve', selectedTours.filter((tour) => tour.approval_state !== 'approved').map((tour) => tour.guid))}>
            {t('manageMedia.approve')}
          </Button>
        )}
        <Button size="xs" radius="xl" variant="light" color="red" leftSection={<IconTrash size={14} />} disabled={selected.size === 0} loading={working === 'delete'} onClick={() => act('delete', selectedList)} data-testid="bulk-delete">
          {t('manageMedia.delete')}
        </Button>
      </BulkBar>

      <TourList
        tours={list}
        loading={tours.isPending}
        error={tours.isError}
        onRetry={() => void tours.refetch()}
        selected={selected}
        onToggle={(guid) => select({ type: 'toggle', guid })}
        isAdmin={isAdmin}
        featuredGuids={featured.available ? featured.order : null}
        onFeature={(guid) => void featured.save(toggleFeatured(featured.order, guid))}
        onAction={(action, guid) => act(action, [guid])}
        onOpenTour={onOpenTour}
      />
      {tours.hasNextPage && <LoadMoreButton loading={tours.isFetchingNextPage} onClick={() => void tours.fetchNextPage()} label={t('manageMedia.more')} />}
    </Stack>
  );
}

interface TourListProps {
  tours: readonly TourOut[];
  loading: boolean;
  error: boolean;
  onRetry: () => void;
  selected: ReadonlySet<string>;
  onToggle: (guid: string) => void;
  isAdmin: boolean;
  featuredGuids: readonly string[] | null;
  onFeature: (guid: string) => void;
  onAction: (action: BulkAction, guid: string) => void;
  onOpenTour: () => void;
}

function TourList({ tours, loading, error, onRetry, selected, onToggle, isAdmin, featuredGuids, onFeature, onAction, onOpenTour }: TourListProps) {
  const { t } = useTranslation();
  if (loading) return <ManageListLoading />;
  if (error) return <ManageListError message={t('manageMedia.failed')} onRetry={onRetry} />;
  if (tours.length === 0) {
    return (
      <Stack align="center" ta="center" gap="sm" py="xl" data-testid="manage-empty">
        <ThemeIcon size={56} radius="xl" variant="light">
          <IconMovie size={28} />
        </ThemeIcon>
        <Text fw={650}>{t('manageMedia.empty')}</Text>
        <Text c="dimmed" size="sm">
          {t('manageMedia.emptyHint')}
        </Text>
      </Stack>
    );
  }
  return (
    <Stack gap="xs" component="ul" className={manageListClasses.list} data-testid="manage-list">
      {tours.map((tour) => (
        <ManageTourRow
          key={tour.guid}
          tour={tour}
          selected={selected.has(tour.guid)}
          onToggle={() => onToggle(tour.guid)}
          isAdmin={isAdmin}
          featured={featuredGuids === null ? null : featuredGuids.includes(tour.guid)}
          onFeature={() => onFeature(tour.guid)}
          onAction={(action) => onAction(action, tour.guid)}
          onOpenTour={onOpenTour}
        />
      ))}
    </Stack>
  );
}

/** The creator's featured tours while sorting by featured: the saved order, a local draft of it, and saving. */
function useFeatured(owner: Owner, active: boolean) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const available = active && owner.hasCreator;
  const saved = useQuery({ ...creatorFeaturedQueryOptions(owner.userid), enabled: available });
  const savedOrder = useMemo(() => (saved.data ?? []).map((card) => card.guid), [saved.data]);
  const [draft, setDraft] = useState<string[] | null>(null);
  const [saving, setSaving] = useState(false);
  const order = draft ?? savedOrder;
  const titles = new Map((saved.data ?? []).map((card) => [card.guid, { title: card.title, preview: card.preview_picture }]));
  const items: FeaturedItem[] = order.map((guid) => ({ guid, title: titles.get(guid)?.title ?? guid, preview: titles.get(guid)?.preview ?? null }));

  const save = async (next: readonly string[]) => {
    setSaving(true);
    try {
      await saveFeaturedOrder(owner.userid, next);
      setDraft(null);
      notifications.show({ color: 'brand', message: t('manageMedia.featuredSaved') });
      await queryClient.invalidateQueries({ queryKey: tourQueryKeys.userTours(owner.userid) });
    } catch (error) {
      const message = (error as { message?: unknown } | null)?.message;
      showMessageDialog({ title: t('mediaForm.failedTitle'), message: typeof message === 'string' && message ? message : t('mediaForm.failed'), okLabel: t('common.ok') });
    } finally {
      setSaving(false);
    }
  };

  return { available, items, order, changed: draft !== null, saving, save, setOrder: setDraft, reset: () => setDraft(null) };
}
