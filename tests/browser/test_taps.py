"""A deal in a dozen taps: each flow's taps counted (a click, a field typed in, or two for a
list: open it, pick), and the deal stored with every fact that re-scoring needs. The third
way, who took each point, in six taps or fewer (ten for six players), offline too."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.conftest import OFFLINE, wait_until
from tests.browser.netcut import back_online, go_offline
from tests.browser.test_offline import open_and_keep
from tests.browser.test_sheet import PHONE

pytestmark = pytest.mark.browser

SLOW = 60_000
TAPS: dict[str, int] = {}


@dataclass
class Taps:
    page: Page
    count: int = 0

    def click(self, selector: str) -> None:
        self.page.click(selector)
        self.count += 1

    def fill(self, selector: str, value: str) -> None:
        self.page.fill(selector, value)
        self.count += 1

    def select(self, selector: str, value: str) -> None:
        self.page.select_option(selector, value)
        self.count += 2


def new_match(server: str, players: list[str], partnerships: bool = False) -> int:
    rules = {"partnerships": partnerships}
    body = httpx.post(f"{server}/api/matches", json={"players": players, "rules": rules}).json()
    ident: int = body["id"]
    return ident


def last_deal(server: str, match_id: int) -> dict[str, Any]:
    deal: dict[str, Any] = httpx.get(f"{server}/api/matches/{match_id}").json()["match"]["deals"][
        -1
    ]
    return deal


def submit(taps: Taps, match_id: int) -> None:
    expect(taps.page.locator("#check")).to_have_class(re.compile(r"\bok\b"), timeout=SLOW)
    taps.click("#deal-form button[type=submit]")
    expect(taps.page).to_have_url(re.compile(rf"/matches/{match_id}\?done=1$"), timeout=SLOW)


def two_sides(page: Page, server: str, players: list[str], partnerships: bool) -> dict[str, Any]:
    match_id = new_match(server, players, partnerships)
    page.set_viewport_size(PHONE)
    page.goto(f"{server}/matches/{match_id}/deals/new")
    taps = Taps(page)
    taps.fill("input[name=count-0]", "22")
    for rank in ("A", "2", "3", "7", "K"):
        taps.click(f"label.toggle:has(input[name=coins-0][value='{rank}'])")
    taps.click("button[data-pair=c][data-a='7'][data-b='6']")
    taps.click("button[data-pair=s][data-a='6'][data-b='7']")
    taps.click("button[data-pair=b][data-a='7'][data-b='A']")
    taps.click("button[data-step=sweeps-0]")
    taps.click("input[name=last][value='1']")
    submit(taps, match_id)
    TAPS["2 sides" + (" (4 players, teams)" if partnerships else "")] = taps.count
    assert taps.count <= 12
    return last_deal(server, match_id)


def test_two_players_in_a_dozen_taps(server: str, page: Page) -> None:
    deal = two_sides(page, server, ["Anna", "Bruno"], False)
    assert deal == {  # every fact, the other side's implied
        "piles": {
            "Anna": {"count": 22, "coins": ["A", "2", "3", "7", "K"], "best": {"c": "7", "s": "6", "b": "7"}},  # noqa: E501
            "Bruno": {"count": 18, "coins": ["4", "5", "6", "J", "H"], "best": {"c": "6", "s": "7", "b": "A"}},  # noqa: E501
        },
        "sweeps": {"Anna": 1, "Bruno": 0},
        "last_capture": "Bruno",
    }  # fmt: skip


def test_four_players_in_teams_in_a_dozen_taps(server: str, page: Page) -> None:
    deal = two_sides(page, server, ["Anna", "Bruno", "Carla", "Dario"], True)
    assert deal["piles"]["Bruno & Dario"]["count"] == 18
    assert deal["piles"]["Bruno & Dario"]["coins"] == ["4", "5", "6", "J", "H"]


def best_cards(taps: Taps, side: int, best: str) -> None:
    """One side's best cups, swords and clubs ("." = none, no tap): one tap each for
    7 6 A 5 4, the list for the others."""
    for suit, rank in zip("csb", best, strict=True):
        if rank in "76A54":
            taps.click(f"button.rank[data-best-for=best-{side}-{suit}][data-rank='{rank}']")
        elif rank != ".":
            taps.select(f"select[name=best-{side}-{suit}]", rank)


def test_three_players_and_card_by_card(server: str, page: Page) -> None:
    match_id = new_match(server, ["Anna", "Bruno", "Carla"])
    page.set_viewport_size(PHONE)
    page.goto(f"{server}/matches/{match_id}/deals/new")
    taps = Taps(page)
    taps.fill("input[name=count-0]", "14")
    taps.fill("input[name=count-1]", "13")
    for i, ranks in ((0, "A 2 3 7"), (1, "4 5 6")):
        for rank in ranks.split():
            taps.click(f"label.toggle:has(input[name=coins-{i}][value='{rank}'])")
    for i, best in enumerate(("776", "667", "5A5")):
        best_cards(taps, i, best)
    taps.click("input[name=last][value='2']")
    submit(taps, match_id)
    TAPS["3 players, tally"] = taps.count
    assert taps.count <= 20  # was 29 (each best card from a list: two taps)
    deal = last_deal(server, match_id)
    assert deal["piles"]["Carla"] == {
        "count": 13,
        "coins": ["J", "H", "K"],
        "best": {"c": "5", "s": "A", "b": "5"},
    }

    match_id = new_match(server, ["Anna", "Bruno"])
    page.goto(f"{server}/matches/{match_id}/deals/new?mode=cards")
    taps = Taps(page)
    cards = page.locator("fieldset[data-card]")
    for n in range(22):
        cards.nth(n).click()
        taps.count += 1
    tap = "button.card-tap"
    # the card's letters as the table writes them, its name, and whose pile it is in
    expect(cards.nth(0).locator(tap)).to_have_attribute(
        "aria-label", re.compile(r"^A\S*, ace of coins, in the pile of Anna$")
    )
    expect(cards.nth(39).locator(tap)).to_have_attribute(
        "aria-label", re.compile(r"^K\S*, king of clubs, in no pile yet$")
    )
    taps.click("[data-rest-to='1']")
    expect(cards.nth(39).locator(tap)).to_have_attribute(
        "aria-label", re.compile(r"^K\S*, king of clubs, in the pile of Bruno$")
    )
    taps.click("input[name=last][value='1']")
    submit(taps, match_id)
    TAPS["2 players, card by card"] = taps.count
    assert taps.count == 25  # was 40 cards + last + record = 42
    assert len(last_deal(server, match_id)["piles"]["Bruno"]["cards"]) == 18
    print("taps per deal:", TAPS)


def test_six_players_best_cards_in_one_tap_and_the_rests_seven_implied(
    server: str, page: Page
) -> None:
    players = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco"]
    match_id = new_match(server, players)
    page.set_viewport_size(PHONE)
    page.goto(f"{server}/matches/{match_id}/deals/new")
    taps = Taps(page)  # Franco (the last side) takes the rest: his cards and coins are implied
    for i in range(5):
        taps.fill(f"input[name=count-{i}]", "6")
    for i, ranks in enumerate(("7", "A 2", "3", "4 5", "6")):
        for rank in ranks.split():
            taps.click(f"label.toggle:has(input[name=coins-{i}][value='{rank}'])")
    for i, best in enumerate(("67.", "A67", "5A6", "45A", "345")):
        best_cards(taps, i, best)
    # Nobody else named the 7 of cups: Franco, who took the rest, holds it.
    expect(page.locator("select[name=best-5-c]")).to_have_value("7")
    expect(page.locator("[data-implied-note='5']")).to_contain_text("7 of cups")
    best_cards(taps, 5, ".24")
    taps.click("input[name=last][value='5']")
    submit(taps, match_id)
    TAPS["6 players, tally"] = taps.count
    assert taps.count <= 32  # each best card from a list (two taps each): 48
    piles = last_deal(server, match_id)["piles"]
    assert piles["Franco"] == {
        "count": 10,
        "coins": ["J", "H", "K"],
        "best": {"c": "7", "s": "2", "b": "4"},
    }
    assert piles["Elena"]["best"] == {"c": "3", "s": "4", "b": "5"}
    assert piles["Anna"]["best"] == {"c": "6", "s": "7", "b": None}
    print("taps per deal:", TAPS)


# Who took each point (the deal form's third way): the taps of a usual deal, per flow.


def category_match(server: str, players: list[str], variant: str = "scopa", **rules: Any) -> int:
    body = {"players": players, "rules": rules}
    if variant != "scopa":
        body["variant"] = variant
    created = httpx.post(f"{server}/api/matches", json=body)
    assert created.status_code == 201, created.text
    ident: int = created.json()["id"]
    return ident


def take(taps: Taps, key: str, side: int) -> None:
    """Tap ``side`` for category ``key`` (a chip: one tap)."""
    taps.click(f"#categories label:has(input[name=cat-{key}][value='{side}'])")


def open_categories(page: Page, server: str, match_id: int) -> Taps:
    page.set_viewport_size(PHONE)
    page.goto(f"{server}/matches/{match_id}/deals/new?mode=categories")
    expect(page.locator("#categories")).to_be_visible()
    return Taps(page)


def server_state(server: str, match_id: int) -> dict[str, Any]:
    body: dict[str, Any] = httpx.get(f"{server}/api/matches/{match_id}").json()
    return body


def test_who_took_each_point_in_six_taps_or_fewer(server: str, page: Page) -> None:
    found: dict[str, int] = {}
    # 2 players: Anna takes cards, coins and settebello and a sweep, Bruno the primiera and
    # the last cards.
    match_id = category_match(server, ["Anna", "Bruno"])
    taps = open_categories(page, server, match_id)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    # Each side's sweeps on a row, their numbers in one column whatever the names' widths.
    lefts = page.locator(".sweeps-all input").evaluate_all(
        "(inputs) => inputs.map((input) => input.getBoundingClientRect().left)"
    )
    assert len(lefts) == 2, lefts
    assert lefts[0] == lefts[1], lefts
    taps.click("button[data-all-to='0']")
    take(taps, "primiera", 1)
    taps.click("button[data-step=sweeps-0]")
    taps.click("input[name=last][value='1']")
    submit(taps, match_id)
    found["2 players"] = taps.count
    assert server_state(server, match_id)["match"]["deals"][0] == {
        "categories": {"cards": "Anna", "coins": "Anna", "settebello": "Anna", "primiera": "Bruno"},
        "sweeps": {"Anna": 1, "Bruno": 0},
        "last_capture": "Bruno",
    }
    assert server_state(server, match_id)["sheet"]["totals"] == {"Anna": 4, "Bruno": 1}

    # 4 players in two teams, the cards tied 20-20 ("Tie": both teams at once).
    match_id = category_match(server, ["Anna", "Bruno", "Carla", "Dario"], partnerships=True)
    taps = open_categories(page, server, match_id)
    taps.click("button[data-all-to='1']")
    taps.click("fieldset[data-category=cards] button[data-tie]")
    taps.click("button[data-step=sweeps-0]")
    taps.click("input[name=last][value='0']")
    submit(taps, match_id)
    found["4 players, teams"] = taps.count
    deal = server_state(server, match_id)["match"]["deals"][0]
    assert deal["categories"]["cards"] == ["Anna & Carla", "Bruno & Dario"]
    assert deal["categories"]["coins"] == "Bruno & Dario"
    assert server_state(server, match_id)["sheet"]["totals"] == {
        "Anna & Carla": 1,
        "Bruno & Dario": 3,
    }

    # 6 players, each on their own; the primiera tied by two of them.
    players = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco"]
    match_id = category_match(server, players)
    taps = open_categories(page, server, match_id)
    take(taps, "cards", 0)
    take(taps, "coins", 1)
    take(taps, "settebello", 2)
    taps.click("fieldset[data-category=primiera] button[data-tie]")
    take(taps, "primiera", 3)
    take(taps, "primiera", 4)
    taps.click("button[data-step=sweeps-5]")
    taps.click("input[name=last][value='0']")
    submit(taps, match_id)
    found["6 players"] = taps.count
    deal = server_state(server, match_id)["match"]["deals"][0]
    assert deal["categories"] == {
        "cards": "Anna",
        "coins": "Bruno",
        "settebello": "Carla",
        "primiera": ["Dario", "Elena"],
    }
    assert deal["sweeps"]["Franco"] == 1

    # Escoba: cartas, oros and setenta to Ana, the siete de oros to Beto; Ana's two escobas.
    match_id = category_match(server, ["Ana", "Beto"], "escoba")
    taps = open_categories(page, server, match_id)
    expect(page.locator("fieldset[data-category=primiera] legend")).to_contain_text("Setenta")
    expect(page.locator("fieldset.sweeps-all legend")).to_contain_text("Escobas")
    expect(page.locator("fieldset.run")).to_have_count(0)  # no napola in Escoba
    taps.click("button[data-all-to='0']")
    take(taps, "settebello", 1)
    taps.click("button[data-step=sweeps-0]")
    taps.click("button[data-step=sweeps-0]")
    submit(taps, match_id)
    found["Escoba, 2 players"] = taps.count
    assert server_state(server, match_id)["sheet"]["totals"] == {"Ana": 5, "Beto": 1}

    # Cirulla: Anna's four points but the settebello, her piccola (A-2-3), Bruno's sweep and
    # last cards.
    match_id = category_match(server, ["Anna", "Bruno"], "cirulla")
    taps = open_categories(page, server, match_id)
    taps.click("button[data-all-to='0']")
    take(taps, "settebello", 1)
    taps.click("fieldset.run label:has(input[name=run][value='0'])")
    taps.click("button[data-step=sweeps-1]")
    taps.click("input[name=last][value='1']")
    submit(taps, match_id)
    found["Cirulla, 2 players"] = taps.count
    state = server_state(server, match_id)
    assert state["match"]["deals"][0]["piccola"] == {"Anna": 3}
    assert state["match"]["deals"][0]["grande"] is None
    assert state["sheet"]["totals"] == {"Anna": 6, "Bruno": 2}

    print("taps per deal, who took each point:", found)
    TAPS.update({f"points: {k}": v for k, v in found.items()})
    assert found["2 players"] <= 6
    assert found["4 players, teams"] <= 6
    assert found["Escoba, 2 players"] <= 6
    assert found["Cirulla, 2 players"] <= 6
    assert found["6 players"] <= 10


CATEGORIES_KEPT = """async (id) => {
  const kept = await caches.open("scopa-pages-v1");
  return !!(await kept.match("/matches/" + id + "/deals/new?mode=categories"));
}"""


@pytest.mark.slow
@OFFLINE
def test_who_took_each_point_offline_is_scored_here_synced_once_in_the_online_taps(
    server: str, context: BrowserContext, page: Page
) -> None:
    """One phone's story, in one context (its scorer's first start paid once), each step a
    match of its own that ends online with nothing left to send."""
    who_took_each_point_offline_is_scored_on_the_phone_and_synced_once(server, context, page)
    who_took_each_point_offline_takes_the_taps_it_takes_online(server, context, page)


def who_took_each_point_offline_is_scored_on_the_phone_and_synced_once(
    server: str, context: BrowserContext, page: Page
) -> None:
    match_id = category_match(server, ["Anna", "Bruno"], napola="run")
    open_and_keep(page, server, match_id)
    wait_until(page, CATEGORIES_KEPT, "the categories form was not kept", arg=match_id)
    go_offline(context)
    taps = open_categories(page, server, match_id)
    taps.click("button[data-all-to='0']")
    take(taps, "primiera", 1)
    taps.click("fieldset.run label:has(input[name=run][value='0'])")
    taps.select("select[name=run-length]", "4")
    taps.click("button[data-step=sweeps-0]")
    taps.click("input[name=last][value='1']")
    expect(page.locator("#check")).to_have_class(re.compile(r"\bok\b"), timeout=SLOW)
    expect(page.locator("#check")).to_contain_text("Anna 8 · Bruno 1")  # the phone's own scorer
    page.click("#deal-form button[type=submit]")
    expect(page).to_have_url(re.compile(rf"/matches/{match_id}$"), timeout=SLOW)
    expect(page.locator("table.scores tfoot td")).to_have_text(["8", "1"], timeout=SLOW)
    assert server_state(server, match_id)["version"] == 1  # nothing reached the server yet
    back_online(context, page)
    expect(page.locator("#offline-bar")).to_be_hidden(timeout=SLOW)
    stored = server_state(server, match_id)
    assert stored["version"] == 2  # sent once
    assert stored["match"]["deals"] == [
        {
            "categories": {
                "cards": "Anna",
                "coins": "Anna",
                "settebello": "Anna",
                "primiera": "Bruno",
            },
            "napola": {"Anna": 4},
            "sweeps": {"Anna": 1, "Bruno": 0},
            "last_capture": "Bruno",
        }
    ]
    assert stored["sheet"]["totals"] == {"Anna": 8, "Bruno": 1}


def submit_offline(taps: Taps, match_id: int, totals: list[str]) -> None:
    """Save a deal with no signal: the phone scores it and shows the sheet's ``totals``."""
    expect(taps.page.locator("#check")).to_have_class(re.compile(r"\bok\b"), timeout=SLOW)
    taps.click("#deal-form button[type=submit]")
    expect(taps.page).to_have_url(re.compile(rf"/matches/{match_id}$"), timeout=SLOW)
    expect(taps.page.locator("table.scores tfoot td")).to_have_text(totals, timeout=SLOW)


