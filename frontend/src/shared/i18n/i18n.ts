import i18next, { type BackendModule, type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';

import { readItem, STORAGE_KEYS, writeItem } from '../storage/localStore';
import { DEFAULT_LANGUAGE, isLanguageCode, LANGUAGES, type LanguageCode } from './languages';
import { type Catalogue, en } from './locales/en';

/**
 * English is bundled (the default and every language's fallback); other catalogues are fetched when
 * their language is first used, so the feed does not carry texts most visitors never read. Languages
 * without a catalogue load nothing and show English.
 */
const LAZY_CATALOGUES: Partial<Record<LanguageCode, () => Promise<Catalogue>>> = {
  ru: async () => (await import('./locales/ru')).ru,
};

const lazyCatalogues: BackendModule = {
  type: 'backend',
  callbackApi: true,
  init: () => undefined,
  read(language, _namespace, callback) {
    const load = isLanguageCode(language) ? LAZY_CATALOGUES[language] : undefined;
    if (!load) {
      callback(null, {});
      return;
    }
    load().then(
      (catalogue) => callback(null, catalogue),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

/** The stored choice (localStorage `localise`, spec §3) if it is one we offer, else English. */
export function storedLanguage(): LanguageCode {
  const stored = readItem(STORAGE_KEYS.locale);
  return isLanguageCode(stored) ? stored : DEFAULT_LANGUAGE;
}

function rememberLanguage(language: string): void {
  if (isLanguageCode(language)) writeItem(STORAGE_KEYS.locale, language);
  document.documentElement.lang = language;
}

export function createI18n(): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).use(lazyCatalogues).init({
    resources: { en: { translation: en } },
    partialBundledLanguages: true, // English is in `resources`, the others come from lazyCatalogues
    lng: storedLanguage(),
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: LANGUAGES.map((language) => language.code),
    interpolation: { escapeValue: false }, // React escapes already
    initAsync: false, // English is bundled: an English first render need not wait
  });
  instance.on('languageChanged', rememberLanguage);
  document.documentElement.lang = instance.language;
  return instance;
}

/**
 * Resolves once the current language's catalogue is in (at once for English). The app renders after
 * it, so a Russian reader never sees English texts flash first; `changeLanguage` waits by itself.
 */
export function catalogueLoaded(instance: I18n): Promise<void> {
  return instance.loadLanguages(instance.language);
}

export const i18n = createI18n();
