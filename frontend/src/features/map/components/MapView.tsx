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
import { type MapTarget, takeMapTarget } from '../../../shared/map/mapTarget';
import { useUserLocation } from '../../../shared/location/userLocation';
import { debounce } from '../../../shared/timing/debounce';
import type { MapViewport } from '../api/mapArea';
import { mapStyleFor, type MapStyleName } from '../basemap';
import { CLUSTER_COUNT_PROPERTY, MAX_CLUSTER_ZOOM } from '../clusterStyle';
import { serverBounds } from '../mapBounds';
import { addTourLayers, LAYERS, provideImage, setTourData, TOUR_SOURCE, toTourCollection } from '../mapLayers';
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

/** A spot to list (spec §2 list view): an area to ask the server about, or tours already known. */
export type SpotRequest = { kind: 'area'; bounds: Bounds } | { kind: 'tours'; guids: string[] };

interface MapViewProps {
  styleName: MapStyleName;
  clusters: readonly MapCluster[];
  features: readonly MapFeature[];
  loading: boolean;
  target: MapTarget | null;
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
  const { styleName, clusters, features, loading, target } = props;
  const container = useRef<HTMLDivElement>(null);
  const [map, setMap] = useState<MapLibreMap | null>(null);
  const [rendered, setRendered] = useState<RenderedState | null>(null);
  const [popup, setPopup] = useState<OpenPopup | null>(null);
  const firstStyle = useRef(styleName);
  const latest = useRef(props);
  latest.current = props;

  const collection = useMemo(() => toTourCollection(clusters, features), [clusters, features]);
  const latestCollection = useRef(collection);
  latestCollection.current = collection;
  const titles = useRef(new Map<string, string>());
  titles.current = new Map(features.map((feature) => [feature.properties.guid, feature.properties.title]));

  useEffect(() => {
    if (!container.current) return undefined;
    const instance = new MapLibreMap({
      container: container.current,
      style: mapStyleFor(firstStyle.current),
      ...initialCamera(),
      attributionControl: { compact: true },
      dragRotate: false,
      pitchWithRotate: false,
    });
    instance.touchZoomRotate.disableRotation();
    instance.addControl(new NavigationControl({ showCompass: false }), 'bottom-right');

    const reportViewport = () => {
      const view = instance.getBounds();
      const bounds = serverBounds(view.getWest(), view.getSouth(), view.getEast(), view.getNorth());
      latest.current.onViewportChange({ bounds, zoom: instance.getZoom() });
    };
    const reportLater = debounce(reportViewport, VIEWPORT_DEBOUNCE_MS);

    instance.on('style.load', () => {
      addTourLayers(instance);
      setTourData(instance, latestCollection.current);
    });
    instance.setMissingStyleImageResolver((imageId) => provideImage(instance, imageId, (guid) => titles.current.get(guid)));
    instance.once('load', reportViewport);
    instance.on('moveend', () => {
      const { lng, lat } = instance.getCenter();
      storeCamera([lng, lat], instance.getZoom());
      reportLater();
    });
    instance.on('idle', () => {
      const state = readRendered(instance);
      setRendered(state);
      latest.current.onRendered?.(state);
    });
    instance.on('click', (event) => void handleClick(instance, event));
    for (const layer of [LAYERS.clusters, LAYERS.points]) {
      instance.on('mouseenter', layer, () => (instance.getCanvas().style.cursor = 'pointer'));
      instance.on('mouseleave', layer, () => (instance.getCanvas().style.cursor = ''));
    }

    async function handleClick(target: MapLibreMap, event: MapMouseEvent) {
      const box = hitBox(event.point.x, event.point.y);
      const cluster = target.queryRenderedFeatures(box, { layers: [LAYERS.clusters] })[0];
      if (cluster) {
        setPopup(null);
        await openCluster(target, cluster, latest.current.onShowSpot);
        return;
      }
      const points = uniqueGuids(target.queryRenderedFeatures(box, { layers: [LAYERS.points] }));
      if (points.length > 1) {
        setPopup(null);
        latest.current.onShowSpot({ kind: 'tours', guids: points });
      } else if (points[0]) {
        const point = target.queryRenderedFeatures(box, { layers: [LAYERS.points] })[0];
        const at = (point?.geometry as GeoJSON.Point | undefined)?.coordinates ?? [event.lngLat.lng, event.lngLat.lat];
        const lngLat: [number, number] = [at[0] ?? event.lngLat.lng, at[1] ?? event.lngLat.lat];
        // Bring the point below the middle, so the popup above it fits on any screen.
        target.easeTo({ center: lngLat, offset: [0, Math.min(POPUP_ROOM_PX, target.getCanvas().clientHeight / 4)], duration: 400 });
        setPopup({ guid: points[0], lngLat });
      }
    }

    setMap(instance);
    return () => {
      reportLater.cancel();
      instance.remove();
      setMap(null);
    };
  }, []);

  useEffect(() => {
    if (map?.getSource(TOUR_SOURCE)) setTourData(map, collection);
  }, [map, collection]);

  useEffect(() => {
    if (map && styleName !== firstStyle.current) map.setStyle(mapStyleFor(styleName));
    firstStyle.current = styleName;
  }, [map, styleName]);

  useMoveToTarget(map, target);
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
  const expansionZoom = clusterId !== null && source ? await source.getClusterExpansionZoom(clusterId) : Number(properties.expansion_zoom);
  if (expansionZoom > map.getZoom() && expansionZoom <= MAX_CLUSTER_ZOOM) {
    map.easeTo({ center, zoom: expansionZoom });
    return;
  }
  if (clusterId !== null && source) {
    const leaves = await source.getClusterLeaves(clusterId, Number(properties.point_count), 0);
    const guids = leaves.map((leaf) => leaf.properties?.guid as string | undefined);
    if (guids.every((guid) => guid !== undefined)) {
      showSpot({ kind: 'tours', guids: guids as string[] });
      return;
    }
  }
  // Some of the tours are still a server cluster: ask the server for everything at this spot.
  const pixel = map.project(center);
  const southWest = map.unproject([pixel.x - SPOT_RADIUS_PX, pixel.y + SPOT_RADIUS_PX]);
  const northEast = map.unproject([pixel.x + SPOT_RADIUS_PX, pixel.y - SPOT_RADIUS_PX]);
  showSpot({ kind: 'area', bounds: serverBounds(southWest.lng, southWest.lat, northEast.lng, northEast.lat) });
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

/** Go where search sent the map (a place's area, or a point at zoom 14), once the map can move. */
function useMoveToTarget(map: MapLibreMap | null, target: MapTarget | null): void {
  useEffect(() => {
    if (!map || !target) return;
    if (target.kind === 'bounds') {
      const [west, south, east, north] = target.bounds;
      // An area across the antimeridian: carry its east edge past 180 so the box is not inverted.
      const box: LngLatBoundsLike = [
        [west, south],
        [east < west ? east + 360 : east, north],
      ];
      map.fitBounds(box, { padding: 40, maxZoom: LOCATION_ZOOM, duration: 900 });
    } else {
      map.flyTo({ center: target.center, zoom: target.zoom, duration: 900 });
    }
    takeMapTarget(target.id);
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
