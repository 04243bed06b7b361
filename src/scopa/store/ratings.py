"""Each person's rating, as rows: the finished matches replayed in the order they were
played, each a ranking of its sides (the winning side first, the others tied behind), are
handed to the rating model the store is given (:data:`scopa.store.protocol.Rater`; the model
itself is the application's, :mod:`scopa.application.ratings`). The ratings are kept
(``ratings``) and worked out again, from the kept tallies only, when the group's outcomes
have moved since (``stats_marks``: a match won, reopened, deleted; two players merged)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from scopa.store.database import of_group
from scopa.store.models import RatingRow, TallyRow
from scopa.store.people import People
from scopa.store.protocol import Rater
from scopa.store.records import Rating
from scopa.store.tallies import mark_of


def _replay(
    session: Session, group: int | None, people: People, rate: Rater, start: Any = None
) -> tuple[dict[int, Rating], Any]:
    """The ratings from the finished matches in order (from those kept, over the matches
    after ``start``, a ``(created_at, id)``, if given), and the last match gone through."""
    mine = of_group(TallyRow.group_id, group)
    query = select(TallyRow.match_id, TallyRow.key, TallyRow.side, TallyRow.won, TallyRow.played_at)
    query = query.where(mine, TallyRow.finished == 1)
    kept: dict[int, Rating] = {}
    if start is not None:
        at, match_id = start
        query = query.where(
            (TallyRow.played_at > at)
            | ((TallyRow.played_at == at) & (TallyRow.match_id > match_id))
        )
        kept_rows = session.scalars(select(RatingRow).where(of_group(RatingRow.group_id, group)))
        kept = {r.person_id: Rating(r.mu, r.sigma, r.matches) for r in kept_rows}
    rows = session.execute(query.order_by(TallyRow.played_at, TallyRow.match_id, TallyRow.side))
    games: list[list[list[int]]] = []
    ranks: list[list[float]] = []
    current: int | None = None
    last = start
    sides: dict[int, list[int]] = {}
    winner: set[int] = set()

    def close() -> None:
        if len(sides) >= 2:
            order = sorted(sides)
            games.append([sides[s] for s in order])
            ranks.append([1.0 if s in winner else 2.0 for s in order])

    for match_id, key, side, won, played_at in rows:
        if match_id != current:
            close()
            current, sides, winner = match_id, {}, set()
            last = (played_at, match_id)
        person = people.of_key(key)
        sides.setdefault(side, []).append(person.id if person is not None else -abs(hash(key)))
        if won:
            winner.add(side)
    close()
    return rate(games, ranks, kept), last


def ratings_of(
    session: Session, group: int | None, people: People, rate: Rater
) -> dict[int, Rating]:
    """The kept ratings; when the outcomes moved since, worked out again first: on top of
    those kept when only newer matches moved, else from the first match."""
    mark = mark_of(session, group)
    mine = of_group(RatingRow.group_id, group)
    if mark.rated == mark.outcomes:
        rows = session.scalars(select(RatingRow).where(mine))
        return {r.person_id: Rating(r.mu, r.sigma, r.matches) for r in rows}
    start = None
    if not mark.full and mark.through_at is not None and mark.through_id is not None:
        start = (mark.through_at, mark.through_id)
    fresh, last = _replay(session, group, people, rate, start)
    session.execute(delete(RatingRow).where(mine))
    session.add_all(
        RatingRow(group_id=group, person_id=p, mu=r.mu, sigma=r.sigma, matches=r.matches)
        for p, r in fresh.items()
        if p > 0
    )
    mark.rated, mark.full = mark.outcomes, 0
    mark.through_at, mark.through_id = (None, None) if last is None else last
    return fresh
