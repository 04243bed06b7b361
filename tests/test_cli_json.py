"""The command line for scripts (issue 48, clig.dev): ``--json`` on every command that prints
data, shell completion, ``--version`` without loading the commands."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from scopa.store import MatchStore, database_url
from tests.conftest import run

EXAMPLES = Path(__file__).parents[1] / "examples"
TWO = str(EXAMPLES / "two-players.json")
SCOPA = str(Path(sys.executable).parent / "scopa")


def test_matches_list_show_and_history_print_the_apis_json(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "matches", "import", TWO) == (0, "1\n", "")
    code, out, err = run(capsys, "matches", "list", "--json")
    assert (code, err) == (0, "")
    [listed] = json.loads(out)
    assert (listed["id"], listed["totals"], listed["status"]) == (
        1,
        {"Anna": 13, "Bruno": 8},
        "won",
    )
    code, out, _ = run(capsys, "matches", "show", "1", "--json")
    shown = json.loads(out)
    assert (code, shown["id"], shown["sheet"]["winner"]) == (0, 1, "Anna")
    assert shown["match"]["players"] == ["Anna", "Bruno"]
    code, out, _ = run(capsys, "matches", "history", "1", "--json")
    entries = json.loads(out)
    assert code == 0
    assert [e["version"] for e in entries] == sorted(e["version"] for e in entries)
    assert entries


def test_access_codes_devices_and_players_log_print_json(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = MatchStore.open(database_url(str(db)))
    try:
        made, _ = store.new_access_code("kitchen\x1b[31m")
        assert store.join(made, "phone") is not None
    finally:
        store.close()
    code, out, _ = run(capsys, "access", "list", "--json")
    [listed] = json.loads(out)
    assert (code, listed["label"], listed["active"]) == (0, "kitchen\x1b[31m", True)
    assert "\x1b" not in out  # JSON escapes it: \u001b
    code, out, _ = run(capsys, "access", "devices", "--json")
    [device] = json.loads(out)
    assert (code, device["label"], device["active"]) == (0, "phone", True)
    run(capsys, "matches", "import", TWO)
    run(capsys, "players", "rename", "Bruno", "Bruna")
    code, out, _ = run(capsys, "players", "log", "--json")
    [change] = json.loads(out)
    assert (code, change["undone"]) == (0, False)
    assert "Bruna" in change["change"]


def test_groups_devices_print_json(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "groups", "devices", "--json") == (0, "[]\n", "")


def test_completion_is_offered_and_completes_commands() -> None:
    # Typer names the shell it finds among the command's parents (shellingham): run from bash
    # itself, so that the nearest shell is bash whatever started pytest (a make recipe's sh,
    # which Typer does not support, was found once: "Shell not supported").
    shown = subprocess.run(
        ["bash", "-c", '"$0" --show-completion bash; exit $?', SCOPA],
        capture_output=True,
        text=True,
        check=False,
    )
    assert shown.returncode == 0
    assert "_SCOPA_COMPLETE=complete_bash" in shown.stdout
    env = {**os.environ, "_SCOPA_COMPLETE": "complete_bash", "COMP_WORDS": "scopa mat"}
    env["COMP_CWORD"] = "1"
    done = subprocess.run([SCOPA], capture_output=True, text=True, env=env, check=False)
    assert (done.returncode, done.stdout.split()) == (0, ["matches"])
    helped = subprocess.run([SCOPA, "--help"], capture_output=True, text=True, check=False)
    assert "--install-completion" in helped.stdout


def test_version_does_not_load_the_commands() -> None:
    probe = (
        "import sys; from scopa.cli import main; main(['--version']); "
        "print(sorted(m for m in ('typer', 'rich', 'scopa.cli_app', 'sqlalchemy') "
        "if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines() == [f"scopa {__import__('scopa').__version__}", "[]"]
