"""A match started with no connection, in Chromium at phone size with the context offline:
New match, Rematch and Import work on the phone (kept in the outbox, shown at an address of
the phone's own, deals recorded on it), and once the server answers each match is created
exactly once (its creation's answer lost on the way and retried with the same key), the deals
recorded on it follow in order, and the page moves to the server's address. A match this
phone never kept, tapped offline, says so."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import BrowserContext, Page, Route, expect

from tests.browser.conftest import OFFLINE, wait_until
from tests.browser.netcut import back_online, go_offline
from tests.browser.test_offline import SLOW, flush_outbox, record_offline, rows, server_match
from tests.browser.test_sheet import PHONE
from tests.web.conftest import anna_deal, bruno_deal

pytestmark = [pytest.mark.browser, OFFLINE]

KEPT = """async () => {
  const shell = (await caches.keys()).find((name) => name.startsWith("scopa-shell-"));
  const shapes = shell ? await caches.open(shell) : null;
  const pages = await caches.open("scopa-pages-v1");
  const vendor = await caches.open("scopa-vendor-v1");
  return !!(shapes && await shapes.match("/offline/shape/scopa-2-0/deal?lang=en")
    && await shapes.match("/offline/shape/escoba-2-0/sheet?lang=en")
    && await pages.match("/matches/new") && await pages.match("/import")
    && await vendor.match("/static/vendor/pyodide/pyodide.asm.wasm"));
}"""


def server_matches(server: str) -> list[dict[str, Any]]:
    """The matches the server has, newest first."""
    found: list[dict[str, Any]] = httpx.get(f"{server}/api/matches", params={"limit": 100}).json()
    return found


def match_count(server: str) -> int:
    return len(server_matches(server))


def finished_match(server: str) -> int:
    created = httpx.post(
        f"{server}/api/matches", json={"name": "Sunday", "players": ["Anna", "Bruno"]}
    ).json()
    while server_match(server, created["id"])["sheet"]["status"] != "won":
        httpx.post(f"{server}/api/matches/{created['id']}/deals", json=anna_deal())
    ident: int = created["id"]
    return ident


def started_here(page: Page) -> int:
    """The phone's own id of the match the page shows (a match started offline)."""
    expect(page).to_have_url(re.compile(r"/matches/-\d+$"), timeout=SLOW)
    found = re.search(r"/matches/(-\d+)$", page.url)
    assert found
    return int(found.group(1))


@pytest.mark.slow
def test_new_match_rematch_and_import_offline_are_created_once(
    server: str, context: BrowserContext, page: Page
) -> None:
    finished = finished_match(server)
    page.set_viewport_size(PHONE)
    page.goto(f"{server}/matches/{finished}")  # a finished match, kept: its Rematch
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=SLOW)
    wait_until(page, KEPT, "the pages of a match started offline were not kept")
    wait_until(page, f"async () => !!(await window.scopa?.outbox.match({finished}))", "not kept")
    before = match_count(server)
    go_offline(context)

    # A match never opened on this phone: said so, not the list shown silently.
    page.goto(f"{server}/matches/{finished + 1000}")
    expect(page.locator(".not-kept")).to_contain_text("not kept on this phone")

    # New match, then two deals recorded on it before the server has it.
    page.goto(f"{server}/matches/new")
    page.fill("#seats li:nth-child(1) input[name=player]", "Carla")
    page.fill("#seats li:nth-child(2) input[name=player]", "Dario")
    page.click("button:has-text('Start the match')")
    created = started_here(page)
    expect(page.locator("table.scores thead")).to_contain_text("Carla")
    expect(page.locator("table.scores thead")).to_contain_text("Dario")
    record_offline(page, server, created, 1)
    record_offline(page, server, created, 0)
    expect(rows(page)).to_have_count(2, timeout=SLOW)
    expect(page.locator("table.scores tfoot td")).to_have_text(["5", "5"], timeout=SLOW)
    expect(page.locator("#sheet .local-note")).to_contain_text("Match created; 2 deals recorded")
    expect(page.locator("#sheet .dealer")).to_have_text("Carla deals deal 3")

    # Rematch of the finished match.
    page.goto(f"{server}/matches/{finished}")
    page.click("form.rematch button")
    rematch = started_here(page)
    expect(page.locator("#sheet .local-note")).to_contain_text("Match created")
    expect(rows(page)).to_have_count(0)

    # Import a match file (one deal in it).
    match_file = {"players": ["Anna", "Bruno"], "deals": [bruno_deal()]}
    page.goto(f"{server}/import")
    page.fill("textarea[name=text]", json.dumps(match_file))
    page.click("button:has-text('Import')")
    imported = started_here(page)
    expect(page.locator("#sheet .local-note")).to_contain_text("Match imported")
    expect(rows(page)).to_have_count(1, timeout=SLOW)
    assert len({created, rematch, imported}) == 3

    # The home page lists them; one more started and deleted is forgotten (never sent).
    page.goto(f"{server}/matches/new")
    page.fill("#seats li:nth-child(1) input[name=player]", "Eva")
    page.fill("#seats li:nth-child(2) input[name=player]", "Franco")
    page.click("button:has-text('Start the match')")
    started_here(page)
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("form.danger-zone button")
    expect(page).to_have_url(f"{server}/", timeout=SLOW)
    listed = page.locator(".started-here li")
    expect(listed).to_have_count(3, timeout=SLOW)
    expect(page.locator(".started-here")).to_contain_text("Carla vs Dario")
    # As the match stands on the phone: its two deals scored, not the totals it started with.
    expect(page.locator(".started-here li", has_text="Carla vs Dario")).to_contain_text(
        "Carla 5 · Dario 5", timeout=SLOW
    )
    expect(page.locator(".started-here")).not_to_contain_text("Eva")
    page.goto(f"{server}/matches/{imported}")
    expect(rows(page)).to_have_count(1, timeout=SLOW)
    reached = server_matches(server)
    assert len(reached) == before, f"reached the server while offline: {reached[:-before]}"

    # The connection back: the first creation is stored but its answer is lost; the retry
    # (same Idempotency-Key) gets the same match.
    keys: list[str] = []

    def store_then_lose(route: Route) -> None:
        if route.request.method == "POST" and not keys:
            route.fetch()
            keys.append(route.request.headers.get("idempotency-key", ""))
            route.abort("connectionreset")
        else:
            route.continue_()

    page.route("**/api/matches", store_then_lose)
    back_online(context, page)
    flush_outbox(page)
    expect(page).to_have_url(re.compile(r"/matches/\d+$"), timeout=SLOW)  # the server's address
    flush_outbox(page)
    wait_until(
        page,
        "async () => (await window.scopa?.outbox.entries(null))?.length === 0",
        "the outbox was not emptied",
    )
    assert keys
    assert keys[0]
    found = server_matches(server)
    assert len(found) == before + 3  # each match once
    by_players = {tuple(m["players"]): m for m in found[:3]}
    carla = server_match(server, by_players[("Carla", "Dario")]["id"])
    assert carla["sheet"]["totals"] == {"Carla": 5, "Dario": 5}
    points = [row["points"] for row in carla["sheet"]["deals"]]
    assert [p["Dario"]["total"] > p["Carla"]["total"] for p in points] == [True, False]
    names = {m.get("name") for m in found[:3]}
    assert "Sunday (rematch)" in names
    flush_outbox(page)
    assert match_count(server) == before + 3
    server_id = int(page.url.rsplit("/", 1)[1])
    assert server_match(server, server_id)["sheet"]["totals"] == {"Anna": 0, "Bruno": 4}
