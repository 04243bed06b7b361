"""The processes a test starts and leaves running while it works (``scopa serve``, Caddy): each
in a process group of its own, stopped with everything in that group in a ``finally``, so that
a test that fails, times out (pytest-timeout's SIGALRM) or is interrupted (Ctrl+C) leaves none
behind; and stopped by the kernel should pytest itself be killed (``PR_SET_PDEATHSIG``)."""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

SCOPA = os.path.join(os.path.dirname(sys.executable), "scopa")

PR_SET_PDEATHSIG = 1
STOP_GRACE = 60.0
"""Seconds a process has to stop after SIGTERM before it and its group are killed: a bound
for a busy machine, not a time anything waits for (a server stops in a fraction of it)."""


def _die_with_pytest() -> None:  # pragma: no cover - runs in the child, before exec
    """In the child: SIGTERM when the process that started it dies (Linux)."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def spawn(command: Sequence[str], **options: Any) -> subprocess.Popen[Any]:
    """``subprocess.Popen(command, **options)`` in a new process group (its own children,
    such as a server's workers, join it), told to stop when pytest's process dies (then
    ``options``' own ``preexec_fn``, if any, runs in the child too). Refused in
    the fast tier (``scripts/run-tests.sh`` sets ``SCOPA_TEST_TIER``): a test that starts a
    process that serves belongs to the system tier (``pytest.mark.system``)."""
    if os.environ.get("SCOPA_TEST_TIER") == "fast":
        raise RuntimeError(
            f"{os.environ.get('PYTEST_CURRENT_TEST', 'a test')} starts {command[0]} in the fast "
            "tier: mark it pytest.mark.system"
        )
    also = options.pop("preexec_fn", None)

    def before_exec() -> None:  # pragma: no cover - runs in the child
        _die_with_pytest()
        if also is not None:
            also()

    return subprocess.Popen(
        list(command), start_new_session=True, preexec_fn=before_exec, **options
    )


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def stop(process: subprocess.Popen[Any], grace: float = STOP_GRACE) -> str:
    """Stop ``process`` (SIGTERM, then SIGKILL after ``grace`` seconds) and then whatever is
    left of its group (a worker the server did not take down); what it printed to a pipe
    that was not read yet (``""`` if none). Safe to call on a process that already ended."""
    pgid = process.pid  # spawn() made it the leader of its group
    output: Any = ""
    pipes = (process.stdin, process.stdout, process.stderr)
    if process.poll() is not None and all(p is None or p.closed for p in pipes):
        _kill_group(pgid)  # stopped and read already
        return ""
    try:
        if process.poll() is None:
            process.terminate()
        try:
            output, _ = process.communicate(timeout=grace)
        except subprocess.TimeoutExpired:
            _kill_group(pgid)
            output, _ = process.communicate()
    finally:
        _kill_group(pgid)
        if process.poll() is None:  # interrupted while waiting: never leave it running
            process.kill()
    if isinstance(output, bytes):
        return output.decode(errors="replace")
    return output or ""


@contextmanager
def started(command: Sequence[str], **options: Any) -> Iterator[subprocess.Popen[Any]]:
    """``command`` running (see :func:`spawn`) for the ``with`` block, stopped after it
    (:func:`stop`) however the block ends."""
    process = spawn(command, **options)
    try:
        yield process
    finally:
        stop(process)


def serve_command(*args: str) -> list[str]:
    """``scopa serve ARGS`` through the installed entry point."""
    return [SCOPA, "serve", *args]


def read_banner(process: subprocess.Popen[str], until: str = "Ctrl+C") -> str:
    """What a server printed on its standard output (a pipe, text) up to the line holding
    ``until``; fails with what it printed if it stops first."""
    assert process.stdout is not None
    lines: list[str] = []
    while not any(until in line for line in lines):
        line = process.stdout.readline()
        assert line, f"the server stopped: {''.join(lines)}"
        lines.append(line)
    return "".join(lines)


@contextmanager
def scopa_serve(
    *args: str, within: tuple[str, ...] = (), **options: Any
) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """``scopa serve ARGS`` (run by the command ``within``, if any: a network namespace) for
    the ``with`` block: the process and what it printed until it listens; stopped after the
    block however it ends, and at once if it stops or fails before it listens."""
    with started(
        [*within, *serve_command(*args)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        **options,
    ) as process:
        yield process, read_banner(process)
