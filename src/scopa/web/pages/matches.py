"""The pages of the matches: the list, a new match, the sheet, house rules, import.

Server-rendered, with ``_partial.html`` pieces that htmx swaps in place; every form works
without JavaScript (post, then a redirect to the sheet). Views load through the application
layer, compute what they show once (:class:`~scopa.web.pages.render.View`) and render it as HTML or
as its JSON twin; they never score. Each form carries the match's version, so a change made
on a stale page is refused with a message and the fresh sheet.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from scopa.errors import InputError, SettingsChangeRefused, VersionConflictError
from scopa.formats import MAX_MATCH_NAME
from scopa.i18n import _
from scopa.match import MAX_PLAYERS, seat_teams, team_name
from scopa.reading import ascii_digits
from scopa.rules import NAPOLA_VALUES, TIES_VALUES, Settings
from scopa.web.api.schemas import summary_to_json
from scopa.web.deps import Listing, MatchId, Service
from scopa.web.pages.render import (
    MAX_UPLOAD_BYTES,
    UPDATED_ELSEWHERE,
    WHOLE_PIECE,
    Form,
    View,
    after_change,
    conflict_page,
    render,
    sheet_change,
    sheet_view,
)
from scopa.web.pages.stale import json_field
from scopa.web.pages.views import preset_settings, presets
from scopa.web.phone.forms import settings_from_form
from scopa.web.phone.starting import dealer_seat, read_import, read_new_match, seat_names

matches = APIRouter(include_in_schema=False)
transfer = APIRouter(include_in_schema=False)


@matches.get("/")
def home(request: Request, service: Service, query: Listing) -> Response:
    """The list of matches, newest first, a page at a time; filtered by player and status."""
    found, older = query.page(service, "/")
    data = {"matches": [summary_to_json(s) for s in found], "next": older}
    context = {
        "matches": found,
        "player": query.player,
        "status": query.status,
        "older": older,
        "filtered": bool(query.player or query.status or query.before),
    }
    return render(request, View("home.html", data, context))


def new_match_view(
    service: Service,
    names: list[str],
    name: str,
    settings: Settings,
    errors: dict[str, str],
    preset: str = "",
    status: int = 200,
    first_dealer: int = 0,
) -> View:
    shown = [n for n in names if n.strip()]
    teams = None
    if settings.partnerships and len(shown) in (4, 6):
        teams = [team_name(t) for t in seat_teams(shown)]
    # the people played with before (the store leaves out the seats the program named)
    remembered = service.player_names()[:50]
    data = {
        "players": shown,
        "name": name,
        "rules": settings.to_dict(),
        "teams": teams,
        "remembered": remembered,
        "presets": {key: {"title": t, "rules": r} for key, (t, r) in presets().items()},
        "preset": preset or None,
        "first_dealer": first_dealer,
        "errors": errors,
    }
    context = {
        "names": names + [""] * (MAX_PLAYERS - len(names)),
        "match_name": name,
        "max_match_name": MAX_MATCH_NAME,
        "settings": settings,
        "remembered": remembered,
        "errors": errors,
        "teams": teams,
        "presets": presets(),
        "preset": preset,
        "napola_values": NAPOLA_VALUES,
        "ties_values": TIES_VALUES,
        "first_dealer": first_dealer,
    }
    return View("new_match.html", data, context, status)


@matches.get("/matches/new")
def new_match(request: Request, service: Service) -> Response:
    return render(request, new_match_view(service, [], "", Settings(), {}))


@matches.post("/matches/new")
def create_match(request: Request, service: Service, form: Form) -> Response:
    preset = form.get("preset")
    if preset:
        errors: dict[str, str] = {}
        names = seat_names(form.fields.get("player", []), errors)
        seat = dealer_seat(form.get("first_dealer"), names, errors)
        settings = preset_settings(preset)
        name = form.get("name").strip()
        status = 422 if errors else 200
        view = new_match_view(
            service, names, name, settings, errors, preset, status, first_dealer=seat
        )
        return render(request, view)
    typed = read_new_match(form.fields)  # the phone's worker reads it the same way offline
    errors = typed.errors
    if typed.match is not None:
        try:
            scored = service.create(match=typed.match)
        except InputError as error:
            errors[error.where] = error.text()
        else:
            return RedirectResponse(f"/matches/{scored.id}", status_code=303)
    view = new_match_view(
        service,
        typed.names,
        typed.name,
        typed.settings,
        errors,
        status=422,
        first_dealer=typed.first_dealer,
    )
    return render(request, view)


@matches.get("/matches/{match_id}")
def sheet_page(request: Request, service: Service, match_id: MatchId) -> Response:
    scored = service.get(match_id=match_id)
    logged = "" if request.query_params.get("done") else None  # the note: the log's last line
    undo_id = request.query_params.get("undo", "")
    undo = next((r for r in scored.removed if str(r.id) == undo_id), None)
    return render(request, sheet_view(request, scored, undo=undo, logged=logged))


@matches.get("/matches/{match_id}/sheet")
def sheet_piece(request: Request, service: Service, match_id: MatchId) -> Response:
    """The sheet piece. With ``?since=V`` (the version a page shows; its poll every few
    seconds) the answer is 204 while the match is unchanged, so htmx swaps nothing."""
    scored = service.get(match_id=match_id)
    since = request.query_params.get("since", "")
    if since == str(scored.version):
        return Response(status_code=204)
    logged = _(UPDATED_ELSEWHERE) if since else None  # then the log's last line
    return render(request, sheet_view(request, scored, piece=True, logged=logged))


@matches.get("/matches/{match_id}/sheet/change")
def sheet_change_piece(request: Request, service: Service, match_id: MatchId) -> Response:
    """What the latest change altered on the sheet, for a page at ``?since=V`` (live.js
    patches it in): 204 while the match is still at ``V``; the change's rows, totals, chart
    and log when it is one deal's change from ``V``; else an empty ``#sheet-change`` marked
    ``data-whole``, and the page fetches the whole piece (``/sheet``) as its poll does."""
    scored = service.get(match_id=match_id)
    since = request.query_params.get("since", "")
    if since == str(scored.version):
        return Response(status_code=204)
    seen = ascii_digits(since, 16)  # not a version ("abc", "²", 5000 digits): the whole piece
    patch = None if seen is None else sheet_change(request, scored, seen)
    if patch is not None:
        return patch
    return HTMLResponse(WHOLE_PIECE, headers={"Cache-Control": "no-store"})


@matches.post("/matches/{match_id}/settings")
def change_settings(request: Request, service: Service, match_id: MatchId, form: Form) -> Response:
    scored = service.get(match_id=match_id)
    base_rules = json_field(form.get("base_rules"))
    shown = scored.match.settings
    try:
        version = form.version
        if isinstance(base_rules, dict) and version != scored.version:
            # filled on an older page: read against the rules it showed, then merged
            shown = Settings.parse(base_rules, "rules", variant=scored.match.variant)
        rules = settings_from_form(form.fields_first(), shown)
        before = scored.version
        scored, changes = service.change_rules(match_id=match_id, rules=rules, version=version)
    except VersionConflictError:
        return stale_rules(request, service, match_id, rules, base_rules)
    except (InputError, SettingsChangeRefused) as error:
        message = error.text()
        return render(request, sheet_view(request, scored, 422, settings_error=message))
    if scored.version == before:  # applied as they were: nothing written, nothing logged
        return render(
            request, sheet_view(request, scored, note=_("The house rules are as they were."))
        )
    return after_change(request, scored, note=changes.summary())


def stale_rules(
    request: Request,
    service: Service,
    match_id: int,
    rules: dict[str, Any],
    base_rules: object,
) -> Response:
    """House rules changed on a page another device made stale: the merge policy sends the
    settings changed here unless another device changed the same ones to something else;
    then both are shown and the form keeps the person's choice (applying it again keeps it)."""
    if not isinstance(base_rules, dict):
        return conflict_page(request, service, match_id)
    entry = {"kind": "rules", "body": rules, "base": {"rules": base_rules}}
    try:
        merged = service.merge(match_id=match_id, entry=entry)
    except (InputError, SettingsChangeRefused) as error:
        now = service.get(match_id=match_id)
        return render(request, sheet_view(request, now, 422, settings_error=error.text()))
    if merged.outcome == "sent" and merged.changes is not None:
        return after_change(request, merged.scored, note=merged.changes.summary())
    now = merged.scored
    if merged.outcome == "dropped":
        return render(
            request, sheet_view(request, now, note=_("The house rules are as they were."))
        )
    clashes = "; ".join(
        _("{setting}: yours {mine}, theirs {theirs}").format(
            setting=s["name"], mine=s["mine"], theirs=s["theirs"]
        )
        for s in merged.plan["conflict"]["settings"]
    )
    message = _(
        "Meanwhile another device changed the same house rules: {clashes}. Nothing was saved; "
        "the form keeps yours: apply them again to keep yours."
    ).format(clashes=clashes)
    mine = Settings.parse({**base_rules, **rules}, "rules", variant=now.match.variant)
    view = sheet_view(request, now, 409, settings_error=message, shown_settings=mine)
    return render(request, view)


