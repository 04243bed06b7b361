"""What one match adds to each of its players' figures (docs/formats.md, "Player statistics").

A match's *tally* is worked out from its sheet, once per change, and kept by the store beside
the match (:mod:`scopa.store.tallies`): a player's figures are then sums of kept tallies,
never a re-scoring of their matches. A player's *side* is the player, or their team with
partnerships on; every figure of a seat is its side's.

>>> from scopa.match import Match
>>> [seat.name for seat in tally_of(Match(("Anna", "Bruno"))).seats]
['Anna', 'Bruno']
"""

from __future__ import annotations

from dataclasses import dataclass

from scopa import variants
from scopa.match import Match, score_match
from scopa.scoring import ALL_CATEGORIES
from scopa.sheet import Sheet

TALLIED = ALL_CATEGORIES
"""The categories a tally counts deals in: every variant's, in the sheet's order."""


@dataclass(frozen=True, slots=True)
class SeatTally:
    """One player's part in one match: their side's figures.

    ``categories`` counts, for each key of the variant's points but ``total``, the scored
    deals in which the side scored more than 0 in it."""

    name: str
    side: int
    """The index of the player's side among the sheet's sides."""
    won: bool
    """The match is won, by this player's side."""
    deals: int
    """The scored deals (those after the end are not counted)."""
    points: int
    sweeps: int
    categories: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class MatchTally:
    """What a match adds to its players' figures: whether it is finished, and a seat each."""

    variant: str
    finished: bool
    seats: tuple[SeatTally, ...]


def tally_of(match: Match, sheet: Sheet | None = None) -> MatchTally:
    """The tally of a match, from its sheet (``sheet``: if in hand)."""
    sheet = score_match(match) if sheet is None else sheet
    keys = variants.get(match.variant).categories
    counted = sheet.counted
    per_side = []
    for index in range(len(sheet.sides)):
        points = [row.points[index] for row in counted]
        categories = tuple((key, sum(1 for p in points if getattr(p, key) > 0)) for key in keys)
        per_side.append((sum(p.total for p in points), sum(p.sweeps for p in points), categories))
    if match.settings.partnerships:
        teams = match.team_members()
        side_of = {player: i for i, team in enumerate(teams) for player in team}
    else:
        side_of = {player: i for i, player in enumerate(match.players)}
    winner = None if sheet.winner is None else sheet.sides.index(sheet.winner)
    seats = tuple(
        SeatTally(
            name=player,
            side=side_of[player],
            won=winner == side_of[player],
            deals=len(counted),
            points=per_side[side_of[player]][0],
            sweeps=per_side[side_of[player]][1],
            categories=per_side[side_of[player]][2],
        )
        for player in match.players
    )
    return MatchTally(match.variant, sheet.winner is not None, seats)


@dataclass(frozen=True, slots=True)
class Record:
    """Matches shared with another player, and how they ended for the player's side
    (``won``) and for the other's (``lost``: the other's side won; partners share it)."""

    matches: int = 0
    won: int = 0
    lost: int = 0


@dataclass(frozen=True, slots=True)
class Figures:
    """A player's figures (docs/formats.md, "Player statistics"): sums of their matches' tallies.
    ``categories`` counts deals per category key (the keys of every variant they played,
    in the sheet's order)."""

    name: str
    matches: int = 0
    won: int = 0
    finished: int = 0
    deals: int = 0
    points: int = 0
    sweeps: int = 0
    categories: tuple[tuple[str, int], ...] = ()
    opponents: tuple[tuple[str, Record], ...] = ()
    partners: tuple[tuple[str, Record], ...] = ()

    @property
    def points_per_deal(self) -> float:
        return self.points / self.deals if self.deals else 0.0

    @property
    def sweeps_per_deal(self) -> float:
        return self.sweeps / self.deals if self.deals else 0.0

    @property
    def win_rate(self) -> float:
        """Matches won of those finished (0 with none finished)."""
        return self.won / self.finished if self.finished else 0.0

    def shares(self) -> dict[str, float]:
        """Each category's share of the deals."""
        return {key: count / self.deals if self.deals else 0.0 for key, count in self.categories}

    def to_json(self) -> dict[str, object]:
        """The figures as docs/formats.md gives them.

        >>> Figures("Anna", matches=1, deals=2, points=5).to_json()["points_per_deal"]
        2.5
        """
        return {
            "name": self.name,
            "matches": self.matches,
            "won": self.won,
            "finished": self.finished,
            "deals": self.deals,
            "points_per_deal": self.points_per_deal,
            "categories": self.shares(),
            "sweeps_per_deal": self.sweeps_per_deal,
            "opponents": {
                name: {"matches": r.matches, "won": r.won, "lost": r.lost}
                for name, r in self.opponents
            },
            "partners": {name: {"matches": r.matches, "won": r.won} for name, r in self.partners},
        }


def category_keys(played: set[str] | frozenset[str] | tuple[str, ...]) -> tuple[str, ...]:
    """The category keys of the variants played, in the sheet's order (Scopa's for none).

    >>> category_keys({"escoba", "cirulla"})
    ('cards', 'coins', 'settebello', 'primiera', 'sweeps', 'declarations', 'piccola', 'grande')
    """
    wanted = {key for name in played or ("scopa",) for key in variants.get(name).categories}
    return tuple(key for key in TALLIED if key in wanted)
