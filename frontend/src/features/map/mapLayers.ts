import type { FeatureCollection, Point } from 'geojson';
import type {
  ExpressionSpecification,
  GeoJSONSource,
  GeoJSONSourceSpecification,
  Map as MapLibreMap,
  VectorSourceSpecification,
  VectorTileSource,
} from 'maplibre-gl';

import type { MapCluster, MapFeature } from '../../shared/api/generated/types.gen';
import { formatCount } from '../../shared/format/formatCount';
import { CLUSTER_COLORS, CLUSTER_COUNT_PROPERTY, CLUSTER_RADII, CLUSTER_RADIUS, clusterStepExpression, MAX_CLUSTER_ZOOM } from './clusterStyle';

export const TOUR_SOURCE = 'tours';
export const LAYERS = {
  clusterHalo: 'tour-cluster-halo',
  clusters: 'tour-clusters',
  clusterCounts: 'tour-cluster-counts',
  points: 'tour-points',
  labels: 'tour-labels',
} as const;

const COUNT_IMAGE_PREFIX = 'cluster-count-';
const LABEL_IMAGE_PREFIX = 'tour-label-';
/** Tour titles appear next to their points from this zoom on, where they tell points apart. */
const LABELS_MIN_ZOOM = 10;
const LABEL_MAX_WIDTH_PX = 170;
const POINT_COLOR = '#0b7d6b';
const HALO_EXTRA_RADIUS = 7;
/** MapLibre must keep tiles past the last cluster zoom, or it cannot show single points there. */
const SOURCE_MAX_ZOOM = 22;
/** The layer of the server's tour tiles (app/discovery/tiles.py). */
export const TOUR_TILE_LAYER = 'tours';
/**
 * The deepest tour tile asked for: every tour is a point there (spec §9: no clusters above zoom 18),
 * and MapLibre draws deeper zooms from those tiles, so a city needs few of them.
 */
export const TOUR_TILES_MAX_ZOOM = 18;

export interface TourPointProperties {
  [CLUSTER_COUNT_PROPERTY]: 1;
  guid: string;
  title: string;
}

export interface ServerClusterProperties {
  [CLUSTER_COUNT_PROPERTY]: number;
  server_cluster: string;
  expansion_zoom: number;
}

type TourCollection = FeatureCollection<Point, TourPointProperties | ServerClusterProperties>;

/**
 * The server's clusters and tours as one GeoJSON source. MapLibre clusters them once more (radius
 * 60 px, up to zoom 18, spec §9), adding up their tours, so points the server sends one by one
 * never pile up on screen either.
 */
export function toTourCollection(clusters: readonly MapCluster[], features: readonly MapFeature[]): TourCollection {
  return {
    type: 'FeatureCollection',
    features: [
      ...clusters.map((cluster) => ({
        type: 'Feature' as const,
        geometry: { type: 'Point' as const, coordinates: [...cluster.center] },
        properties: { [CLUSTER_COUNT_PROPERTY]: cluster.count, server_cluster: cluster.id, expansion_zoom: cluster.expansion_zoom },
      })),
      ...features.map((feature) => ({
        type: 'Feature' as const,
        geometry: { type: 'Point' as const, coordinates: [...feature.geometry.coordinates] },
        properties: { [CLUSTER_COUNT_PROPERTY]: 1 as const, guid: feature.properties.guid, title: feature.properties.title },
      })),
    ],
  };
}

/** A feature that stands for several tours: a cluster of MapLibre's or of the server's. */
export const IS_CLUSTER: ExpressionSpecification = ['any', ['has', 'point_count'], ['has', 'server_cluster']];

/**
 * Where the tours come from: the server's vector tiles (the main map: clustered per tile by the
 * server, shared by every visitor with the same filters), or points given to a GeoJSON source that
 * MapLibre clusters (a creator's map, whose tours are all known at once).
 */
export type TourSource = { kind: 'tiles'; url: string } | { kind: 'points' };

function tileSourceSpecification(url: string): VectorSourceSpecification {
  return { type: 'vector', tiles: [url], minzoom: 0, maxzoom: TOUR_TILES_MAX_ZOOM };
}

function sourceSpecification(): GeoJSONSourceSpecification {
  const empty: TourCollection = { type: 'FeatureCollection', features: [] };
  return {
    type: 'geojson',
    data: empty,
    cluster: true,
    clusterRadius: CLUSTER_RADIUS,
    clusterMaxZoom: MAX_CLUSTER_ZOOM,
    clusterProperties: { [CLUSTER_COUNT_PROPERTY]: ['+', ['get', CLUSTER_COUNT_PROPERTY]] },
    maxzoom: SOURCE_MAX_ZOOM,
  };
}

