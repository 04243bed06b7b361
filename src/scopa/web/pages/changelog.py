"""The change log as people read it at the table: what each change did to the points.

``Deal 1 edited: Anna 3 → 4``, ``Deal 3 recorded: Anna 4, Bruno 1``, ``Deal 2 deleted (Anna 4,
Bruno 1)``. The deal's points are those of the change's time (below), worked out by the core from
the facts the log kept; a settings change keeps the summary the core wrote for it.

Each change works its points out once, as it is made, and keeps them in its log entry
(:class:`scopa.changes.Change`'s ``points``): a line is then read, not re-scored, and
says what the change did under the rules of its time. Entries logged before points were kept
are scored from their facts under the rules of their time too (:func:`lines`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scopa.errors import ScopaError
from scopa.formats import parse_deal
from scopa.i18n import N_, _, language, ngettext
from scopa.match import Match, score_match
from scopa.rules import Settings
from scopa.sheet import summarize
from scopa.store import LogEntry
from scopa.words import side_name


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the log: the entry and what it did."""

    entry: LogEntry
    text: str


def points_of(facts: object, match: Match) -> dict[str, int] | None:
    """A deal's points per side under the match's rules (None if the facts no longer fit)."""
    if not isinstance(facts, Mapping):
        return None
    try:
        deal = parse_deal(facts, match)
        sheet = score_match(match.with_deals([deal]))
    except ScopaError:
        return None
    return {side: p.total for side, p in zip(sheet.sides, sheet.deals[0].points, strict=True)}


TITLES = {
    "add_deal": N_("Deal {number} recorded"),
    "replace_deal": N_("Deal {number} edited"),
    "delete_deal": N_("Deal {number} deleted"),
    "restore_deal": N_("Deal {number} restored"),
}


def summary(entry: LogEntry, match: Match) -> str:
    """The entry's summary in the language in force: the log keeps it in English, and the
    action and its detail say it again in another language (a rules change in the words of
    the match's variant, its seats as it names them)."""
    if language() == "en":
        return entry.summary
    detail = entry.detail or {}
    title = TITLES.get(entry.action)
    if title is not None and "number" in detail:
        return _(title).format(number=detail["number"])
    if entry.action == "settings" and isinstance(detail.get("changes"), Mapping):
        try:
            return summarize(detail["changes"], match.variant, match)
        except (AttributeError, IndexError, KeyError, TypeError):
            return entry.summary
    if entry.action == "rename":
        after = detail.get("after")
        return _("Renamed to {name}").format(name=repr(after)) if after else _("Name removed")
    if entry.action in ("create", "import") and entry.summary.partition(": ")[2]:
        # the players, as the reader names them (the computer's seats in their language)
        rest = ", ".join(side_name(p, match) for p in entry.summary.partition(": ")[2].split(", "))
        verb = _("Match imported") if entry.action == "import" else _("Match created")
        deals = rest.rpartition(", ")
        if deals[2].endswith(" deals") and deals[2].split()[0].isdigit():
            count = int(deals[2].split()[0])
            rest = (
                deals[0]
                + ", "
                + ngettext("{count} deal", "{count} deals", count).format(count=count)
            )
        return f"{verb}: {rest}"
    return entry.summary


def kept(detail: Mapping[str, object], key: str) -> dict[str, int] | None:
    """Points the change worked out and kept in its log entry (entries logged before they
    were kept have none: those are scored from their facts)."""
    points = detail.get(key)
    if isinstance(points, Mapping) and points:
        return {str(side): int(n) for side, n in points.items() if isinstance(n, int)}
    return None


def listed(points: Mapping[str, int], match: Match) -> str:
    return ", ".join(f"{side_name(side, match)} {n}" for side, n in points.items())


def describe(entry: LogEntry, match: Match) -> str:
    """What one change did (its stored summary when there is nothing to add)."""
    detail = entry.detail or {}
    said = summary(entry, match)
    if entry.action == "add_deal":
        after = kept(detail, "points") or points_of(detail.get("after"), match)
        return f"{said}: {listed(after, match)}" if after else said
    if entry.action == "replace_deal":
        before = kept(detail, "points_before") or points_of(detail.get("before"), match)
        after = kept(detail, "points") or points_of(detail.get("after"), match)
        if before is None or after is None:
            return said
        moved = [
            f"{side_name(side, match)} {before.get(side)} → {n}"
            for side, n in after.items()
            if before.get(side) != n
        ]
        return f"{said}: {', '.join(moved) if moved else _('no points changed')}"
    if entry.action in ("delete_deal", "restore_deal"):
        facts = detail.get("deal") or detail.get("before") or detail.get("after")
        points = kept(detail, "points") or points_of(facts, match)
        return f"{said} ({listed(points, match)})" if points else said
    return said


def lines(entries: Sequence[LogEntry], match: Match) -> list[Line]:
    """The log, newest first, each entry with what it did under the rules of its time: going
    back from today's rules, each rules change logged puts back the rules it replaced (its
    ``before``), so that an entry that kept no points is scored as it was then and its line
    reconciles with the rules changes around it."""
    found: list[Line] = []
    then = match
    for entry in reversed(entries):
        found.append(Line(entry, describe(entry, then)))
        before = (entry.detail or {}).get("before")
        if entry.action == "settings" and isinstance(before, Mapping):
            try:
                settings = Settings.parse(before, variant=match.variant)
                then = dataclasses.replace(then, settings=settings)
            except ScopaError:
                pass  # rules this version no longer reads: today's, as before
    return found
