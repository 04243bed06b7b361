"""The use cases of a game against the computer kept by a server: a whole match to the target,
stale and illegal moves refused with nothing changed, and deals the server failed to record
recorded when the game is next read."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from scopa.application import MatchService
from scopa.application.computer import ComputerGames, PlayedGame, parse_play
from scopa.engine.game import AGAINST_THE_COMPUTER, Game
from scopa.errors import IllegalPlayError, InputError, VersionConflictError
from scopa.store import Matches, MatchStore
from scopa.store.protocol import GameStore, SeedStore
from tests.application.memory import MemoryGames, MemoryMatches, MemorySeeds


@pytest.fixture(params=["sqlite", "memory"])
def stores(
    request: pytest.FixtureRequest, tmp_path: Any
) -> Iterator[tuple[Matches, GameStore, SeedStore]]:
    """The matches, games and seeds of the SQL store, or of the in-memory one."""
    if request.param == "memory":
        yield MemoryMatches(), MemoryGames(), MemorySeeds()
        return
    opened = MatchStore.open(f"sqlite:///{tmp_path / 'games.db'}")
    yield opened, opened.games(None), opened.seeds(None)
    opened.close()


@pytest.fixture
def store(stores: tuple[Matches, GameStore, SeedStore]) -> Matches:
    return stores[0]


@pytest.fixture
def games(stores: tuple[Matches, GameStore, SeedStore]) -> ComputerGames:
    matches, kept, seeds = stores
    return ComputerGames(kept, MatchService(matches), seeds)


def step(games: ComputerGames, played: PlayedGame) -> PlayedGame:
    game = played.game
    if game.deal_over:
        return games.next_deal(game_id=played.id, step=game.step)
    if game.your_turn:
        return games.play(game_id=played.id, step=game.step, play=game.options_all()[0])
    return games.computer(game_id=played.id, step=game.step)


def test_a_whole_match_to_the_target(games: ComputerGames, store: Matches) -> None:
    played = games.start(variant="scopa", players=2, level="easy", seed=21)
    while not played.game.over:
        played = step(games, played)
    game = played.game
    assert played.match_id is not None
    stored = MatchService(store).get(match_id=played.match_id)
    assert stored.match.name == f"{AGAINST_THE_COMPUTER} (Scopa, easy)"
    assert stored.match.deals == game.match.deals
    assert stored.sheet.winner == game.sheet.winner is not None
    assert max(stored.sheet.totals) >= 11
    assert games.playing() == []  # over: not offered to resume
    with pytest.raises(IllegalPlayError, match="the match is over"):
        games.next_deal(game_id=played.id, step=game.step)
    again = games.resume(game_id=played.id)
    assert again.game.step == game.step
    assert again.game.sheet == game.sheet


def test_stale_and_illegal_moves_change_nothing(games: ComputerGames) -> None:
    played = games.start(variant="escoba", players=2, level="easy", seed=4)
    while not played.game.your_turn:
        played = step(games, played)
    at = played.game.step
    legal = played.game.options_all()
    with pytest.raises(VersionConflictError):
        games.play(game_id=played.id, step=at - 1, play=legal[0])
    with pytest.raises(IllegalPlayError):
        games.computer(game_id=played.id, step=at)
    with pytest.raises(IllegalPlayError, match="not over"):
        games.next_deal(game_id=played.id, step=at)
    held = {p.card for p in legal}
    other = next(c for c in (parse_play(f"{r}d", []).card for r in "A234567JHK") if c not in held)
    with pytest.raises(IllegalPlayError, match="not in the hand"):
        games.play(game_id=played.id, step=at, play=parse_play(str(other), []))
    assert games.resume(game_id=played.id).game.step == at
    games.play(game_id=played.id, step=at, play=legal[0])
    with pytest.raises(VersionConflictError):  # the same tap twice
        games.play(game_id=played.id, step=at, play=legal[0])


def test_choices_are_checked() -> None:
    from scopa.application.computer import check_choice

    with pytest.raises(InputError, match=r"^variant: 'briscola' is not one of 'scopa', "):
        check_choice("briscola", 2, "easy")
    with pytest.raises(InputError, match=r"^players: scopone is played by 4 players \(2 given\)$"):
        check_choice("scopone", 2, "easy")
    with pytest.raises(InputError, match="level"):
        check_choice("scopa", 2, "1it")
    with pytest.raises(InputError, match="twice"):
        parse_play("7d", ["3c", "3c"])


def test_a_deal_left_unrecorded_is_recorded_on_the_next_read(
    games: ComputerGames, store: Matches
) -> None:
    """The server stopped after writing the plays but before recording the deal."""
    played = games.start(variant="scopa", players=2, level="easy", seed=9)
    while not played.game.deal_over:
        played = step(games, played)
    game = Game.replay("scopa", 2, "easy", 9, played.game.log)
    assert played.match_id is not None
    service = MatchService(store)
    first = service.get(match_id=played.match_id)
    played = games.next_deal(game_id=played.id, step=played.game.step)
    while not played.game.deal_over:  # the second deal, its recording then undone
        played = step(games, played)
    service.delete_deal(match_id=played.match_id or 0, number=2, version=None)
    assert len(service.get(match_id=first.id).match.deals) == 1
    resumed = games.resume(game_id=played.id)
    assert resumed.match_id == first.id
    assert len(service.get(match_id=first.id).match.deals) == 2
    assert game.match.deals[0] == service.get(match_id=first.id).match.deals[0]


def test_a_game_dealt_on_a_device_from_an_issued_seed_is_vouched_for(
    games: ComputerGames,
) -> None:
    """The seeds a device is issued, on either store: its ticket is good once, for its seed
    only; a game with a seed never issued is kept, marked unverified."""
    issued = games.issue_seed()
    with pytest.raises(InputError, match="ticket"):
        games.adopt(
            variant="scopa",
            players=2,
            level="easy",
            seed=issued.seed + 1,
            log=[[]],
            ticket=issued.ticket,
        )
    kept = games.adopt(
        variant="scopa", players=2, level="easy", seed=issued.seed, log=[[]], ticket=issued.ticket
    )
    assert kept.unverified is None
    again = games.adopt(
        variant="scopa", players=2, level="easy", seed=issued.seed, log=[[]], ticket=issued.ticket
    )
    assert again.unverified == "seed_unknown"
    assert {g.id for g in games.playing()} == {kept.id, again.id}
