"""The migrations: each file is named as its revision, and they form one line from the first
schema to the one head that the store upgrades to."""

from __future__ import annotations

import ast
import sqlite3
import subprocess
import sys
from pathlib import Path

from alembic.script import ScriptDirectory

from scopa.store.database import alembic_config, head_revision

VERSIONS = Path(alembic_config().get_main_option("script_location") or "") / "versions"


def assigned(path: Path, name: str) -> object:
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and [
            t.id for t in node.targets if isinstance(t, ast.Name)
        ] == [name]:
            return ast.literal_eval(node.value)
    raise AssertionError(f"{path.name} has no {name}")


def test_each_file_is_named_as_its_revision() -> None:
    files = sorted(p for p in VERSIONS.glob("*.py") if p.name != "__init__.py")
    assert files
    assert [f"{assigned(p, 'revision')}.py" for p in files] == [p.name for p in files]


def test_one_line_of_revisions() -> None:
    scripts = ScriptDirectory.from_config(alembic_config())
    assert len(scripts.get_heads()) == 1
    line = list(scripts.walk_revisions())  # from the head down
    assert line[-1].down_revision is None
    assert [r.down_revision for r in line[:-1]] == [r.revision for r in line[1:]]
    assert len(line) == len([p for p in VERSIONS.glob("*.py") if p.name != "__init__.py"])


def test_the_head_the_store_knows_is_alembics() -> None:
    assert ScriptDirectory.from_config(alembic_config()).get_current_head() == head_revision()


