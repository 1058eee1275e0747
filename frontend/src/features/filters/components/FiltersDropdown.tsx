import { ActionIcon, Badge, Button, Divider, Group, Indicator, Popover, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { IconAdjustmentsHorizontal, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

import {
  countActiveFilters,
  effectiveSorting,
  type FilterState,
  INITIAL_FILTER_STATE,
  MODE_OPTIONS,
  type Mode,
  SORTING_OPTIONS,
  type Sorting,
  updateFilterState,
  useFilterState,
} from '../../../shared/filters/filterState';

type ListField = 'countries' | 'vendors' | 'media_types' | 'tags';
const LIST_FIELDS: readonly ListField[] = ['countries', 'vendors', 'media_types', 'tags'];

/** The filters dropdown of the top bar (spec §2): its fields and a badge counting the active ones. */
export function FiltersDropdown() {
  const { t } = useTranslation();
  const filters = useFilterState();
  const activeCount = countActiveFilters(filters);

  return (
    <Popover position="bottom-end" radius="lg" shadow="lg" width={320} trapFocus>
      <Popover.Target>
        <Indicator label={activeCount} size={18} disabled={activeCount === 0} color="brand" offset={4} data-testid="filters-count">
          <ActionIcon variant="default" radius="xl" size="lg" aria-label={t('filters.open')} data-testid="filters-button">
            <IconAdjustmentsHorizontal size={18} />
          </ActionIcon>
        </Indicator>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="md">
          <Group justify="space-between">
            <Text fw={700}>{t('filters.title')}</Text>
            <Button variant="subtle" size="compact-sm" disabled={activeCount === 0} onClick={clearFilters}>
              {t('filters.clear')}
            </Button>
          </Group>
          <Select
            label={t('filters.sorting')}
            data={SORTING_OPTIONS.map((value) => ({ value, label: t(`sorting.${value}`) }))}
            value={effectiveSorting(filters)}
            onChange={(value) => value && updateFilterState({ sorting: value as Sorting })}
            allowDeselect={false}
            comboboxProps={{ withinPortal: false }}
            maxDropdownHeight={250}
          />
          <Stack gap={6}>
            <Text size="sm" fw={500}>
              {t('filters.mode')}
            </Text>
            <SegmentedControl
              fullWidth
              size="xs"
              radius="xl"
              value={filters.mode}
              onChange={(value) => updateFilterState({ mode: value as Mode })}
              data={MODE_OPTIONS.map((value) => ({ value, label: t(`modes.${value}`) }))}
            />
          </Stack>
          <Divider />
          <SearchSummary pattern={filters.searchPattern} />
          {LIST_FIELDS.map((field) => (
            <SelectedValues key={field} field={field} values={filters[field]} />
          ))}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

function clearFilters(): void {
  const cleared: Partial<FilterState> = {
    countries: [],
    vendors: [],
    media_types: [],
    tags: [],
    sorting: INITIAL_FILTER_STATE.sorting,
    mode: INITIAL_FILTER_STATE.mode,
    searchPattern: '',
  };
  updateFilterState(cleared);
}

function SearchSummary({ pattern }: { pattern: string }) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" wrap="nowrap" gap="xs">
      <Text size="sm" fw={500}>
        {t('filters.search')}
      </Text>
      {pattern ? (
        <Badge variant="light" radius="sm" rightSection={<RemoveButton label={t('filters.remove')} onClick={() => updateFilterState({ searchPattern: '' })} />}>
          {pattern}
        </Badge>
      ) : (
        <Text size="sm" c="dimmed">
          {t('filters.none')}
        </Text>
      )}
    </Group>
  );
}

/**
 * The values chosen for a list field, each removable. They are chosen elsewhere (a country on the
 * map, a tag on a tour, a host in search), so the dropdown shows and clears them.
 */
function SelectedValues({ field, values }: { field: ListField; values: readonly (number | string)[] }) {
  const { t } = useTranslation();
  const remove = (value: number | string) =>
    updateFilterState({ [field]: values.filter((candidate) => candidate !== value) } as Partial<FilterState>);
  return (
    <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
      <Text size="sm" fw={500}>
        {t(`filters.fields.${field}`)}
      </Text>
      {values.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('filters.none')}
        </Text>
      ) : (
        <Group gap={4} justify="flex-end">
          {values.map((value) => (
            <Badge key={value} variant="light" radius="sm" rightSection={<RemoveButton label={t('filters.remove')} onClick={() => remove(value)} />}>
              {value}
            </Badge>
          ))}
        </Group>
      )}
    </Group>
  );
}

function RemoveButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <ActionIcon size={14} variant="transparent" color="gray" aria-label={label} onClick={onClick}>
      <IconX size={10} />
    </ActionIcon>
  );
}
