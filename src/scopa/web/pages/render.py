"""How the pages answer: each view computes its data once, as a :class:`View`, and
:func:`render` turns it into HTML (the whole page, or the piece htmx swaps) or into the page's
JSON twin (``?format=json``), announced on every page with
``Link: <...?format=json>; rel="alternate"; type="application/json"``.

Also what every page shares: the render context of a match (its title built once), the
posted form, and the sheet's answers after a change.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any
from urllib.parse import unquote_plus, urlencode

from fastapi import Depends, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from python_multipart.exceptions import FormParserError
from python_multipart.multipart import Field, File, FormParser, parse_options_header

from scopa import words
from scopa.application import MatchService, ScoredMatch
from scopa.application.computer import UNVERIFIED_TEXT
from scopa.errors import InputError
from scopa.i18n import N_, _, language
from scopa.rules import NAPOLA_VALUES, TIES_VALUES, Settings
from scopa.store import LogEntry, RemovedDeal
from scopa.web.api.schemas import log_to_json, removed_to_json, stored_to_json
from scopa.web.deps import get_service
from scopa.web.pages import changelog
from scopa.web.pages.views import Recent
from scopa.web.phone.chart import Chart, chart
from scopa.web.versions import read_version

MAX_UPLOAD_BYTES = 2 * 1024 * 1024
MAX_FIELDS = 400
MAX_FILES = 2
TOO_MANY_FIELDS = N_("more than {most} fields in one form")
SHOWN_DEALS = 12
"""The sheet shows the latest deals (what fits a phone); the rest on demand (``?all=1``)."""
SHOWN_LOG = 10
"""The change log's latest lines shown; the whole log on demand (``?all=1``)."""
JSON_FORMAT = "json"
CONFLICT = N_(
    "This match was changed on another device while this page was open, so nothing was "
    "saved. Here is the sheet as it is now; make the change again if it is still needed."
)


@dataclass(frozen=True, slots=True)
class View:
    """A page's answer, computed once: its template, its JSON twin, what else the template
    needs (objects with methods, choices for the forms) and its status."""

    template: str
    data: Any
    """The JSON twin, or a function that makes it (called only when the twin is asked for,
    so that an HTML answer never builds it)."""
    context: Mapping[str, Any] = field(default_factory=dict)
    status: int = 200


def wants_json(request: Request) -> bool:
    """Whether the answer is JSON: a page's twin (``?format=json``), or a route that only
    ever answers JSON (tagged :data:`JSON_ONLY`), whose refusals before it runs (a body that
    is not JSON, a path parameter out of range) are JSON too, as its own are."""
    if request.query_params.get("format") == JSON_FORMAT:
        return True
    return JSON_ONLY in getattr(request.scope.get("route"), "tags", ())


JSON_ONLY = "json-only"
"""The tag of the routes outside ``/api`` that answer JSON alone (the Play page's moves)."""


def is_htmx(request: Request) -> bool:
    return request.headers.get("HX-Request") == "true"


def twin_url(request: Request) -> str:
    """This page's JSON twin: the same address with ``format=json``."""
    query = [(k, v) for k, v in request.query_params.multi_items() if k != "format"]
    return f"{request.url.path}?{urlencode([*query, ('format', JSON_FORMAT)])}"


def render(request: Request, view: View) -> Response:
    """The view as its JSON twin (``?format=json``), or as HTML with the twin announced."""
    if wants_json(request):
        data = view.data() if callable(view.data) else view.data
        return JSONResponse(data, status_code=view.status)
    templates: Jinja2Templates = request.app.state.templates
    response = templates.TemplateResponse(
        request, view.template, dict(view.context), status_code=view.status
    )
    response.headers["Link"] = f'<{twin_url(request)}>; rel="alternate"; type="application/json"'
    return response


def match_context(scored: ScoredMatch) -> dict[str, Any]:
    """What every page of a match shows: the match, its sheet, its title."""
    return {
        "stored": scored,
        "match": scored.match,
        "sheet": scored.sheet,
        "title": scored.title,
        "uncounted_text": (
            None if scored.uncounted is None else _(UNVERIFIED_TEXT[scored.uncounted])
        ),
    }


def match_data(scored: ScoredMatch) -> dict[str, Any]:
    """The JSON twin's part for the match: the API's answer, and the title shown."""
    return {**stored_to_json(scored), "title": scored.title, "uncounted": scored.uncounted}


