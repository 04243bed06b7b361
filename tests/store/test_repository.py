"""The match store on SQLite and PostgreSQL: changes, versions, the change log, undo."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from scopa.errors import (
    DealNotFoundError,
    InvalidDealError,
    MatchNotFoundError,
    SettingsChangeRefused,
    VersionConflictError,
)
from scopa.formats import deal_to_json, parse_deal, parse_match
from scopa.match import Match
from scopa.rules import Settings
from scopa.store import MatchStore, StoredMatch, database_url
from scopa.store.models import Base

EXAMPLES = Path(__file__).parents[2] / "examples"


def example(name: str) -> Match:
    return parse_match(json.loads((EXAMPLES / name).read_text()))


@pytest.fixture
def store(database_url: str) -> Iterator[MatchStore]:
    opened = MatchStore.open(database_url)
    yield opened
    opened.close()


@pytest.fixture
def two() -> Match:
    return example("two-players.json")


def test_create_and_get_round_trip(store: MatchStore, two: Match) -> None:
    stored = store.create(two)
    assert stored.version == 1
    again = store.get(stored.id)
    assert again.match == two
    assert again.sheet.totals == (13, 8)
    assert again.sheet.winner == "Anna"
    assert again.sheet.decided_at == 4


def test_add_replace_delete_restore_keep_order_and_versions(store: MatchStore, two: Match) -> None:
    d1, d2, d3, d4 = two.deals
    stored = store.create(two.with_deals([]))
    for version, deal in enumerate([d1, d2, d3], start=1):
        stored = store.add_deal(stored.id, deal, version)
    assert stored.version == 4
    assert stored.match.deals == (d1, d2, d3)

    stored = store.replace_deal(stored.id, 2, d4, 4)
    assert stored.match.deals == (d1, d4, d3)

    stored = store.delete_deal(stored.id, 1, 5)
    assert stored.match.deals == (d4, d3)
    assert [(r.number, r.deal) for r in stored.removed] == [(1, d1)]

    stored = store.restore_deal(stored.id, stored.removed[0].id, 6)
    assert stored.match.deals == (d1, d4, d3)
    assert stored.removed == ()
    assert stored.version == 7
    assert store.get(stored.id).match.deals == (d1, d4, d3)


def test_restored_deal_goes_last_when_match_is_shorter(store: MatchStore, two: Match) -> None:
    stored = store.create(two)
    stored = store.delete_deal(stored.id, 4)
    stored = store.delete_deal(stored.id, 3)
    first_removed = next(r for r in stored.removed if r.number == 4)
    stored = store.restore_deal(stored.id, first_removed.id)
    assert stored.match.deals == (two.deals[0], two.deals[1], two.deals[3])


def test_stale_version_is_refused_and_nothing_changes(store: MatchStore, two: Match) -> None:
    stored = store.create(two.with_deals(two.deals[:1]))
    store.add_deal(stored.id, two.deals[1], version=1)
    with pytest.raises(VersionConflictError, match=r"at version 2.*based on version 1"):
        store.add_deal(stored.id, two.deals[2], version=1)
    with pytest.raises(VersionConflictError):
        store.change_settings(stored.id, Settings(target=5), version=1)
    after = store.get(stored.id)
    assert after.version == 2
    assert after.match.deals == two.deals[:2]
    assert after.match.settings == two.settings


def test_unknown_ids(store: MatchStore, two: Match) -> None:
    with pytest.raises(MatchNotFoundError, match="no match with id 999"):
        store.get(999)
    stored = store.create(two)
    with pytest.raises(DealNotFoundError, match="has no deal 5"):
        store.replace_deal(stored.id, 5, two.deals[0])
    with pytest.raises(DealNotFoundError, match="has no deal 0"):
        store.delete_deal(stored.id, 0)
    with pytest.raises(DealNotFoundError, match="no removed deal"):
        store.restore_deal(stored.id, 12345)
    assert store.get(stored.id).version == 1


def test_deal_for_other_players_is_refused(store: MatchStore, two: Match) -> None:
    stored = store.create(two.with_deals([]))
    other = parse_match(
        {"players": ["Carla", "Dario"], "deals": [_rename(deal_to_json(two.deals[0]))]}
    )
    with pytest.raises(InvalidDealError, match=r"piles\.Carla.*not a player"):
        store.add_deal(stored.id, other.deals[0])
    assert store.get(stored.id).match.deals == ()
    assert store.get(stored.id).version == 1


def _rename(facts: dict[str, object]) -> dict[str, object]:
    text = json.dumps(facts).replace("Anna", "Carla").replace("Bruno", "Dario")
    result: dict[str, object] = json.loads(text)
    return result


def test_settings_change_rescores_and_logs(store: MatchStore, two: Match) -> None:
    stored = store.create(two)
    stored, changes = store.change_settings(stored.id, two.settings.replace(target=21))
    assert stored.sheet.winner is None
    assert stored.sheet.status == "in_progress"
    assert changes.winner == ("Anna", None)
    assert stored.match.settings.target == 21
    log = store.history(stored.id)
    assert [e.action for e in log] == ["create", "settings"]
    assert log[1].summary.startswith("Target 21")
    assert log[1].detail["before"]["target"] == 11


def test_partnerships_off_refused_for_team_deals(store: MatchStore) -> None:
    partners = example("partnership.json")
    team_deal = {
        "piles": {
            "Anna & Carla": {"count": 22, "coins": ["A", "2", "7"], "best": {"c": "7", "s": "6"}},
            "Bruno & Dario": {
                "count": 18,
                "coins": ["3", "4", "5", "6", "J", "H", "K"],
                "best": {"s": "7", "b": "7"},
            },
        },
        "sweeps": {"Anna & Carla": 1},
        "last_capture": "Bruno & Dario",
    }
    stored = store.create(partners)
    stored = store.add_deal(stored.id, parse_deal(team_deal, partners))
    with pytest.raises(SettingsChangeRefused, match="deal 6 was recorded per team"):
        store.change_settings(stored.id, stored.match.settings.replace(partnerships=False))
    assert store.get(stored.id).match.settings.partnerships is True
    assert store.get(stored.id).version == stored.version


def test_history_keeps_what_was_overwritten(store: MatchStore, two: Match) -> None:
    stored = store.create(two)
    store.replace_deal(stored.id, 1, two.deals[1])
    store.delete_deal(stored.id, 2)
    log = store.history(stored.id)
    assert [e.action for e in log] == ["create", "replace_deal", "delete_deal"]
    assert log[1].detail["before"] == deal_to_json(two.deals[0])
    assert log[2].detail["before"] == deal_to_json(two.deals[1])
    assert [e.version for e in log] == [1, 2, 3]


def test_list_newest_first_and_deleted_hidden(store: MatchStore, two: Match) -> None:
    first = store.create(two)
    second = store.create(two.with_deals([]))
    assert [s.id for s in store.list()] == [second.id, first.id]
    store.add_deal(first.id, two.deals[0])
    summaries = store.list()
    assert [s.id for s in summaries] == [first.id, second.id]
    assert summaries[0].deal_count == 5
    assert summaries[0].status == "won"
    assert summaries[1].totals == (0, 0)
    store.delete_match(second.id)
    assert [s.id for s in store.list()] == [first.id]
    with pytest.raises(MatchNotFoundError):
        store.get(second.id)


def test_player_names_remembered(store: MatchStore, two: Match) -> None:
    store.create(two)
    store.create(example("partnership.json"))
    names = store.player_names()
    assert sorted(names) == ["Anna", "Bruno", "Carla", "Dario"]


def test_reopened_database_has_everything(database_url: str, two: Match) -> None:
    first = MatchStore.open(database_url)
    stored = first.create(two)
    first.change_settings(stored.id, two.settings.replace(napola="run"))
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
    stored = store.create(two.with_deals([]))
    results: list[str] = []

    def write(i: int) -> None:
        try:
            store.add_deal(stored.id, two.deals[i % 4], version=1)
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
    stored = store.create(two.with_deals([d1]), action="import")
    assert stored == store.get(stored.id)
    steps: list[Callable[[StoredMatch], StoredMatch]] = [
        lambda s: store.add_deal(s.id, d2, s.version),
        lambda s: store.add_deal(s.id, d3, s.version),
        lambda s: store.replace_deal(s.id, 2, d4, s.version),
        lambda s: store.delete_deal(s.id, 1, s.version),
        lambda s: store.delete_deal(s.id, 2, s.version),
        lambda s: store.restore_deal(s.id, s.removed[0].id, s.version),
        lambda s: store.change_settings(s.id, Settings(target=5, napola="run"), s.version)[0],
        lambda s: store.rename(s.id, "Finals", s.version),
    ]
    for step in steps:
        stored = step(stored)
        assert stored == store.get(stored.id)
    assert stored.match.deals == (d1, d4)
    assert [r.deal for r in stored.removed] == [d3]
    assert stored.match.name == "Finals"
    assert stored.sheet.decided_at == 2


def test_printed_url_hides_the_password() -> None:
    from scopa.store import make_engine

    store = MatchStore(make_engine("postgresql://scopa:secret@127.0.0.1:5432/scopa"))
    assert store.url == "postgresql://scopa:***@127.0.0.1:5432/scopa"
    assert store.engine.dialect.driver == "psycopg"
