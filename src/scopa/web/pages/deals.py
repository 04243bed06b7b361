"""The pages of a match's deals: record one (the quick tally or card by card), see one's
breakdown, edit, delete and restore. Each view computes what it shows once and renders it as
HTML or as its JSON twin (:mod:`scopa.web.pages.render`)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse, Response

from scopa.application import ScoredMatch
from scopa.categories import from_categories_refused, to_categories
from scopa.changes import no_deal
from scopa.errors import InputError, VersionConflictError
from scopa.formats import deal_to_json, parse_deal, sheet_to_json
from scopa.i18n import _
from scopa.web.deps import DealNumber, MatchId, RemovedId, Service
from scopa.web.pages.render import (
    Form,
    Posted,
    View,
    after_change,
    conflict_page,
    is_htmx,
    match_context,
    match_data,
    render,
    sheet_view,
)
from scopa.web.pages.stale import (
    deal_conflict_note,
    json_field,
    number_field,
    rules_moved,
    stale_rules_missing_note,
    stale_rules_note,
)
from scopa.web.pages.views import SideFacts, breakdown
from scopa.web.phone.device import check_deal
from scopa.web.phone.forms import (
    DealForm,
    blank_form,
    first,
    form_of_deal,
    place_error,
    read_form,
)

deals = APIRouter(include_in_schema=False)

CARD_ROWS = tuple(
    (suit, tuple(f"{rank}{letter}" for rank in ("A", "2", "3", "4", "5", "6", "7", "J", "H", "K")))
    for suit, letter in (("coins", "d"), ("cups", "c"), ("swords", "s"), ("clubs", "b"))
)


def deal_form_view(
    scored: ScoredMatch,
    form: DealForm,
    number: int | None,
    status: int = 200,
    stale: str | None = None,
) -> View:
    """The deal form (a new deal when ``number`` is None), filled with ``form``; ``stale``:
    why a change on another device kept it from being saved (what the person typed is kept)."""
    base: dict[str, Any] = {
        "rules": scored.match.settings.to_dict(),
        "count": len(scored.match.deals),
    }
    if number is not None:
        base["deal"] = deal_to_json(scored.match.deals[number - 1])
        if scored.deal_ids:
            base["deal_id"] = scored.deal_ids[number - 1]
    data = {
        **match_data(scored),
        "number": number,
        "form": {
            "owners": list(form.owners),
            "mode": form.mode,
            "counts": form.counts,
            "coins": [sorted(c) for c in form.coins],
            "best": form.best,
            "sweeps": form.sweeps,
            "last": form.last,
            "cards": form.cards,
            "took": {key: sorted(took) for key, took in form.took.items()},
            "run": form.run,
            "run_length": form.run_length,
            "grande": form.grande,
            "errors": form.errors,
        },
        "stale": stale,
    }
    context = {
        **match_context(scored),
        "form": form,
        "number": number,
        "cards": CARD_ROWS,
        "stale": stale,
        "base": base,
    }
    return View("deal_form.html", data, context, status)


def match_with_deal(service: Service, match_id: MatchId, number: DealNumber) -> ScoredMatch:
    """The match of a page that names its deal ``number`` in the address (it must exist)."""
    scored = service.get(match_id=match_id)
    if number > len(scored.match.deals):
        raise no_deal(match_id, number)
    return scored


WithDeal = Annotated[ScoredMatch, Depends(match_with_deal)]


@deals.get("/matches/{match_id}/deals/new")
def new_deal(request: Request, service: Service, match_id: MatchId) -> Response:
    scored = service.get(match_id=match_id)
    mode = request.query_params.get("mode", "tally")
    return render(request, deal_form_view(scored, blank_form(scored.sheet.sides, mode), None))


@deals.post("/matches/{match_id}/deals/new")
def record_deal(request: Request, service: Service, match_id: MatchId, form: Form) -> Response:
    scored = service.get(match_id=match_id)
    deal_form, data = read_form(
        form.fields, scored.sheet.sides, scored.match.variant, scored.match.settings
    )
    if data is not None:
        try:
            deal = parse_deal(data, scored.match)
            scored = service.record_deal(match_id=match_id, deal=deal, version=form.version)
        except VersionConflictError:
            return stale_deal(request, service, match_id, form, deal_form, data, None)
        except InputError as error:
            if moved_on(form, scored):  # refused under rules changed meanwhile: said so
                return stale_deal(request, service, match_id, form, deal_form, data, None)
            place_error(deal_form, error)
        else:
            return after_change(request, scored, note=_("recorded"))
    return render(request, deal_form_view(scored, deal_form, None, 422))


@deals.post("/matches/{match_id}/deals/new/check")
def check_new_deal(service: Service, match_id: MatchId, form: Form) -> Response:
    """The deal form's live check, by the server while the device's scorer is not running
    (online it never needs to): the scorer's own function on the match as stored, the
    form's fields as they would be posted. Nothing is written."""
    scored = service.get(match_id=match_id)
    return JSONResponse(check_deal(scored.match, form.fields, None))


