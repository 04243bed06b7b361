"""How the server runs, in one record (:class:`WebSettings`): ``scopa serve``'s flags and the
environment. Plain values, no web framework: the command line makes it before the web stack is
loaded, and it crosses to the worker processes as it is."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scopa.store import ENV_DATABASE_URL

MAX_BODY_BYTES = 2 * 1024 * 1024
"""The largest request body accepted (a 500-deal match file in full fits with room to spare)."""
TABLE_PAUSE = 0.8
"""Seconds the computer waits at a table after the last move before it plays (a human pace:
the others see each card land)."""


ENV_TABLE_PAUSE = "SCOPA_TABLE_PAUSE"


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

    def __post_init__(self) -> None:
        if not 0 <= self.table_pause <= 10:
            raise ValueError(f"table_pause: {self.table_pause} is not 0 to 10 seconds")
        if self.lan and self.hosted:
            raise ValueError("a hosted server has a code per group: not lan as well")

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **flags: Any) -> WebSettings:
        """The settings the environment gives (``SCOPA_DATABASE_URL``, ``SCOPA_TABLE_PAUSE``:
        the tests and the benchmark; an unreadable pause keeps :data:`TABLE_PAUSE`), with
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
        return cls(**{**found, **{k: v for k, v in flags.items() if v is not None}})
