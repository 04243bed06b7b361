"""The pages in Chromium with an Italian and a Spanish phone: every visible text node is in
the page's language (no word that only the English catalog has), `<html lang>` says which,
and axe-core still finds nothing."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from babel.messages.pofile import read_po
from playwright.sync_api import Browser, expect

from tests.browser.test_sheet import PHONE
from tests.browser.test_table import axe, pages_to_check
from tests.web.bodies import anna_deal

LOCALE = Path(__file__).resolve().parents[2] / "src" / "scopa" / "locale"
WORD = re.compile(r"[A-Za-zÀ-ÿ']{3,}")
SHARED = {"Scopa", "Scopone", "Escoba", "Cirulla", "Assi", "Anna", "Bruno", "Carla", "Dario"}
"""Names, not words of a language (the variants, the players of the tests)."""

VISIBLE_TEXT = """() => {
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const texts = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || !node.textContent.trim()) continue;
    if (el.closest("script, style, code, [hidden], .visually-hidden")) continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    if (getComputedStyle(el).visibility === "hidden") continue;
    texts.push(node.textContent.trim());
  }
  for (const el of document.querySelectorAll("[aria-label], [title], [placeholder]")) {
    for (const name of ["aria-label", "title", "placeholder"]) {
      const value = el.getAttribute(name);
      if (value) texts.push(value);
    }
  }
  return texts;
}"""


# What the scripts write is in place: the page loaded, the scripts' catalog in (<html
# data-words>, set by i18n.js on the pages whose scripts import it: not the television's), and
# a deal form's live check answered (#check[data-core], dealform.js).
SETTLED = """() => document.readyState === "complete"
  && (document.documentElement.dataset.words === document.documentElement.lang
      || !performance.getEntriesByType("resource").some((e) => e.name.endsWith("/i18n.js")))
  && !document.querySelector("#check:not([data-core])")"""


def words(language: str) -> tuple[set[str], set[str]]:
    """The English catalog's words, and the words of ``language``'s translations."""
    with (LOCALE / language / "LC_MESSAGES" / "scopa.po").open("rb") as handle:
        catalog = read_po(handle, locale=language)
    english: set[str] = set()
    translated: set[str] = set()
    for message in catalog:
        if not message.id:
            continue
        ids = [str(i) for i in (message.id if isinstance(message.id, tuple) else (message.id,))]
        given = message.string if isinstance(message.string, tuple) else (message.string,)
        strings = [str(s) for s in given]
        for text in ids:
            english |= set(WORD.findall(re.sub(r"%\(\w+\)\w|\{\w*\}", " ", str(text))))
        for text in strings:
            translated |= set(WORD.findall(re.sub(r"%\(\w+\)\w|\{\w*\}", " ", str(text))))
    return english - translated, translated


def against_the_computer(server: str) -> list[str]:
    """A match of a game against the computer, its seats stored as the game names them
    (``You``, ``Computer 1``, ``Partner``, ``Computer 2``, with their kinds): its sheet and its
    deal form."""
    seats = ["You", "Computer 1", "Partner", "Computer 2"]
    made = {"kind": "computer", "variant": "Scopone", "level": "easy"}
    kinds = [{"kind": "you"}, {"kind": "computer", "number": 1}, {"kind": "partner"}]
    kinds.append({"kind": "computer", "number": 2})
    body = {"players": seats, "variant": "scopone", "generated_name": made, "seat_kinds": kinds}
    ident = httpx.post(f"{server}/api/matches", json=body).json()["id"]
    said = json.dumps(anna_deal())
    deal = json.loads(
        said.replace("Anna", "You & Partner").replace("Bruno", "Computer 1 & Computer 2")
    )
    httpx.post(f"{server}/api/matches/{ident}/deals", json=deal)
    return [f"/matches/{ident}", f"/matches/{ident}/deals/new"]


def variants_and_players(server: str) -> list[str]:
    """An Escoba and a Cirulla match with a deal each (their sheets and their deal forms, who
    took each point too), the players' pages and a player's own page."""
    paths = ["/players", "/players/Anna"]
    for variant in ("escoba", "cirulla"):
        body = {"players": ["Anna", "Bruno"], "variant": variant}
        ident = httpx.post(f"{server}/api/matches", json=body).json()["id"]
        deal = {"categories": {"cards": "Anna", "coins": "Anna", "settebello": "Bruno",
                               "primiera": "Anna"}, "sweeps": {"Anna": 1}}  # fmt: skip
        httpx.post(f"{server}/api/matches/{ident}/deals", json=deal)
        paths += [f"/matches/{ident}", f"/matches/{ident}/deals/new?mode=categories"]
    return paths


def escoba_to_start(server: str) -> list[str]:
    """An Escoba match with no deal yet (its sheet and its deal form) and a table's opening
    page (issue 46: the words are longer than English)."""
    body = {"players": ["Ana", "Bea"], "variant": "escoba"}
    escoba = httpx.post(f"{server}/api/matches", json=body).json()["id"]
    return [f"/matches/{escoba}", f"/matches/{escoba}/deals/new", "/tables/new"]


@pytest.mark.slow
@pytest.mark.parametrize(("language", "locale"), [("it", "it-IT"), ("es", "es-ES")])
def test_the_pages_speak_the_phone_s_language(
    server: str, browser: Browser, language: str, locale: str
) -> None:
    """Every page of the sheet, the Play page, the players' and a table's opening page, every
    panel open, on a phone (a touch screen): in the phone's language, and axe-core finds
    nothing (each page loaded and checked once for both)."""
    english_only, _ = words(language)
    context = browser.new_context(viewport=PHONE, locale=locale, bypass_csp=True, has_touch=True)
    page = context.new_page()
    found: dict[str, Any] = {}
    pages = [*pages_to_check(server), *against_the_computer(server), "/play"]
    for path in [*pages, *variants_and_players(server), *escoba_to_start(server)]:
        page.goto(server + path)
        assert page.get_attribute("html", "lang") == language, path
        for summary in page.locator("details > summary").all():
            summary.click()
        page.wait_for_function(SETTLED, timeout=30_000)
        texts = page.evaluate(VISIBLE_TEXT)
        english = sorted(
            {w for text in texts for w in WORD.findall(text) if w in english_only} - SHARED
        )
        if english:
            found[path] = english
        violations = axe(page)
        if violations:
            found[path + " (axe)"] = violations
    context.close()
    assert found == {}


FRENCH_NAME = re.compile(
    r"(asso|[2-7]|due|tre|quattro|cinque|sei|sette|fante|donna|re) di (quadri|cuori|picche|fiori)"
)
ITALIAN_SUIT = re.compile(r"\b(denari|coppe|spade|bastoni|cavallo)\b")
FACES = """() => [...document.querySelectorAll('.pc[data-card]')].map((card) => ({
  code: card.dataset.card,
  french: card.classList.contains('pc-french'),
  corner: card.querySelector('.pc-rank')?.dataset.t || '',
  pip: card.querySelector('.pc-pip')?.dataset.t || '',
  label: card.getAttribute('aria-label')
    || card.closest('[aria-label]')?.getAttribute('aria-label') || '',
}))"""


@pytest.mark.slow
def test_the_french_suited_display_from_the_menu_to_the_play_page(
    server: str, browser: Browser
) -> None:
    """An Italian phone chooses *Carte francesi* in the menu; then the card-by-card form (its
    legends, its live check), the sheet's names of cards and the Play page (faces, corners,
    the moves said, the coach) show ♦ ♥ ♠ ♣ and J Q K with their Italian names, and axe-core
    finds nothing on any of them."""
    import httpx

    from tests.web.bodies import anna_deal

    ident = httpx.post(f"{server}/api/matches", json={"players": ["Anna", "Bruno"]}).json()["id"]
    httpx.post(f"{server}/api/matches/{ident}/deals", json=anna_deal())
    context = browser.new_context(viewport=PHONE, locale="it-IT", bypass_csp=True)
    page = context.new_page()
    page.add_init_script("window.SCOPA_PLAY_PAUSE = 60;")
    problems: dict[str, Any] = {}

    page.goto(f"{server}/matches/{ident}/deals/new?mode=cards")
    page.click("header .prefs > summary")  # the menu of the language and the cards
    page.get_by_role("link", name="Carte francesi").click()
    page.wait_for_url(re.compile(r"deck=french"))
    assert page.get_attribute("html", "data-deck") == "french"
    assert page.get_attribute("html", "lang") == "it"
    legends = page.locator("fieldset[data-card] legend [aria-hidden]").all_inner_texts()
    assert "Q♥" in legends
    assert "7♦" in legends
    assert "K♣" in legends
    assert "J♠" in legends
    tap = page.locator("fieldset[data-card='Hc'] .card-tap")
    tap.click()
    label = tap.get_attribute("aria-label") or ""
    assert "donna di cuori" in label, label
    assert "Anna" in label, label
    problems["cards"] = axe(page)

    page.goto(f"{server}/matches/{ident}/deals/1")  # no ?deck: the cookie remembers it
    assert "sette di quadri" in page.locator("main").inner_text()
    problems["deal"] = axe(page)

    page.goto(f"{server}/play")
    page.locator("input[name=variant][value=scopa]").check(force=True)
    page.get_by_role("button", name="Dai le carte").click()
    page.locator("#play-hand .pc-button").first.wait_for()
    page.wait_for_function(
        "() => { const t = window.scopa?.table; return t && t.state && !t.busy"
        " && (t.state.your_turn || t.state.deal_over); }",
        timeout=60_000,
    )
    assert page.locator("#play-level").inner_text() == "· normale"  # the level, said
    faces = page.evaluate(FACES)
    assert len(faces) >= 4  # the hand and the table
    for face in faces:
        assert face["french"], face
        assert face["corner"] in (*"A234567", "J", "Q", "K"), face
        assert face["pip"] in ("♦", "♥", "♠", "♣"), face
        assert FRENCH_NAME.search(face["label"]), face
    page.locator("#play-hint").click()
    hints = page.locator("#play-hints")
    hints.locator("h2").first.wait_for()
    page.wait_for_function("() => !document.querySelector('#play-hints').textContent.includes('…')")
    said = hints.inner_text()
    assert FRENCH_NAME.search(said), said
    assert not ITALIAN_SUIT.search(said), said
    assert re.search(r"circa \d+,\d punti", said), said  # the points the Italian way
    problems["play"] = axe(page)
    step = page.evaluate("window.scopa.table.state.step")
    page.locator("#play-hand button.pc-button").first.click()
    choice = page.locator("#play-choice-list button.play-choice")
    if choice.count():
        choice.last.click()
    page.wait_for_function(f"() => window.scopa?.table.state.step > {step}", timeout=60_000)
    moves = " ".join(m["text"] for m in page.evaluate("window.scopa.table.state.moves"))
    assert FRENCH_NAME.search(moves), moves
    assert not ITALIAN_SUIT.search(moves), moves
    context.close()
    assert {k: v for k, v in problems.items() if v} == {}


@pytest.mark.parametrize(
    ("locale", "letters"), [("it-IT", ["F", "C", "R", "7"]), ("es-ES", ["S", "C", "R", "7"])]
)
def test_the_cards_the_scripts_draw_carry_the_table_s_letters(
    server: str, browser: Browser, locale: str, letters: list[str]
) -> None:
    """The faces the Play page and the tables draw (cards.js) write the fante, cavallo and re
    as the server's pages do (scopa/words.py rank_letter): F C R in Italian, S C R in
    Spanish."""
    context = browser.new_context(viewport=PHONE, locale=locale)
    page = context.new_page()
    page.goto(f"{server}/play")
    drawn = page.evaluate(
        """async () => {
          const cards = await import('/static/cards.js');
          return ['Jd', 'Hc', 'Kb', '7d'].map((code) => {
            const face = cards.face(code);
            return [...face.querySelectorAll('.pc-rank')].map((r) => r.dataset.t);
          });
        }"""
    )
    context.close()
    assert drawn == [[letter, letter] for letter in letters]


@pytest.mark.parametrize(
    ("locale", "said"),
    [
        ("it-IT", ["Contro il computer (Scopa, forte)", "Tavolo 7K2Q (Escoba) (rivincita)"]),
        ("es-ES", ["Contra el ordenador (Scopa, fuerte)", "Mesa 7K2Q (Escoba) (revancha)"]),
        ("en-US", ["Against the computer (Scopa, strong)", "Table 7K2Q (Escoba) (rematch)"]),
    ],
)
def test_the_scripts_word_a_made_name_from_its_data_and_keep_a_typed_one(
    server: str, browser: Browser, locale: str, said: list[str]
) -> None:
    """The phone's list of matches started on it (offline.js) words a name the program made
    from the match's ``generated_name`` (i18n.js ``matchName``), as the server's pages do; a
    name a person typed like one stays as typed."""
    context = browser.new_context(viewport=PHONE, locale=locale)
    try:
        page = context.new_page()
        page.goto(f"{server}/")
        shown = page.evaluate(
            """async () => {
              const { matchName } = await import('/static/i18n.js');
              return [
                {name: 'x', generated_name: {kind: 'computer', variant: 'Scopa', level: 'strong'}},
                {name: 'x', generated_name: {kind: 'rematch', of: 'table', code: '7K2Q',
                                             variant: 'Escoba'}},
                {name: 'Table 7K2Q (Escoba)'},
                {name: null},
              ].map(matchName);
            }"""
        )
    finally:
        context.close()
    assert shown == [*said, "Table 7K2Q (Escoba)", ""]


@pytest.mark.parametrize("locale", ["it-IT", "es-ES"])
def test_the_phone_header_is_short_and_its_menu_holds_the_language_and_the_cards(
    server: str, browser: Browser, locale: str, artifacts: Path
) -> None:
    """On a phone the header keeps to two short rows (the brand and the menu of the language
    and the cards; the pages' links on one line that scrolls): every page's content starts
    high up, and the language is switched from the menu."""
    context = browser.new_context(viewport=PHONE, locale=locale)
    try:
        page = context.new_page()
        for path in ("/", "/matches/new", "/players", "/play", "/help"):
            page.goto(server + path)
            height = page.evaluate("document.querySelector('header.top').offsetHeight")
            assert height <= 120, (path, height)  # 260 px before the menu
        page.goto(server + "/")
        page.screenshot(path=str(artifacts / f"header-{locale}.png"))
        expect(page.locator("header .prefs-menu")).to_be_hidden()
        page.click("header .prefs > summary")
        expect(page.locator("header .prefs-menu")).to_be_visible()
        page.get_by_role("link", name="English").click()
        expect(page.locator("html")).to_have_attribute("lang", "en")
    finally:
        context.close()
