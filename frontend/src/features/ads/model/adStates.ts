import type { AdOut } from '../../../shared/api/generated/types.gen';

/** What Manage Ads says of an ad's state; several may apply (a draft waiting for approval). */
export type AdStateName = 'published' | 'draft' | 'pending' | 'rejected' | 'editPending';

/**
 * Published means served (active and approved); an active ad that is not approved says only why
 * (pending or rejected), since it is not shown either way. An approved ad with a waiting edit stays
 * published with its old version, and says so.
 */
export function adStates(ad: Pick<AdOut, 'status' | 'approval_state' | 'edit_pending'>): AdStateName[] {
  const states: AdStateName[] = [];
  if (ad.status === 'draft') states.push('draft');
  else if (ad.approval_state === 'approved') states.push('published');
  if (ad.approval_state === 'pending') states.push('pending');
  if (ad.approval_state === 'rejected') states.push('rejected');
  if (ad.edit_pending) states.push('editPending');
  return states;
}
