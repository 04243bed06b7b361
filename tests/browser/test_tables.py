"""Tables played together, in Chromium: phones as separate browser contexts (each its own
cookies, so its own seat). A whole 2-player deal between two phones; a Scopone table with
two people and two computer seats; a phone that drops and reconnects mid-deal (and the seat
opened on another phone); a seat that leaves, is played by the computer, then returns."""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from playwright._impl._api_structures import SetCookieParam
from playwright.sync_api import (
    Browser,
    BrowserContext,
    Page,
    Response,
    ViewportSize,
    expect,
)
from playwright.sync_api import Error as PlaywrightError

from scopa.application import MatchService
from scopa.application.tables import TableGame, Tables, hidden_cards
from scopa.store import MatchStore
from scopa.store.records import TableRecord
from scopa.store.tables import SqlTables
from scopa.web import create_app
from tests.browser.conftest import serving
from tests.browser.netcut import back_online, context_with_signal, go_offline
from tests.web.tables_helpers import leaked

pytestmark = pytest.mark.browser

PHONE: ViewportSize = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, FastAPI]]:
    store = MatchStore.open(f"sqlite:///{tmp_path_factory.mktemp('tables') / 'sheet.db'}")
    app = create_app(store)
    app.state.table_pause = 0.0
    with serving(app) as url:
        yield url, app
    store.close()


@pytest.fixture(scope="module")
def server(served: tuple[str, FastAPI]) -> str:
    return served[0]


def phone(browser: Browser) -> tuple[BrowserContext, Page]:
    """A phone at the table, its signal one a test can cut."""
    context = context_with_signal(
        browser.new_context, viewport=PHONE, has_touch=True, is_mobile=True
    )
    return context, context.new_page()


