"""The service worker keeps what it fetched gzipped as the file itself (issue 48): in Chromium,
once a phone's first visit has kept Pyodide, the kept WebAssembly is the original file byte for
byte (a valid module), though the server sent it compressed."""

from __future__ import annotations

import hashlib

import httpx
import pytest
from playwright.sync_api import Page

from scopa.web.deps import STATIC_DIR
from tests.browser.conftest import OFFLINE, wait_scorer_kept
from tests.browser.test_sheet import PHONE

pytestmark = [pytest.mark.browser, OFFLINE]

WASM = "/static/vendor/pyodide/pyodide.asm.wasm"

KEPT_WASM = """async (path) => {
  const kept = await (await caches.open("scopa-vendor-v1")).match(path);
  const bytes = new Uint8Array(await kept.arrayBuffer());
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return {
    size: bytes.length,
    sha256: Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join(""),
    valid: WebAssembly.validate(bytes),
  };
}"""


def test_the_kept_pyodide_is_the_original_though_sent_gzipped(server: str, page: Page) -> None:
    sent = httpx.get(server + WASM, headers={"Accept-Encoding": "gzip"})
    assert sent.headers["content-encoding"] == "gzip"
    original = (STATIC_DIR / WASM.removeprefix("/static/")).read_bytes()
    made = httpx.post(f"{server}/api/matches", json={"players": ["Anna", "Bruno"]}).json()["id"]
    page.set_viewport_size(PHONE)
    page.goto(f"{server}/matches/{made}")
    wait_scorer_kept(page)
    kept = page.evaluate(KEPT_WASM, WASM)
    assert kept == {
        "size": len(original),
        "sha256": hashlib.sha256(original).hexdigest(),
        "valid": True,
    }
