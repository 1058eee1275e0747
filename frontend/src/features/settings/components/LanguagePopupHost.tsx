import { lazy, useEffect } from 'react';
import { useTranslation } from 'react-i18next';

import { firstVisitLanguageSuggestion, openLanguagePopup, useLanguagePopup } from '../../../shared/i18n/languagePopup';
import { MountWhenOpened } from '../../../shared/ui/MountWhenOpened';

const LanguagePopup = lazy(async () => ({ default: (await import('./LanguagePopup')).LanguagePopup }));

/**
 * Opens the language popup by itself on a first visit when the browser asks for one of our other
 * languages; the popup is fetched when first opened.
 */
export function LanguagePopupHost() {
  const { i18n } = useTranslation();
  const { opened } = useLanguagePopup();
  useEffect(() => {
    const suggestion = firstVisitLanguageSuggestion();
    // The popup speaks the suggested language: its catalogue first (fetched on demand).
    if (suggestion) void i18n.loadLanguages(suggestion).then(() => openLanguagePopup(suggestion));
  }, [i18n]);
  return (
    <MountWhenOpened opened={opened}>
      <LanguagePopup />
    </MountWhenOpened>
  );
}
