import { Loader, Paper, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { MapFeature } from '../../../shared/api/generated/types.gen';
import { useFilterState } from '../../../shared/filters/filterState';
import { readMapStyle } from '../mapPreferences';
import { creatorPointsQueryOptions, type MapViewport } from '../api/mapArea';
import { MapListToggle } from './MapListToggle';
import { MapView } from './MapView';
import { SpotList } from './SpotList';
import { ToursInView } from './ToursInView';
import { toursBounds } from './useFitTours';
import { useMapPanels } from './useMapPanels';
import classes from './CreatorToursMap.module.css';

const NO_FEATURES: readonly MapFeature[] = [];

/**
 * One creator's tours on a map inside the creator page (spec §2 Full Profile, map view): every point
 * at once with the page's filters, clustered by MapLibre; "List" is its keyboard alternative, as on
 * the main map. The map opens fitted around the creator's tours once they are known, and moving it
 * leaves the main map's stored position alone.
 */
export function CreatorToursMap({ userId }: { userId: number }) {
  const { t, i18n } = useTranslation();
  const filters = useFilterState();
  const [viewport, setViewport] = useState<MapViewport | null>(null);
  const panels = useMapPanels();
  const points = useQuery(creatorPointsQueryOptions(filters, userId, i18n.language));
  const features = points.data ?? NO_FEATURES;

  const spot = panels.spot;
  const spotTours = spot?.kind === 'tours' ? features.filter((feature) => spot.guids.includes(feature.properties.guid)) : features;
  const nothingHere = !points.isFetching && !points.isError && features.length === 0;

  return (
    <div className={classes.frame} data-testid="creator-map">
      <div className={classes.topLeft}>
        <MapListToggle panels={panels} className={classes.floating} />
        {points.isFetching && (
          <Paper className={`${classes.floating} ${classes.loading}`} radius="xl" data-testid="map-loading">
            <Loader size={14} />
            <Text size="xs" fw={600}>
              {t('map.loading')}
            </Text>
          </Paper>
        )}
      </div>
      {panels.listOpen && <ToursInView id={panels.listId} filters={filters} bounds={viewport?.bounds ?? null} userId={userId} onClose={panels.closeList} />}
      {/* Created once the first points are known, so it opens on them rather than moving there. */}
      {!points.isPending && (
        <MapView
          styleName={readMapStyle()}
          clusters={[]}
          features={features}
          loading={points.isFetching}
          target={null}
          camera={{ remember: false, fit: toursBounds(points.data) }}
          place={null}
          onViewportChange={setViewport}
          onShowSpot={panels.showSpot}
        />
      )}
      {(nothingHere || points.isError) && (
        <Paper className={classes.hint} radius="xl" data-testid="map-hint">
          <IconInfoCircle size={18} aria-hidden="true" />
          <Text size="sm" fw={500}>
            {points.isError ? t('feed.errorTitle') : t('map.nothingHere')}
          </Text>
        </Paper>
      )}
      {spot && <SpotList tours={spotTours} loading={false} onClose={panels.closeSpot} />}
    </div>
  );
}
