"""The change records: what each does to a stored match's facts (``after``), which the use
cases score and every store answers with; a deal the match does not have is refused."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from scopa import changes
from scopa.errors import DealNotFoundError
from scopa.match import Match
from scopa.rules import Settings
from scopa.store.records import RemovedDeal, StoredMatch
from tests.store.conftest import example

MOMENT = datetime(2026, 11, 30, 12, tzinfo=UTC)
TWO = example("two-players.json")


def stored(match: Match, removed: tuple[RemovedDeal, ...] = ()) -> StoredMatch:
    return StoredMatch(7, 3, match, MOMENT, MOMENT, removed)


def test_each_change_leaves_the_facts_it_names(two: Match) -> None:
    d1, d2, d3, d4 = two.deals
    before = stored(two.with_deals([d1, d2]), (RemovedDeal(40, 1, d3, MOMENT),))
    five = Settings(target=5)
    expected: list[tuple[changes.MatchChange, Match]] = [
        (changes.AddDeal(match_id=7, version=3, deal=d4), two.with_deals([d1, d2, d4])),
        (changes.ReplaceDeal(match_id=7, version=3, number=2, deal=d4), two.with_deals([d1, d4])),
        (changes.DeleteDeal(match_id=7, version=3, number=1), two.with_deals([d2])),
        (
            changes.RestoreDeal(match_id=7, version=None, removed_id=40),
            two.with_deals([d3, d1, d2]),
        ),
        (
            changes.ChangeSettings(match_id=7, version=3, settings=five, summary="", changes={}),
            Match(two.players, five, (d1, d2), two.teams, two.name),
        ),
        (
            changes.Rename(match_id=7, version=3, name=""),
            Match(two.players, two.settings, (d1, d2)),
        ),
    ]
    for change, after in expected:
        assert change.after(before) == after


def test_a_removed_deal_goes_back_last_when_the_match_is_shorter(two: Match) -> None:
    d1, _, d3, _ = two.deals
    before = stored(two.with_deals([d1]), (RemovedDeal(41, 3, d3, MOMENT),))
    assert changes.RestoreDeal(match_id=7, version=3, removed_id=41).after(before).deals == (d1, d3)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            changes.ReplaceDeal(match_id=7, version=3, number=5, deal=TWO.deals[0]),
            "match 7 has no deal 5",
        ),
        (changes.DeleteDeal(match_id=7, version=3, number=0), "match 7 has no deal 0"),
        (
            changes.RestoreDeal(match_id=7, version=3, removed_id=40),
            "match 7 has no removed deal 40",
        ),
    ],
)
def test_a_deal_the_match_does_not_have_is_refused(
    change: changes.MatchChange, message: str
) -> None:
    with pytest.raises(DealNotFoundError, match=f"^{message}$"):
        change.after(stored(TWO))


def test_each_kind_has_its_name_in_the_change_log() -> None:
    """The names the log keeps (and the history page reads): stored data, never renamed."""
    assert (
        changes.AddDeal.action,
        changes.ReplaceDeal.action,
        changes.DeleteDeal.action,
        changes.RestoreDeal.action,
        changes.ChangeSettings.action,
        changes.Rename.action,
    ) == ("add_deal", "replace_deal", "delete_deal", "restore_deal", "settings", "rename")
