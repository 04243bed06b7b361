#!/usr/bin/env bash
# Runs a command while stress-ng keeps every core busy (one CPU hog a core, at normal
# priority), as on a machine shared with other work; stress-ng is stopped however the command
# ends. `make test-busy` runs the whole check so: it must pass all the same.
set -euo pipefail
if ! command -v stress-ng >/dev/null 2>&1; then
  echo "stress-ng is not installed (make system-deps installs it)" >&2
  exit 1
fi
stress-ng --cpu "$(nproc)" --quiet &
hog=$!
trap 'kill "$hog" 2>/dev/null || true; wait "$hog" 2>/dev/null || true' EXIT
"$@"
