import { Alert, Button, Card, Group, Progress, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

import { errorMessage } from '../../../shared/api/apiError';
import type { SyncRunOut } from '../../../shared/api/generated/types.gen';
import type { RealtimeConnection } from '../../../shared/socket/realtimeConnection';
import { isRunning, syncStateQueryOptions, useStartSync } from '../api/mailingApi';
import { mailingQueryKeys } from '../api/queryKeys';
import { useSyncLive } from '../api/useSyncLive';

/**
 * Runs members-sync and follows its progress as the server pushes it; the diff and the connection
 * refresh when it ends. `connection`: the realtime connection (tests pass one over a fake socket).
 */
export function SyncPanel({ connection }: { connection?: RealtimeConnection }) {
  const { t } = useTranslation();
  const state = useQuery(syncStateQueryOptions());
  const start = useStartSync();
  const run = state.data?.data ?? null;
  useSyncLive(isRunning(run), state.dataUpdatedAt, connection);
  useRefreshWhenSyncEnds(run);
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="mailing-sync-title">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" gap="sm">
          <Stack gap={4} maw={560}>
            <Title order={2} size="h4" id="mailing-sync-title">
              {t('mailingSync.sync.title')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('mailingSync.sync.explain')}
            </Text>
          </Stack>
          <Button
            leftSection={<IconRefresh size={18} aria-hidden="true" />}
            onClick={() => start.mutate()}
            loading={start.isPending || isRunning(run)}
            disabled={state.isPending}
          >
            {run?.status === 'failed' ? t('mailingSync.sync.resume') : t('mailingSync.sync.start')}
          </Button>
        </Group>
        {start.isError && (
          <Alert color="red" variant="light" radius="md" icon={<IconAlertTriangle size={20} />} role="alert">
            {errorMessage(start.error, t('mailingSync.sync.startFailed'))}
          </Alert>
        )}
        {state.isError ? (
          <Text role="alert">{errorMessage(state.error, t('page.errorText'))}</Text>
        ) : (
          <SyncRunView run={run} />
        )}
      </Stack>
    </Card>
  );
}

/** When a run this page watched stops running, what it changed shows in the diff and the counts. */
function useRefreshWhenSyncEnds(run: SyncRunOut | null) {
  const queryClient = useQueryClient();
  const running = isRunning(run);
  const wasRunning = useRef(running);
  useEffect(() => {
    if (wasRunning.current && !running) {
      void queryClient.invalidateQueries({ queryKey: mailingQueryKeys.diff });
      void queryClient.invalidateQueries({ queryKey: mailingQueryKeys.ping });
    }
    wasRunning.current = running;
  }, [running, queryClient]);
}

function percentDone(run: SyncRunOut): number {
  if (run.total === 0) return run.status === 'running' ? 0 : 100;
  return Math.round((run.done / run.total) * 100);
}

function SyncRunView({ run }: { run: SyncRunOut | null }) {
  const { t } = useTranslation();
  if (run === null) return <Text c="dimmed">{t('mailingSync.sync.never')}</Text>;
  const percent = percentDone(run);
  return (
    <Stack gap="xs" data-testid="mailing-sync-run" data-status={run.status}>
      <Progress
        value={percent}
        size="lg"
        radius="xl"
        color={run.status === 'failed' ? 'orange' : run.status === 'completed' ? 'green' : 'blue'}
        animated={run.status === 'running'}
        striped={run.status === 'running'}
        aria-label={t('mailingSync.sync.progressLabel')}
      />
      {run.status === 'running' && <RunningText run={run} />}
      {run.status === 'completed' && <CompletedText run={run} />}
      {run.status === 'failed' && (
        <Alert color="orange" variant="light" radius="md" icon={<IconAlertTriangle size={20} />} title={t('mailingSync.sync.failedTitle')} role="alert">
          <Stack gap={4}>
            <Text size="sm">{run.error}</Text>
            <Text size="sm">{t('mailingSync.sync.running', { done: run.done, total: run.total })}</Text>
            <Text size="sm">{t('mailingSync.sync.failedHint')}</Text>
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}

function RunningText({ run }: { run: SyncRunOut }) {
  const { t } = useTranslation();
  return (
    <Text aria-live="polite">{run.total === 0 ? t('mailingSync.sync.preparing') : t('mailingSync.sync.running', { done: run.done, total: run.total })}</Text>
  );
}

function CompletedText({ run }: { run: SyncRunOut }) {
  const { t, i18n } = useTranslation();
  const finished = run.finished_at ?? run.started_at;
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(finished));
  const counts = [
    t('mailingSync.sync.subscribed', { count: run.subscribed }),
    t('mailingSync.sync.unsubscribed', { count: run.unsubscribed }),
    ...(run.rejected > 0 ? [t('mailingSync.sync.rejected', { count: run.rejected })] : []),
  ];
  return (
    <Stack gap={2} aria-live="polite" data-testid="mailing-sync-result">
      <Text>{t('mailingSync.sync.completed', { date })}</Text>
      <Text size="sm" c="dimmed">
        {run.total === 0 ? t('mailingSync.sync.nothingToDo') : counts.join(' · ')}
      </Text>
    </Stack>
  );
}
