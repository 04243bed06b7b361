"""Alpha-beta search of one deal whose cards are all known (a sampled deal, or the true one
once nothing is hidden).

The search plays on the engine's own :class:`~scopa.engine.board.Board` (the one
implementation of a play: captures, sweeps, the next round's deal, Cirulla's declarations)
and takes a play back by restoring what the board held before it. The side to move
maximises the worth to our side when it is ours and minimises it otherwise (with three or
more sides, every other side plays against us).
"""

from __future__ import annotations

from scopa.engine.ai.evaluate import Evaluator
from scopa.engine.board import Board
from scopa.engine.records import State

INFINITY = float("inf")
KNOWN_MAX = 200_000
SWEEP_THREAT = 0.8
"""What a sweep the player to move can make at the search horizon is worth."""

Saved = tuple[
    list[int], int, tuple[int, ...], list[int], list[int], list[int], int, "int | None", int,
    "int | None", "int | None", tuple[tuple[str, ...], ...], int, int,
]  # fmt: skip


def side_of_seats(players: int, partnerships: bool) -> tuple[int, ...]:
    """The scoring side of each seat: partners sit opposite, so sides alternate."""
    return tuple(seat % 2 if partnerships else seat for seat in range(players))


def save(b: Board) -> Saved:
    """What a play changes on a board (the history aside: a play appends one entry)."""
    return (
        b.hands[:], b.table, b.stock, b.piles[:], b.sweeps[:], b.ace_sweeps[:], b.turn, b.last,
        b.remaining, b.leftovers_to, b.last_cleared, b.declarations, b.shown, b.matta_as,
    )  # fmt: skip


def restore(b: Board, s: Saved) -> None:
    """Take the last play back."""
    (
        b.hands, b.table, b.stock, b.piles, b.sweeps, b.ace_sweeps, b.turn, b.last,
        b.remaining, b.leftovers_to, b.last_cleared, b.declarations, b.shown, b.matta_as,
    ) = s  # fmt: skip
    b.history.pop()


class Solver:
    """One deal with every card known, searched from the seat to move."""

    def __init__(
        self,
        state: State,
        side_of: tuple[int, ...],
        evaluator: Evaluator,
        known: dict[tuple[int, int, int], list[tuple[int, int]]] | None = None,
    ) -> None:
        self.board = Board(state)
        self.side_of = side_of
        self.sides = max(side_of) + 1
        self.evaluator = evaluator
        self.our_side = evaluator.side
        self.known = known if known is not None else {}
        """Legal plays by (hand, table, matta), ordered for the search; shared between deals."""
        self.nodes = 0

    def root_values(self, plays: list[tuple[int, int]], depth: int) -> list[float]:
        """The worth to our side of each root play, searched ``depth`` plies deep (the root
        play included), each with a full window."""
        board = self.board
        values = []
        for card, capture in plays:
            saved = save(board)
            board.play(card, capture)
            values.append(self._search(depth - 1, -INFINITY, INFINITY))
            restore(board, saved)
        return values

    def _sides(self) -> tuple[list[int], list[int]]:
        """Piles and sweeps per scoring side."""
        board = self.board
        if self.sides == board.seats:
            return board.piles, board.sweeps
        piles = [0] * self.sides
        sweeps = [0] * self.sides
        for seat, side in enumerate(self.side_of):
            piles[side] |= board.piles[seat]
            sweeps[side] += board.sweeps[seat]
        return piles, sweeps

    def _final(self) -> float:
        board = self.board
        side_of = self.side_of
        piles, sweeps = self._sides()
        extra = [0] * self.sides
        if board.last_cleared is not None or any(board.ace_sweeps) or board.declarations:
            extra = self.evaluator.extra_keys(board, side_of, self.sides)
        leftovers = None if board.leftovers_to is None else side_of[board.leftovers_to]
        return self.evaluator.final(piles, sweeps, leftovers, extra)

    def _search(self, depth: int, alpha: float, beta: float) -> float:
        self.nodes += 1
        board = self.board
        if not board.remaining:
            return self._final()
        table = board.table
        hand = board.hands[board.turn]
        key = (hand, table, board.matta_as)
        plays = self.known.get(key)
        if plays is None:
            plays = board.options()
            if len(plays) > 1:
                plays.sort(key=lambda p: -(p[1].bit_count() + (16 if p[1] == table else 0)))
            if len(self.known) > KNOWN_MAX:
                self.known.clear()
            self.known[key] = plays
        if depth <= 0:
            value = self.evaluator.estimate(*self._sides())
            card, capture = plays[0]
            if capture and capture == table and board.rules.is_sweep(card, capture, 0, False):
                # the player to move can sweep: most of a point, for or against us
                ours = self.side_of[board.turn] == self.our_side
                value += SWEEP_THREAT if ours else -SWEEP_THREAT
            return value
        if self.side_of[board.turn] == self.our_side:
            best = -INFINITY
            for card, capture in plays:
                saved = save(board)
                board.play(card, capture)
                value = self._search(depth - 1, alpha, beta)
                restore(board, saved)
                if value > best:
                    best = value
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            break
            return best
        best = INFINITY
        for card, capture in plays:
            saved = save(board)
            board.play(card, capture)
            value = self._search(depth - 1, alpha, beta)
            restore(board, saved)
            if value < best:
                best = value
                if value < beta:
                    beta = value
                    if alpha >= beta:
                        break
        return best
