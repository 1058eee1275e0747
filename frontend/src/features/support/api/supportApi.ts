import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

import {
  supportHelpConfig,
  supportPostBugReport,
  supportPostContactSupport,
  supportPostFeatureRequest,
  usersGetOwnBetaAnswers,
  usersPostBetaTester,
  usersUploadBugImage,
} from '../../../shared/api/generated/sdk.gen';
import type { BetaTesterAnswers, BugReportBody, ContactSupportBody, FeatureRequestBody } from '../../../shared/api/generated/types.gen';

export const supportQueryKeys = {
  helpConfig: ['support', 'help-config'] as const,
  /** The signed-in account's own questionnaire answers (per account: a sign-out clears the cache anyway). */
  betaAnswers: (userId: string) => ['support', 'beta-answers', userId] as const,
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

/** GET /v2/users/beta-tester: the caller's questionnaire answers, null before the first (the form is prefilled with them). */
export function ownBetaAnswersQueryOptions(userId: string) {
  return queryOptions({
    queryKey: supportQueryKeys.betaAnswers(userId),
    queryFn: async ({ signal }) => (await usersGetOwnBetaAnswers({ signal, throwOnError: true })).data.data,
  });
}

/** POST /v2/users/beta-tester: answering again replaces the earlier answers, so the cached ones are replaced too. */
export function useSendBetaAnswers(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: BetaTesterAnswers) => (await usersPostBetaTester({ body, throwOnError: true })).data,
    onSuccess: (saved) => queryClient.setQueryData(supportQueryKeys.betaAnswers(userId), saved.data),
  });
}
