"""What the phone runs in its Pyodide worker: the same core, the same form reader, the same
messages as the server. JSON text in, JSON text out (:func:`run`), so the worker's bridge is
one call.

It is shipped to the browser in ``/offline/core.zip`` with the core modules and
:mod:`scopa.web.phone.forms`, and imports nothing else: no web framework, no database.

Operations (``op``, payload keys → answer keys):

- ``score`` (``match``) → ``sheet``: the score sheet (docs/formats.md), or ``error``/``where``.
- ``check`` (``match``, ``fields``, ``number``?) → ``ok``, ``errors`` (by form field),
  ``deal`` (the deal JSON the server would store), ``points`` (per side), ``notes``
  (facts a category needs that are missing, e.g. primiera's best cards).
- ``apply`` (``match``, ``removed``, ``changes``) → ``match``, ``removed``, ``sheet``,
  ``dealer`` (who deals the next deal: :attr:`scopa.match.Match.next_dealer`),
  ``rules_line``, ``notes`` (what the changes did, as the server says it: ``3 deals
  recorded``, ``Primiera off: Anna 8 → 6, Bruno 6 → 5``) and ``chart`` (the sheet's chart,
  :mod:`scopa.web.phone.chart`), and for a change the core refuses,
  ``error``/``where``/``index``: the outbox replayed on the device.
- ``parse`` (``match``) → ``match`` (normalised) or ``error``/``where``.
- ``start`` (``how``: ``new`` with ``fields``, ``rematch`` with ``match``, ``import`` with
  ``text``) → ``match``, ``sheet``, ``rules_line``, or ``errors`` (by the new-match form's
  field) or ``error``/``where``: a match started on the device, read as the server reads it.
- ``resolve`` (``entry``, ``now``) → the outbox's merge decision for one change made offline,
  given the server's match (:func:`scopa.changes.resolve`): ``request``, ``drop`` or
  ``conflict``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from scopa import changes, variants
from scopa.changes import (
    AddDeal,
    ChangeSettings,
    DeleteDeal,
    LocalRemoved,
    LocalState,
    ReplaceDeal,
    RestoreDeal,
)
from scopa.errors import InputError, ScopaError
from scopa.formats import deal_to_json, match_to_json, parse_deal, parse_match, sheet_to_json
from scopa.i18n import N_, _, ngettext
from scopa.match import Match, rescore, score_match
from scopa.rules import Settings
from scopa.sheet import Sheet
from scopa.web.phone.chart import chart, figure
from scopa.web.phone.forms import place_error, read_form
from scopa.web.phone.starting import read_import, read_new_match, rematch_of
from scopa.words import side_name, suit_name


def run(op: str, payload: str) -> str:
    """Answer one request of the worker (see the module's docstring)."""
    data = json.loads(payload)
    handler = OPERATIONS.get(op)
    if handler is None:
        return json.dumps({"error": f"unknown operation {op!r}", "where": "op"})
    try:
        answer = handler(data)
    except InputError as error:
        text = error.text()
        message = f"{error.where}: {text}" if error.where else text
        answer = {"error": text, "where": error.where, "message": message, "code": error.code}
    except ScopaError as error:
        answer = {"error": error.text(), "where": "", "message": error.text(), "code": error.code}
    return json.dumps(answer)


def score(data: Mapping[str, Any]) -> dict[str, Any]:
    match = parse_match(data["match"])
    return {"sheet": sheet_to_json(score_match(match))}


def parse(data: Mapping[str, Any]) -> dict[str, Any]:
    return {"match": match_to_json(parse_match(data["match"]))}


def check(data: Mapping[str, Any]) -> dict[str, Any]:
    """The deal form's live check: exactly what the server does with the posted form."""
    match = parse_match(data["match"])
    fields: dict[str, list[str]] = {k: [str(x) for x in v] for k, v in data["fields"].items()}
    number = data.get("number")
    return check_deal(match, fields, int(number) if number else None)


def check_deal(match: Match, fields: Mapping[str, list[str]], number: int | None) -> dict[str, Any]:
    """:func:`check` of the form's ``fields`` for deal ``number`` (``None``: a new deal) of
    ``match``: on the device, and on the server while the device's scorer is not running."""
    owners = match.deals[number - 1].owners if number else match.sides
    if fields.get("mode") == ["categories"]:
        owners = match.sides  # who took each point is said per scoring side
    form, deal_json = read_form(fields, owners, match.variant, match.settings)
    answer: dict[str, Any] = {"ok": False, "errors": dict(form.errors), "notes": []}
    if deal_json is None:
        return answer
    try:
        deal = parse_deal(deal_json, match)
    except InputError as error:
        place_error(form, error)  # next to the field, as the server's page places it
        answer["errors"] = dict(form.errors)
        answer["where"] = error.where
        return answer
    scored = score_match(match.with_deals([deal]))
    totals = [p.total for p in scored.deals[0].points]
    answer.update(
        ok=True,
        deal=deal_to_json(deal),
        points=dict(zip(scored.sides, totals, strict=True)),
        notes=missing_facts(deal_json, match),
        coins=coins_said(match, scored),
    )
    return answer


def coins_said(match: Match, scored: Sheet) -> list[str]:
    """What each side's coins score beyond the coins themselves, in the side order of the
    deal's points, in the language in force: the run from the ace (Scopa's napola, Cirulla's
    piccola) and Cirulla's grande, and a cappotto ("Piccola 4, Grande 5"); "" for none. The
    deal form writes it under each side's coins (variant_hints.js)."""
    variant = variants.get(match.variant)
    said = []
    for side, points in zip(scored.sides, scored.deals[0].points, strict=True):
        scored_keys = [key for key in variant.category_facts if getattr(points, key)]
        parts = [f"{variant.label(key)} {getattr(points, key)}" for key in scored_keys]
        if scored.by_cappotto and scored.winner == side:
            parts.append(_("cappotto: all ten coins"))
        said.append(", ".join(parts))
    return said


def missing_facts(deal: Mapping[str, Any], match: Match) -> list[str]:
    """What a category needs that the tally leaves out: primiera's best cards (in the language
    in force, the variant's word for it: Escoba's setenta).

    >>> pile = {"count": 20, "coins": [], "best": {"c": "7", "s": None, "b": "6"}}
    >>> missing_facts({"piles": {"Anna": pile}}, Match(("Anna", "Bruno")))
    ... # doctest: +NORMALIZE_WHITESPACE
    ['Primiera: no best card in swords for Anna, so it cannot be completed',
     'Primiera: every side is incomplete, so nobody scores it']
    """
    settings = match.settings
    notes: list[str] = []
    incomplete = 0
    piles = deal.get("piles", {})
    category = variants.get(settings.variant).label("primiera")
    for owner, pile in piles.items():
        best = pile.get("best")
        if best is None or "cards" in pile:
            continue
        gaps = [suit_name(s) for s in "csb" if not best.get(s)]
        if gaps:
            incomplete += 1
            if settings.primiera:
                text = _(
                    "{category}: no best card in {suits} for {name}, so it cannot be completed"
                )
                notes.append(
                    text.format(
                        category=category, suits=", ".join(gaps), name=side_name(owner, match)
                    )
                )
    if settings.primiera and piles and incomplete == len(piles):
        notes.append(
            _("{category}: every side is incomplete, so nobody scores it").format(category=category)
        )
    return notes


def apply(data: Mapping[str, Any]) -> dict[str, Any]:
    """Replay changes (the device's outbox) on a match, in order, as the server would."""
    match = parse_match(data["match"])
    removed: list[dict[str, Any]] = [dict(r) for r in data.get("removed", [])]
    notes = Notes()
    for index, change in enumerate(data.get("changes", [])):
        before, gone = match, removed
        try:
            match, removed = apply_one(match, removed, change)
        except ScopaError as error:
            where = error.where if isinstance(error, InputError) else "rules"
            text = error.text()
            answer = {"error": text, "where": where, "index": index, "message": str(error)}
            answer.update(match=match_to_json(match), removed=removed)
            answer["sheet"] = sheet_to_json(score_match(match))
            answer["dealer"] = match.next_dealer
            return answer
        notes.add(change, before, match, gone)
    scored = score_match(match)
    return {
        "match": match_to_json(match),
        "removed": removed,
        "sheet": sheet_to_json(scored),
        "dealer": match.next_dealer,
        "rules_line": match.settings.describe(),
        "notes": notes.said(),
        "chart": figure(chart(scored, match.settings.target), match) if scored.deal_count else "",
    }


class Notes:
    """What the changes waiting did, said as the server says it after each change: deals
    recorded in a row counted (``3 deals recorded``), a rules change with what moved
    (``Primiera off: Anna 8 → 6, Bruno 6 → 5``, :meth:`scopa.sheet.Changes.summary`, as the
    server's note), a deal edited, deleted or restored by its number."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.recorded = 0

    def add(
        self,
        change: Mapping[str, Any],
        before: Match,
        after: Match,
        removed: Sequence[Mapping[str, Any]],
    ) -> None:
        """One change done (``removed``: the removed deals before it)."""
        kind = change.get("kind")
        if kind == "add":
            self.recorded += 1
            return
        self.counted()
        number = change.get("number")
        if kind == "create":
            self.lines.append(_("Match created"))
        elif kind == "import":
            self.lines.append(_("Match imported"))
        elif kind == "rules" and after.settings == before.settings:  # as the server says it
            self.lines.append(_("The house rules are as they were."))
        elif kind == "rules":
            self.lines.append(rescore(before, after.settings)[2].summary())
        elif kind == "replace":
            self.lines.append(_("Deal {number} edited").format(number=number))
        elif kind == "delete":
            self.lines.append(_("Deal {number} deleted").format(number=number))
        elif kind == "restore":
            back = next((r for r in removed if r.get("id") == change.get("removed_id")), {})
            number = min(int(back.get("number") or 1), len(after.deals))
            self.lines.append(_("Deal {number} restored").format(number=number))

    def counted(self) -> None:
        if self.recorded:
            n = self.recorded
            self.lines.append(
                ngettext("{count} deal recorded", "{count} deals recorded", n).format(count=n)
            )
            self.recorded = 0

    def said(self) -> list[str]:
        self.counted()
        return self.lines


def apply_one(
    match: Match, removed: list[dict[str, Any]], change: Mapping[str, Any]
) -> tuple[Match, list[dict[str, Any]]]:
    """One change of the outbox, done by the core's change records (:mod:`scopa.changes`),
    as the server does it; ``removed`` are the deals removed so far (id, number, deal JSON)."""
    kind = change.get("kind")
    body = change.get("body") or {}
    body = {k: v for k, v in body.items() if k != "version"} if isinstance(body, dict) else body
    number = int(change.get("number") or 0)
    state = LocalState(match)
    if kind in ("create", "import"):  # the match started on the device: kept as it is
        return match, removed
    if kind == "add":
        return AddDeal(match_id=0, version=None, deal=parse_deal(body, match)).after(state), removed
    if kind == "replace":
        check_number(number, match.deals)
        edit = ReplaceDeal(match_id=0, version=None, number=number, deal=parse_deal(body, match))
        return edit.after(state), removed
    if kind == "delete":
        check_number(number, match.deals)
        gone = deal_to_json(match.deals[number - 1])
        ident = int(change.get("local_removed") or -(len(removed) + 1))
        after = DeleteDeal(match_id=0, version=None, number=number).after(state)
        return after, [*removed, {"id": ident, "number": number, "deal": gone}]
    if kind == "restore":
        wanted = change.get("removed_id")
        entry = next((r for r in removed if r.get("id") == wanted), None)
        if entry is None:
            raise InputError(
                "removed",
                N_("no deleted deal {wanted} to restore"),
                code="device.no_deleted_deal_restore",
                wanted=wanted,
            )
        back = LocalRemoved(
            int(entry["id"]), int(entry["number"]), parse_deal(entry["deal"], match)
        )
        restore = RestoreDeal(match_id=0, version=None, removed_id=back.id)
        after = restore.after(LocalState(match, (back,)))
        return after, [r for r in removed if r is not entry]
    if kind == "rules":
        settings = Settings.parse(body, "rules", base=match.settings)
        rules = ChangeSettings(match_id=0, version=None, settings=settings, summary="", changes={})
        return rules.after(state), removed
    raise InputError("kind", N_("unknown change {kind!r}"), code="device.unknown_change", kind=kind)


def resolve(data: Mapping[str, Any]) -> dict[str, Any]:
    """The outbox's merge decision for one change (:func:`scopa.changes.resolve`)."""
    return changes.resolve(data["entry"], data["now"])


def start(data: Mapping[str, Any]) -> dict[str, Any]:
    """A match started on the device (:mod:`scopa.web.phone.starting`, as the server's pages
    start one): ``how`` is ``new`` (the new-match form's ``fields``), ``rematch`` (of
    ``match``) or ``import`` (a match file's ``text``)."""
    how = data.get("how")
    if how == "new":
        fields = {str(k): [str(x) for x in v] for k, v in data["fields"].items()}
        typed = read_new_match(fields)
        if typed.match is None:
            return {"errors": typed.errors}
        match = typed.match
    elif how == "rematch":
        match = rematch_of(parse_match(data["match"]))
    elif how == "import":
        match = read_import(str(data.get("text", "")))
    else:
        raise InputError(
            "how", N_("unknown way to start a match {how!r}"), code="device.unknown_start", how=how
        )
    return {
        "match": match_to_json(match),
        "sheet": sheet_to_json(score_match(match)),
        "rules_line": match.settings.describe(),
    }


def check_number(number: int, deals: Sequence[object]) -> None:
    if not 1 <= number <= len(deals):
        raise InputError(
            "number",
            N_("there is no deal {number} (the match has {count})"),
            code="device.there_no_deal",
            number=number,
            count=len(deals),
        )


OPERATIONS: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
    "score": score,
    "check": check,
    "apply": apply,
    "parse": parse,
    "resolve": resolve,
    "start": start,
}
