"""The points of a deal against the computer, on the Play page in Chromium, come under the
variant's own categories in the page's language: an Escoba deal's "Setenta" and "Escobas" on
a Spanish phone, a Cirulla deal's on an Italian one, never Scopa's fixed list."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, expect

from tests.browser.test_sheet import PHONE

pytestmark = pytest.mark.browser

WORDS = {
    "it": {
        "cards": "Carte", "coins": "Denari", "settebello": "Settebello", "primiera": "Primiera",
        "sweeps": "Scope", "declarations": "Accusi", "piccola": "Piccola", "grande": "Grande",
        "total": "Questa mano",
    },
    "es": {
        "cards": "Cartas", "coins": "Oros", "settebello": "Siete de oros",
        "primiera": "Setenta", "sweeps": "Escobas", "total": "Esta mano",
    },
}  # fmt: skip


def played_deal(server: str, variant: str) -> tuple[int, dict[str, Any]]:
    """A game against the computer whose first deal is over (played through HTTP)."""
    with httpx.Client(base_url=server) as client:
        form = {"variant": variant, "players": "2", "level": "easy", "seed": "11"}
        started = client.post("/play", data=form)
        assert started.status_code == 303, started.text
        game = int(started.headers["location"].rsplit("/", 1)[1])
        data: dict[str, Any] = client.get(f"/play/{game}/state").json()
        while not data["deal_over"]:
            if data["your_turn"]:
                play = data["legal"][-1]
                body = {"step": data["step"], "card": play["card"], "capture": play["capture"]}
                data = client.post(f"/play/{game}/play", json=body).json()
            else:
                data = client.post(f"/play/{game}/computer", json={"step": data["step"]}).json()
    return game, data


@pytest.mark.parametrize(
    ("variant", "locale", "language"), [("escoba", "es-ES", "es"), ("cirulla", "it-IT", "it")]
)
def test_the_deal_s_points_under_the_variant_s_own_categories(
    server: str, browser: Browser, variant: str, locale: str, language: str
) -> None:
    game, end = played_deal(server, variant)
    keys = end["score"]["keys"]
    assert "napola" not in keys
    context = browser.new_context(viewport=PHONE, locale=locale)
    try:
        page = context.new_page()
        page.goto(f"{server}/play/{game}")
        points = page.locator("#play-end table.play-points")
        expect(points).to_be_visible(timeout=30_000)
        heads = points.locator("tbody th[scope=row]")
        expect(heads).to_have_text([WORDS[language][k] for k in keys] + [heads.last.inner_text()])
        if variant == "escoba":
            expect(points).not_to_contain_text("Primiera")
            expect(points).not_to_contain_text("Scope")
    finally:
        context.close()
