import { Autocomplete, Loader } from '@mantine/core';
import { IconUserSearch } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';

import { useDebouncedValue } from '../timing/useDebouncedValue';
import { userSearchQueryOptions } from './userSearch';

const USER_SEARCH_DEBOUNCE_MS = 400;

export interface PickedUser {
  userid: number;
  platform_username: string;
}

interface UserPickerProps {
  /** The user picked before (an edit, or the form's remembered value). */
  initial: PickedUser | null;
  /** The user whose platform username was picked, or null while the text names nobody. */
  onPick: (user: PickedUser | null) => void;
  label: string;
  description: string;
  placeholder: string;
  required?: boolean;
  error: ReactNode;
  testId: string;
  /** The dropdown's z-index, for pickers inside a dialog above Mantine's default layer. */
  zIndex?: number;
}

/** Spec §6: admins add media or an ad on behalf of a user, found by platform username. */
export function UserPicker(props: UserPickerProps) {
  const { onPick } = props;
  const [text, setText] = useState(props.initial?.platform_username ?? '');
  const { debounced } = useDebouncedValue(text.trim(), USER_SEARCH_DEBOUNCE_MS);
  const users = useQuery({ ...userSearchQueryOptions(debounced), enabled: debounced.length >= 2, placeholderData: keepPreviousData });
  const withUsername = (users.data ?? []).filter((user) => user.platform_username);
  const options = [...new Set(withUsername.map((user) => user.platform_username ?? ''))];

  const onChange = (value: string) => {
    setText(value);
    const user = withUsername.find((item) => item.platform_username === value);
    onPick(user ? { userid: user.userid, platform_username: value } : null);
  };

  return (
    <Autocomplete
      label={props.label}
      description={props.description}
      placeholder={props.placeholder}
      withAsterisk={props.required}
      value={text}
      onChange={onChange}
      data={options}
      filter={({ options: all }) => all}
      comboboxProps={props.zIndex === undefined ? { withinPortal: true } : { withinPortal: true, zIndex: props.zIndex }}
      maxDropdownHeight={250}
      leftSection={<IconUserSearch size={16} />}
      rightSection={users.isFetching ? <Loader size={14} /> : null}
      error={props.error}
      data-testid={props.testId}
    />
  );
}
