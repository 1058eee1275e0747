/** react-query keys of billing, read by the billing pages, the settings' billing tab and the end-of-trial check. */
export const billingQueryKeys = {
  all: ['billing'] as const,
  plans: ['billing', 'plans'] as const,
  config: ['billing', 'config'] as const,
  /** The signed-in user's subscriptions (GET subscriptions) and trials (GET trial-subscriptions). */
  subscriptions: ['billing', 'subscriptions'] as const,
  trials: ['billing', 'trials'] as const,
};
