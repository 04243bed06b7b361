"""Scoring one deal (RULES.md section 5): itemised points per side.

The one place where points are worked out; the sheet, the engine and the web app all call
:func:`score_deal`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scopa.deal import Pile
from scopa.rules import Settings

CATEGORIES = ("cards", "coins", "settebello", "primiera", "sweeps", "napola")


@dataclass(frozen=True, slots=True)
class Points:
    """One side's points in one deal, by category, and their total."""

    cards: int = 0
    coins: int = 0
    settebello: int = 0
    primiera: int = 0
    sweeps: int = 0
    napola: int = 0
    total: int = 0

    def to_dict(self) -> dict[str, int]:
        return {
            "cards": self.cards,
            "coins": self.coins,
            "settebello": self.settebello,
            "primiera": self.primiera,
            "sweeps": self.sweeps,
            "napola": self.napola,
            "total": self.total,
        }


def award(values: Sequence[int], share: bool) -> list[int]:
    """The point of a majority category: 1 for a unique highest value.

    When the top is tied, nobody scores it (``share=False``, the default rule) or every
    side tied at the top does. A value of 0 never wins (a primiera missing a suit).

    >>> award([22, 18], share=False)
    [1, 0]
    >>> award([14, 14, 12], share=False), award([14, 14, 12], share=True)
    ([0, 0, 0], [1, 1, 0])
    """
    top = max(values)
    if top <= 0:
        return [0] * len(values)
    winners = [1 if v == top else 0 for v in values]
    if share or sum(winners) == 1:
        return winners
    return [0] * len(values)


def napola_points(pile: Pile, mode: str) -> int:
    """Napola (ace, 2 and 3 of coins): ``flat`` 3, ``run`` 1 per card of the run, else 0.

    >>> from scopa.cards import CardSet
    >>> pile = Pile.of_cards(CardSet.parse("Ad 2d 3d 4d 6d 7d"))
    >>> napola_points(pile, "flat"), napola_points(pile, "run"), napola_points(pile, "off")
    (3, 4, 0)
    """
    if mode == "off" or pile.napola < 3:
        return 0
    return 3 if mode == "flat" else pile.napola


def score_deal(
    piles: Sequence[Pile],
    sweeps: Sequence[int],
    last: int | None,
    settings: Settings,
) -> tuple[Points, ...]:
    """Score one deal: per side (in the order of ``piles``) the points by category.

    ``sweeps`` are the sweeps made during play; ``last`` is the index of the side that took
    the cards left on the table (``None`` when none were left), which earns a sweep only with
    ``last_capture_sweep``.

    The worked example of RULES.md section 5:

    >>> from scopa.cards import CardSet
    >>> a = CardSet.parse("Ad 2d 3d 5d 7d Kd Ac 2c 6c 7c Hc 2s 4s 7s Js Ks 2b 3b 5b 6b Hb Kb")
    >>> b = CardSet.full() - a
    >>> pa, pb = score_deal([Pile.of_cards(a), Pile.of_cards(b)], [1, 2], None, Settings())
    >>> pa.total, pb.total, pa.primiera
    (5, 2, 1)
    """
    share = settings.ties == "share"
    n = len(piles)
    cards = award([p.count for p in piles], share)
    coins = award([p.coin_count for p in piles], share)
    primiera = award([p.primiera for p in piles], share) if settings.primiera else [0] * n
    napola_mode = settings.napola
    leftover = last if settings.last_capture_sweep else None
    result = []
    for i, pile in enumerate(piles):
        sweep = sweeps[i] + (1 if i == leftover else 0)
        settebello = 1 if pile.settebello else 0
        napola = napola_points(pile, napola_mode)
        total = cards[i] + coins[i] + settebello + primiera[i] + sweep + napola
        result.append(Points(cards[i], coins[i], settebello, primiera[i], sweep, napola, total))
    return tuple(result)
