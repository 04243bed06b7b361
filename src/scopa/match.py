"""A match: players, teams, settings and deals; its score sheet is a fold over the deals.

Re-scoring after a settings change is the same fold with other settings, never a patch of
stored totals (docs/rules.md sections 6 and 7).
"""

from __future__ import annotations

import dataclasses
from bisect import bisect_left
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import accumulate, chain, compress, count, repeat
from operator import is_not
from typing import Any, NamedTuple

from scopa.columns import KeyColumn
from scopa.deal import Deal, Pile
from scopa.errors import InvalidDealError, InvalidMatchError, SettingsChangeRefused
from scopa.i18n import N_, NN_
from scopa.made_names import MadeName, Seat, check_seat_kinds
from scopa.rules import Settings
from scopa.scoring import Points, cappotto_of, packed, points_table, score_sides
from scopa.sheet import Changes, DealScore, Sheet, diff_sheets
from scopa.teams import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    TEAM_JOIN,
    check_partnerships,
    check_players,
    check_teams,
    seat_teams,
    team_name,
)


@dataclass(frozen=True, slots=True)
class Match:
    """The recorded facts of a match: everything the sheet is computed from."""

    players: tuple[str, ...]
    settings: Settings = dataclasses.field(default_factory=Settings)
    deals: tuple[Deal, ...] = ()
    teams: tuple[tuple[str, ...], ...] | None = None
    """Teams given explicitly; ``None`` = seats alternate when partnerships are on."""
    name: str | None = None
    first_dealer: int = 0
    """The seat (index into ``players``) of the player who deals the first deal; the deal
    then passes to the next seat after each deal (:meth:`dealer_of`)."""
    made: MadeName | None = None
    """The name as data when the program made it (``name`` is then its English wording),
    shown in the reader's language; ``None``: a name a person typed, or none."""
    seat_kinds: tuple[Seat, ...] = ()
    """Who sits in each seat (aligned with ``players``) when the program named some of them
    (a game against the computer, a table's computer seats): each such player's name is then
    the seat's English wording, and it is shown in the reader's language from this data; ``()``:
    every player a person, their names shown as typed."""
    cached_sheet: Sheet | None = dataclasses.field(
        default=None, init=False, compare=False, repr=False
    )
    """The sheet's cache: :func:`score_match` keeps the sheet here the first time (the match
    is immutable, so its sheet never changes)."""
    cached_keys: SideKeys | None = dataclasses.field(
        default=None, init=False, compare=False, repr=False
    )
    """The scorer's cache: the deals' packed facts per scoring side, which no setting but the
    sides changes (:meth:`with_settings` hands them on when the sides stay)."""

    def __post_init__(self) -> None:
        check_players(self.players)
        self.settings.definition.check_players(len(self.players))
        if not 0 <= self.first_dealer < len(self.players):
            raise InvalidMatchError(
                "first_dealer",
                N_("seat {seat} does not exist: the match has {count} players"),
                code="match.first_dealer_seat",
                seat=self.first_dealer + 1,
                count=len(self.players),
            )
        if self.seat_kinds:
            check_seat_kinds(self.players, self.seat_kinds)
        if self.teams is not None:
            check_teams(self.players, self.teams)
        if self.settings.partnerships:
            check_partnerships(self.players)

    @property
    def variant(self) -> str:
        """The match's variant (``scopa`` unless chosen otherwise when it was created)."""
        return self.settings.variant

    def dealer_of(self, number: int) -> str:
        """Who deals deal ``number`` (1-based): the first dealer, then after each deal the
        player to the dealer's right, who led it: the next seat in seating order, which is
        the order of play (docs/rules.md, "Who deals").

        >>> m = Match(("Anna", "Bruno", "Carla"), first_dealer=1)
        >>> [m.dealer_of(n) for n in (1, 2, 3, 4)]
        ['Bruno', 'Carla', 'Anna', 'Bruno']
        """
        return self.players[(self.first_dealer + number - 1) % len(self.players)]

    @property
    def next_dealer(self) -> str:
        """Who deals the next deal to record."""
        return self.dealer_of(len(self.deals) + 1)

    def team_members(self) -> tuple[tuple[str, ...], ...]:
        """The two teams (given, or seats alternating)."""
        return self.teams if self.teams is not None else seat_teams(self.players)

    def team_names(self) -> tuple[str, ...]:
        return tuple(team_name(team) for team in self.team_members())

    @property
    def sides(self) -> tuple[str, ...]:
        """The scoring sides: the players, or the teams with partnerships on."""
        return self.team_names() if self.settings.partnerships else self.players

    def owners_allowed(self) -> tuple[tuple[str, ...], ...]:
        """The sets of pile owners a deal may be recorded with, in canonical order."""
        if self.settings.partnerships:
            return (self.players, self.team_names())
        return (self.players,)

    def with_settings(self, settings: Settings) -> Match:
        """The same facts under other settings; refused when the facts cannot follow."""
        if settings.variant != self.settings.variant:
            raise SettingsChangeRefused(
                N_(
                    "variant: the variant is chosen when the match is created and cannot be changed"
                ),
                code="rules.variant_variant_chosen_when",
            )
        if settings.partnerships != self.settings.partnerships:
            by_category = next(
                (n for n, d in enumerate(self.deals, 1) if d.categories is not None), None
            )
            if by_category is not None:
                raise SettingsChangeRefused(
                    N_(
                        "partnerships cannot be changed: deal {number} was recorded as who took "
                        "each point, which cannot be split among partners or pooled"
                    ),
                    code="rules.partnerships_category_deal",
                    number=by_category,
                )
        if not settings.partnerships and self.settings.partnerships:
            teams = set(self.team_names())
            per_team = [i for i, d in enumerate(self.deals, 1) if set(d.owners) <= teams]
            if per_team:
                listed = ", ".join(str(n) for n in per_team)
                raise SettingsChangeRefused(
                    NN_(
                        "partnerships cannot be turned off: deal {listed} was recorded per "
                        "team, and a shared pile cannot be split",
                        "partnerships cannot be turned off: deals {listed} were recorded per "
                        "team, and a shared pile cannot be split",
                        "deals",
                    ),
                    code="rules.partnerships_cannot_turned_off",
                    listed=listed,
                    deals=len(per_team),
                )
        if settings.partnerships and not self.settings.partnerships:
            try:
                check_partnerships(self.players)
            except InvalidMatchError as error:
                raise SettingsChangeRefused(
                    error.template, code=error.code, **error.params
                ) from None
        changed = dataclasses.replace(self, settings=settings)
        if self.cached_keys is not None and changed.sides == self.cached_keys.sides:
            object.__setattr__(changed, "cached_keys", self.cached_keys)
        return changed

    def with_deals(self, deals: Sequence[Deal]) -> Match:
        return dataclasses.replace(self, deals=tuple(deals))

    def side_deal(self, deal: Deal) -> Deal:
        """A deal's facts per scoring side: the deal itself when it was recorded per side,
        else partners' piles pooled and their sweeps, declarations and ace sweeps added up."""
        sides = self.sides
        if deal.owners == sides:
            return deal
        if not self.settings.partnerships:
            raise InvalidDealError(
                "piles",
                N_("the deal was recorded per team, partnerships are off"),
                code="deal.deal_recorded_per_team",
            )
        if deal.categories is not None:
            raise InvalidDealError(
                "categories",
                N_("the deal was recorded as who took each point for {owners}, not {sides}"),
                code="deal.categories_other_sides",
                owners=", ".join(deal.owners),
                sides=", ".join(sides),
            )
        teams = self.team_members()
        index = {owner: i for i, owner in enumerate(deal.owners)}
        members = [[index[p] for p in team] for team in teams]
        piles = tuple(Pile.pool([deal.piles[i] for i in team]) for team in members)
        sweeps = tuple(sum(deal.sweeps[i] for i in team) for team in members)
        declarations = tuple(
            tuple(kind for i in team for kind in deal.declared(i)) for team in members
        )
        aces = tuple(sum(deal.ace_sweeps_of(i) for i in team) for team in members)

        def side_of(owner: str | None) -> str | None:
            if owner is None:
                return None
            return next(s for s, team in zip(sides, teams, strict=True) if owner in team)

        return Deal(
            sides,
            piles,
            sweeps,
            side_of(deal.last_capture),
            declarations=declarations,
            ace_sweeps=aces,
            last_play_cleared=side_of(deal.last_play_cleared),
        )

    def side_facts(self, deal: Deal) -> tuple[tuple[Pile, ...], tuple[int, ...], int | None]:
        """A deal's piles, sweeps and last capture per scoring side (partners pooled)."""
        side = self.side_deal(deal)
        return side.piles, side.sweeps, side.last_index

    def points(self, deal: Deal) -> tuple[Points, ...]:
        """A deal's points per scoring side under this match's settings: the one scorer."""
        return score_sides(self.side_deal(deal), self.settings)


