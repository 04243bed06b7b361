#!/usr/bin/env bash
# Runs the pytest suite in two tiers started together, and fails if either fails:
#   fast    the core, the application, the web app in process, the browser (Chromium);
#   system  the tests marked `system`: real servers in processes of their own, kills,
#           Caddy, schemathesis, the installed wheel.
# `scripts/run-tests.sh fast` or `scripts/run-tests.sh system` runs one tier alone. Other
# arguments go to each pytest, e.g. `make test ARGS="-n0 -k deal"` runs a selection in one
# process per tier. Each tier's lines are printed as they come, after its name.
#
# Within a tier, pytest-xdist hands the tests out one at a time in the order tests/conftest.py
# gives them (browser tests last, the slow ones of each part first), except an xdist group (the
# package tests: one wheel build), which one process runs whole. The fast tier keeps the cores
# busy: one process a core and one more (at most four), as a browser test's process waits on
# Chromium and its server thread; the system tier mostly waits on the servers it starts, and
# its processes (one per two cores, two to three) fill that wait (the figures: README,
# "Development"). SCOPA_FAST_WORKERS sets another number of fast processes.
set -euo pipefail
cd "$(dirname "$0")/.."
# The suite starts hundreds of Python processes (the CLI through its entry point, servers,
# workers): with PYTHONDONTWRITEBYTECODE set, each would compile the project's modules again
# (and pytest would rewrite every test module again in each worker).
unset PYTHONDONTWRITEBYTECODE

tiers=(fast system)
case "${1:-}" in
fast | system)
  tiers=("$1")
  shift
  ;;
esac

cores=$(nproc)
fast_workers=${SCOPA_FAST_WORKERS:-$((cores < 3 ? cores + 1 : 4))}
system_workers=$((cores / 2 < 2 ? 2 : cores / 2 > 3 ? 3 : cores / 2))
# Seconds a tier may print nothing before it is stopped: more than a test's timeout (300 s,
# pyproject.toml) and the stop of what it started (tests/servers.py's grace, 60 s) together.
stall=${SCOPA_TEST_STALL:-600}

# Whether the arguments name tests (a file or folder) rather than only options.
names_tests() {
  local arg
  for arg in "$@"; do
    case "$arg" in
    -*) ;;
    *) if [ -e "${arg%%::*}" ]; then return 0; fi ;;
    esac
  done
  return 1
}

run_tier() {
  local tier=$1
  shift
  local workers select
  local files=()
  if [ "$tier" = fast ]; then
    workers=$fast_workers
    select="not system"
  else
    workers=$system_workers
    select="system"
    # Only the files that hold a system test are collected (by each of its processes: the
    # whole suite's collection is some 7 s of CPU a process, 2026-12-06).
    if ! names_tests "$@"; then
      mapfile -t files < <(grep -rlE --include='test_*.py' 'mark\.system\b' tests | sort)
    fi
  fi
  # SCOPA_TEST_TIER: tests/servers.py refuses to start a server process in the fast tier.
  # --durations: the slowest tests of every run, to keep each tier within its minutes.
  # --max-worker-restart=0: a worker that crashes (a segmentation fault) fails the run at once.
  # pytest-xdist would start another in its place and re-run the crashed test's group, and with
  # --dist loadgroup its controller can then wait for ever on work handed to nobody.
  # The watchdog stops the tier should its pytest print nothing for $stall seconds (each test
  # is bounded by pytest-timeout, so silence that long means a controller stuck on its own).
  local status=0
  SCOPA_TEST_TIER=$tier .venv/bin/python scripts/watchdog.py "$stall" \
    .venv/bin/pytest -q -n "$workers" --dist loadgroup --no-loadscope-reorder \
    --max-worker-restart=0 --durations=10 -m "$select" "${files[@]}" "$@" || status=$?
  if [ "$status" -eq 5 ]; then  # a selection (ARGS) with none of this tier's tests
    echo "no test of the $tier tier selected"
    status=0
  fi
  return "$status"
}

if [ ${#tiers[@]} -eq 1 ]; then
  run_tier "${tiers[0]}" "$@"
  exit
fi

# Both at once. Each pytest is a child of this script and in its process group: a Ctrl+C
# reaches both, and this script stops them if it is itself stopped.
pids=()
stop_all() {
  trap - INT TERM
  local pid
  for pid in "${pids[@]}"; do  # each tier's subshell and its pytest
    kill -TERM $(ps -o pid= --ppid "$pid") "$pid" 2>/dev/null || true
  done
  wait || true
  exit 130
}
trap stop_all INT TERM
for tier in "${tiers[@]}"; do
  (run_tier "$tier" "$@") > >(sed -u "s/^/[$tier] /") 2>&1 &
  pids+=($!)
done
status=0
for i in "${!pids[@]}"; do
  if ! wait "${pids[$i]}"; then
    echo "[${tiers[$i]}] FAILED" >&2
    status=1
  fi
done
wait  # the output's last lines
exit $status
