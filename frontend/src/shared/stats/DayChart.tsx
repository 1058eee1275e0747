import { AreaChart, type AreaChartProps } from '@mantine/charts';
import { Paper, Stack, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { formatCount } from '../format/formatCount';
import { formatNumber } from './format';

export interface DaySeries {
  name: string;
  label: string;
  color: string;
}

interface DayChartProps {
  /** Labels the section: the heading's id. */
  titleId: string;
  testId: string;
  /** The heading (and what goes under it). */
  heading: ReactNode;
  /** The same as the chart in sentences, for a screen reader (the chart itself is hidden from it). */
  summary: ReactNode;
  /** One point per day: `day` (its label) and a count per series. */
  data: AreaChartProps['data'];
  series: readonly DaySeries[];
}

/** Counts per day over a range (Statistics, Analytics), with sentences that say the same for a screen reader. */
export function DayChart({ titleId, testId, heading, summary, data, series }: DayChartProps) {
  const { i18n } = useTranslation();
  const language = i18n.language;
  const several = series.length > 1;
  return (
    <Paper withBorder radius="lg" p="md" component="section" aria-labelledby={titleId} data-testid={testId}>
      <Stack gap="xs">
        {heading}
        <VisuallyHidden>{summary}</VisuallyHidden>
        <div aria-hidden="true">
          <AreaChart
            h={220}
            data={data}
            dataKey="day"
            series={[...series]}
            curveType="linear"
            withDots={data.length <= 31}
            withLegend={several}
            strokeWidth={2}
            withGradient={false}
            fillOpacity={several ? 0.08 : 0.18}
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
