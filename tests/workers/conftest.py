"""The in-process worker tests use the API tests' database fixtures (SQLite, or PostgreSQL with
TOURATLAS_TEST_DB=postgresql); the real-Celery tests bring their own stack (tests/realtime/stack.py)."""

from tests.api.conftest import app_per_process, clean_state, client, db  # noqa: F401 - fixtures shared with the API tests
