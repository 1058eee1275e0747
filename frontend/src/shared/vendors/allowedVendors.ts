import { queryOptions } from '@tanstack/react-query';

import { vendorsAllowedVendors } from '../api/generated/sdk.gen';
import { DICTIONARY_STALE_MS } from '../dictionaries/queries';
import { vendorQueryKeys } from './vendorQueryKeys';

/**
 * GET /v2/vendors/allowed-vendors: the hosts the signed-in user may choose in the media form: the
 * public ones, then the user's own custom hosts (approved, or still waiting: `status`). A host
 * request or a deletion invalidates it (vendorQueryKeys.all).
 */
export function allowedVendorsQueryOptions() {
  return queryOptions({
    queryKey: vendorQueryKeys.allowed,
    queryFn: async ({ signal }) => (await vendorsAllowedVendors({ signal, throwOnError: true })).data.data,
    staleTime: DICTIONARY_STALE_MS,
  });
}
