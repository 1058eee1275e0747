import { Autocomplete, Loader } from '@mantine/core';
import { IconUserSearch } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { useDebouncedValue } from '../../../shared/timing/useDebouncedValue';
import { userSearchQueryOptions } from '../../../shared/users/userSearch';

/**
 * Admins see any creator's analytics (the calls' user_id): found by platform username, only accounts
 * with a creator profile offered. Emptied, the screen shows the admin's own again.
 */
export function CreatorPicker({ onPick }: { onPick: (userId: number | null) => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const { debounced } = useDebouncedValue(text.trim(), 400);
  const users = useQuery({ ...userSearchQueryOptions(debounced), enabled: debounced.length >= 2, placeholderData: keepPreviousData });
  const creators = (users.data ?? []).filter((user) => user.platform_username && user.creatorId !== null);
  return (
    <Autocomplete
      label={t('creatorAnalytics.creator')}
      description={t('creatorAnalytics.creatorHint')}
      placeholder={t('creatorAnalytics.creatorPlaceholder')}
      value={text}
      onChange={(value) => {
        setText(value);
        const user = creators.find((item) => item.platform_username === value);
        if (user) onPick(user.userid);
        else if (value.trim() === '') onPick(null);
      }}
      data={[...new Set(creators.map((user) => user.platform_username ?? ''))]}
      filter={({ options }) => options}
      leftSection={<IconUserSearch size={16} aria-hidden="true" />}
      rightSection={users.isFetching ? <Loader size={14} /> : null}
      comboboxProps={{ withinPortal: true }}
      maw={320}
      data-testid="analytics-creator"
    />
  );
}
