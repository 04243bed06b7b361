"""A match against the computer, without any screen: the front ends (``scopa play``, the
Play page) show it and pass the person's choices in.

The person sits at seat 0; the other seats are search players (:mod:`scopa.engine.ai`) at
one level. Each deal is played by the engine; at its end its facts go to the one scorer
through a regular :class:`~scopa.match.Match` (named as played against the computer), so the
stored game opens in the sheet like any other.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from scopa import variants
from scopa.cards import CardSet
from scopa.deal import Deal
from scopa.engine.ai import LEVELS, PHONE_LEVELS, Level, SearchPlayer, parse_level
from scopa.engine.ai.coach import Advice, Mistake, advise, lighter, review
from scopa.engine.state import Play, State, apply, deal, legal_plays, to_deal
from scopa.engine.variants import VARIANTS as ENGINE_VARIANTS
from scopa.engine.variants import Variant, get_variant
from scopa.errors import IllegalPlayError, InputError, one_of
from scopa.i18n import N_
from scopa.made_names import MadeName, Seat, computer_seats
from scopa.match import Match, score_match
from scopa.reading import ascii_digits
from scopa.sheet import Sheet

PLAY_VARIANTS = tuple(name for name in variants.names() if name in ENGINE_VARIANTS)
"""The variants offered on the Play page: every variant the engine has play rules for."""
SEED_BITS = 62
"""Seeds fit a signed 64-bit column. In JSON a seed is written as a string of digits
(:func:`parse_seed`): a JavaScript number holds only 53 bits exactly."""
YOU = "You"
AGAINST_THE_COMPUTER = "Against the computer"
"""How a match played here is named (and so marked) in the store and on the sheet."""


def seat_names(players: int, partnerships: bool) -> tuple[str, ...]:
    """The names at the table: you, then the computer's seats (your partner opposite), each
    the English wording of its seat (:func:`scopa.made_names.computer_seats`).

    >>> seat_names(2, False), seat_names(4, True)
    (('You', 'Computer'), ('You', 'Computer 1', 'Partner', 'Computer 2'))
    """
    return tuple(str(seat.english()) for seat in computer_seats(players, partnerships))


def choices() -> list[dict[str, Any]]:
    """The variants offered against the computer and at a table, with the players each is
    dealt for."""
    return [
        {
            "name": name,
            "title": variants.get(name).title,
            "players": list(get_variant(name).players),
        }
        for name in PLAY_VARIANTS
    ]


def check_choice(variant: str, players: int | None, level: str) -> int:
    """The number of players, once the variant, players and level are checked.

    >>> check_choice("scopone", None, "easy"), check_choice("escoba", 3, "strong")
    (4, 3)
    """
    check_variant(variant)
    count = check_players(variant, players)
    check_level(level, "level")
    return count


def check_variant(variant: object) -> str:
    """A variant played against the computer or at a table (:data:`PLAY_VARIANTS`)."""
    if not isinstance(variant, str) or variant not in PLAY_VARIANTS:
        raise one_of("variant", variant, PLAY_VARIANTS, code="game.not_offered")
    return variant


def check_players(variant: str, players: int | None) -> int:
    """The number of players of a game of ``variant`` (``None``: its fewest)."""
    engine = get_variant(variant)
    count = engine.players[0] if players is None else players
    if count not in engine.players:
        raise variants.wrong_players(
            "players",
            variant,
            engine.players,
            count,
            code="game.played_players_not",
            error=InputError,
        )
    return count


def check_level(level: object, where: str) -> str:
    """The computer's level (:data:`~scopa.engine.ai.LEVELS`), at ``where``."""
    if not isinstance(level, str) or level not in LEVELS:
        raise InputError(
            where,
            N_("{level!r} is not a level: {names}"),
            code="game.not_level",
            level=level,
            names=", ".join(LEVELS),
        )
    return level


def replayable(level: str, phone: bool = False) -> bool:
    """Whether the computer at ``level`` always makes the same play from the same game: it
    thinks by a number of sampled deals (``easy``) or iterations, not for a time
    (``normal``, ``strong`` on the server: how far a search gets in its time depends on the
    machine and its load). ``phone``: at the phone's budgets (:func:`level_here`), where
    ``normal`` and ``strong`` are numbers of iterations.

    >>> replayable("easy"), replayable("normal"), replayable("strong")
    (True, False, False)
    >>> replayable("normal", phone=True), replayable("500ms", phone=True)
    (True, False)
    """
    return level_here(level, phone).think_ms is None