/** Add the tour source and layers, again after every style change (a new style starts empty). */
export function addTourLayers(map: MapLibreMap, from: TourSource): void {
  if (map.getSource(TOUR_SOURCE)) return;
  map.addSource(TOUR_SOURCE, from.kind === 'tiles' ? tileSourceSpecification(from.url) : sourceSpecification());
  // A vector source holds layers; the tours are its one layer.
  const source = from.kind === 'tiles' ? { source: TOUR_SOURCE, 'source-layer': TOUR_TILE_LAYER } : { source: TOUR_SOURCE };
  const color = clusterStepExpression(CLUSTER_COLORS);
  map.addLayer({
    id: LAYERS.clusterHalo,
    type: 'circle',
    ...source,
    filter: IS_CLUSTER,
    paint: {
      'circle-radius': clusterStepExpression(CLUSTER_RADII.map((value) => value + HALO_EXTRA_RADIUS) as [number, number, number]),
      'circle-color': color,
      'circle-opacity': 0.22,
    },
  });
  map.addLayer({
    id: LAYERS.clusters,
    type: 'circle',
    ...source,
    filter: IS_CLUSTER,
    paint: { 'circle-radius': clusterStepExpression(CLUSTER_RADII), 'circle-color': color, 'circle-stroke-width': 2, 'circle-stroke-color': '#ffffff' },
  });
  // Counts are drawn as images made on demand (below): the offline style has no font glyphs.
  map.addLayer({
    id: LAYERS.clusterCounts,
    type: 'symbol',
    ...source,
    filter: IS_CLUSTER,
    layout: {
      'icon-image': ['concat', COUNT_IMAGE_PREFIX, ['to-string', ['get', CLUSTER_COUNT_PROPERTY]]],
      'icon-allow-overlap': true,
      'icon-ignore-placement': true,
    },
  });
  map.addLayer({
    id: LAYERS.points,
    type: 'circle',
    ...source,
    filter: ['!', IS_CLUSTER],
    paint: {
      'circle-radius': ['interpolate', ['linear'], ['zoom'], 3, 5, 12, 7, 17, 9],
      'circle-color': POINT_COLOR,
      'circle-stroke-width': 2.5,
      'circle-stroke-color': '#ffffff',
    },
  });
  // Titles beside the points; MapLibre hides those that would overlap, so the densest spots stay legible.
  map.addLayer({
    id: LAYERS.labels,
    type: 'symbol',
    ...source,
    minzoom: LABELS_MIN_ZOOM,
    filter: ['!', IS_CLUSTER],
    layout: {
      'icon-image': ['concat', LABEL_IMAGE_PREFIX, ['get', 'title']],
      'icon-anchor': 'left',
      'icon-offset': [12, 0],
      'icon-padding': 4,
    },
  });
}

export function setTourData(map: MapLibreMap, data: TourCollection): void {
  const source = map.getSource(TOUR_SOURCE);
  if (source?.type === 'geojson') (source as GeoJSONSource).setData(data);
}

/** New filters: the tiles' new address (MapLibre drops the tiles it has and asks for the new ones). */
export function setTourTiles(map: MapLibreMap, url: string): void {
  const source = map.getSource(TOUR_SOURCE);
  if (source?.type === 'vector' && (source as VectorTileSource).tiles?.[0] !== url) (source as VectorTileSource).setTiles([url]);
}

/** The place chosen in search, so the visitor sees where they are on a map without street detail. */
export interface SearchedPlace {
  center: [number, number];
  name: string;
}

const PLACE_SOURCE = 'searched-place';
const PLACE_LABEL_PREFIX = 'place-label-';
const PLACE_COLOR = '#1c7ed6';

function placeCollection(place: SearchedPlace | null): FeatureCollection<Point, { label: string }> {
  if (!place) return { type: 'FeatureCollection', features: [] };
  const label = `${PLACE_LABEL_PREFIX}${encodeURIComponent(place.name)}`;
  return { type: 'FeatureCollection', features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: place.center }, properties: { label } }] };
}

