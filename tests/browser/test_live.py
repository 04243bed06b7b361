"""Two devices, one match: a sheet open in the browser follows another device's changes, and
a deal recorded on a stale page is kept and offered next to the other device's."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_sheet import LOSER_PILE, WINNER_PILE, fill_side
from tests.web.conftest import anna_deal

pytestmark = pytest.mark.browser


def test_open_sheet_follows_another_device(server: str, page: Page) -> None:
    created = httpx.post(f"{server}/api/matches", json={"players": ["Anna", "Bruno"]})
    match_id = created.json()["id"]
    page.goto(f"{server}/matches/{match_id}")
    expect(page.locator("table.scores tbody tr.deal-row")).to_have_count(0)
    httpx.post(f"{server}/api/matches/{match_id}/deals", json=anna_deal())  # the other phone
    expect(page.locator("table.scores tbody tr.deal-row")).to_have_count(1, timeout=6000)
    expect(page.locator(".alert.note")).to_contain_text("Updated on another device")


def test_stale_deal_form_shows_both_and_keeps_the_deal(server: str, page: Page) -> None:
    """Online all along: another device recorded a deal while the form was open. The server
    re-checks (one merge policy): both shown, the deal kept in the form, never "while this
    device was offline"; recorded again it becomes deal 2."""
    created = httpx.post(f"{server}/api/matches", json={"players": ["Anna", "Bruno"]})
    match_id = created.json()["id"]
    page.goto(f"{server}/matches/{match_id}/deals/new")
    httpx.post(f"{server}/api/matches/{match_id}/deals", json=anna_deal())  # meanwhile
    fill_side(page, 0, WINNER_PILE, 0)
    fill_side(page, 1, LOSER_PILE, 0)
    page.check("input[name=last][value='']")
    page.click("button:has-text('Record the deal')")
    note = page.locator(".stale-note")
    expect(note).to_contain_text("another device recorded deal 1", timeout=60_000)
    expect(note).to_contain_text("it becomes deal 2")
    expect(page.locator("body")).not_to_contain_text("While this device was offline")
    expect(page.locator("input[name=count-0]")).to_have_value("22")
    stored = httpx.get(f"{server}/api/matches/{match_id}").json()
    assert len(stored["match"]["deals"]) == 1
    page.click("button:has-text('Record the deal')")
    expect(page.locator("table.scores tbody tr.deal-row")).to_have_count(2, timeout=60_000)
