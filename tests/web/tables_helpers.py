"""Helpers of the tables' tests: an app on a store with a clock the test moves, the seats'
calls, and the check of every byte a seat is sent against the cards it may not know."""

from __future__ import annotations

import re
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from scopa.application.tables import Tables
from scopa.web.tables.routes import background_tables

CARD_CODE = re.compile(r"(?<![A-Za-z0-9])([A2-7JHK][dcsb])(?![A-Za-z0-9])")
CARD_NAME = re.compile(r"\b(ace|jack|horse|king|[2-7]) of (coins|cups|swords|clubs)\b")
RANK_CODES = {"ace": "A", "jack": "J", "horse": "H", "king": "K"}
SUIT_CODES = {"coins": "d", "cups": "c", "swords": "s", "clubs": "b"}


class Clock:
    """A clock the test moves by hand (seconds since the epoch)."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def table_app(app: FastAPI, clock: Clock) -> FastAPI:
    """The app with the test's clock, the computer played only when the test says."""
    app.state.table_clock = clock
    app.state.table_pause = 0.0
    app.state.tables.run_computer = False
    return app


def computer(app: FastAPI) -> int:
    """The computer plays once at every table where it is to play."""
    tables: Tables = background_tables(app)()
    return tables.run_due()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json={"players": 2, **body})
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def join(client: TestClient, table: dict[str, Any], name: str) -> dict[str, Any]:
    response = client.post(
        f"/api/tables/{table['table']}/seats", json={"code": table["code"], "name": name}
    )
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def view(client: TestClient, table_id: int, token: str) -> dict[str, Any]:
    response = client.get(f"/api/tables/{table_id}", headers=bearer(token))
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def first_play(seen: dict[str, Any], pick: int = 0) -> dict[str, Any]:
    options = [(o["card"], c) for o in seen["legal"] for c in o["captures"]]
    card, capture = options[pick % len(options)]
    return {"step": seen["step"], "card": card, "capture": capture}


def cards_named(text: str) -> set[str]:
    """Every card a text names: as a code (``7d``) or aloud (``7 of coins``)."""
    found = set(CARD_CODE.findall(text))
    for rank, suit in CARD_NAME.findall(text):
        found.add(RANK_CODES.get(rank, rank) + SUIT_CODES[suit])
    return found


def leaked(text: str, hidden: set[str]) -> set[str]:
    """The hidden cards a text (JSON, an event or HTML) names."""
    return cards_named(text) & hidden
