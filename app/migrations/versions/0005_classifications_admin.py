"""Classifications admin (issue 14 part 3): names of dictionary rows in other languages, the runs of
"embed every tag again", and the built-in entries the seed has already placed.

Revision ID: 0005_classifications_admin
Revises: 0004_outgoing_mail_reply_to
Create Date: 2026-12-02 10:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005_classifications_admin"
down_revision: str | Sequence[str] | None = "0004_outgoing_mail_reply_to"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

DICTIONARY_KINDS = ("category", "subcategory", "media_type", "capture_device", "tag")


def upgrade() -> None:
    op.create_table(
        "dictionary_names",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column(
            "kind", sa.Enum(*DICTIONARY_KINDS, name="dictionarykind", native_enum=False, length=16), nullable=False
        ),
        sa.Column("entity_id", sa.Integer(), nullable=False),
        sa.Column("language", sa.String(length=8), nullable=False),
        sa.Column("scope", sa.String(length=40), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("name_lower", sa.String(length=200), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_dictionary_names")),
        sa.UniqueConstraint("kind", "entity_id", "language", name=op.f("uq_dictionary_names_kind_entity_id_language")),
        sa.UniqueConstraint(
            "kind", "scope", "language", "name_lower", name=op.f("uq_dictionary_names_kind_scope_language_name_lower")
        ),
    )
    op.create_table(
        "tag_embedding_jobs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column(
            "status",
            sa.Enum("queued", "running", "done", "failed", name="embeddingjobstatus", native_enum=False, length=16),
            nullable=False,
        ),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("done", sa.Integer(), nullable=False),
        sa.Column("message", sa.Text(), nullable=True),
        sa.Column("requested_by_user_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["requested_by_user_id"],
            ["users.id"],
            name=op.f("fk_tag_embedding_jobs_requested_by_user_id_users"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tag_embedding_jobs")),
    )
    op.create_index(op.f("ix_tag_embedding_jobs_status"), "tag_embedding_jobs", ["status"], unique=False)
    op.create_table(
        "seeded_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("key", sa.String(length=400), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seeded_entries")),
        sa.UniqueConstraint("kind", "key", name=op.f("uq_seeded_entries_kind_key")),
    )


def downgrade() -> None:
    op.drop_table("seeded_entries")
    op.drop_index(op.f("ix_tag_embedding_jobs_status"), table_name="tag_embedding_jobs")
    op.drop_table("tag_embedding_jobs")
    op.drop_table("dictionary_names")