/** Add the searched place's pin, under the tours so it never hides one. */
export function addPlaceLayers(map: MapLibreMap): void {
  if (map.getSource(PLACE_SOURCE)) return;
  map.addSource(PLACE_SOURCE, { type: 'geojson', data: placeCollection(null) });
  const below = map.getLayer(LAYERS.clusterHalo) ? LAYERS.clusterHalo : undefined;
  map.addLayer(
    { id: 'place-halo', type: 'circle', source: PLACE_SOURCE, paint: { 'circle-radius': 16, 'circle-color': PLACE_COLOR, 'circle-opacity': 0.18 } },
    below,
  );
  map.addLayer(
    {
      id: 'place-dot',
      type: 'circle',
      source: PLACE_SOURCE,
      paint: { 'circle-radius': 6, 'circle-color': PLACE_COLOR, 'circle-stroke-width': 3, 'circle-stroke-color': '#ffffff' },
    },
    below,
  );
  map.addLayer(
    {
      id: 'place-label',
      type: 'symbol',
      source: PLACE_SOURCE,
      layout: { 'icon-image': ['get', 'label'], 'icon-anchor': 'top', 'icon-offset': [0, 14], 'icon-allow-overlap': true },
    },
    below,
  );
}

export function setSearchedPlace(map: MapLibreMap, place: SearchedPlace | null): void {
  map.getSource<GeoJSONSource>(PLACE_SOURCE)?.setData(placeCollection(place));
}

function pixelRatio(): number {
  return Math.min(2, Math.max(1, window.devicePixelRatio || 1));
}

const FONT_FAMILY = 'Inter, "Segoe UI", Roboto, "DejaVu Sans", Arial, sans-serif';

/** Draw `text` on a fresh canvas sized to it; `paint` does the drawing once the font is set. */
function textImage(text: string, fontPx: number, padding: number, paint: (context: CanvasRenderingContext2D, width: number, height: number) => void) {
  const ratio = pixelRatio();
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d');
  if (!context) return null;
  const font = `700 ${fontPx * ratio}px ${FONT_FAMILY}`;
  context.font = font;
  canvas.width = Math.ceil(context.measureText(text).width + 2 * padding * ratio);
  canvas.height = Math.ceil((fontPx + 2 * padding) * ratio);
  context.font = font; // resizing the canvas resets its state
  context.textAlign = 'center';
  context.textBaseline = 'middle';
  paint(context, canvas.width, canvas.height);
  return { image: context.getImageData(0, 0, canvas.width, canvas.height), ratio };
}

/** A title shortened with an ellipsis to fit `maxWidth` pixels in the label font. */
function fitTitle(title: string, maxWidth: number, fontPx: number): string {
  const context = document.createElement('canvas').getContext('2d');
  if (!context) return title;
  context.font = `700 ${fontPx}px ${FONT_FAMILY}`;
  if (context.measureText(title).width <= maxWidth) return title;
  let shortened = title;
  while (shortened.length > 1 && context.measureText(`${shortened}…`).width > maxWidth) shortened = shortened.slice(0, -1);
  return `${shortened.trimEnd()}…`;
}

/**
 * Images MapLibre asks for when it first needs them (the offline style has no font glyphs, so text
 * is drawn here): a cluster's count ("1.2K") and a tour's title label (the title is in the image's name).
 */
export function provideImage(map: MapLibreMap, imageId: string): void {
  if (map.hasImage(imageId)) return;
  let drawn: ReturnType<typeof textImage> = null;
  if (imageId.startsWith(COUNT_IMAGE_PREFIX)) {
    const count = Number(imageId.slice(COUNT_IMAGE_PREFIX.length));
    if (!Number.isFinite(count)) return;
    drawn = textImage(formatCount(count), 13, 2, (context, width, height) => {
      context.fillStyle = '#ffffff';
      context.fillText(formatCount(count), width / 2, height / 2 + 1);
    });
  } else if (imageId.startsWith(PLACE_LABEL_PREFIX)) {
    const name = decodeURIComponent(imageId.slice(PLACE_LABEL_PREFIX.length));
    drawn = textImage(name, 14, 4, (context, width, height) => {
      context.lineJoin = 'round';
      context.lineWidth = 5 * pixelRatio();
      context.strokeStyle = 'rgba(255, 255, 255, 0.95)';
      context.strokeText(name, width / 2, height / 2 + 1);
      context.fillStyle = PLACE_COLOR;
      context.fillText(name, width / 2, height / 2 + 1);
    });
  } else if (imageId.startsWith(LABEL_IMAGE_PREFIX)) {
    const title = imageId.slice(LABEL_IMAGE_PREFIX.length);
    if (!title) return;
    const text = fitTitle(title, LABEL_MAX_WIDTH_PX, 12);
    drawn = textImage(text, 12, 4, (context, width, height) => {
      context.lineJoin = 'round';
      context.lineWidth = 4 * pixelRatio();
      context.strokeStyle = 'rgba(255, 255, 255, 0.95)';
      context.strokeText(text, width / 2, height / 2 + 1);
      context.fillStyle = '#1f2937';
      context.fillText(text, width / 2, height / 2 + 1);
    });
  }
  if (drawn) map.addImage(imageId, drawn.image, { pixelRatio: drawn.ratio });
}
