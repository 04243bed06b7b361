"""Root plays judged by greedy playouts in the native kernel, over many sampled deals.

An alpha-beta search of one sampled deal costs some 20 ms in Python, so a move of 200 ms
averages over only about ten deals. A greedy playout of the rest of the deal in C costs tens
of microseconds: in the same time each root play is played out in a few hundred deals that
agree with what the seat knows, and the averages settle. The playout makes every seat play
greedily (the kernel's ``greedy``), so its value is what the root play is worth against a
table that takes what it can; the one scorer's points table scores each finished deal.

Used by :class:`~scopa.engine.ai.player.SearchPlayer` for sampled deals when the level asks
for it and the kernel is built; the exact endgame stays with the alpha-beta solver.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from scopa.engine.ai.evaluate import Evaluator
from scopa.engine.ai.solver import restore, save
from scopa.engine.board import Board
from scopa.engine.records import State
from scopa.engine.variants import Variant
from scopa.rules import Settings
from scopa.scoring import points_table

RANDOM, GREEDY, MIXED = 0, 1, 2
"""The kernel's codes for the random, greedy and mixed strategies
(``scopa.engine.native.STRATEGIES``)."""


def playout_code(greedy: bool, mixed: bool) -> int:
    """The kernel's strategy for a search's playouts: mixed (``+mixed``), else greedy
    (``+playouts``), else random."""
    return MIXED if mixed else GREEDY if greedy else RANDOM


def native_ready(variant: Variant) -> bool:
    """Whether the kernel is built and plays this variant."""
    from scopa.engine.native import AVAILABLE, NATIVE_CAPTURES

    return AVAILABLE and variant.capture in NATIVE_CAPTURES


def kernel_playouts(
    kernel: Any,
    b: Board,
    codes: tuple[int, ...],
    prefix: tuple[int, ...],
    side_of: tuple[int, ...],
    sides: int,
    count: int = 1,
) -> dict[tuple[tuple[int, ...], int], int]:
    """``count`` playouts of ``b`` to the end of its deal in the native kernel (``kernel``:
    ``scopa.engine.native.rules(variant)``, not imported here: the phone's package has no
    kernel), each seat playing by its strategy code in ``codes`` from the random stream
    ``prefix``: how often each pair of (each side's points key, last capture) came out. The
    one call to the kernel's playouts that the search players make (ISMCTS finishes a deal
    with it, the greedy :class:`Playouts` judge root plays with it)."""
    tallies: dict[tuple[tuple[int, ...], int], int] = kernel.rollouts(
        tuple(b.hands),
        b.table,
        b.stock,
        tuple(b.piles),
        tuple(b.sweeps),
        b.turn,
        b.last,
        b.dealer,
        codes,
        tuple(b.ace_sweeps) if any(b.ace_sweeps) else (),
        b.last_cleared,
        prefix,
        count,
        side_of,
        sides,
        shown=b.shown,
        matta_as=b.matta_as,
    )
    return tallies


class Playouts:
    """Greedy playouts of a deal after each root play, scored as margins for our side."""

    def __init__(
        self,
        variant: Variant,
        settings: Settings,
        side_of: tuple[int, ...],
        evaluator: Evaluator,
        mixed: bool = False,
    ) -> None:
        from scopa.engine.native import rules
        from scopa.engine.native.simulate import _scoring_ready, prefix

        _scoring_ready()
        self.rules = rules(variant)
        self.prefix: Callable[[int], tuple[int, ...]] = prefix
        self.side_of = side_of
        self.sides = max(side_of) + 1
        self.codes = (playout_code(True, mixed),) * len(side_of)
        self.table = points_table(settings)
        self.evaluator = evaluator

    def values(self, deal: State, plays: list[tuple[int, int]], seed: int) -> list[float]:
        """The margin for our side after each root play on ``deal`` (its cards all known),
        the rest of the deal played out greedily."""
        board = Board(deal)
        out = []
        prefix = self.prefix(seed)
        for card, capture in plays:
            saved = save(board)
            board.play(card, capture)
            out.append(self._playout(board, prefix))
            restore(board, saved)
        return out

    def _playout(self, b: Board, prefix: tuple[int, ...]) -> float:
        tallies = kernel_playouts(self.rules, b, self.codes, prefix, self.side_of, self.sides)
        return self._score(tallies)

    def _score(self, tallies: dict[tuple[tuple[int, ...], int], int]) -> float:
        table = self.table
        sums = [0.0] * self.sides
        count = 0
        for (keys, _), times in tallies.items():
            for i, key in enumerate(keys):
                sums[i] += table[key].total * times
            count += times
        return self.evaluator.margin([s / count for s in sums])
