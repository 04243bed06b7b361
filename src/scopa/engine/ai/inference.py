"""What the other seats' plays reveal about their hands, used to sample likelier deals.

A uniform sample (:func:`~scopa.engine.ai.knowledge.sample`) deals the unknown cards as if the
others played blindly. They do not: a player who trailed a four when they could have swept
the table with a seven probably holds no seven. The model of how a player chooses is a
softmax over the plays its hand allows: a play's odds are ``exp(score)``, its score a
weighed sum of what it takes and what it leaves (:data:`WEIGHTS`: a sweep, the settebello,
sevens, coins, cards, a table left that one card could sweep, the card laid down), the
weights fitted by maximum likelihood to the plays of the search players
(``bench/fit_inference.py``).

Within the current round (the cards dealt at the last hand-out are the only ones a seat still
holds), every play of another seat was made from the cards it holds now plus those it has
played since. A sampled deal is as likely as those plays were, had the seats held its hands:
the product over their plays of ``exp(score(play)) / Σ exp(score(p))``, the sum over every
play the hand allowed. A card's plays do not depend on the rest of the hand, so each card's
share of the sum is worked out once per move and a hand's sum is its cards' shares added.

The weighting uses only what the seat saw (the history, the table, its own hand): the
player still never peeks.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import lru_cache
from math import exp

from scopa.cards import COINS_MASK, RANK_MASKS, SETTEBELLO
from scopa.engine.ai.knowledge import Dealer, Knowledge
from scopa.engine.captures import RANK_OF, Rules, bits_of, indices_of, rules_for
from scopa.engine.records import State

FEATURES = (
    "capture",
    "taken",
    "coins",
    "sevens",
    "settebello",
    "sweep",
    "sixes",
    "aces",
    "open",
    "laid_rank",
    "laid_seven",
    "laid_settebello",
    "laid_coin",
)
"""What a play's score weighs: for a capture, that it is one, the cards it takes (the card
played among them), their coins, sevens, settebello, sixes and aces, and whether it sweeps;
for any play, whether the table it leaves could be swept by one card (``open``); for a card
laid down, its rank (a tenth of it), and whether it is a seven, the settebello, a coin."""
WEIGHTS = (
    -1.284,
    0.834,
    0.739,
    0.536,
    0.367,
    2.387,
    0.287,
    0.394,
    -1.229,
    -1.352,
    -0.814,
    -0.156,
    -0.170,
)
"""The fitted weight of each of :data:`FEATURES` (``bench/fit_inference.py``: 14,500 plays
of ``ismcts`` and of ``normal``'s method at 50 ms playing each other; on a quarter held out,
a log-likelihood of -0.73 a play, against -0.80 for the greedy measure at its best
temperature and -0.91 for plays chosen blindly)."""
TRIES = 12
"""Uniform samples drawn at most for one informed sample; past them, one of them drawn by
its weight."""
SEVENS = RANK_MASKS[6]
SIXES = RANK_MASKS[5]
ACES = RANK_MASKS[0]
SETTEBELLO_BIT = SETTEBELLO.bit


def features(card: int, capture: int, table: int, rules: Rules) -> tuple[float, ...]:
    """A play's :data:`FEATURES` (``card`` played on ``table``, taking ``capture``)."""
    bit = 1 << card
    if capture:
        taken = capture | bit
        return (
            1.0,
            float(taken.bit_count()),
            float((taken & COINS_MASK).bit_count()),
            float((taken & SEVENS).bit_count()),
            float(bool(taken & SETTEBELLO_BIT)),
            float(capture == table),
            float((taken & SIXES).bit_count()),
            float((taken & ACES).bit_count()),
            float(sweepable(rules, table & ~capture)),
            0.0,
            0.0,
            0.0,
            0.0,
        )
    return (0.0,) * 8 + (
        float(sweepable(rules, table | bit)),
        (RANK_OF[card] + 1) / 10,
        float(bool(bit & SEVENS)),
        float(bool(bit & SETTEBELLO_BIT)),
        float(bool(bit & COINS_MASK)),
    )


