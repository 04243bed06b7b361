"""Issue 23's smaller points on the sheet, each seen in Chromium at phone size: who deals next,
team names in the headers, the chart's target label, the finished match's deal form, the
address after a rematch and an import, Scopone's two sweep settings, the Cirulla counters'
names for screen readers. Lean: each test loads few pages and checks several things on each.
Screenshots go to test-artifacts/."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.browser.conftest import wait_until
from tests.browser.test_table import AXE, AXE_RUN
from tests.web.conftest import anna_deal

pytestmark = pytest.mark.browser

NARROW: ViewportSize = {"width": 360, "height": 780}
LAPTOP: ViewportSize = {"width": 1366, "height": 900}

LONG_SIX = ["Giuseppe", "Bruno", "Salvatore", "Dario", "Massimiliano", "Fabio"]


def six_deal() -> dict[str, Any]:
    counts = (8, 7, 7, 6, 6, 6)
    coins = (["A", "2", "3"], ["4", "5"], ["6", "7"], ["J"], ["H"], ["K"])
    best = ({"c": "7", "s": "7", "b": "7"}, {"c": "6", "s": "6", "b": "6"})
    piles = {
        name: {"count": counts[i], "coins": coins[i], "best": best[min(i, 1)] if i < 2 else {}}
        for i, name in enumerate(LONG_SIX)
    }
    return {"piles": piles, "sweeps": {"Giuseppe": 1}, "last_capture": "Fabio"}


def create(server: str, body: dict[str, Any]) -> int:
    answer = httpx.post(server + "/api/matches", json=body)
    assert answer.status_code == 201, answer.text
    ident: int = answer.json()["id"]
    return ident


# Each header's text: laid out whole (nothing cut, no ellipsis), every word on one line.
HEADERS = """() => [...document.querySelectorAll("table.scores thead th.side-head")].map((th) => {
  const cut = th.scrollWidth > th.clientWidth + 1;
  const broken = [];
  const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent;
    const re = /\\S+/g;
    let m;
    while ((m = re.exec(text))) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (tops.size > 1) { broken.push(m[0]); }
    }
  }
  return {text: th.innerText, cut, broken};
})"""

# The chart's target label lies inside the drawing and clear of the top grid line's number.
TARGET_LABEL = """() => {
  const svg = document.querySelector("figure.chart svg").getBoundingClientRect();
  const label = document.querySelector("figure.chart .target-label").getBoundingClientRect();
  const line = document.querySelector("figure.chart line.target").getBoundingClientRect();
  return {inside: label.top >= svg.top - 0.5 && label.bottom <= svg.bottom + 0.5,
          labelTop: label.top, svgTop: svg.top, lineY: line.top};
}"""


def test_six_players_headers_dealer_and_chart(server: str, page: Page, artifacts: Path) -> None:
    """A six-player partnership match with long names: the headers show each team whole,
    breaking only between words, at 360 px and on a laptop; the sheet says who deals next
    (the dealer chosen at the start, then each deal to the next seat); the target label
    sits inside the chart."""
    ident = create(
        server,
        {
            "players": LONG_SIX,
            "first_dealer": "Salvatore",
            # The target on the chart's top grid line (15: the axis goes to 15).
            "rules": {"partnerships": True, "target": 15},
            "deals": [six_deal(), six_deal()],
        },
    )
    page.set_viewport_size(NARROW)
    page.goto(f"{server}/matches/{ident}")
    heads = page.evaluate(HEADERS)
    assert [h["text"].split() for h in heads] == [
        ["Giuseppe", "&", "Salvatore", "&", "Massimiliano"],
        ["Bruno", "&", "Dario", "&", "Fabio"],
    ]
    assert [(h["cut"], h["broken"]) for h in heads] == [(False, []), (False, [])], heads
    # Salvatore dealt deal 1, Dario deal 2: Massimiliano deals the third.
    expect(page.locator("#sheet .dealer")).to_have_text(re.compile(r"Massimiliano deals deal 3"))
    label = page.evaluate(TARGET_LABEL)
    assert label["inside"], label
    page.screenshot(path=str(artifacts / "six-headers-360.png"), full_page=True)

    page.set_viewport_size(LAPTOP)
    heads = page.evaluate(HEADERS)
    assert [(h["cut"], h["broken"]) for h in heads] == [(False, []), (False, [])], heads
    page.screenshot(path=str(artifacts / "six-headers-laptop.png"))

    # Six players on their own at 360 px: the longest name widens its column, never split.
    alone = create(server, {"players": LONG_SIX, "deals": [six_deal()]})
    page.set_viewport_size(NARROW)
    page.goto(f"{server}/matches/{alone}")
    heads = page.evaluate(HEADERS)
    assert [h["text"] for h in heads] == LONG_SIX
    assert [(h["cut"], h["broken"]) for h in heads] == [(False, [])] * 6, heads
    fits = page.evaluate(
        "() => { const w = document.querySelector('.table-wrap');"
        " return [w.scrollWidth, w.clientWidth]; }"
    )
    assert fits[0] <= fits[1] + 1, fits  # no sideways scrolling for these names
    page.screenshot(path=str(artifacts / "six-alone-360.png"))

    # The deal form names the dealer of the deal it records.
    page.set_viewport_size(NARROW)
    page.goto(f"{server}/matches/{ident}/deals/new")
    expect(page.locator(".dealer")).to_have_text(re.compile(r"Massimiliano deals"))


def test_a_finished_match_rematch_and_import(server: str, page: Page, artifacts: Path) -> None:
    """A finished match's deal form says who won and asks before recording after the end;
    Rematch and Import leave the address bar on the new match."""
    ident = create(
        server,
        {
            "players": ["Anna", "Bruno"],
            "rules": {"target": 11},
            "deals": [anna_deal(3, 0), anna_deal(3, 0)],
        },
    )
    page.set_viewport_size(NARROW)
    page.goto(f"{server}/matches/{ident}/deals/new")
    over = page.locator(".match-over")
    expect(over).to_contain_text("The match is over")
    expect(over).to_contain_text("Anna won at deal 2")
    expect(over.locator("button:has-text('Rematch')")).to_be_visible()
    page.screenshot(path=str(artifacts / "finished-deal-form-phone.png"), full_page=True)
    asked: list[str] = []

    def refuse(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", refuse)
    page.click("button:has-text('Record the deal')")
    expect(page.locator("#deal-form")).to_be_visible()
    assert len(asked) == 1
    assert "after the end" in asked[0]
    expect(page).to_have_url(re.compile(rf"/matches/{ident}/deals/new$"))
    page.remove_listener("dialog", refuse)

    # Rematch from the notice: the address is the new match's.
    page.click(".match-over button:has-text('Rematch')")
    expect(page).not_to_have_url(re.compile(rf"/matches/{ident}(/|$)"))
    expect(page).to_have_url(re.compile(r"/matches/\d+$"))
    rematch = int(page.url.rsplit("/", 1)[1])
    expect(page.locator("h1")).to_be_visible()
    assert rematch != ident
    # The rematch goes on with the deal: Anna dealt 1 and Bruno 2, so Anna deals first.
    expect(page.locator("#sheet .dealer")).to_have_text(re.compile(r"Anna deals deal 1"))

    # Import: the address is the imported match's, not /import.
    page.goto(server + "/import")
    page.fill("textarea[name=text]", json.dumps({"players": ["Carla", "Dario"]}))
    page.click("form button:has-text('Import')")
    expect(page).to_have_url(re.compile(r"/matches/\d+$"))
    expect(page.locator("#sheet")).to_be_visible()


def test_new_match_form_dealer_and_scopone_settings(server: str, page: Page) -> None:
    """The new-match form asks who deals first (the first player unless chosen), and
    Scopone's two sweep settings have distinct labels, each with a line saying what it does."""
    page.set_viewport_size(NARROW)
    page.goto(server + "/matches/new")
    page.click("button[name=preset][value=scopone]")
    for i, name in enumerate(["Anna", "Bruno", "Carla", "Dario"], 1):
        page.fill(f"input[aria-label='Seat {i}']", name)
    sweep_labels = page.locator(
        "label:has(input[name=last_capture_sweep]), label:has(input[name=last_play_sweep])"
    ).all_inner_texts()
    assert len(sweep_labels) == 2
    assert sweep_labels[0].split("\n")[0] != sweep_labels[1].split("\n")[0]
    for name in ("last_capture_sweep", "last_play_sweep"):
        hint = page.locator(f"#hint-{name}")
        expect(hint).to_be_visible()
        assert len(hint.inner_text()) > 30
        described = page.locator(f"input[name={name}]").get_attribute("aria-describedby")
        assert described == f"hint-{name}"
    dealer = page.locator("select[name=first_dealer]")
    expect(dealer.locator("option:checked")).to_have_text("Anna")
    dealer.select_option(label="Carla")
    page.click("button:has-text('Start the match')")
    expect(page).to_have_url(re.compile(r"/matches/\d+$"))
    expect(page.locator("#sheet .dealer")).to_have_text(re.compile(r"Carla deals deal 1"))
    ident = int(page.url.rsplit("/", 1)[1])
    exported = httpx.get(f"{server}/api/matches/{ident}/export.json").json()
    assert exported["first_dealer"] == "Carla"


