"""The web app on a temporary SQLite file, driven by FastAPI's test client. The deals the
tests send (:mod:`tests.web.bodies`) are importable from here too."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from scopa.store import MatchStore
from scopa.web import WebSettings, create_app
from scopa.web.serve.server import Limits, Server, uvicorn_config
from tests.pg import free_port
from tests.web.bodies import anna_deal as anna_deal
from tests.web.bodies import bruno_deal as bruno_deal


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
    app = create_app(store, WebSettings.from_env(**options))
    port = free_port()
    server = Server(uvicorn_config(app, "127.0.0.1", port, limits or Limits()), app)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        assert time.monotonic() < deadline
        assert thread.is_alive()
        time.sleep(0.02)
    return server, app, thread, port


def new_match(client: TestClient, deals: int = 0) -> int:
    """A match of Anna and Bruno to 61, imported with ``deals`` deals (theirs in turn)."""
    body = {
        "players": ["Anna", "Bruno"],
        "rules": {"target": 61},
        "deals": [anna_deal(0, 0) if n % 2 else bruno_deal() for n in range(deals)],
    }
    response = client.post("/api/import", json=body)
    assert response.status_code == 201
    ident: int = response.json()["id"]
    return ident
