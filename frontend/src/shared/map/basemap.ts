import type { Feature, FeatureCollection, Geometry, Position } from 'geojson';
import type { Map as MapLibreMap, MapOptions } from 'maplibre-gl';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import countriesTopology from 'world-atlas/countries-110m.json';

import { HOSTED_MAP_STYLE_URLS } from '../config/links';

export type MapStyleName = 'dark' | 'streets' | 'satellite';
export const MAP_STYLE_NAMES: readonly MapStyleName[] = ['dark', 'streets', 'satellite'];
export const DEFAULT_MAP_STYLE: MapStyleName = 'streets';

type StyleSpecification = Exclude<MapOptions['style'], string | undefined>;

interface Palette {
  ocean: string;
  land: string;
  border: string;
  coast: string;
}

/** Offline, the three map styles are three colour schemes of the same country basemap. */
const PALETTES: Record<MapStyleName, Palette> = {
  streets: { ocean: '#cfe6f2', land: '#f8f6f0', border: '#cfc6b4', coast: '#a9c9dc' },
  dark: { ocean: '#0d1520', land: '#1f2b3a', border: '#3d4f66', coast: '#2b3c52' },
  satellite: { ocean: '#0c2a44', land: '#3e5a36', border: '#8aa37a', coast: '#1c3f5e' },
};

let countries: FeatureCollection | null = null;

/**
 * A ring whose longitudes jump across the antimeridian (Russia, Fiji, Antarctica in Natural Earth)
 * made continuous, so MapLibre does not draw it as bands across the whole world. A ring around a
 * pole (Antarctica) ends a full turn from where it began: it is closed through the pole.
 */
export function unwrapRing(ring: readonly Position[]): Position[] {
  const unwrapped: Position[] = [];
  let shift = 0;
  ring.forEach((point, index) => {
    const previous = ring[index - 1];
    const [lng = 0, lat = 0] = point;
    if (previous && previous[0] !== undefined) {
      const step = lng - previous[0];
      if (step > 180) shift -= 360;
      else if (step < -180) shift += 360;
    }
    unwrapped.push([lng + shift, lat]);
  });
  const first = unwrapped[0];
  const last = unwrapped.at(-1);
  if (first?.[0] !== undefined && last?.[0] !== undefined && Math.abs(last[0] - first[0]) > 180) {
    const pole = (first[1] ?? 0) < 0 ? -90 : 90;
    unwrapped.push([last[0], pole], [first[0], pole], first);
  }
  return unwrapped;
}

function unwrapGeometry(geometry: Geometry): Geometry {
  if (geometry.type === 'Polygon') return { ...geometry, coordinates: geometry.coordinates.map(unwrapRing) };
  if (geometry.type === 'MultiPolygon') {
    return { ...geometry, coordinates: geometry.coordinates.map((polygon) => polygon.map(unwrapRing)) };
  }
  return geometry;
}

type CountriesTopology = Topology<{ countries: GeometryCollection }>;

function topologyToGeoJson(topology: CountriesTopology): FeatureCollection {
  const collection = feature(topology, topology.objects.countries) as FeatureCollection;
  return { ...collection, features: collection.features.map((item: Feature) => ({ ...item, geometry: unwrapGeometry(item.geometry) })) };
}

/** Natural Earth 1:110m countries (world-atlas TopoJSON), converted once to GeoJSON. */
export function countriesGeoJson(): FeatureCollection {
  countries ??= topologyToGeoJson(countriesTopology as unknown as CountriesTopology);
  return countries;
}

/**
 * From this zoom on the offline map switches to the 1:50m coastlines: at 1:110m a country looks cut
 * out with scissors once the visitor zooms in on a region or a city.
 */
export const DETAIL_FROM_ZOOM = 3.5;
const DETAIL_SOURCE = 'countries-detail';
let detailedCountries: Promise<FeatureCollection> | null = null;

/** The 1:50m countries (three-quarters of a megabyte), fetched the first time the map needs them. */
function loadDetailedCountries(): Promise<FeatureCollection> {
  detailedCountries ??= import('world-atlas/countries-50m.json').then((module) =>
    topologyToGeoJson(module.default as unknown as CountriesTopology),
  );
  return detailedCountries;
}

function addDetailLayers(map: MapLibreMap, styleName: MapStyleName, data: FeatureCollection, beforeLayer: string | undefined): void {
  if (map.getSource(DETAIL_SOURCE) || !map.getLayer('land')) return;
  const palette = PALETTES[styleName];
  map.addSource(DETAIL_SOURCE, { type: 'geojson', data, attribution: 'Natural Earth' });
  const before = beforeLayer && map.getLayer(beforeLayer) ? beforeLayer : undefined;
  map.addLayer(
    {
      id: 'land-detail',
      type: 'fill',
      source: DETAIL_SOURCE,
      minzoom: DETAIL_FROM_ZOOM,
      paint: { 'fill-color': palette.land, 'fill-outline-color': palette.coast },
    },
    before,
  );
  map.addLayer({ id: 'borders-detail', type: 'line', source: DETAIL_SOURCE, minzoom: DETAIL_FROM_ZOOM, paint: { 'line-color': palette.border, 'line-width': 1.2 } }, before);
  map.setLayerZoomRange('land', 0, DETAIL_FROM_ZOOM);
  map.setLayerZoomRange('borders', 0, DETAIL_FROM_ZOOM);
}

/**
 * Keep the offline basemap detailed when zoomed in: after each style change and zoom, load the
 * 1:50m countries if needed and draw them under `beforeLayer`. Hosted styles have their own detail.
 */
export function attachDetailedBasemap(map: MapLibreMap, styleName: () => MapStyleName, beforeLayer: string): void {
  const apply = () => {
    const name = styleName();
    if (HOSTED_MAP_STYLE_URLS[name] || map.getZoom() < DETAIL_FROM_ZOOM - 0.5) return;
    void loadDetailedCountries().then((data) => {
      // The map may have been closed or restyled while the file loaded.
      if (!map._removed && map.style && styleName() === name) addDetailLayers(map, name, data, beforeLayer);
    });
  };
  map.on('style.load', apply);
  map.on('zoomend', apply);
}

/** A style that draws the world with no network: ocean background, country fills and borders. */
export function offlineBasemapStyle(name: MapStyleName): StyleSpecification {
  const palette = PALETTES[name];
  return {
    version: 8,
    name: `TourAtlas ${name} (offline)`,
    sources: { countries: { type: 'geojson', data: countriesGeoJson(), attribution: 'Natural Earth' } },
    layers: [
      { id: 'ocean', type: 'background', paint: { 'background-color': palette.ocean } },
      { id: 'land', type: 'fill', source: 'countries', paint: { 'fill-color': palette.land, 'fill-outline-color': palette.coast } },
      {
        id: 'borders',
        type: 'line',
        source: 'countries',
        paint: { 'line-color': palette.border, 'line-width': ['interpolate', ['linear'], ['zoom'], 1, 0.4, 6, 1.2] },
      },
    ],
  };
}

/** The hosted style when one is configured for this name, otherwise the offline basemap. */
export function mapStyleFor(name: MapStyleName): string | StyleSpecification {
  return HOSTED_MAP_STYLE_URLS[name] || offlineBasemapStyle(name);
}
