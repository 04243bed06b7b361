"""Legal captures on int masks: rank match, sums, Escoba's fifteens, the ace that takes all.

Which sets of table cards add up to a value depends only on how many cards of each rank lie
on the table, so the sums are worked out once per *rank count* (a 30-bit key, three bits per
rank) and cached; a play only turns the cached rank patterns into the table's actual cards.

Captures come back in a fixed order: rank matches by card index; sums by number of cards,
then by their ranks in ascending order, then by card index. A capture is the mask of the
table cards taken (the played card not included); ``0`` in a play means the card trails.
Cirulla lists a card's simple captures (rank match, else sums) before its fifteens.
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
    """The single-card masks of ``mask``, lowest first: the engine's one low-bit loop.

    >>> bits_of(0b1010), indices_of(0b1010)
    ([2, 8], [1, 3])
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


def indices_of(mask: int) -> list[int]:
    """The card indices of ``mask``, lowest first."""
    return [low.bit_length() - 1 for low in bits_of(mask)]


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
                break  # pragma: no mutate
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


MATTA = 16
"""Cirulla's matta, the 7 of cups (card index 16)."""

SWEEP, ACE_SWEEP, LAST_CLEAR = 1, 2, 3
"""What a capture that empties the table counts as (:meth:`Rules.clear_kind`): a sweep, an
ace's take-all recorded apart (Scopa d'Assi), a clear with the deal's last card."""


