"""The use cases of a game against the computer that a server keeps (the Play page).

A game is stored as its seed and its plays so far; each use case deals and plays it again
(:meth:`Game.replay`, the engine's one play path), checks the move against the step the
client saw, makes it, and writes the plays back only if nobody moved the game meanwhile. The
computer thinks here, on the server. Each finished deal goes to the one scorer through a
regular match, created when the first deal ends and named as played against the computer,
so the game opens in the sheet like any other; a deal the server could not record (it
stopped in between) is recorded the next time the game is read.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from scopa.application.bodies import check_step
from scopa.application.matches import MatchService
from scopa.cards import Card, CardSet
from scopa.engine.game import PLAY_VARIANTS as PLAY_VARIANTS  # named here as before
from scopa.engine.game import SEED_BITS, Game, Move, parse_seed, replayable
from scopa.engine.game import check_choice as check_choice
from scopa.engine.state import Play
from scopa.errors import (
    IllegalPlayError,
    InputError,
    MatchNotFoundError,
    QuotaExceededError,
    ScopaError,
    VersionConflictError,
    describe,
)
from scopa.i18n import N_
from scopa.store.protocol import GameStore, SeedStore
from scopa.store.records import GameWrite


class GameNotFoundError(ScopaError, LookupError):
    """No game against the computer with this id."""


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """A game as it stands, and the moves the call just made (to show one by one)."""

    id: int
    game: Game
    match_id: int | None
    made: tuple[Move, ...] = ()
    unverified: str | None = None
    """Why the server cannot vouch for the game (:data:`~scopa.store.records.UNCOUNTED`):
    its match is then kept out of the players' figures. ``None``: it can."""


@dataclass(frozen=True, slots=True)
class IssuedSeed:
    """A seed for a game a device may deal with no connection, and the ticket to send with
    the game (``/play/games``)."""

    ticket: int
    seed: int


@dataclass(frozen=True, slots=True)
class GameLine:
    """A game still being played, for the list to resume from."""

    id: int
    variant: str
    players: int
    level: str
    deals: int
    updated_at: datetime


def parse_play(card: object, capture: object) -> Play:
    """A play from the client's words: a card (``7d``) and the cards it takes."""
    if not isinstance(capture, Sequence) or isinstance(capture, str):
        raise InputError(
            "capture",
            N_("the cards taken are a list (empty to trail)"),
            code="game.cards_taken_list",
        )
    taken = CardSet.parse([str(c) if isinstance(c, str) else c for c in capture], "capture")
    if len(taken) != len(capture):
        raise InputError(
            "capture",
            N_("a card is named twice among the cards taken"),
            code="game.card_named_twice_among",
        )
    return Play(Card.parse(card, "card"), taken)


def extends(
    kept: Sequence[Sequence[tuple[int, int]]], log: Sequence[Sequence[tuple[int, int]]]
) -> bool:
    """Whether ``log`` goes on from ``kept``: the same finished deals, then more plays.

    >>> extends([[(1, 0)]], [[(1, 0), (2, 0)], []]), extends([[(1, 0)]], [[(2, 0)]])
    (True, False)
    """
    if len(log) < len(kept):
        return False
    last = len(kept) - 1
    done = all(list(kept[k]) == list(log[k]) for k in range(last))
    return done and list(log[last][: len(kept[last])]) == list(kept[last])


def _replayed(fields: dict[str, Any], log: Sequence[Sequence[tuple[int, int]]]) -> Game:
    """The kept game (``fields``, as :class:`~scopa.store.protocol.GameStore` holds it) dealt
    and played again up to ``log``."""
    return Game.replay(fields["variant"], fields["players"], fields["level"], fields["seed"], log)


UNVERIFIED_TEXT = {
    "seed_not_issued": N_(
        "Not counted in the players' figures: it was dealt on a device from a seed the "
        "server did not issue."
    ),
    "seed_unknown": N_(
        "Not counted in the players' figures: it was dealt on a device from a seed the "
        "server no longer holds (already used, or issued to another group)."
    ),
    "computer_plays": N_(
        "Not counted in the players' figures: the computer's plays sent by the device are "
        "not the ones the computer makes."
    ),
    "not_replayable": N_(
        "Not counted in the players' figures: the computer played on a device at a level that "
        "thinks for a time, so its plays cannot be checked here."
    ),
}
"""What a game or a match says when the server cannot vouch for it, by reason."""


THINKING = ("iterations",)
"""How a device says its computer thought (``thinking`` with a game it sends):
``iterations``, by the phone's numbers of iterations (:data:`~scopa.engine.ai.levels.PHONE_LEVELS`),
so that its plays can be replayed here. A device that does not say it (an older core that
thought for a time) is not asked to."""


