"""The sheet with no connection, in Chromium with the context set offline: deals recorded and a
rule changed offline, found again after the page is closed, synced exactly once; another
device's changes merged or offered as choices; an answer lost after the server stored a change
never makes a second deal."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import BrowserContext, Page, Route, expect
from playwright.sync_api import Error as PlaywrightError

from tests.browser.conftest import OFFLINE, wait_until
from tests.browser.netcut import back_online, go_offline
from tests.browser.test_sheet import LOSER_PILE, PHONE, WINNER_PILE, fill_side
from tests.web.conftest import anna_deal, bruno_deal

pytestmark = [pytest.mark.browser, OFFLINE]

SLOW = 60_000  # a cold start of the device's scorer on a busy machine


def new_match(server: str, deals: int = 0) -> int:
    created = httpx.post(f"{server}/api/matches", json={"players": ["Anna", "Bruno"]}).json()
    for _ in range(deals):
        httpx.post(f"{server}/api/matches/{created['id']}/deals", json=anna_deal())
    ident: int = created["id"]
    return ident


def server_match(server: str, match_id: int) -> dict[str, Any]:
    body: dict[str, Any] = httpx.get(f"{server}/api/matches/{match_id}").json()
    return body


def open_and_keep(page: Page, server: str, match_id: int) -> None:
    """Open the sheet online and wait until it and its forms are kept on the device."""
    page.set_viewport_size(PHONE)
    page.goto(f"{server}/matches/{match_id}")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=SLOW)
    wait_until(page, KEPT, "the sheet was not kept on the device", SLOW / 1000, arg=match_id)


KEPT = """async (id) => {
  const kept = await caches.open("scopa-pages-v1");
  const base = "/matches/" + id;
  const urls = [base, base + "/deals/new", base + "/deals/1/edit"];
  const found = await Promise.all(urls.map((u) => kept.match(u)));
  const vendor = await caches.open("scopa-vendor-v1");
  const wasm = await vendor.match("/static/vendor/pyodide/pyodide.asm.wasm");
  const deals = document.querySelectorAll("a.deal-link").length;
  return found.filter(Boolean).length >= (deals ? 3 : 2) && !!wasm
    && !!(await window.scopa?.outbox.match(id));
}"""


def record_offline(page: Page, server: str, match_id: int, winner: int) -> None:
    page.goto(f"{server}/matches/{match_id}/deals/new")
    expect(page.locator("h1")).to_contain_text("Record deal")
    fill_side(page, winner, WINNER_PILE, 1)
    fill_side(page, 1 - winner, LOSER_PILE, 0)
    page.check("input[name=last][value='']")
    expect(page.locator("#check")).to_have_class(re.compile(r"\bok\b"), timeout=SLOW)
    page.click("button:has-text('Record the deal')")
    expect(page).to_have_url(re.compile(rf"/matches/{match_id}$"), timeout=SLOW)


def refused_offline_then_fixed(page: Page, server: str, match_id: int, artifacts: Path) -> None:
    """Deal 1 with too many cards, recorded offline: this phone's scorer refuses it and marks
    the field as the server's page would; fixed, the mark goes and the deal is kept."""
    page.goto(f"{server}/matches/{match_id}/deals/new")
    fill_side(page, 0, WINNER_PILE, 1)
    fill_side(page, 1, LOSER_PILE, 0)
    page.check("input[name=last][value='']")
    page.fill("input[name=count-0]", "45")
    expect(page.locator("#check")).to_have_class(re.compile(r"\bbad\b"), timeout=SLOW)
    page.click("button:has-text('Record the deal')")
    marked = page.locator("#deal-form .field-error.live")
    expect(marked.first).to_contain_text("45 is outside 0-40", timeout=SLOW)
    expect(marked.first).to_have_attribute("data-for", "count-0")
    marked.first.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "offline-refused-marked.png"))
    assert page.url.endswith("/deals/new")  # nothing kept
    page.fill("input[name=count-0]", str(WINNER_PILE["count"]))
    expect(page.locator("#check")).to_have_class(re.compile(r"\bok\b"), timeout=SLOW)
    expect(marked).to_have_count(0)
    page.click("button:has-text('Record the deal')")
    expect(page).to_have_url(re.compile(rf"/matches/{match_id}$"), timeout=SLOW)


def flush_outbox(page: Page) -> None:
    """Sends the outbox now; the page may still be settling after the last navigation
    (the sheet reloads itself), so a destroyed context is waited out, not a failure."""
    for _ in range(40):
        try:
            page.wait_for_function("() => !!(window.scopa && window.scopa.flush)", timeout=SLOW)
            page.evaluate("() => window.scopa.flush()")
            return
        except PlaywrightError as error:
            if "context was destroyed" not in str(error):
                raise
            page.wait_for_load_state()  # the navigation that destroyed it
    raise AssertionError("the page kept navigating; the outbox was never flushed")


