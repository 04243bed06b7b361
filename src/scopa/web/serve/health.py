"""``GET /healthz``: whether this server can serve, for a container's health check and a
proxy's.

200 ``{"status": "ok", "schema": REVISION}`` when the database answers and its schema is at the
newest migration; 503 ``{"status": "unavailable", "reason": ...}`` otherwise (the database
cannot be reached, or its schema is behind or ahead of this program's). Open to every client
(no access code, no device token): it says nothing about the matches.
"""

from __future__ import annotations

import logging
from typing import Any

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from sqlalchemy.exc import SQLAlchemyError

from scopa.store.database import head_revision, schema_revision

PATH = "/healthz"

logger = logging.getLogger("scopa.web")

router = APIRouter()


def check(store: Any) -> tuple[int, dict[str, str]]:
    """The answer's status and body for ``store`` (a store without a database, such as the
    tests' memory store, is always ready)."""
    db = getattr(store, "db", None)
    if db is None:
        return 200, {"status": "ok", "schema": "memory"}
    head = head_revision()
    try:
        with db.engine.connect() as connection:
            found = schema_revision(connection)
    except (SQLAlchemyError, OSError) as error:
        logger.warning("health check: the database cannot be reached: %s", error)
        return 503, {"status": "unavailable", "reason": "database unreachable"}
    if found != head:
        reason = f"schema at {found or 'no revision'}, expected {head}"
        return 503, {"status": "unavailable", "reason": reason}
    return 200, {"status": "ok", "schema": head}


@router.get(PATH, include_in_schema=False)
async def healthz(request: Request) -> JSONResponse:
    status, body = await anyio.to_thread.run_sync(check, request.app.state.store)
    return JSONResponse(body, status_code=status, headers={"Cache-Control": "no-store"})
