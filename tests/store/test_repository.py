"""The match store on SQLite and PostgreSQL: facts in and out, versions, the change log, undo.

The store keeps facts and never scores; the use cases above it are tested in
``tests/application``."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from scopa.changes import (
    AddDeal,
    ChangeSettings,
    DeleteDeal,
    Rename,
    ReplaceDeal,
    RestoreDeal,
)
from scopa.errors import DealNotFoundError, MatchNotFoundError, VersionConflictError
from scopa.formats import deal_to_json, parse_match
from scopa.match import Match
from scopa.rules import Settings
from scopa.store import MatchStore, StoredMatch, database_url
from scopa.store.models import Base
from tests.store.conftest import alembic_on, example


def test_create_and_get_round_trip(store: MatchStore, two: Match) -> None:
    stored = store.create(match=two)
    assert stored.version == 1
    again = store.get(stored.id)
    assert again.match == two
    assert again == stored


def test_add_replace_delete_restore_keep_order_and_versions(store: MatchStore, two: Match) -> None:
    d1, d2, d3, d4 = two.deals
    stored = store.create(match=two.with_deals([]))
    for version, deal in enumerate([d1, d2, d3], start=1):
        stored = store.change(AddDeal(match_id=stored.id, deal=deal, version=version))
    assert stored.version == 4
    assert stored.match.deals == (d1, d2, d3)

    stored = store.change(ReplaceDeal(match_id=stored.id, number=2, deal=d4, version=4))
    assert stored.match.deals == (d1, d4, d3)

    stored = store.change(DeleteDeal(match_id=stored.id, number=1, version=5))
    assert stored.match.deals == (d4, d3)
    assert [(r.number, r.deal) for r in stored.removed] == [(1, d1)]

    stored = store.change(
        RestoreDeal(match_id=stored.id, removed_id=stored.removed[0].id, version=6)
    )
    assert stored.match.deals == (d1, d4, d3)
    assert stored.removed == ()
    assert stored.version == 7
    assert store.get(stored.id).match.deals == (d1, d4, d3)


def test_restored_deal_goes_last_when_match_is_shorter(store: MatchStore, two: Match) -> None:
    stored = store.create(match=two)
    stored = store.change(DeleteDeal(match_id=stored.id, number=4, version=None))
    stored = store.change(DeleteDeal(match_id=stored.id, number=3, version=None))
    first_removed = next(r for r in stored.removed if r.number == 4)
    stored = store.change(
        RestoreDeal(match_id=stored.id, removed_id=first_removed.id, version=None)
    )
    assert stored.match.deals == (two.deals[0], two.deals[1], two.deals[3])


def test_stale_version_is_refused_and_nothing_changes(store: MatchStore, two: Match) -> None:
    stored = store.create(match=two.with_deals(two.deals[:1]))
    store.change(AddDeal(match_id=stored.id, deal=two.deals[1], version=1))
    with pytest.raises(VersionConflictError, match=r"at version 2.*based on version 1"):
        store.change(AddDeal(match_id=stored.id, deal=two.deals[2], version=1))
    with pytest.raises(VersionConflictError):
        store.change(
            ChangeSettings(
                match_id=stored.id, settings=Settings(target=5), version=1, summary="", changes={}
            )
        )
    with pytest.raises(VersionConflictError):
        store.change(Rename(match_id=stored.id, name="x", version=1))
    with pytest.raises(VersionConflictError):
        store.delete_match(match_id=stored.id, version=1)
    after = store.get(stored.id)
    assert after.version == 2
    assert after.match.deals == two.deals[:2]
    assert after.match.settings == two.settings
    assert after.match.name == two.name


def test_unknown_ids(store: MatchStore, two: Match) -> None:
    with pytest.raises(MatchNotFoundError, match="no match with id 999"):
        store.get(999)
    stored = store.create(match=two)
    with pytest.raises(DealNotFoundError, match="has no deal 5"):
        store.change(ReplaceDeal(match_id=stored.id, number=5, deal=two.deals[0], version=None))
    with pytest.raises(DealNotFoundError, match="has no deal 0"):
        store.change(DeleteDeal(match_id=stored.id, number=0, version=None))
    with pytest.raises(DealNotFoundError, match="no removed deal"):
        store.change(RestoreDeal(match_id=stored.id, removed_id=12345, version=None))
    with pytest.raises(DealNotFoundError, match="no removed deal"):
        store.change(RestoreDeal(match_id=stored.id, removed_id=2**63, version=None))
    assert store.get(stored.id).version == 1


def test_settings_change_keeps_the_log_it_is_given(store: MatchStore, two: Match) -> None:
    stored = store.create(match=two)
    changes = {"summary": "Target 21: no winner yet"}
    stored = store.change(
        ChangeSettings(
            match_id=stored.id,
            settings=two.settings.replace(target=21),
            version=None,
            summary="Target 21: no winner yet",
            changes=changes,
        )
    )
    assert stored.match.settings.target == 21
    assert stored.match.deals == two.deals
    log = store.history(stored.id)
    assert [e.action for e in log] == ["create", "settings"]
    assert log[1].summary == "Target 21: no winner yet"
    assert log[1].detail["before"]["target"] == 11
    assert log[1].detail["after"]["target"] == 21
    assert log[1].detail["changes"] == changes


def test_history_keeps_what_was_overwritten(store: MatchStore, two: Match) -> None:
    stored = store.create(match=two)
    store.change(ReplaceDeal(match_id=stored.id, number=1, deal=two.deals[1], version=None))
    store.change(DeleteDeal(match_id=stored.id, number=2, version=None))
    log = store.history(stored.id)
    assert [e.action for e in log] == ["create", "replace_deal", "delete_deal"]
    assert log[1].detail["before"] == deal_to_json(two.deals[0])
    assert log[2].detail["before"] == deal_to_json(two.deals[1])
    assert [e.version for e in log] == [1, 2, 3]


def test_all_newest_first_and_deleted_hidden(store: MatchStore, two: Match) -> None:
    first = store.create(match=two)
    second = store.create(match=two.with_deals([]))
    assert [s.id for s in store.all()] == [second.id, first.id]
    store.change(AddDeal(match_id=first.id, deal=two.deals[0], version=None))
    assert [s.id for s in store.all()] == [first.id, second.id]
    store.delete_match(match_id=second.id, version=None)
    assert [s.id for s in store.all()] == [first.id]
    with pytest.raises(MatchNotFoundError):
        store.get(second.id)
    with pytest.raises(MatchNotFoundError):
        store.history(second.id)


def test_player_names_remembered(store: MatchStore, two: Match) -> None:
    store.create(match=two)
    store.create(match=example("partnership.json"))
    names = store.player_names()
    assert sorted(names) == ["Anna", "Bruno", "Carla", "Dario"]


def test_reopened_database_has_everything(database_url: str, two: Match) -> None:
    first = MatchStore.open(database_url)
    stored = first.create(match=two)
    settings = two.settings.replace(napola="run")
    first.change(
        ChangeSettings(
            match_id=stored.id, settings=settings, version=None, summary="Napola run", changes={}
        )
    )
    first.close()
    second = MatchStore.open(database_url)
    again = second.get(stored.id)
    second.close()
    assert again.match.deals == two.deals
    assert again.match.settings.napola == "run"
    assert again.version == 2


def test_migrations_match_the_models(store: MatchStore) -> None:
    with store.engine.connect() as connection:
        diff = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    assert diff == []


def test_concurrent_writers_on_one_version_one_wins(store: MatchStore, two: Match) -> None:
    stored = store.create(match=two.with_deals([]))
    results: list[str] = []

    def write(i: int) -> None:
        try:
            store.change(AddDeal(match_id=stored.id, deal=two.deals[i % 4], version=1))
            results.append("ok")
        except VersionConflictError:
            results.append("conflict")

    threads = [threading.Thread(target=write, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["conflict"] * 5 + ["ok"]
    assert len(store.get(stored.id).match.deals) == 1


def test_database_url_from_path_and_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("SCOPA_DATABASE_URL", raising=False)
    assert database_url(str(tmp_path / "a.db")) == f"sqlite:///{tmp_path / 'a.db'}"
    monkeypatch.setenv("SCOPA_DATABASE_URL", "postgresql://u@h/db")
    assert database_url(None) == "postgresql://u@h/db"
    assert database_url("sqlite:///x.db") == "sqlite:///x.db"


def test_each_change_answers_what_a_fresh_read_finds(store: MatchStore, two: Match) -> None:
    """A change builds its answer from the state it changed; it must be what the database
    holds afterwards."""
    d1, d2, d3, d4 = two.deals
    stored = store.create(match=two.with_deals([d1]), action="import")
    assert stored == store.get(stored.id)
    five = Settings(target=5, napola="run")
    steps: list[Callable[[StoredMatch], StoredMatch]] = [
        lambda s: store.change(AddDeal(match_id=s.id, deal=d2, version=s.version)),
        lambda s: store.change(AddDeal(match_id=s.id, deal=d3, version=s.version)),
        lambda s: store.change(ReplaceDeal(match_id=s.id, number=2, deal=d4, version=s.version)),
        lambda s: store.change(DeleteDeal(match_id=s.id, number=1, version=s.version)),
        lambda s: store.change(DeleteDeal(match_id=s.id, number=2, version=s.version)),
        lambda s: store.change(
            RestoreDeal(match_id=s.id, removed_id=s.removed[0].id, version=s.version)
        ),
        lambda s: store.change(
            ChangeSettings(match_id=s.id, settings=five, version=s.version, summary="", changes={})
        ),
        lambda s: store.change(Rename(match_id=s.id, name="Finals", version=s.version)),
    ]
    for step in steps:
        stored = step(stored)
        assert stored == store.get(stored.id)
    assert stored.match.deals == (d1, d4)
    assert [r.deal for r in stored.removed] == [d3]
    assert stored.match.name == "Finals"
    assert stored.match.settings == five
    assert store.history(stored.id)[0].action == "import"


def test_a_rewound_database_is_read_again(tmp_path: Path, two: Match) -> None:
    """A backup brought back under a running store rewinds versions; the cache must not answer
    with the state the backup replaced."""
    url = f"sqlite:///{tmp_path / 'scopa.db'}"
    store = MatchStore.open(url)
    stored = store.create(match=two.with_deals([]))
    store.change(AddDeal(match_id=stored.id, deal=two.deals[0], version=1))
    assert store.get(stored.id).version == 2
    other = MatchStore.open(url)
    with other.engine.begin() as connection:  # rewind: the match as another deal made it
        connection.exec_driver_sql("DELETE FROM deals")
        connection.exec_driver_sql("UPDATE matches SET updated_at = '2000-01-01 00:00:00'")
    other.close()
    assert store.get(stored.id).match.deals == ()
    store.close()


def test_printed_url_hides_the_password() -> None:
    from scopa.store import make_engine

    store = MatchStore(make_engine("postgresql://scopa:secret@127.0.0.1:5432/scopa"))
    assert store.url == "postgresql://scopa:***@127.0.0.1:5432/scopa"
    assert store.engine.dialect.driver == "psycopg"


def test_a_variant_match_keeps_its_variant(store: MatchStore) -> None:
    match = parse_match(
        {
            "variant": "cirulla",
            "players": ["Anna", "Bruno"],
            "rules": {"piccola_cap": 4},
            "deals": [
                {
                    "piles": {
                        "Anna": {"count": 22, "coins": ["A", "2", "3"], "best": {"c": "7"}},
                        "Bruno": {
                            "count": 18,
                            "coins": ["4", "5", "6", "7", "J", "H", "K"],
                            "best": {"s": "7", "b": "7"},
                        },
                    },
                    "declarations": {"Anna": ["cirulla"]},
                }
            ],
        }
    )
    stored = store.create(match=match)
    again = MatchStore(store.engine).get(stored.id)  # read from the rows, not the cache
    assert again.match == match
    assert again.match.settings.variant == "cirulla"
    assert again.match.settings.piccola_cap == 4


def test_an_older_database_is_brought_up_to_date_with_its_facts(empty_database_url: str) -> None:
    """The migrations keep what an older schema holds (a match, its deals, its log)."""
    from alembic import command

    from scopa.store import make_engine, migrate

    engine = make_engine(empty_database_url)
    with engine.begin() as connection:
        command.upgrade(alembic_on(connection), "0002")
    two = example("two-players.json")
    with engine.begin() as connection:
        connection.exec_driver_sql(
            "INSERT INTO matches (id, players, rules, version, created_at, updated_at) "
            "VALUES (1, '[\"Anna\", \"Bruno\"]', '{}', 1, '2026-01-01', '2026-01-01')"
        )
        for position, deal in enumerate(two.deals, 1):
            connection.exec_driver_sql(
                "INSERT INTO deals (match_id, position, facts, created_at) "
                f"VALUES (1, {position}, '{json.dumps(deal_to_json(deal))}', '2026-01-01')"
            )
    migrate(engine)
    store = MatchStore(engine)
    stored = store.get(1)
    store.close()
    assert stored.match.deals == two.deals
    assert stored.match.settings.variant == "scopa"


def test_the_first_dealer_is_kept_and_written_back(store: MatchStore) -> None:
    """Who dealt first survives the database (a column of its own) and goes back into the
    match file by name; the first player, the default, is not written."""
    from scopa.formats import match_to_json

    data = {"players": ["Anna", "Bruno", "Carla"], "first_dealer": "Carla"}
    match = parse_match(data)
    stored = store.create(match=match)
    again = MatchStore(store.engine).get(stored.id)  # read from the rows, not the cache
    assert again.match.first_dealer == 2
    assert [again.match.dealer_of(n) for n in (1, 2, 3, 4)] == ["Carla", "Anna", "Bruno", "Carla"]
    assert match_to_json(again.match)["first_dealer"] == "Carla"
    plain = store.create(match=parse_match({"players": ["Anna", "Bruno"]}))
    assert "first_dealer" not in match_to_json(MatchStore(store.engine).get(plain.id).match)
