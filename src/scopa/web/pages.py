"""The pages: server-rendered, with ``_partial.html`` pieces that htmx swaps in place.

Every form works without JavaScript (post, then a redirect to the sheet); with htmx the
sheet's own forms swap the sheet partial instead. Views load, call the service functions
that the API calls too, and render; they never score. Each form carries the match's version,
so a change made on a stale page is refused with a message and the fresh sheet.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import RedirectResponse, Response
from starlette.datastructures import UploadFile

from scopa import variants
from scopa.application import ScoredMatch
from scopa.errors import (
    DealNotFoundError,
    InputError,
    SettingsChangeRefused,
    VersionConflictError,
)
from scopa.formats import load_json, parse_deal, parse_match
from scopa.match import MAX_PLAYERS, seat_teams, team_name
from scopa.rules import NAPOLA_VALUES, TIES_VALUES, Settings
from scopa.store import RemovedDeal
from scopa.web.deps import DealNumber, MatchId, RemovedId, Service, Templates
from scopa.web.forms import (
    DealForm,
    blank_form,
    form_of_deal,
    place_error,
    read_form,
    settings_from_form,
)
from scopa.web.versions import read_version
from scopa.web.views import PRESETS, breakdown, chart, preset_settings

MAX_UPLOAD_BYTES = 2 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class Posted:
    """A posted form: each field's values, and the uploaded files' bytes."""

    fields: dict[str, list[str]]
    files: dict[str, bytes]

    def get(self, key: str, default: str = "") -> str:
        values = self.fields.get(key) or []
        return values[0] if values else default

    def __contains__(self, key: str) -> bool:
        return key in self.fields

    def fields_first(self) -> dict[str, str]:
        """Each field's first value (for forms without repeated fields)."""
        return {key: values[0] for key, values in self.fields.items() if values}


async def read_posted(request: Request) -> Posted:
    fields: dict[str, list[str]] = {}
    files: dict[str, bytes] = {}
    async with request.form(max_files=2, max_fields=400) as form:
        for key, value in form.multi_items():
            if isinstance(value, UploadFile):
                files[key] = await value.read(MAX_UPLOAD_BYTES + 1)
            else:
                fields.setdefault(key, []).append(value)
    return Posted(fields, files)


Form = Annotated[Posted, Depends(read_posted)]

matches = APIRouter(include_in_schema=False)
deals = APIRouter(include_in_schema=False)
transfer = APIRouter(include_in_schema=False)


def is_htmx(request: Request) -> bool:
    return request.headers.get("HX-Request") == "true"


def posted_version(form: Posted) -> int | None:
    return read_version(form.get("version") or None, "version")


def sheet_context(stored: ScoredMatch, **extra: Any) -> dict[str, Any]:
    match = stored.match
    context: dict[str, Any] = {
        "stored": stored,
        "match": match,
        "sheet": stored.sheet,
        "settings": match.settings,
        "chart": chart(stored.sheet, match.settings.target),
        "title": match.name or " vs ".join(stored.sheet.sides),
        "napola_values": NAPOLA_VALUES,
        "ties_values": TIES_VALUES,
        "note": None,
        "undo": None,
        "conflict": None,
        "settings_error": None,
    }
    context.update(extra)
    return context


def render_sheet(
    request: Request,
    templates: Templates,
    stored: ScoredMatch,
    status: int = 200,
    **extra: Any,
) -> Response:
    """The sheet: the partial for htmx, the whole page otherwise."""
    name = "_sheet.html" if is_htmx(request) else "sheet.html"
    context = sheet_context(stored, **extra)
    if name == "sheet.html":
        context["history"] = request.app.state.service.history(match_id=stored.id)
    return templates.TemplateResponse(request, name, context, status_code=status)


def to_sheet(
    request: Request,
    templates: Templates,
    stored: ScoredMatch,
    note: str,
    undo: RemovedDeal | None = None,
) -> Response:
    """After a change: the fresh sheet partial for htmx, else a redirect to the sheet page
    (which shows the change log's last line, and the undo button after a deletion)."""
    if is_htmx(request):
        return render_sheet(request, templates, stored, note=note, undo=undo)
    query = "?done=1" + (f"&undo={undo.id}" if undo else "")
    return RedirectResponse(f"/matches/{stored.id}{query}", status_code=303)


