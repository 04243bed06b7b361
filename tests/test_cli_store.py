"""`scopa matches ...`, `scopa backup` and `scopa restore` through the real entry point."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from scopa.store import MatchStore, database_url
from tests.conftest import run

EXAMPLES = Path(__file__).parents[1] / "examples"
TWO = str(EXAMPLES / "two-players.json")


def test_import_list_show_export(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "matches", "import", TWO) == (0, "1\n", "")
    code, out, _ = run(capsys, "matches", "list")
    assert code == 0
    assert "Sunday at Nonna's" in out
    assert "Anna 13 · Bruno 8" in out
    assert "Anna won" in out
    code, out, _ = run(capsys, "matches", "show", "1")
    assert "Anna wins at deal 4" in out
    code, out, _ = run(capsys, "matches", "export", "1")
    assert json.loads(out) == json.loads(Path(TWO).read_text()) | {
        "rules": {
            "target": 11,
            "primiera": True,
            "napola": "off",
            "partnerships": False,
            "last_capture_sweep": False,
            "ties": "withhold",
        },
        "deals": json.loads(out)["deals"],
    }
    code, out, _ = run(capsys, "matches", "export", "1", "--csv")
    assert out.splitlines()[0] == "deal,Anna points,Anna total,Bruno points,Bruno total,after_end"
    assert out.splitlines()[-1] == "4,4,13,2,8,no"


def test_exported_match_scores_like_the_original(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "matches", "import", TWO)
    _, exported, _ = run(capsys, "matches", "export", "1")
    _, original_sheet, _ = run(capsys, "score", TWO)
    (db.parent / "exported.json").write_text(exported)
    _, again, _ = run(capsys, "score", str(db.parent / "exported.json"))
    assert json.loads(again) == json.loads(original_sheet)


def test_rules_change_rescores(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "matches", "import", TWO)
    code, out, _ = run(capsys, "matches", "rules", "1", "primiera=off", "target=15")
    assert code == 0
    assert out == "Target 15, Primiera off: Anna 13 → 10, Bruno 8 → 7; no winner yet\n"
    _, out, _ = run(capsys, "matches", "rules", "1")
    assert "target=15\nprimiera=off\n" in out
    _, out, _ = run(capsys, "matches", "history", "1")
    assert "Match imported" in out
    assert "Primiera off" in out
    # the rules as they already are: said so, and nothing stored (no line in the history)
    said = run(capsys, "matches", "rules", "1", "target=15")
    assert said == (0, "The house rules are as they were.\n", "")
    _, again, _ = run(capsys, "matches", "history", "1")
    assert again == out


def test_bad_input_exit_2_and_nothing_changes(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "matches", "import", TWO)
    assert run(capsys, "matches", "rules", "1", "napola=sometimes") == (
        2,
        "",
        "scopa: rules.napola: 'sometimes' is outside the allowed values ('off', 'flat' or 'run')\n",
    )
    code, out, err = run(capsys, "matches", "show", "7")
    assert (code, out, err) == (1, "", "scopa: no match with id 7\n")
    deal = db.parent / "deal.json"
    deal.write_text(json.dumps({"piles": {"Anna": {"count": 41}, "Carla": {"count": 0}}}))
    code, out, err = run(capsys, "matches", "add-deal", "1", str(deal))
    assert code == 2
    assert out == ""
    assert err == "scopa: piles.Carla: 'Carla' is not a player of this match (Anna, Bruno)\n"
    deal.write_text(json.dumps({"piles": {"Anna": {"count": 41}, "Bruno": {"count": 0}}}))
    code, out, err = run(capsys, "matches", "add-deal", "1", str(deal))
    assert (code, out) == (2, "")
    assert err == "scopa: piles.Anna.count: 41 is outside 0-40 (the number of cards captured)\n"
    _, out, _ = run(capsys, "matches", "history", "1")
    assert "Deal 5" not in out


def test_add_deal_records_and_reports(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    match = json.loads(Path(TWO).read_text())
    first_deal = match["deals"][0]
    match["deals"] = []
    (db.parent / "m.json").write_text(json.dumps(match))
    run(capsys, "matches", "import", str(db.parent / "m.json"))
    (db.parent / "d.json").write_text(json.dumps(first_deal))
    code, out, _ = run(capsys, "matches", "add-deal", "1", str(db.parent / "d.json"))
    assert (code, out) == (0, "deal 1 recorded: Anna 3, Bruno 3\n")


def test_backup_and_restore(db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "matches", "import", TWO)
    copy = tmp_path / "backup.db"
    code, out, _ = run(capsys, "backup", str(copy))
    assert code == 0
    assert "(1 match)" in out
    with sqlite3.connect(copy) as conn:
        assert conn.execute("SELECT count(*) FROM deals").fetchone() == (4,)
    run(capsys, "matches", "delete", "1")
    code, _, err = run(capsys, "restore", str(copy))
    assert code == 1
    assert "holds 1 match; add --force" in err
    code, out, _ = run(capsys, "restore", str(copy), "--force")
    assert code == 0
    _, out, _ = run(capsys, "matches", "list")
    assert "Sunday at Nonna's" in out
    assert run(capsys, "backup", str(copy))[2].endswith("exists already; choose a new file\n")
    not_db = tmp_path / "notes.txt"
    not_db.write_text("hello")
    code, _, err = run(capsys, "restore", str(not_db), "--force")
    assert code == 2
    assert err.strip().endswith("notes.txt: not a SQLite database")
    empty = tmp_path / "empty.db"
    empty.touch()
    code, _, err = run(capsys, "restore", str(empty), "--force")
    assert code == 2
    assert err.strip().endswith("empty.db: not a SQLite database")
    with sqlite3.connect(tmp_path / "other.db") as conn:
        conn.execute("CREATE TABLE notes (line TEXT)")
    code, _, err = run(capsys, "restore", str(tmp_path / "other.db"), "--force")
    assert code == 2
    assert err.strip().endswith("other.db: not a scopa database (no matches table)")
    with sqlite3.connect(db) as conn:  # the refusals changed nothing
        assert conn.execute("SELECT count(*) FROM matches").fetchone() == (1,)


def test_backup_refuses_postgres(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "backup", "x.db", "--db", "postgresql://u@localhost/db")
    assert code == 2
    assert "use pg_dump" in err


def test_real_entry_point(db: Path) -> None:
    done = subprocess.run(
        [str(Path(sys.executable).parent / "scopa"), "matches", "import", TWO],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stdout) == (0, "1\n")
    done = subprocess.run(
        [sys.executable, "-m", "scopa", "matches", "show", "2"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stdout, done.stderr) == (1, "", "scopa: no match with id 2\n")


def test_access_codes(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "access", "new", "--label", "kitchen")
    assert code == 0
    made = out.split()[0]
    assert len(made) == 9
    assert made[4] == "-"
    _, out, _ = run(capsys, "access", "list")
    assert f"{made[:2]}··-····" in out
    assert "kitchen" in out
    assert "active" in out
    assert made not in out
    assert run(capsys, "access", "revoke", made) == (0, "revoked 1 access code\n", "")
    assert run(capsys, "access", "revoke", made) == (
        1,
        "",
        f"scopa: {made}: no active access code matches\n",
    )
    _, out, _ = run(capsys, "access", "list")
    assert "revoked" in out


def test_revoke_all_counts_the_devices_it_shuts_out(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`access revoke all` with no active code left still shuts every joined device out, and
    says so instead of failing after the change."""
    _, out, _ = run(capsys, "access", "new")
    made = out.split()[0]
    store = MatchStore.open(database_url(str(db)))
    try:
        assert store.join(made, "phone") is not None
    finally:
        store.close()
    assert run(capsys, "access", "revoke", made) == (0, "revoked 1 access code\n", "")
    assert run(capsys, "access", "revoke", "all") == (0, "revoked 1 device\n", "")
    _, out, _ = run(capsys, "access", "devices")
    assert "phone" in out
    assert "revoked" in out
    assert run(capsys, "access", "revoke", "all") == (
        1,
        "",
        "scopa: all: no active access code matches\n",
    )


