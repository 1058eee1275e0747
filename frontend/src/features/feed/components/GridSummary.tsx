import { Badge, CloseButton, Group, Text } from '@mantine/core';
import { IconMapPin } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { updateFilterState, useFilterState } from '../../../shared/filters/filterState';
import classes from './GridSummary.module.css';

/** Above the grid: how many results the filters give, and the place they are narrowed to, removable. */
export function GridSummary({ total, children }: { total: number | null; children?: ReactNode }) {
  const { t, i18n } = useTranslation();
  const { address, bounds } = useFilterState();
  return (
    <Group className={classes.summary} justify="space-between" gap="sm" wrap="nowrap">
      <Group gap="sm" wrap="nowrap" miw={0}>
        <Text size="sm" c="dimmed" data-testid="grid-total" style={{ whiteSpace: 'nowrap' }}>
          {total === null ? '\u00a0' : t('feed.results', { count: total, formatted: total.toLocaleString(i18n.language) })}
        </Text>
        {bounds && (
          <Badge
            variant="light"
            size="lg"
            radius="xl"
            leftSection={<IconMapPin size={14} />}
            rightSection={<CloseButton size="xs" aria-label={t('filters.removeLocation')} onClick={() => updateFilterState({ bounds: null, address: '' })} />}
            className={classes.location}
            data-testid="location-filter"
          >
            {address || t('filters.mapArea')}
          </Badge>
        )}
      </Group>
      {children}
    </Group>
  );
}
