#!/usr/bin/env bash
# Runs the whole pytest suite (unit, property, CLI, API, store on SQLite and PostgreSQL,
# browser), spread over up to four processes (pytest-xdist; one per core). The tests are
# handed out one at a time in the order tests/conftest.py gives them (browser tests last, the
# slow ones of each part first), except an xdist group (the package tests: one wheel build),
# which one process runs whole. Extra arguments go to pytest, e.g.
# `make test ARGS="-n0 -k deal"` runs a selection in this process.
set -euo pipefail
cd "$(dirname "$0")/.."
# The suite starts hundreds of Python processes (the CLI through its entry point, servers,
# workers): with PYTHONDONTWRITEBYTECODE set, each would compile the project's modules again
# (and pytest would rewrite every test module again in each worker).
unset PYTHONDONTWRITEBYTECODE
workers=$(nproc)
if [ "$workers" -gt 4 ]; then workers=4; fi
# --durations: the slowest tests of every run, to keep the suite within its 10 minutes.
exec .venv/bin/pytest -q -n "$workers" --dist loadgroup --no-loadscope-reorder --durations=15 "$@"
