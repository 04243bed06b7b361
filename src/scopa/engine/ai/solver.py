"""Alpha-beta search of one deal whose cards are all known (a sampled deal, or the true one
once nothing is hidden).

The search steps on bare ints with the engine's capture rules (:func:`rules_for`'s ``plays``
and ``is_sweep``) and its dealing of a round (:func:`deal_round`); it makes a play exactly as
:func:`scopa.engine.state.apply` does, which a test checks play by play. Piles and sweeps are
kept per scoring side. The side to move maximises the worth to its side when it is ours and
minimises it otherwise (with three or more sides, every other side plays against us).
"""

from __future__ import annotations

from scopa.engine.ai.evaluate import Evaluator
from scopa.engine.captures import rules_for
from scopa.engine.state import State, deal_round

INFINITY = float("inf")
KNOWN_MAX = 200_000
SWEEP_THREAT = 0.8
"""What a sweep the player to move can make at the search horizon is worth."""
Undo = tuple[int, int, int | None, bool, int, int, bool]
"""What undoing a play needs: table, pile, last taker, sweep, leftovers side and its pile,
whether a round was dealt."""


def side_of_seats(players: int, partnerships: bool) -> tuple[int, ...]:
    """The scoring side of each seat: partners sit opposite, so sides alternate."""
    return tuple(seat % 2 if partnerships else seat for seat in range(players))


class Solver:
    """One deal with every card known, searched from the seat to move."""

    def __init__(
        self,
        state: State,
        side_of: tuple[int, ...],
        evaluator: Evaluator,
        known: dict[tuple[int, int], list[tuple[int, int]]] | None = None,
    ) -> None:
        rules = rules_for(state.variant)
        self.plays_of = rules.plays
        self.known = known if known is not None else {}
        """Legal plays by (hand, table), ordered for the search; shared between deals."""
        self.is_sweep = rules.is_sweep
        self.side_of = side_of
        self.evaluator = evaluator
        self.our_side = evaluator.side
        n = state.players
        self.n = n
        self.dealer = state.dealer
        self.size = state.variant.hand_size
        self.hands = list(state.hands)
        self.table = state.table
        self.stock = state.stock
        self.stock_pos = 0
        sides = max(side_of) + 1
        self.piles = [0] * sides
        self.sweeps = [0] * sides
        for seat in range(n):
            self.piles[side_of[seat]] |= state.piles[seat]
            self.sweeps[side_of[seat]] += state.sweeps[seat]
        self.turn = state.turn
        self.last = state.last_capturer
        self.remaining = sum(h.bit_count() for h in state.hands) + len(state.stock)
        self.leftovers: int | None = None
        self.nodes = 0

    def root_values(self, plays: list[tuple[int, int]], depth: int) -> list[float]:
        """The worth to our side of each root play, searched ``depth`` plies deep (the root
        play included), each with a full window."""
        values = []
        for play in plays:
            undo = self._make(play)
            values.append(self._search(depth - 1, -INFINITY, INFINITY))
            self._unmake(play, undo)
        return values

    def _search(self, depth: int, alpha: float, beta: float) -> float:
        self.nodes += 1
        if not self.remaining:
            return self.evaluator.final(self.piles, self.sweeps, self.leftovers)
        table = self.table
        hand = self.hands[self.turn]
        plays = self.known.get((hand, table))
        if plays is None:
            plays = self.plays_of(hand, table)
            if len(plays) > 1:
                plays.sort(key=lambda p: -(p[1].bit_count() + (16 if p[1] == table else 0)))
            if len(self.known) > KNOWN_MAX:
                self.known.clear()
            self.known[hand, table] = plays
        if depth <= 0:
            value = self.evaluator.estimate(self.piles, self.sweeps)
            card, capture = plays[0]
            if capture and capture == table and self.is_sweep(card, capture, 0, False):
                # the player to move can sweep: most of a point, for or against us
                ours = self.side_of[self.turn] == self.our_side
                value += SWEEP_THREAT if ours else -SWEEP_THREAT
            return value
        make = self._make
        unmake = self._unmake
        if self.side_of[self.turn] == self.our_side:
            best = -INFINITY
            for play in plays:
                undo = make(play)
                value = self._search(depth - 1, alpha, beta)
                unmake(play, undo)
                if value > best:
                    best = value
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            break
            return best
        best = INFINITY
        for play in plays:
            undo = make(play)
            value = self._search(depth - 1, alpha, beta)
            unmake(play, undo)
            if value < best:
                best = value
                if value < beta:
                    beta = value
                    if alpha >= beta:
                        break
        return best

    def _make(self, play: tuple[int, int]) -> Undo:
        """Make a play as ``apply`` does; returns what :meth:`_unmake` needs."""
        card, capture = play
        seat = self.turn
        side = self.side_of[seat]
        bit = 1 << card
        self.hands[seat] ^= bit
        self.remaining -= 1
        last_play = not self.remaining
        old_table = self.table
        old_pile = self.piles[side]
        old_last = self.last
        swept = False
        if capture:
            table = old_table ^ capture
            self.piles[side] = old_pile | capture | bit
            self.last = seat
            if not table and self.is_sweep(card, capture, table, last_play):
                self.sweeps[side] += 1
                swept = True
        else:
            table = old_table | bit
        turn = seat + 1
        if turn == self.n:
            turn = 0
        self.turn = turn
        dealt = False
        leftovers = -1
        leftover_pile = 0
        if last_play:
            if table:
                taker = self.last if self.last is not None else self.dealer
                leftovers = self.leftovers = self.side_of[taker]
                leftover_pile = self.piles[leftovers]
                self.piles[leftovers] = leftover_pile | table
                table = 0
        elif not self.hands[turn] and self.stock_pos < len(self.stock):
            self.hands = deal_round(self.stock[self.stock_pos :], self.dealer, self.n, self.size)
            self.stock_pos += self.size * self.n
            dealt = True
        self.table = table
        return old_table, old_pile, old_last, swept, leftovers, leftover_pile, dealt

    def _unmake(self, play: tuple[int, int], undo: Undo) -> None:
        old_table, old_pile, old_last, swept, leftovers, leftover_pile, dealt = undo
        seat = self.turn - 1 if self.turn else self.n - 1
        side = self.side_of[seat]
        if dealt:
            self.hands = [0] * self.n
            self.stock_pos -= self.size * self.n
        if leftovers >= 0:
            self.piles[leftovers] = leftover_pile
            self.leftovers = None
        self.hands[seat] |= 1 << play[0]
        self.remaining += 1
        self.table = old_table
        self.piles[side] = old_pile
        self.last = old_last
        if swept:
            self.sweeps[side] -= 1
        self.turn = seat