def rows(page: Page) -> Any:
    return page.locator("table.scores tbody tr.deal-row")


@pytest.mark.slow
def test_offline_deals_and_rules_survive_and_sync_once(
    server: str, context: BrowserContext, page: Page, artifacts: Path
) -> None:
    match_id = new_match(server)
    open_and_keep(page, server, match_id)
    go_offline(context)
    refused_offline_then_fixed(page, server, match_id, artifacts)
    for winner in (1, 0):
        record_offline(page, server, match_id, winner)
        # The sheet is put in place of the form (no navigation: the warm scorer, the scripts
        # and the outbox's database stay), with the deal shown at once.
        assert page.evaluate("performance.getEntriesByType('navigation')[0].name").endswith(
            "/deals/new"
        )
    expect(rows(page)).to_have_count(3, timeout=SLOW)
    expect(page.locator("table.scores tfoot td")).to_have_text(["10", "5"])
    # The sheet handed over by the form says who deals next too, not the kept page's dealer.
    expect(page.locator("#sheet .dealer")).to_have_text("Bruno deals deal 4")
    page.go_back()  # the form again, as after a navigation
    expect(page).to_have_url(re.compile(rf"/matches/{match_id}/deals/new$"))
    expect(page.locator("#deal-form")).to_be_visible(timeout=SLOW)
    page.goto(f"{server}/matches/{match_id}/deals/new")
    expect(page.locator("p.dealer")).to_have_text("Bruno deals this deal", timeout=SLOW)
    page.goto(f"{server}/matches/{match_id}")
    expect(rows(page)).to_have_count(3, timeout=SLOW)
    expect(page.locator("#offline-bar")).to_contain_text("Offline")
    expect(page.locator("#offline-bar")).to_contain_text("3 changes wait to be sent")
    expect(page.locator("table.scores tfoot td")).to_have_text(["10", "5"])
    # Who deals next follows the deals recorded here: Anna dealt 1 and 3, Bruno 2.
    expect(page.locator("#sheet .dealer")).to_have_text("Bruno deals deal 4", timeout=SLOW)
    # Said as the server says it: counted, and the chart drawn on the device (its code).
    note = page.locator("#sheet .local-note")
    expect(note).to_contain_text("3 deals recorded", timeout=SLOW)
    expect(note).not_to_contain_text("A deal recorded")
    chart = page.locator("#sheet figure.chart")
    expect(chart).to_be_visible()
    expect(chart.locator("figcaption")).to_have_text("Anna 10Bruno 5")
    assert (chart.locator("polyline").first.get_attribute("points") or "").count(",") == 4

    page.click("summary:has-text('House rules')")
    page.uncheck("#settings-form input[name=primiera]")
    page.click("button:has-text('Apply and re-score')")
    expect(page.locator("#offline-bar")).to_contain_text("4 changes wait to be sent")
    expect(page.locator("table.scores tfoot td")).to_have_text(["8", "4"], timeout=SLOW)
    expect(note).to_contain_text("3 deals recorded; Primiera off: Anna 10 → 8, Bruno 5 → 4")
    expect(chart.locator("figcaption")).to_have_text("Anna 8Bruno 4")
    assert server_match(server, match_id)["version"] == 1  # nothing reached the server

    # Close the page; open the sheet again, still offline: all of it is there.
    page.close()
    again = context.new_page()
    again.set_viewport_size(PHONE)
    again.goto(f"{server}/matches/{match_id}")
    expect(rows(again)).to_have_count(3, timeout=SLOW)
    expect(again.locator("#offline-bar")).to_contain_text("4 changes wait to be sent")
    expect(again.locator("table.scores tfoot td")).to_have_text(["8", "4"], timeout=SLOW)
    # The rules a setting's "?" opens read offline too (kept when the worker installed).
    again.click("summary:has-text('House rules')")
    again.get_by_role("link", name="What “Primiera” means").click()
    expect(again.locator("#setting-primiera")).to_be_in_viewport(timeout=SLOW)
    again.goto(f"{server}/matches/{match_id}")
    expect(rows(again)).to_have_count(3, timeout=SLOW)

    back_online(context, again)
    expect(again.locator("#offline-bar")).to_be_hidden(timeout=SLOW)
    stored = server_match(server, match_id)
    assert len(stored["match"]["deals"]) == 3
    assert stored["match"]["rules"]["primiera"] is False
    assert stored["version"] == 5  # three deals and one rule change: each once
    assert stored["sheet"]["totals"] == {"Anna": 8, "Bruno": 4}
    expect(again.locator("table.scores tfoot td")).to_have_text(["8", "4"])


