import { getBearerToken } from '../auth/session';
import { client } from './generated/client.gen';

/** Every call carries `Authorization: Bearer <access token, else guest token>` (spec §7). */
export function addBearerToken(request: Request): Request {
  const token = getBearerToken();
  if (token !== null && !request.headers.has('Authorization')) {
    request.headers.set('Authorization', `Bearer ${token}`);
  }
  return request;
}

let installed = false;

export function installAuthInterceptor(): void {
  if (installed) return;
  client.interceptors.request.use(addBearerToken);
  installed = true;
}
