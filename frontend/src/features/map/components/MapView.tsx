import 'maplibre-gl/dist/maplibre-gl.css';

import { Map as MapLibreMap, NavigationControl, setWorkerUrl } from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import { useEffect, useRef } from 'react';

import { useUserLocation } from '../../../shared/location/userLocation';
import { mapStyleFor, type MapStyleName } from '../basemap';
import { initialCamera, LOCATION_ZOOM, storeCamera } from '../mapPreferences';
import classes from './MapView.module.css';

// Vite does not emit MapLibre's worker on its own: without this the map never draws.
setWorkerUrl(workerUrl);

/** The MapLibre map, filling its container; remembers where it was left (spec §3 map center, zoom). */
export function MapView({ styleName }: { styleName: MapStyleName }) {
  const container = useRef<HTMLDivElement>(null);
  const map = useRef<MapLibreMap | null>(null);
  const firstStyle = useRef(styleName);
  const userLocation = useUserLocation();
  const lastLocation = useRef(userLocation);

  useEffect(() => {
    if (!container.current) return undefined;
    const instance = new MapLibreMap({
      container: container.current,
      style: mapStyleFor(firstStyle.current),
      ...initialCamera(),
      attributionControl: { compact: true },
      dragRotate: false,
    });
    instance.addControl(new NavigationControl({ showCompass: false }), 'bottom-right');
    instance.on('moveend', () => {
      const { lng, lat } = instance.getCenter();
      storeCamera([lng, lat], instance.getZoom());
    });
    map.current = instance;
    return () => {
      instance.remove();
      map.current = null;
    };
  }, []);

  useEffect(() => {
    if (styleName !== firstStyle.current) map.current?.setStyle(mapStyleFor(styleName));
    firstStyle.current = styleName;
  }, [styleName]);

  // A newly found visitor location (the geolocation button) moves the map there.
  useEffect(() => {
    if (userLocation && userLocation !== lastLocation.current) {
      map.current?.flyTo({ center: userLocation.center, zoom: LOCATION_ZOOM });
    }
    lastLocation.current = userLocation;
  }, [userLocation]);

  return <div ref={container} className={classes.map} data-testid="map-canvas" />;
}
