"""Waiting for a condition in a test, never for a fixed time."""

from __future__ import annotations

import time
from collections.abc import Callable


def until(check: Callable[[], bool], what: str, seconds: float = 60.0) -> None:
    """Return as soon as ``check()`` is true; fail saying ``what`` was awaited once ``seconds``
    have passed (a bound for a broken product, never a latency the test asserts)."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, f"still waiting for {what}"
        time.sleep(0.02)
