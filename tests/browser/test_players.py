"""The players' pages on a phone, in Debian's Chromium: the Players leaderboard and its order,
a player's page with its charts and tables, a link to a match's sheet, head to head, and a
rename undone. Screenshots at phone width go to test-artifacts/."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, ViewportSize, expect

pytestmark = pytest.mark.browser

PHONE: ViewportSize = {"width": 390, "height": 844}
BIG = {"count": 22, "coins": ["A", "2", "3", "5", "7", "K"], "best": {"c": "7", "s": "7", "b": "6"}}
SMALL = {"count": 18, "coins": ["4", "6", "J", "H"], "best": {"c": "5", "s": "6", "b": "7"}}


def deal(winner: str, loser: str, sweeps: int) -> dict[str, Any]:
    return {
        "piles": {winner: BIG, loser: SMALL},
        "sweeps": {winner: sweeps, loser: 0},
        "last_capture": loser,
    }


def seed(server: str) -> None:
    """A few matches among four friends: Anna wins most, one match still going."""
    games = [
        ("Anna", "Bruno", ["Anna"] * 3),
        ("Anna", "Carla", ["Anna", "Carla", "Anna"]),
        ("Bruno", "Carla", ["Carla"] * 3),
        ("Anna", "Dario", ["Dario", "Anna", "Anna"]),
        ("Dario", "Bruno", ["Bruno"]),
    ]
    with httpx.Client(base_url=server) as client:
        for one, other, winners in games:
            deals = [deal(w, other if w == one else one, n % 2) for n, w in enumerate(winners)]
            made = client.post(
                "/api/import",
                json={"players": [one, other], "rules": {"target": 11}, "deals": deals},
            )
            assert made.status_code == 201, made.text


def test_the_players_pages_on_a_phone(server: str, page: Page, artifacts: Path) -> None:
    seed(server)
    page.set_viewport_size(PHONE)
    page.goto(server + "/")
    page.click("nav >> text=Players")
    expect(page.locator("h1")).to_have_text("Players")
    rows = page.locator("table.board tbody tr")
    expect(rows).to_have_count(4)
    expect(rows.first.locator("th")).to_have_text("Anna")  # every match finished won: the best
    page.screenshot(path=str(artifacts / "players-phone.png"), full_page=True)
    page.click("nav.sort >> text=Matches")
    expect(page).to_have_url(re.compile(r"sort=matches"))
    expect(rows.first.locator("th")).to_have_text("Anna")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width  # nothing runs off a phone's screen

    rows.first.locator("a").click()
    expect(page.locator("h1")).to_have_text("Anna")
    expect(page.locator(".figures")).to_contain_text("Matches")
    anna = httpx.get(server + "/api/players/Anna").json()
    expect(page.locator(".figures")).to_contain_text(f"{anna['won']} of {anna['finished']}")
    expect(page.locator("figure.results rect.bar")).to_have_count(3)
    expect(page.locator("figure.shares rect.bar.mine")).to_have_count(6)
    expect(page.locator("section:has(h2:text('Opponents')) tbody tr")).to_have_count(3)
    page.screenshot(path=str(artifacts / "player-phone.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    page.click("section:has(h2:text('Opponents')) tr:has-text('Bruno') >> text=head to head")
    expect(page.locator("h1")).to_contain_text("Anna \u2013 Bruno")
    expect(page.locator(".versus")).to_contain_text("Anna 1")
    page.go_back()
    page.locator("ul.matches a.match-link").first.click()
    expect(page).to_have_url(re.compile(r"/matches/\d+$"))

    page.goto(server + "/players/Dario")
    page.click("summary:text('Rename, merge or remove')")
    page.fill("#rename-name", "Dario R.")
    page.click("button:text('Rename')")
    expect(page.locator("h1")).to_have_text("Dario R.")
    page.goto(server + "/players/changes")
    page.click("li:has-text('Renamed Dario') >> button:text('Undo')")
    expect(page.locator("ul.log")).to_contain_text("Undone: Renamed Dario → Dario R.")
    page.goto(server + "/players/dario")
    expect(page.locator("h1")).to_have_text("Dario")
