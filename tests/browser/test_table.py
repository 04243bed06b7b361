"""At the table: axe-core (npm, pinned) on every page with no violations, in light and dark;
tap targets of 44 px on a phone; a six-player sheet that fits a phone; the sheet's cells read
as sentences; the live update never closes an open panel. Screenshots go to test-artifacts/.
The pages in Italian and Spanish are checked by axe-core in test_languages.py, with their
words."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.test_sheet import PHONE
from tests.web.conftest import anna_deal

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
SIX = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio"]


def six_player_deal() -> dict[str, Any]:
    counts = (8, 7, 7, 6, 6, 6)
    coins = (["A", "2", "3"], ["4", "5"], ["6", "7"], ["J"], ["H"], ["K"])
    best = ({"c": "7", "s": "7", "b": "7"}, {"c": "6", "s": "6", "b": "6"})
    piles = {
        name: {"count": counts[i], "coins": coins[i], "best": best[min(i, 1)] if i < 2 else {}}
        for i, name in enumerate(SIX)
    }
    return {"piles": piles, "sweeps": {"Anna": 1}, "last_capture": "Fabio"}


def pages_to_check(server: str) -> list[str]:
    two = httpx.post(f"{server}/api/matches", json={"players": ["Anna", "Bruno"]}).json()["id"]
    for _ in range(4):
        httpx.post(f"{server}/api/matches/{two}/deals", json=anna_deal())
    six = httpx.post(f"{server}/api/matches", json={"players": SIX}).json()["id"]
    for _ in range(3):
        httpx.post(f"{server}/api/matches/{six}/deals", json=six_player_deal())
    return [
        "/",
        "/matches/new",
        "/import",
        f"/matches/{two}",
        f"/matches/{two}/deals/new",
        f"/matches/{two}/deals/new?mode=cards",
        f"/matches/{two}/deals/2",
        f"/matches/{two}/deals/2/edit",
        f"/matches/{six}",
        f"/matches/{six}/deals/new",
        f"/matches/{six}/tv",
        "/help",
        "/matches/999999",
    ]


AXE_RUN = """async (only) => (await axe.run(document, only.length
    ? {resultTypes: ["violations"], runOnly: {type: "rule", values: only}}
    : {resultTypes: ["violations"]})).violations
  .map((v) => ({id: v.id, help: v.help, nodes: v.nodes.map((n) => n.target.join(" "))}))"""

# The rules that read colours: all a dark scheme changes (every rule runs in light).
COLOUR_RULES = ["color-contrast", "link-in-text-block"]

# What a finger taps: at least 44 px each way (inline links in text and the labels that
# wrap a box are measured by their label or line, which the styles size).
SMALL_TARGETS = """() => [...document.querySelectorAll("a, button, input, select, summary")]
  .filter((el) => el.offsetParent !== null && getComputedStyle(el).opacity !== "0")
  .filter((el) => !el.closest(".toggle, .chip-radio, label.check, p, li, td, figcaption"))
  .map((el) => [el, el.getBoundingClientRect()])
  .filter(([el, r]) => r.width > 0 && Math.min(r.height, r.width) < 44)
  .map(([el, r]) => el.outerHTML.slice(0, 80) + " " + Math.round(r.width) + "x"
       + Math.round(r.height))"""


def axe(page: Page) -> list[dict[str, Any]]:
    """axe-core's violations on ``page``: every rule, or in a dark scheme the colour rules
    (the rest read the same page as in light, which runs them). axe is put in the page once
    per load."""
    dark = page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    violations: list[dict[str, Any]] = page.evaluate(AXE_RUN, COLOUR_RULES if dark else [])
    return violations


@pytest.mark.slow
def test_every_page_passes_axe_and_has_44px_targets(
    server: str, browser: Browser, artifacts: Path
) -> None:
    """Each page loaded once, checked in light, then switched to the dark scheme (the styles
    follow ``prefers-color-scheme`` alone) and checked again."""
    context = browser.new_context(
        viewport=PHONE, color_scheme="light", bypass_csp=True, has_touch=True
    )
    page = context.new_page()
    problems: dict[str, Any] = {}
    for path in pages_to_check(server):
        page.goto(server + path)
        for summary in page.locator("details > summary").all():
            summary.click()  # open every panel: its contents are checked too
        name = path.strip("/").replace("/", "-").replace("?mode=", "-") or "home"
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") == (
                scheme == "dark"
            )
            found = axe(page)
            if found:
                problems[f"{path} ({scheme})"] = found
            small = page.evaluate(SMALL_TARGETS)
            if small:
                problems[f"{path} ({scheme}, tap targets)"] = small
            page.screenshot(path=str(artifacts / f"axe-{scheme}-{name}.png"), full_page=True)
    context.close()
    assert problems == {}, json.dumps(problems, indent=1)


FADE = r"(rgba\(0, 0, 0, 0\)|transparent)"
MENU_MASKS = {  # the menu's mask (Chromium's computed value) with more to the right, both, left
    "right": re.compile(
        rf"^linear-gradient\(to right, rgb\(0, 0, 0\) calc\(100% - 48px\), {FADE}\)$"
    ),
    "both": re.compile(rf"^linear-gradient\(to right, {FADE}, .*, {FADE}\)$"),
    "left": re.compile(rf"^linear-gradient\(to right, {FADE}, rgb\(0, 0, 0\) 48px\)$"),
}


def test_the_menu_shows_there_is_more_past_the_phone_s_edge(server: str, page: Page) -> None:
    """On a phone the menu is one row that scrolls sideways (six entries do not fit 390 px in
    any language): an end fades while there is more to scroll to past it, and on a laptop,
    where the menu fits, nothing fades."""
    page.set_viewport_size(PHONE)
    page.goto(server + "/")
    menu = page.locator(".top .main-nav")
    assert menu.evaluate("m => m.scrollWidth > m.clientWidth")
    expect(menu).to_have_css("mask-image", MENU_MASKS["right"])
    menu.evaluate("m => { m.scrollLeft = 30; }")
    expect(menu).to_have_css("mask-image", MENU_MASKS["both"])
    menu.evaluate("m => { m.scrollLeft = m.scrollWidth; }")
    expect(menu).to_have_css("mask-image", MENU_MASKS["left"])
    page.set_viewport_size({"width": 1200, "height": 800})
    expect(menu).to_have_css("mask-image", "none")


def test_the_menu_marks_the_page_s_part_and_shows_it_on_a_phone(server: str, page: Page) -> None:
    """The menu's entry for the part of the app a page is in is marked (``aria-current``; a
    match's pages are the matches'), and on a phone the row scrolls to it: *Together*, the
    last entry, is in sight on its own page, and the page itself is not scrolled."""
    ident = httpx.post(f"{server}/api/matches", json={"players": ["Anna", "Bruno"]}).json()["id"]
    page.set_viewport_size(PHONE)
    current = page.locator('.top .main-nav a[aria-current="page"]')
    for path, entry in (
        ("/", "Matches"),
        (f"/matches/{ident}/deals/new", "Matches"),
        ("/matches/new", "New match"),
        ("/players", "Players"),
        ("/tables/new", "Together"),
        ("/help", None),
    ):
        page.goto(server + path)
        if entry is None:
            expect(current).to_have_count(0)
            continue
        expect(current).to_have_text(entry)
        inside = current.evaluate(
            """(a) => { const m = a.parentElement.getBoundingClientRect(),
            r = a.getBoundingClientRect(); return r.left >= m.left && r.right <= m.right; }"""
        )
        assert inside, path
        assert page.evaluate("scrollY") == 0, path


def test_axe_in_the_dark_scheme_still_finds_poor_contrast(server: str, browser: Browser) -> None:
    context = browser.new_context(viewport=PHONE, color_scheme="dark", bypass_csp=True)
    page = context.new_page()
    page.goto(server + "/")
    assert axe(page) == []
    page.evaluate(
        """() => document.querySelector("main").insertAdjacentHTML("beforeend",
        '<p style="color: #777; background: #888">Barely legible</p>')"""
    )
    assert [v["id"] for v in axe(page)] == ["color-contrast"]
    context.close()


def test_six_players_fit_a_phone_and_cells_read_as_sentences(server: str, page: Page) -> None:
    six = httpx.post(f"{server}/api/matches", json={"players": SIX}).json()["id"]
    httpx.post(f"{server}/api/matches/{six}/deals", json=six_player_deal())
    page.set_viewport_size(PHONE)
    page.goto(f"{server}/matches/{six}")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
    wrap = page.evaluate(
        "(() => { const w = document.querySelector('.table-wrap');"
        " return [w.scrollWidth, w.clientWidth]; })()"
    )
    assert wrap[0] <= wrap[1]
    cell = page.locator("table.scores tbody tr >> nth=0").locator("td >> nth=0")
    expect(cell).to_have_attribute("aria-label", "deal 1, Anna: 4 points, total 4")


def test_the_live_update_keeps_an_open_panel(server: str, page: Page) -> None:
    match_id = httpx.post(f"{server}/api/matches", json={"players": ["Anna", "Bruno"]}).json()["id"]
    page.goto(f"{server}/matches/{match_id}")
    page.click("summary:has-text('House rules')")
    page.fill("#settings-form input[name=target]", "21")
    httpx.post(f"{server}/api/matches/{match_id}/deals", json=anna_deal())  # another phone
    expect(page.locator("#update-banner")).to_be_visible(timeout=10_000)
    expect(page.locator("details.settings")).to_have_attribute("open", "")
    expect(page.locator("#settings-form input[name=target]")).to_have_value("21")
    page.click("#update-banner button")
    expect(page.locator("table.scores tbody tr.deal-row")).to_have_count(1)