class Rules:
    """The capture rules of one variant on int masks: captures, legal plays and sweeps."""

    __slots__ = (
        "_ace_sweep",
        "_fifteens",
        "_forced",
        "_last_apart",
        "_last_play_sweep",
        "_optional",
        "_sums",
        "ace_apart",
        "plays",
    )

    def __init__(self, variant: Variant) -> None:
        capture = variant.capture
        fifteen = capture == "fifteen"
        fewest = variant.sum_choice == "fewest" and not fifteen
        self._optional = variant.capture_optional
        self._last_play_sweep = variant.last_play_sweep
        self._ace_sweep = variant.ace_sweep
        self._last_apart = variant.sheet == "scopone"
        self.ace_apart = variant.ace_takes_all
        """Whether an ace's take-all is recorded apart from the sweeps (Scopa d'Assi)."""
        self._sums = _cached(2, fewest, 0) if not fifteen else _cached(1, False, 15)
        self._fifteens = _cached(1, False, 15)
        if fifteen:
            self._forced = self.plays = self._fifteen_plays
        elif capture == "cirulla":
            self._forced = self.plays = self._cirulla_plays
        elif variant.ace_takes_all:
            self._forced = self.plays = self._assi_plays
        else:
            self._forced = self.plays = self._scopa_plays
        if self._optional and not fifteen:
            self.plays = self._with_trails

    _forced: Callable[[int, int], list[tuple[int, int]]]
    plays: Callable[[int, int], list[tuple[int, int]]]
    """``plays(hand, table)``: every legal (card index, capture) of the hand, in a fixed order;
    a capture of 0 is a trail."""

    def _scopa_plays(self, hand: int, table: int) -> list[tuple[int, int]]:
        out: list[tuple[int, int]] = []
        sums = None
        for i in indices_of(hand):
            r = RANK_OF[i]
            match = table & RANK_MASKS[r]
            if match:
                if match & (match - 1):  # pragma: no mutate
                    out.extend([(i, b) for b in bits_of(match)])
                else:
                    out.append((i, match))
                continue
            if sums is None:
                sums = self._sums(rank_key(table))
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
        for i in indices_of(aces):
            if on_table:
                out.extend([(i, b) for b in bits_of(on_table)])
            else:
                out.append((i, table))
        out.sort(key=lambda p: p[0])
        return out

    def _fifteen_plays(self, hand: int, table: int) -> list[tuple[int, int]]:
        out: list[tuple[int, int]] = []
        sums = self._sums(rank_key(table))
        optional = self._optional
        for i in indices_of(hand):
            patterns = sums[RANK_OF[i]]
            if patterns:
                out.extend([(i, c) for c in expand(table, patterns)])
                if not optional:
                    continue
            out.append((i, 0))
        return out

    def _cirulla_plays(self, hand: int, table: int) -> list[tuple[int, int]]:
        out: list[tuple[int, int]] = []
        key = rank_key(table)
        sums, fifteens = self._sums(key), self._fifteens(key)
        for i in indices_of(hand):
            self._cirulla_card(i, RANK_OF[i], table, sums, fifteens, out)
        return out

    @staticmethod
    def _cirulla_card(
        i: int,
        r: int,
        table: int,
        sums: tuple[tuple[Pattern, ...], ...],
        fifteens: tuple[tuple[Pattern, ...], ...],
        out: list[tuple[int, int]],
    ) -> None:
        """The plays of card ``i`` played as rank ``r`` (docs/rules.md 9.5): the ace's take-all,
        or its simple captures (a rank match, else sums) and then its fifteens."""
        if r == 0 and not table & ACE_MASK:
            out.append((i, table))  # takes all; to an empty table it stays
            return
        before = len(out)
        match = table & RANK_MASKS[r]
        if match:
            out.extend([(i, b) for b in bits_of(match)])
        elif sums[r]:
            out.extend([(i, c) for c in expand(table, sums[r])])
        if fifteens[r]:
            out.extend([(i, c) for c in expand(table, fifteens[r])])
        if len(out) == before:
            out.append((i, 0))

    def plays_as(self, card: int, rank: int, table: int) -> list[tuple[int, int]]:
        """The plays of one card played as another rank (Cirulla's declared matta)."""
        out: list[tuple[int, int]] = []
        key = rank_key(table)
        self._cirulla_card(card, rank, table, self._sums(key), self._fifteens(key), out)
        if self._optional and out[-1][1]:
            out.append((card, 0))
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

    def clear_kind(self, card: int, capture: int, last_play: bool) -> int:
        """What a capture that leaves the table empty counts as: :data:`SWEEP`,
        :data:`ACE_SWEEP` (Scopa d'Assi's take-all, recorded apart), :data:`LAST_CLEAR` (the
        deal's very last card, recorded apart in Scopone) or 0 (nothing)."""
        if last_play:
            if self._last_apart:
                return LAST_CLEAR
            return SWEEP if self._last_play_sweep else 0
        if self.ace_apart and RANK_OF[card] == 0 and not capture & ACE_MASK:
            return ACE_SWEEP
        return SWEEP

    def is_sweep(self, card: int, capture: int, table_after: int, last_play: bool) -> bool:
        """Whether a play scores a sweep under the variant's own options: it captured,
        cleared the table, and is not excluded (the deal's very last play unless
        ``last_play_sweep``; the ace's take-all in Scopa d'Assi unless ``ace_sweep``)."""
        if not capture or table_after:
            return False
        kind = self.clear_kind(card, capture, last_play)
        if kind == LAST_CLEAR:
            return self._last_play_sweep
        if kind == ACE_SWEEP:
            return self._ace_sweep
        return kind == SWEEP


def _cached(
    min_cards: int, fewest: bool, offset: int
) -> Callable[[int], tuple[tuple[Pattern, ...], ...]]:
    """The sum patterns by played rank, looked up by a table's rank count (:func:`rank_key`)."""
    known: dict[int, tuple[tuple[Pattern, ...], ...]] = {}

    def sums(key: int) -> tuple[tuple[Pattern, ...], ...]:
        found = known.get(key)  # pragma: no mutate
        if found is None:
            found = known[key] = sum_patterns(key, min_cards, fewest, offset)
        return found

    return sums


_RECENT: dict[int, tuple[Variant, Rules]] = {}


def rules_for(variant: Variant) -> Rules:
    """The (cached) capture rules of a variant: by identity first (a frozen variant hashes
    all its fields), then by value."""
    recent = _RECENT.get(id(variant))  # pragma: no mutate
    if recent is not None and recent[0] is variant:
        return recent[1]
    rules = _rules_for(variant)
    if len(_RECENT) > 64:  # pragma: no mutate
        _RECENT.clear()
    _RECENT[id(variant)] = (variant, rules)  # pragma: no mutate
    return rules


@cache
def _rules_for(variant: Variant) -> Rules:
    return Rules(variant)
