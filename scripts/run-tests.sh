#!/usr/bin/env bash
# Runs the whole pytest suite (unit, property, CLI, API, store on SQLite and PostgreSQL,
# browser). Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
exec .venv/bin/pytest -q "$@"
