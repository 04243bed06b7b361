"""Legal captures on int masks: rank match, sums, Escoba's fifteens, the ace that takes all.

Which sets of table cards add up to a value depends only on how many cards of each rank lie
on the table, so the sums are worked out once per *rank count* (a 30-bit key, three bits per
rank) and cached; a play only turns the cached rank patterns into the table's actual cards.

Captures come back in a fixed order: rank matches by card index; sums by number of cards,
then by their ranks in ascending order, then by card index. A capture is the mask of the
table cards taken (the played card not included); ``0`` in a play means the card trails.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from itertools import combinations

from scopa.cards import RANK_MASKS
from scopa.engine.variants import Variant

ACE_MASK = RANK_MASKS[0]
KING_MASK = RANK_MASKS[9]
RANK_OF: tuple[int, ...] = tuple(i % 10 for i in range(40))
"""The rank (0 = ace ... 9 = king) of each card index; its capture value is rank + 1."""

SPREAD: tuple[int, ...] = tuple(
    sum(1 << (3 * r) for r in range(10) if m >> r & 1) for m in range(1024)
)
"""A suit's 10-bit slice spread to three bits per rank; four of them add up to a rank count."""

Pattern = tuple[int, tuple[tuple[int, int], ...]]
"""A capture's ranks: a mask of the ranks taken whole (all the table's cards of the rank) and
``(rank mask, k)`` for ranks of which only ``k`` of the table's cards are taken."""


def rank_key(table: int) -> int:
    """The table's count of cards per rank, three bits per rank.

    >>> from scopa.cards import CardSet
    >>> rank_key(CardSet.parse("5s 5c 3b").mask) == 2 << 12 | 1 << 6
    True
    """
    return (
        SPREAD[table & 1023]
        + SPREAD[table >> 10 & 1023]
        + SPREAD[table >> 20 & 1023]
        + SPREAD[table >> 30]
    )


def bits_of(mask: int) -> list[int]:
    """The single-card masks of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


def _multisets(counts: tuple[int, ...], top: int) -> list[tuple[int, list[tuple[int, int]]]]:
    """Every non-empty sub-multiset of the ranks with value at most ``top``: (value, parts)."""
    found: list[tuple[int, list[tuple[int, int]]]] = []

    def walk(rank: int, value: int, parts: list[tuple[int, int]]) -> None:
        if rank == 10:
            if parts:
                found.append((value, list(parts)))
            return
        walk(rank + 1, value, parts)
        for k in range(1, counts[rank] + 1):
            if value + k * (rank + 1) > top:
                break
            parts.append((rank, k))
            walk(rank + 1, value + k * (rank + 1), parts)
            parts.pop()

    walk(0, 0, [])
    return found


@cache
def sum_patterns(
    key: int, min_cards: int, fewest: bool, offset: int
) -> tuple[tuple[Pattern, ...], ...]:
    """For each played rank, the rank patterns of table cards that it captures by sum.

    A card of rank ``r`` takes table cards worth ``offset - r - 1`` in all when ``offset`` is
    15 (Escoba), and worth ``r + 1`` when ``offset`` is 0 (Scopa). Cached per rank count.
    """
    counts = tuple(key >> (3 * r) & 7 for r in range(10))
    targets = [offset - r - 1 if offset else r + 1 for r in range(10)]
    by_value: dict[int, list[tuple[int, tuple[int, ...], list[tuple[int, int]]]]] = {}
    for value, parts in _multisets(counts, max(targets)):
        size = sum(k for _, k in parts)
        if size < min_cards:
            continue
        ranks = tuple(r for r, k in parts for _ in range(k))
        by_value.setdefault(value, []).append((size, ranks, parts))
    result = []
    for target in targets:
        options = sorted(by_value.get(target, []), key=lambda o: (o[0], o[1]))
        if fewest and options:
            options = [o for o in options if o[0] == options[0][0]]
        patterns = []
        for _, _, parts in options:
            whole = 0
            partial = []
            for rank, k in parts:
                if k == counts[rank]:
                    whole |= RANK_MASKS[rank]
                else:
                    partial.append((RANK_MASKS[rank], k))
            patterns.append((whole, tuple(partial)))
        result.append(tuple(patterns))
    return tuple(result)


def expand(table: int, patterns: tuple[Pattern, ...]) -> list[int]:
    """The table's actual captures for some rank patterns."""
    out = []
    for whole, partial in patterns:
        base = table & whole
        if not partial:
            out.append(base)
            continue
        options = [base]
        for rank_mask, k in partial:
            picks = [sum(c) for c in combinations(bits_of(table & rank_mask), k)]
            options = [o | p for o in options for p in picks]
        out.extend(options)
    return out