@deals.post("/matches/{match_id}/deals/{number}/check")
def check_deal_edit(form: Form, scored: WithDeal, number: DealNumber) -> Response:
    """:func:`check_new_deal` for the form that changes deal ``number``."""
    return JSONResponse(check_deal(scored.match, form.fields, number))


def moved_on(form: Posted, scored: ScoredMatch) -> bool:
    """Whether the match moved on since the form was filled (it names an older version)."""
    try:
        version = form.version
    except InputError:
        return False
    return version is not None and version != scored.version


def stale_deal(
    request: Request,
    service: Service,
    match_id: int,
    form: Form,
    deal_form: DealForm,
    data: Any,
    number: int | None,
) -> Response:
    """A deal form filled on a match that moved on meanwhile: re-checked against the match as
    it is. House rules changed: nothing stored, the form again with what changed and what the
    deal now scores. Otherwise the merge policy: recorded (or the edit merged), or both
    versions shown with the person's deal kept in the form."""
    base = json_field(form.get("base"))
    if not isinstance(base, dict):  # a form that does not say what it was based on
        return conflict_page(request, service, match_id)
    now = service.get(match_id=match_id)
    moved = rules_moved(now, base.get("rules"))
    where = number
    if number is not None:
        where = locate(now, base, number)
    try:
        deal = parse_deal(data, now.match)
    except InputError as error:
        if moved is None:
            place_error(deal_form, error)  # still the edit of the deal, where it is now
            return render(request, deal_form_view(now, deal_form, where, 422))
        # The new rules ask for what the form did not have (napola turned on: who held the
        # run): said as what happened, the form kept and drawn under the new rules.
        note = stale_rules_missing_note(moved)
        return render(request, deal_form_view(now, deal_form, where, 409, stale=note))
    if moved is not None:
        note = stale_rules_note(now, moved, deal, where)
        return render(request, deal_form_view(now, deal_form, where, 409, stale=note))
    entry: dict[str, Any] = {"kind": "add", "body": deal_to_json(deal), "base": {}}
    if number is None:
        count = base.get("count")
        if isinstance(count, int):
            entry["base"]["count"] = count
    else:
        entry.update(kind="replace", number=number)
        entry["base"] = {k: base[k] for k in ("deal", "deal_id") if k in base}
    merged = service.merge(match_id=match_id, entry=entry)
    if merged.outcome == "conflict":
        note = deal_conflict_note(merged.scored, merged, deal)
        conflict = merged.plan["conflict"]
        shown = conflict["number"] if conflict["type"] == "edited" and conflict["theirs"] else None
        return render(request, deal_form_view(merged.scored, deal_form, shown, 409, stale=note))
    if number is None:
        return after_change(request, merged.scored, note=_("recorded"))
    sent = merged.plan["send"]
    text = _("Deal {number} changed").format(number=sent.get("number", number))
    if sent.get("merged"):
        text += " " + _("(merged with another device's change of other fields)")
    return after_change(request, merged.scored, note=text)


def locate(now: ScoredMatch, base: dict[str, Any], number: int) -> int | None:
    """Where the deal a form was opened on is now (``None``: deleted meanwhile)."""
    deal_id = base.get("deal_id")
    if isinstance(deal_id, int) and now.deal_ids:
        return now.deal_ids.index(deal_id) + 1 if deal_id in now.deal_ids else None
    return number if number <= len(now.match.deals) else None


def side_facts_to_json(facts: SideFacts, keys: tuple[str, ...]) -> dict[str, Any]:
    return {
        "side": facts.side,
        "points": facts.points.to_dict(keys),
        "count": facts.count,
        "coin_count": facts.coin_count,
        "coins": facts.coins,
        "settebello": facts.settebello,
        "primiera": facts.primiera,
        "primiera_values": list(facts.primiera_values),
        "napola_run": facts.napola_run,
        "sweeps": facts.sweeps,
        "took_last": facts.took_last,
        "full": facts.full,
        "took": facts.took,
    }


