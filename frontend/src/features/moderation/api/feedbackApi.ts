import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

import { supportListBugReports, supportListFeatureRequests, supportPutBugReport, supportPutFeatureRequest } from '../../../shared/api/generated/sdk.gen';
import type { BugReportOut, BugReportStatus, FeatureRequestOut, FeatureRequestStatus } from '../../../shared/api/generated/types.gen';

export const FEEDBACK_PAGE_SIZE = 20;
export const BUG_STATUSES: readonly BugReportStatus[] = ['open', 'in_progress', 'fixed', 'closed'];
export const FEATURE_STATUSES: readonly FeatureRequestStatus[] = ['open', 'planned', 'done', 'declined'];

export type BugReport = BugReportOut;
export type FeatureRequest = FeatureRequestOut;

const feedbackKeys = {
  all: ['moderation', 'feedback'] as const,
  bugs: (offset: number) => ['moderation', 'feedback', 'bugs', offset] as const,
  features: (offset: number) => ['moderation', 'feedback', 'features', offset] as const,
};

/** GET /v2/support/bug-report: every report (an admin's view), newest first. */
export function bugReportsQueryOptions(offset: number) {
  return queryOptions({
    queryKey: feedbackKeys.bugs(offset),
    queryFn: async ({ signal }) =>
      (await supportListBugReports({ query: { limit: FEEDBACK_PAGE_SIZE, offset }, signal, throwOnError: true })).data,
    placeholderData: keepPreviousData,
  });
}

export function featureRequestsQueryOptions(offset: number) {
  return queryOptions({
    queryKey: feedbackKeys.features(offset),
    queryFn: async ({ signal }) =>
      (await supportListFeatureRequests({ query: { limit: FEEDBACK_PAGE_SIZE, offset }, signal, throwOnError: true })).data,
    placeholderData: keepPreviousData,
  });
}

export function useSetBugStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (change: { id: number; status: BugReportStatus }) =>
      (await supportPutBugReport({ body: change, throwOnError: true })).data.data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: feedbackKeys.all }),
  });
}

export function useSetFeatureStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (change: { id: number; status: FeatureRequestStatus }) =>
      (await supportPutFeatureRequest({ body: change, throwOnError: true })).data.data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: feedbackKeys.all }),
  });
}