class Rules:
    """The capture rules of one variant on int masks: captures, legal plays and sweeps."""

    __slots__ = (
        "_ace_sweep",
        "_forced",
        "_last_play_sweep",
        "_min_cards",
        "_offset",
        "_optional",
        "_sums",
        "plays",
    )

    def __init__(self, variant: Variant) -> None:
        self._offset = 15 if variant.capture == "fifteen" else 0
        self._min_cards = 1 if self._offset else 2
        fewest = variant.sum_choice == "fewest" and not self._offset
        self._optional = variant.capture_optional
        self._last_play_sweep = variant.last_play_sweep
        self._ace_sweep = not variant.ace_takes_all or variant.ace_sweep
        min_cards, offset = self._min_cards, self._offset

        known: dict[int, tuple[tuple[Pattern, ...], ...]] = {}
        spread = SPREAD

        def sums(table: int) -> tuple[tuple[Pattern, ...], ...]:
            key = (
                spread[table & 1023]
                + spread[table >> 10 & 1023]
                + spread[table >> 20 & 1023]
                + spread[table >> 30]
            )
            found = known.get(key)
            if found is None:
                found = known[key] = sum_patterns(key, min_cards, fewest, offset)
            return found

        self._sums = sums
        if variant.capture == "fifteen":
            self._forced = self.plays = self._fifteen_plays
        elif variant.ace_takes_all:
            self._forced = self.plays = self._assi_plays
        else:
            self._forced = self.plays = self._scopa_plays
        if self._optional and variant.capture != "fifteen":
            self.plays = self._with_trails

    _forced: Callable[[int, int], list[tuple[int, int]]]
    plays: Callable[[int, int], list[tuple[int, int]]]
    """``plays(hand, table)``: every legal (card index, capture) of the hand, in a fixed order;
    a capture of 0 is a trail."""

    def _scopa_plays(self, hand: int, table: int) -> list[tuple[int, int]]:
        out: list[tuple[int, int]] = []
        sums = None
        while hand:
            low = hand & -hand
            hand ^= low
            i = low.bit_length() - 1
            r = RANK_OF[i]
            match = table & RANK_MASKS[r]
            if match:
                if match & (match - 1):
                    out.extend([(i, b) for b in bits_of(match)])
                else:
                    out.append((i, match))
                continue
            if sums is None:
                sums = self._sums(table)
            patterns = sums[r]
            if not patterns:
                out.append((i, 0))
            elif len(patterns) == 1 and not patterns[0][1]:
                out.append((i, table & patterns[0][0]))
            else:
                out.extend([(i, c) for c in expand(table, patterns)])
        return out

    def _assi_plays(self, hand: int, table: int) -> list[tuple[int, int]]:
        aces = hand & ACE_MASK
        if not aces:
            return self._scopa_plays(hand, table)
        out = self._scopa_plays(hand ^ aces, table)
        on_table = table & ACE_MASK
        for low in bits_of(aces):
            i = low.bit_length() - 1
            if on_table:
                out.extend([(i, b) for b in bits_of(on_table)])
            else:
                out.append((i, table))
        out.sort(key=lambda p: p[0])
        return out

    def _fifteen_plays(self, hand: int, table: int) -> list[tuple[int, int]]:
        out: list[tuple[int, int]] = []
        sums = self._sums(table)
        optional = self._optional
        while hand:
            low = hand & -hand
            hand ^= low
            i = low.bit_length() - 1
            patterns = sums[RANK_OF[i]]
            if patterns:
                out.extend([(i, c) for c in expand(table, patterns)])
                if not optional:
                    continue
            out.append((i, 0))
        return out

    def _with_trails(self, hand: int, table: int) -> list[tuple[int, int]]:
        """An optional capture on a rank-and-sum variant: every card may also trail."""
        out: list[tuple[int, int]] = []
        for i, capture in self._forced(hand, table):
            if out and out[-1][0] != i and out[-1][1]:
                out.append((out[-1][0], 0))
            out.append((i, capture))
        if out and out[-1][1]:
            out.append((out[-1][0], 0))
        return out

    def captures(self, card: int, table: int) -> list[int]:
        """The captures of one card (index) played onto ``table``; empty when it must trail.

        With an optional capture (Escoba) the trail is not listed here.
        """
        return [c for _, c in self.plays(1 << card, table) if c]

    def is_sweep(self, card: int, capture: int, table_after: int, last_play: bool) -> bool:
        """Whether a play is a sweep: it captured, cleared the table, and is not excluded
        (the deal's very last play; the ace's take-all in Scopa d'Assi unless it counts)."""
        if not capture or table_after:
            return False
        if last_play and not self._last_play_sweep:
            return False
        return self._ace_sweep or RANK_OF[card] != 0 or bool(capture & ACE_MASK)


@cache
def rules_for(variant: Variant) -> Rules:
    """The (cached) capture rules of a variant."""
    return Rules(variant)
