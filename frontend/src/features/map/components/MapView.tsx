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
import { useEffect, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';

import type { MapCluster, MapFeature } from '../../../shared/api/generated/types.gen';
import type { Bounds } from '../../../shared/filters/filterState';
import type { MapTarget } from '../../../shared/map/mapTarget';
import { useUserLocation } from '../../../shared/location/userLocation';
import { debounce } from '../../../shared/timing/debounce';
import type { MapViewport } from '../api/mapArea';
import { attachDetailedBasemap, mapStyleFor, type MapStyleName } from '../../../shared/map/basemap';
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
  TOUR_SOURCE,
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

interface MapViewProps {
  styleName: MapStyleName;
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
}

/**
 * The MapLibre map (spec §2 map screen): the tours as clusters and points, a click on a cluster
 * zooming to where it splits, a click on a point opening its popup. Remembers where it was left.
 */
export function MapView(props: MapViewProps) {
  const { styleName, clusters, features, loading, target, place } = props;
  const container = useRef<HTMLDivElement>(null);
  const [map, setMap] = useState<MapLibreMap | null>(null);
  const [rendered, setRendered] = useState<RenderedState | null>(null);
  const [popup, setPopup] = useState<OpenPopup | null>(null);
  const firstStyle = useRef(styleName);
  const openingCamera = useRef(props.camera ?? REMEMBERED);
  const latest = useRef(props);
  latest.current = props;

  const collection = useMemo(() => toTourCollection(clusters, features), [clusters, features]);
  const latestCollection = useRef(collection);
  latestCollection.current = collection;
  const titles = useMemo(() => new Map(features.map((feature) => [feature.properties.guid, feature.properties.title])), [features]);
  const latestTitles = useRef(titles);
  latestTitles.current = titles;

  useEffect(() => {
    if (!container.current) return undefined;
    const { instance, stop } = createTourMap(container.current, firstStyle.current, openingCamera.current, {
      remember: () => (latest.current.camera ?? REMEMBERED).remember,
      styleName: () => latest.current.styleName,
      collection: () => latestCollection.current,
      place: () => latest.current.place,
      title: (guid) => latestTitles.current.get(guid),
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
    });
    setMap(instance);
    return () => {
      stop();
      setMap(null);
    };
  }, []);

  useEffect(() => {
    if (map?.getSource(TOUR_SOURCE)) setTourData(map, collection);
  }, [map, collection]);

  useEffect(() => {
    if (map?.getSource(TOUR_SOURCE)) setSearchedPlace(map, place);
  }, [map, place]);

  useEffect(() => {
    if (map && styleName !== firstStyle.current) map.setStyle(mapStyleFor(styleName));
    firstStyle.current = styleName;
  }, [map, styleName]);

  useMoveToTarget(map, target, (id) => latest.current.onTargetReached?.(id));
  useFollowUserLocation(map);

  const popupTour = popup ? features.find((feature) => feature.properties.guid === popup.guid) : undefined;

  return (
    <>
      <div ref={container} className={classes.map} data-testid="map-canvas" />
      {map && popup && popupTour && <MapPopup map={map} at={popup.lngLat} onClose={() => setPopup(null)} tour={popupTour} />}
      <MapStatus rendered={rendered} loading={loading} />
    </>
  );
}

interface TourMapHandlers {
  /** Whether to store where the map is left (asked at every move: the page may change its mind). */
  remember: () => boolean;
  styleName: () => MapStyleName;
  collection: () => ReturnType<typeof toTourCollection>;
  place: () => SearchedPlace | null;
  title: (guid: string) => string | undefined;
  onViewportChange: (viewport: MapViewport) => void;
  onShowSpot: (spot: SpotRequest) => void;
  onOpenPoint: (popup: OpenPopup) => void;
  onRendered: (rendered: RenderedState) => void;
}

/**
 * Create the map, opening where `camera` says, and wire its events; `stop` removes it. The handlers
 * read the latest React state.
 */
function createTourMap(container: HTMLDivElement, styleName: MapStyleName, camera: MapCamera, handlers: TourMapHandlers) {
  const instance = new MapLibreMap({
    container,
    style: mapStyleFor(styleName),
    ...openingView(camera),
    attributionControl: { compact: true },
    dragRotate: false,
    pitchWithRotate: false,
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
    addTourLayers(instance);
    addPlaceLayers(instance);
    setTourData(instance, handlers.collection());
    setSearchedPlace(instance, handlers.place());
  });
  attachDetailedBasemap(instance, handlers.styleName, 'place-halo');
  instance.setMissingStyleImageResolver((imageId) => provideImage(instance, imageId, handlers.title));
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
  if (guids.length > 1) {
    handlers.onShowSpot({ kind: 'tours', guids });
    return;
  }
  const [guid] = guids;
  if (!guid) return;
  const at = (points[0]?.geometry as GeoJSON.Point | undefined)?.coordinates;
  const lngLat: [number, number] = [at?.[0] ?? event.lngLat.lng, at?.[1] ?? event.lngLat.lat];
  // Bring the point below the middle, so the popup above it fits on any screen.
  map.easeTo({ center: lngLat, offset: [0, Math.min(POPUP_ROOM_PX, map.getCanvas().clientHeight / 4)], duration: 400 });
  handlers.onOpenPoint({ guid, lngLat });
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
  const source = map.getSource<GeoJSONSource>(TOUR_SOURCE);
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
  const pixel = map.project(center);
  const southWest = map.unproject([pixel.x - SPOT_RADIUS_PX, pixel.y + SPOT_RADIUS_PX]);
  const northEast = map.unproject([pixel.x + SPOT_RADIUS_PX, pixel.y - SPOT_RADIUS_PX]);
  showSpot({ kind: 'area', bounds: serverBounds(southWest.lng, southWest.lat, northEast.lng, northEast.lat) });
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
