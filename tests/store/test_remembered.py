"""The states a process remembers (SQLite and PostgreSQL): a change's answer, cached once
committed, is exactly what a fresh read gives; a deal recorded on a remembered state that
another process (or a rewound database) made out of date is recorded on the match as it
is, or refused as stale when it named its version; a guess never reaches another group."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from scopa.application import MatchService
from scopa.errors import MatchNotFoundError, VersionConflictError
from scopa.formats import parse_deal, parse_match
from scopa.match import Match
from scopa.store import MatchStore
from scopa.store.models import utcnow
from tests.waiting import until
from tests.web.conftest import anna_deal, bruno_deal


@pytest.fixture
def stores(database_url: str) -> Iterator[tuple[MatchStore, MatchStore]]:
    """Two stores on one database: two processes of a server."""
    first, second = MatchStore.open(database_url), MatchStore.open(database_url)
    yield first, second
    first.close()
    second.close()


def test_every_change_answers_what_a_fresh_read_gives(
    stores: tuple[MatchStore, MatchStore], two: Match
) -> None:
    store, other = stores
    service = MatchService(store)
    match_id = service.create(match=two).id
    deals = two.deals
    steps: list[Callable[[int], Any]] = [
        lambda v: service.record_deal(match_id=match_id, deal=deals[0], version=v),
        lambda v: service.replace_deal(match_id=match_id, number=2, deal=deals[1], version=v),
        lambda v: service.delete_deal(match_id=match_id, number=len(deals), version=v),
        lambda v: service.delete_deal(match_id=match_id, number=1, version=v),
        lambda v: service.restore_deal(
            match_id=match_id, removed_id=store.get(match_id).removed[-1].id, version=v
        ),
        lambda v: service.change_rules(match_id=match_id, rules={"target": 21}, version=v)[0],
        lambda v: service.rename(match_id=match_id, name="Sunday", version=v),
    ]
    for step in steps:
        answer = step(store.get(match_id).version)
        remembered = store.peek(match_id)
        assert remembered is not None
        assert remembered.version == answer.version
        assert remembered == other.get(match_id)  # a new version: read from the rows
        assert store.get(match_id) is remembered  # served from the cache


def test_a_deal_on_an_out_of_date_guess_is_recorded_on_the_match_as_it_is(
    stores: tuple[MatchStore, MatchStore], two: Match
) -> None:
    first, second = (MatchService(s) for s in stores)
    match_id = first.create(match=two.with_deals([])).id
    d1, d2, d3 = two.deals[:3]
    first.record_deal(match_id=match_id, deal=d1, version=None)  # the first remembers v2
    second.record_deal(match_id=match_id, deal=d2, version=None)  # v3, made elsewhere
    remembered = stores[0].peek(match_id)
    assert remembered is not None
    assert remembered.version == 2
    with pytest.raises(VersionConflictError, match=r"at version 3.*based on version 2"):
        first.record_deal(match_id=match_id, deal=d3, version=2)
    scored = first.record_deal(match_id=match_id, deal=d3, version=None)
    assert scored.version == 4
    assert scored.match.deals == (d1, d2, d3)
    assert first.list_matches()[0].deal_count == 3  # the line was worked out on v3, not v2


def test_a_guess_is_only_the_groups(stores: tuple[MatchStore, MatchStore], two: Match) -> None:
    store = stores[0]
    rossi, _ = store.groups.create_group("Rossi")
    bianchi, _ = store.groups.create_group("Bianchi")
    mine = MatchService(store.in_group(rossi.id))
    match_id = mine.create(match=two.with_deals([])).id
    assert store.in_group(rossi.id).peek(match_id) is not None
    assert store.in_group(bianchi.id).peek(match_id) is None
    theirs = MatchService(store.in_group(bianchi.id))
    with pytest.raises(MatchNotFoundError):
        theirs.record_deal(match_id=match_id, deal=lambda m: parse_deal({}, m), version=None)
    with pytest.raises(MatchNotFoundError):
        theirs.record_deal(match_id=match_id, deal=two.deals[0], version=1)
    assert store.peek(match_id) is None  # nor does the one table
    assert mine.get(match_id=match_id).version == 1


def test_a_rewound_database_never_takes_a_guess(tmp_path: Path) -> None:
    """Version 2 remembered here is not the version 2 another process wrote after the file
    was rewound to a backup: the deal goes after the database's version 2."""
    db, backup = tmp_path / "scopa.db", tmp_path / "backup.db"
    url = f"sqlite:///{db}"
    first = MatchStore.open(url)
    try:
        match = parse_match({"players": ["Anna", "Bruno"]})
        match_id = MatchService(first).create(match=match).id
        with sqlite3.connect(db) as src, sqlite3.connect(backup) as dest:
            src.backup(dest)
        anna, bruno = parse_deal(anna_deal(), match), parse_deal(bruno_deal(), match)
        MatchService(first).record_deal(match_id=match_id, deal=anna, version=1)
        written = first.get(match_id).updated_at
        until(lambda: utcnow() > written, "the clock to pass the last write")
        with sqlite3.connect(backup) as src, sqlite3.connect(db) as dest:
            src.backup(dest)
        second = MatchStore.open(url)
        try:
            MatchService(second).record_deal(match_id=match_id, deal=bruno, version=1)
        finally:
            second.close()
        remembered = first.peek(match_id)
        assert remembered is not None
        assert remembered.match.deals == (anna,)
        scored = MatchService(first).record_deal(match_id=match_id, deal=anna, version=2)
        assert scored.version == 3
        assert scored.match.deals == (bruno, anna)
        line = MatchService(first).list_matches()[0]  # worked out on Bruno's version 2
        assert line.totals == scored.sheet.totals == (5, 6)
    finally:
        first.close()
