"""What a person does with the sheet, in Debian's Chromium: set up a match, record deals with
the tally form, change the rules, edit, delete and restore, play to a winner, reload, export
and import. Screenshots at phone and laptop widths go to test-artifacts/."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Page, ViewportSize, expect

from tests.web.conftest import anna_deal

pytestmark = pytest.mark.browser

PHONE: ViewportSize = {"width": 390, "height": 844}
LAPTOP: ViewportSize = {"width": 1366, "height": 900}

WINNER_PILE = {"count": "22", "coins": "A 2 3 5 7 K", "best": ("7", "7", "6")}
LOSER_PILE = {"count": "18", "coins": "4 6 J H", "best": ("5", "6", "7")}


def fill_side(page: Page, i: int, pile: Mapping[str, object], sweeps: int) -> None:
    """Fill one side in full ("nobody took the rest": every side typed in)."""
    if page.locator("input[name=rest][value='']:not(:checked)").count():
        page.click("label.chip-radio:has(input[name=rest][value=''])")
    page.fill(f"input[name=count-{i}]", str(pile["count"]))
    for rank in str(pile["coins"]).split():
        page.click(f"label.toggle:has(input[name=coins-{i}][value='{rank}'])")
    best = pile["best"]
    assert isinstance(best, tuple)
    for suit, rank in zip("csb", best, strict=True):
        page.select_option(f"select[name=best-{i}-{suit}]", rank)
    page.fill(f"input[name=sweeps-{i}]", str(sweeps))


def record(page: Page, winner: int, sweeps: tuple[int, int], last: int) -> None:
    """Record a deal with the quick tally: side ``winner`` takes docs/rules.md's 22-card pile
    (chosen once on this phone, the quick tally is what "Record a deal" opens next)."""
    page.click("text=Record a deal")
    expect(page.locator("h1")).to_contain_text("Record deal")
    expect(page).to_have_url(re.compile(r"mode=tally$"))
    fill_side(page, winner, WINNER_PILE, sweeps[winner])
    fill_side(page, 1 - winner, LOSER_PILE, sweeps[1 - winner])
    page.check(f"input[name=last][value='{last}']")
    expect(page.locator("#check")).to_contain_text("Cards 40 of 40 ✓")
    # Green once the core, in the device's worker, accepts the deal (it starts in ~3 s).
    expect(page.locator("#check")).to_have_class(re.compile(r"\bok\b"), timeout=30_000)
    page.click("button:has-text('Record the deal')")
    expect(page).to_have_url(re.compile(r"/matches/\d+\?done=1$"))


def totals(page: Page) -> list[str]:
    return page.locator("table.scores tfoot td").all_inner_texts()


@pytest.mark.slow
def test_a_match_from_start_to_finish(server: str, page: Page, artifacts: Path) -> None:
    page.set_viewport_size(PHONE)
    page.goto(server + "/")
    page.click("text=New match")
    page.fill("input[aria-label='Seat 1']", "Anna")
    page.fill("input[aria-label='Seat 2']", "Bruno")
    page.fill("input[name=name]", "Sunday at Nonna's")
    page.click("button:has-text('Start the match')")
    expect(page).to_have_url(re.compile(r"/matches/\d+$"))
    sheet_url = page.url
    expect(page.locator("h1")).to_have_text("Sunday at Nonna's")

    # Three deals with the tally form: Anna 5-2, Bruno 4-0, Anna 4-0. "Record a deal" opens
    # who took each point first; the quick tally, chosen here, is remembered.
    page.click("text=Record a deal")
    expect(page.locator("#categories")).to_be_visible()
    page.click("a.tab:has-text('Quick tally')")
    page.click("label.chip-radio:has(input[name=rest][value=''])")
    page.fill("input[name=count-0]", "25")
    page.fill("input[name=count-1]", "18")
    expect(page.locator("#check")).to_contain_text("3 too many")
    page.click("button:has-text('Record the deal')")
    expect(page.locator(".error")).to_contain_text("Nothing was saved")
    page.screenshot(path=str(artifacts / "deal-form-error-phone.png"), full_page=True)
    page.goto(sheet_url)
    expect(page.locator("table.scores tbody tr.deal-row")).to_have_count(0)

    record(page, 0, (1, 2), 1)
    record(page, 1, (0, 0), 0)
    record(page, 0, (0, 0), 1)
    expect(page.locator("table.scores tbody tr.deal-row")).to_have_count(3)
    assert totals(page) == ["9", "6"]

    # Primiera off: the sheet re-scores at once and says what changed.
    page.click("summary:has-text('House rules')")
    page.uncheck("#settings-form input[name=primiera]")
    page.click("button:has-text('Apply and re-score')")
    expect(page.locator(".alert.note")).to_contain_text("Primiera off")
    expect(page.locator(".alert.note")).to_contain_text("Anna 9 → 7")
    assert totals(page) == ["7", "5"]

    # Open deal 2's breakdown, then edit it: Bruno made 3 sweeps.
    page.click("table.scores tbody tr.deal-row >> nth=1")
    expect(page.locator("#detail .breakdown")).to_contain_text("Deal 2")
    expect(page.locator("#detail .breakdown")).to_contain_text("Primiera")
    page.screenshot(path=str(artifacts / "breakdown-phone.png"), full_page=True)
    page.click("text=Edit deal 2")
    expect(page.locator("input[name=count-1]")).to_have_value("22")
    page.fill("input[name=sweeps-1]", "3")
    page.click("button:has-text('Save deal 2')")
    expect(page.locator(".alert.note")).to_contain_text("Deal 2")
    assert totals(page) == ["7", "8"]

    # Delete deal 3, then undo.
    page.click("table.scores tbody tr.deal-row >> nth=2")
    page.click("button:has-text('Delete deal 3')")
    expect(page.locator(".alert.note")).to_contain_text("Deal 3 deleted")
    assert totals(page) == ["4", "8"]
    expect(page.locator("table.scores tbody tr.deal-row")).to_have_count(2)
    page.click(".alert.note button:has-text('Undo')")
    expect(page.locator("table.scores tbody tr.deal-row")).to_have_count(3)
    assert totals(page) == ["7", "8"]

    # Play to a winner, and one deal after the end.
    record(page, 0, (1, 2), 1)
    expect(page.locator(".status .winner")).to_have_text("Anna wins")
    # The form of a finished match asks first (it counts after the end): yes.
    page.once("dialog", lambda dialog: dialog.accept())
    record(page, 1, (0, 0), 0)
    expect(page.locator("tr.after-end")).to_contain_text("after the end")
    assert totals(page) == ["11", "10"]

    # Reload: everything is still there.
    page.reload()
    expect(page.locator(".status .winner")).to_have_text("Anna wins")
    expect(page.locator("table.scores tbody tr.deal-row")).to_have_count(5)
    assert totals(page) == ["11", "10"]
    page.screenshot(path=str(artifacts / "sheet-phone.png"), full_page=True)
    page.set_viewport_size(LAPTOP)
    page.screenshot(path=str(artifacts / "sheet-laptop.png"), full_page=True)

    # Export the match and import it again: the same sheet.
    with page.expect_download() as info:
        page.click("text=Export match (JSON)")
    exported = artifacts / "exported-match.json"
    info.value.save_as(exported)
    with page.expect_download() as info:
        page.click("text=Export sheet (CSV)")
    assert "Anna points" in Path(info.value.path()).read_text()
    page.click("nav >> text=Import")
    page.set_input_files("input[name=file]", str(exported))
    page.click("button:has-text('Import')")
    expect(page).to_have_url(re.compile(r"/matches/\d+$"))
    assert page.url != sheet_url
    expect(page.locator(".status .winner")).to_have_text("Anna wins")
    assert totals(page) == ["11", "10"]

    page.goto(server + "/")
    expect(page.locator(".matches li")).to_have_count(2)
    page.screenshot(path=str(artifacts / "home-laptop.png"), full_page=True)


def test_new_match_and_card_by_card(server: str, page: Page, artifacts: Path) -> None:
    page.set_viewport_size(PHONE)
    page.goto(server + "/matches/new")
    for i, name in enumerate(["Carla", "Dario", "Elena", "Fabio"], 1):
        page.fill(f"input[aria-label='Seat {i}']", name)
    page.check("#new-match input[name=partnerships]")
    expect(page.locator("#teams")).to_contain_text("Carla & Elena")
    # A setting with a hint below it keeps its "?" on its label's line, not alone under it.
    hinted = page.locator(".setting.has-hint").first
    label, ask = hinted.locator("label").bounding_box(), hinted.locator(".help-link").bounding_box()
    assert label is not None
    assert ask is not None
    assert ask["y"] < label["y"] + label["height"], (label, ask)
    page.screenshot(path=str(artifacts / "new-match-phone.png"), full_page=True)
    page.click("button:has-text('Start the match')")
    expect(page.locator("table.scores thead")).to_contain_text("Carla & Elena")

    page.click("text=Card by card")
    picker = page.locator("#pile-picker")
    expect(picker).to_be_visible()
    cards = page.locator("fieldset[data-card]")
    for n in range(22):
        cards.nth(n).click()
    page.click("[data-pick='1']")
    for n in range(22, 40):
        cards.nth(n).click()
    expect(page.locator("#check")).to_contain_text("40 of 40 cards")
    page.screenshot(path=str(artifacts / "cards-phone.png"), full_page=True)
    page.click("button:has-text('Record the deal')")
    expect(page.locator("table.scores tbody tr.deal-row")).to_have_count(1)
    page.set_viewport_size(LAPTOP)
    page.screenshot(path=str(artifacts / "sheet-teams-laptop.png"), full_page=True)


def test_the_sheet_reads_without_javascript(server: str, browser_name: str, page: Page) -> None:
    del browser_name
    context = page.context.browser
    assert context is not None
    made = httpx.post(f"{server}/api/matches", json={"players": ["Anna", "Bruno"]}).json()
    assert httpx.post(f"{server}/api/matches/{made['id']}/deals", json=anna_deal()).is_success
    plain = context.new_page(java_script_enabled=False)
    plain.goto(server + "/")
    plain.click(".matches li >> nth=0")  # the newest: this one
    expect(plain.locator("table.scores")).to_be_visible()
    plain.click("table.scores tbody a.deal-link >> nth=0")
    expect(plain.locator(".breakdown")).to_contain_text("Deal 1")
    plain.close()


def test_a_long_name_never_widens_the_page_and_a_deal_is_deleted_from_its_own_page(
    server: str, page: Page, artifacts: Path
) -> None:
    """A name of 40 letters and no space (the longest allowed) widened the list, the sheet's
    title and the dealer's line past a phone's width; and the delete button on a deal's own
    page aimed at the sheet, which that page does not have, so it did nothing."""
    long = "Massimiliano" * 3 + "Ruggiero"  # 44: the name rules' 40 at most
    long = long[:40]
    made = httpx.post(f"{server}/api/matches", json={"players": [long, "Bruno"]}).json()
    assert httpx.post(f"{server}/api/matches/{made['id']}/deals", json=_deal_of(long)).is_success
    page.set_viewport_size(PHONE)
    for url in ("/", f"/matches/{made['id']}", f"/matches/{made['id']}/deals/1"):
        page.goto(server + url)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], url
    page.screenshot(path=str(artifacts / "long-name-deal-phone.png"), full_page=True)
    page.click("button:has-text('Delete deal 1')")
    expect(page).to_have_url(re.compile(rf"/matches/{made['id']}\?done=1&undo=\d+$"))
    expect(page.locator("table.scores tbody tr.deal-row")).to_have_count(0)


def _deal_of(name: str) -> dict[str, object]:
    deal = anna_deal()
    piles = deal["piles"]
    deal["piles"] = {name: piles["Anna"], "Bruno": piles["Bruno"]}
    deal["sweeps"] = {name: 1, "Bruno": 2}
    deal["last_capture"] = name
    return deal
