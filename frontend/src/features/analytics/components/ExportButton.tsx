import { Button, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';

import { fetchAllRows } from '../api/analyticsApi';
import { analyticsSections, type ExportLabel } from '../model/analyticsExport';
import { csvDocument, csvFileName, downloadCsv } from '../model/csv';
import type { AnalyticsKind, Counts, DayPoint, RangeOfDays } from '../model/metrics';

interface ExportButtonProps {
  kind: AnalyticsKind;
  range: RangeOfDays;
  totals: Counts | undefined;
  points: DayPoint[] | undefined;
  disabled: boolean;
}

/**
 * The range's totals, days and whole table as a CSV file built in the browser. The table is read
 * afresh, every page of it (the screen holds one page); totals and days are the ones on screen,
 * live increments included.
 */
export function ExportButton({ kind, range, totals, points, disabled }: ExportButtonProps) {
  const { t } = useTranslation();
  const label = (name: ExportLabel): string => {
    switch (name) {
      case 'totals':
      case 'daily':
      case 'date':
      case 'id':
      case 'ctr':
        return t(`creatorAnalytics.csv.${name}`);
      case 'table':
        return t(`creatorAnalytics.csv.table.${kind}`);
      case 'title':
      case 'status':
        return t(`creatorAnalytics.columns.${name}`);
      default:
        return t(`creatorAnalytics.metrics.${name}`);
    }
  };
  const exporting = useMutation({
    mutationFn: async () => {
      const rows = await fetchAllRows(kind, range);
      const text = csvDocument(analyticsSections({ kind, totals: totals ?? {}, points: points ?? [], rows, label }));
      downloadCsv(text, csvFileName(kind, range));
    },
  });
  return (
    <Stack gap={4} align="flex-end">
      <Button
        variant="default"
        leftSection={<IconDownload size={18} aria-hidden="true" />}
        loading={exporting.isPending}
        disabled={disabled}
        onClick={() => exporting.mutate()}
        title={t('creatorAnalytics.exportHint')}
        data-testid="analytics-export-csv"
      >
        {t('creatorAnalytics.exportCsv')}
      </Button>
      {exporting.isError && (
        <Text size="xs" c="red" role="alert" data-testid="analytics-export-error">
          {t('creatorAnalytics.exportFailed')}
        </Text>
      )}
    </Stack>
  );
}
