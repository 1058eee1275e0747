import { fireEvent, screen, waitFor } from '@testing-library/react';

import { closeCookiePreferences, openCookiePreferences, readCookieConsent, saveCookieConsent } from '../../../shared/consent/cookieConsent';
import { closeLanguagePopup, openLanguagePopup } from '../../../shared/i18n/languagePopup';
import { readSearchHistory, rememberSearch } from '../../../shared/search/searchHistory';
import { renderWithApp } from '../../../testing/render';
import { CookieConsent } from './CookieConsent';

describe('cookie consent', () => {
  afterEach(() => {
    closeCookiePreferences();
    closeLanguagePopup();
  });

  it('asks until the visitor accepts, then stays quiet', async () => {
    renderWithApp(<CookieConsent />);
    const banner = screen.getByTestId('cookie-banner');
    expect(banner).toHaveAccessibleName('Cookies on TourAtlas');
    // Keyboard users reach every choice: they are real buttons in the tab order.
    for (const id of ['cookie-preferences', 'cookie-necessary', 'cookie-accept']) {
      expect(screen.getByTestId(id).tagName).toBe('BUTTON');
      expect(screen.getByTestId(id)).not.toHaveAttribute('tabindex', '-1');
    }
    fireEvent.click(screen.getByTestId('cookie-accept'));
    await waitFor(() => expect(screen.queryByTestId('cookie-banner')).not.toBeInTheDocument());
    expect(readCookieConsent()?.preferences).toBe(true);
  });

  it('"necessary only" turns the search-history cookie off and removes it', async () => {
    rememberSearch('Louvre');
    renderWithApp(<CookieConsent />);
    fireEvent.click(screen.getByTestId('cookie-necessary'));
    await waitFor(() => expect(screen.queryByTestId('cookie-banner')).not.toBeInTheDocument());
    expect(readCookieConsent()?.preferences).toBe(false);
    expect(readSearchHistory()).toEqual([]);
  });

  it('lets the choice be changed later in the preferences', async () => {
    saveCookieConsent({ preferences: true });
    renderWithApp(<CookieConsent />);
    expect(screen.queryByTestId('cookie-banner')).not.toBeInTheDocument();
    openCookiePreferences();
    const toggle = await screen.findByRole('switch', { name: /Preferences/ });
    expect(toggle).toBeChecked();
    fireEvent.click(toggle);
    fireEvent.click(screen.getByTestId('cookie-save'));
    await waitFor(() => expect(readCookieConsent()?.preferences).toBe(false));
  });

  it('waits while the language popup is open', () => {
    openLanguagePopup('ru');
    renderWithApp(<CookieConsent />);
    expect(screen.queryByTestId('cookie-banner')).not.toBeInTheDocument();
  });
});
