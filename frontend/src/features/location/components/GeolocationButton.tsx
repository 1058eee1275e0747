import { ActionIcon, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCurrentLocation } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { updateFilterState, useFilterState } from '../../../shared/filters/filterState';
import { readUserLocation, storeUserLocation } from '../../../shared/location/userLocation';

const POSITION_OPTIONS: PositionOptions = { timeout: 10_000, maximumAge: 10 * 60_000 };

/**
 * "Near me" (spec §2): orders tours by distance from the stored `user_location`, asking the browser
 * for the position the first time; a second click returns to the previous order.
 */
export function GeolocationButton() {
  const { t } = useTranslation();
  const { sorting } = useFilterState();
  const [locating, setLocating] = useState(false);
  const active = sorting === 'near_me';

  const showNearMe = (center: [number, number]) => updateFilterState({ sorting: 'near_me', near: center });
  const showUnavailable = () =>
    notifications.show({ color: 'orange', title: t('location.unavailableTitle'), message: t('location.unavailable') });

  const locate = () => {
    if (active) {
      updateFilterState({ sorting: null, near: null });
      return;
    }
    const stored = readUserLocation();
    if (stored) {
      showNearMe(stored.center);
      return;
    }
    if (!('geolocation' in navigator)) {
      showUnavailable();
      return;
    }
    setLocating(true);
    navigator.geolocation.getCurrentPosition(
      (position) => {
        setLocating(false);
        const center: [number, number] = [position.coords.longitude, position.coords.latitude];
        storeUserLocation({ center, bbox: null, text: null });
        showNearMe(center);
      },
      () => {
        setLocating(false);
        showUnavailable();
      },
      POSITION_OPTIONS,
    );
  };

  const label = active ? t('location.stopNearMe') : t('location.nearMe');
  return (
    <Tooltip label={label} withArrow>
      <ActionIcon
        variant={active ? 'filled' : 'default'}
        radius="xl"
        size="lg"
        loading={locating}
        aria-label={label}
        aria-pressed={active}
        onClick={locate}
        data-testid="geolocation-button"
      >
        <IconCurrentLocation size={18} />
      </ActionIcon>
    </Tooltip>
  );
}
