import { Title } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

import { DayChart } from '../../../shared/stats/DayChart';
import { formatDay, formatNumber, spansYears } from '../../../shared/stats/format';
import { busiestDay, metricSum } from '../model/daily';
import type { DayPoint, Metric, RangeOfDays } from '../model/metrics';

const COLORS: Record<Metric, string> = {
  views: 'indigo.6',
  likes: 'pink.6',
  saves: 'teal.6',
  shares: 'orange.6',
  follows: 'violet.6',
  impressions: 'indigo.6',
  clicks: 'teal.6',
};

interface DailyChartProps {
  id: string;
  title: string;
  metrics: readonly Metric[];
  points: DayPoint[];
  range: RangeOfDays;
}

/** Some counts per day over the range, with sentences that say the same for a screen reader. */
export function DailyChart({ id, title, metrics, points, range }: DailyChartProps) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const withYear = spansYears(range.from, range.to);
  const data = useMemo(
    () => points.map((point) => ({ day: formatDay(point.date, language, withYear), ...Object.fromEntries(metrics.map((metric) => [metric, point.counts[metric] ?? 0])) })),
    [points, metrics, language, withYear],
  );
  const ends = { from: formatDay(range.from, language, true), to: formatDay(range.to, language, true) };

  return (
    <DayChart
      titleId={`analytics-chart-${id}`}
      testId={`analytics-chart-${id}`}
      heading={
        <Title order={3} size="h5" id={`analytics-chart-${id}`}>
          {title}
        </Title>
      }
      summary={metrics.map((metric) => {
        const name = t(`creatorAnalytics.metrics.${metric}`);
        const busiest = busiestDay(points, metric);
        return (
          <span key={metric}>
            {busiest
              ? t('creatorAnalytics.chartSummary', {
                  name,
                  total: formatNumber(metricSum(points, metric), language),
                  day: formatDay(busiest.date, language, true),
                  count: formatNumber(busiest.count, language),
                  ...ends,
                })
              : t('creatorAnalytics.chartSummaryQuiet', { name, ...ends })}{' '}
          </span>
        );
      })}
      data={data}
      series={metrics.map((metric) => ({ name: metric, label: t(`creatorAnalytics.metrics.${metric}`), color: COLORS[metric] }))}
    />
  );
}
