import { i18n } from '../i18n/i18n';
import { client } from './generated/client.gen';

/**
 * Every call names the interface language (Accept-Language), so the server's own texts, such as a
 * card's "3 days ago", come in the language the visitor chose rather than the browser's.
 */
export function addLanguageHeader(request: Request, language: string = i18n.language): Request {
  if (language && !request.headers.has('Accept-Language')) request.headers.set('Accept-Language', language);
  return request;
}

let installed = false;

export function installLanguageHeader(): void {
  if (installed) return;
  client.interceptors.request.use((request) => addLanguageHeader(request));
  installed = true;
}
