import type { FeatureCollection } from 'geojson';
import type { MapOptions } from 'maplibre-gl';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import countriesTopology from 'world-atlas/countries-110m.json';

import { HOSTED_MAP_STYLE_URLS } from '../../shared/config/links';

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

/** Natural Earth 1:110m countries (world-atlas TopoJSON), converted once to GeoJSON. */
export function countriesGeoJson(): FeatureCollection {
  if (countries === null) {
    const topology = countriesTopology as unknown as Topology<{ countries: GeometryCollection }>;
    countries = feature(topology, topology.objects.countries) as FeatureCollection;
  }
  return countries;
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