def decide(totals: Sequence[int], target: int) -> int | None:
    """The index of the winning side once anyone has reached the target, if unique.

    >>> decide([11, 9], 11), decide([12, 12], 11), decide([10, 9], 11)
    (0, None, None)
    """
    top = max(totals)
    if top < target:
        return None
    leaders = [i for i, total in enumerate(totals) if total == top]
    return leaders[0] if len(leaders) == 1 else None


def score_match(match: Match) -> Sheet:
    """The sheet of a match: a pure fold over its deals under its settings.

    Each deal is scored by the one scorer (:mod:`scopa.scoring`): its packed facts per side
    (partners' piles pooled first) through the table of points for these settings. With
    Cirulla's ``cappotto`` ``win``, a side holding all ten coins wins at the end of that deal.
    The sheet is kept on the match, which is immutable.

    The fold runs a side at a time: its points in every deal, its running totals; then the
    first deal that decides the match (points are never negative, so a running total never
    falls); the deals after it keep the totals it left.
    """
    if match.cached_sheet is not None:
        return match.cached_sheet
    settings = match.settings
    sides = match.sides
    facts = side_keys(match)
    column = facts.column
    keys = column.keys
    table = points_table(settings)
    gains = column.totals(table)
    width = len(sides)
    running = [list(accumulate(gains[side::width])) for side in range(width)]
    deals = len(keys) // width  # a match has two sides or more
    cappottos = facts.cappottos
    cappotto_wins = settings.definition.cappotto and settings.cappotto == "win"
    decision = _decision(running, settings.target, cappottos if cappotto_wins else None)
    end, winner, decided_at, by_cappotto = deals, None, None, False
    totals = tuple(side[-1] for side in running) if deals else (0,) * width
    if decision is not None:
        index, leader, by_cappotto = decision
        end = decided_at = index + 1
        totals = tuple(side[index] for side in running)
        winner = sides[leader]

    def make_rows(start: int = 0, stop: int | None = None) -> tuple[DealScore, ...]:
        """The rows of deals ``start + 1`` to ``stop`` (all by default), made alone."""
        stop = deals if stop is None else max(start, min(stop, deals))
        table.fill(column.distinct)
        points = list(map(table.__getitem__, keys[start * width : stop * width]))
        by_deal = list(zip(*[iter(points)] * width, strict=True))
        totals_after = list(zip(*(side[start:stop] for side in running), strict=True))
        by_side: list[str | None] = [None if c is None else sides[c] for c in cappottos[start:stop]]
        if not cappottos:
            by_side = [None] * (stop - start)
        split = max(start, min(end, stop)) - start  # the rows before it count
        counted = zip(
            count(start + 1), by_deal[:split], totals_after[:split], repeat(False), by_side[:split]
        )
        rows = list(map(_new_row, repeat(DealScore), counted))
        if start + split < stop:
            after = zip(
                count(start + split + 1),
                by_deal[split:],
                repeat(totals),
                repeat(True),
                by_side[split:],
            )
            rows.extend(map(_new_row, repeat(DealScore), after))
        return tuple(rows)

    sheet = Sheet(
        sides, gains, totals, winner, decided_at, settings.variant, by_cappotto, make_rows
    )
    object.__setattr__(match, "cached_sheet", sheet)
    return sheet


