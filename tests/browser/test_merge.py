"""Two phones, one match, at phone size (issue 23 items 3 and 5): one merge policy online and
offline. What does not clash goes through (a rules change after the other phone's deal, a
delete of another deal, edits of different fields of one deal); a real clash shows both and
keeps what was typed; a deal form made stale by the other phone's rules change re-checks and
says what changed; identical deals never mix (the twin-deal delete)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.conftest import OFFLINE, wait_until
from tests.browser.netcut import back_online, go_offline
from tests.browser.test_offline import SLOW, open_and_keep, rows, server_match
from tests.browser.test_sheet import LOSER_PILE, PHONE, WINNER_PILE, fill_side
from tests.web.conftest import anna_deal, bruno_deal

pytestmark = [pytest.mark.browser, OFFLINE]

OFFLINE_WORDS = "While this device was offline"


@pytest.fixture
def other(browser: Browser) -> Iterator[Page]:
    """The other phone: a browser context of its own, at phone size, online all along (no
    service worker: it would keep the whole offline sheet, which this phone never uses)."""
    context = browser.new_context(viewport=PHONE, service_workers="block")
    yield context.new_page()
    context.close()


def sheet_url(match_id: int) -> re.Pattern[str]:
    return re.compile(rf"/matches/{match_id}(\?done=1)?$")


def new_match(server: str, *deals: dict[str, Any]) -> int:
    created = httpx.post(f"{server}/api/matches", json={"players": ["Anna", "Bruno"]}).json()
    for deal in deals:
        httpx.post(f"{server}/api/matches/{created['id']}/deals", json=deal)
    ident: int = created["id"]
    return ident


def fill_deal(page: Page) -> None:
    fill_side(page, 0, WINNER_PILE, 1)
    fill_side(page, 1, LOSER_PILE, 0)
    page.check("input[name=last][value='']")
    expect(page.locator("#check")).to_have_class(re.compile(r"\bok\b"), timeout=SLOW)


def edit_deal(page: Page, server: str, match_id: int, number: int, field: str, value: str) -> None:
    page.goto(f"{server}/matches/{match_id}/deals/{number}/edit")
    page.fill(f"input[name={field}]", value)
    expect(page.locator("#check")).to_have_class(re.compile(r"\bok\b"), timeout=SLOW)


@pytest.mark.slow
def test_online_changes_merge_and_a_stale_form_rechecks(
    server: str, page: Page, other: Page
) -> None:
    """Two phones online, in one context each for the whole story (each step a match of its
    own): what does not clash goes through, then a form made stale re-checks."""
    online_changes_that_do_not_clash_go_through(server, page, other)
    a_stale_deal_form_rechecks_and_says_what_changed(server, page, other)


def online_changes_that_do_not_clash_go_through(server: str, page: Page, other: Page) -> None:
    match_id = new_match(server, anna_deal(), bruno_deal())
    page.set_viewport_size(PHONE)
    # A rules change typed while the other phone records a deal: kept, not thrown away.
    page.goto(f"{server}/matches/{match_id}")
    page.click("summary:has-text('House rules')")
    page.uncheck("#settings-form input[name=primiera]")
    other.goto(f"{server}/matches/{match_id}/deals/new")
    fill_deal(other)
    other.click("button:has-text('Record the deal')")
    expect(other).to_have_url(sheet_url(match_id), timeout=SLOW)
    page.click("button:has-text('Apply and re-score')")
    expect(page.locator(".alert.note")).to_contain_text("Primiera off")
    expect(page.locator("#sheet")).not_to_contain_text("make the change again")
    expect(rows(page)).to_have_count(3)
    stored = server_match(server, match_id)
    assert stored["match"]["rules"]["primiera"] is False
    assert len(stored["match"]["deals"]) == 3
    # A delete of deal 1 while the other phone deleted deal 3: both go through.
    first = stored["deal_ids"][0]
    page.click("table.scores tbody tr.deal-row >> nth=0")
    expect(page.locator("#detail .breakdown")).to_contain_text("Deal 1")
    other.goto(f"{server}/matches/{match_id}")
    other.click("table.scores tbody tr.deal-row >> nth=2")
    other.click("button:has-text('Delete deal 3')")
    expect(other.locator(".alert.note")).to_contain_text("Deal 3 deleted")
    page.click("button:has-text('Delete deal 1')")
    expect(page.locator(".alert.note")).to_contain_text("Deal 1 deleted")
    expect(rows(page)).to_have_count(1)
    stored = server_match(server, match_id)
    assert len(stored["match"]["deals"]) == 1
    assert first not in stored["deal_ids"]
    assert stored["match"]["deals"][0]["last_capture"] == bruno_deal()["last_capture"]
    # Edits of different fields of one deal: merged field by field.
    edit_deal(page, server, match_id, 1, "sweeps-0", "3")
    edit_deal(other, server, match_id, 1, "sweeps-1", "4")
    other.click("button:has-text('Save deal 1')")
    expect(other).to_have_url(sheet_url(match_id), timeout=SLOW)
    page.click("button:has-text('Save deal 1')")
    expect(page).to_have_url(sheet_url(match_id), timeout=SLOW)
    deal = server_match(server, match_id)["match"]["deals"][0]
    assert deal["sweeps"] == {"Anna": 3, "Bruno": 4}
    # The same field changed to different values: both shown, mine kept in the form.
    edit_deal(page, server, match_id, 1, "sweeps-0", "2")
    edit_deal(other, server, match_id, 1, "sweeps-0", "5")
    other.click("button:has-text('Save deal 1')")
    expect(other).to_have_url(sheet_url(match_id), timeout=SLOW)
    page.click("button:has-text('Save deal 1')")
    note = page.locator(".stale-note")
    expect(note).to_contain_text("deal 1 was changed on another device too", timeout=SLOW)
    expect(note).to_contain_text("sweeps.Anna")
    expect(page.locator("input[name=sweeps-0]")).to_have_value("2")
    assert server_match(server, match_id)["match"]["deals"][0]["sweeps"]["Anna"] == 5
    page.click("button:has-text('Save deal 1')")  # keep mine
    expect(page).to_have_url(sheet_url(match_id), timeout=SLOW)
    assert server_match(server, match_id)["match"]["deals"][0]["sweeps"]["Anna"] == 2
    expect(page.locator("body")).not_to_contain_text(OFFLINE_WORDS)


def a_stale_deal_form_rechecks_and_says_what_changed(server: str, page: Page, other: Page) -> None:
    match_id = new_match(server)
    page.set_viewport_size(PHONE)
    page.goto(f"{server}/matches/{match_id}/deals/new")
    fill_deal(page)
    before = page.locator("#check").inner_text()
    assert "Anna 5 · Bruno 0" in before
    other.goto(f"{server}/matches/{match_id}")
    other.click("summary:has-text('House rules')")
    other.uncheck("#settings-form input[name=primiera]")
    other.click("button:has-text('Apply and re-score')")
    expect(other.locator(".alert.note")).to_contain_text("Primiera off")
    page.click("button:has-text('Record the deal')")
    note = page.locator(".stale-note")
    expect(note).to_contain_text("house rules were changed on another device", timeout=SLOW)
    expect(note).to_contain_text("Primiera off")
    expect(note).to_contain_text("this deal scores Anna 4 · Bruno 0")
    # The preview is checked against the new rules; what was typed is kept.
    expect(page.locator("#check")).to_contain_text("Anna 4 · Bruno 0", timeout=SLOW)
    expect(page.locator("input[name=count-0]")).to_have_value("22")
    assert server_match(server, match_id)["match"]["deals"] == []
    expect(page.locator("body")).not_to_contain_text(OFFLINE_WORDS)
    page.click("button:has-text('Record the deal')")
    expect(page).to_have_url(sheet_url(match_id), timeout=SLOW)
    assert server_match(server, match_id)["sheet"]["totals"] == {"Anna": 4, "Bruno": 0}


@pytest.mark.slow
def test_offline_changes_follow_their_deals_and_merge_without_asking(
    server: str, context: BrowserContext, page: Page, other: Page
) -> None:
    """The phone with no signal and the other phone online, in one context each for the
    whole story (the scorer starts once; each step a match of its own, ending online with
    nothing left to send)."""
    offline_twin_deals_and_edits_follow_their_deals(server, context, page, other)
    offline_changes_that_do_not_clash_go_through(server, context, page, other)


def offline_twin_deals_and_edits_follow_their_deals(
    server: str, context: BrowserContext, page: Page, other: Page
) -> None:
    """Three identical deals. Offline, this phone edits deal 2 and deletes deal 3; the other
    phone deletes deal 1 meanwhile. Back online: deal 3 is deleted (never deal 1 or the edited
    one), and the edit reaches deal 2 at its new place (deal 1)."""
    match_id = new_match(server, anna_deal(), anna_deal(), anna_deal())
    ids = server_match(server, match_id)["deal_ids"]
    open_and_keep(page, server, match_id)
    wait_until(
        page,
        "async (id) => !!(await (await caches.open('scopa-pages-v1'))"
        ".match(`/matches/${id}/deals/3`))",
        "deal 3's page was not kept",
        arg=match_id,
    )
    go_offline(context)
    edit_deal(page, server, match_id, 2, "sweeps-1", "4")
    page.click("button:has-text('Save deal 2')")
    expect(page).to_have_url(sheet_url(match_id), timeout=SLOW)
    page.goto(f"{server}/matches/{match_id}/deals/3")
    page.click("button:has-text('Delete deal 3')")
    expect(page).to_have_url(sheet_url(match_id), timeout=SLOW)
    expect(page.locator("#offline-bar")).to_contain_text("2 changes wait", timeout=SLOW)
    expect(rows(page)).to_have_count(2, timeout=SLOW)
    other.goto(f"{server}/matches/{match_id}")
    other.click("table.scores tbody tr.deal-row >> nth=0")
    other.click("button:has-text('Delete deal 1')")
    expect(other.locator(".alert.note")).to_contain_text("Deal 1 deleted")
    back_online(context, page)
    expect(page.locator("#offline-bar")).to_be_hidden(timeout=SLOW)
    stored = server_match(server, match_id)
    assert stored["deal_ids"] == [ids[1]]
    assert stored["match"]["deals"][0]["sweeps"]["Bruno"] == 4
    assert sorted(r["id"] for r in stored["removed"]) == [ids[0], ids[2]]
    expect(page.locator("#conflicts")).to_be_hidden()
    expect(rows(page)).to_have_count(1, timeout=SLOW)


def offline_changes_that_do_not_clash_go_through(
    server: str, context: BrowserContext, page: Page, other: Page
) -> None:
    """Offline: the target changed and deal 1's sweeps edited; meanwhile the other phone
    recorded a deal and changed deal 1's last cards. Back online all of it is kept, with no
    question asked; the same setting set to the same value on both is no clash."""
    match_id = new_match(server, anna_deal(), bruno_deal())
    open_and_keep(page, server, match_id)
    go_offline(context)
    page.click("summary:has-text('House rules')")
    page.fill("#settings-form input[name=target]", "21")
    page.uncheck("#settings-form input[name=primiera]")
    page.click("button:has-text('Apply and re-score')")
    expect(page.locator("#offline-bar")).to_contain_text("1 change waits", timeout=SLOW)
    edit_deal(page, server, match_id, 1, "sweeps-1", "4")
    page.click("button:has-text('Save deal 1')")
    expect(page).to_have_url(sheet_url(match_id), timeout=SLOW)
    other.goto(f"{server}/matches/{match_id}/deals/new")
    fill_deal(other)
    other.click("button:has-text('Record the deal')")
    expect(other).to_have_url(sheet_url(match_id), timeout=SLOW)
    other.goto(f"{server}/matches/{match_id}/deals/1/edit")
    other.check("input[name=last][value='0']")
    expect(other.locator("#check")).to_have_class(re.compile(r"\bok\b"), timeout=SLOW)
    other.click("button:has-text('Save deal 1')")
    expect(other).to_have_url(sheet_url(match_id), timeout=SLOW)
    rules = server_match(server, match_id)["match"]["rules"]
    assert rules["target"] != 21, f"the offline phone's change reached the server: {rules}"
    other.goto(f"{server}/matches/{match_id}")
    other.click("summary:has-text('House rules')")
    other.uncheck("#settings-form input[name=primiera]")
    other.click("button:has-text('Apply and re-score')")
    expect(other.locator(".alert.note")).to_contain_text("Primiera off")
    back_online(context, page)
    expect(page.locator("#offline-bar")).to_be_hidden(timeout=SLOW)
    expect(page.locator("#conflicts")).to_be_hidden()
    stored = server_match(server, match_id)
    assert stored["match"]["rules"]["target"] == 21
    assert stored["match"]["rules"]["primiera"] is False
    assert len(stored["match"]["deals"]) == 3
    first = stored["match"]["deals"][0]
    assert (first["sweeps"]["Bruno"], first["last_capture"]) == (4, "Anna")
