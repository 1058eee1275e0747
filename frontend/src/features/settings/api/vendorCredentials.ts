import { queryOptions } from '@tanstack/react-query';

import {
  vendorsDeleteCredentials,
  vendorsGetCredentials,
  vendorsMatterportType,
  vendorsPostCredentials,
} from '../../../shared/api/generated/sdk.gen';
import type { MatterportTypeOut } from '../../../shared/api/generated/types.gen';
import { vendorQueryKeys } from '../../../shared/vendors/vendorQueryKeys';
import { tokenSaveOutcome, type TokenSaveOutcome, type TokenValues } from '../model/vendorTokens';

/** GET /v2/vendors/credentials: the caller's saved tokens, masked (creators only). */
export function credentialsQueryOptions() {
  return queryOptions({
    queryKey: vendorQueryKeys.credentials,
    queryFn: async ({ signal }) => (await vendorsGetCredentials({ signal, throwOnError: true })).data.data,
    staleTime: 60_000,
  });
}

/** POST /v2/vendors/credentials: checked with Matterport, then stored encrypted; replaces a saved pair. */
export async function saveCredentials(vendor: number | null, values: TokenValues): Promise<TokenSaveOutcome> {
  const { data, error, response } = await vendorsPostCredentials({
    body: { vendor, key: values.key.trim(), secret: values.secret.trim() },
  });
  return tokenSaveOutcome(response?.status, data ?? error);
}

/** DELETE /v2/vendors/credentials: forget the saved pair. */
export async function deleteCredentials(vendor: number): Promise<void> {
  await vendorsDeleteCredentials({ query: { vendor }, throwOnError: true });
}

export type ModelCheck = { kind: 'found'; model: MatterportTypeOut } | { kind: 'refused'; message: string | null };

/** POST /v2/vendors/matterport-type: a model of the connected account, checked with its saved token. */
export async function checkModel(vendorKey: string): Promise<ModelCheck> {
  const { data, error } = await vendorsMatterportType({ body: { vendor_key: vendorKey.trim() } });
  if (data) return { kind: 'found', model: data.data };
  const message = typeof error === 'object' && error !== null && 'message' in error ? String(error.message) : null;
  return { kind: 'refused', message };
}
