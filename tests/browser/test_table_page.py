"""A table played together, in Chromium: the seat's page (table.js, an ES module importing
cards.js) draws the cards with the Italian suits and follows the table's stream."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import OFFLINE, wait_scorer_kept
from tests.browser.netcut import back_online, go_offline
from tests.browser.test_own_changes import fill_a_deal

pytestmark = [pytest.mark.browser, OFFLINE]


def test_the_seat_page_draws_the_cards_and_goes_live(server: str, page: Page) -> None:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    table = httpx.post(f"{server}/api/tables", json={"players": 2}, timeout=30).json()
    page.goto(f"{server}/t/{table['code']}")
    assert scorer_started(page) is False  # the join form scores nothing
    page.fill("input[name=name]", "Anna")
    page.locator("form[action^='/t/'] button[type=submit]").first.click()
    expect(page.locator("#table")).to_have_attribute("data-live", "1")
    expect(page.locator("#table .pc svg.suit").first).to_be_attached()
    assert scorer_started(page) is False  # the server deals and scores a table
    assert errors == []
    page.goto(f"{server}/matches/new")  # a page that may score a sheet on the device...
    assert scorer_started(page) is False  # ...but online the server scores
    go_offline(page.context)  # the signal drops: the device may have to score alone
    page.wait_for_function("() => window.scopa.scorer.worker !== null")
    back_online(page.context)


@pytest.mark.slow
def test_online_the_deal_form_is_checked_by_the_server_and_offline_by_the_device(
    server: str, page: Page
) -> None:
    """The live check turns green from the server's answer while the device's scorer has
    not started (a phone with signal never starts it); offline the device's scorer starts
    and checks the same form the same way."""
    made = httpx.post(f"{server}/api/matches", json={"players": ["Anna", "Bruno"]}, timeout=30)
    page.goto(f"{server}/matches/{made.json()['id']}/deals/new?mode=tally")
    fill_a_deal(page)
    check = page.locator("#check")
    expect(check).to_have_attribute("data-core", "ok")
    online = points(check.inner_text())
    assert scorer_started(page) is False
    wait_scorer_kept(page)
    go_offline(page.context)
    page.fill("input[name=sweeps-0]", str(int(page.input_value("input[name=sweeps-0]") or 0) + 1))
    expect(check).to_contain_text(f"Anna {online[0] + 1} ·", timeout=60_000)  # a cold start
    assert page.evaluate("window.scopa.scorer.isReady")
    assert points(check.inner_text()) == (online[0] + 1, online[1])
    back_online(page.context)


def points(line: str) -> tuple[int, int]:
    """Anna's and Bruno's points in the check's line ("ready: Anna 5 · Bruno 2")."""
    found = re.search(r"ready: Anna (\d+) · Bruno (\d+)", line)
    assert found, line
    return int(found[1]), int(found[2])


def scorer_started(page: Page) -> bool:
    """Whether the page started the sheet's scorer (offline.js starts it once the page has
    painted: two frames and a task later)."""
    started: bool = page.evaluate(
        """() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(
             () => setTimeout(() => done(window.scopa.scorer.worker !== null), 0))))"""
    )
    return started