@deals.get("/matches/{match_id}/deals/{number}")
def deal_page(request: Request, scored: WithDeal, number: DealNumber) -> Response:
    facts = breakdown(scored.match, scored.sheet, number)
    row = sheet_to_json(scored.sheet)["deals"][number - 1]
    keys = tuple(next(iter(row["points"].values())))
    data = {
        "id": scored.id,
        "version": scored.version,
        "title": scored.title,
        "number": number,
        "deal": deal_to_json(scored.match.deals[number - 1]),
        "row": row,
        "sides": [side_facts_to_json(f, keys) for f in facts],
    }
    context = {
        **match_context(scored),
        "number": number,
        "row": scored.sheet.deals[number - 1],
        "facts": facts,
    }
    template = "_breakdown.html" if is_htmx(request) else "deal.html"
    return render(request, View(template, data, context))


@deals.get("/matches/{match_id}/deals/{number}/edit")
def edit_deal(request: Request, scored: WithDeal, number: DealNumber) -> Response:
    deal = scored.match.deals[number - 1]
    mode = request.query_params.get("mode")
    if mode == "categories" and deal.categories is None:
        # A tally (or card by card) deal edited as who took each point: its facts say it.
        form = form_of_deal(to_categories(deal, scored.match))
    else:
        form = form_of_deal(deal)
        if mode in ("tally", "cards") and deal.categories is not None:
            # Who took a point does not say which cards were taken: that way is refused.
            form.note = from_categories_refused().text()
        elif mode in ("tally", "cards"):
            form.mode = mode
    return render(request, deal_form_view(scored, form, number))


@deals.post("/matches/{match_id}/deals/{number}/edit")
def save_deal(
    request: Request,
    service: Service,
    match_id: MatchId,
    number: DealNumber,
    form: Form,
    scored: WithDeal,
) -> Response:
    owners = scored.match.deals[number - 1].owners
    if first(form.fields, "mode") == "categories":
        owners = scored.sheet.sides  # who took each point is said per scoring side
    deal_form, data = read_form(form.fields, owners, scored.match.variant, scored.match.settings)
    if data is not None:
        try:
            deal = parse_deal(data, scored.match)
            scored = service.replace_deal(
                match_id=match_id, number=number, deal=deal, version=form.version
            )
        except VersionConflictError:
            return stale_deal(request, service, match_id, form, deal_form, data, number)
        except InputError as error:
            if moved_on(form, scored):
                return stale_deal(request, service, match_id, form, deal_form, data, number)
            place_error(deal_form, error)
        else:
            return after_change(
                request, scored, note=_("Deal {number} changed").format(number=number)
            )
    return render(request, deal_form_view(scored, deal_form, number, 422))


@deals.post("/matches/{match_id}/deals/{number}/delete")
def delete_deal(
    request: Request, service: Service, match_id: MatchId, number: DealNumber, form: Form
) -> Response:
    try:
        scored = service.delete_deal(match_id=match_id, number=number, version=form.version)
    except VersionConflictError:
        # Another device changed the match meanwhile: the deal this page showed is deleted
        # wherever it is now (found by its identity), unless it is already gone.
        deal_id = number_field(form.get("deal_id"))
        if deal_id is None:  # a form that does not say which deal it showed
            return conflict_page(request, service, match_id)
        entry = {"kind": "delete", "number": number, "base": {"deal_id": deal_id}}
        merged = service.merge(match_id=match_id, entry=entry)
        scored = merged.scored
        if merged.outcome != "sent":
            why = _("Deal {number} was already deleted on another device.").format(number=number)
            return render(request, sheet_view(request, scored, note=why))
        number = merged.plan["send"]["number"]
    undo = scored.removed[-1] if scored.removed else None
    return after_change(
        request, scored, note=_("Deal {number} deleted").format(number=number), undo=undo
    )


@deals.post("/matches/{match_id}/removed/{removed_id}/restore")
def restore_deal(
    request: Request, service: Service, match_id: MatchId, removed_id: RemovedId, form: Form
) -> Response:
    try:
        scored = service.restore_deal(
            match_id=match_id, removed_id=removed_id, version=form.version
        )
    except VersionConflictError:
        return conflict_page(request, service, match_id)
    return after_change(request, scored, note=_("Deal restored"))