@pytest.mark.slow
def test_another_device_s_changes_merge_or_ask_and_a_lost_answer_leaves_one_deal(
    server: str, context: BrowserContext, page: Page
) -> None:
    """One phone's story, in one context (the scorer starts once): each step is a match of
    its own and ends with nothing left to send."""
    a_deal_appended_on_two_devices_asks(server, context, page)
    unrelated_changes_merge_without_asking(server, context, page)
    a_lost_answer_and_a_retry_leave_one_deal(server, page)
    one_setting_changed_on_two_devices_shows_both(server, context, page)


def a_deal_appended_on_two_devices_asks(server: str, context: BrowserContext, page: Page) -> None:
    match_id = new_match(server)
    open_and_keep(page, server, match_id)
    go_offline(context)
    record_offline(page, server, match_id, 0)
    httpx.post(f"{server}/api/matches/{match_id}/deals", json=bruno_deal())  # the other phone
    back_online(context, page)
    choice = page.locator("#conflicts .conflict-choice")
    expect(choice).to_contain_text("another device recorded deal 1", timeout=SLOW)
    expect(choice.locator("button")).to_have_text(
        ["Add mine as deal 2", "Discard mine (it is the same deal)"]
    )
    choice.locator("text=Add mine as deal 2").click()
    expect(rows(page)).to_have_count(2, timeout=SLOW)
    deals = server_match(server, match_id)["match"]["deals"]
    assert len(deals) == 2
    assert deals[0]["last_capture"] == "Anna"  # theirs first, then mine


def unrelated_changes_merge_without_asking(
    server: str, context: BrowserContext, page: Page
) -> None:
    match_id = new_match(server, deals=3)
    open_and_keep(page, server, match_id)
    go_offline(context)
    page.goto(f"{server}/matches/{match_id}/deals/1/edit")
    page.fill("input[name=sweeps-1]", "4")
    expect(page.locator("#check")).to_have_class(re.compile(r"\bok\b"), timeout=SLOW)
    page.click("button:has-text('Save deal 1')")
    expect(page).to_have_url(re.compile(rf"/matches/{match_id}$"), timeout=SLOW)
    httpx.delete(f"{server}/api/matches/{match_id}/deals/3")  # the other phone
    back_online(context, page)
    expect(page.locator("#offline-bar")).to_be_hidden(timeout=SLOW)
    deals = server_match(server, match_id)["match"]["deals"]
    assert len(deals) == 2
    assert deals[0]["sweeps"]["Bruno"] == 4
    expect(page.locator("#conflicts")).to_be_hidden()


def a_lost_answer_and_a_retry_leave_one_deal(server: str, page: Page) -> None:
    match_id = new_match(server)
    open_and_keep(page, server, match_id)
    lost: list[str] = []

    def store_then_lose(route: Route) -> None:
        if route.request.method == "POST" and not lost:
            route.fetch()  # the server stores the deal...
            lost.append(route.request.headers.get("idempotency-key", ""))
            route.abort("connectionreset")  # ...and the answer never arrives
        else:
            route.continue_()

    page.route(f"**/matches/{match_id}/deals/new", store_then_lose)
    record_offline(page, server, match_id, 0)  # online, but the answer is lost
    assert lost
    assert lost[0]  # the page sent an Idempotency-Key
    assert len(server_match(server, match_id)["match"]["deals"]) == 1
    page.unroute(f"**/matches/{match_id}/deals/new")
    flush_outbox(page)
    expect(page.locator("#offline-bar")).to_be_hidden(timeout=SLOW)
    stored = server_match(server, match_id)
    assert len(stored["match"]["deals"]) == 1
    assert stored["version"] == 2
    expect(rows(page)).to_have_count(1)


def one_setting_changed_on_two_devices_shows_both(
    server: str, context: BrowserContext, page: Page
) -> None:
    match_id = new_match(server, deals=1)
    open_and_keep(page, server, match_id)
    go_offline(context)
    page.click("summary:has-text('House rules')")
    page.fill("#settings-form input[name=target]", "21")
    page.click("button:has-text('Apply and re-score')")
    expect(page.locator("#offline-bar")).to_contain_text("1 change waits", timeout=SLOW)
    httpx.patch(f"{server}/api/matches/{match_id}/rules", json={"target": 15})  # the other phone
    back_online(context, page)
    choice = page.locator("#conflicts .conflict-choice")
    expect(choice).to_contain_text("target: yours 21, theirs 15", timeout=SLOW)
    choice.locator("button:has-text('Keep mine')").click()
    expect(page.locator("#offline-bar")).to_be_hidden(timeout=SLOW)
    assert server_match(server, match_id)["match"]["rules"]["target"] == 21
