"""A match's packed facts as one column, and a table's totals for all of them in a few C loops.

Every category of points reads one slice of a packed key (:data:`KEY_SLICES`): the majorities
and the settebello; the run of coins, grande and the deal's end; the declarations, the ace's
take-alls and the sweeps. So a key's total is the sum of its three slices' totals, and a
re-score under new rules works out the totals of a match's few distinct slices, then adds them
up per key by index: no per-deal Python code runs (docs/rules.md section 7).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import repeat
from operator import add, and_, itemgetter
from typing import Any, NamedTuple

from scopa.scoring import KEY_CIRULLA_SHIFT, KEY_RUN_SHIFT, PointsTable

KEY_SLICES = (
    (1 << KEY_RUN_SHIFT) - 1,
    (1 << KEY_CIRULLA_SHIFT) - (1 << KEY_RUN_SHIFT),
    -1 << KEY_CIRULLA_SHIFT,
)
"""A key's three slices (the majorities and settebello; the run of coins, grande and the
deal's end; the declarations, ace take-alls and sweeps): each category reads one of them."""


def key_slices(keys: Iterable[int]) -> tuple[tuple[int, ...], ...]:
    """The low, middle and high slices (:data:`KEY_SLICES`) of these packed keys, each
    once."""
    keys = list(keys)
    return tuple(tuple(set(map(and_, keys, repeat(mask)))) for mask in KEY_SLICES)


Picker = Callable[[Sequence[Any]], tuple[Any, ...]]


def picker(indices: Sequence[int]) -> Picker:
    """A function giving the items at ``indices`` of what it is given, as a tuple (a C loop).

    >>> picker([2, 0])("abc"), picker([1])("abc"), picker([])("abc")
    (('c', 'a'), ('b',), ())
    """
    if len(indices) == 1:
        index = indices[0]
        return lambda items: (items[index],)
    if not indices:
        return lambda items: ()
    return itemgetter(*indices)


class KeyColumn(NamedTuple):
    """Packed keys in a column (a match's: deal by deal, side by side), with what turns a
    table's totals into each key's total in a few C loops: every category reads one slice of
    a key (:data:`KEY_SLICES`), so a key's total is the sum of its three slices' totals. The
    keys' distinct slices are few; their totals come from the table, then pickers give each
    distinct key its slices' totals and each key its distinct key's total. No setting changes
    any of it, so a match keeps its column whatever its rules.
    """

    keys: tuple[int, ...]
    distinct: tuple[int, ...]
    """Each key once."""
    slices: tuple[tuple[int, ...], ...]
    """Each low, middle and high slice of the keys once."""
    slice_picks: tuple[Picker, ...]
    """From the slices' totals: each distinct key's low, middle and high slice's total."""
    key_pick: Picker
    """From the distinct keys' totals: each key's total, in the column's order."""

    @classmethod
    def of(cls, keys: tuple[int, ...]) -> KeyColumn:
        distinct = tuple(set(keys))
        slices = key_slices(distinct)
        picks = []
        for mask, group in zip(KEY_SLICES, slices, strict=True):
            slot = {key: i for i, key in enumerate(group)}
            picks.append(picker([slot[k & mask] for k in distinct]))
        position = {key: i for i, key in enumerate(distinct)}
        key_pick = picker(list(map(position.__getitem__, keys)))
        return cls(keys, distinct, slices, tuple(picks), key_pick)

    def totals(self, table: PointsTable) -> tuple[int, ...]:
        """Each key's total under the table's rules (its points, all categories added)."""
        groups = table.slice_totals(self.slices)
        low, middle, high = (pick(t) for pick, t in zip(self.slice_picks, groups, strict=True))
        return self.key_pick(list(map(add, map(add, low, middle), high)))