def parse_thinking(thinking: object) -> bool:
    """Whether a device says its computer thought by the phone's numbers of iterations
    (``thinking``: absent or ``null`` when it does not say).

    >>> parse_thinking("iterations"), parse_thinking(None)
    (True, False)
    """
    if thinking is None:
        return False
    if thinking not in THINKING:
        raise InputError(
            "thinking",
            N_("{thinking} is not how the computer thought (expected {names}, or nothing)"),
            code="play.not_thinking",
            thinking=describe(thinking),
            names=", ".join(THINKING),
        )
    return True


def computer_check(
    variant: str,
    players: int,
    level: str,
    seed: int,
    log: Sequence[Sequence[tuple[int, int]]],
    start: int,
    phone: bool = False,
) -> str | None:
    """Why the computer's plays of ``log`` from step ``start`` cannot be vouched for, or
    ``None``: at a level that thinks by a number of sampled deals or iterations each is
    played again and must be the one made; at a level that thinks for a time they cannot be
    replayed (a game with no computer play from ``start`` has nothing to check).
    ``phone``: the device's computer thought by the phone's numbers of iterations, so
    ``normal`` and ``strong`` are replayed at those (:func:`~scopa.engine.game.level_here`)."""
    if not replayable(level, phone):
        played = Game.other_computer_play(variant, players, level, seed, log, start, check=False)
        return None if played is None else "not_replayable"
    other = Game.other_computer_play(variant, players, level, seed, log, start, phone=phone)
    return None if other is None else "computer_plays"