def test_cirulla_counters_say_what_they_show(server: str, browser: Browser) -> None:
    """axe-core's label-content-name-mismatch on the Cirulla deal form: each "+1" button's
    name starts with what it shows."""
    ident = create(server, {"variant": "cirulla", "players": ["Anna", "Bruno"]})
    context = browser.new_context(viewport=NARROW, bypass_csp=True)
    page = context.new_page()
    page.goto(f"{server}/matches/{ident}/deals/new")
    expect(page.locator("fieldset.declarations")).to_be_visible()
    page.add_script_tag(path=str(AXE))
    assert page.evaluate(AXE_RUN, ["label-content-name-mismatch"]) == []
    context.close()


# The draft this device keeps of the deal form at this address (outbox.js).
DRAFT = """async () => {
  const { outbox } = await import("/static/outbox.js");
  const fields = await outbox.draft.get(location.pathname + "#tally");
  return fields ? JSON.stringify(fields) : "";
}"""


def test_a_restored_draft_keeps_its_primiera_pairs(server: str, page: Page) -> None:
    """A half-filled deal form brought back from the device's draft shows the primiera pairs
    that were tapped (the selects were filled, the pair chips showed nothing tapped)."""
    ident = create(server, {"players": ["Anna", "Bruno"]})
    page.set_viewport_size(NARROW)
    page.goto(f"{server}/matches/{ident}/deals/new")
    chip = "button.pair[data-pair='s'][data-a='7'][data-b='6']"
    page.click(chip)
    expect(page.locator(chip)).to_have_attribute("aria-pressed", "true")
    wait_until(page, DRAFT, "the draft was not kept")  # kept on the device before the reload
    page.reload()
    expect(page.locator("#draft-bar")).to_contain_text("Draft restored")
    expect(page.locator("select[name=best-0-s]")).to_have_value("7")
    expect(page.locator(chip)).to_have_attribute("aria-pressed", "true")
    expect(page.locator("button.pair[aria-pressed=true]")).to_have_count(1)


