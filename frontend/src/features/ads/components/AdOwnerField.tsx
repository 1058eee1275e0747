import { Autocomplete, Fieldset, Loader } from '@mantine/core';
import { IconUserSearch } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { useDebouncedValue } from '../../../shared/timing/useDebouncedValue';
import { userSearchQueryOptions } from '../../../shared/users/userSearch';
import type { AdFormType } from './AdForm';

const USER_SEARCH_DEBOUNCE_MS = 400;

/**
 * Spec §6: an admin adds an ad on behalf of a user (POST on-behalf-of), found by platform username
 * as in the media form; left empty, the ad is the admin's own.
 */
export function AdOwnerField({ form }: { form: AdFormType }) {
  const { t } = useTranslation();
  const [text, setText] = useState(form.values.onBehalfOf?.platform_username ?? '');
  const { debounced } = useDebouncedValue(text.trim(), USER_SEARCH_DEBOUNCE_MS);
  const users = useQuery({ ...userSearchQueryOptions(debounced), enabled: debounced.length >= 2, placeholderData: keepPreviousData });
  const withUsername = (users.data ?? []).filter((user) => user.platform_username);
  const options = [...new Set(withUsername.map((user) => user.platform_username ?? ''))];

  const onChange = (value: string) => {
    setText(value);
    const user = withUsername.find((item) => item.platform_username === value);
    form.setFieldValue('onBehalfOf', user ? { userid: user.userid, platform_username: value } : null);
  };

  return (
    <Fieldset legend={t('adForm.staffLegend')} radius="md">
      <Autocomplete
        label={t('adForm.onBehalfOf')}
        description={t('adForm.onBehalfOfHint')}
        placeholder={t('adForm.onBehalfOfPlaceholder')}
        value={text}
        onChange={onChange}
        data={options}
        filter={({ options: all }) => all}
        comboboxProps={{ withinPortal: true, zIndex: 400 }}
        maxDropdownHeight={250}
        leftSection={<IconUserSearch size={16} />}
        rightSection={users.isFetching ? <Loader size={14} /> : null}
        error={form.errors.onBehalfOf}
        data-testid="ad-on-behalf-of"
      />
    </Fieldset>
  );
}
