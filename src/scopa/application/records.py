"""What the use cases answer: a stored match with its sheet, and a line of the match list."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from scopa.match import Match, Sheet
from scopa.store.records import RemovedDeal, StoredMatch


@dataclass(frozen=True, slots=True)
class ScoredMatch:
    """A stored match and its sheet (computed from its facts by the scoring core)."""

    id: int
    version: int
    match: Match
    sheet: Sheet
    created_at: datetime
    updated_at: datetime
    removed: tuple[RemovedDeal, ...]

    @classmethod
    def of(cls, stored: StoredMatch, sheet: Sheet) -> ScoredMatch:
        return cls(
            stored.id,
            stored.version,
            stored.match,
            sheet,
            stored.created_at,
            stored.updated_at,
            stored.removed,
        )

    @property
    def title(self) -> str:
        """The match's name, else its sides: ``Anna vs Bruno``."""
        return self.match.name or " vs ".join(self.sheet.sides)


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """A line of the list of matches."""

    id: int
    name: str | None
    players: tuple[str, ...]
    sides: tuple[str, ...]
    status: str
    winner: str | None
    totals: tuple[int, ...]
    deal_count: int
    created_at: datetime
    updated_at: datetime

    @classmethod
    def of(cls, scored: ScoredMatch) -> MatchSummary:
        sheet = scored.sheet
        return cls(
            scored.id,
            scored.match.name,
            scored.match.players,
            sheet.sides,
            sheet.status,
            sheet.winner,
            sheet.totals,
            len(scored.match.deals),
            scored.created_at,
            scored.updated_at,
        )

    @property
    def title(self) -> str:
        return self.name or " vs ".join(self.sides)
