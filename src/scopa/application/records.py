"""What the use cases answer: a stored match with its sheet, and a line of the match list."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from scopa.match import Match, score_match
from scopa.sheet import Sheet
from scopa.store.records import MatchLine, RemovedDeal, Standing, StoredMatch, title_of
from scopa.tally import tally_of


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
        tally=tally_of(match, sheet),
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
    uncounted: str | None = None
    """Why the match is kept out of the players' figures (``None``: it counts)."""
    deal_ids: tuple[int, ...] = ()
    """Each live deal's identity, in order (:attr:`~scopa.store.records.StoredMatch.deal_ids`)."""

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
            stored.uncounted,
            stored.deal_ids,
        )

    @property
    def title(self) -> str:
        return title_of(self.match.name, self.sheet.sides, self.match.made, self.match)


MatchSummary = MatchLine
"""A line of the list of matches, as the store keeps it with every change (nothing scored
here); :meth:`~scopa.application.MatchService.page` answers only lines that are filled in."""
