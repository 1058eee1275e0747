#!/usr/bin/env bash
# The whole test suite: linters, type checks, the API client's freshness, front-end unit tests,
# pytest on SQLite and on PostgreSQL, and the end-to-end tests in Debian's Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
step() { printf '\n\033[1;34m==>\033[0m %s\n' "$*"; }

step "ruff"
$PY -m ruff check app indexer workers demo tests bench
$PY -m ruff format --check app indexer workers demo tests bench
step "mypy"
$PY -m mypy app indexer workers demo

step "Dependency audit: pip-audit and npm audit (skipped, saying why, when the registry does not answer)"
bash scripts/audit.sh

step "The generated API client matches the backend's OpenAPI"
bash scripts/check-client.sh

step "Front end: type check, ESLint and Vitest"
npm --prefix frontend run --silent typecheck
npm --prefix frontend run --silent lint
npm --prefix frontend run --silent test

step "Front end: JavaScript each route loads (the feed's budget)"
node scripts/check-bundle-budget.mjs

# Two worker processes (pytest-xdist), each with its own migrated database (tests/conftest.py); a module's tests
# stay on one worker so its module-scoped fixtures are built once.
XDIST=(-n "${PYTEST_WORKERS:-2}" --dist loadfile)

step "pytest on SQLite (the embedded default)"
$PY -m pytest -q -m "not e2e and not distributed" -p no:cacheprovider "${XDIST[@]}"

if pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
  step "pytest on PostgreSQL"
  TOURATLAS_TEST_DB=postgresql $PY -m pytest -q -m "not e2e and not distributed" -p no:cacheprovider "${XDIST[@]}"
else
  echo "SKIPPED: pytest on PostgreSQL — no server answers on 127.0.0.1:5432"
fi

# Real processes: Celery workers and two API processes sharing Socket.IO rooms, on PostgreSQL and
# Redis (each test skips, saying why, when one of them is missing).
step "Distributed: Celery workers and API processes on Redis and PostgreSQL"
$PY -m pytest -q -m distributed -p no:cacheprovider

step "End-to-end in Chromium"
$PY -m pytest -q -m e2e -p no:cacheprovider
