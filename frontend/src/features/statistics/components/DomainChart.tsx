import '../../../shared/i18n/adminTexts'; // this screen's English texts (not in the feed's bundle)
import { Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

import { DayChart } from '../../../shared/stats/DayChart';
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
    <DayChart
      titleId={`chart-title-${stats.domain}`}
      testId={`chart-${stats.domain}`}
      heading={
        <div>
          <Title order={2} size="h4" id={`chart-title-${stats.domain}`}>
            {t(`statistics.chartTitles.${stats.domain}`)}
          </Title>
          <Text size="sm" c="dimmed">
            {formatNumber(stats.inRange, language)} {t('statistics.newInRange')}
          </Text>
        </div>
      }
      summary={summary}
      data={points}
      series={[{ name: 'count', label: t('statistics.seriesLabel'), color: COLORS[stats.domain] }]}
    />
  );
}
