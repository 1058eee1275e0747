import { queryOptions } from '@tanstack/react-query';

import { errorMessage } from '../api/apiError';
import {
  billingBillingConfig,
  billingCancelSubscription,
  billingCreateSubscription,
  billingDismissTrialDialog,
  billingListPlans,
  billingListSubscriptions,
  billingTrialSubscriptions,
} from '../api/generated/sdk.gen';
import type { CreatedSubscriptionOut, SubscriptionCancelled, SubscriptionOut } from '../api/generated/types.gen';
import { billingQueryKeys } from './billingQueryKeys';

/** GET /v2/billing/plans: every plan, active ones first (spec §3 Billing plan). */
export function plansQueryOptions() {
  return queryOptions({
    queryKey: billingQueryKeys.plans,
    queryFn: async ({ signal }) => (await billingListPlans({ signal, throwOnError: true })).data.data,
    staleTime: 5 * 60_000,
  });
}

/** GET /v2/billing/config: Stripe's publishable key, the manage-payments page, whether payments are on. */
export function billingConfigQueryOptions() {
  return queryOptions({
    queryKey: billingQueryKeys.config,
    queryFn: async ({ signal }) => (await billingBillingConfig({ signal, throwOnError: true })).data,
    staleTime: 5 * 60_000,
  });
}

/** GET /v2/billing/subscriptions: the signed-in user's subscriptions, newest first. */
export function subscriptionsQueryOptions() {
  return queryOptions({
    queryKey: billingQueryKeys.subscriptions,
    queryFn: async ({ signal }) => (await billingListSubscriptions({ signal, throwOnError: true })).data.data,
    staleTime: 30_000,
  });
}

/** GET /v2/billing/trial-subscriptions: the user's trials and whether the end-of-trial dialog is due. */
export function trialsQueryOptions() {
  return queryOptions({
    queryKey: billingQueryKeys.trials,
    queryFn: async ({ signal }) => (await billingTrialSubscriptions({ signal, throwOnError: true })).data,
    staleTime: 30_000,
  });
}

/** Subscriptions in force or waiting for their first payment: the plan is not offered again. */
export function isLive(subscription: SubscriptionOut): boolean {
  return subscription.status === 'active' || subscription.status === 'trialing' || subscription.status === 'incomplete';
}

/** What went wrong, as spec §8 sorts it: the server's (or Stripe's) message for a 400/409, else unexpected. */
export type BillingFailure = { kind: 'message'; message: string } | { kind: 'unexpected' };

function failure(status: number | undefined, error: unknown): BillingFailure {
  const message = errorMessage(error, '');
  if ((status === 400 || status === 403 || status === 404 || status === 409) && message) return { kind: 'message', message };
  return { kind: 'unexpected' };
}

export type CreateOutcome = { ok: true; subscription: CreatedSubscriptionOut } | { ok: false; failure: BillingFailure };

/**
 * POST /v2/billing/subscriptions. `trial` starts the plan's free trial (`apprrove_needed` false);
 * otherwise it subscribes. `attempt` is the Idempotency-Key: the same for a retry of one attempt.
 */
export async function createSubscription(planName: string, trial: boolean, attempt: string): Promise<CreateOutcome> {
  const { data, error, response } = await billingCreateSubscription({
    body: { plan_name: planName, apprrove_needed: !trial },
    headers: { 'Idempotency-Key': attempt },
  });
  if (data) return { ok: true, subscription: data.data.subscription };
  return { ok: false, failure: failure(response?.status, error) };
}

export type CancelOutcome = { ok: true; answer: SubscriptionCancelled } | { ok: false; failure: BillingFailure };

/** DELETE /v2/billing/subscriptions: cancel one's plan (and, for a paid one, the creator profile and custom hosts). */
export async function cancelSubscription(planName: string): Promise<CancelOutcome> {
  const { data, error, response } = await billingCancelSubscription({ body: { plan_name: planName } });
  if (data) return { ok: true, answer: data };
  return { ok: false, failure: failure(response?.status, error) };
}

/** POST trial-subscriptions/dismissals: the end-of-trial dialog was closed. */
export async function dismissTrialDialog(): Promise<boolean> {
  const { error } = await billingDismissTrialDialog();
  return error === undefined;
}

/** A fresh Idempotency-Key for one attempt. */
export function newAttemptKey(): string {
  return crypto.randomUUID();
}
