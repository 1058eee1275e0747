import 'driver.js/dist/driver.css';
import './PreviewGuide.css';

import { type Config, driver, type Driver } from 'driver.js';

/**
 * driver.js with its stylesheets: fetched by PreviewGuide only when the tour is about to start
 * (a guest's first visit, after the cookie choice), never with the feed itself.
 */
export function startPreviewTour(config: Config): Driver {
  const tour = driver(config);
  tour.drive();
  return tour;
}
