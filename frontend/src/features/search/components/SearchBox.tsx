import { Badge, CloseButton, Combobox, Group, Loader, Text, TextInput, useCombobox } from '@mantine/core';
import { IconClock, IconHash, IconMapPin, IconPhoto, IconSearch, IconUser } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type KeyboardEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

import type { SearchResult } from '../../../shared/api/generated/types.gen';
import { getFilterState, updateFilterState, useFilterState } from '../../../shared/filters/filterState';
import { rememberTagLabels } from '../../../shared/filters/tagLabels';
import { formatCount } from '../../../shared/format/formatCount';
import { requestMapTarget } from '../../../shared/map/mapTarget';
import { paths } from '../../../shared/routing/paths';
import { clearSearchHistory, readSearchHistory, rememberSearch } from '../../../shared/search/searchHistory';
import { useDebouncedValue } from '../../../shared/timing/useDebouncedValue';
import { groupSuggestions, isSearchable, searchPrefixOf, splitCreatorText, suggestionsQueryOptions } from '../api/suggestions';
import { placeArea } from '../placeArea';
import classes from './SearchBox.module.css';

/** Spec §5/§9: suggestions are asked for 1200 ms after the last keystroke. */
export const SEARCH_DEBOUNCE_MS = 1200;

const HISTORY_PREFIX = 'history:';
const CLEAR_HISTORY = 'clear-history';
const SEARCH_TYPED = 'search-typed';

/**
 * The top bar's search (spec §2): suggestions while typing, Enter to search the typed text, and the
 * last five searches when the box is empty. Choosing a tour opens it, a creator opens their page, a
 * tag becomes a tag filter and a place moves the map there.
 */