@matches.post("/matches/{match_id}/delete")
def delete_match(request: Request, service: Service, match_id: MatchId, form: Form) -> Response:
    try:
        service.delete_match(match_id=match_id, version=form.version)
    except VersionConflictError:
        return conflict_page(request, service, match_id)
    return RedirectResponse("/", status_code=303)


# --- import --------------------------------------------------------------------------------


def import_view(error: str | None = None, text: str = "", status: int = 200) -> View:
    data = {"error": error, "accepts": "a match file (docs/formats.md)", "api": "/api/import"}
    return View("import.html", data, {"error": error, "text": text}, status)


@transfer.get("/import")
def import_page(request: Request) -> Response:
    return render(request, import_view())


@transfer.post("/import")
def import_match(request: Request, service: Service, form: Form) -> Response:
    raw = form.files.get("file") or b""
    text = form.get("text")
    error: str | None = None
    if not raw and not text.strip():
        error = _("choose a match file, or paste one")
    elif len(raw) > MAX_UPLOAD_BYTES:
        error = _("the file is over {most} MiB").format(most=MAX_UPLOAD_BYTES // 1024 // 1024)
    else:
        try:
            scored = service.import_match(match=read_import(raw if raw else text))
        except InputError as problem:
            error = f"{problem.where}: {problem.text()}" if problem.where else problem.text()
        else:
            return RedirectResponse(f"/matches/{scored.id}", status_code=303)
    return render(request, import_view(error, text[:MAX_UPLOAD_BYTES], 422))
