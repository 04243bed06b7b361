"""The coach: the best play with what it is expected to bring, and after a deal the plays
that cost the most.

Both ask the search player (:class:`~scopa.engine.ai.player.SearchPlayer`) for the value of
every legal play by the method the player itself plays with: where the native kernel is
built, one search tree over the deals the seat cannot tell apart, finished by greedy
playouts (the ``normal`` and ``strong`` levels' tree, :data:`COACH_LEVEL`); without it (the
phone's Pyodide), the sampled deals searched by alpha-beta those levels fall back to
(:data:`LIGHT_LEVEL`, a lighter search, which the coach says: :func:`lighter`). A value is
the margin our side is expected to end the deal with (its points less the others'). A
play's *cost* is how much less it is expected to bring than the best play at that moment.
The coach sees only what the seat saw: it is built on
:func:`~scopa.engine.ai.knowledge.observe`, like the player, and its best play is the one
the player would make with the same level and seed.

Each play also says what it takes at once (:class:`Takes`): a sweep, the settebello, how
many coins and cards.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from scopa.cards import SETTEBELLO
from scopa.engine.ai.knowledge import observe
from scopa.engine.ai.levels import Level
from scopa.engine.ai.player import SearchPlayer
from scopa.engine.ai.playouts import native_ready
from scopa.engine.state import Play, State, apply, legal_plays
from scopa.engine.variants import Variant
from scopa.i18n import _, ngettext, npgettext
from scopa.words import FRENCH, deck

COACH_LEVEL = Level(think_ms=None, iterations=30_000, leaves=1600, playouts=True, tree=True)
"""How hard the coach thinks where the kernel is built: the player's tree (``normal`` and
``strong``: greedy playouts, the tree stopping at the round's end) grown a fixed number of
iterations, so the same position and seed give the same advice however busy the machine.
30,000 iterations keep a hint under a second of CPU on the shared machine (Escoba's the
dearest: at 50,000 the largest took 1.06 s), and a 2 s tree gives its best play a figure
within 0.25 points of this one's in nearly every position (``bench/coach.py``)."""
LIGHT_LEVEL = Level(think_ms=None, iterations=48, leaves=1600, playouts=True, tree=True)
"""Without the kernel (the phone): the same level searches sampled deals with alpha-beta,
as the player does there; 48 deals, some 0.1-0.2 s in CPython, a few times that in the
browser."""
REVIEW_LEVEL = Level(think_ms=None, iterations=10_000, leaves=400, playouts=True, tree=True)
"""A lighter tree for each play of a finished deal (a deal has up to 18 of one seat's)."""
REVIEW_LIGHT = Level(think_ms=None, iterations=24, leaves=400, playouts=True, tree=True)
"""... and its sampled deals without the kernel."""
WORTH_SAYING = 0.15
"""A play that cost less than this (points per deal) is not called a mistake."""


def lighter(variant: Variant) -> bool:
    """Whether the coach searches lighter than the player's tree for this variant: the
    native kernel is not built here (the phone), or does not play it."""
    return not native_ready(variant)


@dataclass(frozen=True, slots=True)
class Takes:
    """What a play takes at once, in the table's words: a sweep (a scopa; Escoba's escoba),
    the settebello (Escoba's siete de velo), and how many coins and cards (the played card
    with what it takes)."""

    sweep: bool = False
    settebello: bool = False
    coins: int = 0
    cards: int = 0
    escoba: bool = False
    """Said in Escoba's own words, as its sheet is in every language."""

    @classmethod
    def of(cls, state: State, play: Play) -> Takes:
        if not play.capture:
            return cls()
        seat = state.turn
        after = apply(state, play)
        taken = play.capture.mask | 1 << play.card.index
        return cls(
            sweep=after.sweeps[seat] > state.sweeps[seat],
            settebello=bool(taken >> SETTEBELLO.index & 1),
            coins=(taken & 0x3FF).bit_count(),
            cards=taken.bit_count(),
            escoba=state.variant.name == "escoba",
        )

    def words(self) -> str:
        """``a scopa, the settebello, 2 coins, 3 cards`` in the language in use (empty for
        a play that takes nothing).

        >>> Takes(sweep=True, coins=1, cards=2).words()
        'a scopa, 1 coin, 2 cards'
        """
        if not self.cards:
            return ""
        said = []
        if self.sweep:
            said.append(_("an escoba") if self.escoba else _("a scopa"))
        if self.settebello:
            said.append(_("the siete de velo") if self.escoba else _("the settebello"))
        if self.coins:
            said.append(self._coins_words())
        said.append(ngettext("{n} card", "{n} cards", self.cards).format(n=self.cards))
        return ", ".join(said)

    def _coins_words(self) -> str:
        """``2 coins``, or with a French-suited deck on the table ``2 diamonds`` (the
        coins' suit as that deck names it: *quadri*, *diamantes*)."""
        if deck() == FRENCH:
            said = npgettext("french suit", "{n} diamond", "{n} diamonds", self.coins)
        else:
            said = ngettext("{n} coin", "{n} coins", self.coins)
        return said.format(n=self.coins)

    def to_json(self) -> dict[str, object]:
        return {
            "sweep": self.sweep,
            "settebello": self.settebello,
            "coins": self.coins,
            "cards": self.cards,
            "words": self.words(),
        }


