"""SQLAlchemy 2 models: players, matches, deals (the facts, in the deal format), change log.

Row classes end in ``Row`` so they never pass for core records; :mod:`scopa.store.matches`
turns rows into records. Scores are never stored: the sheet is always computed from the facts.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Index, Integer, LargeBinary, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    """The models' common base."""


class PlayerRow(Base):
    """A name remembered from earlier matches (offered when a new match is set up)."""

    __tablename__ = "players"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(40), unique=True)
    last_played_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class MatchRow(Base):
    """A match: its players, teams, settings and version (bumped by every change)."""

    __tablename__ = "matches"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str | None] = mapped_column(String(100))
    variant: Mapped[str] = mapped_column(String(20), default="scopa", server_default="scopa")
    """The variant decides which settings ``rules`` holds and which facts the deals hold."""
    players: Mapped[list[Any]] = mapped_column(JSON)
    teams: Mapped[list[Any] | None] = mapped_column(JSON)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class DealRow(Base):
    """A deal's facts. ``position`` orders the live deals (1-based); a removed deal has none
    and keeps the number it had in ``removed_number`` so that it can be restored there."""

    __tablename__ = "deals"
    __table_args__ = (Index("ix_deals_match_position", "match_id", "position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    position: Mapped[int | None] = mapped_column(Integer)
    facts: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    removed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    removed_number: Mapped[int | None] = mapped_column(Integer)


class ChangeRow(Base):
    """One entry of a match's change log: what changed, when, and the version it made."""

    __tablename__ = "changes"
    __table_args__ = (Index("ix_changes_match", "match_id", "version"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    version: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    action: Mapped[str] = mapped_column(String(20))
    summary: Mapped[str] = mapped_column(Text)
    detail: Mapped[dict[str, Any]] = mapped_column(JSON)


class AccessCodeRow(Base):
    """A code that lets a device on the network in (``scopa serve --lan``).

    Only a hash of the code is stored; a revoked code stays listed with its revocation time.
    """

    __tablename__ = "access_codes"

    id: Mapped[int] = mapped_column(primary_key=True)
    code_hash: Mapped[str] = mapped_column(String(64), unique=True)
    hint: Mapped[str] = mapped_column(String(8))
    label: Mapped[str] = mapped_column(String(40), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class IdempotencyKeyRow(Base):
    """A change request's ``Idempotency-Key`` and the first answer to it (FORMATS.md).

    ``fingerprint`` is a hash of the method, path and body; ``status`` is ``None`` while the
    first request is still being answered. Kept at least 24 hours (:mod:`scopa.web.idempotency`).
    """

    __tablename__ = "idempotency_keys"

    key: Mapped[str] = mapped_column(String(100), primary_key=True)
    fingerprint: Mapped[str] = mapped_column(String(64))
    status: Mapped[int | None] = mapped_column(Integer)
    headers: Mapped[list[Any] | None] = mapped_column(JSON)
    body: Mapped[bytes | None] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