def test_csv_export_does_not_run_formulas(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    match = {"players": ["=HYPERLINK(1)", "@Bruno"], "deals": []}
    (db.parent / "m.json").write_text(json.dumps(match))
    run(capsys, "matches", "import", str(db.parent / "m.json"))
    _, out, _ = run(capsys, "matches", "export", "1", "--csv")
    assert out.splitlines()[0] == (
        "deal,'=HYPERLINK(1) points,'=HYPERLINK(1) total,'@Bruno points,'@Bruno total,after_end"
    )


def test_names_with_markup_print_as_written(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    match = {"name": "[bold]Finals[/bold]", "players": ["[red]Anna", "Bruno"], "deals": []}
    (db.parent / "m.json").write_text(json.dumps(match))
    run(capsys, "matches", "import", str(db.parent / "m.json"))
    _, out, _ = run(capsys, "matches", "show", "1")
    assert "[bold]Finals[/bold]" in out
    assert "[red]Anna" in out
    _, out, _ = run(capsys, "matches", "list")
    assert "[red]Anna 0" in out


def test_rename(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "matches", "import", TWO)
    assert run(capsys, "matches", "rename", "1", "Finals") == (0, "match 1 renamed\n", "")
    _, out, _ = run(capsys, "matches", "list")
    assert "Finals" in out
    _, out, _ = run(capsys, "matches", "history", "1")
    assert "Renamed to 'Finals'" in out
    code, _, err = run(capsys, "matches", "rename", "1", "x" * 101)
    said = "scopa: name: '" + "x" * 40 + "…' is 101 characters; at most 100\n"
    assert (code, err) == (2, said)
    # read as a match file's name: trimmed, and a character that does not show refused
    assert run(capsys, "matches", "rename", "1", "  Fina\u0301ls  ")[0] == 0
    _, out, _ = run(capsys, "matches", "history", "1")
    assert "Renamed to 'Fin\u00e1ls'" in out  # NFC: one character
    code, _, err = run(capsys, "matches", "rename", "1", "Fin\u200bals")
    assert code == 2
    assert err.startswith("scopa: name: a match's name cannot hold the invisible")


def test_import_refuses_a_match_file_with_a_duplicate_key(tmp_path: Path) -> None:
    """Issue 49, N5: a file with ``players`` twice was imported with the last one."""
    db, file = tmp_path / "s.db", tmp_path / "m.json"
    file.write_text('{"players": ["Anna", "Bruno"], "players": ["Carla", "Dario"]}')
    scopa = str(Path(sys.executable).parent / "scopa")
    done = subprocess.run(
        [scopa, "matches", "import", str(file), "--db", str(db)],
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode != 0
    assert "the key 'players' is given twice in one object" in done.stderr
    assert str(file) in done.stderr
    listed = subprocess.run(
        [scopa, "matches", "list", "--db", str(db)],
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert "Carla" not in listed.stdout
