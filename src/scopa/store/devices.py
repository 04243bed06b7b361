"""Access codes and device tokens (``scopa serve --lan``), with nothing a backup gives away.

- A code (``ABCD-EFGH``, about 40 bits) is shown once and stored as a salted scrypt hash, so
  trying codes against a stolen backup costs tens of milliseconds each; it expires
  (``expires_at``, 12 hours by default) and the code a ``scopa serve --lan`` prints
  (``kind="serve"``) retires the previous serve's code.
- A device that joins with a valid code gets its own random token (256 bits, so its SHA-256
  is safe to keep), revocable one by one, listed with a label and its last use (written at
  most once a minute per device).
- These are the tokens of the one table (``--lan``); a hosted group's tokens
  (:mod:`scopa.store.groups`) are not listed, checked or revoked here.
- Checks read the active tokens at most every couple of seconds, so a revocation takes
  effect within seconds in a running server.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import UTC, datetime, timedelta

from sqlalchemy import or_, select, update
from sqlalchemy.orm import Session

from scopa.errors import InputError
from scopa.i18n import N_
from scopa.store.models import AccessCodeRow, DeviceRow, utcnow
from scopa.store.records import MOST_CODE_HOURS, AccessCode, Device

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I
CODE_LENGTH = 8
CODE_HOURS = 12.0
CACHE_SECONDS = 2.0
LAST_USE_EVERY = 60.0
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1

Transaction = Callable[[], AbstractContextManager[Session]]


def normalise_code(code: str) -> str:
    """Codes are read case-insensitively, ignoring spaces and dashes."""
    return "".join(ch for ch in code.upper() if ch.isascii() and ch.isalnum())


def hash_code(code: str, salt: bytes | None = None) -> str:
    """``scrypt$N$r$p$salt$hash`` of the normalised code (a new random salt unless given)."""
    salt = secrets.token_bytes(16) if salt is None else salt
    digest = hashlib.scrypt(
        normalise_code(code).encode(), salt=salt, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P, dklen=32
    )
    encode = base64.b64encode
    return (
        f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${encode(salt).decode()}${encode(digest).decode()}"
    )


def code_matches(code: str, stored: str) -> bool:
    """Whether ``code`` is the one ``stored`` was made from (constant-time comparison)."""
    parts = stored.split("$")
    if len(parts) != 6 or parts[0] != "scrypt":
        return False  # an unsalted hash from before: never accepted
    try:
        n, r, p = int(parts[1]), int(parts[2]), int(parts[3])
        salt, digest = base64.b64decode(parts[4]), base64.b64decode(parts[5])
        candidate = hashlib.scrypt(
            normalise_code(code).encode(), salt=salt, n=n, r=r, p=p, dklen=len(digest)
        )
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(candidate, digest)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def issue_token(
    session: Session, label: str, *, code_id: int | None = None, group_id: int | None = None
) -> str:
    """A new device token, let in by access code ``code_id`` (``--lan``) or into group
    ``group_id`` (hosted); returned once, only its hash is kept."""
    token = secrets.token_urlsafe(32)
    now = utcnow()
    session.add(
        DeviceRow(
            token_hash=hash_token(token),
            label=label[:80],
            code_id=code_id,
            group_id=group_id,
            created_at=now,
            last_used_at=now,
        )
    )
    return token


def _aware(moment: datetime | None) -> datetime | None:
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


def _code_record(row: AccessCodeRow) -> AccessCode:
    created = _aware(row.created_at)
    assert created is not None
    return AccessCode(
        row.id,
        row.hint,
        row.label,
        created,
        _aware(row.revoked_at),
        _aware(row.expires_at),
        row.kind or "",
    )


def _device_record(row: DeviceRow) -> Device:
    created, used = _aware(row.created_at), _aware(row.last_used_at)
    assert created is not None
    assert used is not None
    return Device(row.id, row.label, created, used, _aware(row.revoked_at))


class AccessStore:
    """Codes and devices in the database, through ``transaction`` (a new session per call)."""

    def __init__(self, transaction: Transaction) -> None:
        self._transaction = transaction
        self._lock = threading.Lock()
        self._tokens: tuple[float, dict[str, int]] | None = None
        self._last_use: dict[int, float] = {}

    # Codes

    def new_access_code(
        self, label: str = "", *, kind: str = "", hours: float | None = CODE_HOURS
    ) -> tuple[str, AccessCode]:
        """A new random code (shown once, as ``ABCD-EFGH``) and its record. A ``serve`` code
        retires the codes earlier serves printed. ``hours`` is from above 0 to
        :data:`MOST_CODE_HOURS` (``None``: the code never expires); anything else is an
        :class:`~scopa.errors.InputError`."""
        if hours is not None and not 0 < hours <= MOST_CODE_HOURS:  # NaN too
            raise InputError(
                "hours",
                N_("{value} is outside the allowed values ({allowed})"),
                code="store.outside_allowed_values",
                value=str(hours)[:40],
                allowed=f"0-{MOST_CODE_HOURS}",
            )
        raw = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        code = f"{raw[:4]}-{raw[4:]}"
        now = utcnow()
        with self._transaction() as session:
            if kind:
                session.execute(
                    update(AccessCodeRow)
                    .where(AccessCodeRow.kind == kind, AccessCodeRow.revoked_at.is_(None))
                    .values(revoked_at=now)
                )
            row = AccessCodeRow(
                code_hash=hash_code(code),
                hint=raw[:2],
                label=label[:40],
                created_at=now,
                expires_at=None if hours is None else now + timedelta(hours=hours),
                kind=kind,
            )
            session.add(row)
            session.flush()
            return code, _code_record(row)

    def access_codes(self) -> list[AccessCode]:
        """Every access code ever made, newest first (revoked and expired ones included)."""
        with self._transaction() as session:
            rows = session.scalars(select(AccessCodeRow).order_by(AccessCodeRow.id.desc()))
            return [_code_record(row) for row in rows]

    def _usable_codes(self, session: Session) -> list[AccessCodeRow]:
        now = utcnow()
        return list(
            session.scalars(
                select(AccessCodeRow).where(
                    AccessCodeRow.revoked_at.is_(None),
                    or_(AccessCodeRow.expires_at.is_(None), AccessCodeRow.expires_at > now),
                )
            )
        )

    def _usable_hashes(self) -> list[tuple[int, str]]:
        """The ids and hashes of the usable codes, read in a short transaction: the slow
        hash of a code offered is then worked out with no transaction open (on SQLite, a
        transaction holds the database's write lock)."""
        with self._transaction() as session:
            return [(row.id, row.code_hash) for row in self._usable_codes(session)]

    def check_access_code(self, code: str) -> bool:
        """Whether ``code`` is an active, unexpired access code."""
        return any(code_matches(code, digest) for _, digest in self._usable_hashes())

    def revoke_access_code(self, which: str) -> list[AccessCode]:
        """Revoke a code, given the code itself, its id, or ``all`` (which also revokes every
        device); returns the codes revoked."""
        now = utcnow()
        with self._transaction() as session:
            query = select(AccessCodeRow).where(AccessCodeRow.revoked_at.is_(None))
            if which.isascii() and which.isdigit() and len(which) < 10:
                query = query.where(AccessCodeRow.id == int(which))
            rows = list(session.scalars(query))
            if which != "all" and not (which.isascii() and which.isdigit()):
                rows = [row for row in rows if code_matches(which, row.code_hash)]
            for row in rows:
                row.revoked_at = now
            if which == "all":
                session.execute(
                    update(DeviceRow)
                    .where(DeviceRow.revoked_at.is_(None), DeviceRow.group_id.is_(None))
                    .values(revoked_at=now)
                )
            session.flush()
            revoked = [_code_record(row) for row in rows]
        self._tokens = None
        return revoked

    # Devices

    def join(self, code: str, label: str) -> str | None:
        """A new device token for a valid code (``None`` if the code is wrong, expired or
        revoked). The token is returned once; only its hash is kept."""
        found = next((i for i, digest in self._usable_hashes() if code_matches(code, digest)), None)
        if found is None:
            return None
        with self._transaction() as session:
            if found not in {row.id for row in self._usable_codes(session)}:
                return None  # revoked or expired while its hash was worked out
            token = issue_token(session, label, code_id=found)
        self._tokens = None
        return token

    def check_device(self, token: str) -> bool:
        """Whether ``token`` belongs to a device not revoked (and note its last use)."""
        if not token or len(token) > 200:
            return False
        device = self._active_tokens().get(hash_token(token))
        if device is None:
            return False
        now = time.monotonic()
        if now - self._last_use.get(device, -LAST_USE_EVERY) >= LAST_USE_EVERY:
            self._last_use[device] = now
            with self._transaction() as session:
                session.execute(
                    update(DeviceRow).where(DeviceRow.id == device).values(last_used_at=utcnow())
                )
        return True

    def devices(self) -> list[Device]:
        """Every device that joined, newest first (revoked ones included)."""
        with self._transaction() as session:
            rows = session.scalars(
                select(DeviceRow).where(DeviceRow.group_id.is_(None)).order_by(DeviceRow.id.desc())
            )
            return [_device_record(row) for row in rows]

    def revoke_device(self, which: str) -> list[Device]:
        """Revoke one device by its id (or ``all``); returns those revoked."""
        with self._transaction() as session:
            query = select(DeviceRow).where(
                DeviceRow.revoked_at.is_(None), DeviceRow.group_id.is_(None)
            )
            if which != "all":
                if not (which.isascii() and which.isdigit() and len(which) < 10):
                    return []
                query = query.where(DeviceRow.id == int(which))
            rows = list(session.scalars(query))
            now = utcnow()
            for row in rows:
                row.revoked_at = now
            session.flush()
            revoked = [_device_record(row) for row in rows]
        self._tokens = None
        return revoked

    def _active_tokens(self) -> dict[str, int]:
        cached = self._tokens
        if cached is not None and time.monotonic() - cached[0] < CACHE_SECONDS:
            return cached[1]
        with self._transaction() as session:
            rows = session.execute(
                select(DeviceRow.token_hash, DeviceRow.id).where(
                    DeviceRow.revoked_at.is_(None), DeviceRow.group_id.is_(None)
                )
            ).all()
        tokens: dict[str, int] = {str(h): int(d) for h, d in rows}
        self._tokens = (time.monotonic(), tokens)
        return tokens
