"""What the other seats' plays reveal about their hands, used to sample likelier deals.

A uniform sample (:func:`~scopa.engine.ai.knowledge.sample`) deals the unknown cards as if the
others played blindly. They do not: a player who trailed a four when they could have swept
the table with a seven probably holds no seven. Within the current round (the cards dealt at
the last hand-out are the only ones a seat still holds), every play of another seat was made
from the cards it holds now plus those it has played since; for a sampled deal, each such
play is compared with the best play that hand allowed, by the greedy player's measure of a
play (sweeps, the settebello, sevens, coins, cards), and the deal is kept with probability
``exp((actual - best) / TEMPERATURE)``: a deal in which the others played as a sensible
player would is kept, one in which they threw away a sweep seldom is.

The weighting uses only what the seat saw (the history, the table, its own hand): the
player still never peeks.
"""

from __future__ import annotations

import random
from math import exp

from scopa.cards import COINS_MASK, RANK_MASKS, SETTEBELLO
from scopa.engine.ai.knowledge import Knowledge, sample
from scopa.engine.captures import RANK_OF, bits_of, rules_for
from scopa.engine.records import State

TEMPERATURE = 1.5
"""How forgiving the model of the others is: a play worse than the best by this much (in the
greedy player's units, where a sweep is 10 and the settebello 3) keeps a deal e⁻¹ of the
time."""
TRIES = 12
"""Uniform samples drawn at most for one informed sample; past them, the likeliest one."""
SEVENS = RANK_MASKS[6]
SETTEBELLO_BIT = SETTEBELLO.bit


def play_value(card: int, capture: int, table: int) -> float:
    """The greedy player's worth of a play, without its look at the next player's reply.

    >>> play_value(6, 1 << 6 | 0, 0) > play_value(3, 0, 1 << 6)  # a capture beats a trail
    True
    """
    bit = 1 << card
    if capture:
        taken = capture | bit
        value = 1.0 + 0.25 * taken.bit_count()
        value += 0.8 * (taken & COINS_MASK).bit_count()
        value += 1.2 * (taken & SEVENS).bit_count()
        value += 3.0 if taken & SETTEBELLO_BIT else 0.0
        if capture == table:
            value += 10.0
        return value
    value = -0.3 * (RANK_OF[card] + 1) / 10
    value -= 1.0 if bit & SEVENS else 0.0
    value -= 2.5 if bit & SETTEBELLO_BIT else 0.0
    value -= 0.4 if bit & COINS_MASK else 0.0
    return value


class Inference:
    """The other seats' plays of the current round, ready to weigh sampled deals."""

    def __init__(self, k: Knowledge) -> None:
        self.k = k
        self.rules = rules_for(k.variant)
        history = k.history
        n = len(history)
        per_round = k.players * k.variant.hand_size
        start = n - n % per_round if n % per_round else n
        if k.variant.capture == "cirulla" or k.matta_as >= 0:
            start = n  # the matta's many values: no inference
        tables = []
        table = k.table
        for card, capture in reversed(history[start:]):
            table = table | capture if capture else table & ~(1 << card)
            tables.append(table)
        tables.reverse()
        self.decisions: list[tuple[int, int, int, float]] = []
        """(seat, the table before its play, the cards it played from then on this round,
        the worth of what it played)."""
        players = k.players
        for offset, (card, capture) in enumerate(history[start:]):
            index = start + offset
            seat = (k.turn - (n - index)) % players
            if seat == k.seat:
                continue
            later = 0
            for j in range(index, n, players):
                later |= 1 << history[j][0]
            self.decisions.append(
                (seat, tables[offset], later, play_value(card, capture, tables[offset]))
            )
        self.best: list[tuple[int, int, float, list[float]]] = []
        """Per decision: (seat, the cards it played from then on, the worth of what it
        played, the worth of each card's best play on that table). A card's plays do not
        depend on the rest of the hand, so a hand's best play is its cards' best."""
        could_hold = k.unknown
        for seat, table, later, actual in self.decisions:
            best = [actual] * 40
            for card in bits_of(could_hold | later):
                index = card.bit_length() - 1
                for _, capture in self.rules.plays(card, table):
                    value = play_value(index, capture, table)
                    if value > best[index]:
                        best[index] = value
            self.best.append((seat, later, actual, best))

    def weight(self, deal: State) -> float:
        """How likely the others' plays of this round were, had they held ``deal``'s hands
        (1 when each was the best play its hand allowed)."""
        penalty = 0.0
        hands = deal.hands
        for seat, later, actual, best_of in self.best:
            hand = hands[seat] | later
            best = actual
            while hand:
                low = hand & -hand
                value = best_of[low.bit_length() - 1]
                if value > best:
                    best = value
                hand ^= low
            penalty += best - actual
        return exp(-penalty / TEMPERATURE) if penalty else 1.0

    def sample(self, rng: random.Random) -> State:
        """A deal agreeing with what the seat knows, likelier the better the others' plays
        fit it (rejection sampling, :data:`TRIES` at most)."""
        if not self.decisions:
            return sample(self.k, rng)
        best_deal = None
        best_weight = -1.0
        for _ in range(TRIES):
            deal = sample(self.k, rng)
            w = self.weight(deal)
            if rng.random() < w:
                return deal
            if w > best_weight:
                best_deal, best_weight = deal, w
        assert best_deal is not None
        return best_deal
