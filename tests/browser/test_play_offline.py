"""The Play page with no connection, in Chromium with the context set offline: opened online
once, a game dealt at ``normal`` and a whole deal played on the device (the engine and the
search player in the Pyodide worker), a reload resuming it offline, then back online the game
sent once, its deal found on the sheet exactly once and the game verified (the worker's tree
grown for the phone's iterations, replayed on the server); and a game started on the server
that goes on on the device when the connection drops mid-deal, brought up to date on the
server afterwards."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import BrowserContext, Page, expect

from scopa.web.phone.offline import KERNEL_WASM
from tests.browser.conftest import OFFLINE, wait_until
from tests.browser.netcut import back_online, go_offline
from tests.browser.test_play import FAST, LAPTOP, PHONE, play_a_deal_by_taps, wait_for_turn_or_end
from tests.test_imports import PACKAGE

pytestmark = [pytest.mark.browser, OFFLINE]

SLOW = 90_000  # a cold start of the device's worker on a busy machine


def computer_matches(server: str) -> list[dict[str, Any]]:
    listed = httpx.get(f"{server}/api/matches", params={"limit": 100}).json()
    items = listed["matches"] if isinstance(listed, dict) else listed
    return [m for m in items if str(m.get("name", "")).startswith("Against the computer")]


def keep_play_pages(page: Page, server: str) -> None:
    """Open the Play page online and wait until it is kept (and the worker's snapshot made)."""
    page.goto(f"{server}/play")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=SLOW)
    wait_until(page, KEPT, "the Play page was not kept on the device", SLOW / 1000)


KERNEL_BUILT = (PACKAGE / KERNEL_WASM).is_file()
USES_KERNEL = """async () => {
  const engine = window.scopa.playEngine;
  return await engine.call("engine", null);
}"""

KEPT = """async () => {
  const pages = await caches.open("scopa-pages-v1");
  const here = await pages.match("/play/here"), setup = await pages.match("/play");
  const vendor = await caches.open("scopa-vendor-v1");
  const wasm = await vendor.match("/static/vendor/pyodide/pyodide.asm.wasm");
  const snaps = await (await caches.open("scopa-snapshot-v1")).keys();
  const snap = snaps.some((r) => new URL(r.url).pathname.startsWith("/offline/snapshot/play/"));
  return !!(here && setup && wasm && snap);
}"""


@pytest.mark.slow  # about 90 s on the loaded test machine: a first start of the worker
def test_a_whole_deal_offline_then_a_server_game_goes_on_here(
    server: str, context: BrowserContext, page: Page, artifacts: Path
) -> None:
    """One phone's story, in one context (the worker's first start paid once): a whole deal
    played offline and sent once, then a game started on the server that goes on here when the
    connection drops."""
    page.add_init_script(FAST)
    page.set_viewport_size(PHONE)
    a_whole_deal_offline_then_sent_once(server, context, page, artifacts)
    a_server_game_goes_on_here_when_the_connection_drops(server, context, page)


