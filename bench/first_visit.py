"""Benchmark: the bytes a phone downloads on its first full visit, on the wire, in Chromium.

Starts ``scopa serve`` on a temporary SQLite file, puts a byte-counting TCP relay in front of
it on loopback, and opens a match's sheet in headless Chromium with a phone's screen; the
visit is over once the service worker keeps everything the sheet needs offline (the pages,
the app, Pyodide and the core's zip) and the network has been quiet for a second. It prints
the bytes the server sent (headers and bodies, every connection: the page's and the service
worker's), and the largest answers.

``--src DIR`` serves another checkout's ``src`` (to measure before a change: a worktree of an
older commit, with a copy of this checkout's ``src/scopa/web/static/vendor`` and its catalogs
compiled by ``scripts/catalogs.py``; a symbolic link to the folder is not served).

Run: ``.venv/bin/python bench/first_visit.py [--src DIR] [--quick]``. Issue 48's target: <= 7.5 MB.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import httpx
from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as bench/….py
from bench.offline import sheet_server
from tests.pg import free_port

ROOT = Path(__file__).resolve().parents[1]
PHONE = {"width": 390, "height": 844}
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
TARGET_MB = 7.5

KEPT = """async (id) => {
  const pages = await caches.open("scopa-pages-v1");
  const vendor = await caches.open("scopa-vendor-v1");
  return !!(await pages.match("/matches/" + id + "/deals/new"))
    && !!(await vendor.match("/static/vendor/pyodide/pyodide.asm.wasm"))
    && !!(await vendor.match("/static/vendor/pyodide/python_stdlib.zip"));
}"""


class Relay:
    """A TCP relay on loopback counting the bytes the server sends back."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = free_port()
        self.sent = 0
        self.last = time.monotonic()
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Relay:
        self.thread.start()
        self.ready.wait(10)
        return self

    def __exit__(self, *_: object) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        server = self.loop.run_until_complete(
            asyncio.start_server(self._serve, "127.0.0.1", self.port)
        )
        self.ready.set()
        try:
            self.loop.run_forever()
        finally:
            server.close()

    async def _pump(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, count: bool
    ) -> None:
        try:
            while data := await reader.read(65536):
                if count:
                    self.sent += len(data)
                self.last = time.monotonic()
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            writer.close()

    async def _serve(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        server_r, server_w = await asyncio.open_connection("127.0.0.1", self.target_port)
        await asyncio.gather(
            self._pump(client_r, server_w, False), self._pump(server_r, client_w, True)
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--src", type=Path, default=ROOT / "src", help="the src folder served")
    parser.add_argument(
        "--quick", action="store_true", help="the same visit (it is one), no target judged"
    )
    args = parser.parse_args()
    with sheet_server(args.src) as base:
        match = {"players": ["Anna", "Bruno"], "name": "Sunday at Nonna's"}
        match_id = httpx.post(base + "/api/matches", json=match).json()["id"]
        with Relay(int(base.rsplit(":", 1)[1])) as relay:
            visit(relay, match_id, judged=not args.quick)


def visit(relay: Relay, match_id: int, judged: bool = True) -> None:
    sizes: Counter[str] = Counter()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS
        )
        try:
            context = browser.new_context(viewport=PHONE, has_touch=True)  # type: ignore[arg-type]
            page = context.new_page()

            def finished(request: object) -> None:
                sizes_of = getattr(request, "sizes", None)
                url = str(getattr(request, "url", ""))
                if sizes_of is not None:
                    got = sizes_of()
                    sizes[url.split("//", 1)[-1].split("/", 1)[-1]] += int(
                        got.get("responseBodySize", 0)
                    ) + int(got.get("responseHeadersSize", 0))

            page.on("requestfinished", finished)
            page.goto(f"http://127.0.0.1:{relay.port}/matches/{match_id}")
            deadline = time.monotonic() + 90
            while not page.evaluate(KEPT, match_id):
                if time.monotonic() > deadline:
                    raise RuntimeError("the sheet was not kept on the device")
                page.wait_for_timeout(200)
            while time.monotonic() - relay.last < 1.0:  # the network quiet for a second
                page.wait_for_timeout(200)
        finally:
            browser.close()
    target = f" (target <= {TARGET_MB} MB)" if judged else ""
    print(f"first full visit on the wire: {relay.sent / 1e6:.2f} MB{target}")
    print("largest answers seen by the page (compressed size; the service worker's not listed):")
    for url, size in sizes.most_common(5):
        print(f"  /{url}: {size / 1e6:.3f} MB")


if __name__ == "__main__":
    main()
