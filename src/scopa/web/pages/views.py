"""What the pages show, worked out from stored records: the sheet's rows, a deal's breakdown,
the chart of running totals (an SVG drawn on the server). Nothing here scores: the points come
from the sheet the core computed, the facts from :meth:`Match.side_deal`."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, TypeVar

from jinja2 import Environment

from scopa import variants
from scopa.cards import RANK_SYMBOLS
from scopa.i18n import N_
from scopa.match import Match
from scopa.rules import SettingKind, Settings, setting_kind
from scopa.scoring import Points
from scopa.sheet import Sheet

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


def breakdown(match: Match, sheet: Sheet, number: int) -> list[SideFacts]:
    """Each side's facts and points in deal ``number`` (1-based)."""
    deal = match.deals[number - 1]
    row = sheet.deals[number - 1]
    side_deal = match.side_deal(deal)
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


@dataclass(frozen=True, slots=True)
class ChartLine:
    side: str
    index: int
    points: str
    end_x: float
    end_y: float
    total: int


@dataclass(frozen=True, slots=True)
class Chart:
    """A chart of the running totals, in SVG user units."""

    width: int
    height: int
    left: int
    top: int
    right: int
    bottom: int
    lines: tuple[ChartLine, ...]
    target_y: float
    target: int
    y_ticks: tuple[tuple[float, int], ...]
    x_ticks: tuple[tuple[float, int], ...]
    decided_x: float | None

    @property
    def target_label_y(self) -> float:
        """The baseline of the target's label: just above its line, or just below it when
        the line is at the top of the chart (on the top grid line the label above was
        clipped; the phone's labels are 24 units tall)."""
        return self.target_y - 5 if self.target_y >= 30 else self.target_y + 24


def chart(sheet: Sheet, target: int, width: int = 640, height: int = 260) -> Chart:
    """Lay out the running totals: deal 0 (all at 0) to the last scored deal."""
    left, top, right, bottom = 40, 14, width - 14, height - 30
    scored = [row for row in sheet.deals if not row.after_end]
    deals = max(len(scored), 1)
    high = max([target, *sheet.totals, 1])
    high = ((high + 4) // 5) * 5

    def x(n: int) -> float:
        return round(left + (right - left) * n / deals, 1)

    def y(v: int) -> float:
        return round(bottom - (bottom - top) * v / high, 1)

    lines = []
    for i, side in enumerate(sheet.sides):
        coords = [(x(0), y(0))] + [(x(n), y(row.totals[i])) for n, row in enumerate(scored, 1)]
        lines.append(
            ChartLine(
                side=side,
                index=i,
                points=" ".join(f"{a},{b}" for a, b in coords),
                end_x=coords[-1][0],
                end_y=coords[-1][1],
                total=sheet.totals[i],
            )
        )
    step = 5 if high <= 30 else 10
    y_ticks = tuple((y(v), v) for v in range(0, high + 1, step))
    every = 1 if deals <= 12 else (5 if deals <= 60 else 10)
    x_ticks = tuple((x(n), n) for n in range(0, deals + 1) if n % every == 0)
    decided = x(sheet.decided_at) if sheet.decided_at is not None else None
    return Chart(
        width,
        height,
        left,
        top,
        right,
        bottom,
        tuple(lines),
        y(target),
        target,
        y_ticks,
        x_ticks,
        decided,
    )


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


def when(moment: datetime) -> str:
    """A stored time as people read it: ``2024-05-12 18:04``."""
    return moment.astimezone().strftime("%Y-%m-%d %H:%M")


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def setting_kinds(settings: Settings) -> dict[str, SettingKind]:
    """Each of the match's variant's settings and how a form writes it (its kind)."""
    return {name: setting_kind(name) for name in settings.names}


def register_filters(env: Environment) -> None:
    env.filters["when"] = when
    env.filters["signed"] = signed
    env.globals["SUIT_NAMES"] = SUIT_NAMES
    env.globals["RANKS"] = RANK_SYMBOLS
    env.globals["settings_label"] = settings_label
    env.globals["variant_of"] = variant_of
    env.globals["SETTING_LABELS"] = SETTING_LABELS
    env.globals["setting_kinds"] = setting_kinds
    env.globals["VARIANTS"] = variants.VARIANTS
