import { CloseButton, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { getFilterState, updateFilterState, useFilterState } from '../../../shared/filters/filterState';
import classes from './SearchBox.module.css';

/** Spec §5: a search starts 1200 ms after the last keystroke. */
export const SEARCH_DEBOUNCE_MS = 1200;

/**
 * The top bar's search box: what is typed becomes the filter state's `searchPattern` once typing
 * pauses, and the grid and map follow it.
 */
export function SearchBox() {
  const { t } = useTranslation();
  const { searchPattern } = useFilterState();
  const [typed, setTyped] = useState(searchPattern);
  const [debounced] = useDebouncedValue(typed, SEARCH_DEBOUNCE_MS);

  useEffect(() => {
    if (debounced !== getFilterState().searchPattern) updateFilterState({ searchPattern: debounced });
  }, [debounced]);

  // Changed elsewhere (cleared in the filters dropdown): show the store's value in the box.
  const lastApplied = useRef(debounced);
  lastApplied.current = debounced;
  useEffect(() => {
    if (searchPattern !== lastApplied.current) setTyped(searchPattern);
  }, [searchPattern]);

  const clear = () => {
    setTyped('');
    updateFilterState({ searchPattern: '' });
  };

  return (
    <div className={classes.wrapper}>
      <TextInput
        value={typed}
        onChange={(event) => setTyped(event.currentTarget.value)}
        placeholder={t('search.placeholder')}
        aria-label={t('search.label')}
        radius="xl"
        size="md"
        leftSection={<IconSearch size={18} />}
        rightSection={typed ? <CloseButton size="sm" aria-label={t('search.clear')} onClick={clear} /> : null}
        classNames={{ input: classes.input }}
        data-testid="search-input"
      />
      {searchPattern && (
        <Text className={classes.hint} size="xs" c="dimmed" data-testid="search-applied">
          {t('search.applied', { pattern: searchPattern })}
        </Text>
      )}
    </div>
  );
}
