import { Badge, SegmentedControl } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';

import { MAP_STYLE_NAMES, type MapStyleName } from '../basemap';
import { MapView } from '../components/MapView';
import { readMapStyle, storeMapStyle } from '../mapPreferences';
import classes from './MapPage.module.css';

/** The map (spec §2 `/map`, route mapHome; and `/{creatorName}/map` for one creator). */
export function MapPage() {
  const { t } = useTranslation();
  const { creatorName } = useParams();
  const [styleName, setStyleName] = useState<MapStyleName>(readMapStyle);

  const chooseStyle = (value: string) => {
    const name = value as MapStyleName;
    setStyleName(name);
    storeMapStyle(name);
  };

  return (
    <main className={classes.page} data-map-style={styleName}>
      <MapView styleName={styleName} />
      {creatorName && (
        <Badge className={classes.scope} size="lg" radius="xl" variant="white" color="dark">
          {t('map.creatorScope', { name: creatorName })}
        </Badge>
      )}
      <SegmentedControl
        className={classes.styles}
        radius="xl"
        size="xs"
        value={styleName}
        onChange={chooseStyle}
        data={MAP_STYLE_NAMES.map((name) => ({ value: name, label: t(`map.styles.${name}`) }))}
        aria-label={t('map.styleLabel')}
        data-testid="map-style-switcher"
      />
    </main>
  );
}
