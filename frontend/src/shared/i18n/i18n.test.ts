import { STORAGE_KEYS } from '../storage/localStore';
import { addEnglishTexts, catalogueLoaded, createI18n, storedLanguage } from './i18n';
import { LANGUAGES } from './languages';
import { en } from './locales/en';
import { enAdmin } from './locales/en.admin';
import { enAds } from './locales/en.ads';
import { enMailing } from './locales/en.mailing';
import { enManage } from './locales/en.manage';
import { enSupport } from './locales/en.support';
import { enTags } from './locales/en.tags';
import { ru } from './locales/ru';

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/** Every key path of a catalogue, plural forms folded into their base key. */
function keyPaths(catalogue: object, prefix = ''): Set<string> {
  const keys = new Set<string>();
  for (const [key, value] of Object.entries(catalogue)) {
    const path = `${prefix}${key.replace(PLURAL_SUFFIX, '')}`;
    if (typeof value === 'object' && value !== null) keyPaths(value, `${path}.`).forEach((nested) => keys.add(nested));
    else keys.add(path);
  }
  return keys;
}

describe('i18n', () => {
  it('has a Russian text for every English one', () => {
    expect([...keyPaths(ru)].sort()).toEqual([...keyPaths({ ...en, ...enAdmin, ...enAds, ...enMailing, ...enManage, ...enSupport, ...enTags })].sort());
  });

  it('uses the four Russian plural forms', async () => {
    const i18n = createI18n();
    await i18n.changeLanguage('ru');
    expect(i18n.t('cards.views', { count: 1 })).toBe('1 просмотр');
    expect(i18n.t('cards.views', { count: 3 })).toBe('3 просмотра');
    expect(i18n.t('cards.views', { count: 5 })).toBe('5 просмотров');
    expect(i18n.t('cards.views', { count: 21 })).toBe('21 просмотр');
    expect(i18n.t('cards.followersLabel', { count: 22 })).toBe('подписчика');
    expect(i18n.t('cards.toursLabel', { count: 11 })).toBe('туров');
  });

  it("adds a lazily loaded screen's English texts to instances made before and after", () => {
    const before = createI18n();
    expect(before.t('statistics.title')).toBe('statistics.title'); // not in the feed's bundle
    addEnglishTexts(enAdmin);
    expect(before.t('statistics.title')).toBe(enAdmin.statistics.title);
    expect(createI18n().t('moderation.title')).toBe(enAdmin.moderation.title);
  });

  it('uses the English plural forms', () => {
    const i18n = createI18n();
    expect(i18n.t('cards.views', { count: 1 })).toBe('1 view');
    expect(i18n.t('cards.views', { count: 2 })).toBe('2 views');
  });

  it('remembers the chosen language in localStorage `localise` and starts with it next time', async () => {
    const first = createI18n();
    await first.changeLanguage('ru');
    expect(localStorage.getItem(STORAGE_KEYS.locale)).toBe('ru');
    expect(storedLanguage()).toBe('ru');
    const next = createI18n();
    expect(next.language).toBe('ru');
    await catalogueLoaded(next);
    expect(next.t('common.retry')).toBe('Повторить');
  });

  it('falls back to English for offered languages without a catalogue', async () => {
    const i18n = createI18n();
    await i18n.changeLanguage('de');
    expect(localStorage.getItem(STORAGE_KEYS.locale)).toBe('de');
    expect(i18n.t('common.retry')).toBe('Try again');
  });

  it('ignores a stored language it does not offer', () => {
    localStorage.setItem(STORAGE_KEYS.locale, 'xx');
    expect(storedLanguage()).toBe('en');
  });

  it('offers the ten languages of the spec and Portuguese: eleven', () => {
    expect(LANGUAGES.map((language) => language.code)).toEqual(['en', 'ru', 'de', 'es', 'it', 'fr', 'tr', 'pl', 'uk', 'nl', 'pt']);
  });
});