def conflict_page(
    request: Request, templates: Templates, service: Service, match_id: int
) -> Response:
    stored = service.get(match_id=match_id)
    message = (
        "This match was changed on another device while this page was open, so nothing was "
        "saved. Here is the sheet as it is now; make the change again if it is still needed."
    )
    return render_sheet(request, templates, stored, 409, conflict=message)


# --- matches -------------------------------------------------------------------------------


@matches.get("/")
def home(request: Request, service: Service, templates: Templates) -> Response:
    return templates.TemplateResponse(request, "home.html", {"matches": service.list_matches()})


def new_match_context(
    service: Service,
    names: list[str],
    name: str,
    settings: Settings,
    errors: dict[str, str],
    preset: str = "",
) -> dict[str, Any]:
    shown = [n for n in names if n.strip()]
    teams = None
    if settings.partnerships and len(shown) in (4, 6):
        teams = [team_name(t) for t in seat_teams(shown)]
    return {
        "names": names + [""] * (MAX_PLAYERS - len(names)),
        "match_name": name,
        "settings": settings,
        "remembered": service.player_names()[:50],
        "errors": errors,
        "teams": teams,
        "presets": PRESETS,
        "preset": preset,
        "napola_values": NAPOLA_VALUES,
        "ties_values": TIES_VALUES,
    }


@matches.get("/matches/new")
def new_match(request: Request, service: Service, templates: Templates) -> Response:
    context = new_match_context(service, [], "", Settings(), {})
    return templates.TemplateResponse(request, "new_match.html", context)


@matches.post("/matches/new")
def create_match(request: Request, service: Service, templates: Templates, form: Form) -> Response:
    names = [n.strip() for n in form.fields.get("player", [])][:MAX_PLAYERS]
    name = form.get("name").strip()
    errors: dict[str, str] = {}
    preset = form.get("preset")
    if preset:
        settings = preset_settings(preset)
        context = new_match_context(service, names, name, settings, errors, preset)
        return templates.TemplateResponse(request, "new_match.html", context)
    variant = "scopa"
    try:
        variant = variants.get(form.get("variant") or "scopa").name
        rules = settings_from_form(form.fields_first(), Settings.of(variant))
        settings = Settings.parse(rules, "rules", variant=variant)
    except InputError as error:
        errors[error.where] = error.message
        settings = Settings.of(variant)
    players = [n for n in names if n]
    if not errors:
        data: dict[str, Any] = {"players": players, "rules": settings.to_dict()}
        if settings.variant != "scopa":
            data["variant"] = settings.variant
        if name:
            data["name"] = name
        try:
            stored = service.create(match=parse_match(data))
        except InputError as error:
            where = error.where
            if where.startswith("players["):
                index = int(where[len("players[") :].split("]")[0])
                original = [i for i, n in enumerate(names) if n]
                where = f"player-{original[index]}" if index < len(original) else "players"
            errors[where] = error.message
        else:
            return RedirectResponse(f"/matches/{stored.id}", status_code=303)
    context = new_match_context(service, names, name, settings, errors)
    return templates.TemplateResponse(request, "new_match.html", context, status_code=422)


@matches.get("/matches/{match_id}")
def sheet_page(
    request: Request, service: Service, templates: Templates, match_id: MatchId
) -> Response:
    stored = service.get(match_id=match_id)
    note = None
    if request.query_params.get("done"):
        entries = service.history(match_id=match_id)
        if entries:
            note = entries[-1].summary
    undo_id = request.query_params.get("undo", "")
    undo = next((r for r in stored.removed if str(r.id) == undo_id), None)
    return render_sheet(request, templates, stored, note=note, undo=undo)


