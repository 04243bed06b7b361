"""The chart of a match's running totals, laid out and drawn as SVG once: the server draws it
in the sheet (``_sheet.html`` calls :func:`figure`), and the phone's worker draws the same one
for a sheet scored on the device (:mod:`scopa.web.phone.device`, ``apply``'s ``chart``).

Pure Python with no web framework: it ships in the phone's package.

>>> from scopa.formats import parse_match
>>> from scopa.match import score_match
>>> sheet = score_match(parse_match({"players": ["Anna", "Bruno"]}))
>>> laid = chart(sheet, 11)
>>> laid.target_y, [line.points for line in laid.lines]
(71.6, ['40.0,230.0', '40.0,230.0'])
>>> figure(laid).startswith('<figure class="chart">')
True
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from scopa.i18n import _
from scopa.sheet import Sheet
from scopa.words import Seated, side_name


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


def figure(c: Chart, seated: Seated | None = None) -> str:
    """The chart as the sheet shows it: ``<figure class="chart">`` with its SVG and its
    legend (each side's colour and total), the words in the language in force."""
    label = _("Running totals by deal")  # outside the f-string, where the extractor sees it
    out = [
        '<figure class="chart">',
        f'<svg viewBox="0 0 {c.width} {c.height}" role="img" '
        f'aria-label="{escape(label)}" xmlns="http://www.w3.org/2000/svg">',
    ]
    for y, v in c.y_ticks:
        out.append(f'<line class="grid" x1="{c.left}" x2="{c.right}" y1="{y}" y2="{y}"/>')
        out.append(f'<text class="tick" x="{c.left - 6}" y="{y + 5}" text-anchor="end">{v}</text>')
    for x, n in c.x_ticks:
        out.append(
            f'<text class="tick" x="{x}" y="{c.bottom + 20}" text-anchor="middle">{n}</text>'
        )
    target = _("target %(points)s") % {"points": c.target}
    out.append(
        f'<line class="target" x1="{c.left}" x2="{c.right}" y1="{c.target_y}" y2="{c.target_y}"/>'
    )
    out.append(
        f'<text class="target-label" x="{c.right}" y="{c.target_label_y}" '
        f'text-anchor="end">{escape(target)}</text>'
    )
    if c.decided_x is not None:
        out.append(
            f'<line class="decided" x1="{c.decided_x}" x2="{c.decided_x}" '
            f'y1="{c.top}" y2="{c.bottom}"/>'
        )
    for line in c.lines:
        out.append(f'<polyline class="series side-{line.index}" points="{line.points}"/>')
        out.append(
            f'<circle class="dot side-{line.index}" cx="{line.end_x}" cy="{line.end_y}" r="4"/>'
        )
    out.append("</svg>")
    legend = "".join(
        f'<span><span class="sw side-{line.index}"></span>'
        f"{escape(side_name(line.side, seated))} {line.total}</span>"
        for line in c.lines
    )
    out.append(f'<figcaption class="legend">{legend}</figcaption>')
    out.append("</figure>")
    return "\n".join(out)
