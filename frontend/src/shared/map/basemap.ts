import { queryOptions } from '@tanstack/react-query';
import type { ExpressionSpecification, Map as MapLibreMap, MapOptions } from 'maplibre-gl';

import { locationsBasemapInfo } from '../api/generated/sdk.gen';
import type { BasemapOut } from '../api/generated/types.gen';

export type MapStyleName = 'dark' | 'streets' | 'satellite';
export const MAP_STYLE_NAMES: readonly MapStyleName[] = ['dark', 'streets', 'satellite'];
export const DEFAULT_MAP_STYLE: MapStyleName = 'streets';

type StyleSpecification = Exclude<MapOptions['style'], string | undefined>;
type LayerSpecification = StyleSpecification['layers'][number];

/**
 * The map's basemap as the server serves it (GET /v2/locations/basemap): its vector tiles and their
 * schema, and the styles on offer — a style the deployment has no source for (Satellite without a
 * hosted style) is not offered at all. Fetched once per page load.
 */
export function basemapQueryOptions() {
  return queryOptions({
    queryKey: ['basemap'] as const,
    queryFn: async ({ signal }) => (await locationsBasemapInfo({ signal, throwOnError: true })).data,
    staleTime: Infinity,
    retry: 1,
  });
}

/** The styles the visitor may choose, in the switcher's order; without the server's answer, Streets. */
export function offeredStyles(basemap: BasemapOut | null | undefined): MapStyleName[] {
  if (!basemap) return [DEFAULT_MAP_STYLE];
  return MAP_STYLE_NAMES.filter((name) => basemap.styles.some((style) => style.name === name));
}

/** The chosen style when it is on offer, otherwise the default (a Satellite remembered from a deployment that had it). */
export function styleOnOffer(basemap: BasemapOut | null | undefined, name: MapStyleName): MapStyleName {
  const offered = offeredStyles(basemap);
  return offered.includes(name) ? name : offered.includes(DEFAULT_MAP_STYLE) ? DEFAULT_MAP_STYLE : (offered[0] ?? DEFAULT_MAP_STYLE);
}

interface Palette {
  ocean: string;
  land: string;
  ice: string;
  park: string;
  border: string;
  region: string;
  river: string;
  road: string;
  majorRoad: string;
  building: string;
  label: string;
  labelMuted: string;
  halo: string;
}

/** Drawn from the basemap's tiles, the offered styles are colour schemes of the same layers. */
const PALETTES: Record<Exclude<MapStyleName, 'satellite'>, Palette> = {
  streets: {
    ocean: '#aad3df',
    land: '#f4f1ea',
    ice: '#fbfcfd',
    park: '#d8ebc8',
    border: '#9e8fa6',
    region: '#bdb3c2',
    river: '#9ccbdc',
    road: '#ffffff',
    majorRoad: '#fcd9a0',
    building: '#e3ddd3',
    label: '#27303a',
    labelMuted: '#5f6b7a',
    halo: 'rgba(255, 255, 255, 0.92)',
  },
  dark: {
    ocean: '#0f1a26',
    land: '#1f2b38',
    ice: '#2c3a49',
    park: '#213629',
    border: '#6b7d92',
    region: '#44556a',
    river: '#1d3347',
    road: '#34465a',
    majorRoad: '#4a5d73',
    building: '#2a3848',
    label: '#e6edf5',
    labelMuted: '#9fb0c3',
    halo: 'rgba(10, 18, 28, 0.9)',
  },
};

const SOURCE = 'basemap';
/** Images of place names: `basemap-label:<style>:<kind>:<name>` (see provideBasemapImage). */
const LABEL_PREFIX = 'basemap-label';

function paletteOf(name: MapStyleName): Palette {
  return name === 'dark' ? PALETTES.dark : PALETTES.streets;
}

/**
 * An absolute address for MapLibre (its workers resolve nothing against the page). Joined as text:
 * `new URL()` would escape the {z}/{x}/{y} that MapLibre fills in.
 */
function absoluteUrl(path: string): string {
  return path.startsWith('/') ? `${window.location.origin}${path}` : path;
}

/**
 * The place names: drawn as images made on demand (`provideBasemapImage`; the offline style has no
 * font glyphs), the most populous placed first, the ones that would collide left out.
 */
