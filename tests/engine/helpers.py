"""Building states by hand for the engine's tests."""

from __future__ import annotations

from scopa.cards import CardSet
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
