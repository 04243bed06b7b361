"""Tables played together, in Chromium: phones as separate browser contexts (each its own
cookies, so its own seat). A whole 2-player deal between two phones; a Scopone table with
two people and two computer seats; a phone that drops and reconnects mid-deal (and the seat
opened on another phone); a seat that leaves, is played by the computer, then returns."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright._impl._api_structures import SetCookieParam
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect

from scopa.store import MatchStore
from scopa.web import create_app
from tests.browser.conftest import serving

pytestmark = pytest.mark.browser

PHONE: ViewportSize = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    store = MatchStore.open(f"sqlite:///{tmp_path_factory.mktemp('tables') / 'sheet.db'}")
    app = create_app(store)
    app.state.table_pause = 0.0
    with serving(app) as url:
        yield url
    store.close()


def phone(browser: Browser) -> tuple[BrowserContext, Page]:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    return context, context.new_page()


def open_table(
    page: Page,
    server: str,
    name: str,
    variant: str = "Scopa",
    computers: int = 0,
    grace: int = 60,
) -> str:
    """Create a table from the page; its code."""
    page.goto(f"{server}/tables/new")
    page.get_by_label("Your name").fill(name)
    page.locator("label.chip-radio", has_text=re.compile(f"^{variant}$")).click()
    page.get_by_role("radiogroup", name="Seats for the computer").locator(
        "label.chip-radio", has_text=re.compile(f"^{computers}$")
    ).click()
    page.get_by_role("radiogroup", name="Level").locator("label", has_text="Easy").click()
    page.get_by_label("Seconds a player may be away").fill(str(grace))
    page.get_by_role("button", name="Open the table").click()
    expect(page.locator("#table-felt")).to_be_visible()
    summary = page.locator(".table-share summary").inner_text()
    return summary.rsplit(" ", 1)[1]


def join_table(page: Page, server: str, code: str, name: str) -> None:
    page.goto(f"{server}/t/{code}")
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Take a seat").click()
    expect(page.locator("#table-felt")).to_be_visible()


def status(page: Page) -> str:
    return page.locator("#table-felt").get_attribute("data-status") or ""


def play_once(page: Page) -> None:
    """Tap the first play offered (the cards are drawn by cards.js inside the button)."""
    button = page.locator("button.table-play").first
    version = page.locator("#table-felt").get_attribute("data-version")
    button.click()
    expect(page.locator("#table-felt")).not_to_have_attribute("data-version", version or "")


def play_until_over(pages: list[Page], limit: int = 80) -> None:
    """Each page taps when it is its turn, until the deal is over on every page."""
    for _ in range(limit * 10):
        if all(status(p) in ("deal_over", "match_over") for p in pages):
            return
        for page in pages:
            if page.locator("button.table-play").count():
                play_once(page)
                break
        else:
            pages[0].wait_for_timeout(50)  # waiting for the others (or the computer) to play
    raise AssertionError("the deal did not end")


@pytest.mark.slow
def test_two_phones_play_a_whole_deal(browser: Browser, server: str) -> None:
    anna_context, anna = phone(browser)
    bruno_context, bruno = phone(browser)
    try:
        code = open_table(anna, server, "Anna")
        expect(anna.locator("#table-status")).to_contain_text("Waiting for 1 more player")
        expect(anna.locator(".table-share img")).to_be_visible()  # the QR code
        join_table(bruno, server, code, "Bruno")
        expect(anna.locator(".play-seat", has_text="Bruno")).to_contain_text("here")
        # The cards are the Play page's (cards.js draws the suits' signs).
        expect(anna.locator(".play-hand .pc svg.suit")).to_have_count(3)
        play_until_over([anna, bruno])
        for page in (anna, bruno):
            expect(page.get_by_role("heading", name="The deal's points")).to_be_visible()
            expect(page.get_by_role("button", name="Next deal")).to_be_visible()
        sheet = anna.get_by_role("link", name="The match on the sheet")
        sheet.click()
        expect(anna.locator("body")).to_contain_text("Anna")
        expect(anna.locator("body")).to_contain_text("Bruno")
    finally:
        anna_context.close()
        bruno_context.close()


@pytest.mark.slow
def test_a_scopone_table_with_two_people_and_two_computer_seats(
    browser: Browser, server: str
) -> None:
    anna_context, anna = phone(browser)
    carla_context, carla = phone(browser)
    try:
        code = open_table(anna, server, "Anna", "Scopone", computers=2)
        join_table(carla, server, code, "Carla")
        seats = anna.locator(".play-seat")
        expect(seats).to_have_count(4)
        expect(seats.nth(1)).to_contain_text("computer")
        expect(seats.nth(2)).to_contain_text("Carla")
        play_until_over([anna, carla], limit=40)
        expect(anna.locator("#table-score")).to_contain_text("Anna & Carla")
        tv = anna_context.new_page()
        tv.goto(f"{server}/tables/{anna.url.rsplit('/', 1)[1]}/tv?code={code}")
        expect(tv.locator("#table-felt")).to_be_visible()
        expect(tv.locator(".play-hand")).to_have_count(0)  # a television shows no hand
    finally:
        anna_context.close()
        carla_context.close()


def test_a_phone_that_drops_catches_up_and_the_seat_opens_on_another_phone(
    browser: Browser, server: str
) -> None:
    anna_context, anna = phone(browser)
    bruno_context, bruno = phone(browser)
    try:
        code = open_table(anna, server, "Anna")
        join_table(bruno, server, code, "Bruno")
        expect(anna.locator("#table-status")).not_to_contain_text("Waiting")
        mover, other = (anna, bruno) if anna.locator("button.table-play").count() else (bruno, anna)
        other_context = bruno_context if other is bruno else anna_context
        expect(other.locator("#table").first).to_have_attribute("data-live", "1")
        other_context.set_offline(True)  # the phone drops
        play_once(mover)
        played = mover.locator(".play-played").get_attribute("data-last-seat")
        other_context.set_offline(False)
        # back: the stream reconnects (Last-Event-ID) and the page shows the play it missed
        expect(other.locator(".play-played")).to_have_attribute("data-last-seat", played or "")
        expect(other.locator("button.table-play").first).to_be_visible()
        # The same seat on another phone: its cookie carried over (as a phone would with the
        # seat's link kept), the same hand.
        new_context, new_phone = phone(browser)
        seat_cookies: list[SetCookieParam] = [
            {"name": c["name"], "value": c["value"], "url": server}
            for c in other_context.cookies()
            if c["name"].startswith("scopa_seat_")
        ]
        new_context.add_cookies(seat_cookies)
        new_phone.goto(other.url)
        hand = other.locator(".play-hand .pc").evaluate_all("n => n.map(c => c.dataset.card)")
        again = new_phone.locator(".play-hand .pc").evaluate_all("n => n.map(c => c.dataset.card)")
        assert hand == again
        new_context.close()
    finally:
        anna_context.close()
        bruno_context.close()


def test_a_seat_away_is_played_by_the_computer_then_its_person_returns(
    browser: Browser, server: str
) -> None:
    """With a grace of 0 the computer plays for a seat as soon as its phone leaves (the API
    tests move a clock through a longer grace)."""
    anna_context, anna = phone(browser)
    bruno_context, bruno = phone(browser)
    try:
        code = open_table(anna, server, "Anna", grace=0)
        join_table(bruno, server, code, "Bruno")
        expect(anna.locator("#table-status")).not_to_contain_text("Waiting")
        table_url = bruno.url
        if bruno.locator("button.table-play").count():  # Anna is the one to move next
            play_once(bruno)
        expect(anna.locator("button.table-play").first).to_be_visible()
        bruno.close()  # Bruno leaves (his stream closes)
        expect(anna.locator(".play-seat", has_text="Bruno")).to_contain_text("away")
        play_once(anna)
        expect(anna.locator(".play-played")).to_contain_text("(by the computer)")
        expect(anna.locator(".play-seat", has_text="Bruno")).to_contain_text("the computer plays")
        back = bruno_context.new_page()  # Bruno returns
        back.goto(table_url)
        expect(anna.locator(".play-seat", has_text="Bruno")).to_contain_text("here")
        play_once(anna)
        expect(back.locator("button.table-play").first).to_be_visible()
        expect(anna.locator("#table-status")).to_contain_text("Bruno to play")
        log = anna.locator(".play-log li[data-by='computer']")
        expect(log).to_have_count(1)
    finally:
        anna_context.close()
        bruno_context.close()