def sheet_view(
    request: Request,
    scored: ScoredMatch,
    status: int = 200,
    *,
    note: str | None = None,
    undo: RemovedDeal | None = None,
    conflict: str | None = None,
    settings_error: str | None = None,
    piece: bool | None = None,
    logged: str | None = None,
    shown_settings: Settings | None = None,
    history: Sequence[LogEntry] | None = None,
) -> View:
    """The sheet: the piece htmx swaps (for htmx, or when ``piece``), else the whole page
    with the change log."""
    piece = is_htmx(request) if piece is None else piece
    service = get_service(request)
    everything = shows_all(request)
    sheet = scored.sheet
    rows = sheet.deals if everything else sheet.deals[-SHOWN_DEALS:]
    context: dict[str, Any] = {
        **match_context(scored),
        "rows": rows,
        "earlier": sheet.deal_count - len(rows),
        "everything": everything,
        "settings": shown_settings or scored.match.settings,
        "chart": chart_of(request, scored),
        "napola_values": NAPOLA_VALUES,
        "ties_values": TIES_VALUES,
        "note": note,
        "undo": undo,
        "conflict": conflict,
        "settings_error": settings_error,
    }
    # The log is in the piece too (it updates in place): its latest lines, all on demand.
    kept_log = history is None  # else a match not stored (a shape: scopa.web.pages.shapes)
    if history is not None:
        size = len(history)
    elif everything:
        history = service.history(match_id=scored.id)
        size = len(history)
    else:
        history, size = service.recent_history(match_id=scored.id, last=SHOWN_LOG)
    context["history"], context["history_size"] = history, size
    if logged is not None and history:  # the note is the log's last line, read with it
        note = context["note"] = logged + changelog.summary(history[-1], scored.match)

    def data() -> dict[str, Any]:
        twin: dict[str, Any] = {
            **match_data(scored),
            "note": note,
            "undo": None if undo is None else removed_to_json(undo),
            "conflict": conflict,
            "settings_error": settings_error,
        }
        if not piece:
            whole = service.history(match_id=scored.id) if kept_log else context["history"]
            twin["history"] = [log_to_json(entry) for entry in whole]
        return twin

    return View("_sheet.html" if piece else "sheet.html", data, context, status)


ROW_CHANGES = frozenset({"add_deal", "replace_deal", "delete_deal", "restore_deal"})
"""The changes a live update patches in (the rows from the deal they altered); any other
change (the rules, the names, an import) re-scores or retitles the sheet: the whole piece."""
UPDATED_ELSEWHERE = N_("Updated on another device: ")
BLANK_LINES = re.compile(rb"\n\s+")
WHOLE_PIECE = '<div id="sheet-change" data-whole="1"></div>'
"""The change route's answer when the page needs the whole piece (``/sheet?since=V``)."""


def sheet_change(request: Request, scored: ScoredMatch, since: int) -> Response | None:
    """What the change from version ``since`` to the match's version altered on the sheet
    (``_sheet_change.html``: the rows from the first deal it altered, the head, the totals, the
    chart, the log's latest lines), or ``None`` when the page needs the whole piece: it is
    more than one version behind, shows every deal, or the change was not a deal's.

    Made once per change, language and card display (every viewer of version ``since`` gets the same
    bytes): a viewer costs a look-up, not a render."""
    if shows_all(request) or since != scored.version - 1:
        return None
    kept: Recent[bytes] = request.app.state.changes
    made = (scored.version, scored.updated_at, language(), words.deck())  # as it reads
    key = (id(request.app.state.store), scored.id, *made)
    body = kept.get(key)
    if body is None:
        body = render_change(request, scored, since)
        kept.put(key, body)
    if not body:
        return None
    return HTMLResponse(body, headers={"Cache-Control": "no-store"})


def render_change(request: Request, scored: ScoredMatch, since: int) -> bytes:
    """The change's fragment, rendered (empty when the change was not a deal's)."""
    history, size = get_service(request).recent_history(match_id=scored.id, last=SHOWN_LOG)
    last = history[-1] if history else None
    number = (last.detail or {}).get("number") if last is not None else None
    if last is None or last.version != scored.version or last.action not in ROW_CHANGES:
        return b""
    if not isinstance(number, int) or isinstance(number, bool):
        return b""
    first = 1 if last.action == "delete_deal" else number  # a deletion renumbers what follows
    shown = scored.sheet.deals[-SHOWN_DEALS:]
    context: dict[str, Any] = {
        **match_context(scored),
        "since": since,
        "first": first,
        "shown": SHOWN_DEALS,
        "rows": [row for row in shown if row.number >= first],
        "earlier": scored.sheet.deal_count - len(shown),
        "everything": False,
        "settings": scored.match.settings,
        "chart": chart_of(request, scored),
        "history": history,
        "history_size": size,
        "note": _(UPDATED_ELSEWHERE) + changelog.summary(last, scored.match),
        "undo": None,
        "removed_changed": last.action in ("delete_deal", "restore_deal"),
    }
    templates: Jinja2Templates = request.app.state.templates
    body = bytes(templates.TemplateResponse(request, "_sheet_change.html", context).body)
    return BLANK_LINES.sub(b"\n", body)  # the includes' indentation and empty lines


def shows_all(request: Request) -> bool:
    """Whether the sheet shows every deal and the whole log (``?all=1``, "Show all deals"),
    rather than the latest ones a phone shows."""
    return request.query_params.get("all") == "1"


