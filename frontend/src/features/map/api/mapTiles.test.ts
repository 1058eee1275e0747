import { INITIAL_FILTER_STATE } from '../../../shared/filters/filterState';
import { isTourTileUrl, tilesArePersonal, toTileQuery, tourTilesUrl } from './mapTiles';

const ORIGIN = 'https://atlas.example';

describe('the tours tiles address', () => {
  it('asks for the unfiltered tiles with no query string', () => {
    expect(tourTilesUrl(INITIAL_FILTER_STATE, ORIGIN)).toBe(`${ORIGIN}/v2/locations/tiles/{z}/{x}/{y}.mvt`);
  });

  it('carries the filters in a stable order, with the braces MapLibre fills left as they are', () => {
    const url = tourTilesUrl({ ...INITIAL_FILTER_STATE, tags: [7], categories: [3, 1], countries: ['FR'], searchPattern: ' dome ' }, ORIGIN);
    expect(url).toBe(`${ORIGIN}/v2/locations/tiles/{z}/{x}/{y}.mvt?categories=3%2C1&countries=FR&searchPattern=dome&tags=7`);
  });

  it('leaves out what only orders a grid and the searched place: the tile is the area', () => {
    const query = toTileQuery({
      ...INITIAL_FILTER_STATE,
      sorting: 'near_me',
      near: [2.35, 48.85],
      mode: 'media',
      bounds: [2, 48, 3, 49],
      feed: 'popular',
    });
    expect(query).toEqual(expect.objectContaining({ feed: 'popular' }));
    for (const key of ['sorting', 'mode', 'lat', 'lng', 'leftX', 'leftY', 'rightX', 'rightY']) expect(query).not.toHaveProperty(key);
    // Equal filters that differ only in those give the same tiles, so caches share them.
    expect(tourTilesUrl({ ...INITIAL_FILTER_STATE, feed: 'popular' }, ORIGIN)).toBe(
      tourTilesUrl({ ...INITIAL_FILTER_STATE, feed: 'popular', sorting: 'az', bounds: [0, 0, 1, 1] }, ORIGIN),
    );
  });

  it('knows which tiles are the visitor’s own', () => {
    expect(tilesArePersonal(INITIAL_FILTER_STATE)).toBe(false);
    expect(tilesArePersonal({ ...INITIAL_FILTER_STATE, savesFollow: true })).toBe(true);
    expect(tilesArePersonal({ ...INITIAL_FILTER_STATE, feed: 'saves_follows' })).toBe(true);
    expect(tilesArePersonal({ ...INITIAL_FILTER_STATE, feed: 'for_you' })).toBe(true);
    expect(tilesArePersonal({ ...INITIAL_FILTER_STATE, feed: 'trending' })).toBe(false);
  });

  it('tells the tours tiles from other requests', () => {
    expect(isTourTileUrl(`${ORIGIN}/v2/locations/tiles/3/4/2.mvt?tags=7`, ORIGIN)).toBe(true);
    expect(isTourTileUrl(`${ORIGIN}/v2/locations/basemap/3/4/2.mvt`, ORIGIN)).toBe(false);
    expect(isTourTileUrl('https://elsewhere.example/v2/locations/tiles/3/4/2.mvt', ORIGIN)).toBe(false);
  });
});
