import 'maplibre-gl/dist/maplibre-gl.css';

import {
  type GeoJSONSource,
  type LngLatBoundsLike,
  Map as MapLibreMap,
  type MapGeoJSONFeature,
  type MapMouseEvent,
  NavigationControl,
  type PointLike,
  Popup,
  setWorkerUrl,
} from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';

import type { MapCluster, MapFeature } from '../../../shared/api/generated/types.gen';
import { getBearerToken } from '../../../shared/auth/session';
import { type Bounds, type FilterState, INITIAL_FILTER_STATE } from '../../../shared/filters/filterState';
import type { MapTarget } from '../../../shared/map/mapTarget';
import { useUserLocation } from '../../../shared/location/userLocation';
import { debounce } from '../../../shared/timing/debounce';
import { spotQueryOptions, type MapViewport } from '../api/mapArea';
import { isTourTileUrl, tilesArePersonal, tourTilesUrl } from '../api/mapTiles';
import { basemapQueryOptions, mapStyleFor, type MapStyleName, provideBasemapImage, styleOnOffer } from '../../../shared/map/basemap';
import { CLUSTER_COUNT_PROPERTY, MAX_CLUSTER_ZOOM } from '../clusterStyle';
import { roundBounds, serverBounds } from '../mapBounds';
import {
  addPlaceLayers,
  addTourLayers,
  LAYERS,
  provideImage,
  type SearchedPlace,
  setSearchedPlace,
  setTourData,
  setTourTiles,
  TOUR_SOURCE,
  type TourSource,
  toTourCollection,
} from '../mapLayers';
import { initialCamera, LOCATION_ZOOM, storeCamera } from '../mapPreferences';
import { MapStatus, type RenderedState } from './MapStatus';
import classes from './MapView.module.css';
import { TourPopup } from './TourPopup';

// Vite does not emit MapLibre's worker on its own: without this the map never draws.
setWorkerUrl(workerUrl);

/** Wait for the map to settle before asking the server for the new area. */
const VIEWPORT_DEBOUNCE_MS = 350;
/** How far around a click counts as "on" a point, in pixels (fingers are not precise). */
const HIT_TOLERANCE_PX = 6;
/** The half-size of the area listed for a cluster that cannot be split further, in pixels. */
const SPOT_RADIUS_PX = 30;
/** How far below the centre a clicked point moves, to leave room for its popup above it. */
const POPUP_ROOM_PX = 160;
/** The area asked about for a clicked point's popup, in pixels around it (a tile's point is within a pixel of the tour). */
const POPUP_LOOKUP_PX = 8;

/**
 * Where the map opens and whether it keeps where it was left. The main map remembers (spec §3 "stored
 * locally": map center, zoom level); a creator's map opens fitted around that creator's tours (`fit`,
 * west/south/east/north; null when there are none: the whole world) and leaves the stored position to
 * the main map.
 */
export type MapCamera = { remember: true } | { remember: false; fit: Bounds | null };

const REMEMBERED: MapCamera = { remember: true };
/** The world, for a creator's map without a located tour. */
const WORLD_VIEW = { center: [0, 20] as [number, number], zoom: 1 };
/** Around a creator's tours: room for the markers at the edges, and never closer than a street. */
const FIT_OPTIONS = { padding: 40, maxZoom: LOCATION_ZOOM };

/** A spot to list (spec §2 list view): an area to ask the server about, or tours already known. */
export type SpotRequest = { kind: 'area'; bounds: Bounds } | { kind: 'tours'; guids: string[] };

/** The tours' vector tiles as they load: what the page shows while the map fills in, or fails to. */
export interface TilesStatus {
  loading: boolean;
  error: boolean;
}