def who_took_each_point_offline_takes_the_taps_it_takes_online(
    server: str, context: BrowserContext, page: Page
) -> None:
    """Issue 46: the taps of the online test's 2-, 4- and 6-player deals by who took each
    point, made with no signal on a phone that kept the sheet: the same taps (the form is the
    same sheet offline), each deal scored by the phone."""
    found: dict[str, int] = {}

    def synced() -> None:
        back_online(context, page)
        expect(page.locator("#offline-bar")).to_be_hidden(timeout=SLOW)
        wait_until(
            page,
            "async () => (await window.scopa?.outbox.entries(null))?.length === 0",
            "the outbox was not emptied",
        )

    def offline_form(players: list[str], **rules: Any) -> tuple[int, Taps]:
        match_id = category_match(server, players, **rules)
        open_and_keep(page, server, match_id)
        wait_until(page, CATEGORIES_KEPT, "the categories form was not kept", arg=match_id)
        go_offline(context)
        return match_id, open_categories(page, server, match_id)

    match_id, taps = offline_form(["Anna", "Bruno"])
    taps.click("button[data-all-to='0']")
    take(taps, "primiera", 1)
    taps.click("button[data-step=sweeps-0]")
    taps.click("input[name=last][value='1']")
    submit_offline(taps, match_id, ["4", "1"])
    found["2 players"] = taps.count
    synced()

    match_id, taps = offline_form(["Anna", "Bruno", "Carla", "Dario"], partnerships=True)
    taps.click("button[data-all-to='1']")
    taps.click("fieldset[data-category=cards] button[data-tie]")
    taps.click("button[data-step=sweeps-0]")
    taps.click("input[name=last][value='0']")
    submit_offline(taps, match_id, ["1", "3"])
    found["4 players, teams"] = taps.count
    synced()

    match_id, taps = offline_form(["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco"])
    take(taps, "cards", 0)
    take(taps, "coins", 1)
    take(taps, "settebello", 2)
    taps.click("fieldset[data-category=primiera] button[data-tie]")
    take(taps, "primiera", 3)
    take(taps, "primiera", 4)
    taps.click("button[data-step=sweeps-5]")
    taps.click("input[name=last][value='0']")
    submit_offline(taps, match_id, ["1", "1", "1", "0", "0", "1"])  # a tied primiera: nobody
    found["6 players"] = taps.count
    synced()

    print("taps per deal offline, who took each point:", found)
    TAPS.update({f"points offline: {k}": v for k, v in found.items()})
    assert found["2 players"] <= 6
    assert found["4 players, teams"] <= 6
    assert found["6 players"] <= 10


