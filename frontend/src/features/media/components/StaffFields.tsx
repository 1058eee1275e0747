import { Autocomplete, Fieldset, Loader, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { IconUserSearch } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { useDebouncedValue } from '../../../shared/timing/useDebouncedValue';
import { userSearchQueryOptions } from '../../../shared/users/userSearch';
import type { MediaForm } from './MediaForm';

const USER_SEARCH_DEBOUNCE_MS = 400;

interface StaffFieldsProps {
  form: MediaForm;
  /** An admin adding a tour names its owner (spec §5 'select user'). */
  isAdmin: boolean;
  /** Spec §6 CM: Creator Name and Creator Website (third_party_creator, creator_website). */
  isContentManager: boolean;
}

export function StaffFields({ form, isAdmin, isContentManager }: StaffFieldsProps) {
  const { t } = useTranslation();
  if (!isAdmin && !isContentManager) return null;
  return (
    <Fieldset legend={t('mediaForm.staffLegend')} radius="md">
      <Stack gap="sm">
        {isAdmin && <OnBehalfOfField form={form} />}
        {isContentManager && (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput label={t('mediaForm.creatorName')} maxLength={200} {...form.getInputProps('thirdPartyCreator')} />
            <TextInput label={t('mediaForm.creatorWebsite')} placeholder="https://" type="url" {...form.getInputProps('creatorWebsite')} />
          </SimpleGrid>
        )}
      </Stack>
    </Fieldset>
  );
}

/** Spec §6: admins add media on behalf of a user, found by platform username. */
function OnBehalfOfField({ form }: { form: MediaForm }) {
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
    <Autocomplete
      label={t('mediaForm.onBehalfOf')}
      description={t('mediaForm.onBehalfOfHint')}
      placeholder={t('mediaForm.onBehalfOfPlaceholder')}
      withAsterisk
      value={text}
      onChange={onChange}
      data={options}
      filter={({ options: all }) => all}
      comboboxProps={{ withinPortal: true }}
      maxDropdownHeight={250}
      leftSection={<IconUserSearch size={16} />}
      rightSection={users.isFetching ? <Loader size={14} /> : null}
      error={form.errors.onBehalfOf}
      data-testid="media-on-behalf-of"
    />
  );
}
