import '../../../shared/i18n/adminTexts'; // this screen's English texts (not in the feed's bundle)
import { ActionIcon, Alert, Badge, Button, Group, Loader, Paper, Skeleton, Stack, Text, ThemeIcon, Title, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconCheck, IconPencil, IconPlayerPlay, IconPlayerStop, IconPlus, IconSpider, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { errorMessage } from '../../../shared/api/apiError';
import {
  type CrawlerConfiguration,
  type CrawlerSession,
  configurationsQueryOptions,
  sessionsQueryOptions,
  useRemoveConfiguration,
  useSignSession,
  useStartCrawl,
  useStopCrawl,
} from '../api/crawlerApi';
import { isActive, needsSigning } from '../model/crawler';
import classes from './Crawler.module.css';
import { CrawlerConfigDialog } from './CrawlerConfigDialog';

type Editing = { configuration: CrawlerConfiguration | null } | null;

/** Spec §2 "crawler settings": the configurations, what their crawls are doing now, and the latest sessions. */
export function CrawlerSettings() {
  const { t } = useTranslation();
  const configurations = useQuery(configurationsQueryOptions());
  const [editing, setEditing] = useState<Editing>(null);
  const list = configurations.data ?? [];

  return (
    <Stack gap="lg" data-testid="crawler-settings">
      <Group justify="space-between" align="center" gap="xs">
        <Title order={2} size="h4">
          {t('crawler.configurations')}
        </Title>
        <Button radius="xl" size="sm" leftSection={<IconPlus size={16} />} onClick={() => setEditing({ configuration: null })} data-testid="crawler-add">
          {t('crawler.add')}
        </Button>
      </Group>

      {configurations.isPending ? (
        <Stack gap="sm" aria-busy="true" aria-label={t('page.loading')}>
          <Skeleton h={150} radius="md" />
          <Skeleton h={150} radius="md" />
        </Stack>
      ) : configurations.isError && !configurations.data ? (
        <LoadFailed message={t('crawler.loadFailed')} onRetry={() => void configurations.refetch()} />
      ) : list.length === 0 ? (
        <Stack align="center" ta="center" gap="sm" py="xl" data-testid="crawler-empty">
          <ThemeIcon size={56} radius="xl" variant="light">
            <IconSpider size={30} />
          </ThemeIcon>
          <Text fw={650}>{t('crawler.emptyTitle')}</Text>
          <Text c="dimmed" size="sm" maw={460}>
            {t('crawler.emptyText')}
          </Text>
        </Stack>
      ) : (
        <div className={classes.cards}>
          {list.map((configuration) => (
            <ConfigurationCard key={configuration.id} configuration={configuration} onEdit={() => setEditing({ configuration })} />
          ))}
        </div>
      )}

      <Sessions configurations={list} />

      <CrawlerConfigDialog opened={editing !== null} configuration={editing?.configuration ?? null} onClose={() => setEditing(null)} />
    </Stack>
  );
}

function LoadFailed({ message, onRetry }: { message: string; onRetry: () => void }) {
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

/** A failed action's note: the server's message, else a general one. */
function failed(t: TFunction) {
  return (error: unknown) => {
    notifications.show({ color: 'red', title: t('crawler.actionFailed'), message: errorMessage(error, t('page.errorText')) });
  };
}

function ConfigurationCard({ configuration, onEdit }: { configuration: CrawlerConfiguration; onEdit: () => void }) {
  const { t, i18n } = useTranslation();
  const start = useStartCrawl();
  const stop = useStopCrawl();
  const sign = useSignSession();
  const remove = useRemoveConfiguration();
  const session = configuration.last_session;
  const running = isActive(session);
  const number = (value: number) => value.toLocaleString(i18n.language);
  const rate = configuration.rate_limit ?? 0;

  const confirmRemove = () =>
    modals.openConfirmModal({
      title: t('crawler.removeTitle', { name: configuration.name }),
      children: <Text size="sm">{t('crawler.removeText')}</Text>,
      labels: { confirm: t('crawler.remove'), cancel: t('common.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'crawler-remove-confirm' },
      centered: true,
      radius: 'lg',
      zIndex: 400,
      onConfirm: () =>
        remove.mutate(configuration.id, {
          onSuccess: () => notifications.show({ color: 'teal', message: t('crawler.removed', { name: configuration.name }) }),
          onError: failed(t),
        }),
    });

  return (
    <Paper withBorder radius="lg" p="md" className={classes.card} data-testid="crawler-configuration" data-id={configuration.id}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
          <Stack gap={2} miw={0}>
            <Title order={3} size="h5" className={classes.name}>
              {configuration.name}
            </Title>
            <Group gap={6}>
              <Badge variant="light" radius="sm" size="sm" tt="none">
                {configuration.vendor_name}
              </Badge>
              {!configuration.is_active && (
                <Badge variant="light" color="gray" radius="sm" size="sm">
                  {t('crawler.switchedOff')}
                </Badge>
              )}
            </Group>
          </Stack>
          <Group gap={4} wrap="nowrap">
            <Tooltip label={t('crawler.edit')}>
              <ActionIcon variant="subtle" size="lg" radius="xl" aria-label={t('crawler.editNamed', { name: configuration.name })} onClick={onEdit} data-testid="crawler-edit">
                <IconPencil size={18} />
              </ActionIcon>
            </Tooltip>
            <Tooltip label={t('crawler.remove')}>
              <ActionIcon
                variant="subtle"
                color="red"
                size="lg"
                radius="xl"
                aria-label={t('crawler.removeNamed', { name: configuration.name })}
                onClick={confirmRemove}
                loading={remove.isPending}
                data-testid="crawler-remove"
              >
                <IconTrash size={18} />
              </ActionIcon>
            </Tooltip>
          </Group>
        </Group>

        <Text size="sm" c="dimmed">
          {[
            t('crawler.summary.sources', { starts: configuration.start_urls.length, sitemaps: configuration.sitemap_urls.length }),
            rate > 0 ? t('crawler.summary.rate', { rate: number(rate) }) : t('crawler.summary.noRate'),
            t('crawler.summary.concurrency', { count: configuration.concurrency ?? 1 }),
            t('crawler.summary.limits', { pages: number(configuration.max_pages ?? 0), depth: configuration.max_depth ?? 0 }),
            configuration.schedule_cron ? t('crawler.summary.schedule', { cron: configuration.schedule_cron }) : null,
            configuration.schedule_next_at
              ? t('crawler.summary.nextRun', {
                  date: new Date(configuration.schedule_next_at).toLocaleString(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }),
                })
              : null,
          ]
            .filter(Boolean)
            .join(' · ')}
        </Text>

        {session ? <SessionFacts session={session} /> : <Text size="sm">{t('crawler.neverRun')}</Text>}

        <Group gap="xs" className={classes.actions}>
          {running && session ? (
            <Button
              radius="xl"
              size="xs"
              color="red"
              variant="light"
              leftSection={<IconPlayerStop size={14} />}
              loading={stop.isPending}
              onClick={() => stop.mutate(session.session_id, { onError: failed(t) })}
              data-testid="crawler-stop"
            >
              {t('crawler.stop')}
            </Button>
          ) : (
            <Button
              radius="xl"
              size="xs"
              leftSection={<IconPlayerPlay size={14} />}
              loading={start.isPending}
              disabled={!configuration.is_active}
              onClick={() =>
                start.mutate(configuration.id, {
                  onSuccess: () => notifications.show({ color: 'teal', message: t('crawler.started', { name: configuration.name }) }),
                  onError: failed(t),
                })
              }
              data-testid="crawler-start"
            >
              {t('crawler.start')}
            </Button>
          )}
          {session && needsSigning(session) && (
            <Button
              radius="xl"
              size="xs"
              variant="default"
              leftSection={<IconCheck size={14} />}
              loading={sign.isPending}
              onClick={() => sign.mutate(session.session_id, { onError: failed(t) })}
              data-testid="crawler-sign"
            >
              {t('crawler.sign')}
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}

const STATUS_COLORS: Readonly<Record<string, string>> = {
  queued: 'gray',
  running: 'blue',
  finished: 'teal',
  stopped: 'yellow',
  failed: 'red',
};

function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  const known = status in STATUS_COLORS;
  return (
    <Badge
      variant="light"
      color={STATUS_COLORS[status] ?? 'gray'}
      radius="sm"
      leftSection={status === 'running' ? <Loader size={10} color="blue" /> : undefined}
      data-testid="crawl-status"
      data-status={status}
    >
      {known ? t(`crawler.status.${status as 'queued'}`) : status}
    </Badge>
  );
}

/** A session's status and its counters (they climb with every crawler:status push). */
function SessionFacts({ session }: { session: CrawlerSession }) {
  const { t, i18n } = useTranslation();
  const when = (value: string | null | undefined) =>
    value ? new Date(value).toLocaleString(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }) : null;
  const counters = [
    { key: 'pages', label: t('crawler.counters.pages'), value: session.pages_fetched },
    { key: 'total', label: t('crawler.counters.total'), value: session.total_tours },
    { key: 'new', label: t('crawler.counters.new'), value: session.new_tours },
  ];
  return (
    <Stack gap={6} className={classes.session} data-testid="crawl-session" data-session={session.session_id}>
      <Group gap="xs" justify="space-between">
        <Group gap={6}>
          <StatusBadge status={session.status} />
          <Text size="xs" c="dimmed">
            {t('crawler.sessionNumber', { id: session.session_id })}
            {session.scheduled_for ? ` · ${t('crawler.bySchedule')}` : ''}
          </Text>
        </Group>
        <Text size="xs" c="dimmed">
          {session.finished_at
            ? t('crawler.endedAt', { date: when(session.finished_at) })
            : session.started_at
              ? t('crawler.startedAt', { date: when(session.started_at) })
              : t('crawler.waitingForWorker')}
        </Text>
      </Group>
      <div className={classes.counters}>
        {counters.map((counter) => (
          <div key={counter.key} className={classes.counter}>
            <Text fz={22} fw={700} lh={1.1} data-testid={`crawl-${counter.key}`} data-value={counter.value}>
              {counter.value.toLocaleString(i18n.language)}
            </Text>
            <Text size="xs" c="dimmed">
              {counter.label}
            </Text>
          </div>
        ))}
      </div>
      {session.pages_failed > 0 && (
        <Text size="xs" c="dimmed">
          {t('crawler.pagesFailed', { count: session.pages_failed })}
        </Text>
      )}
      {session.error && (
        <Text size="xs" c="red.8">
          {session.error}
        </Text>
      )}
      {session.signed_at && (
        <Text size="xs" c="dimmed">
          {t('crawler.signedAt', { date: when(session.signed_at) })}
        </Text>
      )}
    </Stack>
  );
}

function Sessions({ configurations }: { configurations: readonly CrawlerConfiguration[] }) {
  const { t } = useTranslation();
  const sessions = useQuery(sessionsQueryOptions());
  const names = new Map(configurations.map((configuration) => [configuration.id, configuration.name]));
  const list = sessions.data ?? [];
  return (
    <Stack gap="sm" data-testid="crawler-sessions">
      <Group gap="xs" align="baseline">
        <Title order={2} size="h4">
          {t('crawler.sessions')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('crawler.sessionsHint')}
        </Text>
      </Group>
      {sessions.isPending ? (
        <Skeleton h={110} radius="md" aria-label={t('page.loading')} />
      ) : sessions.isError && !sessions.data ? (
        <LoadFailed message={t('crawler.sessionsFailed')} onRetry={() => void sessions.refetch()} />
      ) : list.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="crawler-sessions-empty">
          {t('crawler.noSessions')}
        </Text>
      ) : (
        <Stack gap={6} component="ul" className={classes.list}>
          {list.map((session) => (
            <SessionRow key={session.session_id} session={session} name={names.get(session.configuration_id) ?? t('crawler.unknownConfiguration')} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

/** One session in a line: whose, its status and times, its counters (live), and stop or review. */
function SessionRow({ session, name }: { session: CrawlerSession; name: string }) {
  const { t, i18n } = useTranslation();
  const stop = useStopCrawl();
  const sign = useSignSession();
  const when = (value: string) => new Date(value).toLocaleString(i18n.language, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
  const time = session.finished_at
    ? t('crawler.endedAt', { date: when(session.finished_at) })
    : session.started_at
      ? t('crawler.startedAt', { date: when(session.started_at) })
      : t('crawler.waitingForWorker');
  const counters = [
    { key: 'pages', label: t('crawler.counters.pages'), value: session.pages_fetched },
    { key: 'total', label: t('crawler.counters.total'), value: session.total_tours },
    { key: 'new', label: t('crawler.counters.new'), value: session.new_tours },
  ];
  return (
    <li className={classes.sessionRow} data-testid="crawler-session-row" data-session={session.session_id}>
      <div className={classes.sessionWho}>
        <Text fw={650} size="sm" className={classes.name} lineClamp={1}>
          {name}
        </Text>
        <Text size="xs" c="dimmed">
          {t('crawler.sessionNumber', { id: session.session_id })}
          {session.scheduled_for ? ` · ${t('crawler.bySchedule')}` : ''} · {time}
          {session.signed_at ? ` · ${t('crawler.reviewed')}` : ''}
        </Text>
      </div>
      <StatusBadge status={session.status} />
      <div className={classes.sessionCounters}>
        {counters.map((counter) => (
          <Text key={counter.key} size="sm" c="dimmed" span>
            <Text span fw={700} c="dark" data-testid={`crawl-${counter.key}`} data-value={counter.value}>
              {counter.value.toLocaleString(i18n.language)}
            </Text>{' '}
            {counter.label.toLowerCase()}
          </Text>
        ))}
      </div>
      <div className={classes.sessionAction}>
        {isActive(session) ? (
          <Button size="compact-xs" radius="xl" variant="light" color="red" loading={stop.isPending} onClick={() => stop.mutate(session.session_id, { onError: failed(t) })}>
            {t('crawler.stop')}
          </Button>
        ) : needsSigning(session) ? (
          <Button size="compact-xs" radius="xl" variant="default" loading={sign.isPending} onClick={() => sign.mutate(session.session_id, { onError: failed(t) })}>
            {t('crawler.sign')}
          </Button>
        ) : null}
      </div>
    </li>
  );
}
