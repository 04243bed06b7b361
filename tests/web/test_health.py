"""``GET /healthz`` (issue 48): ready when the database answers at the newest migration, 503
otherwise; open to a container's or a proxy's probe in every access mode. And a port already
in use is the one thing ``scopa serve`` says, with exit status 1."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy import text

from scopa.store import MatchStore
from scopa.store.database import head_revision
from scopa.web import WebSettings, create_app
from tests.pg import free_port

SCOPA = str(Path(sys.executable).parent / "scopa")


def test_healthz_is_ok_on_a_migrated_database(store: MatchStore) -> None:
    with TestClient(create_app(store)) as client:
        answer = client.get("/healthz")
    assert answer.status_code == 200
    assert answer.json() == {"status": "ok", "schema": head_revision()}
    assert answer.headers["cache-control"] == "no-store"


def test_healthz_is_503_when_the_schema_is_not_at_the_head(store: MatchStore) -> None:
    with TestClient(create_app(store)) as client:
        with store.db.engine.begin() as connection:
            connection.execute(text("UPDATE alembic_version SET version_num = '0001_old'"))
        answer = client.get("/healthz")
    assert answer.status_code == 503
    assert answer.json() == {
        "status": "unavailable",
        "reason": f"schema at 0001_old, expected {head_revision()}",
    }


def test_healthz_is_503_when_the_database_cannot_be_reached(store: MatchStore) -> None:
    with TestClient(create_app(store)) as client:
        real = store.db.engine

        class Unreachable:
            def connect(self) -> None:
                from sqlalchemy.exc import OperationalError

                raise OperationalError("connect", {}, Exception("connection refused"))

        store.db.engine = Unreachable()  # type: ignore[assignment]
        try:
            answer = client.get("/healthz")
        finally:
            store.db.engine = real
    assert answer.status_code == 503
    assert answer.json() == {"status": "unavailable", "reason": "database unreachable"}


def test_healthz_needs_no_code_on_lan_or_hosted(store: MatchStore) -> None:
    for settings in (WebSettings(lan=True), WebSettings(hosted=True)):
        app = create_app(store, settings)
        # a client on the network (the test client's address is not loopback)
        with TestClient(app, base_url="http://192.0.2.1", follow_redirects=False) as client:
            assert client.get("/healthz").status_code == 200, settings
            assert client.get("/api/matches").status_code == 401, settings


def test_a_port_in_use_is_said_once_with_exit_status_1(tmp_path: Path) -> None:
    port = free_port()
    taken = socket.socket()
    try:
        taken.bind(("127.0.0.1", port))
        taken.listen(1)
        done = subprocess.run(
            [SCOPA, "serve", "--port", str(port), "--db", str(tmp_path / "s.db")],
            capture_output=True,
            text=True,
            timeout=240,
        )
    finally:
        taken.close()
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr.startswith(f"scopa: cannot listen on 127.0.0.1:{port}: ")
    assert "score sheet is at" not in done.stderr
    assert not (tmp_path / "s.db").exists()