def test_the_play_page_keeps_the_computer_s_move_and_says_only_the_right_variant(
    server: str, page: Page
) -> None:
    """The setup form says Scopone's seating only while Scopone is chosen; at the table the
    computer's last move stays shown (its card and its words) next to "Your turn" until you
    play; Hint names the best play."""
    page.add_init_script("window.SCOPA_PLAY_PAUSE = 60;")
    page.set_viewport_size(NARROW)
    page.goto(server + "/play")
    sentence = page.get_by_text("Scopone is always four")
    expect(sentence).to_be_hidden()
    page.locator("label.chip-radio", has_text=re.compile("^Scopone$")).click()
    expect(sentence).to_be_visible()
    page.locator("label.chip-radio", has_text=re.compile("^Scopa$")).click()
    expect(sentence).to_be_hidden()
    page.locator("label.chip-radio", has_text="Easy").click()
    page.get_by_role("button", name="Deal").click()
    expect(page.locator("#play-hand .pc-button").first).to_be_visible()
    turn = (
        "() => { const t = window.scopa?.table; return t && t.state && !t.busy"
        " && t.state.your_turn; }"
    )
    page.wait_for_function(turn, timeout=60_000)
    step = page.evaluate("window.scopa.table.state.step")
    page.locator("#play-hand button").first.click()
    played_or_asked = (
        f"() => window.scopa.table.state.step > {step}"
        " || !document.getElementById('play-choices').hidden"
    )
    page.wait_for_function(played_or_asked, timeout=60_000)
    if page.locator("#play-choices").is_visible():  # the card takes in more than one way
        page.locator("#play-choice-list button").first.click()
    page.wait_for_function(f"() => window.scopa.table.state.step > {step}", timeout=60_000)
    page.wait_for_function(turn, timeout=60_000)
    last = page.evaluate(
        "() => [...document.querySelectorAll('#play-log-list li')].pop().textContent"
    )
    assert last.startswith("Computer")
    expect(page.locator("#play-played")).to_be_visible()
    expect(page.locator("#play-played")).to_contain_text("Computer")
    expect(page.locator("#play-status")).to_contain_text(last)
    expect(page.locator("#play-status")).to_contain_text("Your turn")
    page.click("#play-hint")
    expect(page.locator("#play-hints")).to_contain_text("Best")