def level_here(level: str, phone: bool | None = None) -> Level:
    """How the computer thinks at ``level``: on the phone, where the kernel is its WebAssembly
    build, ``normal`` and ``strong`` grow the tree for a number of iterations
    (:data:`~scopa.engine.ai.levels.PHONE_LEVELS`); elsewhere as the level says (on the
    server for a time, :data:`~scopa.engine.ai.LEVELS`). ``phone`` says which (``None``:
    as this device plays, the phone's where the kernel in use is the WebAssembly build).

    >>> level_here("strong").tree_ms, level_here("strong", phone=True).iterations
    (200.0, 30000)
    """
    from scopa.engine import native

    on_phone = PHONE_LEVELS.get(level)
    if on_phone is None or on_phone == LEVELS[level]:  # easy: the same everywhere
        return parse_level(level)
    if phone is None:
        phone = native.webassembly()  # the kernel instantiated if need be
    return on_phone if phone else parse_level(level)


def parse_seed(seed: object) -> int:
    """A game's seed: a whole number from 0 to 2**62 - 1, or its digits.

    >>> parse_seed("88301772499671790"), parse_seed(7)
    (88301772499671790, 7)
    """
    if isinstance(seed, str):
        seed = ascii_digits(seed.strip()) if seed.strip() else seed
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**SEED_BITS:
        raise InputError(
            "seed",
            N_("a seed is a whole number from 0 to {most}"),
            code="game.seed_whole_number_from",
            most=2**SEED_BITS - 1,
        )
    return seed


def deal_next(variant: Variant, players: int, rng: random.Random, dealt: int) -> State:
    """The next deal of a match that has ``dealt`` deals so far, from the match's ``rng``:
    the deal passes to the right (the first dealer is the last seat). One way for every
    game the engine plays again from a seed (:class:`Game`, the tables online)."""
    dealer = (players - 1 + dealt) % players
    return deal(variant, players, seed=rng.getrandbits(64), dealer=dealer)


@dataclass(frozen=True, slots=True)
class Step:
    """One play applied by the engine: the state after it, whether it swept, and the cards
    it left on the table when it ended the deal (they go to the last to take)."""

    state: State
    sweep: bool
    leftovers: CardSet | None


LoggedPlay = TypeVar("LoggedPlay")


def replay_log(
    log: Sequence[Sequence[LoggedPlay]], over: Callable[[], bool], next_deal: Callable[[], None]
) -> Iterator[tuple[int, LoggedPlay]]:
    """The plays of a match's ``log`` (deal by deal), each with its deal's number, for the
    caller to make in order: the one loop that plays a match again (:meth:`Game.replay`, the
    tables). Before the first play of each next deal the last one must be over (``over()``),
    else :class:`IllegalPlayError`; ``next_deal()`` then scores it and deals the next.

    >>> list(replay_log([["a", "b"], [], ["c"]], lambda: True, lambda: None))
    [(0, 'a'), (0, 'b'), (2, 'c')]
    """
    for number, plays in enumerate(log):
        if number:
            if not over():
                raise IllegalPlayError(
                    N_("deal {number} is not over but deal {value} has plays"),
                    code="play.deal_not_over_but_2",
                    number=number,
                    value=number + 1,
                )
            next_deal()
        for play in plays:
            yield number, play


def step(state: State, play: Play) -> Step:
    """``play`` applied to ``state`` (checked by the engine)."""
    seat = state.turn
    after = apply(state, play)
    leftovers = None
    if after.leftovers_to is not None:
        table = state.table
        leftovers = CardSet(table ^ play.capture.mask if play.capture else table | play.card.bit)
    return Step(after, after.sweeps[seat] > state.sweeps[seat], leftovers)


def with_finished_deal(match: Match, state: State, names: Sequence[str]) -> tuple[Match, Deal]:
    """``match`` with the finished deal ``state`` added to its deals, and that deal's facts."""
    record = to_deal(state, tuple(names))
    return match.with_deals((*match.deals, record)), record


