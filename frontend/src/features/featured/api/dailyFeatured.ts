import { queryOptions } from '@tanstack/react-query';

import { errorMessage, fieldErrors } from '../../../shared/api/apiError';
import { toursSendTourToday, toursTourCounts, toursUserTours } from '../../../shared/api/generated/sdk.gen';
import { tourQueryKeys } from '../../../shared/tours/tourQueryKeys';
import { submissionPayload, type SubmissionValues } from '../model/dailyFeatured';

/** GET counts/{user_id}: how many of the creator's tours are listed (`active`). */
export function tourCountsQueryOptions(userId: number) {
  return queryOptions({
    queryKey: [...tourQueryKeys.all, 'counts', userId] as const,
    queryFn: async ({ signal }) => (await toursTourCounts({ path: { user_id: userId }, signal, throwOnError: true })).data,
    staleTime: 5 * 60_000,
  });
}

/** The tours a creator may submit: their listed ones, newest first (GET user/{userid}, status active). */
export function listedToursQueryOptions(userId: number) {
  return queryOptions({
    queryKey: [...tourQueryKeys.userTours(userId), 'listed-for-daily'] as const,
    queryFn: async ({ signal }) =>
      (await toursUserTours({ path: { userid: userId }, query: { status: 'active', sort: 'date', order: 'desc', limit: 200 }, signal, throwOnError: true })).data.data,
    staleTime: 60_000,
  });
}

export type SubmissionOutcome =
  | { kind: 'submitted'; message: string }
  /** 409: already submitted today (here or on another device). */
  | { kind: 'already'; message: string | null }
  | { kind: 'refused'; message: string | null; fields: Record<string, string> }
  | { kind: 'failed'; message: string | null };

/** POST send-tour-today. */
export async function submitTourToday(values: SubmissionValues): Promise<SubmissionOutcome> {
  const { data, error, response } = await toursSendTourToday({ body: submissionPayload(values) });
  if (data) return { kind: 'submitted', message: data.message };
  const status = response?.status;
  const message = errorMessage(error, '') || null;
  if (status === 409) return { kind: 'already', message };
  if (status === 400 || status === 403 || status === 404) return { kind: 'refused', message, fields: fieldErrors(error) };
  return { kind: 'failed', message };
}