interface MapViewProps {
  styleName: MapStyleName;
  /**
   * Draw the tours from the server's vector tiles under these filters (the main map). Without it the
   * map draws `clusters` and `features`, clustering them itself (a creator's map).
   */
  tileFilters?: FilterState | null;
  onTilesStatus?: (status: TilesStatus) => void;
  clusters: readonly MapCluster[];
  features: readonly MapFeature[];
  loading: boolean;
  target: MapTarget | null;
  /** The map has gone to `target` (the main map clears the shared request, see shared/map/mapTarget). */
  onTargetReached?: (id: number) => void;
  /** Read once, when the map is created. The main map's remembered position unless said otherwise. */
  camera?: MapCamera;
  place: SearchedPlace | null;
  onViewportChange: (viewport: MapViewport) => void;
  onShowSpot: (spot: SpotRequest) => void;
  /** What the map drew when it last settled (the page explains a map of clusters only). */
  onRendered?: (rendered: RenderedState) => void;
}

interface OpenPopup {
  guid: string;
  lngLat: [number, number];
  /** A few pixels around the point: where to ask for the tour when the map drew it from a tile. */
  around: Bounds;
}

/**
 * The MapLibre map (spec §2 map screen): the tours as clusters and points, a click on a cluster
 * zooming to where it splits, a click on a point opening its popup. Remembers where it was left.
 */
export function MapView(props: MapViewProps) {
  const { styleName, clusters, features, loading, target, place, tileFilters } = props;
  const container = useRef<HTMLDivElement>(null);
  const [map, setMap] = useState<MapLibreMap | null>(null);
  const [rendered, setRendered] = useState<RenderedState | null>(null);
  const [popup, setPopup] = useState<OpenPopup | null>(null);
  const basemap = useQuery(basemapQueryOptions());
  // The map is made once the server has said what the basemap is (or could not): no second style load.
  const basemapSettled = !basemap.isPending;
  const basemapInfo = basemap.data ?? null;
  const shownStyle = styleOnOffer(basemapInfo, styleName);
  // The style the map was made with or last given; the style the page asks for now.
  const drawnStyle = useRef(shownStyle);
  const latestStyle = useRef(shownStyle);
  latestStyle.current = shownStyle;
  const openingCamera = useRef(props.camera ?? REMEMBERED);
  const latest = useRef(props);
  latest.current = props;
  const latestBasemap = useRef(basemapInfo);
  latestBasemap.current = basemapInfo;

  const tilesUrl = useMemo(() => (tileFilters ? tourTilesUrl(tileFilters) : null), [tileFilters]);
  const latestTilesUrl = useRef(tilesUrl);
  latestTilesUrl.current = tilesUrl;
  const collection = useMemo(() => toTourCollection(clusters, features), [clusters, features]);
  const latestCollection = useRef(collection);
  latestCollection.current = collection;

  useEffect(() => {
    if (!container.current || !basemapSettled) return undefined;
    drawnStyle.current = latestStyle.current;
    const { instance, stop } = createTourMap(container.current, mapStyleFor(latestBasemap.current, drawnStyle.current), openingCamera.current, {
      remember: () => (latest.current.camera ?? REMEMBERED).remember,
      tourSource: () => (latestTilesUrl.current ? { kind: 'tiles', url: latestTilesUrl.current } : { kind: 'points' }),
      personalTiles: () => (latest.current.tileFilters ? tilesArePersonal(latest.current.tileFilters) : false),
      collection: () => latestCollection.current,
      place: () => latest.current.place,
      onViewportChange: (viewport) => latest.current.onViewportChange(viewport),
      onShowSpot: (spot) => {
        setPopup(null);
        latest.current.onShowSpot(spot);
      },
      onOpenPoint: setPopup,
      onRendered: (state) => {
        setRendered(state);
        latest.current.onRendered?.(state);
      },
      onTilesStatus: (status) => latest.current.onTilesStatus?.(status),
    });
    setMap(instance);
    return () => {
      stop();
      setMap(null);
    };
  }, [basemapSettled]);

  useEffect(() => {
    if (map?.getSource(TOUR_SOURCE)) setTourData(map, collection);
  }, [map, collection]);

  useEffect(() => {
    if (map && tilesUrl && map.getSource(TOUR_SOURCE)) {
      setPopup(null);
      setTourTiles(map, tilesUrl);
    }
  }, [map, tilesUrl]);

  useEffect(() => {
    if (map?.getSource(TOUR_SOURCE)) setSearchedPlace(map, place);
  }, [map, place]);

  useEffect(() => {
    // A whole new style (no diff): the tours and the place go back on at its `style.load`.
    if (!map || shownStyle === drawnStyle.current) return;
    map.setStyle(mapStyleFor(basemapInfo, shownStyle), { diff: false });
    drawnStyle.current = shownStyle;
  }, [map, shownStyle, basemapInfo]);

  useMoveToTarget(map, target, (id) => latest.current.onTargetReached?.(id));
  useFollowUserLocation(map);
  const popupTour = usePopupTour(popup, features, tileFilters ?? null);

  return (
    <>
      <div ref={container} className={classes.map} data-testid="map-canvas" data-basemap={basemapInfo?.tile_schema ?? 'none'} />
      {map && popup && popupTour && <MapPopup map={map} at={popup.lngLat} onClose={() => setPopup(null)} tour={popupTour} />}
      <MapStatus rendered={rendered} loading={loading} />
    </>
  );
}

