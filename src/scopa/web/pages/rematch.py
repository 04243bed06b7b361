"""A finished match offers a rematch: a new match with the same players, teams and rules."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import RedirectResponse, Response

from scopa.web.deps import MatchId, Service
from scopa.web.phone.starting import rematch_of

router = APIRouter(include_in_schema=False)


@router.post("/matches/{match_id}/rematch")
def rematch(service: Service, match_id: MatchId) -> Response:
    finished = service.get(match_id=match_id)
    created = service.create(match=rematch_of(finished.match))
    return RedirectResponse(f"/matches/{created.id}", status_code=303)
