"""The games against the computer in progress (the Play page), in the SQL database.

A game is kept as its seed and its plays so far: replaying them deals and plays it again
exactly, so nothing else is stored and a restart loses nothing. Each change names the step
it was based on and is written only if the game is still at that step, so two taps racing
(or a stale page) cannot both move the game. On a hosted server what a game stores counts
against its group's bytes (:mod:`scopa.store.quotas`).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, select, update

from scopa.store.database import Database, aware, of_group, valid_id
from scopa.store.models import ComputerGameRow, PlaySeedRow, utcnow
from scopa.store.quotas import charge, size_of
from scopa.store.records import GameWrite

GameFields = dict[str, Any]
"""A game as plain values: id, variant, players, level, seed, log, step, status, match_id,
created_at, updated_at, unverified."""
OPEN_SEEDS = 20
"""The seeds kept issued and not yet used, per group: a device fetches one while it can
reach the server and keeps it for a game dealt without a connection; past this many the
oldest go (a game sent with one of them then counts as dealt from a seed not issued)."""


def _fields(row: ComputerGameRow) -> GameFields:
    return {
        "id": row.id,
        "variant": row.variant,
        "players": row.players,
        "level": row.level,
        "seed": row.seed,
        "log": row.log,
        "step": row.step,
        "status": row.status,
        "match_id": row.match_id,
        "created_at": aware(row.created_at),
        "updated_at": aware(row.updated_at),
        "unverified": row.unverified,
    }


class SqlGames:
    """The ``computer_games`` table, seen from one group (``None``: the one table of a server
    that is not hosted): another group's game is not found, like a game that does not exist."""

    def __init__(self, db: Database, group: int | None = None) -> None:
        self.db = db
        self.group = group

    def _mine(self) -> Any:
        """The condition on ``computer_games`` for this view's group."""
        return of_group(ComputerGameRow.group_id, self.group)

    def create(
        self, *, variant: str, players: int, level: str, seed: int, unverified: str | None = None
    ) -> int:
        """Store a new game (no plays yet); its id. ``unverified``: why the server cannot
        vouch for it (``None``: it can)."""
        with self.db.transaction() as session:
            row = ComputerGameRow(
                variant=variant,
                players=players,
                level=level,
                seed=seed,
                log=[[]],
                step=0,
                status="playing",
                group_id=self.group,
                unverified=unverified,
            )
            session.add(row)
            session.flush()
            charge(
                session, self.group, stored=({"variant": variant, "level": level, "seed": seed},)
            )
            return row.id

    def load(self, game_id: int) -> GameFields | None:
        """The game, or None when there is no such game."""
        if not valid_id(game_id):
            return None
        with self.db.transaction() as session:
            row = session.scalars(
                select(ComputerGameRow).where(ComputerGameRow.id == game_id, self._mine())
            ).first()
            return None if row is None else _fields(row)

    def save(self, game_id: int, move: GameWrite) -> bool:
        """Write the game's plays if it is still at the move's step; whether it was."""
        based_on, log, unverified = move.based_on, move.log, move.unverified
        with self.db.transaction() as session:
            before = session.scalar(
                select(ComputerGameRow.log)
                .where(
                    ComputerGameRow.id == game_id, ComputerGameRow.step == based_on, self._mine()
                )
                .with_for_update()
            )
            if before is None:
                return False
            done = session.execute(
                update(ComputerGameRow)
                .where(
                    ComputerGameRow.id == game_id, ComputerGameRow.step == based_on, self._mine()
                )
                .values(log=log, step=move.step, status=move.status, updated_at=utcnow())
            )
            if unverified is not None:
                session.execute(
                    update(ComputerGameRow)
                    .where(ComputerGameRow.id == game_id, ComputerGameRow.unverified.is_(None))
                    .values(unverified=unverified)
                )
            # The plays a group stores count against its bytes, as its deals do.
            charge(session, self.group, size=max(0, size_of(log) - size_of(before)))
            return bool(getattr(done, "rowcount", 0))

    def attach_match(self, game_id: int, match_id: int) -> bool:
        """Name the match the game's deals go to, unless it has one already; whether it
        took this one."""
        with self.db.transaction() as session:
            done = session.execute(
                update(ComputerGameRow)
                .where(
                    ComputerGameRow.id == game_id,
                    ComputerGameRow.match_id.is_(None),
                    self._mine(),
                )
                .values(match_id=match_id)
            )
            return bool(getattr(done, "rowcount", 0))

    def playing(self, limit: int = 20) -> list[GameFields]:
        """The games still being played, the most recently played first."""
        with self.db.transaction() as session:
            rows = session.scalars(
                select(ComputerGameRow)
                .where(ComputerGameRow.status == "playing", self._mine())
                .order_by(ComputerGameRow.updated_at.desc(), ComputerGameRow.id.desc())
                .limit(limit)
            )
            return [_fields(row) for row in rows]


class SqlSeeds:
    """The ``play_seeds`` table, seen from one group (``None``: the one table of a server
    that is not hosted): the seeds issued for games a device may deal with no connection."""

    def __init__(self, db: Database, group: int | None = None) -> None:
        self.db = db
        self.group = group

    def _mine(self) -> Any:
        return of_group(PlaySeedRow.group_id, self.group)

    def issue(self, seed: int) -> int:
        """Keep ``seed`` as issued (the oldest past :data:`OPEN_SEEDS` go); its ticket."""
        with self.db.transaction() as session:
            row = PlaySeedRow(group_id=self.group, seed=seed)
            session.add(row)
            session.flush()
            kept = select(PlaySeedRow.id).where(self._mine()).order_by(PlaySeedRow.id.desc())
            older = list(session.scalars(kept.offset(OPEN_SEEDS)))
            if older:
                session.execute(delete(PlaySeedRow).where(PlaySeedRow.id.in_(older)))
            return row.id

    def claim(self, ticket: int, seed: int) -> str:
        """Use the seed issued with ``ticket`` for a game: ``"ok"`` (it is gone from now
        on), ``"unknown"`` (never issued to this group, already used or dropped) or
        ``"other"`` (issued, but another seed: kept for the game that has it)."""
        if not valid_id(ticket):
            return "unknown"
        with self.db.transaction() as session:
            row = session.scalars(
                select(PlaySeedRow).where(PlaySeedRow.id == ticket, self._mine()).with_for_update()
            ).first()
            if row is None:
                return "unknown"
            if row.seed != seed:
                return "other"
            session.delete(row)
            return "ok"
