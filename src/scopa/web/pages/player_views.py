"""What a player's page draws, laid out on the server as SVG (like the sheet's chart): their
latest matches' results, and their categories against the table's average."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scopa.i18n import _, pgettext
from scopa.store.records import Played
from scopa.web.language import fixed


@dataclass(frozen=True, slots=True)
class Bar:
    """One bar: where it stands, how tall, its class and what it says."""

    x: float
    y: float
    width: float
    height: float
    kind: str
    label: str
    href: str = ""


@dataclass(frozen=True, slots=True)
class ResultsChart:
    """A bar per match, oldest on the left: the points per deal, coloured by the outcome."""

    width: int
    height: int
    left: int
    bottom: int
    right: int
    bars: tuple[Bar, ...]
    y_ticks: tuple[tuple[float, float], ...]
    """Each grid line's height and value (the page writes it the language's way: 0,8)."""


def player_chart(played: Sequence[Played], width: int = 640, height: int = 220) -> ResultsChart:
    """Lay out the results of the latest matches (newest first in ``played``).

    >>> player_chart([]).bars
    ()
    """
    left, top, right, bottom = 52, 12, width - 10, height - 24
    shown = list(reversed(played))
    rates = [p.points / p.deals if p.deals else 0.0 for p in shown]
    high = max([1.0, *rates])
    high = float(int(high) + 1) if high > int(high) else high
    slot = (right - left) / max(len(shown), 1)
    bars = []
    for i, (one, rate) in enumerate(zip(shown, rates, strict=True)):
        tall = (bottom - top) * rate / high
        kind = "won" if one.won else ("lost" if one.finished else "playing")
        outcome = {"won": _("won"), "lost": _("lost"), "playing": _("in progress")}[kind]
        bars.append(
            Bar(
                x=round(left + i * slot + slot * 0.15, 1),
                y=round(bottom - tall, 1),
                width=round(slot * 0.7, 1),
                height=round(tall, 1),
                kind=kind,
                label=_("{title}: {rate} points per deal, {outcome}").format(
                    title=one.shown, rate=fixed(rate), outcome=outcome
                ),
                href=f"/matches/{one.match_id}",
            )
        )
    steps = 4
    ticks = tuple(
        (round(bottom - (bottom - top) * n / steps, 1), high * n / steps) for n in range(steps + 1)
    )
    return ResultsChart(width, height, left, bottom, right, tuple(bars), ticks)


@dataclass(frozen=True, slots=True)
class ShareRow:
    label: str
    mine: float
    average: float
    mine_width: float
    average_width: float
    y: float


@dataclass(frozen=True, slots=True)
class SharesChart:
    """Each category: the player's share of deals, and the table's under it."""

    width: int
    height: int
    left: int
    rows: tuple[ShareRow, ...]


def share_chart(
    mine: Mapping[str, float],
    average: Mapping[str, float],
    labels: Mapping[str, str],
    width: int = 640,
) -> SharesChart:
    """Lay out the categories as pairs of bars (the player's, then the table's average)."""
    left, row = 170, 50
    span = width - left - 70
    rows = tuple(
        ShareRow(
            label=pgettext("category", labels.get(key, key)),
            mine=share,
            average=average.get(key, 0.0),
            mine_width=round(span * share, 1),
            average_width=round(span * average.get(key, 0.0), 1),
            y=8 + i * row,
        )
        for i, (key, share) in enumerate(mine.items())
    )
    return SharesChart(width, 16 + row * len(rows), left, rows)
