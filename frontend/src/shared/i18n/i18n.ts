import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';

import { readItem, STORAGE_KEYS, writeItem } from '../storage/localStore';
import { DEFAULT_LANGUAGE, isLanguageCode, LANGUAGES, type LanguageCode } from './languages';
import { en } from './locales/en';
import { ru } from './locales/ru';

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
  void instance.use(initReactI18next).init({
    resources: { en: { translation: en }, ru: { translation: ru } },
    lng: storedLanguage(),
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: LANGUAGES.map((language) => language.code),
    interpolation: { escapeValue: false }, // React escapes already
    initAsync: false, // resources are bundled: the first render is already translated
  });
  instance.on('languageChanged', rememberLanguage);
  document.documentElement.lang = instance.language;
  return instance;
}

export const i18n = createI18n();
