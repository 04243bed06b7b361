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


def test_stale_page_change_refused_with_fresh_sheet(server: str, page: Page) -> None:
    created = httpx.post(f"{server}/api/matches", json={"players": ["Anna", "Bruno"]})
    match_id = created.json()["id"]
    page.goto(f"{server}/matches/{match_id}/deals/new")
    httpx.post(f"{server}/api/matches/{match_id}/deals", json=anna_deal())  # meanwhile
    fill_side(page, 0, WINNER_PILE, 0)
    fill_side(page, 1, LOSER_PILE, 0)
    page.check("input[name=last][value='']")
    page.click("button:has-text('Record the deal')")
    # Nothing typed is lost: the deal waits on this device and both deals are offered.
    choice = page.locator("#conflicts .conflict-choice")
    expect(choice).to_contain_text("another device recorded deal 1", timeout=60_000)
    expect(choice.locator("button")).to_have_text(
        ["Add mine as deal 2", "Discard mine (it is the same deal)"]
    )
    stored = httpx.get(f"{server}/api/matches/{match_id}").json()
    assert len(stored["match"]["deals"]) == 1
