"""Benchmark: the Play page with no connection, in headless Chromium (Playwright), over loopback.

Starts ``scopa serve`` on a temporary SQLite file and a free 127.0.0.1 port, opens ``/play``
once online (the service worker keeps the page, Pyodide and the core; the page starts the
game's worker once in the background, which keeps its memory snapshot), then with the browser
set offline measures:

- the worker's first start (a full one, while online: it makes the snapshot);
- a game dealt offline: from the tap on *Deal* to your hand drawn (the worker restored from
  its snapshot, the game dealt on the device), and the worker's start within it;
- the computer's move on the device at each level (easy, normal, strong: on the kernel's
  WebAssembly build, the phone's numbers of iterations, or without it the pure-Python search
  within the level's time), the first move of a deal (the most cards hidden) and one mid-deal,
  each the median of ``--moves`` calls, wall clock (``bench/phone.py`` gives the CPU time).

Run: ``.venv/bin/python bench/play_offline.py [--moves 3]`` (about a minute on an idle machine).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as bench/….py
from bench.offline import sheet_server

ROOT = Path(__file__).resolve().parents[1]
PHONE = {"width": 390, "height": 844}
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
SNAPSHOT = """async () => (await (await caches.open("scopa-snapshot-v1")).keys())
  .some((r) => new URL(r.url).pathname.startsWith("/offline/snapshot/play/"))"""
MOVE = """async ([level, seed, plays]) => {
  const D = { think: window.scopa.think };
  let answer = await D.think("start", { variant: "scopa", players: 2, level, seed });
  for (let k = 0; k < plays || answer.data.your_turn; k++) {
    const s = answer.data;
    answer = s.your_turn
      ? await D.think("play", { game: s.game, step: s.step, ...s.legal[0] })
      : await D.think("computer", { game: s.game, step: s.step });
  }
  const s = answer.data;
  const started = performance.now();
  const moved = await D.think("computer", { game: s.game, step: s.step });
  if (!moved.ok) { throw new Error(moved.data.error); }
  return performance.now() - started;
}"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=3, help="computer moves timed per case")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a few seconds: every step on a little, no target judged (the suite runs it)",
    )
    args = parser.parse_args()
    if args.quick:
        args.moves = 1
    with sheet_server() as base:
        run(base, args.moves)


def wait_for(page: Page, script: str, seconds: float = 180) -> Any:
    deadline = time.monotonic() + seconds
    while not (value := page.evaluate(script)):
        if time.monotonic() > deadline:
            raise TimeoutError(script)
        page.wait_for_timeout(200)
    return value


def run(base: str, moves: int) -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS
        )
        context = browser.new_context(viewport=PHONE, has_touch=True)  # type: ignore[arg-type]
        page = context.new_page()
        page.goto(base + "/play")
        first = wait_for(page, "window.scopa && window.scopa.playEngine.info")
        wait_for(page, SNAPSHOT)
        print(f"worker's first start (online, makes the snapshot): {first['ready']} ms")
        context.set_offline(True)
        page.reload()
        page.locator("label.chip-radio", has_text="Easy").click()
        tapped = time.perf_counter()
        page.get_by_role("button", name="Deal").click()
        page.locator("#play-hand .pc-button").first.wait_for(timeout=180_000)
        dealt = (time.perf_counter() - tapped) * 1000
        info = page.evaluate("window.scopa.playEngine.info")
        restored = "restored from the snapshot" if info["restored"] else "a full start"
        print(f"offline: Deal tapped to your hand drawn: {dealt:.0f} ms")
        print(f"  of which the worker's start: {info['ready']} ms ({restored})")
        for level in ("easy", "normal", "strong"):
            for label, plays in (("first move of a deal", 0), ("mid-deal (after 12 plays)", 12)):
                times = [page.evaluate(MOVE, [level, 1000 + k, plays]) for k in range(moves)]
                median = statistics.median(times)
                print(
                    f"computer's move, {level:6}, {label}: median {median:.0f} ms,"
                    f" max {max(times):.0f} ms ({moves} moves)"
                )
        browser.close()


if __name__ == "__main__":
    main()
