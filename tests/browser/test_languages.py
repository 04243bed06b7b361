"""The pages in Chromium with an Italian and a Spanish phone: every visible text node is in
the page's language (no word that only the English catalog has), `<html lang>` says which,
and axe-core still finds nothing."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from playwright.sync_api import Browser

from tests.browser.test_sheet import PHONE
from tests.browser.test_table import axe, pages_to_check

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


@pytest.mark.slow
@pytest.mark.parametrize(("language", "locale"), [("it", "it-IT"), ("es", "es-ES")])
def test_the_pages_speak_the_phone_s_language(
    server: str, browser: Browser, language: str, locale: str
) -> None:
    english_only, _ = words(language)
    context = browser.new_context(viewport=PHONE, locale=locale, bypass_csp=True)
    page = context.new_page()
    found: dict[str, Any] = {}
    for path in [*pages_to_check(server), "/play"]:
        page.goto(server + path)
        assert page.get_attribute("html", "lang") == language, path
        for summary in page.locator("details > summary").all():
            summary.click()
        page.wait_for_timeout(200)  # the scripts' catalog and the live checks
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
