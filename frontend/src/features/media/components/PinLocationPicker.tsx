import '../../../shared/i18n/manageTexts'; // this screen's English texts (not in the feed's bundle)
import { Autocomplete, Button, Center, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { IconMapPin, IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { useIsMobile } from '../../../shared/layout/breakpoints';
import { useDebouncedValue } from '../../../shared/timing/useDebouncedValue';
import { addressAtQueryOptions, locationSearchQueryOptions, placeCenterQueryOptions } from '../api/mediaApi';
import type { LngLat } from './PinMap';

// MapLibre is a megabyte: it loads when the picker first opens.
const PinMap = lazy(async () => ({ default: (await import('./PinMap')).PinMap }));

export interface PickedLocation {
  lat: number;
  lng: number;
  addressStr: string;
  addressId: string | null;
}

interface PinLocationPickerProps {
  opened: boolean;
  onClose: () => void;
  onPicked: (picked: PickedLocation) => void;
  /** A place id to start from (the address typed or looked up), if any. */
  near: string | null;
}

/**
 * Spec §2 "map pin-location picker" / §8: when the server cannot locate the address (404) the user
 * clicks the map; the click becomes a marker and is reverse-geocoded into an address.
 */
export function PinLocationPicker({ opened, onClose, onPicked, near }: PinLocationPickerProps) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('pinPicker.title')}
      size="xl"
      fullScreen={mobile}
      radius={mobile ? 0 : 'lg'}
      centered
      zIndex={300}
    >
      {opened && <PickerBody near={near} onPicked={onPicked} onCancel={onClose} />}
    </Modal>
  );
}

function PickerBody({ near, onPicked, onCancel }: { near: string | null; onPicked: (picked: PickedLocation) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const { debounced } = useDebouncedValue(search.trim(), 400);
  const places = useQuery({ ...locationSearchQueryOptions(debounced), enabled: debounced.length >= 2, placeholderData: keepPreviousData });
  const start = useQuery({ ...placeCenterQueryOptions(near ?? ''), enabled: near !== null });
  const [focus, setFocus] = useState<LngLat | null>(null);
  const [pin, setPin] = useState<LngLat | null>(null);
  const address = useQuery({ ...addressAtQueryOptions(pin), enabled: pin !== null });

  useEffect(() => {
    if (start.data) setFocus(start.data);
  }, [start.data]);

  const onSearch = (text: string) => {
    setSearch(text);
    const place = places.data?.find((item) => item.place_name === text);
    const [lng, lat] = place?.center ?? [];
    if (lng !== undefined && lat !== undefined) setFocus({ lng, lat });
  };

  const confirm = () => {
    if (!pin || !address.data) return;
    onPicked({ lat: pin.lat, lng: pin.lng, addressStr: address.data.addressStr, addressId: address.data.addressId });
  };

  return (
    <Stack gap="sm" data-testid="pin-picker">
      <Text size="sm" c="dimmed">
        {t('pinPicker.hint')}
      </Text>
      <Autocomplete
        placeholder={t('pinPicker.search')}
        aria-label={t('pinPicker.search')}
        value={search}
        onChange={onSearch}
        data={[...new Set((places.data ?? []).map((place) => place.place_name))]}
        filter={({ options }) => options}
        leftSection={<IconSearch size={16} />}
        rightSection={places.isFetching ? <Loader size={14} /> : null}
        comboboxProps={{ withinPortal: true, zIndex: 400 }}
        data-testid="pin-search"
      />
      {near !== null && start.isPending ? (
        <Center h={360}>
          <Loader />
        </Center>
      ) : (
        <Suspense
          fallback={
            <Center h={360}>
              <Loader />
            </Center>
          }
        >
          <PinMap focus={focus} pin={pin} onPick={setPin} label={t('pinPicker.mapLabel')} />
        </Suspense>
      )}
      <Group gap="xs" wrap="nowrap" mih={28} data-testid="pin-address">
        <IconMapPin size={18} color="var(--mantine-color-orange-7)" style={{ flexShrink: 0 }} />
        <Text size="sm" fw={pin ? 600 : 400} c={pin ? undefined : 'dimmed'}>
          {pin === null ? t('pinPicker.noPin') : address.isFetching ? t('pinPicker.resolving') : (address.data?.addressStr ?? t('pinPicker.unresolved'))}
        </Text>
      </Group>
      <Group justify="flex-end" gap="sm">
        <Button variant="default" radius="xl" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
        <Button radius="xl" disabled={!pin || !address.data} onClick={confirm} data-testid="pin-confirm">
          {t('pinPicker.confirm')}
        </Button>
      </Group>
    </Stack>
  );
}
