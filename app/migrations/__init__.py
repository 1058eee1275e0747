"""Alembic migrations: the same revisions run on SQLite (embedded) and PostgreSQL."""
