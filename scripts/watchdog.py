#!/usr/bin/env python3
"""Runs a command and stops it should it print nothing for a while.

usage: scripts/watchdog.py SECONDS COMMAND [ARG...]

The command runs in a process group of its own, its output (standard output and error
together) passed on as it comes. Once it has been silent for SECONDS, the watchdog says so on
its standard error and stops the whole group (SIGTERM, then SIGKILL after a grace) and exits
with status 124, as `timeout` does. Otherwise it exits with the command's status (128 + the
signal's number when a signal ended it). A SIGINT or SIGTERM it receives is passed to the
group.

`scripts/run-tests.sh` runs each tier's pytest so: each test is bounded by pytest-timeout, but
a pytest-xdist controller that waits for a worker which will never report (after a worker
crashed) prints nothing more and would otherwise hold the run for ever.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import subprocess
import sys
from types import FrameType

GRACE = 30.0
"""Seconds the group has to stop after SIGTERM before it is killed."""


def _signal_group(pgid: int, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signum)


def stop(process: subprocess.Popen[bytes]) -> None:
    """Stop ``process`` and everything left in its group."""
    _signal_group(process.pid, signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=GRACE)
    _signal_group(process.pid, signal.SIGKILL)
    process.wait()


def run(quiet: float, command: list[str]) -> int:
    """Run ``command`` under the watchdog; its exit status (124 if it was stopped)."""
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True
    )

    def forward(signum: int, _frame: FrameType | None) -> None:
        _signal_group(process.pid, signum)

    signal.signal(signal.SIGINT, forward)
    signal.signal(signal.SIGTERM, forward)
    assert process.stdout is not None
    fd = process.stdout.fileno()
    out = sys.stdout.buffer
    with selectors.DefaultSelector() as selector:
        selector.register(fd, selectors.EVENT_READ)
        while True:
            if not selector.select(quiet):
                print(
                    f"watchdog: {' '.join(command)} printed nothing for {quiet:g} s: stopped",
                    file=sys.stderr,
                    flush=True,
                )
                stop(process)
                return 124
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            out.write(chunk)
            out.flush()
    status = process.wait()
    return 128 - status if status < 0 else status


def main(argv: list[str]) -> int:
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    try:
        quiet = float(argv[1])
    except ValueError:
        quiet = 0.0
    if not quiet > 0:
        print(f"watchdog: {argv[1]!r} is not a number of seconds above 0", file=sys.stderr)
        return 2
    return run(quiet, argv[2:])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