def open_table(
    page: Page,
    server: str,
    name: str,
    variant: str = "Scopa",
    computers: int = 0,
    grace: int = 60,
    target: int | None = None,
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
    if target is not None:
        page.get_by_label("Points to win").fill(str(target))
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
    over = ("deal_over", "match_over")
    for _ in range(limit * 10):
        # Each page's version read before its buttons: a move made after the read shows as
        # a new version, so the wait below cannot miss it.
        versions = [p.locator("#table-felt").get_attribute("data-version") or "" for p in pages]
        if all(status(p) in over for p in pages):
            return
        for page in pages:
            if page.locator("button.table-play").count():
                play_once(page)
                break
        else:  # nobody may play yet: a page behind catches up, or the computer moves
            behind = [k for k, p in enumerate(pages) if status(p) not in over]
            if behind:  # else the deal ended meanwhile
                k = min(behind, key=lambda k: int(versions[k] or 0))
                felt = pages[k].locator("#table-felt")
                expect(felt).not_to_have_attribute("data-version", versions[k])
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
        go_offline(other_context)  # the phone drops
        play_once(mover)
        played = mover.locator(".play-played").get_attribute("data-last-seat")
        back_online(other_context)
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
        # His stream open (a seat leaves when its stream closes; a page closed before its
        # stream opened is away once its presence runs out instead)
        expect(bruno.locator("#table").first).to_have_attribute("data-live", "1")
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


RECORD_EVENTS = """(() => {
  /* Every event of the table's stream the page is sent, kept for the test to read. */
  const Source = window.EventSource;
  if (!Source) return;
  window.__tableEvents = [];
  window.EventSource = class extends Source {
    constructor(url, options) {
      super(url, options);
      this.addEventListener("table", (event) => window.__tableEvents.push(event.data));
    }
  };
})();"""
DEAL_OF_PAGE = re.compile(r'id="table-felt"[^>]*data-deal="(\d+)"')


class Seat:
    """One phone at the table: its page, its seat, and everything the server sent it (the
    pages and fragments as answered, the stream's events as the page got them), each text
    kept with the deal it belongs to until it is checked."""

    def __init__(self, context: BrowserContext, page: Page) -> None:
        self.context = context
        self.page = page
        self.seat = -1
        self.answers: list[Response] = []
        self.unchecked: list[tuple[int, str]] = []
        self.checked = 0
        page.on("response", self.answered)

    def answered(self, answer: Response) -> None:
        self.answers.append(answer)

    def received(self) -> str:
        """Move what came since the last look into ``unchecked``; the table as drawn now."""
        answers, self.answers = self.answers, []
        for answer in answers:
            kind = answer.headers.get("content-type", "")
            if answer.status >= 300 or not kind.startswith(("text/html", "application/json")):
                continue  # redirects, scripts, the QR code, the stream (read as events below)
            try:
                text = answer.text()
            except PlaywrightError:  # a page left since: its body is gone (no table in it)
                assert not re.search(r"/tables/\d", answer.url), answer.url
                continue
            found = DEAL_OF_PAGE.search(text)
            if found is not None:
                self.unchecked.append((int(found.group(1)), text))
            elif "/api/tables" in answer.url:
                self.unchecked.append((json.loads(text).get("deal", 0), text))
        events, drawn = self.page.evaluate(
            "() => [(window.__tableEvents || []).splice(0),"
            " document.getElementById('table').outerHTML]"
        )
        for data in events:
            self.unchecked.append((json.loads(data)["view"]["deal"], data))
        return str(drawn)


def three_phone_seat(browser: Browser) -> Seat:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    context.add_init_script(RECORD_EVENTS)
    return Seat(context, context.new_page())


def check_no_other_hand(
    phones: list[Seat], tables: SqlTables, table_id: int
) -> tuple[TableRecord, TableGame]:
    """No phone has been sent, or shows, a card of another seat's hand (or of the stock):
    every text of this deal it got since the last look, and its table as drawn now, against
    the cards its seat may not know, read from the server after them (fewer than at any
    earlier moment of the deal: cards only leave the hands, so a card hidden then was hidden
    when the text was sent). The table as it stands, for the test to go on from."""
    drawn: list[str] = []
    for phone in phones:
        drawn.append(phone.received())
    record = tables.load(table_id)
    assert record is not None
    game = TableGame(record)
    deal = len(record.log) or 1
    for phone, now in zip(phones, drawn, strict=True):
        hidden = set(hidden_cards(game, phone.seat).to_list())
        texts = [text for number, text in phone.unchecked if number == deal]
        shown = DEAL_OF_PAGE.search(now)
        if shown is not None and int(shown.group(1)) == deal:
            texts.append(now)
        for text in texts:
            assert not leaked(text, hidden), (phone.seat, leaked(text, hidden), text)
        phone.checked += len(texts)
        phone.unchecked = [(n, t) for n, t in phone.unchecked if n > deal]
    return record, game


WAIT = 20_000
"""Milliseconds the three phones' test waits for an event at most (a bound, not a pause: the
machine running the suite may be loaded many times over)."""


def step_at_least(page: Page, step: int) -> None:
    """Wait until the page shows the table at ``step`` or later (the stream's event, then
    the fragment)."""
    page.wait_for_function(
        "s => Number(document.getElementById('table-felt')?.dataset.tableStep) >= s",
        arg=step,
        timeout=WAIT,
    )


THREE_PHONES = {
    "variant": "scopone",
    "players": 4,
    "names": ["Lucia"],
    "computer": {"3": "easy"},
    "level": "easy",
    "rules": {"target": 5},
}
"""The table the three phones open through the form (the computer opposite the first)."""


def a_seed_of_two_deals(path: Path) -> int:
    """The first seed whose match takes two deals or more (so that a phone taps *Next deal*)
    when each person plays their first play and the computer plays as at the table (the
    easy level counts its sampled deals, not its time): played out here beforehand on the
    application's own tables, so no change to the engine or the player can shorten it."""
    store = MatchStore.open(f"sqlite:///{path}")
    try:
        for seed in itertools.count(1):
            seeds = itertools.repeat(seed).__next__
            tables = Tables(SqlTables(store.db), MatchService(store), seeds=seeds)
            made = tables.create(THREE_PHONES)
            table_id, code = made.record.id, made.record.code
            tables.join(table_id, code, "Marco")
            tables.join(table_id, code, "Nina")
            while True:
                view = tables.view(table_id, None, alive=False).view()
                if view["status"] == "match_over":
                    break
                if view["status"] == "deal_over":
                    tables.next_deal(table_id, 0, {"step": view["step"]})
                elif view["turn"] == 3:
                    assert tables.run_due() == 1
                else:
                    mine = tables.view(table_id, view["turn"], alive=False).view()
                    first = mine["legal"][0]
                    play = {"step": mine["step"], "card": first["card"]}
                    tables.play(table_id, view["turn"], {**play, "capture": first["captures"][0]})
            if view["deal"] >= 2:
                return seed
        raise AssertionError("no seed")  # itertools.count never ends
    finally:
        store.close()


@pytest.mark.slow
def test_three_phones_play_a_scopone_match_to_the_end_with_a_computer_seat(
    browser: Browser, served: tuple[str, FastAPI], tmp_path: Path
) -> None:
    """Friends on three phones and the computer in the fourth seat play a Scopone match to 5
    points, taps and next deals, to the end; no phone is ever sent or shown a card of
    another seat's hand (the computer's included); the match, with every deal, is on the
    sheet and in the players' figures."""
    server, app = served
    seed = a_seed_of_two_deals(tmp_path / "seeds.db")
    app.state.table_seeds = lambda: seed
    phones = [three_phone_seat(browser) for _ in range(3)]
    lucia, marco, nina = (phone.page for phone in phones)
    try:
        code = open_table(lucia, server, "Lucia", "Scopone", computers=1, target=5)
        # (the form's table is THREE_PHONES: the seeds' play-out above assumes it)
        join_table(marco, server, code, "Marco")
        join_table(nina, server, code, "Nina")
        table_id = int(lucia.url.rsplit("/", 1)[1])
        for phone in phones:
            you = phone.page.locator(".play-seat", has_text="(you)")
            phone.seat = int(you.get_attribute("data-seat") or "-1")
            expect(phone.page.locator("#table-score")).to_contain_text("(to 5)")
        assert sorted(phone.seat for phone in phones) == [0, 1, 2]
        by_seat = {phone.seat: phone for phone in phones}
        expect(lucia.locator(".play-seat").nth(3)).to_contain_text("computer")
        tables = SqlTables(app.state.store.db, every_group=True)
        taps = deals = 0
        while True:
            record, game = check_no_other_hand(phones, tables, table_id)
            deal = len(record.log) or 1
            if game.status == "match_over":
                break
            if game.status == "deal_over":  # a different phone taps Next deal each time
                deals += 1
                tapper = phones[deals % 3].page
                step_at_least(tapper, record.step)
                tapper.get_by_role("button", name="Next deal").click()
                for phone in phones:
                    expect(phone.page.locator("#table-felt")).to_have_attribute(
                        "data-deal", str(deal + 1), timeout=WAIT
                    )
                continue
            turn = game.state.turn
            if turn not in by_seat:  # the computer's turn: the next phone sees it play
                step_at_least(by_seat[(turn + 1) % 4].page, record.step + 1)
                continue
            page = by_seat[turn].page
            step_at_least(page, record.step)
            version = page.locator("#table-felt").get_attribute("data-version") or ""
            page.locator("button.table-play").first.click()
            expect(page.locator("#table-felt")).not_to_have_attribute(
                "data-version", version, timeout=WAIT
            )
            taps += 1
        played = len(game.match.deals)
        assert played == deals + 1
        assert played >= 2  # as played out beforehand
        winner = game.sheet.winner
        assert winner is not None
        for phone in phones:  # every phone shows the result
            status = phone.page.locator("#table-status")
            expect(status).to_contain_text("The match is over", timeout=WAIT)
            expect(phone.page.get_by_role("button", name="Rematch")).to_be_visible()
            assert phone.checked > taps  # every phone's answers were looked at, each deal
        # The match on the sheet, with its deals, and in the players' figures.
        lucia.get_by_role("link", name="The match on the sheet").click()
        expect(lucia.locator("a.deal-link")).to_have_count(played)
        for name in ("Lucia", "Marco", "Nina"):
            expect(lucia.locator("body")).to_contain_text(name)
            figures = lucia.request.get(f"{server}/api/players/{name}").json()
            assert figures["matches"] == figures["finished"] == 1, figures
            assert figures["deals"] == played
        lucia_figures = lucia.request.get(f"{server}/api/players/Lucia").json()
        assert "Nina" in lucia_figures["partners"]
        assert "Marco" in lucia_figures["opponents"]
    finally:
        del app.state.table_seeds
        for phone in phones:
            phone.context.close()


@pytest.mark.parametrize(("locale", "lang"), [("it-IT", "it"), ("es-ES", "es")])
def test_a_seat_s_page_passes_axe_in_italian_and_spanish(
    browser: Browser, server: str, locale: str, lang: str
) -> None:
    """A live table as its seat sees it (hand, felt, the turn clock, the share panel open),
    in the phone's language, light and dark: axe-core finds nothing (issue 46: every page in
    both languages)."""
    from tests.browser.test_table import axe

    made = httpx.post(
        f"{server}/api/tables",
        json={"players": 2, "names": ["Anna"], "computer": {"1": "easy"}, "clock": 90},
        headers={"Accept-Language": lang},
    )
    assert made.status_code == 201, made.text
    table, token = made.json()["table"], made.json()["token"]
    context = browser.new_context(
        viewport=PHONE, locale=locale, has_touch=True, is_mobile=True, bypass_csp=True
    )
    try:
        context.add_cookies([{"name": f"scopa_seat_{table}", "value": token, "url": server}])
        page = context.new_page()
        page.goto(f"{server}/tables/{table}")
        expect(page.locator("#table-felt")).to_be_visible()
        assert page.evaluate("document.documentElement.lang") == lang
        for summary in page.locator("details > summary").all():
            summary.click()
        problems = {}
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            found = axe(page)
            if found:
                problems[scheme] = found
        assert problems == {}, json.dumps(problems, indent=1)
    finally:
        context.close()
