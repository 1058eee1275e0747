import { ActionIcon, Indicator } from '@mantine/core';
import { IconAdjustmentsHorizontal } from '@tabler/icons-react';
import type { ComponentPropsWithRef, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { countActiveFilters, useFilterState } from '../../../shared/filters/filterState';

/** The top bar's filters button (the popover's or sheet's target). */
export function FiltersButton({ opened, ...props }: { opened: boolean } & ComponentPropsWithRef<'button'>) {
  const { t } = useTranslation();
  return (
    <ActionIcon
      variant={opened ? 'filled' : 'default'}
      radius="xl"
      size="lg"
      aria-label={t('filters.open')}
      aria-expanded={opened}
      data-testid="filters-button"
      {...props}
    >
      <IconAdjustmentsHorizontal size={18} />
    </ActionIcon>
  );
}

/** The badge counting the active filters, on the button. */
export function FiltersCount({ children }: { children: ReactNode }) {
  const activeCount = countActiveFilters(useFilterState());
  return (
    <Indicator label={activeCount} size={18} disabled={activeCount === 0} color="brand" offset={4} data-testid="filters-count">
      {children}
    </Indicator>
  );
}
