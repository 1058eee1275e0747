import type { PlanOut, SubscriptionOut } from '../../../shared/api/generated/types.gen';

/** Spec §9 plan display: free, or a dollar price per interval; a discount says 'for a limited time!'. */
export type PlanPrice =
  | { kind: 'free' }
  | { kind: 'paid'; amount: string; interval: 'month' | 'year'; /** The full cost, struck through under a discount. */ was: string | null };

function dollars(value: string | number): string {
  const amount = Number(value);
  return Number.isInteger(amount) ? String(amount) : amount.toFixed(2);
}

export function planPrice(plan: PlanOut): PlanPrice {
  const discount = plan.discount_cost === null ? null : Number(plan.discount_cost);
  if (plan.is_indefinite_trial || discount === 0) return { kind: 'free' };
  const cost = Number(plan.cost);
  if (discount !== null && discount > 0 && discount < cost) {
    return { kind: 'paid', amount: dollars(discount), interval: plan.recurring.interval, was: dollars(cost) };
  }
  return { kind: 'paid', amount: dollars(cost), interval: plan.recurring.interval, was: null };
}

/** Spec §9 button labels: 'Subscribed' (free, or a plan in force), 'Start {n} Day Free Trial', 'Subscribe', 'Coming Soon!'. */
export type PlanAction = { kind: 'subscribed' } | { kind: 'trial'; days: number } | { kind: 'subscribe' } | { kind: 'comingSoon' };

export interface PlanContext {
  /** Plans with a subscription in force or waiting for payment. */
  livePlanIds: ReadonlySet<number>;
  /** The user has never had a trial (true for visitors: they are asked to sign in first). */
  trialAvailable: boolean;
}

export function planAction(plan: PlanOut, context: PlanContext): PlanAction {
  if (!plan.active) return { kind: 'comingSoon' };
  if (plan.is_free || context.livePlanIds.has(plan.id)) return { kind: 'subscribed' };
  const days = plan.recurring.trial_period_days;
  if (days > 0 && context.trialAvailable) return { kind: 'trial', days };
  return { kind: 'subscribe' };
}

export function livePlanIds(subscriptions: readonly SubscriptionOut[]): Set<number> {
  return new Set(
    subscriptions
      .filter((row) => row.status === 'active' || row.status === 'trialing' || row.status === 'incomplete')
      .filter((row) => !(row.is_trial && row.end_time !== null && Date.parse(row.end_time) <= Date.now()))
      .map((row) => row.plan.id),
  );
}
