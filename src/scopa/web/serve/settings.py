"""How the server runs, in one record (:class:`WebSettings`): ``scopa serve``'s flags and the
environment. Plain values, no web framework: the command line makes it before the web stack is
loaded, and it crosses to the worker processes as it is."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scopa.i18n import _
from scopa.reading import ascii_digits
from scopa.store import ENV_DATABASE_URL

MAX_BODY_BYTES = 2 * 1024 * 1024
"""The largest request body accepted (a 500-deal match file in full fits with room to spare)."""
TABLE_PAUSE = 0.8
"""Seconds the computer waits at a table after the last move before it plays (a human pace:
the others see each card land)."""


ENV_TABLE_PAUSE = "SCOPA_TABLE_PAUSE"
MAX_TABLES = 50
"""Tables in play at once per group (the one table of a plain server counts as a group)."""
MAX_SEATS = 150
"""People's seats at those tables per group (the computer's seats are not counted)."""
MOST = 100_000
"""The largest of either limit a setting may name."""
ENV_MAX_TABLES = "SCOPA_MAX_TABLES"
ENV_MAX_SEATS = "SCOPA_MAX_SEATS"


@dataclass(frozen=True, slots=True, kw_only=True)
class WebSettings:
    """How the server runs, in one record: what ``scopa serve``'s flags and the environment
    say (:meth:`from_env`). Plain values: it crosses to the worker processes as it is."""

    database_url: str | None = None
    """The database (a URL or a file path); ``None``: ``$SCOPA_DATABASE_URL``, else the
    default SQLite file (:func:`scopa.store.database_url`)."""
    max_body_bytes: int = MAX_BODY_BYTES
    lan: bool = False
    """Listening on the network: other devices need an access code."""
    allowed_hosts: tuple[str, ...] = ()
    """Host names accepted in the ``Host`` header besides IP literals and ``localhost``."""
    hosted: bool = False
    """Many groups, each with its own matches; devices join with a group's code."""
    table_pause: float = TABLE_PAUSE
    """Seconds the computer waits at a table before it plays (0-10)."""
    max_tables: int = MAX_TABLES
    """Tables in play at once per group (1-100000; ``--max-tables``, ``$SCOPA_MAX_TABLES``):
    one more is refused with 403, ``where: "quota.tables"``. A table nobody moved for 2 days,
    or whose match is over, no longer counts."""
    max_seats: int = MAX_SEATS
    """People's seats at those tables per group (1-100000; ``--max-seats``,
    ``$SCOPA_MAX_SEATS``): a table that would pass it is refused with 403,
    ``where: "quota.seats"``."""

    def __post_init__(self) -> None:
        if not 0 <= self.table_pause <= 10:
            said = _("{name}: {value} is not 0 to 10 seconds")
            raise ValueError(said.format(name="table_pause", value=self.table_pause))
        for name in ("max_tables", "max_seats"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MOST:
                said = _("{name}: {value} is not a whole number from 1 to {most}")
                raise ValueError(said.format(name=name, value=repr(value), most=MOST))
        if self.lan and self.hosted:
            raise ValueError(_("a hosted server has a code per group: not lan as well"))

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **flags: Any) -> WebSettings:
        """The settings the environment gives (``SCOPA_DATABASE_URL``, ``SCOPA_TABLE_PAUSE``:
        the tests and the benchmark; an unreadable pause keeps :data:`TABLE_PAUSE`;
        ``SCOPA_MAX_TABLES``, ``SCOPA_MAX_SEATS``: an unreadable one is refused), with
        ``flags`` (the command line's) over them.

        >>> WebSettings.from_env({"SCOPA_TABLE_PAUSE": "0"}, hosted=True).table_pause
        0.0
        """
        environ = os.environ if environ is None else environ
        found: dict[str, Any] = {"database_url": environ.get(ENV_DATABASE_URL) or None}
        raw = environ.get(ENV_TABLE_PAUSE, "")
        with contextlib.suppress(ValueError):
            pause = float(raw) if raw else TABLE_PAUSE
            if 0 <= pause <= 10:
                found["table_pause"] = pause
        for name, key in (("max_tables", ENV_MAX_TABLES), ("max_seats", ENV_MAX_SEATS)):
            text = environ.get(key, "").strip()
            if text:
                number = ascii_digits(text, 6)
                if number is None:
                    said = _("{name}: {value} is not a whole number from 1 to {most}")
                    raise ValueError(said.format(name=key, value=repr(text[:20]), most=MOST))
                found[name] = number
        return cls(**{**found, **{k: v for k, v in flags.items() if v is not None}})
