"""The core's zip for the device's scorer: built once per process, named by an ETag that a
repeat request can send to get a 304 (no rebuild, no body), and holding the core only."""

from __future__ import annotations

import io
import zipfile

from fastapi.testclient import TestClient

from scopa.store import MatchStore
from scopa.web import create_app
from scopa.web.offline import core_zip


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
        assert "scopa/web/device.py" in names
        assert "scopa/scoring.py" in names
        assert "scopa/web/app.py" not in names  # the server's edge stays on the server
    store.close()