@matches.get("/matches/{match_id}/sheet")
def sheet_partial(
    request: Request, service: Service, templates: Templates, match_id: MatchId
) -> Response:
    """The sheet piece. With ``?since=V`` (the version a page shows; its poll every few
    seconds) the answer is 204 while the match is unchanged, so htmx swaps nothing."""
    stored = service.get(match_id=match_id)
    since = request.query_params.get("since", "")
    note = None
    if since:
        if since == str(stored.version):
            return Response(status_code=204)
        entries = service.history(match_id=match_id)
        note = f"Updated on another device: {entries[-1].summary}" if entries else None
    context = sheet_context(stored, note=note)
    return templates.TemplateResponse(request, "_sheet.html", context)


@matches.post("/matches/{match_id}/settings")
def change_settings(
    request: Request, service: Service, templates: Templates, match_id: MatchId, form: Form
) -> Response:
    stored = service.get(match_id=match_id)
    try:
        version = posted_version(form)
        rules = settings_from_form(form.fields_first(), stored.match.settings)
        stored, changes = service.change_rules(match_id=match_id, rules=rules, version=version)
    except VersionConflictError:
        return conflict_page(request, templates, service, match_id)
    except (InputError, SettingsChangeRefused) as error:
        message = error.message if isinstance(error, InputError) else str(error)
        return render_sheet(request, templates, stored, 422, settings_error=message)
    return to_sheet(request, templates, stored, note=changes.summary())


@matches.post("/matches/{match_id}/delete")
def delete_match(
    request: Request, service: Service, templates: Templates, match_id: MatchId, form: Form
) -> Response:
    try:
        service.delete_match(match_id=match_id, version=posted_version(form))
    except VersionConflictError:
        return conflict_page(request, templates, service, match_id)
    return RedirectResponse("/", status_code=303)


# --- deals ---------------------------------------------------------------------------------


def deal_form_page(
    request: Request,
    templates: Templates,
    stored: ScoredMatch,
    form: DealForm,
    number: int | None,
    status: int = 200,
) -> Response:
    context = {
        "stored": stored,
        "match": stored.match,
        "title": stored.match.name or " vs ".join(stored.sheet.sides),
        "form": form,
        "number": number,
        "cards": CARD_ROWS,
    }
    return templates.TemplateResponse(request, "deal_form.html", context, status_code=status)


CARD_ROWS = tuple(
    (suit, tuple(f"{rank}{letter}" for rank in ("A", "2", "3", "4", "5", "6", "7", "J", "H", "K")))
    for suit, letter in (("coins", "d"), ("cups", "c"), ("swords", "s"), ("clubs", "b"))
)


@deals.get("/matches/{match_id}/deals/new")
def new_deal(
    request: Request, service: Service, templates: Templates, match_id: MatchId
) -> Response:
    stored = service.get(match_id=match_id)
    mode = request.query_params.get("mode", "tally")
    return deal_form_page(request, templates, stored, blank_form(stored.sheet.sides, mode), None)


@deals.post("/matches/{match_id}/deals/new")
def record_deal(
    request: Request, service: Service, templates: Templates, match_id: MatchId, form: Form
) -> Response:
    stored = service.get(match_id=match_id)
    deal_form, data = read_form(form.fields, stored.sheet.sides, stored.match.variant)
    if data is not None:
        try:
            deal = parse_deal(data, stored.match)
            stored = service.record_deal(match_id=match_id, deal=deal, version=posted_version(form))
        except VersionConflictError:
            return conflict_page(request, templates, service, match_id)
        except InputError as error:
            place_error(deal_form, error)
        else:
            return to_sheet(request, templates, stored, note="recorded")
    return deal_form_page(request, templates, stored, deal_form, None, 422)


@deals.get("/matches/{match_id}/deals/{number}")
def deal_page(
    request: Request, service: Service, templates: Templates, match_id: MatchId, number: DealNumber
) -> Response:
    stored = service.get(match_id=match_id)
    if number > len(stored.match.deals):
        raise_deal_not_found(match_id, number)
    context = {
        "stored": stored,
        "match": stored.match,
        "title": stored.match.name or " vs ".join(stored.sheet.sides),
        "number": number,
        "row": stored.sheet.deals[number - 1],
        "facts": breakdown(stored.match, stored.sheet, number),
    }
    name = "_breakdown.html" if is_htmx(request) else "deal.html"
    return templates.TemplateResponse(request, name, context)


