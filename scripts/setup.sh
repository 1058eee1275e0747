#!/usr/bin/env bash
# Installs what TourAtlas needs, once: safe to run again (each step is skipped when up to date).
#   scripts/setup.sh run   virtualenv, npm packages, built front end
#   scripts/setup.sh test  the same, plus Debian's Chromium and the local PostgreSQL and Redis
set -euo pipefail
cd "$(dirname "$0")/.."
MODE="${1:-run}"
PYTHON="${PYTHON:-python3}"
STAMPS=.venv/.stamps

step() { printf '\033[1;34m==>\033[0m %s\n' "$*"; }

hash_of() { cat "$@" 2>/dev/null | sha256sum | cut -c1-16; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else return 1; fi
}

ensure_debian_packages() {
  local missing=()
  [ -x /usr/bin/chromium ] || missing+=(chromium)
  command -v docker-compose >/dev/null || missing+=(docker-compose)   # validates docker-compose.yml offline
  if [ ${#missing[@]} -gt 0 ]; then
    step "Installing Debian packages: ${missing[*]} (about a minute)"
    as_root apt-get update -qq || true
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

ensure_services() {
  if command -v pg_isready >/dev/null && ! pg_isready -q -h 127.0.0.1 -p 5432; then
    if command -v pg_ctlcluster >/dev/null && [ -d /etc/postgresql ]; then
      step "Starting PostgreSQL"
      as_root pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start || true
    fi
  fi
  if command -v redis-cli >/dev/null && ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
    if command -v redis-server >/dev/null; then
      step "Starting Redis"
      redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no >/dev/null || true
    fi
  fi
}

ensure_python() {
  if [ ! -x .venv/bin/python ]; then
    step "Creating the virtualenv (.venv)"
    "$PYTHON" -m venv .venv
  fi
  mkdir -p "$STAMPS"
  local want; want=$(hash_of pyproject.toml constraints.txt)
  if [ "$(cat "$STAMPS/python" 2>/dev/null)" != "$want" ]; then
    step "Installing Python packages (pinned by constraints.txt)"
    .venv/bin/python -m pip install -q --upgrade pip
    .venv/bin/python -m pip install -q -c constraints.txt -e '.[dev]'
    echo "$want" > "$STAMPS/python"
  fi
}

ensure_node_packages() {
  local want; want=$(hash_of frontend/package-lock.json)
  if [ ! -d frontend/node_modules ] || [ "$(cat "$STAMPS/npm" 2>/dev/null)" != "$want" ]; then
    step "Installing npm packages (npm ci)"
    npm ci --prefix frontend --no-audit --no-fund --loglevel=error
    echo "$want" > "$STAMPS/npm"
  fi
}

ensure_frontend_build() {
  local want; want=$(find frontend/src frontend/index.html frontend/package-lock.json frontend/vite.config.ts frontend/public \
    -type f 2>/dev/null | sort | xargs cat | sha256sum | cut -c1-16)
  if [ ! -f frontend/dist/index.html ] || [ "$(cat "$STAMPS/build" 2>/dev/null)" != "$want" ]; then
    step "Building the front end (vite build)"
    npm --prefix frontend run build --silent
    echo "$want" > "$STAMPS/build"
  fi
}

ensure_python
ensure_node_packages
ensure_frontend_build
if [ "$MODE" = test ]; then
  ensure_debian_packages
  ensure_services
fi
