"""Building states by hand for the engine's tests."""

from __future__ import annotations

import random
from collections.abc import MutableSequence
from typing import Any

from scopa.cards import Card, CardSet
from scopa.engine.state import State
from scopa.engine.variants import VARIANTS, Variant


def mask(text: str) -> int:
    return CardSet.parse(text).mask


def position(
    hands: list[str],
    table: str,
    variant: Variant | None = None,
    turn: int = 0,
    stock: tuple[int, ...] = (),
    piles: list[str] | None = None,
    last: int | None = None,
) -> State:
    """A state with the given hands (by seat), table and stock; dealer = the last seat."""
    n = len(hands)
    pile_masks = tuple(mask(p) for p in piles) if piles else (0,) * n
    return State(
        variant=variant or VARIANTS["scopa"],
        dealer=n - 1,
        hands=tuple(mask(h) for h in hands),
        table=mask(table),
        stock=stock,
        piles=pile_masks,
        sweeps=(0,) * n,
        turn=turn,
        last_capturer=last,
    )


class StackedDeck(random.Random):
    """A generator whose shuffles lay out given decks in turn (for dealing known hands).

    Each deck lists the cards to deal first, in dealing order; the other cards follow in
    index order. Only :meth:`shuffle` is stacked; the other draws are a seeded generator's.
    """

    def __init__(self, *decks: str) -> None:
        super().__init__(0)
        self.decks = [CardSet.parse(d.replace("|", " ")) for d in decks]
        self.orders = [[c.index for c in _ordered(d)] for d in decks]

    def shuffle(self, x: MutableSequence[Any]) -> None:
        order = self.orders.pop(0)
        rest = [i for i in range(40) if i not in order]
        x[:] = order + rest


def _ordered(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.replace("|", " ").split()]


def two_player_deck(leader: str, dealer: str, table: str, *rounds: str) -> str:
    """A deck for 2 players, dealer seat 0: the leader's (seat 1) hand, the dealer's, the
    table, then later rounds' hands (leader first)."""
    return " | ".join((leader, dealer, table, *rounds))
