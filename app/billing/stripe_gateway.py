"""The payments port's Stripe adapter: the only module that imports `stripe` (ARCHITECTURE.md, Payments).

Every call goes through the official SDK's `StripeClient`, pinned to one API version so a Stripe-side
default change never alters what we read. Every create carries an idempotency key the caller derives
from what it is creating, so a retried request (a double click, a client retry, a commit that failed
after Stripe answered) gets Stripe's first answer back instead of a second customer or subscription.

With no STRIPE_SECRET_KEY (the embedded default) payments are off: `enabled` is False and every call
raises `PaymentsOff`; the billing service then offers the free plan and platform-run trials only.
STRIPE_API_BASE points the SDK at another server speaking Stripe's wire format (the tests' fake).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import stripe

from app.core.settings import get_settings

# The API version every request and every webhook endpoint of ours speaks (Stripe-Version header).
STRIPE_API_VERSION = "2026-10-28.endive"
# Stripe answers slowly at times; the client's own time-out is 70 s (spec §7), so stay well under it.
STRIPE_TIMEOUT_RETRIES = 2

PAYMENTS_OFF = "Payments are off on this platform: only the free plan and free trials are available."
WEBHOOKS_OFF = "Stripe webhooks are not configured on this platform."


class PaymentsOff(Exception):
    """No Stripe key is configured."""


class PaymentError(Exception):
    """Stripe refused or could not be reached. `user_message` is Stripe's own text when it is meant
    for the payer (a card error, a validation error: spec §8 shows the provider's message), else None."""

    def __init__(self, message: str, *, user_message: str | None, status: int | None) -> None:
        super().__init__(message)
        self.user_message = user_message
        self.status = status


class BadSignature(Exception):
    """A webhook whose Stripe-Signature does not verify (or an unreadable payload)."""


@dataclass(frozen=True, slots=True)
class RemoteSubscription:
    """What billing reads of a Stripe subscription."""

    id: str
    customer: str
    status: str
    trial_end: datetime | None
    current_period_end: datetime | None
    cancel_at_period_end: bool
    # The secret Stripe.js confirms with: the first invoice's payment (intent_type "payment") or,
    # during a trial, the setup intent that saves a card for later ("setup"); None when nothing is due.
    client_secret: str | None
    intent_type: str | None


def _moment(value: Any) -> datetime | None:
    return datetime.fromtimestamp(int(value), UTC) if isinstance(value, int | float) and value else None


def read_subscription(data: dict[str, Any]) -> RemoteSubscription:
    """A subscription object in Stripe's wire format (an API answer or a webhook's data.object)."""
    items = ((data.get("items") or {}).get("data")) or []
    period_end = data.get("current_period_end")  # API versions before 2025-03-31 kept it here
    if items and isinstance(items[0], dict) and items[0].get("current_period_end"):
        period_end = items[0]["current_period_end"]
    client_secret: str | None = None
    intent_type: str | None = None
    invoice = data.get("latest_invoice")
    if isinstance(invoice, dict):
        confirmation = invoice.get("confirmation_secret")
        if isinstance(confirmation, dict) and confirmation.get("client_secret"):
            client_secret, intent_type = str(confirmation["client_secret"]), "payment"
    setup = data.get("pending_setup_intent")
    if client_secret is None and isinstance(setup, dict) and setup.get("client_secret"):
        client_secret, intent_type = str(setup["client_secret"]), "setup"
    customer = data.get("customer")
    if isinstance(customer, dict):
        customer = customer.get("id")
    return RemoteSubscription(
        id=str(data["id"]),
        customer=str(customer or ""),
        status=str(data.get("status") or "incomplete"),
        trial_end=_moment(data.get("trial_end")),
        current_period_end=_moment(period_end),
        cancel_at_period_end=bool(data.get("cancel_at_period_end")),
        client_secret=client_secret,
        intent_type=intent_type,
    )


def _plain(value: Any) -> dict[str, Any]:
    result: dict[str, Any] = value.to_dict()
    return result


class StripeGateway:
    def __init__(self, *, secret_key: str, webhook_secret: str, api_base: str = "") -> None:
        self._secret_key = secret_key
        self._webhook_secret = webhook_secret
        self._client: stripe.StripeClient | None = None
        if secret_key:
            self._client = stripe.StripeClient(
                secret_key,
                stripe_version=STRIPE_API_VERSION,
                base_addresses={"api": api_base} if api_base else None,
                max_network_retries=STRIPE_TIMEOUT_RETRIES,
            )

    @property
    def enabled(self) -> bool:
        return self._client is not None

    @property
    def webhooks_enabled(self) -> bool:
        return bool(self._webhook_secret)

    def _v1(self) -> Any:
        if self._client is None:
            raise PaymentsOff(PAYMENTS_OFF)
        return self._client.v1

    # ------------------------------------------------------------------------------- creating things

    def create_customer(self, *, user_id: int, email: str, name: str, idempotency_key: str) -> str:
        params = {"email": email, "name": name, "metadata": {"userid": str(user_id)}}
        customer = self._call(lambda v1: v1.customers.create(params, {"idempotency_key": idempotency_key}))
        return str(customer["id"])

    def create_price(
        self,
        *,
        plan_name: str,
        plan_id: int,
        unit_amount: int,
        currency: str,
        interval: str,
        idempotency_key: str,
    ) -> str:
        """A product for the plan and a recurring price for it (one pair per plan and amount)."""
        product = self._call(
            lambda v1: v1.products.create(
                {"name": plan_name, "metadata": {"plan_id": str(plan_id)}},
                {"idempotency_key": f"{idempotency_key}-product"},
            )
        )
        price = self._call(
            lambda v1: v1.prices.create(
                {
                    "product": product["id"],
                    "unit_amount": unit_amount,
                    "currency": currency,
                    "recurring": {"interval": interval},
                    "metadata": {"plan_id": str(plan_id)},
                },
                {"idempotency_key": f"{idempotency_key}-price"},
            )
        )
        return str(price["id"])

    def create_subscription(
        self,
        *,
        customer: str,
        price: str,
        trial_days: int,
        metadata: dict[str, str],
        idempotency_key: str,
    ) -> RemoteSubscription:
        """A subscription waiting for its first payment (`default_incomplete`: Stripe.js confirms the
        first invoice with the answered client secret), or, with `trial_days`, a trial that needs no
        card now and is cancelled by Stripe at its end unless a card was saved meanwhile."""
        params: dict[str, Any] = {
            "customer": customer,
            "items": [{"price": price}],
            "metadata": metadata,
            "payment_behavior": "default_incomplete",
            "payment_settings": {"save_default_payment_method": "on_subscription"},
            "expand": ["latest_invoice.confirmation_secret", "pending_setup_intent"],
        }
        if trial_days > 0:
            params["trial_period_days"] = trial_days
            params["trial_settings"] = {"end_behavior": {"missing_payment_method": "cancel"}}
        created = self._call(lambda v1: v1.subscriptions.create(params, {"idempotency_key": idempotency_key}))
        return read_subscription(_plain(created))

    # ------------------------------------------------------------------------------- reading, cancelling

    def retrieve_subscription(self, subscription_id: str) -> RemoteSubscription:
        params = {"expand": ["latest_invoice.confirmation_secret", "pending_setup_intent"]}
        found = self._call(lambda v1: v1.subscriptions.retrieve(subscription_id, params))
        return read_subscription(_plain(found))

    def cancel_subscription(self, subscription_id: str) -> RemoteSubscription:
        """Cancels now; a subscription Stripe already cancelled is read back instead (cancelling twice
        is not an error for us)."""
        try:
            cancelled = self._call(lambda v1: v1.subscriptions.cancel(subscription_id))
        except PaymentError as exc:
            if exc.status not in (400, 404):
                raise
            return self.retrieve_subscription(subscription_id)
        return read_subscription(_plain(cancelled))

    # ------------------------------------------------------------------------------- webhooks

    def verify_event(self, payload: bytes, signature: str | None) -> dict[str, Any]:
        """The event, once the SDK has verified its signature (and its timestamp's tolerance)."""
        if not self._webhook_secret:
            raise BadSignature(WEBHOOKS_OFF)
        try:
            stripe.Webhook.construct_event(payload, signature, self._webhook_secret)
            event: dict[str, Any] = json.loads(payload)
        except (stripe.SignatureVerificationError, ValueError) as exc:
            raise BadSignature(str(exc) or "Invalid signature") from exc
        if not isinstance(event, dict) or not event.get("id") or not event.get("type"):
            raise BadSignature("Not a Stripe event")
        return event

    # ------------------------------------------------------------------------------- errors

    def _call(self, request: Any) -> Any:
        v1 = self._v1()
        try:
            return request(v1)
        except stripe.CardError as exc:
            raise PaymentError(str(exc), user_message=exc.user_message or str(exc), status=exc.http_status) from exc
        except stripe.InvalidRequestError as exc:
            raise PaymentError(str(exc), user_message=exc.user_message, status=exc.http_status) from exc
        except stripe.StripeError as exc:
            raise PaymentError(str(exc), user_message=None, status=exc.http_status) from exc


def get_gateway() -> StripeGateway:
    """The configured gateway (a dependency: cheap to build, and it reads the settings of the moment)."""
    settings = get_settings()
    return StripeGateway(
        secret_key=settings.stripe_secret_key,
        webhook_secret=settings.stripe_webhook_secret,
        api_base=settings.stripe_api_base,
    )
