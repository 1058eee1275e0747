import { fireEvent, screen, waitFor } from '@testing-library/react';

import { closeLanguagePopup, openLanguagePopup } from '../../../shared/i18n/languagePopup';
import { STORAGE_KEYS } from '../../../shared/storage/localStore';
import { renderWithApp } from '../../../testing/render';
import { LanguagePopup } from './LanguagePopup';
import { LanguagePopupHost } from './LanguagePopupHost';

describe('the language popup', () => {
  const languages = Object.getOwnPropertyDescriptor(window.navigator, 'languages');
  afterEach(() => {
    closeLanguagePopup();
    if (languages) Object.defineProperty(window.navigator, 'languages', languages);
    else Reflect.deleteProperty(window.navigator, 'languages');
  });

  it('lists the eleven languages and switches at once', async () => {
    openLanguagePopup();
    renderWithApp(<LanguagePopup />);
    expect(await screen.findByTestId('language-popup-pt')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { pressed: false })).toHaveLength(10);
    fireEvent.click(screen.getByTestId('language-popup-ru'));
    await waitFor(() => expect(localStorage.getItem(STORAGE_KEYS.locale)).toBe('ru'));
    expect(document.documentElement.lang).toBe('ru');
  });

  it('proposes the browser language on a first visit', async () => {
    Object.defineProperty(window.navigator, 'languages', { configurable: true, value: ['ru-RU', 'en'] });
    renderWithApp(<LanguagePopupHost />);
    const suggested = await screen.findByTestId('language-suggested');
    expect(suggested).toHaveTextContent('Продолжить: Русский');
    fireEvent.click(suggested);
    await waitFor(() => expect(localStorage.getItem(STORAGE_KEYS.locale)).toBe('ru'));
  });

  it('remembers English when closed, so it does not ask again', async () => {
    Object.defineProperty(window.navigator, 'languages', { configurable: true, value: ['de-DE'] });
    renderWithApp(<LanguagePopupHost />);
    await screen.findByTestId('language-suggested');
    fireEvent.keyDown(screen.getByTestId('language-suggested'), { key: 'Escape' });
    await waitFor(() => expect(localStorage.getItem(STORAGE_KEYS.locale)).toBe('en'));
  });

  it('stays closed for an English browser', () => {
    Object.defineProperty(window.navigator, 'languages', { configurable: true, value: ['en-US'] });
    renderWithApp(<LanguagePopupHost />);
    expect(screen.queryByTestId('language-popup-en')).not.toBeInTheDocument();
  });
});
