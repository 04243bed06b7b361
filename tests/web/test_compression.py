"""Compression (issue 48): the vendored files' gzip copies are sent to a browser that takes
gzip, with the original's type and ``Vary: Accept-Encoding``; a browser that refuses gzip gets
the file as it is; pages and JSON are compressed as they are sent; event streams never."""

from __future__ import annotations

import gzip

import pytest
from fastapi.testclient import TestClient

from scopa.store import MatchStore
from scopa.web import create_app
from scopa.web.deps import STATIC_DIR

WASM = "/static/vendor/pyodide/pyodide.asm.wasm"


@pytest.fixture
def client(store: MatchStore) -> TestClient:
    return TestClient(create_app(store))


def raw(
    client: TestClient, path: str, encoding: str, **headers: str
) -> tuple[int, dict[str, str], bytes]:
    """The answer's status, headers and body as sent (not decoded)."""
    with client.stream("GET", path, headers={"Accept-Encoding": encoding, **headers}) as answer:
        body = b"".join(answer.iter_raw())
        return answer.status_code, dict(answer.headers), body


def test_pyodide_is_sent_gzipped_to_a_browser_that_takes_gzip(client: TestClient) -> None:
    original = (STATIC_DIR / WASM.removeprefix("/static/")).read_bytes()
    status, headers, body = raw(client, WASM, "gzip, deflate, br")
    assert status == 200
    assert headers["content-encoding"] == "gzip"
    assert headers["content-type"] == "application/wasm"
    assert "Accept-Encoding" in headers["vary"]
    assert int(headers["content-length"]) == len(body) < len(original) * 0.4
    assert gzip.decompress(body) == original


@pytest.mark.parametrize("encoding", ["identity", "gzip;q=0, br", ""])
def test_a_browser_that_refuses_gzip_gets_the_file_as_it_is(
    client: TestClient, encoding: str
) -> None:
    original = (STATIC_DIR / WASM.removeprefix("/static/")).read_bytes()
    status, headers, body = raw(client, WASM, encoding)
    assert (status, headers.get("content-encoding")) == (200, None)
    assert "Accept-Encoding" in headers["vary"]
    assert body == original


def test_a_kept_copy_is_revalidated_per_encoding(client: TestClient) -> None:
    _, gz, _ = raw(client, WASM, "gzip")
    _, plain, _ = raw(client, WASM, "identity")
    assert gz["etag"] != plain["etag"]
    status, _, body = raw(client, WASM, "gzip", **{"If-None-Match": gz["etag"]})
    assert (status, body) == (304, b"")


def test_pages_json_and_the_apps_scripts_are_compressed(client: TestClient) -> None:
    made = client.post("/api/matches", json={"players": ["Anna", "Bruno"]}).json()["id"]
    for path in ("/", f"/matches/{made}", "/api/openapi.json", "/static/app.js", "/sw.js"):
        status, headers, body = raw(client, path, "gzip")
        assert (status, headers.get("content-encoding")) == (200, "gzip"), path
        assert gzip.decompress(body), path


def test_event_streams_are_never_compressed(store: MatchStore) -> None:
    import httpx

    from tests.browser.conftest import serving

    with serving(create_app(store)) as base:
        created = httpx.post(f"{base}/api/matches", json={"players": ["Anna", "Bruno"]})
        ident = created.json()["id"]
        with httpx.stream(
            "GET", f"{base}/api/matches/{ident}/events", headers={"Accept-Encoding": "gzip"}
        ) as answer:
            assert answer.headers["content-type"].startswith("text/event-stream")
            assert "content-encoding" not in answer.headers
