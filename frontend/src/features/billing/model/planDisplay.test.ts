import { describe, expect, it } from 'vitest';

import type { PlanOut, SubscriptionOut } from '../../../shared/api/generated/types.gen';
import { livePlanIds, planAction, planPrice } from './planDisplay';

function plan(overrides: Partial<PlanOut> = {}): PlanOut {
  return {
    id: 2,
    active: true,
    plan_name: 'Creator Monthly',
    description: 'For creators',
    cost: '19.00',
    discount_cost: '12.00',
    currency: 'usd',
    is_indefinite_trial: false,
    is_free: false,
    recurring: { interval: 'month', trial_period_days: 14 },
    features: [],
    ...overrides,
  };
}

const NONE = { livePlanIds: new Set<number>(), trialAvailable: true };

describe('planPrice (spec §9)', () => {
  it('is free when the discount cost is 0 or the trial is indefinite', () => {
    expect(planPrice(plan({ discount_cost: '0.00' }))).toEqual({ kind: 'free' });
    expect(planPrice(plan({ is_indefinite_trial: true }))).toEqual({ kind: 'free' });
  });

  it('is a dollar price per interval, the full cost struck under a discount', () => {
    expect(planPrice(plan())).toEqual({ kind: 'paid', amount: '12', interval: 'month', was: '19' });
    expect(planPrice(plan({ discount_cost: null, cost: '9.50', recurring: { interval: 'year', trial_period_days: 0 } }))).toEqual({
      kind: 'paid',
      amount: '9.50',
      interval: 'year',
      was: null,
    });
  });
});

describe('planAction (spec §9 button labels)', () => {
  it('says Coming Soon! for an inactive plan and Subscribed for the free one', () => {
    expect(planAction(plan({ active: false }), NONE)).toEqual({ kind: 'comingSoon' });
    expect(planAction(plan({ is_free: true }), NONE)).toEqual({ kind: 'subscribed' });
  });

  it('offers the trial once, then Subscribe', () => {
    expect(planAction(plan(), NONE)).toEqual({ kind: 'trial', days: 14 });
    expect(planAction(plan(), { ...NONE, trialAvailable: false })).toEqual({ kind: 'subscribe' });
    expect(planAction(plan({ recurring: { interval: 'month', trial_period_days: 0 } }), NONE)).toEqual({ kind: 'subscribe' });
  });

  it('says Subscribed for a plan in force, but not for a trial past its end', () => {
    const row = (status: SubscriptionOut['status'], end: string | null): SubscriptionOut => ({
      id: 1,
      status,
      plan: plan(),
      plan_name: 'Creator Monthly',
      is_trial: true,
      end_time: end,
      next_period_start_time: null,
      created_at: '2026-01-01T00:00:00Z',
      cancelled_at: null,
    });
    expect(planAction(plan(), { livePlanIds: livePlanIds([row('trialing', '2999-01-01T00:00:00Z')]), trialAvailable: false })).toEqual({
      kind: 'subscribed',
    });
    expect(livePlanIds([row('trialing', '2000-01-01T00:00:00Z')]).size).toBe(0);
    expect(livePlanIds([row('ended', null)]).size).toBe(0);
  });
});