# Tapping cards into piles is a change of the form like any other: the draft is kept, the
# live check follows, and a reload puts the taps back on the screen (nothing typed is lost).
DRAFT_CARDS = """async (path) => {
  const fields = await window.scopa.outbox.draft.get(path + "#cards");
  return !!fields && Object.keys(fields).filter((k) => k.startsWith("card-")).length === 10;
}"""


def test_cards_tapped_into_a_pile_are_kept_as_a_draft_and_checked(server: str, page: Page) -> None:
    match_id = new_match(server, ["Anna", "Bruno"])
    path = f"/matches/{match_id}/deals/new"
    page.set_viewport_size(PHONE)
    checks: list[str] = []
    page.on("request", lambda r: checks.append(r.url) if r.url.endswith("/check") else None)
    page.goto(f"{server}{path}?mode=cards&lang=it")
    counts, core = page.locator("#check .check-counts"), page.locator("#check .check-core")
    expect(core).to_contain_text("40 carte non sono in nessun mazzetto")  # the load's check
    cards = page.locator("fieldset[data-card] button.card-tap")
    for n in range(5):
        cards.nth(n).click()
    expect(counts).to_have_text("5 carte su 40 nei mazzetti (ne mancano 35)")
    # the check follows the taps: the cards just tapped are no longer said to be in no pile
    expect(core).to_contain_text("35 carte non sono in nessun mazzetto: sei di denari")
    assert len(checks) >= 2
    for n in range(5, 10):
        cards.nth(n).click()
    expect(page.locator("#draft-bar")).to_be_visible()
    expect(page.locator("[data-pile-count='0']")).to_have_text("(10)")
    wait_until(page, DRAFT_CARDS, "the ten cards tapped were not kept as a draft", arg=path)
    page.reload()
    expect(page.locator("#draft-bar")).to_contain_text("Bozza ripresa")
    expect(counts).to_have_text("10 carte su 40 nei mazzetti (ne mancano 30)")
    expect(page.locator("fieldset[data-card].taken.side-0")).to_have_count(10)
    expect(cards.nth(9)).to_have_attribute("aria-pressed", "true")
    expect(cards.nth(10)).to_have_attribute("aria-pressed", "false")
    expect(page.locator("[data-pile-count='0']")).to_have_text("(10)")
    expect(core).to_contain_text("30 carte non sono in nessun mazzetto")
    cards.nth(9).click()  # tapped again: out of the pile, and the check follows
    expect(counts).to_have_text("9 carte su 40 nei mazzetti (ne mancano 31)")
    expect(core).to_contain_text("31 carte non sono in nessun mazzetto")


