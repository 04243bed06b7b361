"""A finished match offers a rematch: a new match with the same players, teams and rules."""

from __future__ import annotations

import dataclasses

from fastapi import APIRouter
from fastapi.responses import RedirectResponse, Response

from scopa.match import Match
from scopa.web.deps import MatchId, Service

router = APIRouter(include_in_schema=False)


def rematch_name(name: str | None) -> str | None:
    """The rematch's name: the match's, said to be a rematch.

    >>> rematch_name("Sunday"), rematch_name("Sunday (rematch)"), rematch_name(None)
    ('Sunday (rematch)', 'Sunday (rematch)', None)
    """
    if not name:
        return None
    return name if name.endswith("(rematch)") else f"{name} (rematch)"[:100]


def rematch_of(match: Match) -> Match:
    """The same players, teams, variant and rules; no deals yet. The deal goes on passing:
    the rematch's first dealer is who would have dealt the match's next deal."""
    return dataclasses.replace(
        match.with_deals(()),
        name=rematch_name(match.name),
        first_dealer=match.players.index(match.next_dealer),
    )


@router.post("/matches/{match_id}/rematch")
def rematch(service: Service, match_id: MatchId) -> Response:
    finished = service.get(match_id=match_id)
    created = service.create(match=rematch_of(finished.match))
    return RedirectResponse(f"/matches/{created.id}", status_code=303)
