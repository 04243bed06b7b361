"""Cirulla and Escoba played to the end on the sheet, at phone size, in Debian's Chromium:
the variant chosen on the new-match page, its facts on the deal form (Cirulla's declarations,
"Piccola 4, Grande 5" once the deal checks), a house-rule change, and a cappotto that ends
the game with the sheet saying why. Screenshots go to test-artifacts/."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_sheet import PHONE, fill_side, totals

pytestmark = pytest.mark.browser

ANNA_CIRULLA = {"count": "23", "coins": "A 2 3 4 J H K", "best": ("7", "7", "6")}
BRUNO_CIRULLA = {"count": "17", "coins": "5 6 7", "best": ("5", "6", "7")}
WINNER = {"count": "22", "coins": "A 2 3 5 7 K", "best": ("7", "7", "6")}
LOSER = {"count": "18", "coins": "4 6 J H", "best": ("5", "6", "7")}


def start(page: Page, server: str, preset: str) -> None:
    page.set_viewport_size(PHONE)
    page.goto(server + "/matches/new")
    page.fill("input[aria-label='Seat 1']", "Anna")
    page.fill("input[aria-label='Seat 2']", "Bruno")
    page.click(f"button.chip:has-text('{preset}')")
    expect(page.locator("input[name=variant]")).to_have_value(re.compile(r"\w+"))
    page.click("button:has-text('Start the match')")
    expect(page).to_have_url(re.compile(r"/matches/\d+$"))


def open_blank_form(page: Page) -> None:
    """The deal form, without a draft this device may have kept from an earlier visit."""
    sheet = re.match(r".*/matches/\d+", page.url)
    assert sheet is not None, page.url
    page.goto(sheet.group(0) + "/deals/new")
    expect(page.locator("h1")).to_contain_text("Record deal")
    if page.locator("#draft-bar").is_visible():
        page.click("#discard-draft")
        page.wait_for_load_state()
    expect(page.locator("input[data-coin]:checked")).to_have_count(0)


def deal(
    page: Page,
    piles: tuple[Mapping[str, object], Mapping[str, object]],
    sweeps: tuple[int, int],
    last: int,
) -> None:
    open_blank_form(page)
    for i, pile in enumerate(piles):
        fill_side(page, i, pile, sweeps[i])
    page.check(f"input[name=last][value='{last}']")
    expect(page.locator("#check")).to_contain_text("Cards 40 of 40 ✓")
    # Green once the core, in the device's worker, accepts the deal.
    expect(page.locator("#check")).to_have_class(re.compile(r"\bok\b"), timeout=60_000)
    page.click("button:has-text('Record the deal')")
    expect(page).to_have_url(re.compile(r"/matches/\d+\?done=1$"))


def test_cirulla_to_a_cappotto(server: str, page: Page, artifacts: Path) -> None:
    start(page, server, "Cirulla")
    expect(page.locator(".rules-line")).to_contain_text("Cirulla · to 51")

    # The deal form asks for the declarations and says what the coins score as they are tapped.
    open_blank_form(page)
    expect(page.locator("fieldset.declarations")).to_be_visible()
    fill_side(page, 0, ANNA_CIRULLA, 0)
    fill_side(page, 1, BRUNO_CIRULLA, 1)
    page.click("button[data-step='cirulla-0']")
    page.check("input[name=last][value='1']")
    expect(page.locator("#check")).to_contain_text("Cards 40 of 40 ✓")
    expect(page.locator("#check")).to_have_class(re.compile(r"\bok\b"), timeout=60_000)
    # what the coins score, as the deal's check (the core's scoring) says it
    hint = page.locator("fieldset.side[data-side='0'] .variant-hint")
    expect(hint).to_have_text("Piccola 4, Grande 5")
    page.screenshot(path=str(artifacts / "cirulla-deal-form-phone.png"), full_page=True)
    page.click("button:has-text('Record the deal')")
    expect(page).to_have_url(re.compile(r"/matches/\d+\?done=1$"))
    assert totals(page) == ["15", "2"]

    # A house rule of the variant: a cirulla worth 2; the sheet re-scores and says so.
    page.click("summary:has-text('House rules')")
    page.fill("#settings-form input[name=cirulla_points]", "2")
    page.click("button:has-text('Apply and re-score')")
    expect(page.locator(".alert.note")).to_contain_text("Cirulla points 2")
    expect(page.locator(".alert.note")).to_contain_text("Anna 15 → 14")
    assert totals(page) == ["14", "2"]

    # Bruno takes all ten coins: the cappotto wins at once, far below the target of 51.
    # (Bruno takes the rest: the form implies his cards and coins, all ten of them.)
    open_blank_form(page)
    page.fill("input[name=count-0]", "16")
    for suit in "csb":
        page.select_option(f"select[name=best-0-{suit}]", "7")
        page.select_option(f"select[name=best-1-{suit}]", "6")
    page.check("input[name=last][value='1']")
    expect(page.locator("#check")).to_contain_text("Cards 40 of 40 ✓")
    # Green once the core, in the device's worker, accepts the deal.
    expect(page.locator("#check")).to_have_class(re.compile(r"\bok\b"), timeout=60_000)
    expect(page.locator("fieldset.side[data-side='1'] .variant-hint")).to_contain_text("cappotto")
    page.click("button:has-text('Record the deal')")
    expect(page).to_have_url(re.compile(r"/matches/\d+\?done=1$"))
    expect(page.locator(".status .winner")).to_have_text("Bruno wins")
    expect(page.locator(".status .why")).to_contain_text("cappotto")
    page.click("table.scores tbody tr.deal-row >> nth=1")
    expect(page.locator("#detail .breakdown")).to_contain_text("all ten coins")
    expect(page.locator("#detail .breakdown")).to_contain_text("Grande")
    page.screenshot(path=str(artifacts / "cirulla-cappotto-phone.png"), full_page=True)


@pytest.mark.slow
def test_escoba_to_the_end_after_a_rule_change(server: str, page: Page, artifacts: Path) -> None:
    start(page, server, "Escoba")
    expect(page.locator(".rules-line")).to_contain_text("Escoba · to 15")
    deal(page, (WINNER, LOSER), (3, 0), 1)
    deal(page, (WINNER, LOSER), (3, 0), 1)
    assert totals(page) == ["14", "0"]
    expect(page.locator(".status")).to_contain_text("In progress")

    page.click("table.scores tbody tr.deal-row >> nth=0")
    breakdown = page.locator("#detail .breakdown")
    for label in ("Cartas", "Oros", "Siete de velo", "Setenta", "Escobas"):
        expect(breakdown).to_contain_text(label)
    expect(breakdown).not_to_contain_text("Napola")

    # Lowering the target ends the game at deal 2.
    page.click("summary:has-text('House rules')")
    expect(page.locator("#settings-form select[name=primiera_mode]")).to_be_visible()
    page.fill("#settings-form input[name=target]", "11")
    page.click("button:has-text('Apply and re-score')")
    expect(page.locator(".alert.note")).to_contain_text("Target 11")
    expect(page.locator(".alert.note")).to_contain_text("winner now Anna at deal 2")
    expect(page.locator(".status .winner")).to_have_text("Anna wins")
    page.screenshot(path=str(artifacts / "escoba-won-phone.png"), full_page=True)
