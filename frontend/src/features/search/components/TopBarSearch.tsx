import { TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { updateFilterState, useFilterState } from '../../../shared/filters/filterState';
import { rememberSearch } from '../../../shared/search/searchHistory';
import { firstUseLoader, OnFirstUse } from '../../../shared/ui/OnFirstUse';
import classes from './SearchBox.module.css';

// The suggestions (Mantine's Combobox, floating-ui, the search history) are fetched on first use.
const searchBox = firstUseLoader(async () => (await import('./SearchBox')).SearchBox);

/**
 * The top bar's search: a plain box until the visitor points at it or focuses it, then the SearchBox
 * with its suggestions, which takes over what was typed and the focus. Enter before it arrives
 * searches the typed text all the same.
 */
export function TopBarSearch() {
  const { t } = useTranslation();
  const { searchPattern } = useFilterState();
  const [typed, setTyped] = useState(searchPattern);
  const [shownPattern, setShownPattern] = useState(searchPattern);
  if (searchPattern !== shownPattern) {
    setShownPattern(searchPattern);
    setTyped(searchPattern);
  }
  return (
    <OnFirstUse
      loader={searchBox}
      light={(intent) => (
        <TextInput
          value={typed}
          onChange={(event) => setTyped(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key !== 'Enter') return;
            event.preventDefault();
            const pattern = typed.trim();
            updateFilterState({ searchPattern: pattern });
            if (pattern) rememberSearch(pattern);
          }}
          onPointerEnter={intent.onPointerEnter}
          onFocus={intent.onFocus}
          onTouchStart={intent.onTouchStart}
          placeholder={t('search.placeholder')}
          aria-label={t('search.label')}
          radius="xl"
          size="md"
          leftSection={<IconSearch size={18} />}
          classNames={{ input: classes.input }}
          data-testid="search-input"
        />
      )}
      full={(SearchBox) => <SearchBox initialTyped={typed} />}
    />
  );
}
