import { Badge, Loader, Paper, SegmentedControl, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';

import type { MapCluster, MapFeature } from '../../../shared/api/generated/types.gen';
import { creatorByNameQueryOptions } from '../../../shared/creators/creatorLookup';
import { type FilterState, useFilterState } from '../../../shared/filters/filterState';
import { takeMapTarget, useMapTarget } from '../../../shared/map/mapTarget';
import { creatorPointsQueryOptions, type MapViewport, spotQueryOptions } from '../api/mapArea';
import { basemapQueryOptions, type MapStyleName, offeredStyles, styleOnOffer } from '../../../shared/map/basemap';
import type { RenderedState } from '../components/MapStatus';
import { MapListToggle } from '../components/MapListToggle';
import { type MapCamera, MapView, type SpotRequest, type TilesStatus } from '../components/MapView';
import { SpotList } from '../components/SpotList';
import { ToursInView } from '../components/ToursInView';
import { useFitTours } from '../components/useFitTours';
import { useMapPanels } from '../components/useMapPanels';
import { boundsCenter } from '../mapBounds';
import type { SearchedPlace } from '../mapLayers';
import { readMapStyle, storeMapStyle } from '../mapPreferences';
import classes from './MapPage.module.css';

const NO_FEATURES: readonly MapFeature[] = [];
const NO_CLUSTERS: readonly MapCluster[] = [];
const MAIN_MAP: MapCamera = { remember: true };
/** A creator's map flies to their tours (useFitTours) and leaves the main map's stored position alone. */
const CREATOR_MAP: MapCamera = { remember: false, fit: null };

/** The map (spec §2 `/map`, route mapHome; and `/{creatorName}/map` for one creator's tours). */
export function MapPage() {
  const { t } = useTranslation();
  const { creatorName } = useParams();
  const [storedStyle, setStyleName] = useState<MapStyleName>(readMapStyle);
  const basemap = useQuery(basemapQueryOptions());
  // Only the styles the deployment can draw are offered (no Satellite without its hosted style).
  const styleName = styleOnOffer(basemap.data, storedStyle);
  const panels = useMapPanels();
  const { spot } = panels;
  const [rendered, setRendered] = useState<RenderedState | null>(null);
  const filters = useFilterState();
  const target = useMapTarget();
  const [tiles, setTiles] = useState<TilesStatus>({ loading: true, error: false });
  const tours = useMapTours(filters, creatorName, tiles);
  const spotList = useSpotTours(filters, spot, tours.features);

  const place = useSearchedPlace(filters);

  const chooseStyle = (value: string) => {
    const name = value as MapStyleName;
    setStyleName(name);
    storeMapStyle(name);
  };

  // Spec §8: only clusters on screen means the visitor sees no single tour yet.
  const onlyClusters = rendered !== null && rendered.clusters > 0 && rendered.points === 0;
  const nothingDrawn = tours.fromTiles
    ? rendered !== null && rendered.clusters === 0 && rendered.points === 0
    : tours.clusters.length === 0 && tours.features.length === 0;
  const nothingHere = !tours.loading && !tours.error && nothingDrawn;

  return (
    <main className={classes.page} data-map-style={styleName}>
      {/* Before the map in the page's order: the keyboard reaches the list before the map's canvas. */}
      <div className={classes.topLeft}>
        <MapListToggle panels={panels} className={classes.listToggle} />
        {creatorName && (
          <Badge className={classes.floating} size="lg" radius="xl" variant="white" color="dark" tt="none" data-testid="map-creator-scope">
            {t('map.creatorScope', { name: creatorName })}
          </Badge>
        )}
        {tours.loading && (
          <Paper className={`${classes.floating} ${classes.loading}`} radius="xl" data-testid="map-loading">
            <Loader size={14} />
            <Text size="xs" fw={600}>
              {t('map.loading')}
            </Text>
          </Paper>
        )}
      </div>
      {panels.listOpen && (
        <ToursInView id={panels.listId} filters={filters} bounds={tours.viewport?.bounds ?? null} userId={tours.creatorUserId} onClose={panels.closeList} />
      )}
      <MapView
        styleName={styleName}
        tileFilters={tours.fromTiles ? filters : null}
        onTilesStatus={setTiles}
        clusters={tours.clusters}
        features={tours.features}
        loading={tours.loading}
        target={target}
        onTargetReached={takeMapTarget}
        camera={creatorName ? CREATOR_MAP : MAIN_MAP}
        place={place}
        onViewportChange={tours.setViewport}
        onShowSpot={panels.showSpot}
        onRendered={setRendered}
      />
      <SegmentedControl
        className={classes.styles}
        radius="xl"
        size="xs"
        value={styleName}
        onChange={chooseStyle}
        data={offeredStyles(basemap.data).map((name) => ({ value: name, label: t(`map.styles.${name}`) }))}
        aria-label={t('map.styleLabel')}
        data-testid="map-style-switcher"
      />
      {(onlyClusters || nothingHere || tours.error) && (
        <Paper className={classes.hint} radius="xl" data-testid="map-hint">
          <IconInfoCircle size={18} aria-hidden="true" />
          <Text size="sm" fw={500}>
            {tours.error ? t('feed.errorTitle') : onlyClusters ? t('map.hint') : t('map.nothingHere')}
          </Text>
        </Paper>
      )}
      {spot && <SpotList tours={spotList.tours} loading={spotList.loading} onClose={panels.closeSpot} />}
    </main>
  );
}

/**
 * The tours to draw: on the main map, the server's vector tiles under the filters (MapView asks for
 * them; `tiles` says how they load); on a creator's map, that creator's points (MapLibre clusters them).
 */
function useMapTours(filters: FilterState, creatorName: string | undefined, tiles: TilesStatus) {
  const { i18n } = useTranslation();
  const [viewport, setViewport] = useState<MapViewport | null>(null);
  const creator = useQuery({ ...creatorByNameQueryOptions(creatorName ?? ''), enabled: Boolean(creatorName) });
  const creatorPoints = useQuery(creatorPointsQueryOptions(filters, creator.data?.userid ?? null, i18n.language));

  useFitTours(creatorName, creatorPoints.data);

  if (creatorName) {
    return {
      fromTiles: false,
      clusters: NO_CLUSTERS,
      features: creatorPoints.data ?? NO_FEATURES,
      viewport,
      creatorUserId: creator.data?.userid ?? null,
      loading: creator.isPending || creatorPoints.isFetching,
      error: creator.isError || creatorPoints.isError,
      setViewport,
    };
  }
  return {
    fromTiles: true,
    clusters: NO_CLUSTERS,
    features: NO_FEATURES,
    viewport,
    creatorUserId: null,
    loading: tiles.loading,
    error: tiles.error,
    setViewport,
  };
}

/** The place chosen in search, pinned on the map while it narrows the results. */
function useSearchedPlace(filters: FilterState): SearchedPlace | null {
  const { bounds, address } = filters;
  return useMemo(() => (bounds ? { center: boundsCenter(bounds), name: address } : null), [bounds, address]);
}

/** The tours of the list view: asked of the server for an area, or picked from those already drawn. */
function useSpotTours(filters: FilterState, spot: SpotRequest | null, drawn: readonly MapFeature[]) {
  const { i18n } = useTranslation();
  const area = useQuery(spotQueryOptions(filters, spot?.kind === 'area' ? spot.bounds : null, i18n.language));
  if (spot?.kind === 'tours') {
    const wanted = new Set(spot.guids);
    return { tours: drawn.filter((feature) => wanted.has(feature.properties.guid)), loading: false };
  }
  return { tours: area.data ?? NO_FEATURES, loading: area.isPending && spot !== null };
}
