"""A test that starts a server leaves no process behind however it ends: failed, timed out
(pytest-timeout), interrupted (Ctrl+C), or with pytest itself killed (:mod:`tests.servers`).
Each case runs in a pytest of its own, which starts ``scopa serve --workers 2`` as the suite's
tests do and writes down the server's and its workers' processes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.waiting import until

pytestmark = [
    pytest.mark.system,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc (Linux)"),
]

ROOT = Path(__file__).resolve().parent.parent

ENDINGS = """
import os
import signal
from pathlib import Path

from tests.web.workers import Serve


def started(tmp_path: Path) -> Serve:
    running = Serve(f"sqlite:///{tmp_path / 's.db'}", 2)
    with open(os.environ["SCOPA_TEST_PIDS"], "a") as pids:
        for pid in (running.process.pid, *running.pids):
            start = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19]
            pids.write(f"{pid} {start}\\n")
    return running


def test_fails(tmp_path: Path) -> None:
    with started(tmp_path):
        assert False, "failed on purpose"


def test_times_out(tmp_path: Path) -> None:
    with started(tmp_path):
        signal.setitimer(signal.ITIMER_REAL, 0.01)  # pytest-timeout's alarm, now
        signal.pause()


def test_interrupted(tmp_path: Path) -> None:
    with started(tmp_path):
        raise KeyboardInterrupt


def test_pytest_killed(tmp_path: Path) -> None:
    started(tmp_path)
    os.kill(os.getpid(), signal.SIGKILL)
"""


def alive(pid: int, start: str) -> bool:
    """Whether process ``pid`` started at ``start`` (clock ticks after boot) still runs (a
    zombie, dead but not yet collected, does not)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return fields[19] == start and fields[0] != "Z"


def run_inner(tmp_path: Path, *select: str) -> tuple[str, list[tuple[int, str]]]:
    """The tests ``select`` of :data:`ENDINGS` run by a pytest of their own: what it said,
    and the processes its servers ran in."""
    (tmp_path / "test_endings.py").write_text(ENDINGS)
    pids = tmp_path / "pids"
    pids.write_text("")
    done = subprocess.run(
        [
            sys.executable, "-m", "pytest", "-c", str(ROOT / "pyproject.toml"),
            "--rootdir", str(tmp_path), "-p", "no:xdist", "-o", "timeout=600",
            *(f"{tmp_path / 'test_endings.py'}::{name}" for name in select),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT), "SCOPA_TEST_PIDS": str(pids)},
        timeout=900,
    )  # fmt: skip
    found = [(int(pid), start) for pid, start in map(str.split, pids.read_text().splitlines())]
    return done.stdout + done.stderr + f"\n(exit status {done.returncode})", found


def test_a_failed_timed_out_or_interrupted_test_leaves_no_server(tmp_path: Path) -> None:
    said, processes = run_inner(tmp_path, "test_fails", "test_times_out", "test_interrupted")
    assert "FAILED" in said, said
    assert "failed on purpose" in said, said
    assert "Timeout" in said, said
    assert "KeyboardInterrupt" in said, said
    assert len(processes) == 9, said  # three servers of two workers each
    assert [p for p in processes if alive(*p)] == [], said


def test_a_killed_pytest_leaves_no_server(tmp_path: Path) -> None:
    said, processes = run_inner(tmp_path, "test_pytest_killed")
    assert f"exit status {-signal.SIGKILL}" in said, said
    assert len(processes) == 3, said
    # The kernel tells the server at once; it then stops its workers as at a Ctrl+C.
    until(lambda: not any(alive(*p) for p in processes), "the servers to stop", seconds=120)