export function SearchBox({ initialTyped }: { initialTyped?: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { searchPattern } = useFilterState();
  // What the visitor typed into the stand-in (TopBarSearch) before this arrived, else the filter's text.
  const [typed, setTyped] = useState(initialTyped ?? searchPattern);
  const [shownPattern, setShownPattern] = useState(searchPattern);
  const [history, setHistory] = useState(readSearchHistory);
  const { debounced, waiting, flushTo } = useDebouncedValue(typed, SEARCH_DEBOUNCE_MS);
  const suggestions = useQuery(suggestionsQueryOptions(debounced));
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const prefix = searchPrefixOf(typed);

  // Cleared or changed elsewhere (the filters dropdown): show the filter's value in the box.
  if (searchPattern !== shownPattern) {
    setShownPattern(searchPattern);
    setTyped(searchPattern);
  }

  const search = (text: string) => {
    const pattern = text.trim();
    flushTo(text);
    updateFilterState({ searchPattern: pattern });
    if (pattern) setHistory(rememberSearch(pattern));
    combobox.closeDropdown();
  };

  const choose = (value: string) => {
    if (value === CLEAR_HISTORY) {
      clearSearchHistory();
      setHistory([]);
      return;
    }
    if (value === SEARCH_TYPED) return search(typed);
    if (value.startsWith(HISTORY_PREFIX)) {
      const entry = value.slice(HISTORY_PREFIX.length);
      setTyped(entry);
      return search(entry);
    }
    const result = suggestions.data?.find((item) => optionValue(item) === value);
    if (result) openResult(result);
  };

  const openResult = (result: SearchResult) => {
    combobox.closeDropdown();
    setHistory(rememberSearch(result.text));
    switch (result.type) {
      case 'tour':
        void navigate(paths.tour(result.id));
        return;
      case 'creator': {
        const { username } = splitCreatorText(result.text);
        void navigate(paths.creator(result.id, username ?? undefined));
        return;
      }
      case 'tag': {
        const tagId = Number(result.id);
        rememberTagLabels([{ id: tagId, name: result.text }]);
        const tags = getFilterState().tags;
        updateFilterState({ tags: tags.includes(tagId) ? tags : [...tags, tagId], searchPattern: '' });
        setTyped('');
        return;
      }
      case 'place': {
        const area = placeArea(result);
        if (!area) return;
        updateFilterState({ bounds: area.bounds, address: result.text, searchPattern: '' });
        requestMapTarget(area.target);
        setTyped('');
        void navigate(paths.map);
      }
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // Enter with no suggestion highlighted searches the typed text at once, without the wait.
    if (event.key === 'Enter' && combobox.getSelectedOptionIndex() === -1) {
      event.preventDefault();
      search(typed);
    }
  };

  const onChange = (text: string) => {
    setTyped(text);
    combobox.openDropdown();
    combobox.resetSelectedOption();
    // An emptied box shows everything again at once.
    if (!text.trim() && getFilterState().searchPattern) updateFilterState({ searchPattern: '' });
  };

  const loading = isSearchable(typed) && (waiting || suggestions.isFetching);
  const options = typed.trim() ? (
    <SuggestionOptions typed={typed} debounced={debounced} results={suggestions.data} waiting={loading} />
  ) : (
    <HistoryOptions history={history} />
  );

  return (
    <Combobox store={combobox} onOptionSubmit={choose} withinPortal position="bottom-start" radius="lg" shadow="lg" offset={6}>
      <Combobox.Target withAriaAttributes>
        <TextInput
          value={typed}
          onChange={(event) => onChange(event.currentTarget.value)}
          onFocus={() => combobox.openDropdown()}
          onClick={() => combobox.openDropdown()}
          onBlur={() => combobox.closeDropdown()}
          onKeyDown={onKeyDown}
          placeholder={t('search.placeholder')}
          aria-label={t('search.label')}
          radius="xl"
          size="md"
          leftSection={<IconSearch size={18} />}
          rightSectionWidth="auto"
          rightSection={
            <Group gap={6} wrap="nowrap" pr={8}>
              {prefix && (
                <Badge size="sm" variant="light" radius="sm" data-testid="search-prefix">
                  {t(`search.prefix.${prefix}`)}
                </Badge>
              )}
              {loading && <Loader size={16} aria-label={t('search.searching')} data-testid="search-spinner" />}
              {typed && !loading && <CloseButton size="sm" aria-label={t('search.clear')} onMouseDown={(event) => event.preventDefault()} onClick={() => search('')} />}
            </Group>
          }
          classNames={{ input: classes.input }}
          data-testid="search-input"
        />
      </Combobox.Target>
      <Combobox.Dropdown hidden={!typed.trim() && history.length === 0} data-testid="search-dropdown">
        <Combobox.Options mah={420} style={{ overflowY: 'auto' }}>
          {options}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}

function optionValue(result: SearchResult): string {
  return `${result.type}:${result.id}`;
}

function SuggestionOptions({
  typed,
  debounced,
  results,
  waiting,
}: {
  typed: string;
  debounced: string;
  results: SearchResult[] | undefined;
  waiting: boolean;
}) {
  const { t } = useTranslation();
  const current = debounced.trim() === typed.trim();
  const groups = current && results ? groupSuggestions(results) : [];
  return (
    <>
      {isSearchable(typed) && (
        <Combobox.Option value={SEARCH_TYPED}>
          <Group gap={10} wrap="nowrap">
            <IconSearch size={16} aria-hidden="true" />
            <Text size="sm" truncate>
              {t('search.searchFor', { text: typed.trim() })}
            </Text>
          </Group>
        </Combobox.Option>
      )}
      {!isSearchable(typed) && <Combobox.Empty>{t(`search.typeMore.${searchPrefixOf(typed) ?? 'any'}`)}</Combobox.Empty>}
      {isSearchable(typed) && waiting && groups.length === 0 && <Combobox.Empty>{t('search.searching')}</Combobox.Empty>}
      {isSearchable(typed) && !waiting && current && results?.length === 0 && (
        <Combobox.Empty data-testid="search-empty">{t('search.noResults')}</Combobox.Empty>
      )}
      {groups.map((group) => (
        <Combobox.Group key={group.kind} label={t(`search.groups.${group.kind}`)}>
          {group.results.map((result) => (
            <Combobox.Option key={optionValue(result)} value={optionValue(result)} data-testid={`suggestion-${result.type}`}>
              <SuggestionRow result={result} />
            </Combobox.Option>
          ))}
        </Combobox.Group>
      ))}
    </>
  );
}

const KIND_ICONS: Record<SearchResult['type'], ReactNode> = {
  tour: <IconPhoto size={16} aria-hidden="true" />,
  creator: <IconUser size={16} aria-hidden="true" />,
  tag: <IconHash size={16} aria-hidden="true" />,
  place: <IconMapPin size={16} aria-hidden="true" />,
};

function SuggestionRow({ result }: { result: SearchResult }) {
  const { t } = useTranslation();
  const creator = result.type === 'creator' ? splitCreatorText(result.text) : null;
  const count = result.vt_count ?? 0;
  return (
    <Group gap={10} wrap="nowrap" className={classes.row}>
      <span className={classes.kindIcon} data-kind={result.type}>
        {KIND_ICONS[result.type]}
      </span>
      <Text size="sm" truncate className={classes.rowText}>
        {creator ? (
          <>
            {creator.name}
            {creator.username && <span className={classes.username}> @{creator.username}</span>}
          </>
        ) : (
          result.text
        )}
      </Text>
      {count > 0 && (
        <Text size="xs" c="dimmed" className={classes.count}>
          {t('search.tours', { count, formatted: formatCount(count) })}
        </Text>
      )}
    </Group>
  );
}

function HistoryOptions({ history }: { history: string[] }) {
  const { t } = useTranslation();
  if (history.length === 0) return null;
  return (
    <Combobox.Group label={t('search.groups.history')}>
      {history.map((entry) => (
        <Combobox.Option key={entry} value={`${HISTORY_PREFIX}${entry}`} data-testid="search-history-entry">
          <Group gap={10} wrap="nowrap">
            <IconClock size={16} aria-hidden="true" className={classes.historyIcon} />
            <Text size="sm" truncate>
              {entry}
            </Text>
          </Group>
        </Combobox.Option>
      ))}
      <Combobox.Option value={CLEAR_HISTORY}>
        <Text size="xs" c="dimmed">
          {t('search.clearHistory')}
        </Text>
      </Combobox.Option>
    </Combobox.Group>
  );
}
