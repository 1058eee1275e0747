import { createStore } from '../lib/store';

/**
 * Spec §4: "Admin deleting or deactivating media opens an e-mail screen". The screens where an admin
 * does that (manage media) ask for it here; the moderation feature draws the screen once.
 */
export interface OwnerMailRequest {
  userid: number;
  /** The owner's platform username, when known. */
  username: string | null;
  /** The titles of the media the admin acted on. */
  titles: readonly string[];
  action: 'deleted' | 'deactivated';
}

const request = createStore<OwnerMailRequest | null>(null);

export function openOwnerMail(next: OwnerMailRequest): void {
  request.set(next);
}

export function closeOwnerMail(): void {
  request.set(null);
}

export function useOwnerMailRequest(): OwnerMailRequest | null {
  return request.useStore();
}
