"""What the pages show, worked out from stored records: the sheet's rows, a deal's breakdown,
the chart of running totals (an SVG drawn on the server). Nothing here scores: the points come
from the sheet the core computed, the facts from :meth:`Match.side_deal`."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from jinja2 import Environment
from markupsafe import Markup

from scopa import variants
from scopa.cards import RANK_SYMBOLS
from scopa.deal import CATEGORY_KEYS, Deal
from scopa.i18n import N_
from scopa.match import Match
from scopa.rules import WHOLE_RANGES, SettingKind, Settings, setting_kind
from scopa.scoring import Points
from scopa.sheet import Sheet, setting_label
from scopa.web.phone.chart import figure

SUIT_NAMES = ("coins", "cups", "swords", "clubs")
T = TypeVar("T")

EXTRA_PRESETS: dict[str, tuple[str, dict[str, Any]]] = {
    "scopa21": (N_("Scopa to 21"), {"target": 21}),
}
"""Presets beyond one per variant: a variant with a setting changed."""


def presets() -> dict[str, tuple[str, dict[str, Any]]]:
    """The new-match page's presets: each variant with its defaults (its label from its one
    definition in :mod:`scopa.variants`), and Scopa to 21 after Scopa."""
    found: dict[str, tuple[str, dict[str, Any]]] = {}
    for variant in variants.all_variants():
        rules = {} if variant.name == variants.DEFAULT else {"variant": variant.name}
        found[variant.name] = (variant.preset_label, rules)
        if variant.name == variants.DEFAULT:
            found.update(EXTRA_PRESETS)
    return found


def preset_settings(name: str) -> Settings:
    """The settings of a named preset (unknown names give the defaults)."""
    changes = dict(presets().get(name, ("", {}))[1])
    return Settings.of(changes.pop("variant", variants.DEFAULT), **changes)


SETTING_LABELS = {
    "primiera_mode": N_("Primiera by"),
    "last_play_sweep": N_("A sweep with the very last card counts"),
    "ace_sweep": N_("An ace taking the whole table counts as a sweep"),
    "cirulla_points": N_("Points for a cirulla"),
    "decino_points": N_("Points for a decino"),
    "piccola_cap": N_("Piccola at most"),
    "cappotto": N_("All ten coins (cappotto)"),
}


def variant_of(settings: Settings) -> variants.VariantDef:
    """The definition of the match's variant (labels, settings, facts)."""
    return variants.get(settings.variant)


@dataclass(frozen=True, slots=True)
class SideFacts:
    """One side's pile in one deal, as the breakdown shows it."""

    side: str
    points: Points
    count: int
    coin_count: int
    coins: str
    settebello: bool
    primiera: int
    primiera_values: tuple[int, int, int, int]
    napola_run: int
    sweeps: int
    took_last: bool
    full: bool
    declarations: tuple[str, ...] = ()
    ace_sweeps: int = 0
    cleared: bool = False
    sevens: int = 0
    grande: bool = False
    took: dict[str, str] | None = None
    """A deal of the category form: per category, ``alone`` or ``tied`` for this side (its
    piles' counts are not known)."""


def _category_breakdown(
    deal: Deal, points: Sequence[Points], sides: Sequence[str]
) -> list[SideFacts]:
    """Each side's part in a deal recorded as who took each point."""
    won = deal.categories
    assert won is not None
    result = []
    for i, side in enumerate(sides):
        took = {
            key: ("alone" if len(won.took(key)) == 1 else "tied")
            for key in CATEGORY_KEYS
            if i in won.took(key)
        }
        run = won.run[1] if won.run is not None and won.run[0] == i else 0
        result.append(
            SideFacts(
                side=side,
                points=points[i],
                count=0,
                coin_count=0,
                coins="",
                settebello=i in won.settebello,
                primiera=0,
                primiera_values=(0, 0, 0, 0),
                napola_run=run,
                sweeps=deal.sweeps[i],
                took_last=deal.last_index == i,
                full=False,
                declarations=deal.declared(i),
                ace_sweeps=deal.ace_sweeps_of(i),
                cleared=deal.cleared_index == i,
                grande=won.grande == i,
                took=took,
            )
        )
    return result


def breakdown(match: Match, sheet: Sheet, number: int) -> list[SideFacts]:
    """Each side's facts and points in deal ``number`` (1-based)."""
    deal = match.deals[number - 1]
    row = sheet.deals[number - 1]
    side_deal = match.side_deal(deal)
    if side_deal.categories is not None:
        return _category_breakdown(side_deal, row.points, sheet.sides)
    piles, sweeps, last = side_deal.piles, side_deal.sweeps, side_deal.last_index
    result = []
    for i, side in enumerate(sheet.sides):
        pile = piles[i]
        result.append(
            SideFacts(
                side=side,
                points=row.points[i],
                count=pile.count,
                coin_count=pile.coin_count,
                coins=" ".join(RANK_SYMBOLS[r] for r in range(10) if pile.coins >> r & 1),
                settebello=pile.settebello,
                primiera=pile.primiera,
                primiera_values=pile.primiera_values,
                napola_run=pile.napola,
                sweeps=sweeps[i],
                took_last=last == i,
                full=pile.is_full,
                declarations=side_deal.declared(i),
                ace_sweeps=side_deal.ace_sweeps_of(i),
                cleared=side_deal.cleared_index == i,
                sevens=pile.sevens,
                grande=pile.grande,
            )
        )
    return result


class Recent(Generic[T]):
    """A small thread-safe map that forgets its least recently used entries."""

    def __init__(self, size: int = 1024) -> None:
        self._size = size
        self._entries: OrderedDict[Hashable, T] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> T | None:
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
            return found

    def put(self, key: Hashable, value: T) -> None:
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self._size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


def settings_label(settings: Settings) -> str:
    """``to 11 · primiera on · napola off · ties withhold``."""
    return settings.describe()


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def setting_kinds(settings: Settings) -> dict[str, SettingKind]:
    """Each of the match's variant's settings and how a form writes it (its kind)."""
    return {name: setting_kind(name) for name in settings.names}


def category_labels(settings: Settings) -> dict[str, str]:
    """The words for each key a deal of the match's variant may name, in the language in
    force: its categories (``cards`` ... ``total``), the run of coins (``napola``, Cirulla's
    ``piccola``) and ``grande`` (the page scripts write a deal with them: offline.js)."""
    variant = variant_of(settings)
    keys = (*variant.points_keys, *variant.category_facts)
    return {key: variant.label(key) for key in keys}


def register_filters(env: Environment) -> None:
    """The sheet's words and tables for the templates (dates: :mod:`scopa.web.language`)."""
    env.filters["signed"] = signed
    env.globals["SUIT_NAMES"] = SUIT_NAMES
    env.globals["RANKS"] = RANK_SYMBOLS
    env.globals["settings_label"] = settings_label
    env.globals["variant_of"] = variant_of
    env.globals["category_labels"] = category_labels
    env.globals["SETTING_LABELS"] = SETTING_LABELS
    env.globals["setting_label"] = setting_label
    env.globals["WHOLE_RANGES"] = WHOLE_RANGES
    env.globals["setting_kinds"] = setting_kinds
    env.globals["VARIANTS"] = variants.VARIANTS
    env.globals["chart_figure"] = lambda laid, seated=None: Markup(figure(laid, seated))
