"""The Play page in Chromium: a whole deal against the computer by taps (choosing a capture
when several are offered), the match then found on the sheet; a reload resumes the game;
axe-core finds nothing and every tap target is 44 px, on a phone and a laptop."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Literal

import httpx
import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.browser.test_table import SMALL_TARGETS, axe

pytestmark = pytest.mark.browser

PHONE: ViewportSize = {"width": 390, "height": 844}
LAPTOP: ViewportSize = {"width": 1280, "height": 860}
FAST = "window.SCOPA_PLAY_PAUSE = 60;"
"""The computer's moves shown 60 ms each instead of a second (the page reads this)."""


def start_game(page: Page, server: str, variant: str = "Scopa", level: str = "Easy") -> str:
    page.goto(f"{server}/")
    page.get_by_role("link", name="Play", exact=True).click()
    expect(page.get_by_role("heading", name="Play against the computer")).to_be_visible()
    page.locator("label.chip-radio", has_text=re.compile(f"^{variant}$")).click()
    page.locator("label.chip-radio", has_text=level).click()
    page.get_by_role("button", name="Deal").click()
    expect(page.locator("#play-hand .pc-button").first).to_be_visible()
    return page.url


def wait_for_turn_or_end(page: Page) -> str:
    """Until the hand is yours to play or the deal is over: which of the two."""
    page.wait_for_function(
        "() => { const t = window.scopa?.table; return t && t.state && !t.busy"
        " && (t.state.your_turn || t.state.deal_over); }",
        timeout=60_000,
    )
    over: bool = page.evaluate("window.scopa?.table.state.deal_over")
    return "over" if over else "turn"


def play_a_deal_by_taps(page: Page) -> None:
    """Tap cards until the deal ends (choosing the last capture offered when asked)."""
    while wait_for_turn_or_end(page) == "turn":
        step = page.evaluate("window.scopa?.table.state.step")
        legal = page.evaluate("window.scopa?.table.state.legal")
        counts: dict[str, int] = {}
        for play in legal:
            counts[play["card"]] = counts.get(play["card"], 0) + 1
        # a card with several captures when there is one: the choice is then offered
        card = max(counts, key=lambda c: counts[c])
        button = page.locator(f"#play-hand button[data-card='{card}']")
        expect(button).to_be_enabled()
        button.click()
        if counts[card] > 1:
            offered = page.locator("#play-choice-list button.play-choice")
            expect(offered).to_have_count(counts[card])
            expect(page.locator("#play-table .pc-marked").first).to_be_visible()
            offered.last.click()
        page.wait_for_function(f"() => window.scopa?.table.state.step > {step}", timeout=60_000)


def test_a_whole_deal_by_taps_then_the_sheet(server: str, page: Page, artifacts: Path) -> None:
    page.add_init_script(FAST)
    page.set_viewport_size(PHONE)
    start_game(page, server)
    card = page.locator("#play-hand button").first
    name = card.get_attribute("aria-label") or ""
    assert re.fullmatch(r"(ace|[2-7]|jack|horse|king) of (coins|cups|swords|clubs)", name)
    page.screenshot(path=str(artifacts / "play-phone.png"), full_page=True)
    play_a_deal_by_taps(page)
    end = page.locator("#play-end")
    expect(end).to_be_visible()
    expect(end.locator("table.play-points")).to_be_visible()
    expect(page.get_by_role("button", name="Next deal")).to_be_visible()
    page.screenshot(path=str(artifacts / "play-phone-deal-end.png"), full_page=True)
    totals = page.evaluate("window.scopa?.table.state.score.totals")
    table_url = page.url
    page.get_by_role("link", name="Open the sheet").click()
    expect(page.locator("h1")).to_contain_text("Against the computer")
    row = page.locator("table.scores tbody tr").first
    expect(row.locator("td").first).to_have_attribute(
        "aria-label", re.compile(f"^deal 1, You: .*total {totals[0]}$")
    )
    page.goto(table_url)
    page.get_by_role("button", name="Next deal").click()
    page.wait_for_function("() => window.scopa?.table.state.deal === 2 && !window.scopa.table.busy")
    expect(page.locator("#play-hand .pc-button")).not_to_have_count(0)


