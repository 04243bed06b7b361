"""The entry a table uses most, first: "Record a deal" opens "Who took each point" (every
variant's deal re-scores from it), and then the form last chosen on this phone, for this
match and as the phone's choice for the others; online and offline, on a match started on
the phone with no signal, where the scorer's cold start is said from the first tap (Chromium at
phone size, in Spanish and Italian)."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.conftest import OFFLINE, wait_until
from tests.browser.netcut import context_with_signal, go_offline
from tests.browser.test_offline import SLOW, rows
from tests.browser.test_offline_start import started_here
from tests.browser.test_sheet import PHONE

pytestmark = pytest.mark.browser


def new_match(server: str, players: list[str]) -> int:
    created = httpx.post(f"{server}/api/matches", json={"players": players}).json()
    ident: int = created["id"]
    return ident


def record_link(page: Page, name: str) -> None:
    """Tap "Record a deal" and wait for the form's page to have loaded (its scripts run), so
    that a tab tapped next is one the page's script sees, as it is for a person."""
    with page.expect_navigation(wait_until="load"):
        page.get_by_role("link", name=name, exact=True).click()


def test_record_a_deal_opens_who_took_each_point_then_the_last_choice(
    server: str, browser: Browser
) -> None:
    first = new_match(server, ["Anna", "Bruno"])
    second = new_match(server, ["Carla", "Dario"])
    context = browser.new_context(viewport=PHONE, locale="es-ES")
    try:
        page = context.new_page()
        page.goto(f"{server}/matches/{first}")
        record_link(page, "Anotar una mano")  # a phone that never chose: who took each point
        expect(page).to_have_url(re.compile(rf"/matches/{first}/deals/new\?mode=categories$"))
        expect(page.locator("#categories")).to_be_visible()
        # The entry it opens is the first of the tabs, the others after it.
        expect(page.locator("a.tab")).to_have_text(
            ["Quién se llevó cada punto", "Recuento rápido", "Carta a carta"]
        )
        page.get_by_role("link", name="Recuento rápido").click()  # chosen here: remembered
        expect(page.locator("input[name=count-0]")).to_be_visible()

        page.goto(f"{server}/matches/{first}")
        record_link(page, "Anotar una mano")
        expect(page).to_have_url(re.compile(rf"/matches/{first}/deals/new\?mode=tally$"))
        # Another match: the phone's last choice; chosen otherwise there, for that match.
        page.goto(f"{server}/matches/{second}")
        record_link(page, "Anotar una mano")
        expect(page).to_have_url(re.compile(rf"/matches/{second}/deals/new\?mode=tally$"))
        page.get_by_role("link", name="Quién se llevó cada punto").click()
        expect(page.locator("#categories")).to_be_visible()
        page.goto(f"{server}/matches/{second}")
        record_link(page, "Anotar una mano")
        expect(page).to_have_url(re.compile(rf"/matches/{second}/deals/new\?mode=categories$"))
        # The first match keeps its own choice, through a new page of the same phone.
        again = context.new_page()
        again.goto(f"{server}/matches/{first}")
        record_link(again, "Anotar una mano")
        expect(again).to_have_url(re.compile(rf"/matches/{first}/deals/new\?mode=tally$"))
    finally:
        context.close()


SHAPES_KEPT = """async () => {
  const shell = (await caches.keys()).find((name) => name.startsWith("scopa-shell-"));
  const shapes = shell ? await caches.open(shell) : null;
  const vendor = await caches.open("scopa-vendor-v1");
  return !!(shapes && await shapes.match("/offline/shape/scopa-2-0/deal?mode=categories&lang=it")
    && await shapes.match("/offline/shape/scopa-2-0/deal?lang=it")
    && await shapes.match("/offline/catalog/it")
    && await vendor.match("/static/vendor/pyodide/pyodide.asm.wasm"));
}"""


@OFFLINE
@pytest.mark.slow
def test_offline_a_match_started_on_the_phone_opens_who_took_each_point(
    server: str, browser: Browser
) -> None:
    context = context_with_signal(
        browser.new_context, viewport=PHONE, locale="it-IT", service_workers="allow"
    )
    try:
        started_offline(server, context)
    finally:
        context.close()


def started_offline(server: str, context: BrowserContext) -> None:
    page = context.new_page()
    page.goto(f"{server}/")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=SLOW)
    wait_until(page, SHAPES_KEPT, "the Italian pages of a match started offline were not kept")
    go_offline(context)

    page.goto(f"{server}/matches/new")
    page.fill("#seats li:nth-child(1) input[name=player]", "Carla")
    page.fill("#seats li:nth-child(2) input[name=player]", "Dario")
    page.get_by_role("button", name="Inizia la partita").click()
    created = started_here(page)
    # The scorer's cold start, said from the first tap that waits for it, in the page's words.
    progress = page.locator("#scorer-progress")
    expect(progress).to_contain_text("Il telefono", timeout=SLOW)
    expect(progress).to_contain_text("second")
    expect(progress).to_be_hidden(timeout=SLOW)  # gone once the scorer is up
    record_link(page, "Segna una mano")
    expect(page).to_have_url(re.compile(rf"/matches/{created}/deals/new\?mode=categories$"))
    expect(page.locator("#categories")).to_be_visible()
    page.click("button[data-all-to='0']")  # every point to Carla
    page.check("input[name=last][value='']")
    expect(page.locator("#check")).to_have_class(re.compile(r"\bok\b"), timeout=SLOW)
    page.get_by_role("button", name="Segna la mano").click()
    expect(page).to_have_url(re.compile(rf"/matches/{created}$"), timeout=SLOW)
    expect(rows(page)).to_have_count(1, timeout=SLOW)

    # The quick tally chosen on the phone, offline: remembered for the next deal.
    record_link(page, "Segna una mano")
    expect(page.locator("#categories")).to_be_visible()
    page.get_by_role("link", name="Conteggio veloce").click()
    expect(page.locator("input[name=count-0]")).to_be_visible()
    page.goto(f"{server}/matches/{created}")
    record_link(page, "Segna una mano")
    expect(page).to_have_url(re.compile(rf"/matches/{created}/deals/new\?mode=tally$"))
    expect(page.locator("input[name=count-0]")).to_be_visible()
