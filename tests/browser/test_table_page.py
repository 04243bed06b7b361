"""A table played together, in Chromium: the seat's page (table.js, an ES module importing
cards.js) draws the cards with the Italian suits and follows the table's stream."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


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
    page.goto(f"{server}/matches/new")  # a page that may score a sheet on the device
    assert scorer_started(page) is True


def scorer_started(page: Page) -> bool:
    """Whether the page started the sheet's scorer (offline.js starts it once the page has
    painted: two frames and a task later)."""
    started: bool = page.evaluate(
        """() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(
             () => setTimeout(() => done(window.scopa.scorer.worker !== null), 0))))"""
    )
    return started
