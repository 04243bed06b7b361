"""The rules page, the board for a television and the shared picture, in Chromium at phone
size: a setting's "?" leads to its rule; the board follows a deal recorded on another phone
(and reloads itself without JavaScript); "Share the result" hands the picture to the phone's
share sheet, or downloads it where there is none."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect

from tests.browser.test_sheet import LAPTOP, PHONE
from tests.web.conftest import anna_deal

pytestmark = pytest.mark.browser


def new_match(server: str, deals: int = 0) -> int:
    match_id: int = httpx.post(f"{server}/api/matches", json={"players": ["Anna", "Bruno"]}).json()[
        "id"
    ]
    for _ in range(deals):
        httpx.post(f"{server}/api/matches/{match_id}/deals", json=anna_deal())
    return match_id


def test_the_board_follows_a_deal_recorded_on_another_phone(
    server: str, browser: Browser, artifacts: Path
) -> None:
    match_id = new_match(server)
    tv = browser.new_context(viewport=PHONE)
    board = tv.new_page()
    board.goto(f"{server}/matches/{match_id}/tv")
    totals = board.locator(".tv-total")
    expect(totals).to_have_text(["0", "0"])
    expect(board.locator(".tv-status")).to_have_text("No deals yet")
    assert board.locator("button, form, input, select").count() == 0
    expect(board.locator("html")).to_have_class("live")  # the event stream is open
    # Another phone (its own browser context) records a deal on the sheet's API.
    phone = browser.new_context(viewport=PHONE)
    sheet = phone.new_page()
    sheet.goto(f"{server}/matches/{match_id}")
    status = sheet.evaluate(
        """async ([id, deal]) => (await fetch(`/api/matches/${id}/deals`, {method: "POST",
            headers: {"Content-Type": "application/json"}, body: JSON.stringify(deal)})).status""",
        [match_id, anna_deal()],
    )
    assert status == 201
    expect(totals).to_have_text(["5", "2"], timeout=6000)
    expect(board.locator(".tv-status")).to_have_text("Anna leads by 3 points")
    expect(board.locator(".tv-last")).to_contain_text("Deal 1")
    expect(board.locator(".tv-to-go").first).to_have_text("6 points to go")
    board.screenshot(path=str(artifacts / "tv-phone.png"), full_page=True)
    board.set_viewport_size(LAPTOP)
    board.screenshot(path=str(artifacts / "tv-laptop.png"), full_page=True)
    phone.close()
    tv.close()
    # Without JavaScript the board reloads itself every few seconds.
    plain = browser.new_context(viewport=PHONE, java_script_enabled=False)
    still = plain.new_page()
    still.goto(f"{server}/matches/{match_id}/tv")
    expect(still.locator(".tv-total")).to_have_text(["5", "2"])
    httpx.post(f"{server}/api/matches/{match_id}/deals", json=anna_deal())
    expect(still.locator(".tv-total")).to_have_text(["10", "4"], timeout=12_000)
    plain.close()


RECORD_SHARE = """() => {
  window.shared = [];
  navigator.canShare = (data) => Array.isArray(data.files) && data.files.length > 0;
  navigator.share = async (data) => {
    const file = data.files && data.files[0];
    window.shared.push({title: data.title, text: data.text, url: data.url || null,
      name: file ? file.name : null, type: file ? file.type : null,
      head: file ? [...new Uint8Array(await file.slice(0, 8).arrayBuffer())] : null,
      size: file ? file.size : 0});
  };
}"""


def test_rules_links_and_the_share_button(server: str, browser: Browser, artifacts: Path) -> None:
    match_id = new_match(server, deals=3)  # Anna 15, Bruno 6: Anna wins
    context = browser.new_context(viewport=PHONE, has_touch=True, accept_downloads=True)
    page = context.new_page()
    page.goto(f"{server}/matches/{match_id}")
    # A setting's "?" leads to its rule on the rules page.
    page.locator("details.settings > summary").click()
    rule = page.get_by_role("link", name="What “Primiera” means")
    expect(rule).to_be_visible()
    box = rule.bounding_box()
    assert box is not None
    assert box["width"] >= 44
    assert box["height"] >= 44
    rule.click()
    page.wait_for_url(f"{server}/help#setting-primiera")
    expect(page.locator("#setting-primiera")).to_be_in_viewport()
    expect(page.locator("#setting-primiera + dd")).to_contain_text("primiera point")
    expect(page.locator("h1")).to_have_text("Rules of the game")
    page.screenshot(path=str(artifacts / "help-phone.png"))
    page.go_back()
    # No share sheet (this Chromium has none): the link downloads the picture.
    share = page.get_by_role("link", name="Share the result")
    expect(share).to_be_visible()
    with page.expect_download() as download:
        share.click()
    saved = Path(download.value.path())
    assert download.value.suggested_filename == f"scopa-{match_id}.svg"
    picture = saved.read_text()
    assert "Anna wins" in picture
    assert ">15<" in picture
    # A phone with a share sheet that takes files: the picture goes to it as an image...
    page.evaluate(RECORD_SHARE)
    share.click()
    page.wait_for_function("() => window.shared.length === 1")
    shared = page.evaluate("() => window.shared[0]")
    # ... drawn as a PNG on the phone, the picture the apps a result goes to all show.
    assert shared["name"] == f"scopa-{match_id}.png"
    assert shared["type"] == "image/png"
    assert shared["head"] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    assert shared["size"] > 5000  # a 1200 x 630 picture, not an empty canvas
    assert shared["text"] == "Anna wins"
    assert page.url == f"{server}/matches/{match_id}"  # still on the sheet
    page.screenshot(path=str(artifacts / "share-phone.png"), full_page=True)
    context.close()