/**
 * The tour behind an opened point: among the drawn points when the map was given them, else asked of
 * the server (filtered-map over a few pixels around the point, as the spot list asks), since a tile
 * carries only what draws the point.
 */
function usePopupTour(popup: OpenPopup | null, features: readonly MapFeature[], tileFilters: FilterState | null): MapFeature | undefined {
  const { i18n } = useTranslation();
  const lookUp = popup !== null && tileFilters !== null;
  const around = useQuery({
    ...spotQueryOptions(tileFilters ?? INITIAL_FILTER_STATE, lookUp ? popup.around : null, i18n.language),
    enabled: lookUp,
  });
  if (!popup) return undefined;
  const drawn = features.find((feature) => feature.properties.guid === popup.guid);
  return drawn ?? around.data?.find((feature) => feature.properties.guid === popup.guid);
}

interface TourMapHandlers {
  /** Whether to store where the map is left (asked at every move: the page may change its mind). */
  remember: () => boolean;
  tourSource: () => TourSource;
  /** Whether the tour tiles depend on who asks (then they carry the visitor's token). */
  personalTiles: () => boolean;
  collection: () => ReturnType<typeof toTourCollection>;
  place: () => SearchedPlace | null;
  onViewportChange: (viewport: MapViewport) => void;
  onShowSpot: (spot: SpotRequest) => void;
  onOpenPoint: (popup: OpenPopup) => void;
  onRendered: (rendered: RenderedState) => void;
  onTilesStatus: (status: TilesStatus) => void;
}

/**
 * Create the map, opening where `camera` says, and wire its events; `stop` removes it. The handlers
 * read the latest React state.
 */
