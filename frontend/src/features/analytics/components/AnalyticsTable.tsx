import { Badge, Group, Pagination, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconPhoto } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

import { useIsMobile } from '../../../shared/layout/breakpoints';
import { formatNumber } from '../../../shared/stats/format';
import { PAGE_SIZE } from '../api/analyticsApi';
import { type AnalyticsKind, clickThroughRate, KIND_METRICS, type TablePage, type TableRow } from '../model/metrics';
import { formatPercent } from '../model/percent';
import classes from './Analytics.module.css';

interface AnalyticsTableProps {
  kind: AnalyticsKind;
  page: TablePage;
  onOffset: (offset: number) => void;
}

/**
 * The creator's tours (ads) with their counts in the range, one page at a time. The server orders
 * them, most viewed (shown) first, and offers no other order, so the columns are not sortable.
 */
export function AnalyticsTable({ kind, page, onOffset }: AnalyticsTableProps) {
  const { t, i18n } = useTranslation();
  const mobile = useIsMobile();
  const metrics = KIND_METRICS[kind].row;
  const pages = Math.max(1, Math.ceil(page.total / PAGE_SIZE));
  const first = Math.min(page.offset + 1, page.total);
  const last = page.offset + page.rows.length;
  const language = i18n.language;
  return (
    <Paper withBorder radius="lg" p="md" component="section" aria-labelledby="analytics-table-title">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <div>
            <Title order={3} size="h5" id="analytics-table-title">
              {t(`creatorAnalytics.tables.${kind}`)}
            </Title>
            <Text size="xs" c="dimmed">
              {t(`creatorAnalytics.orders.${kind}`)}
            </Text>
          </div>
          <Text size="sm" c="dimmed" data-testid="analytics-page-range">
            {t('creatorAnalytics.pageRange', { first: formatNumber(first, language), last: formatNumber(last, language), total: formatNumber(page.total, language) })}
          </Text>
        </Group>
        <Table.ScrollContainer minWidth={kind === 'ads' ? 440 : 480}>
          <Table verticalSpacing="xs" highlightOnHover data-testid="analytics-table" aria-labelledby="analytics-table-title">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('creatorAnalytics.columns.title')}</Table.Th>
                <Table.Th>{t('creatorAnalytics.columns.status')}</Table.Th>
                {metrics.map((metric) => (
                  <Table.Th key={metric} className={classes.number}>
                    {t(`creatorAnalytics.metrics.${metric}`)}
                  </Table.Th>
                ))}
                {kind === 'ads' && <Table.Th className={classes.number}>{t('creatorAnalytics.metrics.ctr')}</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {page.rows.map((row) => (
                <Row key={row.id} kind={kind} row={row} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {pages > 1 && (
          <Group justify="center">
            <Pagination
              total={pages}
              value={Math.floor(page.offset / PAGE_SIZE) + 1}
              onChange={(number) => onOffset((number - 1) * PAGE_SIZE)}
              size={mobile ? 'sm' : 'md'}
              radius="xl"
              aria-label={t('creatorAnalytics.pagination')}
              data-testid="analytics-pages"
            />
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

function Row({ kind, row }: { kind: AnalyticsKind; row: TableRow }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const ctr = clickThroughRate(row.counts);
  const status = row.status === 'active' || row.status === 'draft' ? t(`creatorAnalytics.statuses.${row.status}`) : row.status;
  return (
    <Table.Tr data-testid={`analytics-row-${row.id}`}>
      <Table.Td className={classes.titleCell}>
        <Group gap="sm" wrap="nowrap">
          {row.previewPicture ? (
            <img src={row.previewPicture} alt="" loading="lazy" className={classes.preview} />
          ) : (
            <span className={classes.preview} aria-hidden="true">
              <IconPhoto size={20} stroke={1.4} color="var(--mantine-color-dimmed)" style={{ margin: '8px 18px' }} />
            </span>
          )}
          <Text size="sm" fw={500} className={classes.rowTitle} title={row.title}>
            {row.title}
          </Text>
        </Group>
      </Table.Td>
      <Table.Td>
        <Badge variant="light" color={row.status === 'active' ? 'teal' : 'gray'} size="sm" className={classes.statusBadge}>
          {status}
        </Badge>
      </Table.Td>
      {KIND_METRICS[kind].row.map((metric) => (
        <Table.Td key={metric} className={classes.number} data-testid={`analytics-cell-${metric}`} data-value={row.counts[metric] ?? 0}>
          {formatNumber(row.counts[metric] ?? 0, language)}
        </Table.Td>
      ))}
      {kind === 'ads' && (
        <Table.Td className={classes.number} data-testid="analytics-cell-ctr">
          {ctr === null ? '—' : formatPercent(ctr, language)}
        </Table.Td>
      )}
    </Table.Tr>
  );
}
