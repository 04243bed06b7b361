"""Helpers of the tables' tests: an app on a store with a clock the test moves, the seats'
calls, and the check of every byte a seat is sent against the cards it may not know."""

from __future__ import annotations

import functools
import re
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from scopa import i18n, words
from scopa.application.tables import Tables
from scopa.cards import CardSet
from scopa.web.tables.routes import background_tables

FULL_DECK = (1 << 40) - 1
CARD_CODE = re.compile(r"(?<![A-Za-z0-9])([A2-7JHK][dcsb])(?![A-Za-z0-9])")
CARD_NAME = re.compile(r"\b(ace|jack|horse|king|[2-7]) of (coins|cups|swords|clubs)\b")
RANK_CODES = {"ace": "A", "jack": "J", "horse": "H", "king": "K"}
SUIT_CODES = {"coins": "d", "cups": "c", "swords": "s", "clubs": "b"}


class Clock:
    """A clock the test moves by hand (seconds since the epoch)."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def table_app(app: FastAPI, clock: Clock) -> FastAPI:
    """The app with the test's clock, the computer played only when the test says."""
    app.state.table_clock = clock
    app.state.table_pause = 0.0
    app.state.tables.run_computer = False
    return app


def computer(app: FastAPI) -> int:
    """The computer plays once at every table where it is to play."""
    tables: Tables = background_tables(app)()
    return tables.run_due()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json={"players": 2, **body})
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def join(client: TestClient, table: dict[str, Any], name: str) -> dict[str, Any]:
    response = client.post(
        f"/api/tables/{table['table']}/seats", json={"code": table["code"], "name": name}
    )
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def view(client: TestClient, table_id: int, token: str) -> dict[str, Any]:
    response = client.get(f"/api/tables/{table_id}", headers=bearer(token))
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def first_play(seen: dict[str, Any], pick: int = 0) -> dict[str, Any]:
    options = [(o["card"], c) for o in seen["legal"] for c in o["captures"]]
    card, capture = options[pick % len(options)]
    return {"step": seen["step"], "card": card, "capture": capture}


def cards_named(text: str) -> set[str]:
    """Every card a text names: as a code (``7d``) or aloud (``7 of coins``)."""
    found = set(CARD_CODE.findall(text))
    for rank, suit in CARD_NAME.findall(text):
        found.add(RANK_CODES.get(rank, rank) + SUIT_CODES[suit])
    return found


SPOKEN = re.compile(r"(?<![\w])([\wÀ-ÿ]+) (of|di|de) ([\wÀ-ÿ]+)(?![\w])")
"""A card named aloud: three words, "7 of coins", "re di bastoni", "sota de copas"."""


@functools.cache
def spoken() -> dict[str, str]:
    """Every card's name aloud, in every language the pages speak and in both displays of
    the cards (Italian suits, French suits: ``7 of diamonds``, ``donna di cuori``), and the
    card it is."""
    named: dict[str, str] = {}
    for card in CardSet(FULL_DECK).to_list():
        for lang in i18n.LANGUAGES:
            with i18n.using(lang):
                for deck in words.DECKS:
                    named[words.card_name(card, deck).lower()] = card
    assert all(len(name.split()) == 3 for name in named)
    return named


def leaked(text: str, hidden: set[str]) -> set[str]:
    """The hidden cards a text (JSON, an event or HTML) names: by code, or aloud in English,
    Italian or Spanish, in either display of the cards."""
    named = spoken()
    aloud = {named.get(" ".join(parts).lower(), "") for parts in SPOKEN.findall(text)}
    return (cards_named(text) | aloud) & hidden