function createTourMap(container: HTMLDivElement, style: ReturnType<typeof mapStyleFor>, camera: MapCamera, handlers: TourMapHandlers) {
  const instance = new MapLibreMap({
    container,
    style,
    ...openingView(camera),
    attributionControl: { compact: true },
    dragRotate: false,
    pitchWithRotate: false,
    // Tiles of a personal feed (Saves & Follows) are the visitor's own: they carry the token. Others
    // carry none, so a cache between the visitors can share them.
    transformRequest: (url, resourceType) => {
      if (resourceType !== 'Tile' || !isTourTileUrl(url) || !handlers.personalTiles()) return undefined;
      const token = getBearerToken();
      return token ? { url, headers: { Authorization: `Bearer ${token}` } } : undefined;
    },
  });
  instance.touchZoomRotate.disableRotation();
  instance.addControl(new NavigationControl({ showCompass: false }), 'bottom-right');

  const reportViewport = () => {
    const view = instance.getBounds();
    const bounds = roundBounds(serverBounds(view.getWest(), view.getSouth(), view.getEast(), view.getNorth()));
    handlers.onViewportChange({ bounds, zoom: instance.getZoom() });
  };
  const reportLater = debounce(reportViewport, VIEWPORT_DEBOUNCE_MS);

  // A new style starts empty: the tours and the searched place go back on after every style change.
  instance.on('style.load', () => {
    addTourLayers(instance, handlers.tourSource());
    addPlaceLayers(instance);
    setTourData(instance, handlers.collection());
    setSearchedPlace(instance, handlers.place());
  });
  instance.setMissingStyleImageResolver((imageId) => {
    if (!provideBasemapImage(instance, imageId)) provideImage(instance, imageId);
  });
  watchTourTiles(instance, handlers.onTilesStatus);
  instance.once('load', reportViewport);
  instance.on('moveend', () => {
    if (handlers.remember()) {
      const { lng, lat } = instance.getCenter();
      storeCamera([lng, lat], instance.getZoom());
    }
    reportLater();
  });
  instance.on('idle', () => handlers.onRendered(readRendered(instance)));
  instance.on('click', (event) => void handleClick(instance, event, handlers));
  for (const layer of [LAYERS.clusters, LAYERS.points]) {
    instance.on('mouseenter', layer, () => (instance.getCanvas().style.cursor = 'pointer'));
    instance.on('mouseleave', layer, () => (instance.getCanvas().style.cursor = ''));
  }
  const stop = () => {
    reportLater.cancel();
    instance.remove();
  };
  return { instance, stop };
}

/**
 * The tiles of the tours as they load: loading from the first request of a new set until the map is
 * idle; an error when a tile could not be had (the map keeps what it drew).
 */
function watchTourTiles(map: MapLibreMap, report: (status: TilesStatus) => void) {
  // As the page starts: loading until the map is first idle.
  let status: TilesStatus = { loading: true, error: false };
  const update = (next: TilesStatus) => {
    if (next.loading !== status.loading || next.error !== status.error) report(next);
    status = next;
  };
  map.on('dataloading', (event) => {
    if ('sourceId' in event && event.sourceId === TOUR_SOURCE && map.getSource(TOUR_SOURCE)?.type === 'vector') update({ loading: true, error: false });
  });
  map.on('error', (event) => {
    if ('sourceId' in event && event.sourceId === TOUR_SOURCE) update({ loading: status.loading, error: true });
  });
  map.on('idle', () => update({ loading: false, error: status.error }));
}

/** Pixels around a point as the server's bounds. */
function boundsAround(map: MapLibreMap, lngLat: [number, number], radius: number): Bounds {
  const pixel = map.project(lngLat);
  const southWest = map.unproject([pixel.x - radius, pixel.y + radius]);
  const northEast = map.unproject([pixel.x + radius, pixel.y - radius]);
  return serverBounds(southWest.lng, southWest.lat, northEast.lng, northEast.lat);
}

/** A click on a cluster opens it; on one tour, its popup; on several at one spot, the list view. */
async function handleClick(map: MapLibreMap, event: MapMouseEvent, handlers: TourMapHandlers) {
  const box = hitBox(event.point.x, event.point.y);
  const cluster = map.queryRenderedFeatures(box, { layers: [LAYERS.clusters] })[0];
  if (cluster) {
    await openCluster(map, cluster, handlers.onShowSpot);
    return;
  }
  const points = map.queryRenderedFeatures(box, { layers: [LAYERS.points] });
  const guids = uniqueGuids(points);
  const fromTiles = handlers.tourSource().kind === 'tiles';
  if (guids.length > 1) {
    // Tiles carry no more than a point: the list asks the server for the tours at the spot.
    const clicked: [number, number] = [event.lngLat.lng, event.lngLat.lat];
    handlers.onShowSpot(fromTiles ? { kind: 'area', bounds: boundsAround(map, clicked, HIT_TOLERANCE_PX + POPUP_LOOKUP_PX) } : { kind: 'tours', guids });
    return;
  }
  const [guid] = guids;
  if (!guid) return;
  const at = (points[0]?.geometry as GeoJSON.Point | undefined)?.coordinates;
  const lngLat: [number, number] = [at?.[0] ?? event.lngLat.lng, at?.[1] ?? event.lngLat.lat];
  const around = boundsAround(map, lngLat, POPUP_LOOKUP_PX);
  // Bring the point below the middle, so the popup above it fits on any screen.
  map.easeTo({ center: lngLat, offset: [0, Math.min(POPUP_ROOM_PX, map.getCanvas().clientHeight / 4)], duration: 400 });
  handlers.onOpenPoint({ guid, lngLat, around });
}

