"""The command line through its real entry points: ``scopa.cli.main`` and ``.venv/bin/scopa``."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from scopa.cards import CardSet
from scopa.cli import main

ROOT = Path(__file__).parents[1]
EXAMPLES = ROOT / "examples"
SCOPA = Path(sys.executable).parent / "scopa"

WORKED_A = CardSet.parse(
    "Ad 2d 3d 5d 7d Kd Ac 2c 6c 7c Hc 2s 4s 7s Js Ks 2b 3b 5b 6b Hb Kb"
).to_list()
WORKED_MATCH: dict[str, Any] = {
    "players": ["A", "B"],
    "rules": {"target": 5},
    "deals": [
        {
            "piles": {
                "A": {"cards": WORKED_A},
                "B": {
                    "count": 18,
                    "coins": ["4", "6", "J", "H"],
                    "best": {"c": "5", "s": "6", "b": "7"},
                },
            },
            "sweeps": {"A": 1, "B": 2},
            "last_capture": None,
        }
    ],
}
WORKED_SHEET: dict[str, Any] = {
    "sides": ["A", "B"],
    "deals": [
        {
            "number": 1,
            "points": {
                "A": {
                    "cards": 1,
                    "coins": 1,
                    "settebello": 1,
                    "primiera": 1,
                    "sweeps": 1,
                    "napola": 0,
                    "total": 5,
                },
                "B": {
                    "cards": 0,
                    "coins": 0,
                    "settebello": 0,
                    "primiera": 0,
                    "sweeps": 2,
                    "napola": 0,
                    "total": 2,
                },
            },
            "totals": {"A": 5, "B": 2},
            "after_end": False,
        }
    ],
    "totals": {"A": 5, "B": 2},
    "status": "won",
    "winner": "A",
    "decided_at": 1,
}
BAD_MATCH = json.loads(json.dumps(WORKED_MATCH))
BAD_MATCH["deals"] = [BAD_MATCH["deals"][0]] * 4
BAD_MATCH["deals"][3] = json.loads(json.dumps(WORKED_MATCH["deals"][0]))
BAD_MATCH["deals"][3]["piles"]["B"]["coins"][2] = "Xd"
BAD_PLACE = "deals[3].piles.B.coins[2]: 'Xd' is not a rank"


def feed_stdin(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))


def test_score_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "match.json"
    path.write_text(json.dumps(WORKED_MATCH))
    assert main(["score", str(path)]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out) == WORKED_SHEET
    assert err == ""
    assert out.startswith('{\n  "sides": [\n')


def test_score_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    feed_stdin(monkeypatch, json.dumps(WORKED_MATCH))
    assert main(["score", "-"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out) == WORKED_SHEET
    assert err == ""


def test_score_bundled_examples(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(EXAMPLES / "two-players.json")]) == 0
    sheet = json.loads(capsys.readouterr().out)
    assert sheet["sides"] == ["Anna", "Bruno"]
    assert sheet["totals"] == {"Anna": 13, "Bruno": 8}
    assert (sheet["status"], sheet["winner"], sheet["decided_at"]) == ("won", "Anna", 4)
    assert main(["score", str(EXAMPLES / "partnership.json")]) == 0
    sheet = json.loads(capsys.readouterr().out)
    assert sheet["sides"] == ["Anna & Carla", "Bruno & Dario"]
    assert sheet["totals"] == {"Anna & Carla": 16, "Bruno & Dario": 18}
    assert (sheet["status"], sheet["winner"], sheet["decided_at"]) == ("in_progress", None, None)


def test_invalid_file_names_the_place(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(BAD_MATCH))
    assert main(["score", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"scopa: {path}: {BAD_PLACE}")


def test_invalid_stdin_names_the_place(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    feed_stdin(monkeypatch, json.dumps(BAD_MATCH))
    assert main(["score", "-"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"scopa: <stdin>: {BAD_PLACE}")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '{"players": ["A", "B"], ',
            "scopa: <stdin>: not valid JSON: a key in double quotes is missing at line 1",
        ),
        ("[]", "scopa: <stdin>: expected a match (a JSON object), found a list"),
        (
            '{"players": ["A", "B"], "rules": {"ties": "split"}}',
            "scopa: <stdin>: rules.ties: 'split' is outside",
        ),
    ],
)
def test_invalid_stdin_messages(
    text: str, message: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    feed_stdin(monkeypatch, text)
    assert main(["score", "-"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(message)


def test_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope.json"
    assert main(["score", str(missing)]) == 1  # not found: a failure, not a usage error
    out, err = capsys.readouterr()
    assert out == ""
    assert err.strip() == f"scopa: {missing}: no such file"


def test_sheet_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sheet", str(EXAMPLES / "two-players.json")]) == 0
    out = capsys.readouterr().out
    assert "Anna" in out
    assert "Bruno" in out
    assert "Anna wins at deal 4" in out


def run(args: list[str], stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(SCOPA), *args], input=stdin, capture_output=True, text=True, timeout=240, check=False
    )


def test_real_command_file_and_stdin(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    path.write_text(json.dumps(WORKED_MATCH))
    done = run(["score", str(path)])
    assert (done.returncode, done.stderr) == (0, "")
    assert json.loads(done.stdout) == WORKED_SHEET
    done = run(["score", "-"], json.dumps(WORKED_MATCH))
    assert (done.returncode, done.stderr) == (0, "")
    assert json.loads(done.stdout) == WORKED_SHEET


def test_real_command_invalid_input() -> None:
    done = run(["score", "-"], json.dumps(BAD_MATCH))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith(f"scopa: <stdin>: {BAD_PLACE}")
    assert "Traceback" not in done.stderr
