"""``time.monotonic()`` counted from this process's start, as on a machine booted a moment
ago. On ``sys.path`` (PYTHONPATH) of every Python process the suite starts when pytest runs
with ``--monotonic-from-zero`` (tests/conftest.py), and imported by pytest's own process."""

from __future__ import annotations

import time

_real = time.monotonic
_origin = _real()


def _from_zero() -> float:
    return _real() - _origin


if getattr(time.monotonic, "__name__", "") != "_from_zero":
    time.monotonic = _from_zero
