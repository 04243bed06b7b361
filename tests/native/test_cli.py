"""``scopa simulate --engine``: the same JSON from both engines; one line where no kernel."""

from __future__ import annotations

import json

import pytest

from scopa.cli import main
from scopa.engine import native


def simulate(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["simulate", "--json", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    "args",
    [
        ("--deals", "3000", "--seed", "9"),
        ("--variant", "escoba", "--players", "3", "--deals", "500"),
        ("--variant", "scopone", "--strategy", "greedy", "--strategy", "random", "--deals", "60"),
        ("--variant", "assi", "--matches", "3", "--rule", "ace_sweep=on"),
        ("--players", "4", "--partnerships", "--deals", "400", "--workers", "2"),
    ],
)
def test_same_json_from_both_engines(capsys: pytest.CaptureFixture[str], args: tuple[str]) -> None:
    code, out, err = simulate(capsys, *args, "--engine", "native")
    assert code == 0, err
    code, expected, err = simulate(capsys, *args, "--engine", "python")
    assert code == 0, err
    mine, theirs = json.loads(out), json.loads(expected)
    mine.pop("seconds"), theirs.pop("seconds")
    assert mine == theirs
    assert "engine" not in err


def test_unknown_engine(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = simulate(capsys, "--engine", "rust")
    assert code == 2
    assert out == ""
    assert "--engine: 'rust' is not an engine (native or python)" in err


def test_without_the_kernel_says_so_once(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(native, "AVAILABLE", False)
    why = "no C compiler was found; " * 5
    monkeypatch.setattr(native, "WHY", why)
    code, out, err = simulate(capsys, "--deals", "50")
    assert code == 0
    assert json.loads(out)["deals"] == 50
    # one line, however long
    assert err.splitlines() == [
        f"the native kernel is not built here ({why}): using the pure-Python engine"
    ]
    code, _, err = simulate(capsys, "--deals", "50", "--engine", "python")
    assert err == ""
