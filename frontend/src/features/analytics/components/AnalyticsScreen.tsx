import { Alert, Badge, Button, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { fieldErrors } from '../../../shared/api/apiError';
import { useSession } from '../../../shared/auth/session';
import type { RealtimeConnection } from '../../../shared/socket/realtimeConnection';
import { dayCount, DEFAULT_DAYS, type RangeChoice, resolveRange, todayIn } from '../../../shared/stats/range';
import { RangePicker } from '../../../shared/stats/RangePicker';
import { dailyQueryOptions, pageQueryOptions, totalsQueryOptions } from '../api/analyticsApi';
import { useAnalyticsLive } from '../api/useAnalyticsLive';
import { type AnalyticsKind, type RangeOfDays, viewerTimeZone } from '../model/metrics';
import classes from './Analytics.module.css';
import { AnalyticsContent, AnalyticsLoading } from './AnalyticsContent';
import { CreatorPicker } from './CreatorPicker';
import { ExportButton } from './ExportButton';

interface AnalyticsScreenProps {
  kind: AnalyticsKind;
  /** The realtime connection (tests pass one over a fake socket; the app's own otherwise). */
  connection?: RealtimeConnection;
}

const DEFAULT_CHOICE: RangeChoice = { kind: 'preset', days: DEFAULT_DAYS };

/**
 * One analytics screen: the range (the last 30 days at first, days of the viewer's time zone), the
 * totals, the two daily charts and the table, kept current by the live push while open.
 */
export function AnalyticsScreen({ kind, connection }: AnalyticsScreenProps) {
  const { t } = useTranslation();
  // The zone and the day the screen opened on: a preset keeps meaning the same days while it stays open.
  const [timeZone] = useState(viewerTimeZone);
  const [today] = useState(() => todayIn(timeZone));
  const [choice, setChoice] = useState<RangeChoice>(DEFAULT_CHOICE);
  const [offset, setOffset] = useState(0);
  const [userId, setUserId] = useState<number | null>(null);
  const isAdmin = useSession().role === 'admin';
  const range: RangeOfDays = { ...resolveRange(choice, today), timeZone, userId };

  const totals = useQuery(totalsQueryOptions(kind, range));
  const daily = useQuery(dailyQueryOptions(kind, range));
  const page = useQuery(pageQueryOptions(kind, range, offset));
  useAnalyticsLive(kind, range, connection);

  const changeRange = (next: RangeChoice) => {
    setChoice(next);
    setOffset(0); // the table of another range starts at its first page
  };
  const changeCreator = (next: number | null) => {
    setUserId(next);
    setOffset(0);
  };
  const queries = [totals, daily, page];
  const failed = queries.filter((query) => query.isError);

  return (
    <Stack gap="lg" data-testid={`analytics-screen-${kind}`}>
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={4} className={classes.intro}>
          <Text size="sm" c="dimmed">
            {t(`creatorAnalytics.descriptions.${kind}`, { timeZone })}
          </Text>
          {userId === null && (
            <Tooltip label={t('creatorAnalytics.liveHint')} withArrow>
              <Badge variant="dot" color="teal" tabIndex={0} className={classes.live} data-testid="analytics-live">
                {t('creatorAnalytics.live')}
              </Badge>
            </Tooltip>
          )}
        </Stack>
        <ExportButton kind={kind} range={range} totals={totals.data} points={daily.data} disabled={!totals.data || !daily.data || failed.length > 0} />
      </Group>
      {isAdmin && <CreatorPicker onPick={changeCreator} />}
      <RangePicker choice={choice} range={range} today={today} onChange={changeRange} />
      <Text size="sm" c="dimmed" data-testid="analytics-range" data-from={range.from} data-to={range.to} data-time-zone={timeZone}>
        {t('statistics.rangeSummary', { days: t('statistics.days', { count: dayCount(range) }) })}
      </Text>
      {failed.length > 0 ? (
        <LoadError errors={failed.map((query) => query.error)} isAdmin={isAdmin} onRetry={() => failed.forEach((query) => void query.refetch())} />
      ) : totals.data && daily.data && page.data ? (
        <AnalyticsContent
          kind={kind}
          range={range}
          totals={totals.data}
          points={daily.data}
          page={page.data}
          updating={queries.some((query) => query.isPlaceholderData)}
          onOffset={setOffset}
        />
      ) : (
        <AnalyticsLoading kind={kind} />
      )}
    </Stack>
  );
}

function LoadError({ errors, isAdmin, onRetry }: { errors: unknown[]; isAdmin: boolean; onRetry: () => void }) {
  const { t } = useTranslation();
  // An account without a creator profile (an admin's) is told so: asking again would not help.
  const noCreator = errors.some((error) => 'creator_id' in fieldErrors(error));
  return (
    <Alert color={noCreator ? 'yellow' : 'red'} variant="light" radius="lg" icon={<IconAlertTriangle size={20} />} title={t('creatorAnalytics.errorTitle')} data-testid="analytics-error">
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{noCreator ? t(isAdmin ? 'creatorAnalytics.noCreatorAdmin' : 'creatorAnalytics.noCreator') : t('creatorAnalytics.errorText')}</Text>
        {!noCreator && (
          <Button size="xs" variant="white" color="red" onClick={onRetry} data-testid="analytics-retry">
            {t('common.retry')}
          </Button>
        )}
      </Stack>
    </Alert>
  );
}
