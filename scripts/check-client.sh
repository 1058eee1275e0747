#!/usr/bin/env bash
# Fails when frontend/openapi.json or the generated client differ from what the backend produces now.
# It regenerates both in place, so after a failure the tree already holds the fresh client to commit.
set -euo pipefail
cd "$(dirname "$0")/.."
snapshot() { find frontend/openapi.json frontend/src/shared/api/generated -type f | sort | xargs sha256sum | sha256sum; }
before=$(snapshot)
make --no-print-directory client >/dev/null
if [ "$before" != "$(snapshot)" ]; then
  echo "The API client was stale (frontend/openapi.json or src/shared/api/generated); it has been regenerated: commit it." >&2
  exit 1
fi
echo "API client up to date."