@dataclass(frozen=True, slots=True)
class Advice:
    """One legal play, its expected margin (points, our side's less the others') and what
    it takes at once."""

    play: Play
    expected: float
    takes: Takes = Takes()

    def to_json(self) -> dict[str, object]:
        return {
            "card": str(self.play.card),
            "capture": [str(c) for c in self.play.capture],
            "expected": round(self.expected, 2),
            "takes": self.takes.to_json(),
        }


@dataclass(frozen=True, slots=True)
class Mistake:
    """A play of a finished deal that was worth less than the best one then."""

    index: int
    """The play's position in the deal (0 = the first play)."""
    played: Advice
    best: Advice

    @property
    def cost(self) -> float:
        return self.best.expected - self.played.expected

    def to_json(self) -> dict[str, object]:
        return {
            "index": self.index,
            "played": self.played.to_json(),
            "best": self.best.to_json(),
            "cost": round(self.cost, 2),
        }


def advise(state: State, seed: int = 0, level: Level | None = None) -> list[Advice]:
    """Every legal play of the seat to move with its expected margin, the play the search
    player would make first (the tree's most tried play, or the best valued), then the
    others best first. ``level``: :data:`COACH_LEVEL` where the kernel is built, else
    :data:`LIGHT_LEVEL`."""
    if level is None:
        level = LIGHT_LEVEL if lighter(state.variant) else COACH_LEVEL
    player = SearchPlayer(random.Random(seed), level)
    values = player.values(observe(state, state.turn))
    visits = player.visits or [0] * len(values)
    by_pair = {play.pair: play for play in legal_plays(state)}
    ranked = sorted(
        zip(values, visits, range(len(values)), strict=True),
        key=lambda v: (-v[1], -v[0][1], v[2]),  # the player's choice: most tried, then value
    )
    advice = [
        Advice(by_pair[pair], value, Takes.of(state, by_pair[pair])) for (pair, value), *_ in ranked
    ]
    return advice[:1] + sorted(advice[1:], key=lambda a: -a.expected)


def review(
    start: State,
    plays: Sequence[Play],
    seat: int,
    seed: int = 0,
    level: Level | None = None,
    worth: float = WORTH_SAYING,
) -> list[Mistake]:
    """The plays ``seat`` made in a deal (``plays`` from ``start``, in order) that cost at
    least ``worth`` points against the best play then, costliest first. ``level``:
    :data:`REVIEW_LEVEL` where the kernel is built, else :data:`REVIEW_LIGHT`."""
    if level is None:
        level = REVIEW_LIGHT if lighter(start.variant) else REVIEW_LEVEL
    state = start
    found: list[Mistake] = []
    for index, play in enumerate(plays):
        if state.turn == seat and len(legal_plays(state)) > 1:
            advice = advise(state, seed + index, level)
            chosen = next(a for a in advice if a.play.pair == play.pair)
            if advice[0].expected - chosen.expected >= worth:
                found.append(Mistake(index, chosen, advice[0]))
        state = apply(state, play)
    found.sort(key=lambda m: (-m.cost, m.index))
    return found
