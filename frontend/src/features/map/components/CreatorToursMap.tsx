import { Button, Loader, Paper, Text } from '@mantine/core';
import { IconInfoCircle, IconList } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { MapFeature } from '../../../shared/api/generated/types.gen';
import { useFilterState } from '../../../shared/filters/filterState';
import { useMapTarget } from '../../../shared/map/mapTarget';
import { readMapStyle } from '../mapPreferences';
import { creatorPointsQueryOptions, type MapViewport } from '../api/mapArea';
import { MapView, type SpotRequest } from './MapView';
import { SpotList } from './SpotList';
import { ToursInView } from './ToursInView';
import { useFitTours } from './useFitTours';
import classes from './CreatorToursMap.module.css';

const NO_FEATURES: readonly MapFeature[] = [];

/**
 * One creator's tours on a map inside the creator page (spec §2 Full Profile, map view): every point
 * at once with the page's filters, clustered by MapLibre, fitted around them; "List" is its keyboard
 * alternative, as on the main map.
 */
export function CreatorToursMap({ userId }: { userId: number }) {
  const { t, i18n } = useTranslation();
  const filters = useFilterState();
  const target = useMapTarget();
  const [viewport, setViewport] = useState<MapViewport | null>(null);
  const [spot, setSpot] = useState<SpotRequest | null>(null);
  const [listOpen, setListOpen] = useState(false);
  const listId = useId();
  const listToggle = useRef<HTMLButtonElement>(null);
  const points = useQuery(creatorPointsQueryOptions(filters, userId, i18n.language));
  const features = points.data ?? NO_FEATURES;
  useFitTours(`creator-${userId}`, points.data);

  const spotTours = spot?.kind === 'tours' ? features.filter((feature) => spot.guids.includes(feature.properties.guid)) : features;
  const nothingHere = !points.isFetching && !points.isError && features.length === 0;

  return (
    <div className={classes.frame} data-testid="creator-map">
      <div className={classes.topLeft}>
        <Button
          ref={listToggle}
          className={classes.floating}
          radius="xl"
          size="sm"
          variant={listOpen ? 'filled' : 'white'}
          color={listOpen ? 'brand' : 'dark'}
          leftSection={<IconList size={16} aria-hidden="true" />}
          aria-expanded={listOpen}
          aria-controls={listOpen ? listId : undefined}
          onClick={() => {
            setSpot(null);
            setListOpen((open) => !open);
          }}
          data-testid="map-list-toggle"
        >
          {t('map.listToggle')}
        </Button>
        {points.isFetching && (
          <Paper className={`${classes.floating} ${classes.loading}`} radius="xl" data-testid="map-loading">
            <Loader size={14} />
            <Text size="xs" fw={600}>
              {t('map.loading')}
            </Text>
          </Paper>
        )}
      </div>
      {listOpen && (
        <ToursInView
          id={listId}
          filters={filters}
          bounds={viewport?.bounds ?? null}
          userId={userId}
          onClose={() => {
            setListOpen(false);
            listToggle.current?.focus();
          }}
        />
      )}
      <MapView
        styleName={readMapStyle()}
        clusters={[]}
        features={features}
        loading={points.isFetching}
        target={target}
        place={null}
        onViewportChange={setViewport}
        onShowSpot={(request) => {
          setListOpen(false);
          setSpot(request);
        }}
      />
      {(nothingHere || points.isError) && (
        <Paper className={classes.hint} radius="xl" data-testid="map-hint">
          <IconInfoCircle size={18} aria-hidden="true" />
          <Text size="sm" fw={500}>
            {points.isError ? t('feed.errorTitle') : t('map.nothingHere')}
          </Text>
        </Paper>
      )}
      {spot && <SpotList tours={spotTours} loading={false} onClose={() => setSpot(null)} />}
    </div>
  );
}
