import { screen, waitFor } from '@testing-library/react';

import type { MapFeature } from '../../../shared/api/generated/types.gen';
import { stubApi } from '../../../testing/apiStub';
import { renderWithApp } from '../../../testing/render';
import { initialCamera, storeCamera } from '../mapPreferences';
import { CreatorToursMap } from './CreatorToursMap';
import { MapView } from './MapView';

/** A stand-in for MapLibre's map (jsdom has no WebGL): it keeps its options and lets a test move it. */
const fake = vi.hoisted(() => {
  type Handler = (...args: unknown[]) => void;
  class FakeMap {
    static made: FakeMap[] = [];
    readonly handlers = new Map<string, Handler[]>();
    center = { lng: 0, lat: 0 };
    zoom = 1;
    touchZoomRotate = { disableRotation: () => undefined };
    constructor(readonly options: Record<string, unknown>) {
      FakeMap.made.push(this);
    }
    on(event: string, layerOrHandler: string | Handler, handler?: Handler) {
      const listener = typeof layerOrHandler === 'function' ? layerOrHandler : handler;
      if (listener) this.handlers.set(event, [...(this.handlers.get(event) ?? []), listener]);
      return this;
    }
    once(event: string, handler: Handler) {
      return this.on(event, handler);
    }
    /** The visitor drags the map here and lets go. */
    moveTo(lng: number, lat: number, zoom: number) {
      this.center = { lng, lat };
      this.zoom = zoom;
      for (const handler of this.handlers.get('moveend') ?? []) handler();
    }
    addControl() {}
    setMissingStyleImageResolver() {}
    getBounds() {
      return { getWest: () => -20, getSouth: () => -20, getEast: () => 20, getNorth: () => 20 };
    }
    getCenter() {
      return this.center;
    }
    getZoom() {
      return this.zoom;
    }
    getSource() {
      return undefined;
    }
    getCanvas() {
      return document.createElement('canvas');
    }
    remove() {}
  }
  return { FakeMap };
});

vi.mock('maplibre-gl', () => ({
  Map: fake.FakeMap,
  NavigationControl: class {},
  Popup: class {},
  setWorkerUrl: () => undefined,
}));
vi.mock('maplibre-gl/dist/maplibre-gl-worker.mjs?url', () => ({ default: '/maplibre-worker.js' }));

const point = (guid: string, lng: number, lat: number): MapFeature => ({
  type: 'Feature',
  geometry: { type: 'Point', coordinates: [lng, lat] },
  properties: { id: 1, guid, type: 'vt', userid: 4, title: guid } as MapFeature['properties'],
});

/** The one map the component made. */
function theMap(): InstanceType<typeof fake.FakeMap> {
  const [map, ...others] = fake.FakeMap.made;
  if (!map || others.length > 0) throw new Error(`expected one map, got ${fake.FakeMap.made.length}`);
  return map;
}

/** Where the visitor left the main map. */
const MAIN_MAP_CENTER: [number, number] = [30.3, 59.9];

beforeEach(() => {
  fake.FakeMap.made = [];
  storeCamera(MAIN_MAP_CENTER, 9);
});

describe("the creator page's map", () => {
  it("opens around the creator's tours and leaves the main map's stored position alone", async () => {
    const api = stubApi({
      'GET /v2/user-recomendations/filtered-map': {
        body: { clusters: [], features: [point('paris', 2.35, 48.85), point('berlin', 13.4, 52.52)] },
      },
    });
    renderWithApp(<CreatorToursMap userId={4} />);
    await waitFor(() => expect(fake.FakeMap.made).toHaveLength(1));
    const map = theMap();
    expect(api.callsTo('GET /v2/user-recomendations/filtered-map').map((call) => call.search.get('userid'))).toEqual(['4']);
    expect(map.options.bounds).toEqual([
      [2.35, 48.85],
      [13.4, 52.52],
    ]);
    expect(map.options.center).toBeUndefined();

    map.moveTo(5, 50, 6);
    expect(initialCamera()).toEqual({ center: MAIN_MAP_CENTER, zoom: 9 });
    expect(screen.getByTestId('map-list-toggle')).toBeInTheDocument();
  });

  it('opens on the whole world when the creator has no located tour', async () => {
    stubApi({ 'GET /v2/user-recomendations/filtered-map': { body: { clusters: [], features: [] } } });
    renderWithApp(<CreatorToursMap userId={4} />);
    await waitFor(() => expect(fake.FakeMap.made).toHaveLength(1));
    expect(theMap().options).toMatchObject({ center: [0, 20], zoom: 1 });
    expect(theMap().options.bounds).toBeUndefined();
    expect(await screen.findByTestId('map-hint')).toBeInTheDocument();
  });
});

describe('the main map', () => {
  it('opens where it was left and remembers where it is left', async () => {
    renderWithApp(
      <MapView styleName="streets" clusters={[]} features={[]} loading={false} target={null} place={null} onViewportChange={() => undefined} onShowSpot={() => undefined} />,
    );
    await waitFor(() => expect(fake.FakeMap.made).toHaveLength(1));
    const map = theMap();
    expect(map.options).toMatchObject({ center: MAIN_MAP_CENTER, zoom: 9 });
    map.moveTo(5, 50, 6);
    expect(initialCamera()).toEqual({ center: [5, 50], zoom: 6 });
  });
});
