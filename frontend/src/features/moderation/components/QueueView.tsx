import '../../../shared/i18n/adminTexts'; // this screen's English texts (not in the feed's bundle)
import { Alert, Badge, Button, Center, Checkbox, CloseButton, Group, Loader, Pagination, Select, Skeleton, Stack, Tabs, Text, TextInput, ThemeIcon } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconCheck, IconCircleCheck, IconSearch, IconX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { ApprovalKind } from '../../../shared/api/generated/types.gen';
import { errorMessage } from '../../../shared/api/apiError';
import { useIsMobile } from '../../../shared/layout/breakpoints';
import { getRealtimeConnection, type RealtimeConnection } from '../../../shared/socket/realtimeConnection';
import { useDebouncedValue } from '../../../shared/timing/useDebouncedValue';
import { type Decision, useDecide } from '../api/decisions';
import { type ModerationItem, PAGE_SIZE, queueQueryOptions } from '../api/moderationApi';
import { useQueueLive } from '../api/useQueueLive';
import { followCursor, keyCommand, moveCursor } from '../model/keyboard';
import { conflictReason, type DecisionOutcome, summariseOutcomes } from '../model/queue';
import { itemSummary } from '../model/summary';
import { crawledCountQueryOptions } from '../api/crawlerApi';
import { useCrawlerLive } from '../api/useCrawlerLive';
import { CrawledTours } from './CrawledTours';
import { CrawlerSettings } from './CrawlerSettings';
import { FeedbackList } from './FeedbackList';
import { isFeedbackPanel, MODERATION_TABS, type ModerationTabKey, queryKinds, type TabPanel, tabByKey, tabCount, tabKinds } from '../model/tabs';
import { ItemDetail } from './ItemDetail';
import classes from './Moderation.module.css';
import { QueueRow } from './QueueRow';
import { RejectDialog } from './RejectDialog';
import { ShortcutHint } from './ShortcutHint';

export interface QueueState {
  tab: ModerationTabKey;
  kind: ApprovalKind | null;
  search: string;
  page: number;
}

interface QueueViewProps {
  state: QueueState;
  onChange: (next: Partial<QueueState>) => void;
  /** The tab's realtime connection (tests give their own). */
  connection?: RealtimeConnection;
}

/** Outcomes worth a line of their own: the items nobody could decide here. */
interface Report {
  lines: { id: number; title: string; outcome: DecisionOutcome }[];
}

