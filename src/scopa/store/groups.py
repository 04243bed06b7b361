"""Groups of a hosted server (``scopa serve --hosted``) and the device tokens that let in.

- A group is made with a join code (``XXXX-XXXX-XXXX``, 60 bits) shown once; only a salted
  scrypt hash of it is kept, with its first four letters (``hint``) so that a code offered is
  checked against one or two groups, not all of them.
- A device that offers a group's code gets its own random token (256 bits; only its SHA-256
  is kept) that lets it into that group alone. A device in several groups holds one token
  each. Tokens are revoked one by one, or all of a group's with the group.
- A token is checked against the database at most every :data:`CACHE_SECONDS` per process,
  so a revocation takes effect within seconds in every process of the server. A server
  checks every token it holds in one query a second (:meth:`GroupStore.refresh`), so a busy
  server does not ask once per request; the last uses are written in the same sweep.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Collection, Mapping
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select, update

from scopa import i18n
from scopa.errors import InputError, too_long
from scopa.i18n import N_
from scopa.store.devices import (
    CODE_ALPHABET,
    LAST_USE_EVERY,
    Transaction,
    code_matches,
    hash_code,
    hash_token,
    issue_token,
    normalise_code,
)
from scopa.store.models import DeviceRow, GroupRow, utcnow
from scopa.store.quotas import MAX_BYTES, MAX_DEALS, MAX_MATCHES, charge
from scopa.store.records import Device, Group, Limits, Member

GROUP_CODE_LENGTH = 12
HINT_LENGTH = 4
CACHE_SECONDS = 2.0
REFRESH_LAPSE = 5.0
"""Without a sweep for this long, a last use is written at once (no server is sweeping)."""
KEEP_SECONDS = 60.0
"""A token unused for this long is no longer checked by the sweep (nor kept)."""
CACHE_SIZE = 10_000
MAX_NAME = 80
DEFAULT_LIMITS = Limits(max_matches=MAX_MATCHES, max_deals=MAX_DEALS, max_bytes=MAX_BYTES)
MOST_TABLES = 100_000
"""The largest limit on tables or seats a group may have (as ``scopa serve``'s)."""
SETTINGS = ("language", "max_tables", "max_seats")
"""A group's own settings (:meth:`GroupStore.set_settings`); ``None``: not its own."""


def checked_settings(settings: Mapping[str, object]) -> dict[str, str | int | None]:
    """A group's settings (by name, ``None`` for "not its own") checked: ``language`` one
    of :data:`scopa.i18n.LANGUAGES` (``it-IT`` counts as ``it``), ``max_tables`` and
    ``max_seats`` whole numbers from 1 to :data:`MOST_TABLES`. Anything else is an
    :class:`~scopa.errors.InputError` naming the setting.

    >>> checked_settings({"language": "it-IT", "max_tables": 3, "max_seats": None})
    {'language': 'it', 'max_tables': 3, 'max_seats': None}
    """
    found: dict[str, str | int | None] = {}
    for name, value in settings.items():
        if name not in SETTINGS:
            raise InputError(
                name,
                N_("no group setting is called {name}"),
                code="group.no_such_setting",
                name=name,
            )
        if value is None:
            found[name] = None
        elif name == "language":
            text = value.strip() if isinstance(value, str) else ""
            language = None if text.startswith(("C", "POSIX")) else i18n.normal(text[:40])
            if language is None:
                raise InputError(
                    name,
                    N_("{value} is not a language spoken here ({allowed})"),
                    code="group.language_not_spoken",
                    value=str(value)[:40],
                    allowed=", ".join(i18n.LANGUAGES),
                )
            found[name] = language
        elif isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MOST_TABLES:
            found[name] = value
        else:
            raise InputError(
                name,
                N_("{value} is outside the allowed values ({allowed})"),
                code="store.outside_allowed_values",
                value=str(value)[:40],
                allowed=f"1-{MOST_TABLES}",
            )
    return found


def _aware(moment: datetime | None) -> datetime | None:
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


def new_group_code() -> str:
    """A random join code, ``XXXX-XXXX-XXXX`` (no 0/O, 1/I)."""
    raw = "".join(secrets.choice(CODE_ALPHABET) for _ in range(GROUP_CODE_LENGTH))
    return "-".join(raw[i : i + 4] for i in range(0, GROUP_CODE_LENGTH, 4))


def group_record(row: GroupRow, devices: int = 0) -> Group:
    created = _aware(row.created_at)
    assert created is not None
    return Group(
        row.id,
        row.name,
        created,
        _aware(row.revoked_at),
        row.max_matches,
        row.max_deals,
        row.max_bytes,
        row.used_matches,
        row.used_deals,
        row.used_bytes,
        devices,
        row.language,
        row.max_tables,
        row.max_seats,
    )


DEVICE_BYTES = 256
"""What a joined device's row is counted as against its group's bytes."""


class GroupStore:
    """Groups and their device tokens in the database, through ``transaction``."""

    def __init__(self, transaction: Transaction) -> None:
        self._transaction = transaction
        self._lock = threading.Lock()
        self._members: dict[str, tuple[float, Member | None]] = {}
        self._last_use: dict[int, float] = {}
        self._used: dict[str, float] = {}
        self._due: set[int] = set()
        self._refreshed = -REFRESH_LAPSE
        self._generation = 0
        """Counts :meth:`forget`: a check read from the database before a change made here
        (a setting, a revocation) is not kept after it."""

    # Groups

    def create_group(
        self,
        name: str,
        limits: Limits = Limits(),
        settings: Mapping[str, object] | None = None,
    ) -> tuple[Group, str]:
        """A new group and its join code (shown once: only a hash is kept); the limits not
        given are the defaults; ``settings`` its own language and table limits
        (:func:`checked_settings`; those not given are not its own)."""
        own = checked_settings(settings or {})
        clean = " ".join(name.split())
        if not clean:
            raise InputError("name", N_("a group needs a name"), code="group.group_needs_name")
        if len(clean) > MAX_NAME:
            raise too_long(
                "name", clean, MAX_NAME, code="group.group_name_most_characters", error=InputError
            )
        chosen = DEFAULT_LIMITS.given() | limits.given()
        code = new_group_code()
        with self._transaction() as session:
            row = GroupRow(
                name=clean,
                code_hash=hash_code(code),
                hint=normalise_code(code)[:HINT_LENGTH],
                created_at=utcnow(),
                **chosen,
                **own,
                used_matches=0,
                used_deals=0,
                used_bytes=0,
            )
            session.add(row)
            session.flush()
            return group_record(row), code

    def groups(self) -> list[Group]:
        """Every group, oldest first (revoked ones included), with its devices counted."""
        with self._transaction() as session:
            found = session.execute(
                select(DeviceRow.group_id, func.count())
                .where(DeviceRow.group_id.is_not(None), DeviceRow.revoked_at.is_(None))
                .group_by(DeviceRow.group_id)
            ).all()
            counts = {int(group or 0): int(count) for group, count in found}
            rows = session.scalars(select(GroupRow).order_by(GroupRow.id))
            return [group_record(row, int(counts.get(row.id, 0))) for row in rows]

    def group(self, group_id: int) -> Group | None:
        with self._transaction() as session:
            row = session.get(GroupRow, group_id) if 0 < group_id < 2**31 else None
            return None if row is None else group_record(row)

    def _set_columns(self, group_id: int, given: Mapping[str, object]) -> Group | None:
        """Set a group's columns to ``given`` (checked before); ``None`` if there is no such
        group."""
        with self._transaction() as session:
            row = session.get(GroupRow, group_id, with_for_update=True)
            if row is None:
                return None
            for name, value in given.items():
                setattr(row, name, value)
            session.flush()
            return group_record(row)

    def set_limits(self, group_id: int, limits: Limits) -> Group | None:
        """Change a group's limits (those given); ``None`` if there is no such group."""
        return self._set_columns(group_id, limits.given())

    def set_settings(self, group_id: int, settings: Mapping[str, object]) -> Group | None:
        """Change a group's own settings (those given; ``None`` for "not its own any more",
        see :func:`checked_settings`); ``None`` if there is no such group. The devices of the
        group see the change within :data:`CACHE_SECONDS` or so."""
        record = self._set_columns(group_id, checked_settings(settings))
        self.forget()
        return record

    def revoke_group(self, group_id: int) -> Group | None:
        """Revoke a group: its code stops working and every device token of it is revoked
        (its matches stay in the database, out of reach). ``None`` if there is no such group."""
        now = utcnow()
        with self._transaction() as session:
            row = session.get(GroupRow, group_id) if 0 < group_id < 2**31 else None
            if row is None:
                return None
            if row.revoked_at is None:
                row.revoked_at = now
            session.execute(
                update(DeviceRow)
                .where(DeviceRow.group_id == group_id, DeviceRow.revoked_at.is_(None))
                .values(revoked_at=now)
            )
            session.flush()
            record = group_record(row)
        self.forget()
        return record

    # Devices

    def join_group(self, code: str, label: str) -> tuple[str, Group] | None:
        """A new device token for the group whose code this is (``None`` for a wrong code or
        a revoked group). The token is returned once; only its hash is kept."""
        wanted = normalise_code(code)
        if len(wanted) != GROUP_CODE_LENGTH:
            return None
        with self._transaction() as session:  # read, then hash with no transaction open
            candidates = session.execute(
                select(GroupRow.id, GroupRow.code_hash).where(
                    GroupRow.hint == wanted[:HINT_LENGTH], GroupRow.revoked_at.is_(None)
                )
            ).all()
        found = next((i for i, digest in candidates if code_matches(wanted, digest)), None)
        if found is None:
            return None
        with self._transaction() as session:
            row = session.get(GroupRow, found)
            if row is None or row.revoked_at is not None:
                return None  # revoked while its hash was worked out
            token = issue_token(session, label, group_id=found)
            charge(session, found, size=DEVICE_BYTES)  # a device kept counts, as a deal does
            return token, group_record(row)

    def member(self, token: str) -> Member | None:
        """The device and group a token lets in (``None``: unknown, revoked, or of a revoked
        group)."""
        if not token or len(token) > 200:
            return None
        digest = hash_token(token)
        now = time.monotonic()
        cached = self._members.get(digest)
        if cached is not None and now - cached[0] < CACHE_SECONDS:
            found = cached[1]
        else:
            generation = self._generation
            found = self._lookup(digest)
            with self._lock:
                if len(self._members) >= CACHE_SIZE:
                    self._members.clear()
                if generation == self._generation:  # else read before a change: not kept
                    self._members[digest] = (now, found)
        if found is not None:
            self._used[digest] = now
        if found is not None and now - self._last_use.get(found.device, -LAST_USE_EVERY) >= (
            LAST_USE_EVERY
        ):
            self._last_use[found.device] = now
            if now - self._refreshed < REFRESH_LAPSE:
                with self._lock:  # written by the next sweep
                    self._due.add(found.device)
            else:
                self._write_last_use({found.device})
        return found

    def known_member(self, token: str) -> tuple[bool, Member | None]:
        """``(True, member)`` when :meth:`member` can answer for ``token`` without the
        database (checked a moment ago, no last use to write now), else ``(False, None)``:
        a server's event loop answers most requests so, without a thread."""
        if not token or len(token) > 200:
            return True, None
        digest = hash_token(token)
        now = time.monotonic()
        cached = self._members.get(digest)
        if cached is None or now - cached[0] >= CACHE_SECONDS:
            return False, None
        found = cached[1]
        if found is not None:
            due = now - self._last_use.get(found.device, -LAST_USE_EVERY) >= LAST_USE_EVERY
            if due and now - self._refreshed >= REFRESH_LAPSE:
                return False, None  # no sweep: member() writes the last use
            self._used[digest] = now
            if due:
                self._last_use[found.device] = now
                with self._lock:
                    self._due.add(found.device)
        return True, found

    def refresh(self) -> None:
        """Check again, in one query, every token this process let in during the last
        :data:`KEEP_SECONDS`, and forget the others; write the last uses that are due. A
        server calls this every second or so, so its requests find their token checked."""
        now = time.monotonic()
        with self._lock:
            generation = self._generation
            recent = [d for d, used in self._used.items() if now - used < KEEP_SECONDS]
            self._used = {d: self._used[d] for d in recent}
            due, self._due = self._due, set()
        valid: dict[str, Member] = {}
        with self._transaction() as session:
            for start in range(0, len(recent), 500):
                for digest, *member in session.execute(
                    _member_query().where(DeviceRow.token_hash.in_(recent[start : start + 500]))
                ):
                    valid[digest] = _member(member)
        with self._lock:
            if generation == self._generation:  # a change made meanwhile: checked again later
                self._members = {d: (now, valid.get(d)) for d in recent}
            self._refreshed = now
        if due:
            self._write_last_use(due)

    def active_devices(self, devices: Collection[int]) -> set[int]:
        """Those of ``devices`` whose token is not revoked, nor their group."""
        wanted, found = sorted(devices), set[int]()
        with self._transaction() as session:
            for start in range(0, len(wanted), 500):
                found.update(
                    session.scalars(
                        select(DeviceRow.id)
                        .join(GroupRow, GroupRow.id == DeviceRow.group_id)
                        .where(
                            DeviceRow.id.in_(wanted[start : start + 500]),
                            DeviceRow.revoked_at.is_(None),
                            GroupRow.revoked_at.is_(None),
                        )
                    )
                )
        return found

    def _write_last_use(self, devices: set[int]) -> None:
        with self._transaction() as session:
            session.execute(
                update(DeviceRow)
                .where(DeviceRow.id.in_(sorted(devices)))
                .values(last_used_at=utcnow())
            )

    def _lookup(self, digest: str) -> Member | None:
        with self._transaction() as session:
            row = session.execute(
                _member_query().where(DeviceRow.token_hash == digest)
            ).one_or_none()
        return None if row is None else _member(row[1:])

    def group_devices(self, group_id: int | None = None) -> list[tuple[Device, int]]:
        """The devices that joined a group (every group's if ``None``), newest first, each
        with its group."""
        with self._transaction() as session:
            query = select(DeviceRow).where(DeviceRow.group_id.is_not(None))
            if group_id is not None:
                query = query.where(DeviceRow.group_id == group_id)
            rows = session.scalars(query.order_by(DeviceRow.id.desc()))
            return [(_device(row), int(row.group_id or 0)) for row in rows]

    def revoke_group_device(self, device_id: int) -> bool:
        """Revoke one device's token of a group; whether there was such an active one."""
        with self._transaction() as session:
            done = session.execute(
                update(DeviceRow)
                .where(
                    DeviceRow.id == device_id,
                    DeviceRow.group_id.is_not(None),
                    DeviceRow.revoked_at.is_(None),
                )
                .values(revoked_at=utcnow())
            )
            changed = bool(getattr(done, "rowcount", 0))
        self.forget()
        return changed

    def forget(self) -> None:
        """Drop this process's cached token checks (after a revocation made here)."""
        with self._lock:
            self._members.clear()
            self._generation += 1


def _member_query() -> Any:
    """The active tokens: hash, device, group, the group's name and its own settings."""
    return (
        select(
            DeviceRow.token_hash,
            DeviceRow.id,
            GroupRow.id,
            GroupRow.name,
            GroupRow.language,
            GroupRow.max_tables,
            GroupRow.max_seats,
        )
        .join(GroupRow, GroupRow.id == DeviceRow.group_id)
        .where(DeviceRow.revoked_at.is_(None), GroupRow.revoked_at.is_(None))
    )


def _member(found: Any) -> Member:
    """A member from a row of :func:`_member_query` without its hash."""
    device, group, name, language, max_tables, max_seats = found
    return Member(int(device), int(group), str(name), language, max_tables, max_seats)


def _device(row: DeviceRow) -> Device:
    created, used = _aware(row.created_at), _aware(row.last_used_at)
    assert created is not None
    assert used is not None
    return Device(row.id, row.label, created, used, _aware(row.revoked_at))


__all__ = ["GroupStore", "new_group_code"]
