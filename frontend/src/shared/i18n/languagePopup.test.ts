import { STORAGE_KEYS } from '../storage/localStore';
import { firstVisitLanguageSuggestion } from './languagePopup';

describe('first-visit language suggestion', () => {
  it('proposes the browser language when we offer it and it is not English', () => {
    expect(firstVisitLanguageSuggestion(['ru-RU', 'en'])).toBe('ru');
    expect(firstVisitLanguageSuggestion(['pt-BR'])).toBe('pt');
    expect(firstVisitLanguageSuggestion(['ja', 'de-AT'])).toBe('de');
  });

  it('proposes nothing for English browsers or languages we do not offer', () => {
    expect(firstVisitLanguageSuggestion(['en-GB', 'ru'])).toBeNull();
    expect(firstVisitLanguageSuggestion(['ja', 'zh'])).toBeNull();
    expect(firstVisitLanguageSuggestion([])).toBeNull();
  });

  it('proposes nothing once a language was chosen', () => {
    localStorage.setItem(STORAGE_KEYS.locale, 'en');
    expect(firstVisitLanguageSuggestion(['ru-RU'])).toBeNull();
  });
});
