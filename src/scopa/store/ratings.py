"""Each person's rating: OpenSkill's Plackett-Luce model over the finished matches in the
order they were played, each a ranking of its sides (the winning side first, the others
tied behind), partners rated as a team. The ratings are kept (``ratings``) and worked out
again, from the kept tallies only, when the group's outcomes have moved since
(``stats_marks``: a match won, reopened, deleted; two players merged)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from scopa.store.models import RatingRow, StatsMarkRow, TallyRow
from scopa.store.people import People
from scopa.store.records import Rating
from scopa.store.tallies import outcomes_moved, scope_of


def rate(games: list[list[list[int]]], ranks: list[list[float]]) -> dict[int, Rating]:
    """Ratings from games in order: each a list of teams (lists of person ids), ranked
    (1 first; equal ranks tie)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    held: dict[int, Any] = {}
    played: dict[int, int] = {}
    for teams, rank in zip(games, ranks, strict=True):
        current = [[held.setdefault(p, model.rating()) for p in team] for team in teams]
        after = model.rate(current, ranks=rank)
        for team, rated in zip(teams, after, strict=True):
            for person, one in zip(team, rated, strict=True):
                held[person] = one
                played[person] = played.get(person, 0) + 1
    return {p: Rating(r.mu, r.sigma, played[p]) for p, r in held.items()}


def _replay(session: Session, group: int | None, people: People) -> dict[int, Rating]:
    mine = TallyRow.group_id.is_(None) if group is None else TallyRow.group_id == group
    rows = session.execute(
        select(TallyRow.match_id, TallyRow.key, TallyRow.side, TallyRow.won)
        .where(mine, TallyRow.finished == 1)
        .order_by(TallyRow.played_at, TallyRow.match_id, TallyRow.side)
    )
    games: list[list[list[int]]] = []
    ranks: list[list[float]] = []
    current: int | None = None
    sides: dict[int, list[int]] = {}
    winner: set[int] = set()

    def close() -> None:
        if len(sides) >= 2:
            order = sorted(sides)
            games.append([sides[s] for s in order])
            ranks.append([1.0 if s in winner else 2.0 for s in order])

    for match_id, key, side, won in rows:
        if match_id != current:
            close()
            current, sides, winner = match_id, {}, set()
        person = people.of_key(key)
        sides.setdefault(side, []).append(person.id if person is not None else -abs(hash(key)))
        if won:
            winner.add(side)
    close()
    return rate(games, ranks)


def ratings_of(session: Session, group: int | None, people: People) -> dict[int, Rating]:
    """The kept ratings, worked out again first if the outcomes moved since."""
    scope = scope_of(group)
    mark = session.get(StatsMarkRow, scope, with_for_update=True)
    if mark is None:
        outcomes_moved(session, group)
        mark = session.get_one(StatsMarkRow, scope, with_for_update=True, populate_existing=True)
    mine = RatingRow.group_id.is_(None) if group is None else RatingRow.group_id == group
    if mark.rated == mark.outcomes:
        rows = session.scalars(select(RatingRow).where(mine))
        return {r.person_id: Rating(r.mu, r.sigma, r.matches) for r in rows}
    fresh = _replay(session, group, people)
    session.execute(delete(RatingRow).where(mine))
    session.add_all(
        RatingRow(group_id=group, person_id=p, mu=r.mu, sigma=r.sigma, matches=r.matches)
        for p, r in fresh.items()
        if p > 0
    )
    mark.rated = mark.outcomes
    return fresh