class ComputerGames:
    """Start, resume and play the games against the computer kept in a store."""

    def __init__(self, games: GameStore, matches: MatchService, seeds: SeedStore) -> None:
        self.games = games
        self.matches = matches
        self.seeds = seeds

    def issue_seed(self) -> IssuedSeed:
        """A seed the server chooses for a game a device deals later, maybe with no
        connection: a game sent with its ticket is checked against it (:meth:`adopt`)."""
        seed = random.SystemRandom().getrandbits(SEED_BITS)
        return IssuedSeed(self.seeds.issue(seed), seed)

    def start(
        self, *, variant: str, players: int | None, level: str, seed: int | None = None
    ) -> PlayedGame:
        """A new game; the seat to play first may be the computer's (see :meth:`computer`)."""
        count = check_choice(variant, players, level)
        seed = random.SystemRandom().getrandbits(SEED_BITS) if seed is None else parse_seed(seed)
        game_id = self.games.create(variant=variant, players=count, level=level, seed=seed)
        return PlayedGame(game_id, Game(variant, count, level, seed), None)

    def resume(self, *, game_id: int) -> PlayedGame:
        """The game as it stands (any deal left unrecorded is recorded now)."""
        fields, game = self._load(game_id)
        return PlayedGame(game_id, game, self._record(fields, game), (), fields["unverified"])

    def play(self, *, game_id: int, step: int, play: Play) -> PlayedGame:
        """Your play: it must be your turn and the play legal."""
        return self._change(game_id, step, lambda game: (game.play(play),))

    def computer(self, *, game_id: int, step: int) -> PlayedGame:
        """The computer seat to move thinks and plays once."""
        return self._change(game_id, step, lambda game: (game.computer_plays(),))

    def next_deal(self, *, game_id: int, step: int) -> PlayedGame:
        """Deal the next deal once the last one is over (and the match is not)."""

        def deal(game: Game) -> tuple[Move, ...]:
            if not game.deal_over:
                raise IllegalPlayError(
                    N_("the deal is not over yet"), code="play.deal_not_over_yet"
                )
            game.next_deal()
            return ()

        return self._change(game_id, step, deal)

    def adopt(
        self,
        *,
        variant: str,
        players: int | None,
        level: str,
        seed: int,
        log: Sequence[Sequence[tuple[int, int]]],
        ticket: int | None = None,
        phone: bool = False,
    ) -> PlayedGame:
        """A game played on a device (the server could not be reached) kept here from now
        on: its seed and every play, each checked by the engine; its finished deals go to
        the one scorer like any other's.

        The server vouches for it only when it was dealt from a seed it issued
        (:meth:`issue_seed`, ``ticket``) and every computer play is one the computer makes
        there (replayed: :meth:`Game.other_computer_play`; ``phone``: the device says its
        computer thought by the phone's numbers of iterations, :func:`computer_check`).
        Otherwise it is kept, marked unverified, and its match is kept out of the players'
        figures. A ticket with another seed than the one issued with it is refused, and
        nothing is kept."""
        seed = parse_seed(seed)
        count = check_choice(variant, players, level)
        game = Game.replay(variant, count, level, seed, log)
        unverified: str | None = "seed_not_issued"
        if ticket is not None:
            claimed = self.seeds.claim(ticket, seed)
            if claimed == "other":
                raise InputError(
                    "seed",
                    N_("the seed is not the one the server issued with ticket {ticket}"),
                    code="play.seed_not_issued_one",
                    ticket=ticket,
                )
            unverified = None if claimed == "ok" else "seed_unknown"
        if unverified is None:
            unverified = computer_check(variant, count, level, seed, game.log, 0, phone)
        game_id = self.games.create(
            variant=variant, players=count, level=level, seed=seed, unverified=unverified
        )
        return self.sync(game_id=game_id, log=game.log, phone=phone)

    def sync(
        self, *, game_id: int, log: Sequence[Sequence[tuple[int, int]]], phone: bool = False
    ) -> PlayedGame:
        """The plays a device made while the server could not be reached, after the ones
        kept here: the kept plays must begin the device's (it went on from where the game
        stood), every play is checked by the engine, the computer's as :meth:`adopt` checks
        them (``phone`` the same). Sending the same plays again changes nothing."""
        fields, kept = self._load(game_id)
        plays = [[(int(c), int(t)) for c, t in deal] for deal in log]
        if not extends(kept.log, plays):
            raise VersionConflictError(
                N_("the game moved on here (step {step}) in another way than on the device"),
                code="version.game_moved_here",
                step=kept.step,
            )
        game = _replayed(fields, plays)
        if game.step != kept.step:
            # The computer's plays made on the device are checked as an adopted game's are.
            if fields["unverified"] is None:
                fields["unverified"] = computer_check(
                    fields["variant"],
                    fields["players"],
                    fields["level"],
                    fields["seed"],
                    game.log,
                    kept.step,
                    phone,
                )
            self._save(game_id, kept.step, game, fields["unverified"])
        match_id = self._record(fields, game)
        return PlayedGame(game_id, game, match_id, (), fields["unverified"])

    def playing(self, limit: int = 20) -> list[GameLine]:
        """The games still being played, the most recent first."""
        return [
            GameLine(
                f["id"],
                f["variant"],
                f["players"],
                f["level"],
                len(f["log"]),
                f["updated_at"],
            )
            for f in self.games.playing(limit)
        ]

    # Internals

    def _load(self, game_id: int) -> tuple[dict[str, Any], Game]:
        fields = self.games.load(game_id)
        if fields is None:
            raise GameNotFoundError(
                N_("there is no game {game_id} against the computer"),
                code="game.there_no_game_against",
                game_id=game_id,
            )
        log = [[(int(c), int(t)) for c, t in plays] for plays in fields["log"]]
        return fields, _replayed(fields, log)

    def _change(self, game_id: int, step: int, change: Any) -> PlayedGame:
        fields, game = self._load(game_id)
        moved = N_("the game moved on (step {step}, not {step2}): reload it to see where it is")
        check_step(step, game.step, moved, "version.game_moved")
        made: tuple[Move, ...] = change(game)
        if game.deal_over and len(game.match.deals) < len(game.log):
            game.finish_deal()
        self._save(game_id, step, game)
        return PlayedGame(game_id, game, self._record(fields, game), made, fields["unverified"])

    def _save(self, game_id: int, based_on: int, game: Game, unverified: str | None = None) -> None:
        """Write the game's plays if it is still at step ``based_on``, else refuse: it moved on
        meanwhile. With ``unverified``, the game is marked so in the same write."""
        status = "over" if game.over else "playing"
        log = [[list(pair) for pair in plays] for plays in game.log]
        move = GameWrite(
            based_on=based_on, log=log, step=game.step, status=status, unverified=unverified
        )
        if not self.games.save(game_id, move):
            raise VersionConflictError(
                N_("the game moved on meanwhile: reload it to see where"),
                code="version.game_moved_meanwhile_reload",
            )

    def _record(self, fields: dict[str, Any], game: Game) -> int | None:
        """Bring the game's match up to its finished deals; the match's id."""
        match_id: int | None = fields["match_id"]
        deals = game.match.deals
        if not deals:
            return match_id
        try:
            return self._record_deals(fields, game, match_id, deals)
        except QuotaExceededError:  # the group's sheet is full: the game plays on unrecorded
            return match_id

    def _record_deals(
        self, fields: dict[str, Any], game: Game, match_id: int | None, deals: Any
    ) -> int | None:
        unverified: str | None = fields.get("unverified")
        if match_id is None:
            created = self.matches.create(match=game.match, uncounted=unverified).id
            if self.games.attach_match(fields["id"], created):
                return created
            self.matches.delete_match(match_id=created, version=None)  # another got in first
            match_id = (self.games.load(fields["id"]) or {}).get("match_id")
            if match_id is None:  # pragma: no cover - the game vanished meanwhile
                return None
        if unverified is not None:  # marked after its match was made: it no longer counts
            self.matches.uncount(match_id=match_id, reason=unverified)
        for _ in range(len(deals) + 1):
            try:
                stored = self.matches.get(match_id=match_id)
            except MatchNotFoundError:
                return None  # the match was removed from the sheet: the game plays on
            recorded = len(stored.match.deals)
            if recorded >= len(deals):
                break
            try:
                self.matches.record_deal(
                    match_id=match_id, deal=deals[recorded], version=stored.version
                )
            except VersionConflictError:
                continue
        return match_id
