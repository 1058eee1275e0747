import { queryOptions } from '@tanstack/react-query';

import { errorMessage, fieldErrors } from '../../../shared/api/apiError';
import { vendorsCreateVendor, vendorsDeleteVendor, vendorsOwnVendors } from '../../../shared/api/generated/sdk.gen';
import type { HostRequestOut } from '../../../shared/api/generated/types.gen';
import { vendorQueryKeys } from '../../../shared/vendors/vendorQueryKeys';
import { hostRequestPayload, type HostRequestValues } from '../model/hostRequest';

/** GET /v2/vendors/own-vendors: every host the user asked for, newest first, with its status. */
export function ownHostsQueryOptions() {
  return queryOptions({
    queryKey: vendorQueryKeys.own,
    queryFn: async ({ signal }) => (await vendorsOwnVendors({ signal, throwOnError: true })).data.data,
    staleTime: 30_000,
  });
}

export type HostRequestOutcome =
  /** 201: filed, waiting for an administrator; 200: an admin's request, created at once. */
  | { kind: 'filed'; pending: boolean; message: string; host: HostRequestOut }
  /** 400 (a field is wrong) or 409 (the name is taken): the server's message and fields. */
  | { kind: 'refused'; message: string | null; fields: Record<string, string> }
  | { kind: 'failed'; message: string | null };

/** POST /v2/vendors/: ask for a custom host of one's own. */
export async function requestHost(values: HostRequestValues): Promise<HostRequestOutcome> {
  const { data, error, response } = await vendorsCreateVendor({ body: hostRequestPayload(values) });
  const status = response?.status;
  if (data) return { kind: 'filed', pending: status === 201, message: data.message, host: data.data };
  const message = errorMessage(error, '') || null;
  if (status === 400 || status === 409) return { kind: 'refused', message, fields: fieldErrors(error) };
  return { kind: 'failed', message };
}

/** DELETE /v2/vendors/?vendor_id=: withdraw a request, or delete one's own host (409 while tours are on it). */
export async function deleteHost(vendorId: number): Promise<{ ok: true } | { ok: false; message: string | null }> {
  const { error } = await vendorsDeleteVendor({ query: { vendor_id: vendorId } });
  if (error === undefined) return { ok: true };
  return { ok: false, message: errorMessage(error, '') || null };
}
