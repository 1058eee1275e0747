import type { CreateClientConfig } from './generated/client.gen';
import { renewingFetch } from './tokenRenewal';

/** Read by the generated client on creation: calls go to the same origin that served the page. */
export const createClientConfig: CreateClientConfig = (config) => ({
  ...config,
  baseUrl: '',
  fetch: renewingFetch,
});