class SideKeys(NamedTuple):
    """A match's packed facts per scoring side (see :mod:`scopa.scoring`): settings change
    none of them, only the sides they were pooled for."""

    sides: tuple[str, ...]
    column: KeyColumn
    """Deal by deal, each side's key."""
    cappottos: tuple[int | None, ...]
    """Cirulla: deal by deal, the side whose pile held all ten coins, if any."""


def side_keys(match: Match) -> SideKeys:
    """The packed facts of a match's deals per scoring side, worked out once per match."""
    cached = match.cached_keys
    if cached is not None:
        return cached
    sides = match.sides
    per_deal = [
        deal.packed if deal.owners is sides and deal.packed is not None else _side_keys(match, deal)
        for deal in match.deals
    ]
    cappottos = tuple(map(cappotto_of, per_deal)) if match.settings.definition.cappotto else ()
    found = SideKeys(sides, KeyColumn.of(tuple(chain.from_iterable(per_deal))), cappottos)
    object.__setattr__(match, "cached_keys", found)
    return found


def _side_keys(match: Match, deal: Deal) -> tuple[int, ...]:
    """A deal's packed facts per scoring side (partners' piles pooled first)."""
    if deal.owners != match.sides:
        deal = match.side_deal(deal)
    return packed(deal)


def _decision(
    running: Sequence[Sequence[int]], target: int, cappottos: Sequence[int | None] | None
) -> tuple[int, int, bool] | None:
    """The deal (its index) that decides a match, the winning side (its index) and whether by
    a cappotto, from each side's running totals (which never fall); ``cappottos``: per deal,
    the side holding all ten coins when that wins (at the end of its deal, before points)."""
    cappotto = None
    if cappottos is not None:
        cappotto = next(compress(count(), map(is_not, cappottos, repeat(None))), None)
    last = len(running[0]) if cappotto is None else cappotto  # a match has two sides or more
    index = min(map(bisect_left, running, repeat(target), repeat(0), repeat(last)))
    while index < last:  # a top reached by more than one side waits for the next deal
        leader = decide([side[index] for side in running], target)
        if leader is not None:
            return index, leader, False
        index += 1
    if cappottos is not None and cappotto is not None:
        side = cappottos[cappotto]
        assert side is not None
        return cappotto, side, True
    return None


_new_row: Callable[[type[DealScore], Iterable[Any]], DealScore] = tuple.__new__
"""A sheet's row from its values in field order (as ``DealScore(...)``, without a call of the
named tuple's constructor per deal)."""


def rescore(match: Match, settings: Settings | Mapping[str, Any]) -> tuple[Match, Sheet, Changes]:
    """Re-score a match under new settings (a full record, or some settings by name).

    Returns the match with the new settings, its sheet and what changed. Raises
    :class:`SettingsChangeRefused` (and changes nothing) when the facts cannot follow.
    """
    if not isinstance(settings, Settings):
        settings = Settings.parse(settings, base=match.settings)
    before = score_match(match)  # first: the match's packed facts then pass to the new one
    new_match = match.with_settings(settings)
    after = score_match(new_match)
    changed = tuple(
        (name, value, getattr(settings, name))
        for name, value in match.settings.to_dict().items()
        if getattr(settings, name) != value
    )
    return new_match, after, diff_sheets(before, after, changed)


__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "TEAM_JOIN",
    "Match",
    "check_partnerships",
    "check_players",
    "check_teams",
    "decide",
    "rescore",
    "score_match",
    "seat_teams",
    "team_name",
]
