"""The use cases over matches: what the pages, the API and the CLI do, in one place.

They take and return core records (keyword-only arguments), check what the rules of the game
require, score through the core, and hand facts to a :class:`~scopa.store.Store`. Errors are
the core's and the store's; each edge turns them into its own answer once.

A change checks its facts against the match as read and writes with that version, so what
was checked is what is changed. A change that names no version is retried on a fresh read
when another one got in between.

Recording a deal, the hot path of a busy server, first tries the state of the match this
process remembers (:meth:`~scopa.store.protocol.Matches.peek`): the store's write checks that
the match is still at that very state (version and last-change time) in its own transaction,
so a guess that was out of date stores nothing, and the change is then done the careful way
(read, check, write). Either way the answer is the same; a right guess saves a read.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal, TypeVar

from scopa.application.records import MatchSummary, ScoredMatch, standing_of
from scopa.changes import (
    AddDeal,
    ChangeSettings,
    DeleteDeal,
    MatchChange,
    Rename,
    ReplaceDeal,
    RestoreDeal,
    resolve,
    restored_number,
)
from scopa.deal import Deal
from scopa.errors import (
    InputError,
    InvalidMatchError,
    MatchNotFoundError,
    ScopaError,
    VersionConflictError,
)
from scopa.formats import (
    MAX_DEALS,
    dump_json,
    match_name,
    match_to_json,
    owners_of,
    parse_deal,
    sheet_to_csv,
    sheet_to_json,
)
from scopa.i18n import N_, using
from scopa.match import Match, rescore, score_match
from scopa.rules import Settings
from scopa.sheet import Changes, Sheet
from scopa.store.protocol import Matches
from scopa.store.records import (
    FIRST_PAGE,
    ListPage,
    LogEntry,
    StoredMatch,
    stale_version,
)

MAX_PAGE = 500
MAX_ID = 2**31 - 1
RETRIES = 20
"""How often a change without a version is retried when other changes keep getting in."""

ExportKind = Literal["match", "sheet", "csv"]
T = TypeVar("T")
DealReader = Callable[[Match], Deal]
"""Reads a deal's facts for the match as it is (the owners of its piles depend on it)."""


@dataclass(frozen=True, slots=True)
class Merged:
    """What :meth:`MatchService.merge` did: the merge policy's ``plan`` (``send``, ``drop`` or
    ``conflict``, see :func:`scopa.changes.resolve`), the match as it is now, and for a
    rules change what moved."""

    plan: dict[str, Any]
    scored: ScoredMatch
    changes: Changes | None = None

    @property
    def outcome(self) -> str:
        """``sent``, ``dropped`` or ``conflict``."""
        return "sent" if "send" in self.plan else "dropped" if "drop" in self.plan else "conflict"