PHONE: ViewportSize = {"width": 390, "height": 844}

# Each header's words as laid out: the room between one column's text and the next column's,
# and whether a line separates the columns.
APART = """() => {
  const heads = [...document.querySelectorAll("table.scores thead th.side-head")];
  const textBox = (th) => {
    const range = document.createRange();
    range.selectNodeContents(th);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0);
    return {left: Math.min(...rects.map((r) => r.left)),
            right: Math.max(...rects.map((r) => r.right))};
  };
  return heads.slice(1).map((th, i) => ({
    gap: textBox(th).left - textBox(heads[i]).right,
    line: parseFloat(getComputedStyle(th).borderLeftWidth),
  }));
}"""


def test_six_names_on_a_phone_stay_apart(server: str, browser: Browser, artifacts: Path) -> None:
    """Issue 46: six players' names in the sheet's header at 390x844 (an Italian phone) stay
    apart: each whole, with room and a line between one column's name and the next (they
    ran together, "GiuseppeBruno")."""
    ident = create(server, {"players": LONG_SIX, "deals": [six_deal()]})
    context = browser.new_context(viewport=PHONE, locale="it-IT", device_scale_factor=2)
    try:
        page = context.new_page()
        page.goto(f"{server}/matches/{ident}")
        heads = page.evaluate(HEADERS)
        assert [h["text"] for h in heads] == LONG_SIX
        assert [(h["cut"], h["broken"]) for h in heads] == [(False, [])] * 6, heads
        apart = page.evaluate(APART)
        assert all(a["gap"] >= 3 and a["line"] >= 1 for a in apart), apart
        fits = page.evaluate(
            "() => { const w = document.querySelector('.table-wrap');"
            " const heads = document.querySelectorAll('table.scores thead th.side-head');"
            " const last = heads[heads.length - 1].getBoundingClientRect();"
            " return [w.scrollWidth, w.clientWidth, last.right, window.innerWidth]; }"
        )
        assert fits[0] <= fits[1] + 1, fits  # no sideways scrolling
        assert fits[2] <= fits[3], fits  # the sixth column whole on the screen, not cut
        page.screenshot(path=str(artifacts / "six-names-390-it.png"))
        page.locator(".table-wrap").screenshot(
            path=str(artifacts / "six-names-390-it-head.png"), scale="device"
        )
    finally:
        context.close()
