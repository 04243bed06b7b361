"""Every benchmark still runs: each ``bench/*.py`` with a ``__main__`` is run through the
interpreter with ``--quick`` (every step on a little, its figures printed, no target judged:
speed is not asserted in the suite), so that none rots between the times someone measures
with it. A file without a ``__main__`` is a helper another benchmark names (``floor_app``).

The convention, for a new benchmark: take ``--quick`` and finish in a few seconds with it
(bench/README.md)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.servers import started

ROOT = Path(__file__).resolve().parents[1]
BENCHES = sorted((ROOT / "bench").glob("*.py"))
POSTGRES = {"hosted", "writepath"}
"""The benchmarks that start a throwaway PostgreSQL cluster."""
BROWSER = {"first_visit", "offline", "phone", "play_offline"}
"""The benchmarks that drive Chromium."""


def runs(path: Path) -> bool:
    return '__name__ == "__main__"' in path.read_text()


def marks(name: str) -> list[pytest.MarkDecorator]:
    found = [pytest.mark.slow, pytest.mark.system]  # they start servers, clusters, browsers
    if name in POSTGRES:
        found.append(pytest.mark.postgres)
    if name in BROWSER:
        found.append(pytest.mark.browser)
    return found


def test_the_benchmarks_are_found() -> None:
    assert {"stats", "web", "floor_app"} <= {path.stem for path in BENCHES}


@pytest.mark.parametrize(
    "path",
    [pytest.param(p, id=p.stem, marks=marks(p.stem)) for p in BENCHES if runs(p)],
)
def test_a_benchmark_runs_in_its_quick_mode(path: Path) -> None:
    # Its servers and browsers are its own group's, stopped with it however the test ends.
    with started(
        [sys.executable, str(path), "--quick"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    ) as process:
        output, _ = process.communicate(timeout=280)
    assert process.returncode == 0, output[-3000:]
    assert output.strip(), "the benchmark printed no figures"


def test_every_helper_is_named_by_a_benchmark() -> None:
    helpers = [p for p in BENCHES if not runs(p)]
    scripts = "\n".join(p.read_text() for p in BENCHES if runs(p))
    assert [p.stem for p in helpers if f"bench.{p.stem}" not in scripts] == []