def test_a_reload_resumes_the_game(server: str, page: Page, artifacts: Path) -> None:
    page.add_init_script(FAST)
    page.set_viewport_size(LAPTOP)
    url = start_game(page, server, variant="Escoba")
    wait_for_turn_or_end(page)
    page.locator("#play-hand button").first.click()
    if page.locator("#play-choice-list button.play-choice").count():
        page.locator("#play-choice-list button.play-choice").first.click()
    page.wait_for_function("() => window.scopa?.table.state.step >= 1 && !window.scopa?.table.busy")
    wait_for_turn_or_end(page)
    before = page.evaluate("JSON.stringify(window.scopa?.table.state)")
    page.screenshot(path=str(artifacts / "play-laptop.png"), full_page=True)
    page.reload()
    page.wait_for_function("() => window.scopa?.table && window.scopa?.table.state")
    wait_for_turn_or_end(page)
    after = json.loads(page.evaluate("JSON.stringify(window.scopa?.table.state)"))
    was = json.loads(before)
    for key in ("step", "hand", "table", "moves", "score"):
        assert after[key] == was[key], key
    assert page.url == url
    page.goto(f"{server}/play")
    expect(page.locator(f"a[href='{url.removeprefix(server)}']")).to_be_visible()


@pytest.mark.parametrize(
    ("size", "scheme"),
    [(PHONE, "light"), (PHONE, "dark"), (LAPTOP, "light")],
    ids=["phone", "phone-dark", "laptop"],
)
def test_the_play_pages_pass_axe(
    server: str,
    browser: Browser,
    size: ViewportSize,
    scheme: Literal["light", "dark"],
    artifacts: Path,
) -> None:
    context = browser.new_context(
        viewport=size, bypass_csp=True, has_touch=True, color_scheme=scheme
    )
    page = context.new_page()
    page.add_init_script("window.SCOPA_PLAY_PAUSE = 5000;")  # hold a computer move on screen
    problems: dict[str, object] = {}
    page.goto(f"{server}/play")
    for where in ("setup", "table"):
        if where == "table":
            start_game(page, server, variant="Scopone")
            page.wait_for_function("() => window.scopa?.table && window.scopa?.table.state")
            page.locator("summary", has_text="Plays of this deal").click()
        found = axe(page)
        small = page.evaluate(SMALL_TARGETS)
        if found or small:
            problems[where] = {"axe": found, "small": small}
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= size["width"], where
        name = f"play-{where}-{size['width']}-{scheme}.png"
        page.screenshot(path=str(artifacts / name), full_page=True)
    context.close()
    assert problems == {}, json.dumps(problems, indent=1)


def test_choosing_among_captures(server: str, page: Page, artifacts: Path) -> None:
    """Seed 6 deals you the horse of clubs on 2c Js Ab Jb: it takes Js Ab or Ab Jb."""
    page.add_init_script(FAST)
    page.set_viewport_size(PHONE)
    form = {"variant": "scopa", "players": "2", "level": "easy", "seed": "6"}
    answer = httpx.post(f"{server}/play", data=form, follow_redirects=False)
    page.goto(server + answer.headers["location"])
    wait_for_turn_or_end(page)
    page.get_by_role("button", name="Hint").click()
    # the coach: the best play and the runner-up, with the points each should bring
    expect(page.locator("#play-hints .play-best")).to_contain_text("Best: ")
    expect(page.locator("#play-hints")).to_contain_text("Next best: ")
    expect(page.locator("#play-hints")).to_contain_text("by the deal's end")
    expect(page.locator("#play-hints")).to_contain_text(" cards (")  # what a capture takes
    expect(page.locator("#play-hints .play-lighter")).to_have_count(0)  # the server's tree
    page.get_by_role("button", name="horse of clubs", exact=True).click()
    choices = page.locator("#play-choice-list button.play-choice")
    expect(choices).to_have_count(2)
    marked = page.locator("#play-table .pc-marked")
    expect(marked).to_have_count(3)
    page.screenshot(path=str(artifacts / "play-phone-choice.png"), full_page=True)
    page.get_by_role("button", name="Take ace of clubs and jack of clubs").click()
    page.wait_for_function("() => window.scopa?.table.state.step >= 1")
    taken = page.evaluate("window.scopa?.table.state.seats[0].taken")
    assert taken == 3
    assert page.evaluate("window.scopa?.table.state.moves[0].capture") == ["Ab", "Jb"]
