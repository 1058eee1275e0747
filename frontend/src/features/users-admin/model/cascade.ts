/** What an account carries into the spec §4 cascade: read from the users list's row. */
export interface CascadeSubject {
  creatorId: number | null;
  tours_count: number;
}

export type CascadeStep =
  | { key: 'account' }
  | { key: 'signedOut' }
  | { key: 'creator' }
  | { key: 'hosts' }
  | { key: 'tours'; count: number }
  | { key: 'toursToDrafts'; count: number };

/**
 * Spec §4: drafting an account drafts the account, its creator profile, its custom hosts and all its
 * tours (and its sessions end); reactivating brings the account and its creator profile back, its
 * custom hosts are approved again and every tour waits in the owner's drafts.
 */
export function cascadeSteps(subject: CascadeSubject, activate: boolean): CascadeStep[] {
  const steps: CascadeStep[] = [{ key: 'account' }];
  if (!activate) steps.push({ key: 'signedOut' });
  if (subject.creatorId !== null) steps.push({ key: 'creator' });
  steps.push({ key: 'hosts' });
  steps.push(activate ? { key: 'toursToDrafts', count: subject.tours_count } : { key: 'tours', count: subject.tours_count });
  return steps;
}
