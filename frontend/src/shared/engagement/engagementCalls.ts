import { creatorsFollow, creatorsUnfollow, engagementPostSaves } from '../api/generated/sdk.gen';
import { ToggleFailure, type ToggleState } from './engagementToggle';

/** The server's explanation of a failed call, for the dialog of spec §8 ("dialog with the server message"). */
export function serverMessage(error: unknown): string | null {
  if (typeof error === 'object' && error !== null) {
    const body = error as { message?: unknown };
    if (typeof body.message === 'string' && body.message) return body.message;
  }
  return null;
}

interface Answer<T> {
  data?: T;
  error?: unknown;
  response?: Response;
}

/** The answer's data, or a ToggleFailure carrying the status and the server's message. */
function dataOf<T>(answer: Answer<T>): T {
  if (answer.data === undefined) {
    throw new ToggleFailure(answer.response?.status ?? null, serverMessage(answer.error));
  }
  return answer.data;
}

/** POST /v2/virtualtours/post_saves {id, saves, isSave}: the answer has the exact count. */
export async function sendSave(guid: string, wanted: ToggleState): Promise<ToggleState> {
  const answer = dataOf(await engagementPostSaves({ body: { id: guid, saves: wanted.count, isSave: wanted.on } }));
  return { on: answer.isSave, count: answer.saves };
}

/** POST (follow) or DELETE (unfollow) /v2/creators/followers (userid, creator_id). */
export async function sendFollow(userId: number, creatorId: number, wanted: ToggleState): Promise<ToggleState> {
  const answer = dataOf(
    wanted.on
      ? await creatorsFollow({ body: { userid: userId, creator_id: creatorId } })
      : await creatorsUnfollow({ query: { creator_id: creatorId } }),
  );
  return { on: answer.isFollow, count: answer.followers };
}