@dataclass(frozen=True, slots=True)
class Move:
    """One play as the table saw it."""

    seat: int
    name: str
    play: Play
    sweep: bool

    def describe(self) -> str:
        """``Computer plays 7d and takes 3c 4c: sweep!``"""
        verb = "play" if self.name == YOU else "plays"
        text = f"{self.name} {verb} {self.play.card}"
        if self.play.capture:
            text += f" and take{'' if self.name == YOU else 's'} {self.play.capture}"
        return text + (": sweep!" if self.sweep else "")


class Game:
    """A whole match against the computer, deal by deal."""

    def __init__(
        self,
        variant: str = "scopa",
        players: int | None = None,
        level: str = "normal",
        seed: int | None = None,
        phone: bool | None = None,
    ) -> None:
        self.variant = get_variant(variant)
        self.players = players if players is not None else self.variant.players[0]
        self.variant.check_players(self.players)
        settings = self.variant.settings_for(self.players)
        self.level = level
        self.seed = seed
        """The seed the deals come from (``None``: a match that cannot be replayed)."""
        self.seats: tuple[Seat, ...] = computer_seats(self.players, settings.partnerships)
        """Who sits where, as data (the names are their English wording)."""
        self.names = tuple(str(seat.english()) for seat in self.seats)
        made = MadeName.computer(variants.get(variant).title, level)
        self.match = Match(
            players=self.names,
            settings=settings,
            name=made.english(),
            made=made,
            seat_kinds=self.seats,
        )
        self.rng = random.Random(seed)
        strength = level_here(level, phone)  # the phone's budgets or the server's
        self.computers = {
            seat: SearchPlayer(random.Random(self.rng.getrandbits(64)), strength, settings)
            for seat in range(1, self.players)
        }
        self.moves: list[Move] = []
        """The plays of the current deal, in order."""
        self.leftovers = CardSet()
        """The cards left on the table at the end of the deal (they went to the last to
        take: ``state.leftovers_to``)."""
        self.log: list[list[tuple[int, int]]] = [[]]
        """Every play of the match as the engine's (card index, capture mask), deal by deal:
        with the seed, all it takes to play the match again (:meth:`replay`)."""
        self.deal_start: State = self._deal()
        """The current deal as it was dealt (the coach reviews the deal's plays from it)."""
        self.state: State = self.deal_start

    @classmethod
    def replay(
        cls,
        variant: str,
        players: int | None,
        level: str,
        seed: int,
        log: Sequence[Sequence[tuple[int, int]]],
    ) -> Game:
        """The match as it stood after the plays of ``log`` (from :attr:`log`), dealt again
        from ``seed``: each deal but the last is finished and scored, then the next dealt."""
        game = cls(variant, players, level, seed)
        for _, (card, capture) in game._replaying(log):
            game._make(Play.of(card, capture))
        if game.deal_over:
            game.finish_deal()
        return game

    def _replaying(
        self, log: Sequence[Sequence[tuple[int, int]]]
    ) -> Iterator[tuple[int, tuple[int, int]]]:
        """:func:`replay_log` on this game: each deal of the log but the last is scored and
        the next one dealt."""

        def next_deal() -> None:
            self.finish_deal()
            self.next_deal()

        return replay_log(log, lambda: self.deal_over, next_deal)

    @classmethod
    def other_computer_play(
        cls,
        variant: str,
        players: int | None,
        level: str,
        seed: int,
        log: Sequence[Sequence[tuple[int, int]]],
        start: int = 0,
        check: bool = True,
        phone: bool | None = None,
    ) -> int | None:
        """The step of the first computer play of ``log`` (from step ``start`` on) that
        the computer would not have made, or ``None`` when it would have made them all
        (``check=False``: of the first computer play, whatever it is).

        Only a level that thinks by a number of sampled deals (:func:`replayable`) chooses
        the same play every time: the server and the device both deal and play the game
        again before each of its plays, so its search starts from the same random state,
        which is restored here before each play is chosen again. Every play is also checked
        by the engine, as :meth:`replay` does. ``phone=True``: the plays the computer makes
        at the phone's budgets (:func:`level_here`), where ``normal`` and ``strong`` are a
        number of iterations too, on the C extension as on the phone's WebAssembly build.

        >>> print(Game.other_computer_play("scopa", 2, "easy", 5, [[]]))
        None
        """
        game = cls(variant, players, level, seed, phone)
        initial = {seat: player.rng.getstate() for seat, player in game.computers.items()}
        step = 0
        deal_number = 0
        for number, (card, capture) in game._replaying(log):
            step += number - deal_number  # a new deal is a step too
            deal_number = number
            seat = game.state.turn
            if seat != 0 and step >= start and not game.state.finished:
                if not check:
                    return step
                player = game.computers[seat]
                player.rng.setstate(initial[seat])
                chosen = player.choose(game.state, legal_plays(game.state))
                if chosen.pair != (card, capture):
                    return step
            game._make(Play.of(card, capture))
            step += 1
        return None

    @property
    def step(self) -> int:
        """How many things happened so far (plays and new deals): what a move is based on.

        >>> Game("scopa", 2, "1it", seed=1).step
        0
        """
        return sum(len(plays) for plays in self.log) + len(self.log) - 1

    def _deal(self) -> State:
        return deal_next(self.variant, self.players, self.rng, len(self.match.deals))

    @property
    def your_turn(self) -> bool:
        return not self.state.finished and self.state.turn == 0

    @property
    def deal_over(self) -> bool:
        return self.state.finished

    @property
    def hand(self) -> CardSet:
        return self.state.hand(0)

    def options(self, card_index: int) -> tuple[Play, ...]:
        """Your legal plays of one card: one capture each (or the trail)."""
        return tuple(p for p in legal_plays(self.state) if p.card.index == card_index)

    def options_all(self) -> tuple[Play, ...]:
        """All your legal plays (the hint)."""
        return legal_plays(self.state) if self.your_turn else ()

    def advice(self) -> list[Advice]:
        """Your legal plays, best first, each with the points it is expected to bring (your
        side's less the others' at the end of the deal): the coach's hint. Empty when it is
        not your turn."""
        if not self.your_turn:
            return []
        return advise(self.state, seed=self.step)

    def review(self) -> list[Mistake]:
        """Your plays of the finished deal that cost the most against the best play then
        (expected points lost), costliest first."""
        if not self.deal_over:
            raise IllegalPlayError(N_("the deal is not over yet"), code="play.deal_not_over_yet")
        plays = [Play.of(card, capture) for card, capture in self.log[-1]]
        return review(self.deal_start, plays, 0, seed=self.step)

    @property
    def coach_lighter(self) -> bool:
        """Whether the coach searches lighter than the player's tree here (no native kernel:
        the phone), which the hint says."""
        return lighter(self.state.variant)

    def play(self, play: Play) -> Move:
        """Your play (it must be your turn and the play legal)."""
        if not self.your_turn:
            raise IllegalPlayError(N_("it is not your turn"), code="play.not_your_turn")
        return self._make(play)

    def computer_plays(self) -> Move:
        """The play of the computer seat to move."""
        seat = self.state.turn
        if self.state.finished or seat == 0:
            raise IllegalPlayError(
                N_("it is not the computer's turn"), code="play.not_computer_turn"
            )
        return self._make(self.computers[seat].choose(self.state, legal_plays(self.state)))

    def _make(self, play: Play) -> Move:
        seat = self.state.turn
        done = step(self.state, play)
        self.state = done.state
        if done.leftovers is not None:
            self.leftovers = done.leftovers
        move = Move(seat, self.names[seat], play, done.sweep)
        self.moves.append(move)
        self.log[-1].append(play.pair)
        return move

    def finish_deal(self) -> Deal:
        """Score the finished deal into the match and return its facts."""
        self.match, record = with_finished_deal(self.match, self.state, self.names)
        return record

    def next_deal(self) -> None:
        if self.over:
            raise IllegalPlayError(N_("the match is over"), code="play.match_over")
        if not self.deal_over or len(self.match.deals) < len(self.log):
            raise IllegalPlayError(
                N_("the deal is not over and scored yet"), code="play.deal_not_over_scored"
            )
        self.moves = []
        self.leftovers = CardSet()
        self.log.append([])
        self.state = self.deal_start = self._deal()

    @property
    def sheet(self) -> Sheet:
        return score_match(self.match)

    @property
    def over(self) -> bool:
        return self.sheet.winner is not None
