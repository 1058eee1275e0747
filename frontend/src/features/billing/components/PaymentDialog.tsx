import '../../../shared/i18n/manageTexts'; // this screen's English texts (not in the feed's bundle)
import { Alert, Button, Group, Loader, Modal, Stack, Tabs, Text } from '@mantine/core';
import { Elements, ExpressCheckoutElement, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Stripe, StripeError } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import { IconAlertTriangle, IconCreditCard, IconDeviceMobile } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { CreatedSubscriptionOut } from '../../../shared/api/generated/types.gen';
import { showBillingFailure } from '../../../shared/billing/billingErrors';
import { useIsMobile } from '../../../shared/layout/breakpoints';
import { paths } from '../../../shared/routing/paths';

interface PaymentDialogProps {
  subscription: CreatedSubscriptionOut;
  publishableKey: string;
  onClose: () => void;
}

// Stripe's script is fetched from js.stripe.com only here (the `pure` entry does not add it on import).
const stripes = new Map<string, Promise<Stripe | null>>();
function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let stripe = stripes.get(publishableKey);
  if (!stripe) {
    stripe = loadStripe(publishableKey);
    stripes.set(publishableKey, stripe);
  }
  return stripe;
}

/**
 * The payment form (spec §9 payment methods): a card tab and a mobile-wallet tab with Stripe
 * Elements, confirming the subscription's first payment; Stripe returns to /billing/success.
 */
export function PaymentDialog({ subscription, publishableKey, onClose }: PaymentDialogProps) {
  const { t, i18n } = useTranslation();
  const mobile = useIsMobile();
  const [stripe, setStripe] = useState<Promise<Stripe | null> | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);

  useEffect(() => {
    if (!publishableKey) return;
    const loading = stripeFor(publishableKey);
    loading.catch(() => setLoadFailed(true));
    setStripe(loading);
  }, [publishableKey]);

  const clientSecret = subscription.client_secret ?? '';
  return (
    <Modal opened onClose={onClose} title={t('billing.payment.title', { plan: subscription.plan_name })} centered radius="lg" fullScreen={mobile} size="lg" data-testid="payment-dialog">
      {loadFailed || !publishableKey || !clientSecret ? (
        <Alert color="red" variant="light" radius="md" icon={<IconAlertTriangle size={20} />} title={t('billing.payment.unavailableTitle')}>
          {t('billing.payment.unavailable')}
        </Alert>
      ) : stripe === null ? (
        <Group justify="center" p="lg">
          <Loader size="sm" aria-label={t('page.loading')} />
        </Group>
      ) : (
        <Elements stripe={stripe} options={{ clientSecret, locale: i18n.language === 'ru' ? 'ru' : 'en', appearance: { theme: 'stripe' } }}>
          <PaymentTabs intentType={subscription.intent_type ?? 'payment'} />
        </Elements>
      )}
    </Modal>
  );
}

function returnUrl(): string {
  return new URL(paths.billingSuccess, window.location.origin).toString();
}

function PaymentTabs({ intentType }: { intentType: 'payment' | 'setup' }) {
  const { t } = useTranslation();
  const stripe = useStripe();
  const elements = useElements();
  const [busy, setBusy] = useState(false);
  const [walletsAvailable, setWalletsAvailable] = useState<boolean | null>(null);

  const failed = (error: StripeError) => {
    // Spec §8: card and validation errors show Stripe's message; others the unexpected-error text.
    const mine = error.type === 'card_error' || error.type === 'validation_error';
    showBillingFailure(mine && error.message ? { kind: 'message', message: error.message } : { kind: 'unexpected' }, t);
  };

  const confirm = async () => {
    if (!stripe || !elements) return;
    setBusy(true);
    const submitted = await elements.submit();
    if (submitted.error) {
      setBusy(false);
      failed(submitted.error);
      return;
    }
    const confirmParams = { return_url: returnUrl() };
    const result = intentType === 'setup' ? await stripe.confirmSetup({ elements, confirmParams }) : await stripe.confirmPayment({ elements, confirmParams });
    setBusy(false);
    // On success Stripe has already sent the browser to the return URL.
    if (result.error) failed(result.error);
  };

  return (
    <Tabs defaultValue="card" keepMounted={false}>
      <Tabs.List mb="md" grow>
        <Tabs.Tab value="card" leftSection={<IconCreditCard size={16} />} data-testid="payment-tab-card">
          {t('billing.payment.card')}
        </Tabs.Tab>
        <Tabs.Tab value="wallet" leftSection={<IconDeviceMobile size={16} />} data-testid="payment-tab-wallet">
          {t('billing.payment.wallet')}
        </Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="card">
        <Stack gap="md">
          <PaymentElement options={{ layout: 'tabs', wallets: { applePay: 'never', googlePay: 'never' } }} />
          <Button radius="xl" onClick={() => void confirm()} loading={busy} disabled={!stripe || !elements} data-testid="payment-submit">
            {t('billing.payment.pay')}
          </Button>
        </Stack>
      </Tabs.Panel>
      <Tabs.Panel value="wallet">
        <Stack gap="md">
          <ExpressCheckoutElement
            options={{ paymentMethods: { applePay: 'always', googlePay: 'always', link: 'never', amazonPay: 'never', paypal: 'never' } }}
            onReady={(event) => setWalletsAvailable(Boolean(event.availablePaymentMethods))}
            onConfirm={() => void confirm()}
          />
          {walletsAvailable === false && (
            <Text size="sm" c="dimmed" data-testid="wallet-unavailable">
              {t('billing.payment.noWallet')}
            </Text>
          )}
        </Stack>
      </Tabs.Panel>
    </Tabs>
  );
}
