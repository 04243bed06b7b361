"""Live updates pushed (live.js): two devices on one match, a deal recorded on one appears
on the other from the event stream (while the stream is open, the sheet polls only every 30 s,
and the requests it made are counted); with the stream blocked, the 3-second poll brings it."""

from __future__ import annotations

import time

import httpx
import pytest
from playwright.sync_api import Browser, Page, Route, expect

from tests.browser.test_sheet import LOSER_PILE, WINNER_PILE, fill_side
from tests.web.conftest import anna_deal

pytestmark = pytest.mark.browser

ROWS = "table.scores tbody tr.deal-row"


def record_on(page: Page, server: str, match_id: int) -> None:
    page.goto(f"{server}/matches/{match_id}/deals/new")
    fill_side(page, 0, WINNER_PILE, 1)
    fill_side(page, 1, LOSER_PILE, 0)
    page.check("input[name=last][value='']")
    page.click("button:has-text('Record the deal')")


def test_a_deal_recorded_on_one_device_appears_on_the_other(server: str, browser: Browser) -> None:
    match_id = httpx.post(f"{server}/api/matches", json={"players": ["Anna", "Bruno"]}).json()["id"]
    phone, table = browser.new_context(), browser.new_context()
    try:
        writer, sheet = phone.new_page(), table.new_page()
        polls: list[float] = []
        sheet.on(
            "request",
            lambda r: (
                polls.append(time.monotonic()) if "since=" in r.url and "/sheet" in r.url else None
            ),
        )
        sheet.goto(f"{server}/matches/{match_id}")
        expect(sheet.locator("html.live")).to_have_count(1, timeout=10000)  # the stream is open
        expect(sheet.locator(ROWS)).to_have_count(0)
        record_on(writer, server, match_id)  # through the deal form on the phone
        expect(writer.locator(ROWS)).to_have_count(1, timeout=10000)
        shown = time.monotonic()
        expect(sheet.locator(ROWS)).to_have_count(1, timeout=10000)
        print(f"the deal on the other sheet {time.monotonic() - shown:.2f} s after")
        sent = time.monotonic()
        httpx.post(f"{server}/api/matches/{match_id}/deals", json=anna_deal())  # and the API
        expect(sheet.locator(ROWS)).to_have_count(2, timeout=10000)
        print(f"the next one {time.monotonic() - sent:.2f} s after it was sent")
        expect(sheet.locator(".alert.note")).to_contain_text("Updated on another device")
        expect(sheet.locator("html.live")).to_have_count(1)  # the stream stayed open
        # Two refreshes pushed, and at most one slow poll (every 30 s while live).
        assert len(polls) <= 3, polls
    finally:
        phone.close()
        table.close()


def test_the_poll_takes_over_when_the_stream_is_blocked(server: str, browser: Browser) -> None:
    match_id = httpx.post(f"{server}/api/matches", json={"players": ["Anna", "Bruno"]}).json()["id"]
    table = browser.new_context()
    try:

        def refuse(route: Route) -> None:
            route.abort()

        table.route("**/events*", refuse)
        sheet = table.new_page()
        sheet.goto(f"{server}/matches/{match_id}")
        httpx.post(f"{server}/api/matches/{match_id}/deals", json=anna_deal())
        expect(sheet.locator(ROWS)).to_have_count(1, timeout=8000)
        expect(sheet.locator("html.live")).to_have_count(0)
    finally:
        table.close()
