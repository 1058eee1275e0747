"""Billing: plans, subscriptions, trials and the Stripe event inbox."""
