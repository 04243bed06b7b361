"""The suite's own guards: a test that hangs fails alone instead of holding the whole run, and
a worker that crashes or a controller that stops reporting ends its tier (scripts/run-tests.sh,
scripts/watchdog.py) instead of holding it for ever."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from tests import backstop
from tests.waiting import until

ROOT = Path(__file__).resolve().parent.parent


def test_the_project_sets_a_per_test_timeout() -> None:
    options = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert "-p pytest_timeout" in options["addopts"]
    assert 0 < options["timeout"] <= 600
    assert options["timeout_method"] == "signal"
    # tests/backstop.py's bound on each phase comes after the timeout and before the watchdog
    # (scripts/run-tests.sh's 600 s of silence).
    assert options["timeout"] < backstop.BACKSTOP < 600


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


def _run_in_own_group(command: list[str], bound: float, **options: Any) -> tuple[int, str]:
    """``command``'s status and what it printed, run in a process group of its own; the
    group is killed should it outlive ``bound`` seconds (meant for a broken script), which
    fails the test."""
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
        **options,
    )
    try:
        out, _ = process.communicate(timeout=bound)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        out, _ = process.communicate()
        pytest.fail(f"{command} still ran after {bound:g} s:\n{out}")
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    return process.returncode, out


def test_a_crashed_worker_fails_the_tier_at_once(tmp_path: Path) -> None:
    # A worker that dies in a test (here a segmentation fault of its own making), among
    # tests that pass. pytest-xdist replaced it and ran the test again, in a new worker each
    # time, until its limit of restarts; or its controller waited for ever once the other
    # worker had been told that nothing was left.
    (tmp_path / "test_crash.py").write_text(
        "import os\n"
        "import signal\n"
        "def test_before():\n"
        "    assert True\n"
        "def test_crashes():\n"
        "    os.kill(os.getpid(), signal.SIGSEGV)\n"
        "def test_after():\n"
        "    assert True\n"
        "def test_last():\n"
        "    assert True\n"
    )
    status, out = _run_in_own_group(
        [str(ROOT / "scripts" / "run-tests.sh"), "fast", str(tmp_path / "test_crash.py")],
        bound=300,
        cwd=tmp_path,
    )
    assert status == 1, out
    assert "crashed while running" in out, out
    assert "test_crash.py::test_crashes" in out, out
    assert "1 failed" in out, out  # once, not again in a new worker


def test_a_teardown_that_hangs_after_the_timeout_ends_its_worker_with_the_stacks(
    tmp_path: Path,
) -> None:
    # pytest-timeout's signal fires once, in the test; a fixture whose teardown then waits
    # for ever held its worker, silent, until the watchdog stopped the whole tier with no
    # word of which test (the CI run of issue 50's stop 54). The backstop (tests/backstop.py)
    # prints every thread's stack and ends the worker, which names the test.
    (tmp_path / "conftest.py").write_text(
        "import pytest\n"
        "from tests import backstop\n"
        "def pytest_configure(config):\n"
        "    config.pluginmanager.register(backstop, 'scopa-backstop')\n"
    )
    (tmp_path / "test_hang.py").write_text(
        "import threading\n"
        "import pytest\n"
        "@pytest.fixture\n"
        "def held():\n"
        "    yield\n"
        "    threading.Event().wait()\n"
        "def test_before():\n"
        "    assert True\n"
        "def test_waits_twice(held):\n"
        "    threading.Event().wait()\n"
    )
    status, out = _run_in_own_group(
        [
            str(ROOT / "scripts" / "run-tests.sh"),
            "fast",
            "-o",
            "timeout=1",
            str(tmp_path / "test_hang.py"),
        ],
        bound=300,
        cwd=tmp_path,
        env={**os.environ, "SCOPA_TEST_BACKSTOP": "3", "PYTHONPATH": str(ROOT)},
    )
    assert status == 1, out
    assert "Timeout" in out, out  # the test's own timeout fired first
    assert "crashed while running" in out, out
    assert "test_hang.py::test_waits_twice" in out, out
    assert 'test_hang.py", line 6 in held' in out, out  # the stack of the hung teardown
    assert "watchdog" not in out, out


def test_the_watchdog_stops_a_silent_command_and_its_group(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    # A command that starts a child, says so, then waits for nothing, as does the child.
    silent = (
        "import subprocess, sys, threading\n"
        "child = subprocess.Popen([sys.executable, '-c', "
        "'import threading; threading.Event().wait()'])\n"
        f"open({str(pid_file)!r}, 'w').write(str(child.pid))\n"
        "print('started', flush=True)\n"
        "threading.Event().wait()\n"
    )
    status, out = _run_in_own_group(
        [sys.executable, str(ROOT / "scripts" / "watchdog.py"), "5", sys.executable, "-c", silent],
        bound=300,
    )
    assert status == 124, out
    assert out.startswith("started\n"), out
    assert "printed nothing for 5 s: stopped" in out, out
    child = int(pid_file.read_text())
    until(lambda: not _alive(child), "the silent command's child to stop", seconds=60)


def test_the_watchdog_passes_on_output_and_status() -> None:
    status, out = _run_in_own_group(
        [
            sys.executable,
            str(ROOT / "scripts" / "watchdog.py"),
            "60",
            sys.executable,
            "-c",
            "import sys; print('out'); print('err', file=sys.stderr); sys.exit(3)",
        ],
        bound=300,
    )
    assert status == 3, out
    assert sorted(out.split()) == ["err", "out"], out


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead but not yet collected, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_paths_named_out_of_folder_order_still_see_their_folders_fixtures() -> None:
    """``make test ARGS="tests/web/a.py tests/b.py tests/web/c.py"``: pytest met tests/web
    twice, and its second node did not see tests/web/conftest.py (c.py's tests failed with
    "fixture 'client' not found"); the paths are put in their folders' order first."""
    named = ["tests/web/test_deal_check.py", "tests/test_cards.py", "tests/web/test_pages.py"]
    chosen = "complete_tally_is_ready or forty_cards or names_are_escaped"
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-n0", "-k", chosen, *named],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stdout[-3000:]
    assert "5 passed" in run.stdout  # the two web tests on SQLite and PostgreSQL, the deck
