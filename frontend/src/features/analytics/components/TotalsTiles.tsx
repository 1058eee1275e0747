import { Paper, SimpleGrid, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { formatNumber } from '../../../shared/stats/format';
import { type AnalyticsKind, clickThroughRate, type Counts, KIND_METRICS } from '../model/metrics';
import { formatPercent } from '../model/percent';
import classes from './Analytics.module.css';

/** The range's totals, one tile each (and the click-through rate of the ads). */
export function TotalsTiles({ kind, totals }: { kind: AnalyticsKind; totals: Counts }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const rate = kind === 'ads' ? clickThroughRate(totals) : undefined;
  const metrics = KIND_METRICS[kind].totals;
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: metrics.length + (rate === undefined ? 0 : 1) }} spacing="sm" role="list" aria-label={t('creatorAnalytics.totalsLabel')}>
      {metrics.map((metric) => (
        <Tile key={metric} name={metric} label={t(`creatorAnalytics.metrics.${metric}`)} value={totals[metric] ?? 0} text={formatNumber(totals[metric] ?? 0, language)} />
      ))}
      {rate !== undefined && (
        <Tile name="ctr" label={t('creatorAnalytics.metrics.ctr')} value={rate ?? 0} text={rate === null ? t('creatorAnalytics.notShown') : formatPercent(rate, language)} />
      )}
    </SimpleGrid>
  );
}

interface TileProps {
  name: string;
  label: string;
  value: number;
  text: string;
}

function Tile({ name, label, value, text }: TileProps) {
  const changed = useJustChanged(value);
  return (
    <Paper withBorder radius="lg" p="md" role="listitem" className={classes.tile}>
      <Text size="sm" c="dimmed" fw={500}>
        {label}
      </Text>
      <Text className={classes.tileValue} data-testid={`analytics-total-${name}`} data-value={value} data-changed={changed} aria-live="polite">
        {text}
      </Text>
    </Paper>
  );
}

const HIGHLIGHT_MS = 1200;

/** True for a moment after the value changes (not when it first shows), so a live update catches the eye. */
function useJustChanged(value: number): boolean {
  const [shown, setShown] = useState(value);
  const [changed, setChanged] = useState(false);
  if (value !== shown) {
    // adjusting state while rendering: the highlight comes with the new number, in the same commit
    setShown(value);
    setChanged(true);
  }
  useEffect(() => {
    if (!changed) return undefined;
    const timer = setTimeout(() => setChanged(false), HIGHLIGHT_MS);
    return () => clearTimeout(timer);
  }, [changed, shown]);
  return changed;
}
