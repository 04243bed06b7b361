"""A page's form that another device made stale: one merge policy, online as offline.

Each form of the sheet carries the version it was filled on and what it was based on (the
house rules as shown, the deal's identity and facts, the count of deals). When the match
moved on meanwhile, the change goes to :meth:`MatchService.merge
<scopa.application.MatchService.merge>`, which applies the same policy as to a change kept
on a phone while it was offline (:func:`scopa.changes.resolve`): what does not clash goes
through, a real clash shows both and keeps what the person typed. A deal form whose house
rules changed meanwhile stores nothing: it is shown again with what changed and the points
the deal now scores, so the score stored is always the one the person saw.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from scopa.application import Merged, ScoredMatch
from scopa.application.matches import points_in
from scopa.changes import same
from scopa.deal import Deal
from scopa.errors import ScopaError
from scopa.i18n import _
from scopa.match import Match, rescore, score_match
from scopa.rules import Settings


def json_field(text: str) -> Any:
    """A form's hidden JSON field (``None``: absent or unreadable, so not used)."""
    if not text:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


def number_field(text: str) -> int | None:
    """A form's hidden whole number (``None``: absent or not one)."""
    return int(text) if text.isascii() and text.isdigit() and len(text) < 10 else None


def points_words(points: Mapping[str, int]) -> str:
    """``Anna 2 · Bruno 1``."""
    return " · ".join(f"{side} {n}" for side, n in points.items())


def deal_points(match: Match, deal: Deal, number: int | None) -> dict[str, int]:
    """What ``deal`` scores as deal ``number`` of ``match`` (``None``: recorded after the
    last one)."""
    deals = list(match.deals)
    if number is None or not 1 <= number <= len(deals):
        deals.append(deal)
        number = len(deals)
    else:
        deals[number - 1] = deal
    return points_in(score_match(match.with_deals(deals)), number)


def rules_moved(scored: ScoredMatch, base_rules: object) -> str | None:
    """What moved since the house rules a form was shown with (``None``: nothing moved, or
    the form did not say): the summary another device's rules change wrote."""
    if not isinstance(base_rules, Mapping) or same(base_rules, scored.match.settings.to_dict()):
        return None
    try:
        was = Settings.parse(base_rules, "rules", variant=scored.match.variant)
        _after, _sheet, changes = rescore(scored.match.with_settings(was), scored.match.settings)
    except (ScopaError, ValueError):
        return _("the house rules changed")
    return changes.summary() or _("the house rules changed")


def stale_rules_note(now: ScoredMatch, moved: str, deal: Deal | None, number: int | None) -> str:
    """A deal form's note when the house rules changed on another device meanwhile."""
    text = _(
        "Nothing was saved yet: the house rules were changed on another device while this "
        "form was open ({changes})."
    ).format(changes=moved)
    if deal is not None:
        try:
            points = points_words(deal_points(now.match, deal, number))
        except ScopaError:
            return text
        text += " " + _("Under them this deal scores {points}: check it and record it again.")
        text = text.format(points=points)
    return text


def stale_rules_missing_note(moved: str) -> str:
    """A deal form's note when another device changed the house rules meanwhile and the new
    rules ask for something the form did not have (napola turned on: who held the run)."""
    return _(
        "While you were filling this in, another device changed the house rules ({changes}): "
        "check the form and record it again."
    ).format(changes=moved)


def deal_conflict_note(now: ScoredMatch, merged: Merged, mine: Deal) -> str:
    """A deal form's note when the merge policy found a real clash: both versions."""
    conflict = merged.plan["conflict"]
    match = now.match
    yours = points_words(deal_points(match, mine, None))
    if conflict["type"] == "appended":
        count = conflict["count"]
        theirs = points_words(points_in(now.sheet, count))
        return _(
            "Meanwhile another device recorded deal {number} (theirs: {theirs}). Yours is "
            "kept below (yours: {yours}). If it is another deal, record it: it becomes deal "
            "{next}. If it is the same deal, discard this draft."
        ).format(number=count, theirs=theirs, yours=yours, next=count + 1)
    number = conflict["number"]
    if conflict.get("theirs") is None:
        return _(
            "Meanwhile deal {number} was deleted on another device. Yours is kept below "
            "(yours: {yours}): record it to add it again, or discard this draft."
        ).format(number=number, yours=yours)
    theirs = points_words(points_in(now.sheet, number))
    yours = points_words(deal_points(match, mine, number))
    fields = ", ".join(conflict.get("fields") or [])
    text = _(
        "Meanwhile deal {number} was changed on another device too (theirs: {theirs}; yours: "
        "{yours})."
    ).format(number=number, theirs=theirs, yours=yours)
    if fields:
        text += " " + _("Both changed: {fields}.").format(fields=fields)
    return text + " " + _("Yours is kept below: record it to keep yours, or discard this draft.")