def raise_deal_not_found(match_id: int, number: int) -> None:
    raise DealNotFoundError(f"match {match_id} has no deal {number}")


@deals.get("/matches/{match_id}/deals/{number}/edit")
def edit_deal(
    request: Request, service: Service, templates: Templates, match_id: MatchId, number: DealNumber
) -> Response:
    stored = service.get(match_id=match_id)
    if number > len(stored.match.deals):
        raise_deal_not_found(match_id, number)
    form = form_of_deal(stored.match.deals[number - 1])
    if request.query_params.get("mode") in ("tally", "cards"):
        form.mode = request.query_params["mode"]
    return deal_form_page(request, templates, stored, form, number)


@deals.post("/matches/{match_id}/deals/{number}/edit")
def save_deal(
    request: Request,
    service: Service,
    templates: Templates,
    match_id: MatchId,
    number: DealNumber,
    form: Form,
) -> Response:
    stored = service.get(match_id=match_id)
    if number > len(stored.match.deals):
        raise_deal_not_found(match_id, number)
    owners = stored.match.deals[number - 1].owners
    deal_form, data = read_form(form.fields, owners, stored.match.variant)
    if data is not None:
        try:
            deal = parse_deal(data, stored.match)
            stored = service.replace_deal(
                match_id=match_id, number=number, deal=deal, version=posted_version(form)
            )
        except VersionConflictError:
            return conflict_page(request, templates, service, match_id)
        except InputError as error:
            place_error(deal_form, error)
        else:
            return to_sheet(request, templates, stored, note=f"Deal {number} changed")
    return deal_form_page(request, templates, stored, deal_form, number, 422)


@deals.post("/matches/{match_id}/deals/{number}/delete")
def delete_deal(
    request: Request,
    service: Service,
    templates: Templates,
    match_id: MatchId,
    number: DealNumber,
    form: Form,
) -> Response:
    try:
        stored = service.delete_deal(match_id=match_id, number=number, version=posted_version(form))
    except VersionConflictError:
        return conflict_page(request, templates, service, match_id)
    undo = stored.removed[-1] if stored.removed else None
    return to_sheet(request, templates, stored, note=f"Deal {number} deleted", undo=undo)


@deals.post("/matches/{match_id}/removed/{removed_id}/restore")
def restore_deal(
    request: Request,
    service: Service,
    templates: Templates,
    match_id: MatchId,
    removed_id: RemovedId,
    form: Form,
) -> Response:
    try:
        stored = service.restore_deal(
            match_id=match_id, removed_id=removed_id, version=posted_version(form)
        )
    except VersionConflictError:
        return conflict_page(request, templates, service, match_id)
    return to_sheet(request, templates, stored, note="Deal restored")


# --- import --------------------------------------------------------------------------------


@transfer.get("/import")
def import_page(request: Request, templates: Templates) -> Response:
    return templates.TemplateResponse(request, "import.html", {"error": None, "text": ""})


@transfer.post("/import")
def import_match(request: Request, service: Service, templates: Templates, form: Form) -> Response:
    raw = form.files.get("file") or b""
    text = form.get("text")
    error: str | None = None
    if not raw and not text.strip():
        error = "choose a match file, or paste one"
    elif len(raw) > MAX_UPLOAD_BYTES:
        error = f"the file is over {MAX_UPLOAD_BYTES // 1024 // 1024} MiB"
    else:
        try:
            data = load_json(raw if raw else text, "file")
            stored = service.import_match(match=parse_match(data))
        except InputError as problem:
            error = f"{problem.where}: {problem.message}" if problem.where else problem.message
        else:
            return RedirectResponse(f"/matches/{stored.id}", status_code=303)
    context = {"error": error, "text": text[:MAX_UPLOAD_BYTES]}
    return templates.TemplateResponse(request, "import.html", context, status_code=422)
