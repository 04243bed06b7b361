"""Access codes (``scopa serve --lan``): made, listed, revoked and checked.

Only a hash of each code is stored; a check compares in constant time against the active
codes, which are re-read at most every couple of seconds so a revocation takes effect soon.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time

from sqlalchemy import select

from scopa.store.database import Database, aware
from scopa.store.models import AccessCodeRow, utcnow
from scopa.store.records import AccessCode

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I
CODE_LENGTH = 8
ACCESS_CACHE_SECONDS = 2.0


def normalise_code(code: str) -> str:
    """Codes are read case-insensitively, ignoring spaces and dashes."""
    return "".join(ch for ch in code.upper() if ch.isalnum())


def hash_code(code: str) -> str:
    return hashlib.sha256(normalise_code(code).encode()).hexdigest()


class SqlAccessCodes:
    """The access codes in the database (see :class:`scopa.store.protocol.AccessCodes`)."""

    db: Database
    _access_cache: tuple[float, tuple[str, ...]] | None = None

    def new_access_code(self, label: str = "") -> tuple[str, AccessCode]:
        """A new random code (shown once, as ``ABCD-EFGH``) and its record."""
        raw = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        code = f"{raw[:4]}-{raw[4:]}"
        with self.db.transaction() as session:
            row = AccessCodeRow(
                code_hash=hash_code(code), hint=raw[:2], label=label[:40], created_at=utcnow()
            )
            session.add(row)
            session.flush()
            record = _access_record(row)
        self._access_cache = None
        return code, record

    def access_codes(self) -> list[AccessCode]:
        """Every access code ever made, newest first (revoked ones included)."""
        with self.db.transaction() as session:
            rows = session.scalars(select(AccessCodeRow).order_by(AccessCodeRow.id.desc()))
            return [_access_record(row) for row in rows]

    def revoke_access_code(self, which: str) -> list[AccessCode]:
        """Revoke a code, given the code itself, its id, or ``all``; returns those revoked."""
        with self.db.transaction() as session:
            query = select(AccessCodeRow).where(AccessCodeRow.revoked_at.is_(None))
            if which != "all":
                if which.isdigit():
                    query = query.where(AccessCodeRow.id == int(which))
                else:
                    query = query.where(AccessCodeRow.code_hash == hash_code(which))
            rows = session.scalars(query).all()
            now = utcnow()
            for row in rows:
                row.revoked_at = now
            session.flush()
            revoked = [_access_record(row) for row in rows]
        self._access_cache = None
        return revoked

    def check_access_code(self, code: str) -> bool:
        """Whether ``code`` is an active access code (compared in constant time)."""
        candidate = hash_code(code)
        found = False
        for known in self._active_hashes():
            found |= hmac.compare_digest(candidate, known)
        return found

    def _active_hashes(self) -> tuple[str, ...]:
        cached = self._access_cache
        if cached is not None and time.monotonic() - cached[0] < ACCESS_CACHE_SECONDS:
            return cached[1]
        with self.db.transaction() as session:
            hashes = tuple(
                session.scalars(
                    select(AccessCodeRow.code_hash).where(AccessCodeRow.revoked_at.is_(None))
                )
            )
        self._access_cache = (time.monotonic(), hashes)
        return hashes


def _access_record(row: AccessCodeRow) -> AccessCode:
    return AccessCode(
        row.id,
        row.hint,
        row.label,
        aware(row.created_at),
        None if row.revoked_at is None else aware(row.revoked_at),
    )
