"""The store's records: the facts of a match as stored (its deals, version, removed deals and
change log) and the access codes. Nothing here is scored: the sheet is computed above the
store, by :mod:`scopa.application`, so another backend never has to score."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from scopa.deal import Deal
from scopa.errors import VersionConflictError
from scopa.match import Match


@dataclass(frozen=True, slots=True)
class RemovedDeal:
    """A deleted deal, kept so that it can be restored at the place it had."""

    id: int
    number: int
    deal: Deal
    removed_at: datetime


@dataclass(frozen=True, slots=True)
class StoredMatch:
    """A match as stored: its facts, its version (bumped by every change) and removed deals."""

    id: int
    version: int
    match: Match
    created_at: datetime
    updated_at: datetime
    removed: tuple[RemovedDeal, ...] = ()


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One entry of a match's change log."""

    id: int
    version: int
    at: datetime
    action: str
    summary: str
    detail: dict[str, Any]


@dataclass(frozen=True, slots=True)
class AccessCode:
    """A code for devices joining over the network; the code itself is never stored."""

    id: int
    hint: str
    label: str
    created_at: datetime
    revoked_at: datetime | None

    @property
    def active(self) -> bool:
        return self.revoked_at is None


def stale_version(match_id: int, current: int, based_on: int) -> VersionConflictError:
    """The error for a change based on an old version of the match."""
    return VersionConflictError(
        f"match {match_id} is at version {current}, the change was based on "
        f"version {based_on}; reload and try again"
    )
