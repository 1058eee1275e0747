import { saveCookieConsent } from '../../../shared/consent/cookieConsent';
import { clearSearchHistory } from '../../../shared/search/searchHistory';

/** Store the choice; turning preference cookies off also removes the one already written. */
export function decide(preferences: boolean): void {
  saveCookieConsent({ preferences });
  if (!preferences) clearSearchHistory();
}
