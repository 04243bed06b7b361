#!/usr/bin/env bash
# Runs the whole pytest suite (unit, property, CLI, API, store on SQLite and PostgreSQL,
# browser), spread over one process more than the cores, up to five (pytest-xdist). The
# tests are handed out one at a time in the order tests/conftest.py gives them (browser tests
# last, the slow ones of each part first), except an xdist group (the package tests: one
# wheel build), which one process runs whole. Extra arguments go to pytest, e.g.
# `make test ARGS="-n0 -k deal"` runs a selection in this process.
set -euo pipefail
cd "$(dirname "$0")/.."
# The suite starts hundreds of Python processes (the CLI through its entry point, servers,
# workers): with PYTHONDONTWRITEBYTECODE set, each would compile the project's modules again
# (and pytest would rewrite every test module again in each worker).
unset PYTHONDONTWRITEBYTECODE
# One process more than the cores: a third of the time the suite waits (on Chromium, PostgreSQL,
# the servers it starts), and a third process fills it. On two cores, clean clone, quiet
# machine: pytest 14:22 with two processes, 11:35 with three (2026-12-04). Four is slower:
# tried on 2026-11-30, and again on 2026-12-04 (clean clone, quiet machine, same commit):
# 14:57 against 12:05 with three, and 22 CPU-minutes against 18.
workers=$(($(nproc) + 1))
if [ "$workers" -gt 5 ]; then workers=5; fi
# --durations: the slowest tests of every run, to keep the suite within its 10 minutes.
exec .venv/bin/pytest -q -n "$workers" --dist loadgroup --no-loadscope-reorder --durations=15 "$@"
