#!/usr/bin/env bash
# Known vulnerabilities in the pinned dependencies: pip-audit on constraints.txt (nothing installed)
# and npm audit --omit=dev in frontend/. Fails on a finding that audit-exceptions.txt does not list;
# skips an audit, saying why, when its service does not answer (each step is time-boxed:
# AUDIT_TIMEOUT_SECONDS, default 180). See scripts/audit.py.
set -euo pipefail
cd "$(dirname "$0")/.."
exec .venv/bin/python scripts/audit.py
