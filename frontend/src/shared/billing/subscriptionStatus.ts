import '../i18n/manageTexts'; // this screen's English texts (not in the feed's bundle)
import type { SubscriptionOut } from '../api/generated/types.gen';

/** The i18n key of a subscription's status as spec §4 shows it: active, Inactive, incomplete, ended; a trial 'Free Trial'. */
export type StatusKey =
  | 'billing.status.active'
  | 'billing.status.inactive'
  | 'billing.status.incomplete'
  | 'billing.status.ended'
  | 'billing.status.trial'
  | 'billing.status.error';

export function statusKey(subscription: Pick<SubscriptionOut, 'status' | 'is_trial'>): StatusKey {
  if (subscription.is_trial && subscription.status === 'trialing') return 'billing.status.trial';
  switch (subscription.status) {
    case 'active':
      return 'billing.status.active';
    case 'incomplete':
      return 'billing.status.incomplete';
    case 'ended':
      return 'billing.status.ended';
    case 'error':
      return 'billing.status.error';
    default:
      return 'billing.status.inactive';
  }
}