def a_whole_deal_offline_then_sent_once(
    server: str, context: BrowserContext, page: Page, artifacts: Path
) -> None:
    keep_play_pages(page, server)
    page.wait_for_function("() => localStorage.getItem('scopa-seed') !== null", timeout=SLOW)
    before = len(computer_matches(server))
    go_offline(context)
    page.reload()
    page.locator("label.chip-radio", has_text=re.compile("^Scopa$")).click()
    page.locator("label.chip-radio", has_text="Normal").click()
    page.get_by_role("button", name="Deal").click()
    expect(page).to_have_url(re.compile(r"/play/here#d\w+$"))
    expect(page.locator("#play-hand .pc-button").first).to_be_visible(timeout=SLOW)
    expect(page.locator("#play-device")).to_contain_text("No connection")
    cold = page.evaluate("window.scopa?.playEngine.info")
    print(f"\nworker start offline: {cold['ready']} ms (restored: {cold['restored']})")
    page.screenshot(path=str(artifacts / "play-offline-phone.png"), full_page=True)
    while wait_for_turn_or_end(page) == "turn" and not page.locator("#play-hints").is_visible():
        page.click("#play-hint")  # the coach on the device
    hints = page.locator("#play-hints")
    expect(hints.locator(".play-best")).to_contain_text("Best: ", timeout=SLOW)
    if KERNEL_BUILT:  # the worker plays on the kernel's WebAssembly build: the player's tree
        expect(hints.locator(".play-lighter")).to_have_count(0)
        on = page.evaluate(USES_KERNEL)
        assert on == {"engine": "kernel", "build": "webassembly", "reason": ""}, on
    else:  # the pure engine's lighter search, which the hint says
        expect(hints.locator(".play-lighter")).to_contain_text("A lighter search here")

    play_a_deal_by_taps(page)
    end = page.locator("#play-end")
    expect(end.locator("table.play-points")).to_be_visible()
    totals = page.evaluate("window.scopa?.table.state.score.totals")
    assert sum(totals) > 0  # the deal was scored on the device
    state = page.evaluate("window.scopa?.table.state")
    page.screenshot(path=str(artifacts / "play-offline-phone-deal-end.png"), full_page=True)
    assert len(computer_matches(server)) == before  # nothing reached the server

    page.reload()  # offline: the page and the game come from the device
    wait_for_turn_or_end(page)
    again = page.evaluate("window.scopa?.table.state")
    for key in ("step", "hand", "table", "moves", "score", "deal_over"):
        assert again[key] == state[key], key
    expect(page.locator("#play-end table.play-points")).to_be_visible()
    page.set_viewport_size(LAPTOP)
    page.screenshot(path=str(artifacts / "play-offline-laptop.png"), full_page=True)
    table_url = page.url
    page.goto(f"{server}/play")  # offline: the set-up page lists the game still to send
    listed = page.locator("#play-kept a.match-link")
    expect(listed).to_have_count(1)
    expect(listed).to_contain_text("not sent yet")
    listed.click()
    expect(page).to_have_url(table_url)
    wait_for_turn_or_end(page)
    assert page.evaluate("window.scopa?.table.state.step") == state["step"]

    back_online(context, page)
    sheet = page.get_by_role("link", name="Open the sheet")
    expect(sheet).to_be_visible(timeout=SLOW)
    expect(page.locator("#play-device")).to_contain_text("The server has every play")
    page.reload()  # online again: nothing is sent twice
    wait_for_turn_or_end(page)
    found = computer_matches(server)
    assert len(found) == before + 1
    match_id = page.evaluate("window.scopa?.table.state.match_id")
    sent = httpx.get(f"{server}/matches/{match_id}", params={"format": "json"}).json()
    # Dealt from a seed the server issued, every computer play the C extension's at the
    # phone's 500 iterations: verified. Without the kernel the worker thinks for a time.
    assert sent["uncounted"] == (None if KERNEL_BUILT else "not_replayable")
    sheet.click()
    expect(page.locator("h1")).to_contain_text("Against the computer")
    row = page.locator("table.scores tbody tr.deal-row")
    expect(row).to_have_count(1)
    expect(row.first.locator("td").first).to_have_attribute(
        "aria-label", re.compile(f"^deal 1, You: .*total {totals[0]}$")
    )


def a_server_game_goes_on_here_when_the_connection_drops(
    server: str, context: BrowserContext, page: Page
) -> None:
    page.set_viewport_size(PHONE)
    keep_play_pages(page, server)
    page.locator("label.chip-radio", has_text=re.compile("^Scopa$")).click()
    page.locator("label.chip-radio", has_text="Easy").click()
    page.get_by_role("button", name="Deal").click()
    expect(page).to_have_url(re.compile(r"/play/\d+$"))
    game_id = int(page.url.rsplit("/", 1)[1])
    wait_for_turn_or_end(page)
    online_step = page.evaluate("window.scopa?.table.state.step")

    go_offline(context)
    play_a_deal_by_taps(page)  # the first tap finds no server: the device goes on
    expect(page.locator("#play-device")).to_contain_text("No connection")
    state = page.evaluate("window.scopa?.table.state")
    assert state["deal_over"]
    assert state["step"] > online_step
    kept = httpx.get(f"{server}/play/{game_id}/state").json()
    assert kept["step"] == online_step  # the server still has the game as it was

    back_online(context, page)
    expect(page.get_by_role("link", name="Open the sheet")).to_be_visible(timeout=SLOW)
    now = httpx.get(f"{server}/play/{game_id}/state").json()
    assert now["step"] == state["step"]
    assert now["score"]["totals"] == state["score"]["totals"]
    sheet = httpx.get(f"{server}/api/matches/{now['match_id']}").json()
    assert len(sheet["match"]["deals"]) == 1
    page.get_by_role("button", name="Next deal").click(timeout=SLOW)  # the server thinks again
    page.wait_for_function(
        "() => window.scopa?.table.state.deal === 2 && !window.scopa.table.busy", timeout=SLOW
    )
    assert page.evaluate("window.scopa?.table.device") is False
