"""This device's own changes, as this device sees them: a deal recorded while the device's
scorer has not started leaves no draft behind; a change made here (in another tab, or sent by
the outbox) is never announced as another device's."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.conftest import OFFLINE, wait_until
from tests.browser.netcut import back_online, context_with_signal, go_offline
from tests.browser.test_offline import new_match, open_and_keep
from tests.browser.test_sheet import PHONE

pytestmark = [pytest.mark.browser, OFFLINE]

SLOW = 60_000


def fill_a_deal(page: Page) -> None:
    """Anna's deal, tapped into the tally form: 22 cards, five coins, her best pairs; Bruno
    takes last."""
    page.fill("input[name=count-0]", "22")
    for rank in ("A", "2", "3", "7", "K"):
        page.click(f"label.toggle:has(input[name=coins-0][value='{rank}'])")
    for suit, a, b in (("c", "7", "6"), ("s", "6", "7"), ("b", "7", "A")):
        page.click(f"button[data-pair={suit}][data-a='{a}'][data-b='{b}']")
    page.click("input[name=last][value='1']")


def cold_phone(server: str, context: BrowserContext) -> tuple[int, Page]:
    """The phone (``context``, online) keeps a new match's pages, goes offline and opens the
    new-deal form in a tab whose scorer has not started when the deal is recorded (here: it
    never answers)."""
    match_id = new_match(server)
    open_and_keep(context.new_page(), server, match_id)
    go_offline(context)
    cold = context.new_page()
    cold.add_init_script("window.Worker = class { postMessage() {} terminate() {} };")
    cold.goto(f"{server}/matches/{match_id}/deals/new")
    return match_id, cold


def test_deal_sent_before_the_scorer_starts_drops_its_draft(server: str, browser: Browser) -> None:
    # No service worker and no Pyodide: the device's scorer never starts, the server checks.
    context = browser.new_context(viewport=PHONE, service_workers="block")
    context.route("**/static/vendor/pyodide/**", lambda route: route.abort())
    page = context.new_page()
    match_id = new_match(server)
    form = f"{server}/matches/{match_id}/deals/new"
    page.goto(form)
    fill_a_deal(page)
    expect(page.locator("#draft-bar")).to_be_visible()
    assert not page.evaluate("window.scopa?.scorer.isReady")
    page.click("#deal-form button[type=submit]")
    expect(page).to_have_url(re.compile(rf"/matches/{match_id}\?done=1$"), timeout=SLOW)
    expect(page.locator("table.scores tbody tr.deal-row")).to_have_count(1)

    page.goto(form)  # the next deal's form opens empty, not with the deal just recorded
    expect(page.locator("#check")).to_have_attribute("data-core", re.compile("."))  # scripts ran
    kept = page.evaluate(
        """async () => await window.scopa.outbox.draft.get(
             location.pathname + "#" + document.querySelector("#deal-form").dataset.mode)"""
    )
    assert kept is None  # no draft on the device: nothing to restore, now or later
    expect(page.locator("input[name=count-0]")).to_have_value("")
    expect(page.locator("input[name=coins-0][value='A']")).not_to_be_checked()
    expect(page.locator("#draft-bar")).to_be_hidden()
    context.close()


def test_change_made_on_this_device_is_not_another_devices(server: str, browser: Browser) -> None:
    context = browser.new_context(viewport=PHONE, service_workers="block")  # online all along
    here, other_tab = context.new_page(), context.new_page()
    match_id = new_match(server)
    sheet = f"{server}/matches/{match_id}"
    other_tab.goto(sheet)
    here.goto(sheet)
    here.click("summary:has-text('House rules')")
    here.uncheck("#settings-form input[name=primiera]")
    here.click("button:has-text('Apply and re-score')")
    expect(here.locator(".rules-line")).to_contain_text("primiera off", timeout=SLOW)
    # The other tab of this same device follows within a poll, and says whose change it was.
    expect(other_tab.locator(".rules-line")).to_contain_text("primiera off", timeout=10_000)
    expect(other_tab.locator(".alert.note")).to_contain_text("Changed on this device")
    expect(other_tab.locator(".alert.note")).not_to_contain_text("another device")

    # A change from elsewhere is still another device's.
    httpx.patch(f"{server}/api/matches/{match_id}/rules", json={"target": 16})
    expect(other_tab.locator(".alert.note")).to_contain_text("another device", timeout=10_000)
    context.close()


@pytest.mark.slow
def test_deals_kept_before_the_scorer_starts_are_sent_once_or_given_back(
    server: str, browser: Browser, artifacts: Path
) -> None:
    """One phone's story, in one context (its scorer's first start paid once): a deal kept
    before the scorer started is sent once; then, for another match, one the scorer refuses
    gives its form back."""
    context = context_with_signal(browser.new_context, viewport=PHONE)
    try:
        deal_kept_before_the_scorer_starts_is_read_and_shown_then_sent_once(server, context)
        deal_kept_before_the_scorer_starts_and_refused_gives_its_form_back(
            server, context, artifacts
        )
    finally:
        context.close()


def deal_kept_before_the_scorer_starts_is_read_and_shown_then_sent_once(
    server: str, context: BrowserContext
) -> None:
    match_id, cold = cold_phone(server, context)
    fill_a_deal(cold)
    cold.click("#deal-form button[type=submit]")
    expect(cold).to_have_url(f"{server}/matches/{match_id}", timeout=SLOW)
    expect(cold.locator("#sheet .local-note")).to_contain_text("Kept on this device")
    expect(cold.locator("#offline-bar")).to_contain_text("1 change waits")

    sheet = context.new_page()  # the scorer starts here: it reads the kept fields and scores
    sheet.goto(f"{server}/matches/{match_id}")
    expect(sheet.locator("table.scores tbody tr.deal-row")).to_have_count(1, timeout=SLOW)
    expect(sheet.locator("#sheet .local-note")).to_contain_text("Scored on this device")
    back_online(context)
    sheet.evaluate("() => window.scopa.flush()")
    # Once the outbox is empty the deal was sent and nothing is left to send again: it is
    # there once.
    wait_until(
        sheet,
        "async () => (await window.scopa.outbox.entries(null)).length === 0",
        "the outbox was not emptied",
    )
    deals = httpx.get(f"{server}/api/matches/{match_id}").json()["match"]["deals"]
    assert len(deals) == 1, f"the kept deal was not sent once: {deals}"
    assert deals[0]["piles"]["Anna"]["coins"] == ["A", "2", "3", "7", "K"]


def deal_kept_before_the_scorer_starts_and_refused_gives_its_form_back(
    server: str, context: BrowserContext, artifacts: Path
) -> None:
    match_id, cold = cold_phone(server, context)
    cold.fill("input[name=count-0]", "45")  # more than the 40 cards
    cold.click("input[name=last][value='1']")
    cold.click("#deal-form button[type=submit]")
    expect(cold).to_have_url(f"{server}/matches/{match_id}", timeout=SLOW)

    sheet = context.new_page()
    sheet.goto(f"{server}/matches/{match_id}")
    choice = sheet.locator("#conflicts .conflict-choice")
    expect(choice).to_contain_text("Not saved", timeout=SLOW)
    expect(sheet.locator("table.scores tbody tr.deal-row")).to_have_count(0)
    expect(sheet.locator("#sheet .local-note")).to_have_count(0)
    sheet.screenshot(path=str(artifacts / "kept-deal-refused-phone.png"), full_page=True)
    sheet.click("#conflicts a:has-text('Open the form again')")
    expect(sheet.locator("input[name=count-0]")).to_have_value("45", timeout=SLOW)
    expect(sheet.locator("#draft-bar")).to_contain_text("Draft restored")


def test_a_form_the_server_refuses_is_shown_in_place_and_stays_live(
    server: str, browser: Browser
) -> None:
    """The scorer never starts, so the server checks the deal: its refusal (422, the form with
    its errors) is put in place of the page (a module runs once per window, so the page's
    set-up runs again on the new form: the tally's counts, the draft)."""
    context = browser.new_context(viewport=PHONE, service_workers="block")
    context.route("**/static/vendor/pyodide/**", lambda route: route.abort())
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    match_id = new_match(server)
    page.goto(f"{server}/matches/{match_id}/deals/new")
    fill_a_deal(page)
    page.fill("input[name=count-0]", "-3")  # not a count: it counts nothing (no "40 of 40 ✓")
    expect(page.locator("#check")).to_contain_text("Cards 0 of 40 (40 missing)")
    page.fill("input[name=count-0]", "45")  # more cards than the deck has
    page.click("#deal-form button[type=submit]")
    expect(page.locator("#deal-form .field-error").first).to_be_visible(timeout=SLOW)
    assert page.url.endswith(f"/matches/{match_id}/deals/new")
    assert page.evaluate("document.querySelectorAll('#deal-form').length") == 1

    expect(page.locator("#draft-bar")).to_be_hidden()
    marked = page.locator("#deal-form .field-error[data-for]")
    expect(marked).not_to_have_count(0)
    said = marked.all_inner_texts()
    assert any("45" in text for text in said), said
    page.fill("input[name=count-0]", "46")  # still wrong: its mark says so as it is now
    expect(marked.filter(has_text="46")).to_have_count(1)
    expect(marked.filter(has_text="45")).to_have_count(0)
    page.fill("input[name=count-0]", "22")
    expect(page.locator("#check")).to_contain_text("Cards 40 of 40")  # app.js, again
    expect(marked).to_have_count(0)  # the field is fixed: its old error goes
    expect(page.locator("#draft-bar")).to_be_visible()  # dealform.js, again
    page.click("#deal-form button[type=submit]")
    expect(page).to_have_url(re.compile(rf"/matches/{match_id}\?done=1$"), timeout=SLOW)
    expect(page.locator("table.scores tbody tr.deal-row")).to_have_count(1)
    assert errors == []
    context.close()
