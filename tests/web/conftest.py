"""The web app on a temporary SQLite file, driven by FastAPI's test client."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from scopa.store import MatchStore
from scopa.web import create_app


def anna_deal(anna_sweeps: int = 1, bruno_sweeps: int = 2) -> dict[str, Any]:
    """RULES.md's worked example as a tally: Anna 5 points (4 with primiera off), Bruno 2."""
    return {
        "piles": {
            "Anna": {
                "count": 22,
                "coins": ["A", "2", "3", "5", "7", "K"],
                "best": {"c": "7", "s": "7", "b": "6"},
            },
            "Bruno": {
                "count": 18,
                "coins": ["4", "6", "J", "H"],
                "best": {"c": "5", "s": "6", "b": "7"},
            },
        },
        "sweeps": {"Anna": anna_sweeps, "Bruno": bruno_sweeps},
        "last_capture": "Bruno",
    }


def bruno_deal() -> dict[str, Any]:
    """The mirror image: Bruno 4 points, Anna 0."""
    deal = anna_deal(0, 0)
    piles = deal["piles"]
    deal["piles"] = {"Anna": piles["Bruno"], "Bruno": piles["Anna"]}
    deal["last_capture"] = "Anna"
    return deal


@pytest.fixture
def client(store: MatchStore) -> Iterator[TestClient]:
    with TestClient(create_app(store)) as test_client:
        yield test_client


@pytest.fixture
def match_id(client: TestClient) -> int:
    response = client.post("/api/matches", json={"players": ["Anna", "Bruno"]})
    assert response.status_code == 201
    ident: int = response.json()["id"]
    return ident
