import '../../../shared/i18n/manageTexts'; // this screen's English texts (not in the feed's bundle)
import { Autocomplete, Button, Group, Loader, Stack, Switch, Text, TextInput } from '@mantine/core';
import { IconLetterCase, IconLock, IconMapPin, IconMapPinFilled } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';

import { useDebouncedValue } from '../../../shared/timing/useDebouncedValue';
import { locationSearchQueryOptions } from '../api/mediaApi';
import { canUseAddressAsTitle } from '../model/mediaForm';
import type { MediaForm } from './MediaForm';
import { setFields } from './setFields';

const ADDRESS_DEBOUNCE_MS = 400;

interface LocationFieldsProps {
  form: MediaForm;
  mode: 'add' | 'edit';
  onPickOnMap: () => void;
}

/**
 * Spec §5 address rules: required when the tour shows a physical place, pickable on the map, and
 * usable as the title. Spec §4: not editable once the tour is added.
 */
export function LocationFields({ form, mode, onPickOnMap }: LocationFieldsProps) {
  const { t } = useTranslation();
  const { values } = form;
  if (mode === 'edit') {
    return (
      <TextInput
        label={t('mediaForm.address')}
        description={t('mediaForm.addressLocked')}
        value={values.addressStr || t('mediaForm.noAddress')}
        readOnly
        disabled
        leftSection={<IconLock size={16} />}
      />
    );
  }
  return (
    <Stack gap="xs">
      <Switch
        label={t('mediaForm.physicalAddress')}
        description={t('mediaForm.physicalAddressHint')}
        checked={values.hasAddress}
        onChange={(event) => form.setFieldValue('hasAddress', event.currentTarget.checked)}
      />
      {values.hasAddress && <AddressSearch form={form} onPickOnMap={onPickOnMap} />}
    </Stack>
  );
}

function AddressSearch({ form, onPickOnMap }: { form: MediaForm; onPickOnMap: () => void }) {
  const { t } = useTranslation();
  const { values } = form;
  const typed = values.addressId === null ? values.addressStr.trim() : '';
  const { debounced } = useDebouncedValue(typed, ADDRESS_DEBOUNCE_MS);
  const places = useQuery({ ...locationSearchQueryOptions(debounced), enabled: debounced.length >= 2, placeholderData: keepPreviousData });
  // Autocomplete offers texts: a place is found again by its full name.
  const options = [...new Set((places.data ?? []).map((place) => place.place_name))];

  // Choosing a suggestion sets the text to the place's full name: that is how the place is recognised.
  // Any other text is a new address, which the old place id and pin no longer describe.
  const onChange = (text: string) => {
    const place = places.data?.find((item) => item.place_name === text);
    setFields(form, { addressStr: text, addressId: place?.id ?? null, coordinate: null });
  };

  return (
    <Stack gap={6}>
      <Autocomplete
        label={t('mediaForm.address')}
        placeholder={t('mediaForm.addressPlaceholder')}
        withAsterisk
        value={values.addressStr}
        onChange={onChange}
        data={options}
        filter={({ options: all }) => all}
        comboboxProps={{ withinPortal: true }}
        maxDropdownHeight={250}
        leftSection={<IconMapPin size={16} />}
        rightSection={places.isFetching ? <Loader size={14} /> : null}
        error={form.errors.addressStr}
        data-testid="media-address"
      />
      {values.coordinate && (
        <Text size="xs" c="teal.7" data-testid="media-coordinate">
          {t('mediaForm.pinned', { coordinate: values.coordinate })}
        </Text>
      )}
      <Group gap="xs">
        <Button variant="light" radius="xl" size="compact-sm" leftSection={<IconMapPinFilled size={14} />} onClick={onPickOnMap} data-testid="pick-on-map">
          {t('mediaForm.pickOnMap')}
        </Button>
        <Button
          variant="subtle"
          radius="xl"
          size="compact-sm"
          leftSection={<IconLetterCase size={14} />}
          disabled={!canUseAddressAsTitle(values)}
          onClick={() => form.setFieldValue('title', values.addressStr.trim().slice(0, 255))}
        >
          {t('mediaForm.addressAsTitle')}
        </Button>
      </Group>
    </Stack>
  );
}
