import '../../../shared/i18n/adminTexts'; // this screen's English texts (not in the feed's bundle)
import { Alert, Button, Paper, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconChartAreaLine, IconInfoCircle } from '@tabler/icons-react';
import { useQueries } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { adminStatsQueryOptions } from '../api/adminStats';
import { formatDay, formatNumber } from '../../../shared/stats/format';
import { dayCount, type RangeChoice, type RangeProblem, resolveRange, todayUtc } from '../../../shared/stats/range';
import { allZero, DOMAINS, type DomainStats } from '../model/series';
import { DomainChart } from './DomainChart';
import { RangePicker } from '../../../shared/stats/RangePicker';
import classes from './Statistics.module.css';

interface StatisticsViewProps {
  choice: RangeChoice;
  /** What was wrong with the link's range, if anything (the default is shown instead). */
  linkProblem: RangeProblem | null;
  onChange: (choice: RangeChoice) => void;
}

/** The range, the five totals and the five daily charts. */
export function StatisticsView({ choice, linkProblem, onChange }: StatisticsViewProps) {
  const { t, i18n } = useTranslation();
  // The day the page opened on: a preset keeps meaning the same days while the page stays open.
  const [today] = useState(todayUtc);
  const range = resolveRange(choice, today);
  const results = useQueries({ queries: DOMAINS.map((domain) => adminStatsQueryOptions(domain, range)) });
  const failed = results.filter((result) => result.isError);
  const stats = results.map((result) => result.data).filter((data): data is DomainStats => data !== undefined);
  const ready = failed.length === 0 && stats.length === DOMAINS.length;
  const updating = ready && results.some((result) => result.isPlaceholderData);
  const language = i18n.language;
  const from = formatDay(range.from, language, true);
  const to = formatDay(range.to, language, true);

  return (
    <Stack gap="lg">
      <RangePicker choice={choice} range={range} today={today} onChange={onChange} />
      <Text size="sm" c="dimmed" data-testid="range-summary" data-from={range.from} data-to={range.to}>
        {t('statistics.rangeSummary', { days: t('statistics.days', { count: dayCount(range) }) })}
      </Text>
      {linkProblem && (
        <Alert color="yellow" variant="light" radius="lg" icon={<IconInfoCircle size={20} />} data-testid="range-link-problem">
          {t(`statistics.linkProblems.${linkProblem}`)}
        </Alert>
      )}
      {failed.length > 0 ? (
        <Alert color="red" variant="light" radius="lg" icon={<IconAlertTriangle size={20} />} title={t('statistics.errorTitle')} data-testid="statistics-error">
          <Stack gap="sm" align="flex-start">
            <Text size="sm">{t('statistics.errorText')}</Text>
            <Button size="xs" variant="white" color="red" onClick={() => failed.forEach((result) => void result.refetch())} data-testid="statistics-retry">
              {t('common.retry')}
            </Button>
          </Stack>
        </Alert>
      ) : !ready ? (
        <StatisticsLoading />
      ) : (
        <div aria-busy={updating} className={updating ? classes.updating : undefined} data-testid="statistics-content" data-updating={updating}>
          <Stack gap="lg">
            <Totals stats={stats} />
            {allZero(stats) ? (
              <Paper withBorder radius="lg" p="xl" data-testid="statistics-empty">
                <Stack gap="xs" align="center" ta="center">
                  <IconChartAreaLine size={32} color="var(--mantine-color-dimmed)" aria-hidden="true" />
                  <Text fw={600}>{t('statistics.emptyTitle')}</Text>
                  <Text size="sm" c="dimmed" maw={520}>
                    {t('statistics.emptyText', { from, to })}
                  </Text>
                </Stack>
              </Paper>
            ) : (
              <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
                {stats.map((item) => (
                  <DomainChart key={item.domain} stats={item} />
                ))}
              </SimpleGrid>
            )}
          </Stack>
        </div>
      )}
    </Stack>
  );
}

function Totals({ stats }: { stats: DomainStats[] }) {
  const { t, i18n } = useTranslation();
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="sm" role="list" aria-label={t('statistics.totalsLabel')}>
      {stats.map((item) => (
        <Paper key={item.domain} withBorder radius="lg" p="md" role="listitem" className={classes.stat}>
          <Text size="sm" c="dimmed" fw={500}>
            {t(`statistics.domains.${item.domain}`)}
          </Text>
          <Text className={classes.statValue} data-testid={`stat-${item.domain}`} data-value={item.inRange}>
            {formatNumber(item.inRange, i18n.language)}
          </Text>
          <Text size="xs" c="dimmed">
            {t('statistics.newInRange')}
          </Text>
          <Text size="xs" c="dimmed" data-testid={`stat-${item.domain}-all`} data-value={item.allTime}>
            {t('statistics.allTime', { value: formatNumber(item.allTime, i18n.language) })}
          </Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}

function StatisticsLoading() {
  const { t } = useTranslation();
  return (
    <Stack gap="lg" aria-busy="true" aria-label={t('statistics.loading')} data-testid="statistics-loading">
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="sm">
        {DOMAINS.map((domain) => (
          <Skeleton key={domain} height={112} radius="lg" />
        ))}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        {DOMAINS.map((domain) => (
          <Skeleton key={domain} height={290} radius="lg" />
        ))}
      </SimpleGrid>
    </Stack>
  );
}