def chart_of(request: Request, scored: ScoredMatch) -> Chart:
    """The chart of a match's running totals, laid out once per state of the match (every
    viewer of that state gets the same one)."""
    charts: Recent[Chart] = request.app.state.charts
    key = (id(request.app.state.store), scored.id, scored.version, scored.updated_at)
    found = charts.get(key)
    if found is None:
        found = chart(scored.sheet, scored.match.settings.target)
        charts.put(key, found)
    return found


def after_change(
    request: Request, scored: ScoredMatch, note: str, undo: RemovedDeal | None = None
) -> Response:
    """After a change: the fresh sheet piece for htmx, else a redirect to the sheet page
    (which shows the change log's last line, and the undo button after a deletion)."""
    if is_htmx(request):
        return render(request, sheet_view(request, scored, note=note, undo=undo))
    query = "?done=1" + (f"&undo={undo.id}" if undo else "")
    return RedirectResponse(f"/matches/{scored.id}{query}", status_code=303)


def conflict_page(request: Request, service: MatchService, match_id: int) -> Response:
    """A change based on a page that was out of date: nothing saved, the sheet as it is."""
    scored = service.get(match_id=match_id)
    return render(request, sheet_view(request, scored, 409, conflict=_(CONFLICT)))


@dataclass(frozen=True, slots=True)
class Posted:
    """A posted form: each field's values, and the uploaded files' bytes."""

    fields: dict[str, list[str]]
    files: dict[str, bytes]

    def get(self, key: str, default: str = "") -> str:
        values = self.fields.get(key) or []
        return values[0] if values else default

    def fields_first(self) -> dict[str, str]:
        """Each field's first value (for forms without repeated fields)."""
        return {key: values[0] for key, values in self.fields.items() if values}

    @property
    def version(self) -> int | None:
        """The version of the match the form was filled on."""
        return read_version(self.get("version") or None, "version")


async def read_posted(request: Request) -> Posted:
    """The posted form, read strictly: its text must be UTF-8, as a browser's form always is
    (Starlette's own parser reads a byte that is not as Latin-1, or as U+FFFD, and the sheet
    would store it as a name); a form of another kind, or malformed, is refused."""
    kind, options = parse_options_header(request.headers.get("content-type", ""))
    body = await request.body()
    if kind == b"multipart/form-data":
        return _multipart(body, options.get(b"boundary"))
    if kind not in (b"", b"application/x-www-form-urlencoded") and body:
        raise InputError(
            "content-type",
            N_("a form is sent as application/x-www-form-urlencoded or multipart/form-data"),
            code="form.content_type",
        )
    return Posted(_urlencoded(body), {})


def _utf8(raw: bytes, where: str) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise _not_utf8(where) from None


def _unquoted(text: str, where: str) -> str:
    try:
        return unquote_plus(text, errors="strict")
    except UnicodeDecodeError:
        raise _not_utf8(where) from None


def _not_utf8(where: str) -> InputError:
    return InputError(where, N_("the text sent is not valid UTF-8"), code="form.not_utf8")


def _too_many(count: int, most: int, what: str) -> None:
    if count > most:
        raise InputError("form", what, code="form.too_many", most=most)


def _urlencoded(body: bytes) -> dict[str, list[str]]:
    pairs = _utf8(body, "form").split("&") if body else []
    _too_many(len(pairs), MAX_FIELDS, TOO_MANY_FIELDS)
    fields: dict[str, list[str]] = {}
    for pair in filter(None, pairs):  # "a=1&&b=2": the empty pair is no field
        name, _sep, value = pair.partition("=")
        key = _unquoted(name, "form")
        fields.setdefault(key, []).append(_unquoted(value, key))
    return fields


def _multipart(body: bytes, boundary: bytes | None) -> Posted:
    if not boundary:
        raise InputError(
            "content-type",
            N_("a multipart form needs its boundary"),
            code="form.no_boundary",
        )
    fields: dict[str, list[str]] = {}
    files: dict[str, bytes] = {}
    count = 0

    def on_field(part: Field) -> None:
        nonlocal count
        count += 1
        _too_many(count, MAX_FIELDS, TOO_MANY_FIELDS)
        key = _utf8(part.field_name or b"", "form")
        fields.setdefault(key, []).append(_utf8(part.value or b"", key))

    def on_file(part: File) -> None:
        key = _utf8(part.field_name or b"", "form")
        part.file_object.seek(0)
        files[key] = part.file_object.read(MAX_UPLOAD_BYTES + 1)
        _too_many(len(files), MAX_FILES, N_("more than {most} files in one form"))

    in_memory = {"MAX_MEMORY_FILE_SIZE": len(body) + 1}
    parser = FormParser(
        "multipart/form-data", on_field, on_file, boundary=boundary, config=in_memory
    )
    try:
        parser.write(body)
        parser.finalize()
    except FormParserError:
        raise InputError(
            "form",
            N_("the form could not be read (malformed multipart data)"),
            code="form.malformed",
        ) from None
    return Posted(fields, files)


Form = Annotated[Posted, Depends(read_posted)]
