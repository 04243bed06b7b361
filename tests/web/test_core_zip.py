"""The core's zip for the device's scorer: built once per process, named by an ETag that a
repeat request can send to get a 304 (no rebuild, no body), and holding the core only."""

from __future__ import annotations

import ast
import io
import zipfile

import pytest
from fastapi.testclient import TestClient

from scopa.store import MatchStore
from scopa.web import create_app
from scopa.web.phone.offline import core_zip


def test_core_zip_once_with_an_etag() -> None:
    store = MatchStore.open("sqlite://")
    with TestClient(create_app(store)) as client:
        first = client.get("/offline/core.zip")
        assert first.status_code == 200
        etag = first.headers["etag"]
        assert first.content == core_zip()  # the one built for this process
        assert core_zip() is core_zip()
        again = client.get("/offline/core.zip", headers={"If-None-Match": etag})
        assert again.status_code == 304
        assert again.content == b""
        assert again.headers["etag"] == etag
        other = client.get("/offline/core.zip", headers={"If-None-Match": '"old"'})
        assert other.status_code == 200
        names = zipfile.ZipFile(io.BytesIO(first.content)).namelist()
        assert "scopa/web/phone/device.py" in names
        assert "scopa/scoring.py" in names
        assert "scopa/web/serve/app.py" not in names  # the server's edge stays on the server
    store.close()


def test_serving_parses_no_source(monkeypatch: pytest.MonkeyPatch) -> None:
    """The zip and the app's version are made with the app, before any request: on a first
    visit ``/sw.js`` and the zip are asked for at once, each in a thread of the server's
    pool, and CPython 3.11's parser is not safe while another thread compiles (``/sw.js``
    answered 500 "AST constructor recursion depth mismatch")."""
    from scopa.web.phone import offline

    offline.built_zip.cache_clear()
    offline.app_version.cache_clear()
    app = create_app(MatchStore.open("sqlite://"))

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("source parsed while serving")

    monkeypatch.setattr(ast, "parse", refuse)
    with TestClient(app) as client:
        assert client.get("/sw.js").status_code == 200
        assert client.get("/offline/core.zip").status_code == 200