class MatchService:
    """The use cases over the matches in a store."""

    def __init__(self, store: Matches) -> None:
        self.store = store

    # Reading

    def get(self, *, match_id: int) -> ScoredMatch:
        """A match and its sheet."""
        return self._scored(self.store.get(match_id))

    def list_matches(self) -> list[MatchSummary]:
        """Every match, newest first, with status and totals (read from the lines the store
        keeps with every change: nothing is loaded or scored)."""
        return self.page(ListPage(limit=MAX_ID))[0]

    def page(self, wanted: ListPage = FIRST_PAGE) -> tuple[list[MatchSummary], bool]:
        """A page of the list (``wanted``), newest first, and whether more follow."""
        while True:
            lines, more = self.store.lines(wanted)
            missing = [line.id for line in lines if not line.summarised]
            if not missing:
                return lines, more
            for match_id in missing:  # once each: then their lines are kept
                self.fill_in(match_id)

    def history(self, *, match_id: int, last: int | None = None) -> list[LogEntry]:
        """The change log of a match, oldest first (with ``last``: its last entries only)."""
        return self.store.history(match_id, last)

    def recent_history(self, *, match_id: int, last: int) -> tuple[list[LogEntry], int]:
        """The last ``last`` entries of the change log (oldest first) and its length."""
        return self.store.recent_history(match_id, last)

    def player_names(self) -> list[str]:
        """Names remembered from earlier matches, most recently played first."""
        return self.store.player_names()

    def export(self, *, match_id: int, kind: ExportKind = "match") -> str:
        """The match file (docs/formats.md), or its sheet as JSON or CSV, as text."""
        scored = self.get(match_id=match_id)
        if kind == "csv":
            return sheet_to_csv(scored.sheet)
        data = match_to_json(scored.match) if kind == "match" else sheet_to_json(scored.sheet)
        return dump_json(data) + "\n"

    # Changing

    def create(self, *, match: Match, uncounted: str | None = None) -> ScoredMatch:
        """Store a new match (deals optional); with ``uncounted`` (why), one kept out of the
        players' figures, ratings and records for good."""
        standing = replace(standing_of(match), uncounted=uncounted)
        return self._kept(match, self.store.create(match=match, standing=standing))

    def uncount(self, *, match_id: int, reason: str) -> None:
        """Keep a match out of the players' figures, ratings and records from now on."""
        self.store.uncount(match_id=match_id, reason=reason)

    def import_match(self, *, match: Match) -> ScoredMatch:
        """Store a match read from a match file (logged as an import)."""
        stored = self.store.create(match=match, action="import", standing=standing_of(match))
        return self._kept(match, stored)

    def record_deal(
        self, *, match_id: int, deal: Deal | DealReader, version: int | None
    ) -> ScoredMatch:
        """Record a deal after the last one (at most :data:`~scopa.formats.MAX_DEALS`);
        ``deal`` may be a reader of its facts, called with the match as it is."""

        def append(current: StoredMatch, guess: bool) -> tuple[Match, StoredMatch]:
            _check_room(current.match)
            one = deal if isinstance(deal, Deal) else deal(current.match)
            _check_owners(one, current.match)
            stamp = current.updated_at if guess else None
            add = AddDeal(match_id=match_id, version=current.version, stamp=stamp, deal=one)
            after = add.after(current)
            sheet = score_match(after)
            add = replace(add, points={"points": points_in(sheet, len(after.deals))})
            return after, self.store.change(add, standing_of(after, sheet))

        remembered = self.store.peek(match_id)
        if remembered is not None and version in (None, remembered.version):
            try:
                after, stored = append(remembered, guess=True)
            except ScopaError:
                pass  # out of date, or refused: the careful way gives the answer
            else:
                return self._kept(after, stored)
        return self._change(match_id, version, lambda current: self._kept(*append(current, False)))

    def replace_deal(
        self, *, match_id: int, number: int, deal: Deal, version: int | None
    ) -> ScoredMatch:
        """Replace deal ``number`` (1-based); the deals after it re-score."""

        def change(current: StoredMatch) -> ScoredMatch:
            _check_owners(deal, current.match)
            edit = ReplaceDeal(match_id=match_id, version=current.version, number=number, deal=deal)
            after = edit.after(current)
            points = {
                "points_before": points_in(score_match(current.match), number),
                "points": points_in(score_match(after), number),
            }
            return self._write(replace(edit, points=points), after)

        return self._change(match_id, version, change)

    def delete_deal(self, *, match_id: int, number: int, version: int | None) -> ScoredMatch:
        """Remove deal ``number``; it can be restored (:meth:`restore_deal`)."""

        def change(current: StoredMatch) -> ScoredMatch:
            delete = DeleteDeal(match_id=match_id, version=current.version, number=number)
            after = delete.after(current)
            points = {"points": points_in(score_match(current.match), number)}
            return self._write(replace(delete, points=points), after)

        return self._change(match_id, version, change)

    def restore_deal(self, *, match_id: int, removed_id: int, version: int | None) -> ScoredMatch:
        """Put a removed deal back at the number it had (or last, if the match is shorter)."""

        def change(current: StoredMatch) -> ScoredMatch:
            restore = RestoreDeal(match_id=match_id, version=current.version, removed_id=removed_id)
            after = restore.after(current)  # a removed deal the match does not have: refused first
            _check_room(current.match)
            number = restored_number(restore.back(current), len(current.match.deals))
            points = {"points": points_in(score_match(after), number)}
            return self._write(replace(restore, points=points), after)

        return self._change(match_id, version, change)

    def change_rules(
        self, *, match_id: int, rules: Mapping[str, Any], version: int | None
    ) -> tuple[ScoredMatch, Changes]:
        """Change some house rules by name (the others stay); the match re-scores from its
        facts. :class:`~scopa.errors.SettingsChangeRefused` when the facts cannot follow."""

        def change(current: StoredMatch) -> tuple[ScoredMatch, Changes]:
            settings = Settings.parse(rules, "rules", base=current.match.settings)
            after, sheet, changes = rescore(current.match, settings)
            if settings == current.match.settings:
                # The rules as they are: nothing to write, so no new version (which would
                # make every other device's open form stale) and no line in the log.
                return self._scored(current), changes
            with using("en"):  # the log keeps English; each reader sees their language
                summary, record = changes.summary(), changes.to_dict()
            keep = ChangeSettings(
                match_id=match_id,
                version=current.version,
                settings=settings,
                summary=summary,
                changes=record,
            )
            return self._write(keep, after, sheet), changes

        return self._change(match_id, version, change)

    def rename(self, *, match_id: int, name: str | None, version: int | None) -> ScoredMatch:
        """Give the match a name (or none: ``None`` or blank), read as a match file's
        (:func:`~scopa.formats.match_name`)."""
        name = match_name(name) or None

        def change(current: StoredMatch) -> ScoredMatch:
            rename = Rename(match_id=match_id, version=current.version, name=name)
            return self._write(rename, rename.after(current))

        return self._change(match_id, version, change)

    def merge(self, *, match_id: int, entry: Mapping[str, Any]) -> Merged:
        """Make a change that was based on a match that moved on meanwhile (a change kept on
        a phone while it was offline, or a page's form another device made stale), as the
        merge policy decides (:func:`scopa.changes.resolve`, ``entry`` as
        :func:`~scopa.changes.read_entry` reads it): sent to the match as it is now, dropped,
        or answered as a conflict for the person to decide. An edit merged field by field
        that the rules refuse is a conflict too (both versions shown)."""
        for attempt in range(RETRIES + 1):
            current = self.store.get(match_id, lock=attempt > 0)
            now: dict[str, Any] = {
                "version": current.version,
                "match": match_to_json(current.match),
                "deal_ids": list(current.deal_ids),
            }
            if entry["kind"] == "rules":  # a value no match takes is refused, not a clash
                Settings.parse(entry["body"], "rules", base=current.match.settings)
            plan = resolve(entry, now)
            send = plan.get("send")
            if send is None:
                return Merged(plan, self._scored(current))
            try:
                scored, changes = self._send(match_id, current, send)
            except VersionConflictError:
                continue
            except InputError as error:
                if not send.get("merged"):
                    raise
                number = send["number"]
                theirs = now["match"]["deals"][number - 1]
                conflict = {"type": "edited", "theirs": theirs, "number": number, "fields": []}
                conflict["refused"] = error.text()
                return Merged({"conflict": conflict}, self._scored(current))
            return Merged(plan, scored, changes)
        raise stale_version(match_id, current.version, current.version - 1)  # pragma: no cover

    def _send(
        self, match_id: int, current: StoredMatch, send: Mapping[str, Any]
    ) -> tuple[ScoredMatch, Changes | None]:
        """Make the change the merge policy sends, on ``current``'s version."""
        version = current.version
        kind = send["kind"]
        if kind == "add":
            body = send["body"]
            reader: DealReader = lambda match: parse_deal(body, match)  # noqa: E731
            return self.record_deal(match_id=match_id, deal=reader, version=version), None
        if kind == "replace":
            deal = parse_deal(send["body"], current.match)
            number = send["number"]
            return self.replace_deal(
                match_id=match_id, number=number, deal=deal, version=version
            ), None
        if kind == "delete":
            return self.delete_deal(match_id=match_id, number=send["number"], version=version), None
        if kind == "restore":
            removed_id = send["removed_id"]
            return self.restore_deal(
                match_id=match_id, removed_id=removed_id, version=version
            ), None
        return self.change_rules(match_id=match_id, rules=send["body"], version=version)

    def delete_match(self, *, match_id: int, version: int | None) -> None:
        """Hide a match from the list; its facts and log stay."""
        self.store.delete_match(match_id=match_id, version=version)

    # Internals

    def _change(self, match_id: int, version: int | None, change: Callable[[StoredMatch], T]) -> T:
        """Run ``change`` on the match as it is, with the version it was read at."""
        for attempt in range(RETRIES + 1):
            # after a clash, read under the row's lock: in a keyed request (one transaction)
            # no other change can come between this read and the write that follows
            current = self.store.get(match_id, lock=attempt > 0)
            if version is not None and version != current.version:
                raise stale_version(match_id, current.version, version)
            try:
                return change(current)
            except VersionConflictError:
                if version is not None or attempt == RETRIES:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    def _write(self, change: MatchChange, after: Match, sheet: Sheet | None = None) -> ScoredMatch:
        """Hand the store ``change`` with the line of the match it leaves (``after``;
        ``sheet``, its sheet if in hand); answer the match kept, scored."""
        return self._kept(after, self.store.change(change, standing_of(after, sheet)))

    def _scored(self, stored: StoredMatch) -> ScoredMatch:
        """The match with its sheet (the core keeps a match's sheet on the match, and the
        store hands back the same record for the same committed state)."""
        return ScoredMatch.of(stored, score_match(stored.match))

    def _kept(self, after: Match, stored: StoredMatch) -> ScoredMatch:
        """A change's answer: the store's record with the sheet already scored for its line
        (``after``, the match as the change left it, is the same facts)."""
        return ScoredMatch.of(stored, score_match(after if stored.match == after else stored.match))

    def fill_in(self, match_id: int) -> None:
        """Hand the store the line (and tally) of a match that has none (stored before
        they were kept, or changed without one)."""
        try:
            stored = self.store.get(match_id)
        except MatchNotFoundError:
            return  # deleted meanwhile: no longer listed
        standing = standing_of(stored.match)
        self.store.keep_standing(match_id=match_id, version=stored.version, standing=standing)


def points_in(sheet: Sheet, number: int) -> dict[str, int]:
    """Each side's points in deal ``number`` (1-based) of a sheet (empty: no such deal)."""
    if not 1 <= number <= sheet.deal_count:
        return {}
    width = len(sheet.sides)
    gains = sheet.gains[(number - 1) * width : number * width]
    return dict(zip(sheet.sides, gains, strict=True))


def _check_room(match: Match) -> None:
    if len(match.deals) >= MAX_DEALS:
        raise InvalidMatchError(
            "deals",
            N_("a match holds at most {max_deals} deals"),
            code="match.match_holds_most_deals",
            max_deals=MAX_DEALS,
        )


def _check_owners(deal: Deal, match: Match) -> None:
    """A deal read for the match as it was, checked against the match as it is (another
    device may have turned partnerships on or off in between): the owners are the only facts
    of a deal that depend on its match."""
    owners_of(dict.fromkeys(deal.owners), match, "piles")
