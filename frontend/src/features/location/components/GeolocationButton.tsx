import { ActionIcon } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCurrentLocation } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { updateFilterState, useFilterState } from '../../../shared/filters/filterState';
import { locateVisitor } from '../../../shared/location/locateVisitor';
import { useUserLocation } from '../../../shared/location/userLocation';
import { Hint } from '../../../shared/ui/Hint';

/**
 * "Near me" (spec §2): orders tours by distance from the stored `user_location`, asking the browser
 * for the position the first time; a second click returns to the previous order.
 */
export function GeolocationButton() {
  const { t } = useTranslation();
  const { sorting } = useFilterState();
  const userLocation = useUserLocation();
  const [locating, setLocating] = useState(false);
  const active = sorting === 'near_me';

  const locate = async () => {
    if (active) {
      updateFilterState({ sorting: null, near: null });
      return;
    }
    setLocating(true);
    try {
      const location = await locateVisitor();
      updateFilterState({ sorting: 'near_me', near: location.center });
    } catch {
      notifications.show({ color: 'orange', title: t('location.unavailableTitle'), message: t('location.unavailable') });
    } finally {
      setLocating(false);
    }
  };

  const place = userLocation?.text && userLocation.text !== 'Unresolved address' ? userLocation.text : null;
  const label = active ? t('location.stopNearMe') : place ? t('location.nearPlace', { place }) : t('location.nearMe');
  return (
    <Hint label={label} position="bottom-end">
      <ActionIcon
        variant={active ? 'filled' : 'default'}
        radius="xl"
        size="lg"
        loading={locating}
        aria-label={label}
        aria-pressed={active}
        onClick={() => void locate()}
        data-testid="geolocation-button"
      >
        <IconCurrentLocation size={18} />
      </ActionIcon>
    </Hint>
  );
}
