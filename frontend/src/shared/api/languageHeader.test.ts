import { addLanguageHeader } from './languageHeader';

describe('the language header', () => {
  it('names the interface language on every call', () => {
    const request = addLanguageHeader(new Request('http://touratlas.test/v2/user-recomendations/filtered-grid'), 'ru');
    expect(request.headers.get('Accept-Language')).toBe('ru');
  });

  it('leaves a language the caller set alone', () => {
    const request = new Request('http://touratlas.test/v2/x', { headers: { 'Accept-Language': 'en' } });
    expect(addLanguageHeader(request, 'ru').headers.get('Accept-Language')).toBe('en');
  });
});
