"""The suite's last guard against a hang (a pytest plugin, registered by tests/conftest.py).

pytest-timeout ends a test that runs too long with SIGALRM (pyproject.toml), which keeps the
run going but cannot reach everything: a teardown after the timeout has fired (a browser's
context closed over a connection the timeout broke, a server's thread joined), or a wait in C
that never gives the interpreter back. Such a process says nothing more, and its xdist
controller waits on it until scripts/watchdog.py stops the whole tier with no word of where.

So each phase of a test (setup, call, teardown) is also bounded by faulthandler's own thread,
which needs no interpreter: past ``BACKSTOP`` seconds it prints the stack of every thread of
the process to the terminal and ends the process. Under xdist the controller then reports the
worker as crashed while running that test, and ``--max-worker-restart=0`` ends the tier.
"""

from __future__ import annotations

import faulthandler
import os

import pytest

BACKSTOP = float(os.environ.get("SCOPA_TEST_BACKSTOP", "420"))
"""Seconds a phase of a test may take: more than pytest-timeout's 300 and the servers' stop
(tests/servers.py's grace) together, less than the watchdog's 600 (scripts/run-tests.sh)."""

_terminal: list[int] = []


def _terminal_fd(config: pytest.Config) -> int:
    """A descriptor of the terminal's standard error, past pytest's capture of it (which
    would swallow the stacks with the process)."""
    capture = config.pluginmanager.getplugin("capturemanager")
    capturing = getattr(capture, "_global_capturing", None)
    saved = getattr(getattr(capturing, "err", None), "targetfd_save", None)
    return os.dup(saved if isinstance(saved, int) else 2)


def pytest_configure(config: pytest.Config) -> None:
    if not _terminal:
        _terminal.append(_terminal_fd(config))


def _arm() -> None:
    if _terminal:
        faulthandler.dump_traceback_later(BACKSTOP, exit=True, file=_terminal[0])


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup() -> None:
    _arm()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_call() -> None:
    _arm()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_teardown() -> None:
    _arm()


def pytest_runtest_logfinish() -> None:
    faulthandler.cancel_dump_traceback_later()
