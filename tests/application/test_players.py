"""The players' use cases (figures, leaderboard, partnerships, a player's page, ratings, the
players as people) over the SQL store and over the second backend in memory: the same
matches and changes give the same figures, so the statistics depend on the store's protocol
only."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from scopa.application import MatchService
from scopa.application.players import PlayerService
from scopa.errors import InputError, PlayerNotFoundError
from scopa.formats import parse_deal
from scopa.match import Match
from scopa.rules import Settings
from scopa.store import MatchStore
from scopa.store.protocol import Matches, Players
from scopa.store.records import EVERY, Filter
from tests.application.memory import MemoryMatches
from tests.application.memory_players import MemoryPlayers
from tests.web.bodies import anna_deal_of

NOON = datetime(2026, 12, 6, 12, tzinfo=UTC)


@pytest.fixture(params=["sqlite", "memory"])
def stores(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Matches, Players]]:
    if request.param == "memory":
        matches = MemoryMatches()
        yield matches, MemoryPlayers(matches)
        return
    opened = MatchStore.open(f"sqlite:///{tmp_path / 'scopa.db'}")
    yield opened, opened.players(None)
    opened.close()


def play(service: MatchService) -> None:
    """Anna beats Bruno (won at 11), Bruno and Anna in progress, Anna & Carla beat Bruno &
    Dario in pairs, Eva beats Carla; a match deleted."""
    one = service.create(match=Match(("Anna", "Bruno"), Settings(target=11)))
    for _ in range(3):
        one = service.record_deal(
            match_id=one.id,
            deal=parse_deal(anna_deal_of("Anna", "Bruno"), one.match),
            version=one.version,
        )
    two = service.create(match=Match(("Bruno", "anna")))
    service.record_deal(
        match_id=two.id,
        deal=parse_deal(anna_deal_of("Bruno", "anna"), two.match),
        version=two.version,
    )
    pairs = Match(("Anna", "Bruno", "Carla", "Dario"), Settings(partnerships=True, target=11))
    three = service.create(match=pairs)
    for _ in range(3):
        deal = parse_deal(anna_deal_of("Anna & Carla", "Bruno & Dario"), three.match)
        three = service.record_deal(match_id=three.id, deal=deal, version=three.version)
    eva = service.create(match=Match(("Eva", "Carla")))
    deal = parse_deal(anna_deal_of("Eva", "Carla"), eva.match)
    service.record_deal(match_id=eva.id, deal=deal, version=eva.version)
    gone = service.create(match=Match(("Anna", "Zeno")))
    service.record_deal(
        match_id=gone.id,
        deal=parse_deal(anna_deal_of("Zeno", "Anna"), gone.match),
        version=gone.version,
    )
    service.delete_match(match_id=gone.id, version=None)


def seen(players: PlayerService) -> dict[str, Any]:
    """Everything the players' pages read, with the store's own ids left out."""
    anna = players.page("Anna")
    return {
        "everyone": players.everyone(),
        "board": players.leaderboard(EVERY, "matches"),
        "scopa": players.leaderboard(Filter(variant="scopa")),
        "pairs": players.partnerships(),
        "anna": (
            anna.figures,
            anna.average,
            [dataclasses.replace(p, match_id=0, played_at=NOON) for p in anna.played],
        ),
        "vs": players.head_to_head("Anna", "Bruno"),
        "rated": sorted(
            (n, round(r.mu, 6), r.matches) for n, r in players.ratings_by_name().items()
        ),
        "log": [(c.action, c.summary, c.undone) for c in players.log()],
    }


def test_the_figures_are_the_same_on_both_stores(tmp_path: Path) -> None:
    found = []
    for matches, store_players in (
        (lambda m: (m, MemoryPlayers(m)))(MemoryMatches()),
        (lambda s: (s, s.players(None)))(MatchStore.open(f"sqlite:///{tmp_path / 'scopa.db'}")),
    ):
        service = MatchService(matches)
        players = PlayerService(store_players, service)
        play(service)
        before = seen(players)
        players.rename(name="Carla", new="Carla B.")
        players.merge(name="Eva", into="Dario")
        players.remove(name="Zeno")
        after = seen(players)
        players.undo(change=2)
        found.append((before, after, seen(players)))
    memory, sql = found
    for one, other, when in zip(memory, sql, ("before", "changed", "undone"), strict=True):
        for key in one:
            assert one[key] == other[key], (when, key)


def test_a_player_s_figures_on_the_store_s_protocol(stores: tuple[Matches, Players]) -> None:
    matches, store_players = stores
    service = MatchService(matches)
    players = PlayerService(store_players, service)
    play(service)
    anna = players.figures("anna")
    assert (anna.name, anna.matches, anna.won, anna.finished) == ("Anna", 3, 2, 2)
    assert dict(anna.opponents)["Bruno"].matches == 3
    assert dict(anna.partners)["Carla"].won == 1
    assert [p.names for p in players.partnerships(Filter(variant="scopa"))] == [
        ("Anna", "Carla"),
        ("Bruno", "Dario"),
    ]
    assert [f.name for f in players.leaderboard()][:2] == ["Anna", "Carla"]
    with pytest.raises(PlayerNotFoundError):
        players.figures("Nessuno")
    with pytest.raises(InputError, match="both played in match"):
        players.merge(name="Anna", into="Bruno")
    players.remove(name="Bruno")
    with pytest.raises(PlayerNotFoundError, match="removed at their request"):
        players.figures("Bruno")
    assert "Bruno" not in {f.name for f in players.everyone()}
    service.change_rules(match_id=1, rules={"target": 21}, version=None)
    assert players.figures("Anna").finished == 1  # the first match is open again


def test_the_seats_the_program_named_are_data_on_both_stores(
    stores: tuple[Matches, Players],
) -> None:
    """A game against the computer's "Computer 2" and "You" are seats the program named,
    remembered as such; a person called "Carla" who plays the score sheet is a person, and a
    name like the computer's typed at the score sheet (another group's "Computer 2" here: a
    store of its own) is never taken for a seat."""
    from scopa.made_names import COMPUTER, PERSON, YOU, Seat

    matches, store_players = stores
    service = MatchService(matches)
    players = PlayerService(store_players, service)
    service.create(match=Match(("Anna", "Carla")))
    assert players.seats() == {}
    computer = Match(("You", "Computer 2"), seat_kinds=(Seat(YOU), Seat(COMPUTER, 2)))
    service.create(match=computer)
    assert players.seats() == {"you": Seat(YOU), "computer 2": Seat(COMPUTER, 2)}
    assert sorted(service.player_names()) == ["Anna", "Carla"]
    seated = (Seat(PERSON), Seat(COMPUTER, 1), Seat(PERSON), Seat(COMPUTER, 3))
    table = Match(("Carla", "Computer 1", "Anna", "Computer 3"), seat_kinds=seated)
    service.create(match=table)
    assert set(players.seats()) == {"you", "computer 2", "computer 1", "computer 3"}
    assert sorted(service.player_names()) == ["Anna", "Carla"]


def test_a_person_called_like_the_computer_is_remembered(stores: tuple[Matches, Players]) -> None:
    matches, store_players = stores
    service = MatchService(matches)
    players = PlayerService(store_players, service)
    service.create(match=Match(("Anna", "Computer 2")))
    service.create(match=Match(("You", "Partner")))
    assert players.seats() == {}
    assert sorted(service.player_names()) == ["Anna", "Computer 2", "Partner", "You"]