def test_a_schema_at_the_head_is_opened_without_alembic(tmp_path: Path) -> None:
    """A command or a server opening a database already migrated does not import Alembic (a
    quarter of a second of its start); one a revision behind is brought to the head."""
    from scopa.store import MatchStore

    db = tmp_path / "scopa.db"
    MatchStore.open(f"sqlite:///{db}").close()
    opened = (
        "import sys; from scopa.store import MatchStore; "
        f"MatchStore.open('sqlite:///{db}').close(); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'alembic'))"
    )
    done = subprocess.run([sys.executable, "-c", opened], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "[]\n"

    with sqlite3.connect(db) as connection:  # one revision behind: the last one's down
        connection.execute("UPDATE alembic_version SET version_num = '0016_table_notify'")
        connection.execute("ALTER TABLE players DROP COLUMN seat")
    done = subprocess.run([sys.executable, "-c", opened], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "alembic" in done.stdout
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT version_num FROM alembic_version").fetchall() == [
            (head_revision(),)
        ]


def test_the_made_names_migrate_up_and_down(empty_database_url: str) -> None:
    """0013_made_names: a row from before whose name reads as one the program made gets its
    kind and parameters (shown in the reader's language after), any other name none; down,
    the names stay as they were stored."""
    import json

    from alembic import command

    from scopa.i18n import using
    from scopa.store import MatchStore, make_engine, migrate
    from tests.store.conftest import alembic_on

    names = {
        "Against the computer (Scopa, normal)": (
            "computer",
            {"variant": "Scopa", "level": "normal"},
        ),
        "Table 7K2Q (Escoba) (rematch)": (
            "rematch",
            {"of": "table", "code": "7K2Q", "variant": "Escoba"},
        ),
        "Sunday (rematch)": ("rematch", {"name": "Sunday"}),
        "Sunday": (None, None),
    }
    engine = make_engine(empty_database_url)
    with engine.begin() as connection:
        command.upgrade(alembic_on(connection), "0012_turn_clock")
        for name in names:
            connection.exec_driver_sql(
                "INSERT INTO matches (name, players, rules, version, created_at, updated_at) "
                "VALUES (%s, '[\"Anna\", \"Bruno\"]', '{}', 1, '2026-01-01', '2026-01-01')"
                % ("'" + name + "'")
            )
    migrate(engine)
    with engine.begin() as connection:
        rows = connection.exec_driver_sql("SELECT name, name_kind, name_args FROM matches").all()
    found = {
        name: (
            kind,
            None if args is None else (json.loads(args) if isinstance(args, str) else args),
        )
        for name, kind, args in rows
    }
    assert found == names
    store = MatchStore(engine)
    with using("it"):
        titles = sorted(line.title for line in store.lines()[0])
    assert titles == [
        "Contro il computer (Scopa, normale)",
        "Sunday",
        "Sunday (rivincita)",
        "Tavolo 7K2Q (Escoba) (rivincita)",
    ]
    with engine.begin() as connection:
        config = alembic_on(connection)
        command.downgrade(config, "0012_turn_clock")
        kept = connection.exec_driver_sql("SELECT name FROM matches ORDER BY name").all()
        assert sorted(n for (n,) in kept) == sorted(names)
        columns = connection.exec_driver_sql("SELECT * FROM matches").keys()
        assert "name_kind" not in columns
        assert "name_args" not in columns
        command.upgrade(config, "head")
    store.close()


def test_the_seat_kinds_migrate_up_and_down(empty_database_url: str) -> None:
    """0015_seat_kinds: a game against the computer's seats (its rematch's too) and a table's
    computer seats get their kinds; a person who typed a name like the computer's keeps it as
    a person's; down, the column goes and the names stay."""
    import json

    from alembic import command
    from sqlalchemy import text

    from scopa.made_names import COMPUTER, PARTNER, PERSON, YOU, Seat
    from scopa.store import MatchStore, make_engine, migrate
    from tests.store.conftest import alembic_on

    rows = [  # name_kind, name_args, players
        (
            "computer",
            '{"variant": "Scopone", "level": "normal"}',
            "You|Computer 1|Partner|Computer 2",
        ),
        ("rematch", '{"of": "computer", "variant": "Scopa", "level": "easy"}', "You|Computer"),
        ("table", '{"code": "7K2Q", "variant": "Scopa"}', "Anna|Computer 2|Bruno|Computer 1"),
        (None, None, "Anna|Computer 2"),
    ]
    engine = make_engine(empty_database_url)
    with engine.begin() as connection:
        command.upgrade(alembic_on(connection), "0014_table_player")
        for kind, args, players in rows:
            connection.execute(
                text(
                    "INSERT INTO matches (name_kind, name_args, players, rules, version, "
                    "created_at, updated_at) VALUES (:kind, :args, :players, '{}', 1, "
                    "'2026-01-01', '2026-01-01')"
                ),
                {"kind": kind, "args": args, "players": json.dumps(players.split("|"))},
            )
        connection.exec_driver_sql(
            "INSERT INTO tables (variant, players, level, seed, log, step, status, match_id, "
            "created_at, updated_at, code, rules, grace, clock, version, moved_at) VALUES "
            "('scopa', 4, 'normal', 1, '[]', 0, 'playing', 3, '2026-01-01', '2026-01-01', "
            "'7K2Q', '{}', 60, 0, 1, 0)"
        )
        for seat, name, kind in ((0, "Anna", "human"), (1, "Computer 2", "computer")):
            connection.exec_driver_sql(
                "INSERT INTO table_seats (table_id, seat, name, kind) VALUES "
                f"(1, {seat}, '{name}', '{kind}')"
            )
        connection.exec_driver_sql(
            "INSERT INTO table_seats (table_id, seat, name, kind) VALUES "
            "(1, 2, 'Bruno', 'human'), (1, 3, 'Computer 1', 'computer')"
        )
    migrate(engine)
    with engine.begin() as connection:
        found = connection.exec_driver_sql("SELECT id, seat_kinds FROM matches ORDER BY id").all()
    kinds = [None if k is None else (json.loads(k) if isinstance(k, str) else k) for _i, k in found]
    assert kinds == [
        [{"kind": "you"}, {"kind": "computer", "number": 1}, {"kind": "partner"},
         {"kind": "computer", "number": 2}],
        [{"kind": "you"}, {"kind": "computer"}],
        [{"kind": "person"}, {"kind": "computer", "number": 2}, {"kind": "person"},
         {"kind": "computer", "number": 1}],
        None,
    ]  # fmt: skip
    store = MatchStore(engine)
    assert store.get(1).match.seat_kinds == (
        Seat(YOU),
        Seat(COMPUTER, 1),
        Seat(PARTNER),
        Seat(COMPUTER, 2),
    )
    assert store.get(4).match.seat_kinds == ()
    assert store.get(3).match.seat_kinds[0] == Seat(PERSON)
    store.close()
    with engine.begin() as connection:
        config = alembic_on(connection)
        command.downgrade(config, "0014_table_player")
        columns = connection.exec_driver_sql("SELECT * FROM matches").keys()
        assert "seat_kinds" not in columns
        command.upgrade(config, "head")


def test_the_players_seats_migrate_up_and_down(empty_database_url: str) -> None:
    """0017_player_seats: a name the program gave a seat in a match (its ``seat_kinds``) is
    remembered as that seat, in the match's group; a person's seat and a person who typed a
    name like the computer's at the score sheet stay a person's; down, the column goes and
    the names stay."""
    import json

    from alembic import command
    from sqlalchemy import text

    from scopa.store import MatchStore, make_engine, migrate
    from tests.store.conftest import alembic_on

    computer = [{"kind": "you"}, {"kind": "computer", "number": 2}]
    table = [{"kind": "person"}, {"kind": "computer", "number": 1}]
    rows = [  # group, players, seat_kinds
        (None, ["You", "Computer 2"], computer),
        (None, ["Anna", "Computer 1"], table),
        (None, ["Anna", "Partner"], None),
        (1, ["Computer 2", "Bruno"], None),
    ]
    engine = make_engine(empty_database_url)
    with engine.begin() as connection:
        command.upgrade(alembic_on(connection), "0016_table_notify")
        connection.exec_driver_sql(
            "INSERT INTO groups (id, name, code_hash, hint, created_at, max_matches, max_deals, "
            "max_bytes, used_matches, used_deals, used_bytes) "
            "VALUES (1, 'Rossi', 'x', 'RS', '2026-01-01', 10, 10, 10, 0, 0, 0)"
        )
        for group, players, kinds in rows:
            connection.execute(
                text(
                    "INSERT INTO matches (group_id, players, seat_kinds, rules, version, "
                    "created_at, updated_at) VALUES (:group, :players, :kinds, '{}', 1, "
                    "'2026-01-01', '2026-01-01')"
                ),
                {
                    "group": group,
                    "players": json.dumps(players),
                    "kinds": None if kinds is None else json.dumps(kinds),
                },
            )
        for group, name in dict.fromkeys((g, n) for g, players, _k in rows for n in players):
            connection.execute(
                text(
                    "INSERT INTO players (name, last_played_at, group_id) "
                    "VALUES (:name, '2026-01-01', :group)"
                ),
                {"name": name, "group": group},
            )
    migrate(engine)
    with engine.begin() as connection:
        found = connection.exec_driver_sql(
            "SELECT group_id, name, seat FROM players ORDER BY group_id, name"
        ).all()
    seats = {
        (group, name): None
        if seat is None
        else (json.loads(seat) if isinstance(seat, str) else seat)
        for group, name, seat in found
    }
    assert seats == {
        (None, "You"): {"kind": "you"},
        (None, "Computer 2"): {"kind": "computer", "number": 2},
        (None, "Anna"): None,
        (None, "Computer 1"): {"kind": "computer", "number": 1},
        (None, "Partner"): None,
        (1, "Computer 2"): None,
        (1, "Bruno"): None,
    }
    store = MatchStore(engine)
    assert store.player_names() == ["Anna", "Partner"]
    assert sorted(store.in_group(1).player_names()) == ["Bruno", "Computer 2"]
    store.close()
    with engine.begin() as connection:
        config = alembic_on(connection)
        command.downgrade(config, "0016_table_notify")
        columns = connection.exec_driver_sql("SELECT * FROM players").keys()
        assert "seat" not in columns
        assert connection.exec_driver_sql("SELECT count(*) FROM players").scalar() == 7
        command.upgrade(config, "head")