/** The moderation tabs, the queue of the chosen one and everything done to it (spec §2 moderation system). */
export function QueueView({ state, onChange, connection = getRealtimeConnection() }: QueueViewProps) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const tab = tabByKey(state.tab);
  const kinds = queryKinds(tab, state.kind);
  const [searchText, setSearchText] = useState(state.search);
  const { debounced: search, flushTo } = useDebouncedValue(searchText.trim(), 350);
  const params = { kinds, search: state.search, limit: PAGE_SIZE, offset: (state.page - 1) * PAGE_SIZE };
  // The panel tabs (feedback, crawler) list something else than approval items.
  const queue = useQuery({ ...queueQueryOptions(params), enabled: tab.panel === undefined });
  const crawled = useQuery(crawledCountQueryOptions());
  const items = useMemo(() => queue.data?.data ?? [], [queue.data]);
  const ids = useMemo(() => items.map((item) => item.id), [items]);
  const pending = queue.data?.pending;
  const total = queue.data?.total_items ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));

  useQueueLive(connection);
  useCrawlerLive(connection);
  const decide = useDecide();

  const [cursor, setCursor] = useState<number | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [detail, setDetail] = useState<ModerationItem | null>(null);
  const [rejecting, setRejecting] = useState<readonly ModerationItem[]>([]);
  const [report, setReport] = useState<Report | null>(null);
  const listRef = useRef<HTMLUListElement>(null);

  // On a phone the tab strip scrolls sideways: the chosen tab (opened from a link too) is brought into view.
  useEffect(() => {
    document.querySelector(`[data-testid="tab-${state.tab}"]`)?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [state.tab]);

  useEffect(() => {
    if (search !== state.search) onChange({ search, page: 1 });
  }, [search, state.search, onChange]);

  // The list changes under the cursor (a push, a refetch, a decision): the cursor stays on its item,
  // else takes the place of the one that left; the selection keeps only rows still shown.
  const previousIds = useRef<readonly number[]>(ids);
  useEffect(() => {
    const before = previousIds.current; // read now: the updater runs later, after the ref moved on
    setCursor((current) => followCursor(before, current, ids));
    setSelected((current) => {
      const kept = [...current].filter((id) => ids.includes(id));
      return kept.length === current.size ? current : new Set(kept);
    });
    previousIds.current = ids;
  }, [ids]);

  // A page emptied by decisions (or by another admin) falls back to the last page that has items.
  useEffect(() => {
    if (queue.data && items.length === 0 && state.page > 1 && total > 0) onChange({ page: pages });
  }, [queue.data, items.length, state.page, total, pages, onChange]);

  useEffect(() => {
    if (cursor === null) return;
    listRef.current?.querySelector(`[data-id="${ids[cursor]}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [cursor, ids]);

  const run = (targets: readonly ModerationItem[], decision: Decision, reason: string | null) => {
    if (targets.length === 0 || decide.isPending) return;
    decide.mutate(
      { ids: targets.map((item) => item.id), decision, reason },
      {
        onSuccess: (answer) => {
          const summary = summariseOutcomes(answer.data);
          setRejecting([]);
          if (detail && summary.left.has(detail.id)) setDetail(null);
          if (summary.done > 0) notifications.show({ color: 'teal', message: t(decision === 'approve' ? 'moderation.outcome.approved' : 'moderation.outcome.rejected', { count: summary.done }) });
          const titles = new Map(targets.map((item) => [item.id, itemSummary(item).title ?? t('moderation.itemNumber', { id: item.id })]));
          const lines = answer.data
            .filter((outcome) => outcome.status === 'conflict' || outcome.status === 'not_found')
            .map((outcome) => ({ id: outcome.id, title: titles.get(outcome.id) ?? String(outcome.id), outcome }));
          setReport(lines.length > 0 ? { lines } : null);
        },
        onError: (error) => notifications.show({ color: 'red', title: t('moderation.outcome.failed'), message: errorMessage(error, t('page.errorText')) }),
      },
    );
  };

  /** a and r act on the selection when there is one, else on the row under the cursor. */
  const targets = (): ModerationItem[] => {
    if (selected.size > 0) return items.filter((item) => selected.has(item.id));
    const current = cursor === null ? undefined : items[cursor];
    return current ? [current] : [];
  };

  const toggle = (id: number) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  // The keys are the queue's: a panel tab (its own fields, lists and dialogs) leaves them alone.
  const keysOff = detail !== null || rejecting.length > 0 || tab.panel !== undefined;
  const latest = useRef({ items, cursor, targets, run, toggle, busy: decide.isPending, keysOff });
  latest.current = { items, cursor, targets, run, toggle, busy: decide.isPending, keysOff };

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const now = latest.current;
      if (now.keysOff) return;
      const command = keyCommand(event);
      if (command === null) return;
      event.preventDefault();
      if (command === 'next' || command === 'previous') {
        setCursor((current) => moveCursor(current, command, now.items.length));
        return;
      }
      const current = now.cursor === null ? undefined : now.items[now.cursor];
      if (command === 'toggle') {
        if (current) now.toggle(current.id);
      } else if (command === 'open') {
        if (current) setDetail(current);
      } else if (command === 'approve') {
        now.run(now.targets(), 'approve', null);
      } else {
        const chosen = now.targets();
        if (chosen.length > 0) setRejecting(chosen);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const changeTab = (value: string | null) => {
    const next = MODERATION_TABS.find((entry) => entry.key === value);
    if (!next) return;
    setSelected(new Set());
    setCursor(null);
    onChange({ tab: next.key, kind: null, page: 1 });
  };

  const outcomeText = (outcome: DecisionOutcome) => {
    const reason = conflictReason(outcome);
    return reason === null ? outcome.message : t(`moderation.outcome.reasons.${reason}`);
  };

  const tabKindOptions = tabKinds(tab);
  const allSelected = items.length > 0 && items.every((item) => selected.has(item.id));
  const chosen = items.filter((item) => selected.has(item.id));

  const header = (
    <>
      <Tabs value={state.tab} onChange={changeTab} classNames={{ root: classes.tabs, list: classes.tabList, tab: classes.tab }} keepMounted={false}>
        <Tabs.List aria-label={t('moderation.tabsLabel')}>
          {MODERATION_TABS.map((entry) => {
            const count = tabCount(entry, pending);
            return (
              <Tabs.Tab
                key={entry.key}
                value={entry.key}
                data-testid={`tab-${entry.key}`}
                // The feedback tabs and the crawler's settings are not waiting items: no count.
                rightSection={
                  entry.panel === 'crawlerTours' ? (
                    <CountBadge count={crawled.data ?? 0} testId={`tab-count-${entry.key}`} />
                  ) : entry.panel ? undefined : (
                    <CountBadge count={count} testId={`tab-count-${entry.key}`} />
                  )
                }
              >
                {t(`moderation.tabs.${entry.key}`)}
              </Tabs.Tab>
            );
          })}
        </Tabs.List>
      </Tabs>

      <Text size="sm" c="dimmed">
        {t(`moderation.tabHints.${tab.key}`)}
      </Text>
    </>
  );

  if (tab.panel) {
    return (
      <Stack gap="md">
        {header}
        <PanelView panel={tab.panel} />
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      {header}

      <div className={classes.toolbar}>
        <TextInput
          leftSection={<IconSearch size={16} />}
          rightSection={searchText ? <CloseButton size="sm" aria-label={t('common.close')} onClick={() => setSearchText('')} /> : null}
          placeholder={t('moderation.search')}
          aria-label={t('moderation.search')}
          value={searchText}
          onChange={(event) => setSearchText(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') flushTo(searchText.trim());
            if (event.key === 'Escape') event.currentTarget.blur();
          }}
          radius="xl"
          data-testid="queue-search"
        />
        {tabKindOptions.length > 1 ? (
          <Select
            aria-label={t('moderation.kindFilter')}
            placeholder={t('moderation.allKinds')}
            data={tabKindOptions.map((kind) => ({ value: kind, label: `${t(`moderation.kinds.${kind}`)} (${pending?.[kind] ?? 0})` }))}
            value={state.kind}
            onChange={(value) => onChange({ kind: (value as ApprovalKind | null) ?? null, page: 1 })}
            clearable
            radius="xl"
            data-testid="kind-filter"
          />
        ) : (
          <span />
        )}
        <Group gap={6} justify="flex-end" wrap="nowrap">
          {queue.isFetching && <Loader size={14} />}
          <Text size="sm" c="dimmed" data-testid="queue-total" data-value={total}>
            {t('moderation.total', { count: total })}
          </Text>
        </Group>
      </div>

      {!mobile && <ShortcutHint />}

      {report && (
        <Alert
          color="yellow"
          variant="light"
          radius="lg"
          icon={<IconAlertTriangle size={18} />}
          title={t('moderation.outcome.title')}
          withCloseButton
          closeButtonLabel={t('moderation.outcome.dismiss')}
          onClose={() => setReport(null)}
          data-testid="decision-report"
        >
          <Stack gap={2}>
            {report.lines.map((line) => (
              <Text size="sm" key={line.id} data-testid="decision-outcome" data-status={line.outcome.status}>
                <b>{line.title}</b> — {outcomeText(line.outcome)}
              </Text>
            ))}
          </Stack>
        </Alert>
      )}

      <Group justify="space-between" className={classes.bulkBar} wrap="wrap" gap="xs" data-testid="queue-bulk">
        <Checkbox
          label={selected.size > 0 ? t('moderation.selected', { count: selected.size }) : t('moderation.selectAll')}
          checked={allSelected}
          indeterminate={selected.size > 0 && !allSelected}
          onChange={() => setSelected(allSelected ? new Set() : new Set(ids))}
          disabled={items.length === 0}
        />
        <Group gap="xs">
          <Button size="xs" radius="xl" variant="light" color="red" leftSection={<IconX size={14} />} disabled={chosen.length === 0 || decide.isPending} onClick={() => setRejecting(chosen)} data-testid="bulk-reject">
            {t('moderation.rejectSelected')}
          </Button>
          <Button size="xs" radius="xl" color="teal" leftSection={<IconCheck size={14} />} disabled={chosen.length === 0} loading={decide.isPending && rejecting.length === 0} onClick={() => run(chosen, 'approve', null)} data-testid="bulk-approve">
            {t('moderation.approveSelected')}
          </Button>
        </Group>
      </Group>

      <QueueList
        items={items}
        loading={queue.isPending}
        error={queue.isError && !queue.data}
        searching={state.search !== ''}
        search={state.search}
        onRetry={() => void queue.refetch()}
        listRef={listRef}
        cursor={cursor}
        selected={selected}
        busyIds={decide.isPending ? new Set(decide.variables.ids) : new Set()}
        onPoint={setCursor}
        onToggle={toggle}
        onApprove={(item) => run([item], 'approve', null)}
        onReject={(item) => setRejecting([item])}
        onOpen={setDetail}
      />

      {pages > 1 && (
        <Center>
          <Pagination total={pages} value={Math.min(state.page, pages)} onChange={(page) => onChange({ page })} radius="xl" size={mobile ? 'sm' : 'md'} aria-label={t('moderation.paging')} data-testid="queue-pages" />
        </Center>
      )}

      <ItemDetail item={detail} busy={decide.isPending} onClose={() => setDetail(null)} onApprove={(item) => run([item], 'approve', null)} onReject={(item) => setRejecting([item])} />
      <RejectDialog count={rejecting.length} busy={decide.isPending} onClose={() => setRejecting([])} onReject={(reason) => run(rejecting, 'reject', reason)} />
    </Stack>
  );
}

function PanelView({ panel }: { panel: TabPanel }) {
  if (isFeedbackPanel(panel)) return <FeedbackList kind={panel} />;
  return panel === 'crawlerSettings' ? <CrawlerSettings /> : <CrawledTours />;
}

function CountBadge({ count, testId }: { count: number; testId: string }) {
  return (
    <Badge size="sm" radius="xl" miw={22} px={6} className={classes.count} variant={count > 0 ? 'filled' : 'light'} color={count > 0 ? 'red' : 'gray'} data-testid={testId} data-value={count}>
      {count}
    </Badge>
  );
}

interface QueueListProps {
  items: readonly ModerationItem[];
  loading: boolean;
  error: boolean;
  searching: boolean;
  search: string;
  onRetry: () => void;
  listRef: React.RefObject<HTMLUListElement | null>;
  cursor: number | null;
  selected: ReadonlySet<number>;
  busyIds: ReadonlySet<number>;
  onPoint: (index: number) => void;
  onToggle: (id: number) => void;
  onApprove: (item: ModerationItem) => void;
  onReject: (item: ModerationItem) => void;
  onOpen: (item: ModerationItem) => void;
}

function QueueList({ items, loading, error, searching, search, onRetry, listRef, cursor, selected, busyIds, onPoint, onToggle, onApprove, onReject, onOpen }: QueueListProps) {
  const { t } = useTranslation();
  if (loading) {
    return (
      <Stack gap="xs" aria-busy="true" aria-label={t('page.loading')} data-testid="queue-loading">
        {Array.from({ length: 5 }, (_, index) => (
          <Skeleton key={index} h={76} radius="md" />
        ))}
      </Stack>
    );
  }
  if (error) {
    return (
      <Alert color="red" variant="light" radius="lg" icon={<IconAlertTriangle size={20} />} title={t('page.errorTitle')} data-testid="queue-error">
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{t('moderation.failed')}</Text>
          <Button size="xs" variant="white" color="red" onClick={onRetry}>
            {t('common.retry')}
          </Button>
        </Stack>
      </Alert>
    );
  }
  if (items.length === 0) {
    return (
      <Stack align="center" ta="center" gap="sm" py="xl" data-testid="queue-empty">
        <ThemeIcon size={56} radius="xl" variant="light" color="teal">
          <IconCircleCheck size={30} />
        </ThemeIcon>
        <Text fw={650}>{t('moderation.empty')}</Text>
        <Text c="dimmed" size="sm" maw={420}>
          {searching ? t('moderation.emptySearch', { search }) : t('moderation.emptyHint')}
        </Text>
      </Stack>
    );
  }
  return (
    <Stack gap="xs" component="ul" className={classes.list} ref={listRef as React.RefObject<HTMLDivElement | null>} data-testid="queue-list">
      {items.map((item, index) => (
        <QueueRow
          key={item.id}
          item={item}
          cursor={cursor === index}
          selected={selected.has(item.id)}
          busy={busyIds.has(item.id)}
          onPoint={() => onPoint(index)}
          onToggle={() => onToggle(item.id)}
          onApprove={() => onApprove(item)}
          onReject={() => onReject(item)}
          onOpen={() => onOpen(item)}
        />
      ))}
    </Stack>
  );
}
