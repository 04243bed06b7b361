"""A finished match offers a rematch: a new match with the same players, teams and rules."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import RedirectResponse, Response

from scopa.formats import match_to_json
from scopa.web import service
from scopa.web.deps import MatchId, Store

router = APIRouter(include_in_schema=False)


def rematch_of(data: dict[str, Any]) -> dict[str, Any]:
    """The match file of a rematch: everything but the deals; the name says it.

    >>> rematch_of({"name": "Sunday", "players": ["A", "B"], "rules": {}, "deals": [{}]})
    {'name': 'Sunday (rematch)', 'players': ['A', 'B'], 'rules': {}, 'deals': []}
    """
    again = {k: v for k, v in data.items() if k != "deals"}
    if again.get("name"):
        name = str(again["name"])
        again["name"] = name if name.endswith("(rematch)") else f"{name} (rematch)"[:100]
    again["deals"] = []
    return again


@router.post("/matches/{match_id}/rematch")
def rematch(store: Store, match_id: MatchId) -> Response:
    stored = store.get(match_id)
    created = service.create_match(store, rematch_of(match_to_json(stored.match)))
    return RedirectResponse(f"/matches/{created.id}", status_code=303)
