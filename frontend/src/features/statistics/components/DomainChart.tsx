import '../../../shared/i18n/adminTexts'; // this screen's English texts (not in the feed's bundle)
import { AreaChart } from '@mantine/charts';
import { Paper, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

import { formatCount } from '../../../shared/format/formatCount';
import { formatDay, formatNumber, spansYears } from '../../../shared/stats/format';
import { busiestDay, chartPoints, type DomainStats } from '../model/series';

const COLORS = { users: 'indigo.6', tours: 'teal.6', creators: 'violet.6', vendors: 'orange.6', ads: 'pink.6' } as const;

/** One domain's new items per day over the range, with a sentence that says the same for a screen reader. */
export function DomainChart({ stats }: { stats: DomainStats }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const withYear = spansYears(stats.range.from, stats.range.to);
  const points = useMemo(() => chartPoints(stats, (date) => formatDay(date, language, withYear)), [stats, language, withYear]);
  const busiest = busiestDay(stats);
  const name = t(`statistics.domains.${stats.domain}`);
  const ends = { from: formatDay(stats.range.from, language, true), to: formatDay(stats.range.to, language, true) };
  const summary = busiest
    ? t('statistics.chartSummary', {
        domain: name,
        total: formatNumber(stats.inRange, language),
        day: formatDay(busiest.date, language, true),
        count: formatNumber(busiest.count, language),
        ...ends,
      })
    : t('statistics.chartSummaryQuiet', { domain: name, ...ends });

  return (
    <Paper withBorder radius="lg" p="md" component="section" aria-labelledby={`chart-title-${stats.domain}`} data-testid={`chart-${stats.domain}`}>
      <Stack gap="xs">
        <div>
          <Title order={2} size="h4" id={`chart-title-${stats.domain}`}>
            {t(`statistics.chartTitles.${stats.domain}`)}
          </Title>
          <Text size="sm" c="dimmed">
            {formatNumber(stats.inRange, language)} {t('statistics.newInRange')}
          </Text>
        </div>
        <VisuallyHidden>{summary}</VisuallyHidden>
        <div aria-hidden="true">
          <AreaChart
            h={220}
            data={points}
            dataKey="day"
            series={[{ name: 'count', label: t('statistics.seriesLabel'), color: COLORS[stats.domain] }]}
            curveType="linear"
            withDots={points.length <= 31}
            strokeWidth={2}
            withGradient={false}
            fillOpacity={0.18}
            gridAxis="y"
            tickLine="x"
            valueFormatter={(value) => formatNumber(value, language)}
            xAxisProps={{ minTickGap: 24 }}
            yAxisProps={{ allowDecimals: false, width: 44, tickFormatter: (value: number) => formatCount(value) }}
          />
        </div>
      </Stack>
    </Paper>
  );
}
