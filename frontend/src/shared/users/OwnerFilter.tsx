import { Autocomplete, Loader } from '@mantine/core';
import { IconUserSearch } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';

import { useDebouncedValue } from '../timing/useDebouncedValue';
import { userSearchQueryOptions } from './userSearch';

const SEARCH_DEBOUNCE_MS = 400;

export interface FilteredOwner {
  userid: number;
  platform_username: string;
  creatorId: number | null;
}

/**
 * Admins pick whose media or ads a manage dashboard shows (spec §6: admins manage every user's),
 * by platform username; clearing the text goes back to their own.
 */
export function OwnerFilter({ label, onPick }: { label: string; onPick: (owner: FilteredOwner | null) => void }) {
  const [text, setText] = useState('');
  const { debounced } = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const users = useQuery({ ...userSearchQueryOptions(debounced), enabled: debounced.length >= 2, placeholderData: keepPreviousData });
  const named = (users.data ?? []).filter((user) => user.platform_username);
  return (
    <Autocomplete
      placeholder={label}
      aria-label={label}
      value={text}
      onChange={(value) => {
        setText(value);
        const user = named.find((item) => item.platform_username === value);
        if (user) onPick({ userid: user.userid, platform_username: value, creatorId: user.creatorId });
        else if (value.trim() === '') onPick(null);
      }}
      data={[...new Set(named.map((user) => user.platform_username ?? ''))]}
      filter={({ options }) => options}
      leftSection={<IconUserSearch size={16} />}
      rightSection={users.isFetching ? <Loader size={14} /> : null}
      comboboxProps={{ zIndex: 400 }}
      radius="xl"
      w={240}
    />
  );
}
