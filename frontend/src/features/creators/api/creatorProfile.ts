import { queryOptions } from '@tanstack/react-query';

import { client } from '../../../shared/api/generated/client.gen';
import { creatorsIsFollow, creatorsPostShares } from '../../../shared/api/generated/sdk.gen';
import { creatorQueryKeys } from '../../../shared/creators/creatorQueryKeys';
import { type CreatorProfile, isCreatorId } from '../model/creatorProfile';

/** A creator that does not exist (or is not public): the page's "not found" state, not an error. */
export class CreatorNotFound extends Error {
  constructor() {
    super('creator not found');
    this.name = 'CreatorNotFound';
  }
}

async function profileFrom(answer: { data?: unknown; response?: Response }): Promise<CreatorProfile> {
  if (answer.response?.status === 404) throw new CreatorNotFound();
  if (answer.data === undefined || answer.data === null) throw new Error(`creator profile: ${answer.response?.status ?? 'no answer'}`);
  return answer.data as CreatorProfile;
}

const retryUnlessMissing = (failures: number, error: Error) => !(error instanceof CreatorNotFound) && failures < 2;

/** The creator page's profile by id (GET /v2/creators/by-id/{id}). */
export function creatorProfileQueryOptions(creatorId: number) {
  return queryOptions({
    queryKey: creatorQueryKeys.byId(creatorId),
    queryFn: async ({ signal }) => profileFrom(await client.get({ url: '/v2/creators/by-id/{id}', path: { id: creatorId }, signal })),
    retry: retryUnlessMissing,
    staleTime: 60_000,
  });
}

/** The creator page opened by name (GET /v2/creators/creator-by-creator-name/{creatorName}). */
export function creatorProfileByNameQueryOptions(creatorName: string) {
  return queryOptions({
    queryKey: creatorQueryKeys.profileByName(creatorName.toLowerCase()),
    queryFn: async ({ signal }) =>
      profileFrom(await client.get({ url: '/v2/creators/creator-by-creator-name/{creatorName}', path: { creatorName }, signal })),
    retry: retryUnlessMissing,
    staleTime: 60_000,
  });
}

/** The creator page's profile: by id, or by name when the address has a name in the id's place. */
export function creatorPageQueryOptions(idOrName: string) {
  const options = isCreatorId(idOrName) ? creatorProfileQueryOptions(Number(idOrName)) : creatorProfileByNameQueryOptions(idOrName);
  return options as ReturnType<typeof creatorProfileQueryOptions>;
}

/** Whether the signed-in visitor follows the creator (the profile is the same for everyone; this is theirs). */
export function isFollowQueryOptions(creatorId: number, userKey: string, enabled: boolean) {
  return queryOptions({
    queryKey: creatorQueryKeys.isFollow(creatorId, userKey),
    queryFn: async ({ signal }) => (await creatorsIsFollow({ query: { creator_id: creatorId }, signal, throwOnError: true })).data.isFollow,
    enabled,
    staleTime: 60_000,
  });
}

/** POST /v2/creators/post_shares: counted once per share, whatever the channel; a failure is not the visitor's problem. */
export async function recordShare(creatorId: number, channel: string): Promise<void> {
  await creatorsPostShares({ body: { id: creatorId, channel } }).catch(() => undefined);
}
