import { createStore } from '../lib/store';
import { readItem, STORAGE_KEYS } from '../storage/localStore';
import { DEFAULT_LANGUAGE, isLanguageCode, type LanguageCode } from './languages';

/**
 * The language the browser asks for, when it is one we offer and not the default: on a first visit
 * (nothing in `localise` yet) the language popup proposes it. Visitors whose browser asks for English,
 * or for a language we do not offer, start in English without a popup.
 */
export function firstVisitLanguageSuggestion(
  browserLanguages: readonly string[] = typeof navigator === 'undefined' ? [] : navigator.languages,
): LanguageCode | null {
  if (readItem(STORAGE_KEYS.locale) !== null) return null;
  for (const tag of browserLanguages) {
    const primary = tag.toLowerCase().split('-')[0];
    if (isLanguageCode(primary)) return primary === DEFAULT_LANGUAGE ? null : primary;
  }
  return null;
}

export interface LanguagePopupState {
  opened: boolean;
  /** The language proposed first (the browser's), if any. */
  suggested: LanguageCode | null;
}

const popup = createStore<LanguagePopupState>({ opened: false, suggested: null });

/** Open the language selection popup (spec §2), from a menu or on a first visit. */
export function openLanguagePopup(suggested: LanguageCode | null = null): void {
  popup.set({ opened: true, suggested });
}

export function closeLanguagePopup(): void {
  popup.set({ opened: false, suggested: null });
}

export function useLanguagePopup(): LanguagePopupState {
  return popup.useStore();
}
