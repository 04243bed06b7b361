"""``scopa captures`` and ``scopa simulate`` through the real entry point."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import run

SCOPA = Path(sys.executable).parent / "scopa"
"""The installed console script of the interpreter running the tests (.venv/bin/scopa)."""


def test_captures_one_per_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "captures", "Hd", "As", "3c", "4b", "5c", "8b")
    assert code == 0
    assert out == "As Jb\n5c 4b\n3c 5c As\n"
    assert err == ""


def test_captures_json_and_rule(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "captures", "Hd", "As 3c 4b 5c Jb", "--rule", "sum_choice=fewest", "--json"
    )
    assert code == 0
    assert json.loads(out) == [["As", "Jb"], ["5c", "4b"]]


def test_captures_variants(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "captures", "Ad", "5s", "3c", "--variant", "assi")[1] == "3c 5s\n"
    assert run(capsys, "captures", "7d", "5s", "3c", "Jb", "--variant", "escoba")[1] == (
        "Jb\n3c 5s\n"
    )


def test_captures_none(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "captures", "3d", "6s", "--json")
    assert (code, json.loads(out)) == (0, [])
    code, out, err = run(capsys, "captures", "3d", "6s")
    assert (code, out) == (0, "")
    assert "3 of coins: no capture, it stays on the table" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["captures", "Xd", "5s"], "CARD: 'Xd' is not a card"),
        (["captures", "5d", "5s", "5s"], "TABLE[1]: '5s' is listed twice"),
        (["captures", "5d", "5d"], "TABLE: 5d is the card played"),
        (["captures", "5d", "--variant", "briscola"], "unknown variant 'briscola'"),
        (
            ["captures", "5d", "--rule", "sum_choice=most"],
            "sum_choice: 'most' is not one of 'free', 'fewest'",
        ),
        (["captures", "5d", "--rule", "colour=red"], "unknown variant option 'colour'"),
        (["captures", "5d", "--rule", "fewest"], "'fewest' is not NAME=VALUE"),
        (["simulate", "--players", "5"], "scopa is not dealt for 5 players"),
        (["simulate", "--variant", "scopone", "--players", "2"], "not dealt for 2 players"),
        (["simulate", "--strategy", "minimax"], "unknown strategy 'minimax'"),
        (["simulate", "--players", "3", "--partnerships"], "partnerships need 4 or 6 players"),
        (["simulate", "--variant", "cirulla", "--players", "6"], "cirulla is not dealt for 6"),
        (["captures", "7c", "--rule", "matta_play=wild"], "matta_play: 'wild' is not one of"),
        (["captures", "7c", "--rule", "low_table=maybe"], "low_table='maybe': expected on or off"),
    ],
)
def test_bad_input_exits_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2
    assert out == ""
    assert message in err


def test_simulate_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "--deals", "200", "--seed", "7", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["variant"] == "scopa"
    assert data["deals"] == 200
    assert data["seed"] == 7
    assert data["deal_wins"] == {"P1": 87, "P2": 91}
    points = data["points_per_deal"]["P1"]
    assert points["total"] == pytest.approx(436 / 200)
    assert set(data) >= {"sweeps_per_deal", "first_player", "deal_ties", "strategies"}


def test_simulate_matches_and_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "simulate", "--matches", "3", "--variant", "scopone", "--strategy", "greedy",
        "--strategy", "random",
    )  # fmt: skip
    assert code == 0
    assert "P1 & P3" in out
    assert "Matches won" in out
    assert "seats: greedy, random, greedy, random" in out


def test_simulate_s_help_names_every_strategy(capsys: pytest.CaptureFixture[str]) -> None:
    from scopa.engine.players import STRATEGIES

    code, out, _ = run(capsys, "simulate", "--help")
    assert code == 0
    words = set(out.replace(",", " ").replace("(", " ").split())
    assert set(STRATEGIES) <= words, set(STRATEGIES) - words


def test_the_installed_command() -> None:
    assert SCOPA.exists(), f"{SCOPA} is not installed (pip install -e .)"
    done = subprocess.run(
        [str(SCOPA), "captures", "5d", "5s", "3c", "2b", "--json"],
        capture_output=True,
        text=True,
        check=False,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [["5s"]]


def test_the_engine_imports_no_front_end_library() -> None:
    """The engine package is pure: importing all of it loads neither Typer nor Rich."""
    code = (
        "import sys, pkgutil, importlib, scopa.engine\n"
        "for m in pkgutil.walk_packages(scopa.engine.__path__, 'scopa.engine.'):\n"
        "    importlib.import_module(m.name)\n"
        "bad = sorted(n for n in sys.modules if n.split('.')[0] in ('typer', 'rich', 'click'))\n"
        "print(bad)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_simulate_cirulla_matches(capsys: pytest.CaptureFixture[str]) -> None:
    """``scopa simulate --variant cirulla --matches``: played to 51, with the cappotto."""
    code, out, _ = run(
        capsys, "simulate", "--variant", "cirulla", "--matches", "4", "--seed", "3",
        "--strategy", "greedy", "--strategy", "random", "--json",
    )  # fmt: skip
    assert code == 0
    data = json.loads(out)
    assert data["variant"] == "cirulla"
    assert data["rules"]["target"] == 51
    assert data["matches"] == 4
    assert sum(data["match_wins"].values()) == 4
    assert "cappotto_wins" in data
    keys = set(data["points_per_deal"]["P1"])
    assert keys == {"cards", "coins", "settebello", "primiera", "sweeps", "declarations",
                    "piccola", "grande", "total"}  # fmt: skip
    assert data["points_per_deal"]["P1"]["total"] > data["points_per_deal"]["P2"]["total"]
