"""``GET /healthz``: whether this server can serve, for a container's health check and a
proxy's.

200 ``{"status": "ok", "schema": REVISION}`` when the database answers and its schema is at the
newest migration; 503 ``{"status": "unavailable", "reason": ...}`` otherwise (the database
cannot be reached, or its schema is behind or ahead of this program's). Open to every client
(no access code, no device token): it says nothing about the matches.
"""

from __future__ import annotations

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from scopa.store.protocol import Store

PATH = "/healthz"

router = APIRouter()


def check(store: Store) -> tuple[int, dict[str, str]]:
    """The answer's status and body for ``store`` (:meth:`scopa.store.protocol.Store.health`)."""
    ready, said = store.health()
    if ready:
        return 200, {"status": "ok", "schema": said}
    return 503, {"status": "unavailable", "reason": said}


@router.get(PATH, include_in_schema=False)
async def healthz(request: Request) -> JSONResponse:
    status, body = await anyio.to_thread.run_sync(check, request.app.state.store)
    return JSONResponse(body, status_code=status, headers={"Cache-Control": "no-store"})
