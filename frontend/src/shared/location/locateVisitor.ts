import { locationsUserLocationByCoords } from '../api/generated/sdk.gen';
import { readUserLocation, storeUserLocation, type UserLocation } from './userLocation';

const POSITION_OPTIONS: PositionOptions = { timeout: 10_000, maximumAge: 10 * 60_000 };

export class LocationUnavailableError extends Error {
  constructor() {
    super('The browser could not tell where the visitor is');
  }
}

function browserPosition(): Promise<[number, number]> {
  return new Promise((resolve, reject) => {
    if (!('geolocation' in navigator)) {
      reject(new LocationUnavailableError());
      return;
    }
    navigator.geolocation.getCurrentPosition(
      (position) => resolve([position.coords.longitude, position.coords.latitude]),
      () => reject(new LocationUnavailableError()),
      POSITION_OPTIONS,
    );
  });
}

/** The place name around a point (spec §7 user-location-by-coords); without an answer, just the point. */
async function describe(center: [number, number]): Promise<UserLocation> {
  try {
    const answer = await locationsUserLocationByCoords({ query: { coordinates: `${center[0]},${center[1]}` }, throwOnError: true });
    const bbox = answer.data.bbox?.length === 4 ? (answer.data.bbox as [number, number, number, number]) : null;
    return { center, bbox, text: answer.data.text };
  } catch {
    return { center, bbox: null, text: null };
  }
}

/**
 * Where the visitor is (spec §2 geolocation button): the stored `user_location` when there is one,
 * otherwise the browser's position, named by the server and stored for next time.
 */
export async function locateVisitor(): Promise<UserLocation> {
  const stored = readUserLocation();
  if (stored) return stored;
  const location = await describe(await browserPosition());
  storeUserLocation(location);
  return location;
}
