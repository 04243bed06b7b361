"""The use cases over a real store (SQLite and PostgreSQL) and over a second backend in memory:
scoring, the checks that need the rules of the game, and changes that another device gets in
between. The in-memory store keeps facts only, like the SQL one: the use cases do the rest."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from scopa.application import MatchService, ScoredMatch
from scopa.changes import AddDeal, MatchChange
from scopa.deal import Deal
from scopa.errors import (
    InvalidDealError,
    InvalidMatchError,
    MatchNotFoundError,
    SettingsChangeRefused,
    VersionConflictError,
)
from scopa.formats import MAX_DEALS, deal_to_json, load_json, parse_deal, parse_match
from scopa.match import Match, score_match
from scopa.store import Matches, MatchStore, Standing, StoredMatch
from scopa.store.records import ListPage
from tests.application.memory import MemoryMatches
from tests.conftest import fresh_postgres_database

EXAMPLES = Path(__file__).parents[2] / "examples"


def example(name: str) -> Match:
    return parse_match(json.loads((EXAMPLES / name).read_text()))


@pytest.fixture(params=["sqlite", "postgresql", "memory"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Matches]:
    if request.param == "memory":
        yield MemoryMatches()
        return
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'scopa.db'}"
    else:
        url = fresh_postgres_database(request.getfixturevalue("postgres_admin_url"))
    opened = MatchStore.open(url)
    yield opened
    opened.close()


@pytest.fixture
def service(store: Matches) -> MatchService:
    return MatchService(store)


@pytest.fixture
def two() -> Match:
    return example("two-players.json")


TEAM_DEAL = {
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


def test_a_match_comes_back_scored(service: MatchService, two: Match) -> None:
    scored = service.create(match=two)
    again = service.get(match_id=scored.id)
    assert again == scored
    assert again.sheet.totals == (13, 8)
    assert again.sheet.winner == "Anna"
    assert again.sheet.decided_at == 4
    assert again.title == "Sunday at Nonna's"


def test_a_deal_for_other_players_is_refused(service: MatchService, two: Match) -> None:
    scored = service.create(match=two.with_deals([]))
    other = parse_match({"players": ["Carla", "Dario"], "deals": [_renamed(two.deals[0])]})
    with pytest.raises(InvalidDealError, match=r"piles\.Carla.*not a player"):
        service.record_deal(match_id=scored.id, deal=other.deals[0], version=None)
    with pytest.raises(InvalidDealError, match=r"piles\.Carla.*not a player"):
        service.replace_deal(match_id=scored.id, number=1, deal=other.deals[0], version=None)
    after = service.get(match_id=scored.id)
    assert (after.match.deals, after.version) == ((), 1)


def _renamed(deal: Deal) -> dict[str, Any]:
    text = json.dumps(deal_to_json(deal)).replace("Anna", "Carla").replace("Bruno", "Dario")
    result: dict[str, Any] = json.loads(text)
    return result


def test_a_settings_change_rescores_and_logs(service: MatchService, two: Match) -> None:
    scored = service.create(match=two)
    scored, changes = service.change_rules(match_id=scored.id, rules={"target": 21}, version=1)
    assert scored.sheet.winner is None
    assert scored.sheet.status == "in_progress"
    assert changes.winner == ("Anna", None)
    assert scored.match.settings == two.settings.replace(target=21)
    log = service.history(match_id=scored.id)
    assert [e.action for e in log] == ["create", "settings"]
    assert log[1].summary == changes.summary()
    assert log[1].summary.startswith("Target 21")
    assert log[1].detail["changes"] == changes.to_dict()
    assert scored == service.get(match_id=scored.id)


def test_a_partial_settings_change_keeps_the_other_rules(service: MatchService) -> None:
    match = parse_match({"players": ["A", "B"], "rules": {"napola": "run", "ties": "share"}})
    scored = service.create(match=match)
    scored, _ = service.change_rules(match_id=scored.id, rules={"primiera": False}, version=None)
    rules = scored.match.settings
    assert (rules.napola, rules.ties, rules.primiera) == ("run", "share", False)


def test_partnerships_off_refused_for_team_deals(service: MatchService) -> None:
    partners = example("partnership.json")
    scored = service.create(match=partners)
    deal = parse_deal(TEAM_DEAL, partners)
    scored = service.record_deal(match_id=scored.id, deal=deal, version=None)
    with pytest.raises(SettingsChangeRefused, match="deal 6 was recorded per team"):
        service.change_rules(match_id=scored.id, rules={"partnerships": False}, version=None)
    after = service.get(match_id=scored.id)
    assert after.match.settings.partnerships is True
    assert after.version == scored.version


def test_the_list_is_scored_newest_first(service: MatchService, two: Match) -> None:
    first = service.create(match=two)
    second = service.create(match=two.with_deals([]))
    assert [s.id for s in service.list_matches()] == [second.id, first.id]
    service.record_deal(match_id=first.id, deal=two.deals[0], version=None)
    summaries = service.list_matches()  # newest first (pages by id: issue 9)
    assert [s.id for s in summaries] == [second.id, first.id]
    assert summaries[1].deal_count == 5
    assert summaries[1].status == "won"
    assert summaries[0].title == "Sunday at Nonna's"
    assert summaries[0].totals == (0, 0)
    service.delete_match(match_id=second.id, version=None)
    assert [s.id for s in service.list_matches()] == [first.id]
    with pytest.raises(MatchNotFoundError):
        service.get(match_id=second.id)


def test_each_change_answers_what_a_fresh_read_finds(service: MatchService, two: Match) -> None:
    d1, d2, d3, d4 = two.deals
    scored = service.import_match(match=two.with_deals([d1]))
    steps: list[Callable[[ScoredMatch], ScoredMatch]] = [
        lambda s: service.record_deal(match_id=s.id, deal=d2, version=s.version),
        lambda s: service.record_deal(match_id=s.id, deal=d3, version=s.version),
        lambda s: service.replace_deal(match_id=s.id, number=2, deal=d4, version=s.version),
        lambda s: service.delete_deal(match_id=s.id, number=1, version=s.version),
        lambda s: service.delete_deal(match_id=s.id, number=2, version=s.version),
        lambda s: service.restore_deal(
            match_id=s.id, removed_id=s.removed[0].id, version=s.version
        ),
        lambda s: service.change_rules(
            match_id=s.id, rules={"target": 5, "napola": "run"}, version=s.version
        )[0],
        lambda s: service.rename(match_id=s.id, name="Finals", version=s.version),
    ]
    for step in steps:
        scored = step(scored)
        fresh = MatchService(service.store).get(match_id=scored.id)
        assert scored == fresh
        assert scored.sheet == score_match(scored.match)
        [line] = service.store.lines()[0]  # the line the change handed the store
        sheet = fresh.sheet
        assert line.summarised
        assert (line.sides, line.status, line.winner, line.totals, line.deal_count) == (
            sheet.sides,
            sheet.status,
            sheet.winner,
            sheet.totals,
            len(fresh.match.deals),
        )
    assert scored.match.deals == (d1, d4)
    assert scored.sheet.decided_at == 2
    assert scored.title == "Finals"
    assert service.history(match_id=scored.id)[0].action == "import"


def test_the_store_keeps_the_line_it_is_handed_and_never_scores(store: Matches, two: Match) -> None:
    """A line that the facts do not give is kept as handed: the store does not score."""
    handed = Standing(("Anna", "Bruno"), ("Anna", "Bruno"), "scopa", "won", "Bruno", (1, 99), 7)
    stored = store.create(match=two, standing=handed)
    [line] = store.lines()[0]
    assert (line.id, line.status, line.winner, line.totals, line.deal_count) == (
        stored.id,
        "won",
        "Bruno",
        (1, 99),
        7,
    )
    assert [m.id for m in MatchService(store).page(ListPage(player="bruno", status="won"))[0]] == [
        stored.id
    ]


def test_a_match_changed_without_its_line_gets_one_when_listed(store: Matches, two: Match) -> None:
    stored = store.create(match=two.with_deals(two.deals[:3]))  # straight to the store
    store.change(AddDeal(match_id=stored.id, deal=two.deals[3], version=None))
    other = MatchService(store).create(match=two.with_deals([]))
    assert [line.summarised for line in store.lines()[0]] == [True, False]
    service = MatchService(store)
    [won], more = service.page(ListPage(status="won"))
    assert (won.id, won.status, won.winner, won.totals, won.deal_count, more) == (
        stored.id,
        "won",
        "Anna",
        (13, 8),
        4,
        False,
    )
    assert [line.summarised for line in store.lines()[0]] == [True, True]
    assert [m.id for m in service.page(ListPage(status="in_progress"))[0]] == [other.id]


def test_a_match_holds_at_most_the_deal_limit(service: MatchService, two: Match) -> None:
    full = two.with_deals([two.deals[i % 4] for i in range(MAX_DEALS)])
    scored = service.create(match=full)
    limit = f"a match holds at most {MAX_DEALS} deals"
    with pytest.raises(InvalidMatchError, match=limit):
        service.record_deal(match_id=scored.id, deal=two.deals[0], version=None)
    scored = service.delete_deal(match_id=scored.id, number=1, version=None)
    removed = scored.removed[0].id
    scored = service.record_deal(match_id=scored.id, deal=two.deals[1], version=None)
    with pytest.raises(InvalidMatchError, match=limit):
        service.restore_deal(match_id=scored.id, removed_id=removed, version=None)
    assert len(service.get(match_id=scored.id).match.deals) == MAX_DEALS


def test_exports(service: MatchService, two: Match) -> None:
    scored = service.create(match=two)
    assert parse_match(load_json(service.export(match_id=scored.id))) == two
    sheet = load_json(service.export(match_id=scored.id, kind="sheet"))
    assert sheet["totals"] == {"Anna": 13, "Bruno": 8}
    csv = service.export(match_id=scored.id, kind="csv")
    assert csv.splitlines()[0].startswith("deal,")


class Interrupted:
    """A store on which, just before the first write, another device records a deal."""

    def __init__(self, store: Matches, deal: Deal) -> None:
        self.store = store
        self.deal = deal
        self.interrupted = False

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    def change(self, change: MatchChange, standing: Standing | None = None) -> StoredMatch:
        if not self.interrupted:
            self.interrupted = True
            self.store.change(AddDeal(match_id=change.match_id, deal=self.deal, version=None))
        return self.store.change(change, standing)


def test_a_change_without_a_version_is_checked_again_after_another_got_in(
    store: Matches, two: Match
) -> None:
    d1, d2 = two.deals[:2]
    stored = store.create(match=two.with_deals([]))
    service = MatchService(Interrupted(store, d1))
    scored = service.record_deal(match_id=stored.id, deal=d2, version=None)
    assert scored.match.deals == (d1, d2)
    assert scored.version == 3


def test_a_change_with_a_version_is_refused_after_another_got_in(
    store: Matches, two: Match
) -> None:
    d1, d2 = two.deals[:2]
    stored = store.create(match=two.with_deals([]))
    service = MatchService(Interrupted(store, d1))
    with pytest.raises(VersionConflictError, match=r"at version 2.*based on version 1"):
        service.record_deal(match_id=stored.id, deal=d2, version=1)
    with pytest.raises(VersionConflictError, match=r"at version 2.*based on version 1"):
        service.record_deal(match_id=stored.id, deal=d2, version=1)
    assert store.get(stored.id).match.deals == (d1,)


def test_a_deal_is_checked_against_the_match_as_it_is_now(service: MatchService) -> None:
    """A deal read per team while partnerships were on is refused once another device has
    turned them off."""
    partners = example("partnership.json").with_deals([])
    scored = service.create(match=partners)
    deal = parse_deal(TEAM_DEAL, partners)
    service.change_rules(match_id=scored.id, rules={"partnerships": False}, version=None)
    with pytest.raises(InvalidDealError, match=r"^piles"):
        service.record_deal(match_id=scored.id, deal=deal, version=None)


def test_a_made_name_is_kept_as_data_and_a_rename_makes_it_the_person_s(
    service: MatchService, two: Match
) -> None:
    """The kind and parameters come back from the store (its list too), worded in the
    reader's language; a name a person gives it is theirs, shown as typed."""
    from scopa.i18n import using
    from scopa.made_names import MadeName

    made = MadeName.table("7K2Q", "Scopa")
    scored = service.create(match=Match(two.players, name=made.english(), made=made))
    assert MatchService(service.store).get(match_id=scored.id).match.made == made
    [line] = service.store.lines()[0]
    with using("it"):
        assert (scored.title, line.title) == ("Tavolo 7K2Q (Scopa)", "Tavolo 7K2Q (Scopa)")
    renamed = service.rename(match_id=scored.id, name=made.english(), version=scored.version)
    fresh = MatchService(service.store).get(match_id=scored.id)
    assert (renamed.match.made, fresh.match.made) == (None, None)
    [line] = service.store.lines()[0]
    with using("it"):
        assert (fresh.title, line.title) == ("Table 7K2Q (Scopa)", "Table 7K2Q (Scopa)")
