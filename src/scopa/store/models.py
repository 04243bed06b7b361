"""SQLAlchemy 2 models: players, matches, deals (the facts, in the deal format), change log.

Row classes end in ``Row`` so they never pass for core records; :mod:`scopa.store.matches`
turns rows into records. Scores are never stored: the sheet is always computed from the facts.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    """The models' common base."""


class GroupRow(Base):
    """A group of a hosted server (``scopa serve --hosted``): a table, a club, a family. It
    owns its matches and remembered players; devices join it with its code.

    Only a salted scrypt hash of the join code is kept, with its first letters (``hint``) to
    find it. ``used_*`` count what the group has stored, against its limits ``max_*``; they
    are written in the same transaction as each change (:mod:`scopa.store.quotas`).
    """

    __tablename__ = "groups"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    code_hash: Mapped[str] = mapped_column(String(200))
    hint: Mapped[str] = mapped_column(String(8), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    max_matches: Mapped[int] = mapped_column(Integer)
    max_deals: Mapped[int] = mapped_column(Integer)
    max_bytes: Mapped[int] = mapped_column(BigInteger)
    used_matches: Mapped[int] = mapped_column(Integer, default=0)
    used_deals: Mapped[int] = mapped_column(Integer, default=0)
    used_bytes: Mapped[int] = mapped_column(BigInteger, default=0)
    language: Mapped[str | None] = mapped_column(String(8))
    """The language of the group's pages and answers when the reader chose none (``NULL``:
    the reader's browser decides)."""
    max_tables: Mapped[int | None] = mapped_column(Integer)
    """The group's own limit on tables in play at once (``NULL``: the server's)."""
    max_seats: Mapped[int | None] = mapped_column(Integer)
    """The group's own limit on people's seats at them (``NULL``: the server's)."""


class PlayerRow(Base):
    """A name remembered from earlier matches (offered when a new match is set up), per
    group (``group_id`` ``None``: the one table of a server that is not hosted)."""

    __tablename__ = "players"
    __table_args__ = (
        Index(
            "uq_players_name_nogroup",
            "name",
            unique=True,
            sqlite_where=text("group_id IS NULL"),
            postgresql_where=text("group_id IS NULL"),
        ),
        Index(
            "uq_players_group_name",
            "group_id",
            "name",
            unique=True,
            sqlite_where=text("group_id IS NOT NULL"),
            postgresql_where=text("group_id IS NOT NULL"),
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    last_played_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    group_id: Mapped[int | None] = mapped_column(ForeignKey("groups.id"))
    person_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    """The name this one is another name of (a rename's or a merge's), ``None``: a person of
    its own (:mod:`scopa.store.people`)."""
    shown_as: Mapped[str | None] = mapped_column(String(40))
    """A person's name as shown, once renamed (``None``: ``name``)."""
    removed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    """When the person's figures were removed at their request (``None``: shown)."""
    seat: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    """The seat the program gave this name in a match it named seats in (a game against the
    computer's ``You``, ``Computer 2``, ``Partner``; a table's computer seat), as
    :meth:`scopa.made_names.Seat.to_json`: the name is worded in the reader's language
    (``None``: a person's name, shown as typed)."""


class CategoryColumns:
    """A count per category of every variant (:data:`scopa.store.tallies.CATEGORY_COLUMNS`),
    the same columns on a match's tally (:class:`TallyRow`) and on their sums
    (:class:`PlayerTotalRow`); after the row's own columns."""

    cat_cards: Mapped[int] = mapped_column(Integer, default=0, sort_order=1)
    cat_coins: Mapped[int] = mapped_column(Integer, default=0, sort_order=1)
    cat_settebello: Mapped[int] = mapped_column(Integer, default=0, sort_order=1)
    cat_primiera: Mapped[int] = mapped_column(Integer, default=0, sort_order=1)
    cat_sweeps: Mapped[int] = mapped_column(Integer, default=0, sort_order=1)
    cat_napola: Mapped[int] = mapped_column(Integer, default=0, sort_order=1)
    cat_declarations: Mapped[int] = mapped_column(Integer, default=0, sort_order=1)
    cat_piccola: Mapped[int] = mapped_column(Integer, default=0, sort_order=1)
    cat_grande: Mapped[int] = mapped_column(Integer, default=0, sort_order=1)


class TallyRow(CategoryColumns, Base):
    """What one match adds to one of its players' figures (:mod:`scopa.tally`), kept with
    every change of the match in the same transaction (:mod:`scopa.store.tallies`). One row
    per player of a match not deleted; ``cat_*`` count the deals in which the player's side
    scored in each category (those the variant does not have stay 0)."""

    __tablename__ = "tallies"
    __table_args__ = (
        Index("ix_tallies_group_key", "group_id", "key", "match_id"),
        Index("ix_tallies_match", "match_id"),
        Index("ix_tallies_group_played", "group_id", "played_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    group_id: Mapped[int | None] = mapped_column(ForeignKey("groups.id"))
    key: Mapped[str] = mapped_column(String(200))
    """The player's name key (:func:`scopa.names.name_key`) as in the match."""
    name: Mapped[str] = mapped_column(String(40))
    variant: Mapped[str] = mapped_column(String(20))
    played_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    """When the match was created (the periods of the figures)."""
    side: Mapped[int] = mapped_column(Integer)
    finished: Mapped[int] = mapped_column(Integer)
    won: Mapped[int] = mapped_column(Integer)
    deals: Mapped[int] = mapped_column(Integer)
    points: Mapped[int] = mapped_column(Integer)
    sweeps: Mapped[int] = mapped_column(Integer)


class PlayerTotalRow(CategoryColumns, Base):
    """The sums of the tallies per group (``scope``: its id, 0 for the one table), name key
    and variant, kept with every change in the same transaction (:mod:`scopa.store.tallies`):
    the figures read these few rows, whatever the number of matches."""

    __tablename__ = "player_totals"
    __table_args__ = (Index("uq_player_totals", "scope", "key", "variant", unique=True),)

    id: Mapped[int] = mapped_column(primary_key=True)
    scope: Mapped[int] = mapped_column(Integer)
    key: Mapped[str] = mapped_column(String(200))
    variant: Mapped[str] = mapped_column(String(20))
    matches: Mapped[int] = mapped_column(Integer, default=0)
    won: Mapped[int] = mapped_column(Integer, default=0)
    finished: Mapped[int] = mapped_column(Integer, default=0)
    deals: Mapped[int] = mapped_column(Integer, default=0)
    points: Mapped[int] = mapped_column(Integer, default=0)
    sweeps: Mapped[int] = mapped_column(Integer, default=0)


class PairTotalRow(Base):
    """Per group, name key, other name key, side (``same``: 1 as partners) and variant: the
    matches shared, won by the first's side, won by the other's; kept like
    :class:`PlayerTotalRow`."""

    __tablename__ = "pair_totals"
    __table_args__ = (
        Index("uq_pair_totals", "scope", "key", "other", "same", "variant", unique=True),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    scope: Mapped[int] = mapped_column(Integer)
    key: Mapped[str] = mapped_column(String(200))
    other: Mapped[str] = mapped_column(String(200))
    same: Mapped[int] = mapped_column(Integer)
    variant: Mapped[str] = mapped_column(String(20))
    matches: Mapped[int] = mapped_column(Integer, default=0)
    won: Mapped[int] = mapped_column(Integer, default=0)
    lost: Mapped[int] = mapped_column(Integer, default=0)


class PlayerChangeRow(Base):
    """One change of the players as people (a rename, a merge, figures removed), with what
    undoes it (``detail``); ``undone_at`` once undone."""

    __tablename__ = "player_changes"

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int | None] = mapped_column(ForeignKey("groups.id"), index=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    action: Mapped[str] = mapped_column(String(20))
    summary: Mapped[str] = mapped_column(Text)
    detail: Mapped[dict[str, Any]] = mapped_column(JSON)
    undone_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class StatsMarkRow(Base):
    """Per group (``scope``: its id, 0 for the one table), how often the outcomes of its
    matches changed (a match won, lost, reopened, deleted; players renamed or merged) and at
    which count the kept ratings were worked out: they are stale while the two differ."""

    __tablename__ = "stats_marks"

    scope: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    outcomes: Mapped[int] = mapped_column(Integer, default=0)
    rated: Mapped[int] = mapped_column(Integer, default=-1)
    through_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    through_id: Mapped[int | None] = mapped_column(Integer)
    """The last match (by creation, then id) the kept ratings went through."""
    full: Mapped[int] = mapped_column(Integer, default=1)
    """1 when a change moved a match the ratings already went through (or merged people):
    they are then worked out again from the first match; 0 when only newer matches moved,
    which are played on top of the kept ratings."""


class RatingRow(Base):
    """A person's rating (OpenSkill, Plackett-Luce) as last worked out for a group
    (:mod:`scopa.store.ratings`): kept until the group's finished matches change."""

    __tablename__ = "ratings"

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int | None] = mapped_column(ForeignKey("groups.id"), index=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    matches: Mapped[int] = mapped_column(Integer)


class MatchRow(Base):
    """A match: its players, teams, settings and version (bumped by every change)."""

    __tablename__ = "matches"
    __table_args__ = (
        Index("ix_matches_group", "group_id", "id"),
        Index("ix_matches_group_status", "group_id", "status"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int | None] = mapped_column(ForeignKey("groups.id"))
    """The group that owns the match (``None``: the one table of a server not hosted)."""
    name: Mapped[str | None] = mapped_column(String(100))
    name_kind: Mapped[str | None] = mapped_column(String(16))
    """A name the program made (:mod:`scopa.made_names`): its kind (``computer``, ``table``,
    ``rematch``); ``None``: ``name`` is a person's own, or there is none."""
    name_args: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    """The made name's parameters (``{"variant": "Scopa", "level": "normal"}``)."""
    seat_kinds: Mapped[list[Any] | None] = mapped_column(JSON)
    """Who sits in each seat when the program named some (:class:`scopa.made_names.Seat`:
    ``[{"kind": "you"}, {"kind": "computer"}]``); ``None``: every player a person."""
    variant: Mapped[str] = mapped_column(String(20), default="scopa", server_default="scopa")
    """The variant decides which settings ``rules`` holds and which facts the deals hold."""
    players: Mapped[list[Any]] = mapped_column(JSON)
    teams: Mapped[list[Any] | None] = mapped_column(JSON)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    first_dealer: Mapped[int | None] = mapped_column(Integer)
    """The seat that dealt the first deal (``None``, from before it was kept: the first)."""
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    summary: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    """The list's line (players, sides, variant, status, winner, totals, deal count), written
    in the same transaction as every change; ``None`` on rows from before it was kept."""
    status: Mapped[str | None] = mapped_column(String(16))
    player_key: Mapped[str | None] = mapped_column(Text)
    uncounted: Mapped[str | None] = mapped_column(String(24))
    """Why the match is kept out of the players' figures, ratings and records (``None``: it
    counts): a game against the computer the server could not verify
    (:mod:`scopa.application.computer`), for one."""
    """Each player's name key between separators (``|anna|bruno|``), for the list's filter."""


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
    code_hash: Mapped[str] = mapped_column(String(200), unique=True)
    """``scrypt$N$r$p$salt$hash``: salted and slow, so a stolen backup does not give it away."""
    hint: Mapped[str] = mapped_column(String(8))
    label: Mapped[str] = mapped_column(String(40), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    kind: Mapped[str] = mapped_column(String(10), default="")
    """``serve`` for the code a ``scopa serve --lan`` printed (the next one retires it)."""


class DeviceRow(Base):
    """A device that joined with a code: its own random token (only a hash is kept)."""

    __tablename__ = "devices"

    id: Mapped[int] = mapped_column(primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    label: Mapped[str] = mapped_column(String(80), default="")
    code_id: Mapped[int | None] = mapped_column(ForeignKey("access_codes.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    last_used_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    group_id: Mapped[int | None] = mapped_column(ForeignKey("groups.id"), index=True)
    """The group this token lets in (hosted mode); ``None`` for a ``--lan`` device."""


class JoinFailureRow(Base):
    """A wrong code offered from an address, kept a few minutes so that every process of the
    server counts the same failures (:mod:`scopa.store.failures`)."""

    __tablename__ = "join_failures"
    __table_args__ = (Index("ix_join_failures_address", "address", "at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    address: Mapped[str] = mapped_column(String(64))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class IdempotencyKeyRow(Base):
    """A change request's ``Idempotency-Key`` and the first answer to it (docs/formats.md).

    ``fingerprint`` is a hash of the method, path and body. The row is written in the
    change's own transaction and committed with its answer (:mod:`scopa.store.keys`), so a
    committed row always has one (``status`` is ``None`` only on rows from before that).
    ``body`` is the answer if short, else a reference; ``size`` is what was charged to the
    group ``group_id``. Kept at least 24 hours."""

    __tablename__ = "idempotency_keys"

    key: Mapped[str] = mapped_column(String(120), primary_key=True)
    """The client's key; on a hosted server, prefixed by the group (``7:key``)."""
    fingerprint: Mapped[str] = mapped_column(String(64))
    status: Mapped[int | None] = mapped_column(Integer)
    headers: Mapped[list[Any] | None] = mapped_column(JSON)
    body: Mapped[bytes | None] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    group_id: Mapped[int | None] = mapped_column(Integer)
    size: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class GameColumns:
    """The columns a game the engine plays again from its seed has, on the Play page
    (:class:`ComputerGameRow`) and at a table online (:class:`TableRow`): the variant, the
    seats, the computer's level, the seed, every play so far (``log``, deal by deal), the
    steps, how it stands, the match its finished deals are stored in and the group it
    belongs to."""

    variant: Mapped[str] = mapped_column(String(20))
    players: Mapped[int] = mapped_column(Integer)
    level: Mapped[str] = mapped_column(String(20))
    seed: Mapped[int] = mapped_column(BigInteger)
    log: Mapped[list[Any]] = mapped_column(JSON)
    step: Mapped[int] = mapped_column(Integer, default=0)
    """How many plays and new deals so far: a move names the step it was based on."""
    status: Mapped[str] = mapped_column(String(12), default="playing")
    match_id: Mapped[int | None] = mapped_column(ForeignKey("matches.id", ondelete="SET NULL"))
    group_id: Mapped[int | None] = mapped_column(ForeignKey("groups.id"), index=True)
    """The group that plays it on a hosted server (``None``: the one table)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class PlaySeedRow(Base):
    """A seed the server issued for a game a device may deal while it cannot reach the
    server (``POST /play/seeds``); it goes when a game is sent with it. At most
    :data:`scopa.store.games.OPEN_SEEDS` are kept per group, the oldest go first."""

    __tablename__ = "play_seeds"

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int | None] = mapped_column(ForeignKey("groups.id"), index=True)
    seed: Mapped[int] = mapped_column(BigInteger)
    issued_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ComputerGameRow(GameColumns, Base):
    """A game against the computer in progress on the Play page: its seed and every play so
    far (``log``, deal by deal) are enough to deal and play it again after a restart. Its
    finished deals are stored in the match ``match_id`` like any other match's."""

    __tablename__ = "computer_games"

    id: Mapped[int] = mapped_column(primary_key=True)
    unverified: Mapped[str | None] = mapped_column(String(24))
    """Why the server cannot vouch for the game (``None``: dealt and played here, or played
    on a device from a seed issued here with the computer's plays replayed): its match then
    does not count (``matches.uncounted``)."""


class TableRow(GameColumns, Base):
    """A table where friends play together online (:mod:`scopa.application.tables`): its seed
    and every play of its match so far (``log``: ``[card, capture, by]``, deal by deal).
    ``step`` counts the moves (a move names the step it saw), ``version`` every change the
    seats are told of. Moments the game's clock gives (``moved_at``, ``claimed_at``) are
    seconds since the epoch."""

    __tablename__ = "tables"

    id: Mapped[int] = mapped_column(primary_key=True)
    code: Mapped[str] = mapped_column(String(16), unique=True)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    grace: Mapped[int] = mapped_column(Integer)
    clock: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """Seconds a present seat has for each play before the computer plays for it (the turn
    clock; 0: none)."""
    version: Mapped[int] = mapped_column(Integer, default=1)
    turn: Mapped[int | None] = mapped_column(Integer)
    """The seat to move once every seat is taken (``None``: nobody to move)."""
    moved_at: Mapped[float] = mapped_column(Float)
    claimed_at: Mapped[float | None] = mapped_column(Float)
    """No longer written (the computer's claim before issue 47's one commit a play)."""
    player: Mapped[str | None] = mapped_column(String(40))
    """The server process that wrote the last move, which plays the computer's next one
    (:data:`scopa.store.tables.TAKEOVER`; ``None``: any process)."""


class TableSeatRow(Base):
    """One seat of a table: who plays it, a hash of its token (the token itself is only
    ever given to the seat), its last sign of life."""

    __tablename__ = "table_seats"
    __table_args__ = (Index("ix_table_seats_table_seat", "table_id", "seat", unique=True),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str | None] = mapped_column(String(80))
    kind: Mapped[str] = mapped_column(String(10))
    level: Mapped[str | None] = mapped_column(String(20))
    token_hash: Mapped[str | None] = mapped_column(String(64), index=True)
    seen_at: Mapped[float | None] = mapped_column(Float)
