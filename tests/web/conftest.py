"""The web app on a temporary SQLite file, driven by FastAPI's test client."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from scopa.store import MatchStore
from scopa.web import create_app
from scopa.web.server import Limits, Server, uvicorn_config
from tests.pg import free_port


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


def start(
    store: MatchStore, limits: Limits | None = None, **options: Any
) -> tuple[Server, Any, threading.Thread, int]:
    """The app on ``store`` served as ``scopa serve`` serves it, in a thread on a free
    loopback port: the server (set ``should_exit`` and join the thread to stop it), the app,
    the thread and the port."""
    app = create_app(store, **options)
    port = free_port()
    server = Server(uvicorn_config(app, "127.0.0.1", port, limits or Limits()), app)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline
        assert thread.is_alive()
        time.sleep(0.02)
    return server, app, thread, port
