"""Issue 9, finding 8: names written before the rule (or by another program) never reach a
terminal as escape sequences: `scopa matches list/show/history` and `access list` show them
escaped."""

from __future__ import annotations

from pathlib import Path

import pytest

from scopa.cli import main
from scopa.match import Match
from scopa.names import clean_name, name_key, printable
from scopa.rules import Settings
from scopa.store import MatchStore, database_url

OSC52 = "\x1b]52;c;aGVsbG8=\x07"


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    url = database_url(str(tmp_path / "scopa.db"))
    monkeypatch.setenv("SCOPA_DATABASE_URL", url)
    monkeypatch.setenv("COLUMNS", "200")
    store = MatchStore.open(url)
    try:
        match = Match((f"Anna{OSC52}", "Bru\u202eno"), Settings(), (), None, f"Fri{OSC52}")
        store.create(match=match)
        store.new_access_code(f"phone{OSC52}")
    finally:
        store.close()
    return url


@pytest.mark.parametrize(
    "command",
    [
        ["matches", "list"],
        ["matches", "show", "1"],
        ["matches", "history", "1"],
        ["access", "list"],
    ],
)
def test_terminal_output_escapes_hidden_characters(
    db: str, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    assert main(command) == 0
    out, err = capsys.readouterr()
    assert "\x1b" not in out + err
    assert "\x07" not in out + err
    assert "\u202e" not in out + err
    assert "\\x1b]52" in out


def test_the_rule() -> None:
    assert clean_name(" Anna\u0301 ", "players[0]") == "Ann\u00e1"
    assert printable("a\u202eb\U000e0001") == "a\\u202eb\\U000e0001"
    assert name_key("anna") == name_key("Anna ") == name_key(" ANNA")
    with pytest.raises(Exception, match="U\\+0000"):
        clean_name("a\x00b", "name")


@pytest.mark.parametrize("kind", [[], ["--sheet"], ["--csv"]], ids=["match", "sheet", "csv"])
def test_export_escapes_hidden_characters_and_json_stays_the_data(
    db: str, capsys: pytest.CaptureFixture[str], kind: list[str]
) -> None:
    """``scopa matches export`` of names stored by an older version (issue 25, finding 8):
    nothing hidden reaches the terminal raw; the JSON still reads as the same names."""
    import json

    assert main(["matches", "export", "1", *kind]) == 0
    out, _ = capsys.readouterr()
    assert "\x1b" not in out
    assert "\x07" not in out
    assert "\u202e" not in out
    if kind != ["--csv"]:
        data = json.loads(out)
        players = data["players"] if "players" in data else data["sides"]
        assert f"Anna{OSC52}" in players


@pytest.mark.parametrize("column", ["rules", "facts"])
def test_a_damaged_database_is_said_with_its_stored_text_escaped(
    db: str, capsys: pytest.CaptureFixture[str], column: str
) -> None:
    """Issue 49, N6: a match whose stored facts no longer read (changed outside the program)
    is said in one line, exit status 1, its stored control characters escaped."""
    import json

    from sqlalchemy import create_engine, text

    engine = create_engine(db)
    try:
        with engine.begin() as connection:
            if column == "rules":
                rules = json.dumps({f"target{OSC52}": 11})
                connection.execute(text("UPDATE matches SET rules = :r"), {"r": rules})
            else:
                match_id = connection.execute(text("SELECT id FROM matches")).scalar_one()
                facts = json.dumps({"piles": {f"Carla{OSC52}": {"count": 40}}})
                connection.execute(
                    text(
                        "INSERT INTO deals (match_id, position, facts, created_at)"
                        " VALUES (:m, 0, :f, CURRENT_TIMESTAMP)"
                    ),
                    {"m": match_id, "f": facts},
                )
    finally:
        engine.dispose()
    assert main(["matches", "show", "1"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("scopa: match 1 in the database is damaged: ")
    assert "\x1b" not in err
    assert "\x07" not in err
    assert "\\x1b]52" in err
    assert err.count("\n") == 1
