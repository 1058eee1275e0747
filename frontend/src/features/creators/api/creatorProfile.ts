import { queryOptions } from '@tanstack/react-query';

import { creatorsCreatorById, creatorsCreatorByName, creatorsPostShares } from '../../../shared/api/generated/sdk.gen';
import { creatorQueryKeys } from '../../../shared/creators/creatorQueryKeys';
import { type CreatorProfile, isCreatorId } from '../model/creatorProfile';

/** A creator that does not exist (or is not public): the page's "not found" state, not an error. */
export class CreatorNotFound extends Error {
  constructor() {
    super('creator not found');
    this.name = 'CreatorNotFound';
  }
}

function profileFrom(answer: { data?: { data: CreatorProfile }; response?: Response }): CreatorProfile {
  if (answer.response?.status === 404) throw new CreatorNotFound();
  if (!answer.data) throw new Error(`creator profile: ${answer.response?.status ?? 'no answer'}`);
  return answer.data.data;
}

const retryUnlessMissing = (failures: number, error: Error) => !(error instanceof CreatorNotFound) && failures < 2;

/**
 * The creator page's profile: by id (GET /v2/creators/by-id/{id}), or by name when the address has a
 * name in the id's place (GET creator-by-creator-name/{creatorName}: the platform username, else the
 * creator name). The answer carries the viewer's own is_follow, so the viewer is in the key.
 */
export function creatorPageQueryOptions(idOrName: string, viewer: string) {
  const byId = isCreatorId(idOrName);
  return queryOptions({
    queryKey: [
      ...(byId ? creatorQueryKeys.byId(Number(idOrName)) : creatorQueryKeys.profileByName(idOrName.toLowerCase())),
      viewer,
    ] as readonly unknown[],
    queryFn: async ({ signal }) =>
      profileFrom(
        byId
          ? await creatorsCreatorById({ path: { id: Number(idOrName) }, signal })
          : await creatorsCreatorByName({ path: { creatorName: idOrName }, signal }),
      ),
    retry: retryUnlessMissing,
    staleTime: 60_000,
  });
}

/** POST /v2/creators/post_shares: counted once per share, whatever the channel; a failure is not the visitor's problem. */
export async function recordShare(creatorId: number, channel: string): Promise<void> {
  await creatorsPostShares({ body: { id: creatorId, channel } }).catch(() => undefined);
}
