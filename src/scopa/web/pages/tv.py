"""A match shown to the room, and a finished match shared as a picture.

``/matches/{id}/tv``: a read-only board for a television or a tablet at the end of the table:
the big totals, what each side still needs, who is ahead, the last deal's points. No button
and no form. With JavaScript it follows the match through the sheet's event stream
(``static/tv.js``; ``?piece=1`` is the board alone, 204 while ``since`` is still current);
without it the page reloads itself every few seconds.

``/matches/{id}/share.svg``: the match as an image made here (SVG, no dependency): the sides
and their totals, the winner, the variant, the target and the date, in the reader's language.
The names are escaped like every text of a page (the template is autoescaped XML).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from babel.dates import format_date
from fastapi import APIRouter, Request
from fastapi.responses import Response
from fastapi.templating import Jinja2Templates

from scopa import i18n
from scopa.application import ScoredMatch
from scopa.i18n import _, ngettext
from scopa.web.deps import MatchId, Service
from scopa.web.pages.render import View, render
from scopa.words import side_name

router = APIRouter(include_in_schema=False)

REFRESH_SECONDS = 5
"""Without JavaScript the board reloads itself this often."""


@dataclass(frozen=True, slots=True)
class SideLine:
    """One side on the board: its total, what it still needs, its points in the last deal."""

    index: int
    name: str
    total: int
    to_go: int
    won: bool
    last_points: int | None
    last_detail: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class Board:
    """What the board shows, worked out once from the sheet."""

    sides: tuple[SideLine, ...]
    status: str
    last_number: int | None
    last_after_end: bool
    target: int
    variant: str

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "target": self.target,
            "variant": self.variant,
            "last_deal": self.last_number,
            "sides": [
                {
                    "name": s.name,
                    "total": s.total,
                    "to_go": s.to_go,
                    "won": s.won,
                    "last_deal": s.last_points,
                    "last_detail": dict(s.last_detail),
                }
                for s in self.sides
            ],
        }


def status_line(scored: ScoredMatch) -> str:
    """Who is ahead, in a sentence: ``Anna wins``, ``Anna leads by 3 points``, ``All level``."""
    sheet = scored.sheet
    target = scored.match.settings.target
    if sheet.winner:
        return _("%(name)s wins") % {"name": side_name(sheet.winner, scored.match)}
    if not sheet.deal_count:
        return _("No deals yet")
    ranked = sorted(zip(sheet.totals, sheet.sides, strict=True), reverse=True)
    (top, leader), (second, _other) = ranked[0], ranked[1]
    if top == second:
        if top >= target:
            return _("Level at the top past the target: one more deal")
        return _("All level")
    lead = top - second
    return ngettext("%(name)s leads by %(num)d point", "%(name)s leads by %(num)d points", lead) % {
        "name": side_name(leader, scored.match),
        "num": lead,
    }


def board_of(scored: ScoredMatch) -> Board:
    sheet = scored.sheet
    settings = scored.match.settings
    definition = settings.definition
    rows = sheet.deals
    last = rows[-1] if rows else None
    sides = []
    for i, name in enumerate(sheet.sides):
        points = last.points[i] if last is not None else None
        detail: tuple[tuple[str, int], ...] = ()
        if points is not None:
            detail = tuple(
                (definition.label(key), getattr(points, key))
                for key in definition.categories
                if getattr(points, key)
            )
        sides.append(
            SideLine(
                index=i,
                name=name,
                total=sheet.totals[i],
                to_go=max(settings.target - sheet.totals[i], 0),
                won=sheet.winner == name,
                last_points=None if points is None else points.total,
                last_detail=detail,
            )
        )
    return Board(
        sides=tuple(sides),
        status=status_line(scored),
        last_number=None if last is None else last.number,
        last_after_end=bool(last and last.after_end),
        target=settings.target,
        variant=definition.title,
    )


@router.get("/matches/{match_id}/tv")
def tv_page(request: Request, service: Service, match_id: MatchId) -> Response:
    """The board; ``?piece=1`` the board alone (the script's refresh), 204 while ``since``
    names the version it shows."""
    scored = service.get(match_id=match_id)
    piece = request.query_params.get("piece") == "1"
    if piece and request.query_params.get("since") == str(scored.version):
        return Response(status_code=204)
    board = board_of(scored)
    context = {
        "stored": scored,
        "title": scored.title,
        "board": board,
        "refresh": REFRESH_SECONDS,
    }
    data = {"id": scored.id, "version": scored.version, "title": scored.title, **board.to_json()}
    return render(request, View("_tv.html" if piece else "tv.html", data, context))


# --- the shared picture -----------------------------------------------------------------------

WIDTH, HEIGHT = 1200, 630
NAME_WIDTH = 760
"""The room a name has on its line, in SVG units."""


def fitted(text: str, size: int, room: int = NAME_WIDTH) -> int:
    """A font size at which ``text`` fits ``room`` (a character is about 0.58 em wide)."""
    wide = max(len(text), 1) * 0.58
    return max(18, min(size, int(room / wide)))


def share_context(scored: ScoredMatch) -> dict[str, Any]:
    sheet = scored.sheet
    settings = scored.match.settings
    ranked = sorted(
        zip(sheet.sides, sheet.totals, range(len(sheet.sides)), strict=True),
        key=lambda s: -s[1],
    )
    count = len(ranked)
    row = min(96, 330 // count)
    top = 250
    lines = []
    for n, (name, total, index) in enumerate(ranked):
        shown = side_name(name, scored.match)
        size = fitted(shown, int(row * 0.62))
        lines.append(
            {
                "name": shown,
                "total": total,
                "index": index,
                "won": sheet.winner == name,
                "y": top + n * row + row * 0.7,
                "size": size,
                "total_size": int(row * 0.7),
            }
        )
    winner = sheet.winner
    said = side_name(winner, scored.match) if winner else ""
    headline = _("%(name)s wins") % {"name": said} if winner else _("In progress")
    deals = ngettext("%(num)d deal", "%(num)d deals", sheet.deal_count) % {"num": sheet.deal_count}
    day = format_date(scored.updated_at.astimezone(), "long", locale=i18n.language())
    footer = " · ".join(
        [settings.definition.title, _("to {points}").format(points=settings.target), deals, day]
    )
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "title": scored.title,
        "title_size": fitted(scored.title, 30, 900),
        "headline": headline,
        "headline_size": fitted(headline, 64, 1040),
        "won": bool(sheet.winner),
        "lines": lines,
        "footer": footer,
        "language": i18n.language(),
        "label": _("%(title)s: %(result)s") % {"title": scored.title, "result": headline},
    }


@router.get("/matches/{match_id}/share.svg")
def share_image(request: Request, service: Service, match_id: MatchId) -> Response:
    """The match as a picture to send: ``?download=1`` as a file to keep."""
    scored = service.get(match_id=match_id)
    templates: Jinja2Templates = request.app.state.templates
    body = templates.get_template("share_image.xml").render(share_context(scored))
    disposition = "attachment" if request.query_params.get("download") == "1" else "inline"
    return Response(
        body,
        media_type="image/svg+xml; charset=utf-8",
        headers={
            "Content-Disposition": f'{disposition}; filename="scopa-{scored.id}.svg"',
            "Cache-Control": "no-cache",
        },
    )
