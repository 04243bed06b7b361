#!/usr/bin/env bash
# Installs the pinned npm packages (package-lock.json; no install scripts run) and copies the
# files the web app serves into src/scopa/web/static/vendor/. Installs Debian's nodejs and npm
# as root when they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v npm >/dev/null 2>&1; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "npm is missing; install it with: sudo apt-get install nodejs npm" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq nodejs npm >/dev/null
fi
npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
python3 scripts/vendor.py
