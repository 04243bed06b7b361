"""The changes a stored match can go through, one record each: what the application hands
:meth:`~scopa.store.protocol.Matches.change` (the match, the version the change is based on,
and what changes), the name each has in the change log (``action``), and what it does to the
facts (``after``), which the use cases score and every store answers with."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, ClassVar

from scopa.deal import Deal
from scopa.match import Match
from scopa.rules import Settings
from scopa.store.records import (
    RemovedDeal,
    StoredMatch,
    no_deal,
    no_removed_deal,
    restored_number,
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Change:
    """What every change names: the match, and the version it is based on (``None``:
    whatever is there; another one is refused with
    :class:`~scopa.errors.VersionConflictError`, writing nothing). With ``stamp``, the match
    must also have been last changed at that moment (a state from
    :meth:`~scopa.store.protocol.Matches.peek`: same version, same time)."""

    match_id: int
    version: int | None
    stamp: datetime | None = None
    points: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    """What the change did to the points, worked out by the use case as it makes the change
    (``{"points": {side: n}}``, and ``"points_before"`` for an edit): kept in the log entry's
    detail, so that showing the log never re-reads or re-scores a deal."""


@dataclass(frozen=True, slots=True, kw_only=True)
class AddDeal(Change):
    """Record ``deal`` after the last one."""

    deal: Deal
    action: ClassVar[str] = "add_deal"

    def after(self, stored: StoredMatch) -> Match:
        """The match as the change leaves it."""
        return stored.match.with_deals((*stored.match.deals, self.deal))


@dataclass(frozen=True, slots=True, kw_only=True)
class ReplaceDeal(Change):
    """Replace deal ``number`` (1-based) with ``deal``."""

    number: int
    deal: Deal
    action: ClassVar[str] = "replace_deal"

    def after(self, stored: StoredMatch) -> Match:
        """The match as the change leaves it (:class:`~scopa.errors.DealNotFoundError` if
        it has no deal ``number``)."""
        deals = _deals_with(stored, self.number)
        deals[self.number - 1] = self.deal
        return stored.match.with_deals(deals)


@dataclass(frozen=True, slots=True, kw_only=True)
class DeleteDeal(Change):
    """Remove deal ``number``; it is kept and can be restored (:class:`RestoreDeal`)."""

    number: int
    action: ClassVar[str] = "delete_deal"

    def after(self, stored: StoredMatch) -> Match:
        """The match as the change leaves it (:class:`~scopa.errors.DealNotFoundError` if
        it has no deal ``number``)."""
        deals = _deals_with(stored, self.number)
        del deals[self.number - 1]
        return stored.match.with_deals(deals)


@dataclass(frozen=True, slots=True, kw_only=True)
class RestoreDeal(Change):
    """Put the removed deal ``removed_id`` back at the number it had (or last, if the match
    is shorter now)."""

    removed_id: int
    action: ClassVar[str] = "restore_deal"

    def back(self, stored: StoredMatch) -> RemovedDeal:
        """The removed deal that comes back (:class:`~scopa.errors.DealNotFoundError` if the
        match has no such removed deal)."""
        back = next((r for r in stored.removed if r.id == self.removed_id), None)
        if back is None:
            raise no_removed_deal(stored.id, self.removed_id)
        return back

    def after(self, stored: StoredMatch) -> Match:
        """The match as the change leaves it (:meth:`back` refuses a removed deal it does
        not have)."""
        back = self.back(stored)
        deals = list(stored.match.deals)
        deals.insert(restored_number(back, len(deals)) - 1, back.deal)
        return stored.match.with_deals(deals)


@dataclass(frozen=True, slots=True, kw_only=True)
class ChangeSettings(Change):
    """Keep new house rules; ``summary`` and ``changes`` (what moved) go in the log."""

    settings: Settings
    summary: str
    changes: dict[str, Any]
    action: ClassVar[str] = "settings"

    def after(self, stored: StoredMatch) -> Match:
        """The match as the change leaves it."""
        return dataclasses.replace(stored.match, settings=self.settings)


@dataclass(frozen=True, slots=True, kw_only=True)
class Rename(Change):
    """Give the match a name (an empty one or ``None``: no name)."""

    name: str | None
    action: ClassVar[str] = "rename"

    def after(self, stored: StoredMatch) -> Match:
        """The match as the change leaves it."""
        return dataclasses.replace(stored.match, name=self.name or None)


MatchChange = AddDeal | ReplaceDeal | DeleteDeal | RestoreDeal | ChangeSettings | Rename
"""Every change of a match but its creation and deletion."""


def _deals_with(stored: StoredMatch, number: int) -> list[Deal]:
    """The deals of a match that has a deal ``number``."""
    deals = list(stored.match.deals)
    if not 1 <= number <= len(deals):
        raise no_deal(stored.id, number)
    return deals
