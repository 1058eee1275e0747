import '@mantine/dates/styles.css';
import 'dayjs/locale/ru';
import { Badge, Chip, CloseButton, Group, Input, MultiSelect, SegmentedControl, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import { DatePickerInput, DatesProvider, type DatesRangeValue } from '@mantine/dates';
import { notifications } from '@mantine/notifications';
import { IconCalendar, IconMapPin, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

import {
  effectiveSorting,
  type FilterState,
  MODE_OPTIONS,
  type Mode,
  SORTING_OPTIONS,
  type Sorting,
  updateFilterState,
  useFilterState,
} from '../../../shared/filters/filterState';
import { rememberTagLabels, useTagLabels } from '../../../shared/filters/tagLabels';
import { locateVisitor } from '../../../shared/location/locateVisitor';
import { useDebouncedValue } from '../../../shared/timing/useDebouncedValue';
import { addressCountriesQueryOptions, mediaTypesQueryOptions, tagsQueryOptions, vendorsQueryOptions } from '../../../shared/dictionaries/queries';

/** Spec §9: dropdown lists are at most 250 px tall, the tag list 200 px. */
const DROPDOWN_MAX_HEIGHT = 250;
const TAGS_DROPDOWN_MAX_HEIGHT = 200;
/** The tag picker asks the server as the visitor types; a short pause is enough there. */
const TAG_SEARCH_DEBOUNCE_MS = 300;

interface FieldProps {
  /** Inside the desktop popover, lists must open inside it, or a click in them would close it. */
  inPopover: boolean;
}

/**
 * The fields of the filters dropdown (spec §2): search, sorting, mode, countries, vendors, media types,
 * tags; and the added-date range and the "360° only" switch (issue 18).
 */
export function FiltersForm({ inPopover }: FieldProps) {
  const filters = useFilterState();
  return (
    <Stack gap="md" data-testid="filters-form">
      <LocationField filters={filters} />
      <SearchField pattern={filters.searchPattern} />
      <SortingField filters={filters} inPopover={inPopover} />
      <ModeField mode={filters.mode} />
      <CountriesField selected={filters.countries} inPopover={inPopover} />
      <VendorsField selected={filters.vendors} inPopover={inPopover} />
      <MediaTypesField selected={filters.media_types} inPopover={inPopover} />
      <Only360Field on={filters.only_360} />
      <TagsField filters={filters} inPopover={inPopover} />
      <AddedField from={filters.added_from} to={filters.added_to} inPopover={inPopover} />
    </Stack>
  );
}

function comboboxProps(inPopover: boolean) {
  return { withinPortal: !inPopover, shadow: 'md' as const };
}

/** A place chosen in search narrows the results to its area: shown here, removable. */
function LocationField({ filters }: { filters: FilterState }) {
  const { t } = useTranslation();
  if (!filters.bounds) return null;
  return (
    <Group justify="space-between" wrap="nowrap" gap="xs">
      <Text size="sm" fw={500}>
        {t('filters.location')}
      </Text>
      <Badge
        variant="light"
        radius="sm"
        size="lg"
        leftSection={<IconMapPin size={14} />}
        rightSection={<CloseButton size="xs" aria-label={t('filters.removeLocation')} onClick={() => updateFilterState({ bounds: null, address: '' })} />}
        style={{ textTransform: 'none', maxWidth: 240 }}
      >
        {filters.address || t('filters.mapArea')}
      </Badge>
    </Group>
  );
}

/** The search pattern, editable here too; applied on Enter or when the field is left. */
function SearchField({ pattern }: { pattern: string }) {
  const { t } = useTranslation();
  const [text, setText] = useState(pattern);
  useEffect(() => setText(pattern), [pattern]);
  const apply = () => text.trim() !== pattern && updateFilterState({ searchPattern: text.trim() });
  return (
    <TextInput
      label={t('filters.search')}
      placeholder={t('filters.searchPlaceholder')}
      value={text}
      onChange={(event) => setText(event.currentTarget.value)}
      onBlur={apply}
      onKeyDown={(event) => event.key === 'Enter' && apply()}
      leftSection={<IconSearch size={16} />}
      rightSection={text ? <CloseButton size="sm" aria-label={t('search.clear')} onClick={() => updateFilterState({ searchPattern: '' })} /> : null}
      data-testid="filters-search"
    />
  );
}

function SortingField({ filters, inPopover }: { filters: FilterState } & FieldProps) {
  const { t } = useTranslation();
  const choose = async (value: Sorting) => {
    if (value !== 'near_me') {
      updateFilterState({ sorting: value });
      return;
    }
    // Near Me needs to know where the visitor is (spec §2 geolocation).
    try {
      const location = await locateVisitor();
      updateFilterState({ sorting: 'near_me', near: location.center });
    } catch {
      notifications.show({ color: 'orange', title: t('location.unavailableTitle'), message: t('location.unavailable') });
    }
  };
  return (
    <Select
      label={t('filters.sorting')}
      data={SORTING_OPTIONS.map((value) => ({ value, label: t(`sorting.${value}`) }))}
      value={effectiveSorting(filters)}
      onChange={(value) => value && void choose(value as Sorting)}
      allowDeselect={false}
      comboboxProps={comboboxProps(inPopover)}
      maxDropdownHeight={DROPDOWN_MAX_HEIGHT}
      data-testid="filters-sorting"
    />
  );
}

function ModeField({ mode }: { mode: Mode }) {
  const { t } = useTranslation();
  return (
    <Input.Wrapper label={t('filters.mode')}>
      <SegmentedControl
        fullWidth
        size="xs"
        radius="xl"
        value={mode}
        onChange={(value) => updateFilterState({ mode: value as Mode })}
        data={MODE_OPTIONS.map((value) => ({ value, label: t(`modes.${value}`) }))}
        data-testid="filters-mode"
      />
    </Input.Wrapper>
  );
}

function CountriesField({ selected, inPopover }: { selected: string[] } & FieldProps) {
  const { t } = useTranslation();
  // Spec §7: a dictionary that fails to load is ignored; the field just offers nothing.
  const { data = [] } = useQuery(addressCountriesQueryOptions());
  const options = data.flatMap((country) => (country.code ? [{ value: country.code, label: country.name }] : []));
  const known = new Set(options.map((option) => option.value));
  const unknown = selected.filter((code) => !known.has(code)).map((code) => ({ value: code, label: code }));
  return (
    <MultiSelect
      label={t('filters.fields.countries')}
      placeholder={selected.length === 0 ? t('filters.any') : undefined}
      data={[...options, ...unknown]}
      value={selected}
      onChange={(countries) => updateFilterState({ countries })}
      searchable
      clearable
      nothingFoundMessage={t('filters.nothingFound')}
      maxDropdownHeight={DROPDOWN_MAX_HEIGHT}
      comboboxProps={comboboxProps(inPopover)}
      data-testid="filters-countries"
    />
  );
}

function VendorsField({ selected, inPopover }: { selected: number[] } & FieldProps) {
  const { t } = useTranslation();
  const { data = [] } = useQuery(vendorsQueryOptions());
  return (
    <MultiSelect
      label={t('filters.fields.vendors')}
      placeholder={selected.length === 0 ? t('filters.any') : undefined}
      data={data.map((vendor) => ({ value: String(vendor.vendor_id), label: vendor.vendor_name }))}
      value={selected.map(String)}
      onChange={(values) => updateFilterState({ vendors: values.map(Number) })}
      searchable
      clearable
      nothingFoundMessage={t('filters.nothingFound')}
      maxDropdownHeight={DROPDOWN_MAX_HEIGHT}
      comboboxProps={comboboxProps(inPopover)}
      data-testid="filters-vendors"
    />
  );
}

function MediaTypesField({ selected, inPopover }: { selected: number[] } & FieldProps) {
  const { t } = useTranslation();
  const { data = [] } = useQuery(mediaTypesQueryOptions());
  return (
    <MultiSelect
      label={t('filters.fields.media_types')}
      placeholder={selected.length === 0 ? t('filters.any') : undefined}
      data={data.map((type) => ({ value: String(type.id), label: type.name }))}
      value={selected.map(String)}
      onChange={(values) => updateFilterState({ media_types: values.map(Number) })}
      clearable
      maxDropdownHeight={DROPDOWN_MAX_HEIGHT}
      comboboxProps={comboboxProps(inPopover)}
      data-testid="filters-media-types"
    />
  );
}

/** Only panoramas and 360 video: the server knows which media types those are. */
function Only360Field({ on }: { on: boolean }) {
  const { t } = useTranslation();
  return (
    <Switch
      label={t('filters.only360')}
      description={t('filters.only360Hint')}
      checked={on}
      onChange={(event) => updateFilterState({ only_360: event.currentTarget.checked })}
      data-testid="filters-only-360"
    />
  );
}

/** Quick ranges ending today, in days back (the calendar takes any other). */
const ADDED_PRESETS = [
  { key: 'week', days: 7 },
  { key: 'month', days: 30 },
  { key: 'year', days: 365 },
] as const;

/** A day as 'YYYY-MM-DD' in the visitor's calendar. */
function isoDay(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

function daysBack(days: number): string {
  const date = new Date();
  date.setDate(date.getDate() - days);
  return isoDay(date);
}

/**
 * The added-date range: a quick choice (past week, month, year) or any range on the calendar; one
 * end may stay open. Both ends are days, both included.
 */
function AddedField({ from, to, inPopover }: { from: string; to: string } & FieldProps) {
  const { t, i18n } = useTranslation();
  const today = isoDay(new Date());
  const preset = ADDED_PRESETS.find((item) => from === daysBack(item.days) && (to === '' || to === today))?.key ?? '';
  const pick = ([first, last]: DatesRangeValue<string>) => {
    // A range half chosen waits for its second day; a cleared one lifts the filter.
    if (first && !last) return;
    updateFilterState({ added_from: first ?? '', added_to: last ?? '' });
  };
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500} id="filters-added-label">
        {t('filters.added')}
      </Text>
      <Chip.Group
        value={preset}
        onChange={(value) => {
          const chosen = ADDED_PRESETS.find((item) => item.key === value);
          updateFilterState(chosen ? { added_from: daysBack(chosen.days), added_to: '' } : { added_from: '', added_to: '' });
        }}
      >
        <Group gap={6} role="group" aria-labelledby="filters-added-label" data-testid="filters-added-presets">
          {ADDED_PRESETS.map((item) => (
            <Chip key={item.key} value={item.key} size="xs" radius="xl" data-testid={`filters-added-${item.key}`}>
              {t(`filters.addedPresets.${item.key}`)}
            </Chip>
          ))}
        </Group>
      </Chip.Group>
      <DatesProvider settings={{ locale: i18n.language, firstDayOfWeek: i18n.language === 'ru' ? 1 : 0 }}>
        <DatePickerInput
          type="range"
          aria-label={t('filters.addedRange')}
          placeholder={t('filters.addedAnyTime')}
          value={[from || null, to || null]}
          onChange={pick}
          maxDate={today}
          allowSingleDateInRange
          clearable
          valueFormat="D MMM YYYY"
          leftSection={<IconCalendar size={16} aria-hidden="true" />}
          popoverProps={{ withinPortal: !inPopover }}
          data-testid="filters-added-range"
        />
      </DatesProvider>
    </Stack>
  );
}

/**
 * Tags, searched on the server as the visitor types (spec §5: by name, narrowed by the chosen
 * category or media type when there is exactly one), with 'No data found' when none match.
 */
function TagsField({ filters, inPopover }: { filters: FilterState } & FieldProps) {
  const { t } = useTranslation();
  const labels = useTagLabels();
  const [search, setSearch] = useState('');
  const { debounced } = useDebouncedValue(search, TAG_SEARCH_DEBOUNCE_MS);
  const onlyOne = (values: number[]) => (values.length === 1 ? (values[0] ?? null) : null);
  const { data: found = [], isFetching } = useQuery(
    tagsQueryOptions({ search: debounced, categoryId: onlyOne(filters.categories), mediaTypeId: onlyOne(filters.media_types) }),
  );
  useEffect(() => rememberTagLabels(found), [found]);

  const selected = filters.tags.map((id) => ({ value: String(id), label: labels.get(id) ?? `#${id}` }));
  const chosen = new Set(filters.tags);
  const options = [...selected, ...found.filter((tag) => !chosen.has(tag.id)).map((tag) => ({ value: String(tag.id), label: tag.name }))];
  return (
    <MultiSelect
      label={t('filters.fields.tags')}
      placeholder={filters.tags.length === 0 ? t('filters.tagsPlaceholder') : undefined}
      data={options}
      value={filters.tags.map(String)}
      onChange={(values) => updateFilterState({ tags: values.map(Number) })}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      // The server already matched the text: show what it found, whatever the case or accents.
      filter={({ options: all }) => all}
      clearable
      nothingFoundMessage={isFetching ? t('page.loading') : t('filters.nothingFound')}
      maxDropdownHeight={TAGS_DROPDOWN_MAX_HEIGHT}
      comboboxProps={comboboxProps(inPopover)}
      data-testid="filters-tags"
    />
  );
}
