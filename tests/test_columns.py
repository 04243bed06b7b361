"""A match's packed facts as a column (:mod:`scopa.columns`): totals by slices, against the
itemised points of the one scorer."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from scopa.columns import KEY_SLICES, KeyColumn, key_slices, picker
from scopa.rules import Settings
from scopa.scoring import KEY_SWEEPS_SHIFT, clear_points_tables, points_table
from scopa.variants import VARIANT_NAMES
from tests.strategies import variant_settings

any_settings = st.sampled_from(sorted(VARIANT_NAMES)).flatmap(variant_settings)
keys = st.integers(0, (1 << (KEY_SWEEPS_SHIFT + 4)) - 1)
"""Any packed key: every fact's bits, up to 15 sweeps."""


@given(st.lists(keys, max_size=40), any_settings)
def test_a_columns_totals_are_its_keys_itemised_totals(found: list[int], rules: Settings) -> None:
    """Each category reads one slice of a key, so adding up the slices' totals gives what the
    scorer's itemised points add up to, cold or warm."""
    column = KeyColumn.of(tuple(found))
    clear_points_tables()
    cold = column.totals(points_table(rules))
    warm = column.totals(points_table(rules))
    clear_points_tables()
    table = points_table(rules)
    assert cold == warm == tuple(table[key].total for key in found)


@given(st.lists(keys, max_size=40))
def test_the_slices_cover_each_key_once(found: list[int]) -> None:
    low, middle, high = KEY_SLICES
    assert low & middle == low & high == middle & high == 0
    assert low | middle | high == -1
    groups = key_slices(found)
    for key in found:
        parts = [key & mask for mask in KEY_SLICES]
        assert sum(parts) == key
        assert all(part in group for part, group in zip(parts, groups, strict=True))


def test_the_totals_of_a_small_column() -> None:
    """Two sides with a sweep each, one with the settebello and two sweeps: 1, 1 and 3
    points; the settebello's key met twice is worked out once."""
    column = KeyColumn.of((1 << KEY_SWEEPS_SHIFT, 1 | 2 << KEY_SWEEPS_SHIFT, 1 << KEY_SWEEPS_SHIFT))
    assert column.distinct == tuple(set(column.keys))
    assert column.totals(points_table(Settings())) == (1, 3, 1)
    assert KeyColumn.of(()).totals(points_table(Settings())) == ()


def test_picker_gives_tuples_for_any_count() -> None:
    assert picker([2, 0])("abc") == ("c", "a")
    assert picker([1])("abc") == ("b",)
    assert picker([])("abc") == ()
