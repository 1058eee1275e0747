import { queryOptions, useMutation } from '@tanstack/react-query';

import {
  supportHelpConfig,
  supportPostBugReport,
  supportPostContactSupport,
  supportPostFeatureRequest,
  usersUploadBugImage,
} from '../../../shared/api/generated/sdk.gen';
import type { BugReportBody, ContactSupportBody, FeatureRequestBody } from '../../../shared/api/generated/types.gen';

export const supportQueryKeys = {
  helpConfig: ['support', 'help-config'] as const,
};

/** GET /v2/support/help-config: the known-bugs link and the tutorial videos (server settings). */
export function helpConfigQueryOptions() {
  return queryOptions({
    queryKey: supportQueryKeys.helpConfig,
    queryFn: async ({ signal }) => (await supportHelpConfig({ signal, throwOnError: true })).data,
    staleTime: 10 * 60_000,
  });
}

/** POST /v2/users/bug-image: a screenshot stored before the report that names its path. */
export function useUploadBugImage() {
  return useMutation({
    mutationFn: async (image: File) => (await usersUploadBugImage({ body: { image }, throwOnError: true })).data,
  });
}

export function useSendBugReport() {
  return useMutation({
    mutationFn: async (body: BugReportBody) => (await supportPostBugReport({ body, throwOnError: true })).data,
  });
}

export function useSendFeatureRequest() {
  return useMutation({
    mutationFn: async (body: FeatureRequestBody) => (await supportPostFeatureRequest({ body, throwOnError: true })).data,
  });
}

export function useContactSupport() {
  return useMutation({
    mutationFn: async (body: ContactSupportBody) => (await supportPostContactSupport({ body, throwOnError: true })).data,
  });
}
