import { queryOptions } from '@tanstack/react-query';

import {
  creatorsCreateCreator,
  creatorsCreatorMessage,
  creatorsEditCreator,
  creatorsUploadCreatorLogo,
  toursUserTours,
} from '../../../shared/api/generated/sdk.gen';
import type { CreatorMessageBody, CreatorWrite } from '../../../shared/api/generated/types.gen';
import { creatorQueryKeys } from '../../../shared/creators/creatorQueryKeys';

export interface SaveAnswer {
  status: number;
  body: unknown;
}

/**
 * Become a creator (POST /v2/creators/) or edit the profile (PUT): the status says what happened
 * (200 applied, 201 waits for approval, 409/400 the server's message), so the caller reads both.
 */
export async function saveCreator(mode: 'create' | 'edit', payload: CreatorWrite): Promise<SaveAnswer> {
  const answer = mode === 'create' ? await creatorsCreateCreator({ body: payload }) : await creatorsEditCreator({ body: payload });
  if (!answer.response) throw answer.error instanceof Error ? answer.error : new Error('No answer from the server');
  return { status: answer.response.status, body: answer.data ?? answer.error };
}

/** POST creator-logo: the served path of the stored logo, or the server's reason (wrong kind, too large). */
export async function uploadCreatorLogo(file: File): Promise<string> {
  const answer = await creatorsUploadCreatorLogo({ body: { image: file } });
  if (answer.data) return answer.data.path;
  const message = (answer.error as { message?: unknown } | undefined)?.message;
  throw new Error(typeof message === 'string' && message ? message : 'upload failed');
}

export interface OwnTour {
  guid: string;
  title: string;
}

const OWN_TOURS_LIMIT = 200;

/** The user's own tours (any state), the choice of featured tours (spec §6: a creator's own, up to 10). */
export function ownToursQueryOptions(userId: number) {
  return queryOptions({
    queryKey: creatorQueryKeys.ownTours(userId),
    queryFn: async ({ signal }): Promise<OwnTour[]> => {
      const { data } = await toursUserTours({
        path: { userid: userId },
        query: { status: 'all', limit: OWN_TOURS_LIMIT, offset: 0 },
        signal,
        throwOnError: true,
      });
      return data.data.map((tour) => ({ guid: tour.guid, title: tour.title }));
    },
    staleTime: 60_000,
  });
}

/** POST creator-message (the contact form): the server's message on success, or its reasons. */
export async function sendCreatorMessage(body: CreatorMessageBody): Promise<SaveAnswer> {
  const answer = await creatorsCreatorMessage({ body });
  if (!answer.response) throw answer.error instanceof Error ? answer.error : new Error('No answer from the server');
  return { status: answer.response.status, body: answer.data ?? answer.error };
}