function placeLabels(styleName: MapStyleName, kind: ExpressionSpecification, rank: ExpressionSpecification): LayerSpecification {
  return {
    id: 'basemap-places',
    type: 'symbol',
    source: SOURCE,
    'source-layer': 'places',
    layout: {
      'icon-image': ['concat', `${LABEL_PREFIX}:${styleName}:`, kind, ':', ['get', 'name']],
      'symbol-sort-key': ['-', 0, rank],
      'icon-padding': 3,
    },
  };
}

function touratlasLayers(styleName: MapStyleName, palette: Palette): LayerSpecification[] {
  return [
    { id: 'ocean', type: 'background', paint: { 'background-color': palette.ocean } },
    {
      id: 'earth',
      type: 'fill',
      source: SOURCE,
      'source-layer': 'earth',
      paint: { 'fill-color': ['match', ['get', 'kind'], 'lake', palette.ocean, 'ice', palette.ice, palette.land], 'fill-antialias': true },
    },
    {
      // Rivers are drawn to about 1 km: past zoom 10 that is a line beside the real river, so none is drawn.
      id: 'rivers',
      type: 'line',
      source: SOURCE,
      'source-layer': 'rivers',
      maxzoom: 10,
      paint: { 'line-color': palette.river, 'line-width': ['interpolate', ['linear'], ['zoom'], 6, 0.6, 12, 2] },
    },
    {
      id: 'region-borders',
      type: 'line',
      source: SOURCE,
      'source-layer': 'boundaries',
      minzoom: 3,
      filter: ['==', ['get', 'kind'], 'region'],
      paint: { 'line-color': palette.region, 'line-width': ['interpolate', ['linear'], ['zoom'], 3, 0.5, 10, 1.2], 'line-dasharray': [3, 2] },
    },
    {
      id: 'borders',
      type: 'line',
      source: SOURCE,
      'source-layer': 'boundaries',
      filter: ['==', ['get', 'kind'], 'country'],
      paint: { 'line-color': palette.border, 'line-width': ['interpolate', ['linear'], ['zoom'], 1, 0.6, 6, 1.3, 12, 2] },
    },
    placeLabels(styleName, ['get', 'kind'], ['get', 'rank']),
  ];
}

/** The layers of a Protomaps-schema basemap (a PMTiles archive the deployer serves, BASEMAP_PMTILES). */
function protomapsLayers(styleName: MapStyleName, palette: Palette): LayerSpecification[] {
  const roadWidth = (base: number): ExpressionSpecification => ['interpolate', ['exponential', 1.6], ['zoom'], 8, base * 0.3, 14, base * 2, 18, base * 8];
  return [
    { id: 'ocean', type: 'background', paint: { 'background-color': palette.ocean } },
    { id: 'earth', type: 'fill', source: SOURCE, 'source-layer': 'earth', paint: { 'fill-color': palette.land } },
    {
      id: 'landuse',
      type: 'fill',
      source: SOURCE,
      'source-layer': 'landuse',
      filter: ['in', ['get', 'kind'], ['literal', ['park', 'forest', 'wood', 'nature_reserve', 'grass', 'garden', 'cemetery', 'golf_course']]],
      paint: { 'fill-color': palette.park },
    },
    { id: 'water', type: 'fill', source: SOURCE, 'source-layer': 'water', paint: { 'fill-color': palette.ocean } },
    {
      id: 'roads-minor',
      type: 'line',
      source: SOURCE,
      'source-layer': 'roads',
      filter: ['in', ['get', 'kind'], ['literal', ['minor_road', 'other', 'path']]],
      paint: { 'line-color': palette.road, 'line-width': roadWidth(0.8) },
    },
    {
      id: 'roads-major',
      type: 'line',
      source: SOURCE,
      'source-layer': 'roads',
      filter: ['in', ['get', 'kind'], ['literal', ['major_road', 'highway']]],
      paint: { 'line-color': palette.majorRoad, 'line-width': roadWidth(1.4) },
    },
    { id: 'buildings', type: 'fill', source: SOURCE, 'source-layer': 'buildings', minzoom: 14, paint: { 'fill-color': palette.building } },
    {
      id: 'borders',
      type: 'line',
      source: SOURCE,
      'source-layer': 'boundaries',
      paint: { 'line-color': palette.border, 'line-width': ['interpolate', ['linear'], ['zoom'], 1, 0.6, 10, 1.6] },
    },
    placeLabels(
      styleName,
      ['match', ['get', 'kind'], 'locality', 'city', 'neighbourhood', 'town', 'macrohood', 'town', ['get', 'kind']],
      ['coalesce', ['get', 'population_rank'], 0],
    ),
  ];
}