@lru_cache(maxsize=4096)
def sweepable(rules: Rules, table: int) -> bool:
    """Whether one card could take every card of ``table`` (a sweep for the next player)."""
    if not table:
        return False
    hand = 0
    for mask in RANK_MASKS:
        free = mask & ~table or mask
        hand |= free & -free
    return any(capture == table for _, capture in rules.plays(hand, table))


def score(card: int, capture: int, table: int, rules: Rules) -> float:
    """A play's score: the log of its odds among the plays of a hand.

    >>> rules = rules_for(__import__("scopa.engine.variants").engine.variants.VARIANTS["scopa"])
    >>> score(6, 1 << 16, 1 << 16, rules) > score(3, 0, 1 << 16, rules)  # a sweep, a trail
    True
    """
    return sum(w * f for w, f in zip(WEIGHTS, features(card, capture, table, rules), strict=True))


@lru_cache(maxsize=1 << 16)
def card_odds(rules: Rules, card: int, table: int) -> float:
    """A card's share of a hand's sum of odds on ``table``: ``exp(score)`` of each of its
    plays (``card`` an index), added up. The same (table, card) comes back at every later
    move of the round, and at every table playing the same cards."""
    return sum(
        exp(score(card, capture, table, rules)) for _, capture in rules.plays(1 << card, table)
    )


class Inference:
    """The other seats' plays of the current round, ready to weigh sampled deals."""

    def __init__(self, k: Knowledge) -> None:
        self.k = k
        self.dealer = Dealer(k)
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
        self.decisions: list[tuple[int, int, int, int]] = []
        """(seat, the table before its play, the cards it played from then on this round,
        the card it played)."""
        players = k.players
        for offset, (card, _) in enumerate(history[start:]):
            index = start + offset
            seat = (k.turn - (n - index)) % players
            if seat == k.seat:
                continue
            later = 0
            for j in range(index, n, players):
                later |= 1 << history[j][0]
            self.decisions.append((seat, tables[offset], later, card))
        self.rows: list[tuple[int, int, float, list[float]]] = []
        """Per decision: (seat, the cards it played from then on, the least sum of odds a
        hand allowing that play can have, each card's odds summed over its plays on that
        table). The kernel's tree weighs its deals from these rows."""
        self._rows: list[tuple[int, float, float, Callable[[int], float]]] = []
        """:attr:`rows` as :meth:`weight` reads them: the odds of the cards played since
        added up once, and each card's odds by its index."""
        could_hold = k.unknown
        for seat, table, later, _ in self.decisions:
            odds = [0.0] * 40
            for card in bits_of(could_hold | later):
                index = card.bit_length() - 1
                odds[index] = card_odds(self.rules, index, table)
            played = sum(odds[i] for i in indices_of(later))
            others = sorted(odds[c.bit_length() - 1] for c in bits_of(could_hold))
            fewest = played + sum(others[: k.hidden_size(seat)])
            self.rows.append((seat, later, fewest, odds))
            self._rows.append((seat, played, fewest, odds.__getitem__))

    def weight(self, deal: State) -> float:
        """How likely the others' plays of this round were, had they held ``deal``'s hands,
        as a share of the likeliest any hands could make them (at most 1)."""
        return self._weight(deal.hands)

    def _weight(self, hands: Sequence[int]) -> float:
        weight = 1.0
        held: dict[int, list[int]] = {}  # each seat's cards, read once for all its rows
        for seat, played, fewest, odds_of in self._rows:
            cards = held.get(seat)
            if cards is None:
                cards = held[seat] = indices_of(hands[seat])
            weight *= fewest / (played + sum(map(odds_of, cards)))
        return weight

    def sample(self, rng: random.Random) -> State:
        """A deal agreeing with what the seat knows, likelier the better the others' plays
        fit it: rejection sampling, :data:`TRIES` deals at most, then one of them drawn by
        its weight."""
        dealer = self.dealer
        if not self.rows:
            return dealer.sample(rng)
        chosen = None
        total = 0.0
        for _ in range(TRIES):  # a deal's hands weighed before it is made (most are not kept)
            hands, stock = dealer.hands(rng)
            w = self._weight(hands)
            if rng.random() < w:
                return dealer.state(hands, stock)
            total += w
            if chosen is None or rng.random() * total < w:
                chosen = hands, stock
        assert chosen is not None
        return dealer.state(*chosen)