function hitBox(x: number, y: number): [PointLike, PointLike] {
  return [
    [x - HIT_TOLERANCE_PX, y - HIT_TOLERANCE_PX],
    [x + HIT_TOLERANCE_PX, y + HIT_TOLERANCE_PX],
  ];
}

function uniqueGuids(features: readonly MapGeoJSONFeature[]): string[] {
  return [...new Set(features.map((feature) => String(feature.properties.guid)))];
}

/**
 * Spec §2: a cluster click zooms to the cluster's expansion zoom; when that cannot separate its
 * tours (at zoom 18 and above, or tours sharing one spot) the list view opens instead.
 */
async function openCluster(map: MapLibreMap, cluster: MapGeoJSONFeature, showSpot: (spot: SpotRequest) => void) {
  const center = (cluster.geometry as GeoJSON.Point).coordinates as [number, number];
  const properties = cluster.properties as Record<string, unknown>;
  const tourSource = map.getSource(TOUR_SOURCE);
  const source = tourSource?.type === 'geojson' ? (tourSource as GeoJSONSource) : undefined;
  const clusterId = 'cluster_id' in properties ? Number(properties.cluster_id) : null;
  const leaves = clusterId !== null && source ? await source.getClusterLeaves(clusterId, Number(properties.point_count), 0) : [];
  const expansionZoom = clusterId !== null && source ? await clientExpansionZoom(source, clusterId, leaves) : Number(properties.expansion_zoom);
  if (expansionZoom > map.getZoom() && expansionZoom <= MAX_CLUSTER_ZOOM) {
    map.easeTo({ center, zoom: expansionZoom });
    return;
  }
  const guids = leaves.map((leaf) => leaf.properties?.guid as string | undefined);
  if (guids.length > 0 && guids.every((guid) => guid !== undefined)) {
    showSpot({ kind: 'tours', guids: guids as string[] });
    return;
  }
  // Some of the tours are still a server cluster: ask the server for everything at this spot.
  showSpot({ kind: 'area', bounds: boundsAround(map, center, SPOT_RADIUS_PX) });
}

/**
 * Where a cluster MapLibre made splits. When it groups server clusters, splitting it only shows them
 * side by side: go on to the zoom where the server splits them too.
 */
async function clientExpansionZoom(source: GeoJSONSource, clusterId: number, leaves: readonly GeoJSON.Feature[]): Promise<number> {
  const splitsAt = await source.getClusterExpansionZoom(clusterId);
  const serverZooms = leaves.map((leaf) => Number(leaf.properties?.expansion_zoom)).filter(Number.isFinite);
  return serverZooms.length > 0 ? Math.max(splitsAt, Math.min(...serverZooms)) : splitsAt;
}

