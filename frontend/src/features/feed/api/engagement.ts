import { client } from '../../../shared/api/generated/client.gen';

const JSON_HEADERS = { 'Content-Type': 'application/json' };

/**
 * Spec §7 engagement calls made from the cards. Counters are adjusted by one on the client and never
 * drop below 0 (spec §4 "Like and save"); the server holds the truth and answers with a message.
 */
export function adjustedCount(count: number, increase: boolean): number {
  return Math.max(0, count + (increase ? 1 : -1));
}

/** POST /v2/virtualtours/post_saves {id, saves, isSave}: save or unsave a tour. */
export async function postSave(guid: string, saves: number, isSave: boolean): Promise<void> {
  await client.post({ url: '/v2/virtualtours/post_saves', body: { id: guid, saves, isSave }, headers: JSON_HEADERS, throwOnError: true });
}

/** POST / DELETE /v2/creators/followers (userid, creator_id): follow or unfollow a creator. */
export async function setFollow(userId: string, creatorId: number, follow: boolean): Promise<void> {
  const body = { userid: userId, creator_id: creatorId };
  if (follow) await client.post({ url: '/v2/creators/followers', body, headers: JSON_HEADERS, throwOnError: true });
  else await client.delete({ url: '/v2/creators/followers', body, headers: JSON_HEADERS, throwOnError: true });
}

/** The server's explanation of a failed call, for the dialog of spec §8 ("dialog with the server message"). */
export function serverMessage(error: unknown): string | null {
  if (typeof error === 'object' && error !== null) {
    const body = error as { message?: unknown; detail?: unknown };
    if (typeof body.message === 'string' && body.message) return body.message;
    if (typeof body.detail === 'string' && body.detail) return body.detail;
  }
  return null;
}
