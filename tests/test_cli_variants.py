"""``scopa score`` reads a match's variant (docs/formats.md "Variants"), through the entry point."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scopa.cli import main
from tests.conftest import run

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


def test_matches_new_takes_the_variant_and_its_rules(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ("matches", "new", "Anna", "Bruno", "--variant", "cirulla", "--rule", "piccola_cap=7")
    assert run(capsys, *args) == (0, "1\n", "")
    code, out, _ = run(capsys, "matches", "rules", "1")
    assert code == 0
    assert "piccola_cap=7" in out
    assert "target=51" in out
    assert "napola" not in out
    _, out, _ = run(capsys, "matches", "history", "1")
    assert "Match created" in out
    assert "imported" not in out
    code, out, _ = run(capsys, "matches", "rules", "1", "cappotto=off")
    assert (code, out.strip()) == (0, "Cappotto off: no score changed")
    code, out, err = run(capsys, "matches", "rules", "1", "napola=run")
    assert code == 2
    assert "rules.napola: a setting of scopa, scopone and assi, not of cirulla" in err
    code, _, err = run(capsys, "matches", "new", "A", "B", "C", "--variant", "scopone")
    assert code == 2
    assert "players: scopone is played by 4 players (3 given)" in err
    code, _, err = run(capsys, "matches", "new", "A", "B", "--variant", "briscola")
    assert code == 2
    assert "'briscola' is not a variant" in err


def test_import_with_and_without_a_variant(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "matches", "import", str(EXAMPLES / "escoba.json")) == (0, "1\n", "")
    code, out, _ = run(capsys, "matches", "export", "1")
    assert json.loads(out)["variant"] == "escoba"
    two = str(EXAMPLES / "two-players.json")
    assert run(capsys, "matches", "import", two, "--variant", "assi") == (0, "2\n", "")
    code, out, _ = run(capsys, "matches", "export", "2")
    exported = json.loads(out)
    assert (exported["variant"], exported["rules"]["ace_sweep"]) == ("assi", False)
    code, _, err = run(
        capsys, "matches", "import", str(EXAMPLES / "cirulla.json"), "--variant", "assi"
    )
    assert code == 2
    assert "a cirulla match, not assi" in err


def test_the_cirulla_sheet_says_the_match_was_won_by_a_cappotto(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``scopa sheet`` of a Cirulla match won by a cappotto says so, as the web sheet does
    (it said only "Bruno wins at deal 3", far below the target)."""
    code, out, _ = run(capsys, "sheet", str(EXAMPLES / "cirulla.json"))
    assert code == 0
    text = " ".join(out.split())
    assert "Bruno wins at deal 3 by a cappotto: all ten coins" in text
    code, out, _ = run(capsys, "sheet", str(EXAMPLES / "escoba.json"))
    assert "cappotto" not in out
