import { Paper, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { IconChartAreaLine } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

import { formatDay } from '../../../shared/stats/format';
import { type AnalyticsKind, type Counts, type DayPoint, isQuiet, KIND_METRICS, type RangeOfDays, type TablePage } from '../model/metrics';
import classes from './Analytics.module.css';
import { AnalyticsTable } from './AnalyticsTable';
import { DailyChart } from './DailyChart';
import { TotalsTiles } from './TotalsTiles';

interface AnalyticsContentProps {
  kind: AnalyticsKind;
  range: RangeOfDays;
  totals: Counts;
  points: DayPoint[];
  page: TablePage;
  /** A new range or page is on its way: the last figures stay, dimmed. */
  updating: boolean;
  onOffset: (offset: number) => void;
}

/** The totals, the two daily charts (or why there are none) and the table. */
export function AnalyticsContent({ kind, range, totals, points, page, updating, onOffset }: AnalyticsContentProps) {
  const { t, i18n } = useTranslation();
  const metrics = KIND_METRICS[kind];
  const ends = { from: formatDay(range.from, i18n.language, true), to: formatDay(range.to, i18n.language, true) };
  return (
    <Stack gap="lg" aria-busy={updating} className={updating ? classes.updating : undefined} data-testid="analytics-content" data-updating={updating}>
      <TotalsTiles kind={kind} totals={totals} />
      {isQuiet(totals, kind) ? (
        <EmptyState testId="analytics-empty-range" title={t('creatorAnalytics.empty.quietTitle')} text={t('creatorAnalytics.empty.quietText', ends)} />
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          <DailyChart id={`${kind}-reach`} title={t(`creatorAnalytics.chartTitles.${kind}Reach`)} metrics={[metrics.reach]} points={points} range={range} />
          <DailyChart
            id={`${kind}-activity`}
            title={t(`creatorAnalytics.chartTitles.${kind}Activity`)}
            metrics={metrics.activity}
            points={points}
            range={range}
          />
        </SimpleGrid>
      )}
      {page.total === 0 && page.offset === 0 ? (
        <EmptyState testId="analytics-empty-items" title={t(`creatorAnalytics.empty.${kind}Title`)} text={t(`creatorAnalytics.empty.${kind}Text`)} />
      ) : (
        <AnalyticsTable kind={kind} page={page} onOffset={onOffset} />
      )}
    </Stack>
  );
}

function EmptyState({ testId, title, text }: { testId: string; title: string; text: string }) {
  return (
    <Paper withBorder radius="lg" p="xl" data-testid={testId}>
      <Stack gap="xs" align="center" ta="center">
        <IconChartAreaLine size={32} color="var(--mantine-color-dimmed)" aria-hidden="true" />
        <Text fw={600}>{title}</Text>
        <Text size="sm" c="dimmed" maw={520}>
          {text}
        </Text>
      </Stack>
    </Paper>
  );
}

/** Shapes of the tiles, the charts and the table while the first answers are on their way. */
export function AnalyticsLoading({ kind }: { kind: AnalyticsKind }) {
  const { t } = useTranslation();
  const tiles = KIND_METRICS[kind].totals.length + (kind === 'ads' ? 1 : 0);
  return (
    <Stack gap="lg" aria-busy="true" aria-label={t('creatorAnalytics.loading')} data-testid="analytics-loading">
      <SimpleGrid cols={{ base: 2, sm: 3, lg: tiles }} spacing="sm">
        {Array.from({ length: tiles }, (_, index) => (
          <Skeleton key={index} height={88} radius="lg" />
        ))}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Skeleton height={290} radius="lg" />
        <Skeleton height={290} radius="lg" />
      </SimpleGrid>
      <Skeleton height={240} radius="lg" />
    </Stack>
  );
}