/** Before the server has said what to draw, or when it could not: the sea and nothing else. */
export function plainStyle(name: MapStyleName): StyleSpecification {
  return { version: 8, name: `TourAtlas ${name}`, sources: {}, layers: [{ id: 'ocean', type: 'background', paint: { 'background-color': paletteOf(name).ocean } }] };
}

/** The hosted style when one is configured for this name, otherwise a style drawn from the basemap's tiles. */
export function mapStyleFor(basemap: BasemapOut | null | undefined, name: MapStyleName): string | StyleSpecification {
  if (!basemap) return plainStyle(name);
  const hosted = basemap.styles.find((style) => style.name === name)?.url;
  if (hosted) return hosted;
  const palette = paletteOf(name);
  return {
    version: 8,
    name: `TourAtlas ${name}`,
    sources: {
      [SOURCE]: {
        type: 'vector',
        tiles: [absoluteUrl(basemap.tiles)],
        minzoom: basemap.min_zoom,
        maxzoom: basemap.max_zoom,
        attribution: basemap.attribution,
      },
    },
    layers: basemap.tile_schema === 'protomaps' ? protomapsLayers(name, palette) : touratlasLayers(name, palette),
  };
}

interface LabelLook {
  fontPx: number;
  weight: number;
  upper: boolean;
  muted: boolean;
}

const LABEL_LOOKS: Record<string, LabelLook> = {
  country: { fontPx: 12, weight: 700, upper: true, muted: true },
  region: { fontPx: 11, weight: 600, upper: false, muted: true },
  city: { fontPx: 13, weight: 700, upper: false, muted: false },
  // Lighter than the tours' own titles, which share the map with them at city zoom.
  town: { fontPx: 11, weight: 500, upper: false, muted: true },
};

const FONT_FAMILY = 'Inter, "Segoe UI", Roboto, "DejaVu Sans", Arial, sans-serif';

/**
 * Draw a basemap place name when MapLibre first asks for its image (`basemap-label:<style>:<kind>:<name>`);
 * false for any other image.
 */
export function provideBasemapImage(map: MapLibreMap, imageId: string): boolean {
  if (!imageId.startsWith(`${LABEL_PREFIX}:`)) return false;
  if (map.hasImage(imageId)) return true;
  const [, styleName = DEFAULT_MAP_STYLE, kind = 'town', ...rest] = imageId.split(':');
  const name = rest.join(':');
  if (!name) return true;
  const look = LABEL_LOOKS[kind] ?? LABEL_LOOKS.town!;
  const palette = paletteOf(styleName as MapStyleName);
  const text = look.upper ? name.toLocaleUpperCase() : name;
  const ratio = Math.min(2, Math.max(1, window.devicePixelRatio || 1));
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d');
  if (!context) return true;
  const font = `${look.weight} ${look.fontPx * ratio}px ${FONT_FAMILY}`;
  const padding = 3 * ratio;
  context.font = font;
  canvas.width = Math.ceil(context.measureText(text).width + 2 * padding);
  canvas.height = Math.ceil(look.fontPx * ratio + 2 * padding);
  context.font = font; // resizing the canvas resets its state
  context.textAlign = 'center';
  context.textBaseline = 'middle';
  context.lineJoin = 'round';
  context.lineWidth = 3 * ratio;
  context.strokeStyle = palette.halo;
  context.strokeText(text, canvas.width / 2, canvas.height / 2 + ratio / 2);
  context.fillStyle = look.muted ? palette.labelMuted : palette.label;
  context.fillText(text, canvas.width / 2, canvas.height / 2 + ratio / 2);
  map.addImage(imageId, context.getImageData(0, 0, canvas.width, canvas.height), { pixelRatio: ratio });
  return true;
}
