"""The pages of a match started on a phone with no connection: the server renders each shape
(the real sheet and deal form for a match never stored, its id and names markers) and the
service worker fills them in with the same markers."""

from __future__ import annotations

from fastapi.testclient import TestClient

from scopa.web.deps import STATIC_DIR
from scopa.web.pages.shapes import SHAPE_ID, shape_names


def test_every_shape_renders_with_the_markers_the_worker_fills_in(client: TestClient) -> None:
    listed = client.get("/offline/shapes").json()
    assert listed["id"] == SHAPE_ID
    worker = (STATIC_DIR / "sw.js").read_text()
    assert f'const SHAPE_ID = "{SHAPE_ID}"' in worker
    assert '"Qq" + i + "Zz"' in worker
    assert "/offline/shape/scopone-4-1/sheet" in listed["urls"]
    assert "/offline/shape/scopone-3-0/sheet" not in listed["urls"]  # Scopone is for 4
    for url in listed["urls"]:
        page = client.get(url)
        assert page.status_code == 200, url
        assert f"/matches/{SHAPE_ID}" in page.text
        assert shape_names(2)[1] in page.text
        assert '<a href="/" aria-current="page">' in page.text, url  # a match's page
    deal = client.get("/offline/shape/scopa-2-0/deal").text
    assert 'name="version" value="1"' in deal  # a created match's version
    assert client.get("/offline/shape/scopone-3-0/sheet").status_code == 404
    assert client.get("/offline/shape/scopa-2-0/other").status_code == 404
    assert client.get("/offline/shape/nonsense/deal").status_code == 404