/** What the map draws once it settles, for the status element (tests and screen readers read it). */
function readRendered(map: MapLibreMap): RenderedState {
  const clusters = map.getLayer(LAYERS.clusters) ? map.queryRenderedFeatures({ layers: [LAYERS.clusters] }) : [];
  const points = map.getLayer(LAYERS.points) ? map.queryRenderedFeatures({ layers: [LAYERS.points] }) : [];
  const byKey = new Map(clusters.map((cluster) => [String(cluster.properties.server_cluster ?? `client-${cluster.properties.cluster_id}`), cluster]));
  const largest = [...byKey.values()].sort((a, b) => Number(b.properties[CLUSTER_COUNT_PROPERTY]) - Number(a.properties[CLUSTER_COUNT_PROPERTY]))[0];
  const { width, height } = map.getCanvas().getBoundingClientRect();
  const pointPixels = points.map((point) => map.project((point.geometry as GeoJSON.Point).coordinates as [number, number]));
  const distance = (pixel: { x: number; y: number }) => Math.hypot(pixel.x - width / 2, pixel.y - height / 2);
  const central = pointPixels.sort((a, b) => distance(a) - distance(b))[0];
  return {
    zoom: map.getZoom(),
    clusters: byKey.size,
    points: uniqueGuids(points).length,
    largestCluster: largest ? roundedPixel(map.project((largest.geometry as GeoJSON.Point).coordinates as [number, number])) : null,
    centralPoint: central ? roundedPixel(central) : null,
  };
}

function roundedPixel(pixel: { x: number; y: number }): { x: number; y: number } {
  return { x: Math.round(pixel.x), y: Math.round(pixel.y) };
}

/** The camera options a new map opens with. */
function openingView(camera: MapCamera): { center: [number, number]; zoom: number } | { bounds: LngLatBoundsLike; fitBoundsOptions: typeof FIT_OPTIONS } {
  if (camera.remember) return initialCamera();
  return camera.fit ? { bounds: lngLatBox(camera.fit), fitBoundsOptions: FIT_OPTIONS } : WORLD_VIEW;
}

/** An area across the antimeridian: carry its east edge past 180 so the box is not inverted. */
function lngLatBox([west, south, east, north]: Bounds): LngLatBoundsLike {
  return [
    [west, south],
    [east < west ? east + 360 : east, north],
  ];
}

/** Go where search sent the map (a place's area, or a point at zoom 14), once the map can move. */
function useMoveToTarget(map: MapLibreMap | null, target: MapTarget | null, reached: (id: number) => void): void {
  const latestReached = useRef(reached);
  latestReached.current = reached;
  useEffect(() => {
    if (!map || !target) return;
    if (target.kind === 'bounds') {
      map.fitBounds(lngLatBox(target.bounds), { ...FIT_OPTIONS, duration: 900 });
    } else {
      map.flyTo({ center: target.center, zoom: target.zoom, duration: 900 });
    }
    latestReached.current(target.id);
  }, [map, target]);
}

/** A newly found visitor location (the geolocation button) moves the map there (spec §9 zoom 14). */
function useFollowUserLocation(map: MapLibreMap | null): void {
  const userLocation = useUserLocation();
  const lastLocation = useRef(userLocation);
  useEffect(() => {
    if (map && userLocation && userLocation !== lastLocation.current) {
      map.flyTo({ center: userLocation.center, zoom: LOCATION_ZOOM });
    }
    lastLocation.current = userLocation;
  }, [map, userLocation]);
}

interface MapPopupProps {
  map: MapLibreMap;
  at: [number, number];
  tour: MapFeature;
  onClose: () => void;
}

/** A MapLibre popup whose content React draws (inside the app's router, theme and translations). */
function MapPopup({ map, at, tour, onClose }: MapPopupProps) {
  const [content] = useState(() => document.createElement('div'));
  const closeRef = useRef(onClose);
  closeRef.current = onClose;

  useEffect(() => {
    const popup = new Popup({ className: 'touratlas-popup', maxWidth: '280px', offset: 14, anchor: 'bottom', focusAfterOpen: false })
      .setLngLat(at)
      .setDOMContent(content)
      .addTo(map);
    const handleClose = () => closeRef.current();
    popup.on('close', handleClose);
    return () => {
      // Removed because it moved or the map went away, not closed by the visitor.
      popup.off('close', handleClose);
      popup.remove();
    };
  }, [map, at, content]);

  return createPortal(<TourPopup tour={tour.properties} />, content);
}
