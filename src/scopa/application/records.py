"""What the use cases answer: a stored match with its sheet, and a line of the match list."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from scopa.match import Match, Sheet, score_match
from scopa.store.records import MatchLine, RemovedDeal, Standing, StoredMatch


def title_of(name: str | None, sides: Sequence[str]) -> str:
    """How a match is called: its name, else its sides (``Anna vs Bruno``)."""
    return name or " vs ".join(sides)


def standing_of(match: Match, sheet: Sheet | None = None) -> Standing:
    """A match's line of the list, scored by the core (``sheet``: its sheet, if in hand)."""
    sheet = score_match(match) if sheet is None else sheet
    return Standing(
        players=match.players,
        sides=sheet.sides,
        variant=match.variant,
        status=sheet.status,
        winner=sheet.winner,
        totals=sheet.totals,
        deal_count=len(match.deals),
    )


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
        return title_of(self.match.name, self.sheet.sides)


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
    variant: str = "scopa"

    @classmethod
    def of_line(cls, line: MatchLine) -> MatchSummary:
        """From the line the store keeps with every change (nothing scored here)."""
        return cls(
            line.id,
            line.name,
            line.players,
            line.sides,
            line.status,
            line.winner,
            line.totals,
            line.deal_count,
            line.created_at,
            line.updated_at,
            line.variant,
        )

    @property
    def title(self) -> str:
        return title_of(self.name, self.sides)
