import '../i18n/manageTexts'; // this screen's English texts (not in the feed's bundle)
import type { TFunction } from 'i18next';

import { showMessageDialog } from '../ui/messageDialog';
import type { BillingFailure } from './billingApi';

/**
 * Spec §8 Billing: a payment card or validation error shows the provider's (or server's) message;
 * anything else 'An unexpected error occured.' in an Error dialog.
 */
export function showBillingFailure(failure: BillingFailure, t: TFunction): void {
  showMessageDialog({
    title: t('billing.errors.title'),
    message: failure.kind === 'message' ? failure.message : t('billing.errors.unexpected'),
    okLabel: t('common.ok'),
    testId: 'billing-error-dialog',
  });
}
