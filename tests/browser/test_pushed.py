"""Live updates pushed (live.js): two devices on one match, a deal recorded on one appears
on the other from the event stream (while the stream is open, the sheet polls only every 30 s,
and the requests it made are counted); with the stream blocked, the 3-second poll brings it."""

from __future__ import annotations

import time

import httpx
import pytest
from playwright.sync_api import Browser, Page, Route, expect

from scopa.web.pages.render import SHOWN_DEALS as SHOWN
from tests.browser.test_sheet import LOSER_PILE, WINNER_PILE, fill_side
from tests.web.conftest import anna_deal, bruno_deal

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


def test_a_change_patches_its_rows_in_and_the_whole_piece_is_not_fetched(
    server: str, browser: Browser
) -> None:
    """Each viewer fetches what the change altered (/sheet/change: the rows from the deal it
    altered, the totals, the chart, the log), not the whole piece; a rules change, which
    re-scores every deal, still brings the whole piece."""
    body = {
        "players": ["Anna", "Bruno"],
        "rules": {"target": 61},
        "deals": [anna_deal(0, 0) if n % 2 else bruno_deal() for n in range(20)],
    }
    match_id = httpx.post(f"{server}/api/import", json=body).json()["id"]
    api = f"{server}/api/matches/{match_id}"
    table = browser.new_context()
    try:
        sheet = table.new_page()
        asked: list[str] = []
        sheet.on("request", lambda r: asked.append(r.url) if "/sheet" in r.url else None)
        sheet.goto(f"{server}/matches/{match_id}")
        expect(sheet.locator("html.live")).to_have_count(1, timeout=10000)
        numbers = sheet.locator(f"{ROWS} .deal-link")
        totals = sheet.locator("#sheet tfoot td.total")

        def shown_totals() -> list[str]:
            return [str(t) for t in httpx.get(api).json()["sheet"]["totals"].values()]

        # A deal recorded elsewhere: its row, the totals, the chart and the log, patched in.
        httpx.post(f"{api}/deals", json=anna_deal())
        expect(numbers.last).to_have_text("21", timeout=10000)
        expect(numbers).to_have_count(SHOWN)
        expect(numbers.first).to_have_text(str(21 - SHOWN + 1))
        expect(totals).to_have_text(shown_totals())
        expect(sheet.locator("tr.earlier")).to_contain_text(f"{21 - SHOWN} earlier deals")
        expect(sheet.locator(".alert.note")).to_have_text(
            "Updated on another device: Deal 21 recorded"
        )
        expect(sheet.locator("#sheet figure.chart figcaption")).to_contain_text(
            f"Anna {shown_totals()[0]}"
        )
        expect(sheet.locator("#history summary")).to_contain_text("(2)")
        expect(sheet.locator("#sheet")).to_have_attribute("data-version", "2")
        expect(sheet.locator("#settings-form input[name=version]")).to_have_value("2")
        # An edit: the rows from the edited one; a deletion: every shown row, renumbered,
        # and the deleted deals' card.
        httpx.put(f"{api}/deals/15", json=anna_deal())  # was Bruno's
        expect(sheet.locator(f"{ROWS}[data-number='15'] .pts").first).to_have_text(
            "+5", timeout=10000
        )
        expect(sheet.locator("#sheet")).to_have_attribute("data-version", "3")
        expect(totals).to_have_text(shown_totals())
        httpx.delete(f"{api}/deals/21")
        expect(numbers.last).to_have_text("20", timeout=10000)
        expect(numbers).to_have_count(SHOWN)
        expect(totals).to_have_text(shown_totals())
        expect(sheet.locator("#sheet .removed")).to_contain_text("Deal 21")
        assert not [u for u in asked if "/sheet?" in u], asked  # the whole piece: never
        assert len([u for u in asked if "/sheet/change?" in u]) == 3, asked
        # The patched sheet's own forms carry the new version: Restore is taken, no conflict.
        sheet.click("#sheet .removed button:has-text('Restore')")
        expect(numbers.last).to_have_text("21", timeout=10000)
        expect(sheet.locator(".alert.conflict")).to_have_count(0)
        # A rules change re-scores every deal: the whole piece.
        httpx.patch(f"{api}/rules", json={"primiera": False})
        expect(sheet.locator("#sheet .rules-line")).to_contain_text("primiera off", timeout=10000)
        expect(totals).to_have_text(shown_totals())
        assert [u for u in asked if "/sheet?" in u], asked
    finally:
        table.close()
