"""The same sheet offline as online, in the table's language: an Italian and a Spanish phone
go online once, then with no signal start a match, record a deal by who took each point and
change a house rule; no English word is shown on the way (the DOM walk of the language
tests), axe-core finds nothing, and the pages are saved at phone size (test-artifacts/; the
copies in docs/screenshots are from this test).
Then the signal comes back and the match reaches the server once, in the phone's words; the
same phone then merges a change made with no signal with a second phone's. Each phone's story
is one test in one browser context, as starting the phone's scorer in a fresh context is the
most costly step of a test here."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import OFFLINE, wait_until
from tests.browser.netcut import back_online, context_with_signal, go_offline
from tests.browser.test_languages import SHARED, VISIBLE_TEXT, WORD, words
from tests.browser.test_merge import new_match
from tests.browser.test_offline import SLOW, flush_outbox, open_and_keep, rows, server_match
from tests.browser.test_offline_start import started_here
from tests.browser.test_sheet import PHONE
from tests.browser.test_table import axe
from tests.web.conftest import anna_deal, bruno_deal

pytestmark = [pytest.mark.browser, OFFLINE]

KEPT = """async (language) => {
  const shell = (await caches.keys()).find((name) => name.startsWith("scopa-shell-"));
  const shapes = shell ? await caches.open(shell) : null;
  const vendor = await caches.open("scopa-vendor-v1");
  return !!(shapes && await shapes.match("/offline/shape/scopa-3-0/deal?mode=categories&lang="
    + language) && await shapes.match("/offline/shape/scopa-3-0/sheet?lang=" + language)
    && await shapes.match("/offline/catalog/" + language)
    && await vendor.match("/static/vendor/pyodide/pyodide.asm.wasm"));
}"""

SAID = {
    "it": {"start": "Inizia la partita", "record": "Segna una mano", "save": "Segna la mano",
           "rules": "Regole della casa", "apply": "Applica e ricalcola",
           "created": "Partita creata", "dealer": "Bruno dà le carte della mano 2",
           "started": "Iniziate su questo telefono, non ancora sul server"},
    "es": {"start": "Empezar la partida", "record": "Anotar una mano", "save": "Anotar la mano",
           "rules": "Reglas de la casa", "apply": "Aplicar y recalcular",
           "created": "Partida creada", "dealer": "Bruno reparte la mano 2",
           "started": "Empezadas en este móvil, aún no en el servidor"},
}  # fmt: skip


def english_on(page: Page, english_only: set[str]) -> list[str]:
    texts = page.evaluate(VISIBLE_TEXT)
    return sorted({w for t in texts for w in WORD.findall(t) if w in english_only} - SHARED)


@pytest.mark.slow
@pytest.mark.parametrize(("language", "locale"), [("it", "it-IT"), ("es", "es-ES")])
def test_a_match_offline_then_a_merge_speak_the_phone_s_language(
    server: str, browser: Browser, language: str, locale: str, artifacts: Path
) -> None:
    """One phone's story (one context: the scorer starts once): a match started, scored and
    changed with no signal (:func:`offline_match`), then a merge with a second phone
    (:func:`merge_with_a_second_phone`)."""
    context = context_with_signal(
        browser.new_context,
        viewport=PHONE,
        locale=locale,
        service_workers="allow",
        bypass_csp=True,
    )
    try:
        page = context.new_page()
        offline_match(server, page, context, language, artifacts)
        merge_with_a_second_phone(server, browser, page, context, language, locale)
    finally:
        context.close()


def offline_match(server: str, page: Page, context: Any, language: str, shots: Path) -> None:
    said = SAID[language]
    english_only, _ = words(language)
    found: dict[str, Any] = {}

    def check(name: str) -> None:
        english = english_on(page, english_only)
        if english:
            found[name] = english
        violations = axe(page)
        if violations:
            found[name + " (axe)"] = violations
        page.screenshot(path=str(shots / f"offline-{name}-{language}-phone.png"))

    page.goto(f"{server}/")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=SLOW)
    wait_until(page, KEPT, "the phone's pages were not kept", arg=language)
    go_offline(context)

    page.goto(f"{server}/matches/new")
    for i, name in enumerate(["Anna", "Bruno", "Carla"], start=1):
        page.fill(f"#seats li:nth-child({i}) input[name=player]", name)
    check("new")
    page.get_by_role("button", name=said["start"]).click()
    created = started_here(page)
    expect(page.locator("#sheet .local-note")).to_contain_text(said["created"], timeout=SLOW)

    page.get_by_role("link", name=said["record"], exact=True).click()
    expect(page.locator("#categories[data-ready]")).to_be_visible()
    page.click("button[data-all-to='0']")
    page.check("input[name=last][value='']")
    expect(page.locator("#check")).to_have_class(re.compile(r"\bok\b"), timeout=SLOW)
    check("deal")
    page.get_by_role("button", name=said["save"]).click()
    expect(page).to_have_url(re.compile(rf"/matches/{created}$"), timeout=SLOW)
    expect(rows(page)).to_have_count(1, timeout=SLOW)
    expect(page.locator("#sheet .dealer")).to_have_text(said["dealer"])  # Anna dealt deal 1

    page.click(f"summary:has-text('{said['rules']}')")
    page.uncheck("#settings-form input[name=primiera]")
    page.get_by_role("button", name=said["apply"]).click()
    expect(page.locator("#sheet .local-note")).to_contain_text("Primiera", timeout=SLOW)
    expect(page.locator("#sheet .local-note")).to_be_in_viewport()  # where the eyes are
    check("sheet")
    # The home page lists the match as it stands on the phone, the deal and the rule in.
    page.goto(f"{server}/")
    started = page.locator(".started-here")
    expect(started.locator("h2")).to_have_text(said["started"], timeout=SLOW)
    expect(started.locator(".match-score")).to_have_text("Anna 3 · Bruno 0 · Carla 0", timeout=SLOW)
    check("home")
    assert found == {}
    page.goto(f"{server}/matches/{created}")
    expect(rows(page)).to_have_count(1, timeout=SLOW)

    back_online(context, page)
    flush_outbox(page)
    expect(page).to_have_url(re.compile(r"/matches/\d+$"), timeout=SLOW)
    wait_until(
        page,
        "async () => (await window.scopa?.outbox.entries(null))?.length === 0",
        "the outbox was not emptied",
    )
    expect(rows(page)).to_have_count(1, timeout=SLOW)


def merge_with_a_second_phone(
    server: str, browser: Browser, page: Page, context: Any, language: str, locale: str
) -> None:
    """Issue 46: the phone (``page`` in ``context``, online) changes the target with no
    signal while a second phone (a browser context of its own, same language) turns the
    primiera off online; back online the two merge with no question, and neither phone shows
    an English word or an axe violation."""
    said = SAID[language]
    english_only, _ = words(language)
    match_id = new_match(server, anna_deal(), bruno_deal())
    second = browser.new_context(  # online all along: no service worker to install
        viewport=PHONE, locale=locale, bypass_csp=True, service_workers="block"
    )
    try:
        open_and_keep(page, server, match_id)
        go_offline(context)
        page.click(f"summary:has-text('{said['rules']}')")
        page.fill("#settings-form input[name=target]", "21")
        page.get_by_role("button", name=said["apply"]).click()
        expect(page.locator("#offline-bar")).to_be_visible(timeout=SLOW)
        other = second.new_page()
        other.goto(f"{server}/matches/{match_id}")
        other.click(f"summary:has-text('{said['rules']}')")
        other.uncheck("#settings-form input[name=primiera]")
        other.get_by_role("button", name=said["apply"]).click()
        expect(other.locator(".alert.note")).to_contain_text("Primiera")
        back_online(context, page)
        expect(page.locator("#offline-bar")).to_be_hidden(timeout=SLOW)
        expect(page.locator("#conflicts")).to_be_hidden()
        stored = server_match(server, match_id)["match"]["rules"]
        assert (stored["target"], stored["primiera"]) == (21, False)
        other.reload()
        found: dict[str, Any] = {}
        for name, phone in (("merged", page), ("second", other)):
            english = english_on(phone, english_only)
            if english:
                found[name] = english
            violations = axe(phone)
            if violations:
                found[name + " (axe)"] = violations
        assert found == {}
    finally:
        second.close()


@pytest.mark.slow
def test_a_language_switch_then_offline_still_scores(
    server: str, browser: Browser, artifacts: Path
) -> None:
    """Issue 46: an Italian phone (it-IT) opens the sheet online, switches to Spanish from
    the menu, then loses the signal: it still starts a match, scores a deal by who took each
    point and changes a rule, all in Spanish (every answer varies by language: the worker
    finds what it kept whatever the language asked), with no English word and axe-core 0."""
    context = context_with_signal(
        browser.new_context, viewport=PHONE, locale="it-IT", service_workers="allow",
        bypass_csp=True,
    )  # fmt: skip
    shots = artifacts / "switched"
    shots.mkdir(exist_ok=True)
    try:
        page = context.new_page()
        page.goto(f"{server}/")
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=SLOW)
        wait_until(page, KEPT, "the phone's Italian pages were not kept", arg="it")
        page.locator("header details summary").first.click()
        page.locator("a[hreflang=es]").click()
        expect(page.locator("html")).to_have_attribute("lang", "es")
        offline_match(server, page, context, "es", shots)
    finally:
        context.close()
