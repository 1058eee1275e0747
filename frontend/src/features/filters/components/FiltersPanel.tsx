import { Button, Drawer, Group, Popover, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { lazy, type ReactNode, Suspense } from 'react';
import { useTranslation } from 'react-i18next';

import { CLEARED_DROPDOWN_FIELDS, countActiveFilters, updateFilterState, useFilterState } from '../../../shared/filters/filterState';
import { useIsMobile } from '../../../shared/layout/breakpoints';
import { PartLoading } from '../../../shared/ui/PartLoading';
import { FiltersButton, FiltersCount } from './FiltersButton';
import classes from './FiltersDropdown.module.css';

// The form (selects, sliders) is fetched when the filters first open, not with the feed.
const FiltersForm = lazy(async () => ({ default: (await import('./FiltersForm')).FiltersForm }));

/**
 * The filters dropdown of the top bar (spec §2) with a badge counting the active filters, fetched on
 * first use (FiltersDropdown draws its button until then; `defaultOpened` when it was clicked). On a
 * phone the same fields open in a sheet from the bottom of the screen.
 */
export function FiltersPanel({ defaultOpened = false }: { defaultOpened?: boolean }) {
  const { t } = useTranslation();
  const filters = useFilterState();
  const mobile = useIsMobile();
  const [opened, { toggle, close }] = useDisclosure(defaultOpened);
  const activeCount = countActiveFilters(filters);

  const trigger = <FiltersButton opened={opened} onClick={toggle} />;
  // The count sits outside the popover's target: the target (the button) gets aria-expanded, which a
  // plain div may not carry.
  const withCount = (children: ReactNode) => <FiltersCount>{children}</FiltersCount>;
  const header = (
    <Group justify="space-between" wrap="nowrap">
      <Text fw={700}>{t('filters.title')}</Text>
      <Button variant="subtle" size="compact-sm" disabled={activeCount === 0 && !filters.bounds} onClick={() => updateFilterState(CLEARED_DROPDOWN_FIELDS)}>
        {t('filters.clear')}
      </Button>
    </Group>
  );

  if (mobile) {
    return (
      <>
        {withCount(trigger)}
        <Drawer
          opened={opened}
          onClose={close}
          position="bottom"
          size="92%"
          radius="lg"
          title={header}
          classNames={{ title: classes.drawerTitle, body: classes.drawerBody }}
          data-testid="filters-panel"
        >
          <Suspense fallback={<PartLoading minHeight={320} />}>
            <FiltersForm inPopover={false} />
          </Suspense>
          <Button fullWidth radius="xl" mt="lg" onClick={close} data-testid="filters-done">
            {t('filters.showResults')}
          </Button>
        </Drawer>
      </>
    );
  }

  return withCount(
    <Popover opened={opened} onDismiss={close} position="bottom-end" radius="lg" shadow="lg" width={380} trapFocus={false}>
      <Popover.Target>{trigger}</Popover.Target>
      <Popover.Dropdown className={classes.popover} data-testid="filters-panel">
        {header}
        <Suspense fallback={<PartLoading minHeight={320} />}>
          <FiltersForm inPopover />
        </Suspense>
      </Popover.Dropdown>
    </Popover>,
  );
}
