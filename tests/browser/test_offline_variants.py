"""A variant's house rules changed with no connection (issue 21, defect 2): the page reads
every setting of the variant's form (not only Scopa's six), the device re-scores the sheet
with them as the server would, and on reconnection the server receives them once, merged
with the deal another device recorded meanwhile (one merge policy: the stale form's request is
read against the rules it showed, or the outbox's PATCH)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from playwright.sync_api import BrowserContext, Page, Request, expect

from tests.browser.conftest import OFFLINE
from tests.browser.netcut import back_online, go_offline
from tests.browser.test_offline import SLOW, open_and_keep, server_match

pytestmark = [pytest.mark.browser, OFFLINE]


def deal_for(sides: list[str]) -> dict[str, Any]:
    """A deal between the match's two sides (Scopone's teams). The first has the higher
    primiera by the sum of its best cards but as many sevens as the other (primiera_mode
    "sevens" withholds it), and coins A-5 in a run (Cirulla's piccola 5, 3 when capped at 3);
    the second took the last cards (last_capture_sweep gives it a sweep)."""
    first, second = sides
    return {
        "piles": {
            first: {
                "count": 22,
                "coins": ["A", "2", "3", "4", "5", "7", "K"],
                "best": {"c": "6", "s": "6", "b": "7"},
            },
            second: {"count": 18, "coins": ["6", "J", "H"], "best": {"c": "7", "s": "7", "b": "5"}},
        },
        "sweeps": {first: 1, second: 0},
        "last_capture": second,
    }


def new_match(server: str, variant: str, players: list[str]) -> dict[str, Any]:
    created: dict[str, Any] = httpx.post(
        f"{server}/api/matches", json={"players": players, "variant": variant}
    ).json()
    added = httpx.post(
        f"{server}/api/matches/{created['id']}/deals", json=deal_for(created["sheet"]["sides"])
    )
    assert added.status_code == 201, added.text
    body: dict[str, Any] = added.json()  # the match with its deal
    assert body["id"] == created["id"]
    return body


CASES: list[tuple[str, list[str], dict[str, Any]]] = [
    # variant, players, the settings changed on the page
    (
        "scopone",
        ["Anna", "Bruno", "Carla", "Dario"],
        {"last_capture_sweep": True, "last_play_sweep": True},
    ),
    ("escoba", ["Anna", "Bruno"], {"primiera_mode": "sevens", "target": 21}),
    (
        "cirulla",
        ["Anna", "Bruno"],
        {"piccola_cap": 3, "cappotto": "off", "last_capture_sweep": True},
    ),
]


def change_rules(page: Page, changes: dict[str, Any]) -> None:
    page.click("summary:has-text('House rules')")
    for name, value in changes.items():
        field = page.locator(f"#settings-form [name={name}]:not([type=hidden])")
        if value is True or value is False:
            field.set_checked(value)
        elif field.evaluate("el => el.tagName") == "SELECT":
            field.select_option(str(value))
        else:
            field.fill(str(value))
    page.click("button:has-text('Apply and re-score')")


@pytest.mark.slow
def test_a_variants_rules_changed_offline_rescore_here_and_reach_the_server(
    server: str, context: BrowserContext, page: Page
) -> None:
    writes: list[Request] = []
    page.on("request", lambda r: writes.append(r) if r.method in ("POST", "PATCH") else None)
    for variant, players, changes in CASES:
        match = new_match(server, variant, players)
        # What the server makes of the same match with the same change: the device's oracle.
        twin = new_match(server, variant, players)
        expected = httpx.patch(f"{server}/api/matches/{twin['id']}/rules", json=changes).json()
        totals = [str(expected["sheet"]["totals"][side]) for side in expected["sheet"]["sides"]]
        assert (
            totals != [str(match["sheet"]["totals"][s]) for s in match["sheet"]["sides"]]
            or variant == "scopone"
        )

        open_and_keep(page, server, match["id"])
        go_offline(context)
        change_rules(page, changes)
        bar = page.locator("#offline-bar")
        expect(bar).to_contain_text("1 change waits", timeout=SLOW)
        expect(page.locator("table.scores tfoot td")).to_have_text(totals, timeout=SLOW)
        expect(page.locator("#sheet .rules-line")).to_contain_text("(changed on this device)")
        expect(page.locator("#conflicts")).to_be_hidden()

        # Another device records a deal meanwhile: the settings changed here do not clash
        # with it, so they go through, merged, in one request.
        other = httpx.post(
            f"{server}/api/matches/{match['id']}/deals", json=deal_for(match["sheet"]["sides"])
        )
        assert other.status_code == 201, other.text
        back_online(context, page)
        expect(bar).to_be_hidden(timeout=SLOW)
        stored = server_match(server, match["id"])
        for name, value in changes.items():
            assert stored["match"]["rules"][name] == value, (variant, name)
        assert len(stored["match"]["deals"]) == 2  # the other device's deal is kept
        assert stored["version"] == 4, variant  # created, a deal, the other's deal, the rules
        routes = (f"/matches/{match['id']}/settings", f"/api/matches/{match['id']}/rules")
        sent = [r for r in writes if r.url.endswith(routes)]
        assert len(sent) == 1, (variant, [r.url for r in sent])
