import 'maplibre-gl/dist/maplibre-gl.css';

import { useQuery } from '@tanstack/react-query';
import { Map as MapLibreMap, Marker, NavigationControl, setWorkerUrl } from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import { useEffect, useRef, useState } from 'react';

import { basemapQueryOptions, DEFAULT_MAP_STYLE, mapStyleFor, provideBasemapImage, styleOnOffer } from '../../../shared/map/basemap';
import classes from './MediaForm.module.css';

// Vite does not emit MapLibre's worker on its own: without this the map never draws.
setWorkerUrl(workerUrl);

/** Spec §9: a map centred on coordinates opens at zoom 14; with nothing to centre on, the world. */
const PLACE_ZOOM = 14;
const WORLD_ZOOM = 1.3;

export interface LngLat {
  lng: number;
  lat: number;
}

interface PinMapProps {
  /** Where to look: a searched place or the looked-up address. Changing it flies there. */
  focus: LngLat | null;
  pin: LngLat | null;
  onPick: (point: LngLat) => void;
  label: string;
}

/** The pin-location picker's map: a click drops the marker (spec §2 map search screen). */
export function PinMap({ focus, pin, onPick, label }: PinMapProps) {
  const container = useRef<HTMLDivElement>(null);
  const [map, setMap] = useState<MapLibreMap | null>(null);
  const [ready, setReady] = useState(false);
  const marker = useRef<Marker | null>(null);
  const onPickRef = useRef(onPick);
  onPickRef.current = onPick;
  // The map is made once, where the picker opened, when the server has said what the basemap is;
  // later focus changes fly there (below).
  const openingFocus = useRef(focus);
  const basemap = useQuery(basemapQueryOptions());
  const basemapSettled = !basemap.isPending;
  const basemapInfo = useRef(basemap.data);
  basemapInfo.current = basemap.data;

  useEffect(() => {
    if (!container.current || !basemapSettled) return undefined;
    const focus = openingFocus.current;
    const instance = new MapLibreMap({
      container: container.current,
      style: mapStyleFor(basemapInfo.current, styleOnOffer(basemapInfo.current, DEFAULT_MAP_STYLE)),
      center: focus ? [focus.lng, focus.lat] : [10, 30],
      zoom: focus ? PLACE_ZOOM : WORLD_ZOOM,
      attributionControl: { compact: true },
      dragRotate: false,
    });
    instance.addControl(new NavigationControl({ showCompass: false }), 'top-right');
    instance.setMissingStyleImageResolver((imageId) => {
      provideBasemapImage(instance, imageId);
    });
    instance.getCanvas().style.cursor = 'crosshair';
    instance.on('click', (event) => onPickRef.current({ lng: event.lngLat.lng, lat: event.lngLat.lat }));
    instance.once('idle', () => setReady(true));
    setMap(instance);
    return () => {
      instance.remove();
      setMap(null);
    };
  }, [basemapSettled]);

  useEffect(() => {
    if (map && focus) map.flyTo({ center: [focus.lng, focus.lat], zoom: Math.max(map.getZoom(), PLACE_ZOOM - 4), essential: true });
  }, [map, focus]);

  useEffect(() => {
    if (!map) return;
    if (!pin) {
      marker.current?.remove();
      marker.current = null;
      return;
    }
    marker.current ??= new Marker({ color: '#e8590c' }).setLngLat([pin.lng, pin.lat]).addTo(map);
    marker.current.setLngLat([pin.lng, pin.lat]);
  }, [map, pin]);

  return (
    <div
      ref={container}
      className={classes.pinMap}
      role="application"
      aria-label={label}
      data-testid="pin-map"
      data-ready={ready || undefined}
      data-pin={pin ? `${pin.lat.toFixed(5)},${pin.lng.toFixed(5)}` : undefined}
    />
  );
}
