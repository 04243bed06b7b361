"""The suite's own guard: a test that hangs fails alone instead of holding the whole run."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_project_sets_a_per_test_timeout() -> None:
    options = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert "-p pytest_timeout" in options["addopts"]
    assert 0 < options["timeout"] <= 600
    assert options["timeout_method"] == "signal"


def test_a_hanging_test_fails_with_its_name_and_the_next_one_still_runs(tmp_path: Path) -> None:
    (tmp_path / "test_hang.py").write_text(
        "import threading\n"
        "def test_waits_for_nothing():\n"
        "    threading.Event().wait()\n"
        "def test_after_it():\n"
        "    assert True\n"
    )
    # The project's own configuration (its plugins and the timeout's method), the limit cut
    # to a second so that the check is quick.
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-c",
            str(ROOT / "pyproject.toml"),
            "--rootdir",
            str(tmp_path),
            "-o",
            "timeout=1",
            str(tmp_path / "test_hang.py"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    out = run.stdout + run.stderr
    assert run.returncode == 1, out
    assert "Timeout" in out, out
    assert "FAILED test_hang.py::test_waits_for_nothing" in out, out
    assert "1 failed, 1 passed" in out, out
