"""Billing (issue 16): a subscription remembers the Idempotency-Key of the request that created it
and the `created` time of the newest Stripe event applied to it (out-of-order webhooks).

Revision ID: 0008_billing
Revises: 0007_analytics_events
Create Date: 2026-11-28 04:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008_billing"
down_revision: str | Sequence[str] | None = "0007_analytics_events"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("subscriptions") as batch:
        batch.add_column(sa.Column("request_key", sa.String(length=100), nullable=True))
        batch.add_column(sa.Column("last_event_created", sa.BigInteger(), nullable=True))
        batch.create_unique_constraint(op.f("uq_subscriptions_user_id_request_key"), ["user_id", "request_key"])


def downgrade() -> None:
    with op.batch_alter_table("subscriptions") as batch:
        batch.drop_constraint(op.f("uq_subscriptions_user_id_request_key"), type_="unique")
        batch.drop_column("last_event_created")
        batch.drop_column("request_key")
