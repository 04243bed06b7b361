"""The coach: the best play with what it is expected to bring, and after a deal the plays
that cost the most.

Both ask the search player (:class:`~scopa.engine.ai.player.SearchPlayer`) for the value of
every legal play: the margin our side is expected to end the deal with (its points less the
others'), averaged over the deals it searched from what the seat knows. A play's *cost* is
how much less it is expected to bring than the best play at that moment. The coach sees only
what the seat saw: it is built on :func:`~scopa.engine.ai.knowledge.observe`, like the
player.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from scopa.engine.ai.knowledge import observe
from scopa.engine.ai.levels import Level
from scopa.engine.ai.player import SearchPlayer
from scopa.engine.state import Play, State, apply, legal_plays

COACH_LEVEL = Level(think_ms=None, iterations=120, leaves=800, playouts=True)
"""How hard the coach thinks: a fixed number of sampled deals (the same advice for the same
seed, however busy the machine), judged by the kernel's playouts where it is built."""
REVIEW_LEVEL = Level(think_ms=None, iterations=60, leaves=400, playouts=True)
"""A lighter search for each play of a finished deal (a deal has up to 18 of one seat's)."""
WORTH_SAYING = 0.15
"""A play that cost less than this (points per deal) is not called a mistake."""


@dataclass(frozen=True, slots=True)
class Advice:
    """One legal play and its expected margin (points, our side's less the others')."""

    play: Play
    expected: float

    def to_json(self) -> dict[str, object]:
        return {
            "card": str(self.play.card),
            "capture": [str(c) for c in self.play.capture],
            "expected": round(self.expected, 2),
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


def advise(state: State, seed: int = 0, level: Level = COACH_LEVEL) -> list[Advice]:
    """Every legal play of the seat to move, best first, with its expected margin."""
    player = SearchPlayer(random.Random(seed), level)
    values = player.values(observe(state, state.turn))
    by_pair = {play.pair: play for play in legal_plays(state)}
    advice = [Advice(by_pair[pair], value) for pair, value in values]
    advice.sort(key=lambda a: -a.expected)
    return advice


def review(
    start: State,
    plays: Sequence[Play],
    seat: int,
    seed: int = 0,
    level: Level = REVIEW_LEVEL,
    worth: float = WORTH_SAYING,
) -> list[Mistake]:
    """The plays ``seat`` made in a deal (``plays`` from ``start``, in order) that cost at
    least ``worth`` points against the best play then, costliest first."""
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
