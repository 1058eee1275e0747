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

/**
 * English texts that lazily loaded screens bring with them (addEnglishTexts), and every instance made,
 * so a part registered after an instance exists still reaches it.
 */
const laterEnglishParts: Partial<Catalogue>[] = [];
const instances: I18n[] = [];

/**
 * Adds a lazily loaded screen's English texts (en.admin.ts) to every catalogue instance, present and
 * future. Call it when the screen's module loads, before it draws; adding the same part twice is harmless.
 */
export function addEnglishTexts(part: Partial<Catalogue>): void {
  if (laterEnglishParts.includes(part)) return;
  laterEnglishParts.push(part);
  for (const instance of instances) instance.addResourceBundle('en', 'translation', part, true, true);
}

export function createI18n(): I18n {
  const instance = i18next.createInstance();
  const english = Object.assign({}, en, ...laterEnglishParts) as Partial<Catalogue>;
  void instance.use(initReactI18next).use(lazyCatalogues).init({
    resources: { en: { translation: english } },
    partialBundledLanguages: true, // English is in `resources`, the others come from lazyCatalogues
    lng: storedLanguage(),
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: LANGUAGES.map((language) => language.code),
    interpolation: { escapeValue: false }, // React escapes already
    initAsync: false, // English is bundled: an English first render need not wait
  });
  instance.on('languageChanged', rememberLanguage);
  document.documentElement.lang = instance.language;
  instances.push(instance);
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
