"""``scopa score`` reads a match's variant (docs/formats.md "Variants"), through the entry point."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scopa.cli import main

ROOT = Path(__file__).parents[1]
EXAMPLES = ROOT / "examples"
SCOPA = Path(sys.executable).parent / "scopa"


def test_score_the_cirulla_example(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(EXAMPLES / "cirulla.json")]) == 0
    sheet = json.loads(capsys.readouterr().out)
    assert next(iter(sheet)) == "variant"
    assert sheet["variant"] == "cirulla"
    assert sheet["deals"][0]["points"]["Anna"]["total"] == 15
    assert [row["cappotto"] for row in sheet["deals"]] == [None, None, "Bruno"]
    # Bruno's cappotto wins at deal 3, far below the target of 51.
    assert (sheet["status"], sheet["winner"], sheet["decided_at"]) == ("won", "Bruno", 3)
    assert sheet["totals"] == {"Anna": 21, "Bruno": 32}


def test_score_the_escoba_example(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(EXAMPLES / "escoba.json")]) == 0
    sheet = json.loads(capsys.readouterr().out)
    assert list(sheet["deals"][0]["points"]["Mateo"]) == [
        "cards",
        "coins",
        "settebello",
        "primiera",
        "sweeps",
        "total",
    ]
    assert sheet["totals"] == {"Lucía": 4, "Mateo": 8, "Sofía": 2}


def test_an_unknown_variant_exits_2_through_the_installed_command(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    path.write_text(json.dumps({"variant": "briscola", "players": ["A", "B"]}))
    done = subprocess.run(
        [str(SCOPA), "score", str(path)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert (
        "variant: 'briscola' is not a variant "
        "(the variants are scopa, scopone, assi, escoba, cirulla)"
    ) in done.stderr