def test_the_rest_s_coins_are_written_in_the_letters_of_the_toggles(
    server: str, page: Page
) -> None:
    page.set_viewport_size(PHONE)
    summary = page.locator("[data-rest-summary='1']")
    for lang, letters, rest, not_counted, counted in (
        (
            "it",
            "F C R",
            "Il resto",
            "le carte che gli altri non hanno preso; denari",
            "18 carte; denari",
        ),
        (
            "es",
            "S C R",
            "El resto",
            "las cartas que no se llevaron los demás; oros",
            "18 cartas; oros",
        ),
    ):
        match_id = new_match(server, ["Anna", "Bruno"])  # a form of its own: no draft
        page.goto(f"{server}/matches/{match_id}/deals/new?mode=tally&lang={lang}")
        toggles = page.locator("fieldset[data-side='0'] label.toggle span")
        expect(toggles).to_have_text(["A", "2", "3", "4", "5", "6", "7", *letters.split()])
        page.click("label.chip-radio:has(input[name=rest][value='1'])")
        # no count typed yet: the cards said in words, never "?"
        expect(summary).to_have_text(f"{rest}: {not_counted} A 2 3 4 5 6 7 {letters}")
        page.fill("input[name=count-0]", "22")
        for rank in ("A", "2", "3", "7", "5"):
            page.click(f"label.toggle:has(input[name=coins-0][value='{rank}'])")
        expect(summary).to_have_text(f"{rest}: {counted} 4 6 {letters}")
