"""Hidden information at a table: a seat is never sent a card of another seat's hand or the
order of the stock, in any answer, page, fragment or event.

- Random games are played through HTTP; at every step every byte each seat receives (its API
  answer, its page, its fragment, the television's page) is searched for the cards it may not
  know, by code (``7d``) and by name (``7 of coins``). Many more random games check the view
  and the fragment made from it without HTTP.
- A property: dealing again, at random, what a seat cannot see (the other hands' hidden cards
  and the stock, each hand keeping its size) and changing the seed never changes one byte of
  what the seat is sent.

The number of checks made is printed (``-s``) and asserted to be large.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from jinja2 import Environment, FileSystemLoader

from scopa import i18n, words
from scopa.application.tables import TableGame, hidden_cards, reshuffled, seat_view
from scopa.engine.state import legal_plays
from scopa.store import MatchStore
from scopa.store.records import SeatRecord, TableRecord
from scopa.store.tables import SqlTables
from scopa.web import create_app, language
from scopa.web.deps import TEMPLATES_DIR
from scopa.web.tables.hub import event_text
from tests.examples import examples
from tests.web.tables_helpers import Clock, bearer, create, leaked, table_app

GAMES = [("scopa", 2), ("scopa", 3), ("scopone", 4), ("escoba", 2), ("cirulla", 2), ("assi", 2)]
ALL_GAMES = [*GAMES, ("scopa", 4), ("escoba", 4), ("cirulla", 3), ("cirulla", 4)]


def templates() -> Environment:
    """The pages' templates, as the app loads them (HTML escaped)."""
    env = Environment(loader=FileSystemLoader(str(TEMPLATES_DIR)), autoescape=True)
    language.install(env)
    return env


def record_for(variant: str, players: int, seed: int) -> TableRecord:
    seats = tuple(SeatRecord(k, f"Seat{k}", "human", None, 0.0) for k in range(players))
    return TableRecord(
        id=1,
        code="ABCDEFGH",
        variant=variant,
        players=players,
        rules={},
        level="easy",
        grace=60,
        seed=seed,
        log=[[]],
        step=0,
        version=1,
        status="playing",
        match_id=None,
        moved_at=0.0,
        seats=seats,
    )


def sent(
    env: Environment, record: TableRecord, game: TableGame, seat: int | None, pages: bool = True
) -> list[str]:
    """Every text the seat is sent from this state: the view (the API's answer), its event,
    and (``pages``) the table's fragment, the page's body, drawn from it in both displays of
    the cards (Italian suits, and French suits for a French deck's table)."""
    view = seat_view(record, game, seat, 0.0)
    texts = [json.dumps(view), event_text(view)]
    if pages:
        felt = env.get_template("_table_felt.html")
        for deck in words.DECKS:
            with words.using_deck(deck):
                texts.append(felt.render(view=view, notice="", tv=seat is None))
    return texts


def check_all(env: Environment, record: TableRecord, game: TableGame, pages: bool) -> int:
    checks = 0
    for seat in [*range(record.players), None]:
        hidden = set(hidden_cards(game, seat).to_list())
        for text in sent(env, record, game, seat, pages):
            assert not leaked(text, hidden), (seat, leaked(text, hidden))
            checks += 1
    return checks


def random_game(variant: str, players: int, seed: int, plays: int) -> tuple[TableRecord, TableGame]:
    record = record_for(variant, players, seed)
    game = TableGame(record)
    rng = random.Random(seed)
    for _ in range(plays):
        if game.state.finished:
            break
        game.make(rng.choice(legal_plays(game.state)), "seat")
    return record, game


def test_random_games_leak_no_hidden_card_in_any_view_event_or_fragment() -> None:
    env = templates()
    checks = 0
    for n in range(40):
        variant, players = ALL_GAMES[n % len(ALL_GAMES)]
        record = record_for(variant, players, 1000 + n)
        game = TableGame(record)
        rng = random.Random(n)
        pages = n % 10 == 0  # drawing the fragment is the slow part: a tenth of the games
        checks += check_all(env, record, game, pages)
        while not game.state.finished:
            game.make(rng.choice(legal_plays(game.state)), rng.choice(["seat", "computer"]))
            checks += check_all(env, record, game, pages)
    print(f"\nleak checks (views, events, fragments): {checks}")
    assert checks > 10_000


@pytest.mark.parametrize(("variant", "players"), [("scopone", 4), ("cirulla", 3)])
def test_every_byte_each_seat_receives_over_http_hides_the_others_cards(
    sqlite_url: str, variant: str, players: int
) -> None:
    """A whole deal through HTTP: at every step, each seat's API answer, page and fragment,
    and the television's page."""
    clock = Clock()
    store = MatchStore.open(sqlite_url)
    app = table_app(create_app(store), clock)
    checks = 0
    with TestClient(app) as client:
        table = create(client, variant=variant, players=players, names=["Seat0"])
        tokens = {0: table["token"]}
        for seat in range(1, players):
            answer = client.post(
                f"/api/tables/{table['table']}/seats",
                json={"code": table["code"], "name": f"Seat{seat}"},
            )
            tokens[seat] = answer.json()["token"]
        path = f"/api/tables/{table['table']}"
        rng = random.Random(players)
        tables = SqlTables(store.db)
        while True:
            record = tables.load(table["table"])
            assert record is not None
            truth = TableGame(record)
            views: dict[int, Any] = {}
            for seat, token in tokens.items():
                hidden = set(hidden_cards(truth, seat).to_list())
                answer = client.get(path, headers=bearer(token))
                client.cookies.clear()
                client.cookies.set(f"scopa_seat_{table['table']}", token)
                page = client.get(f"/tables/{table['table']}")
                fragment = client.get(f"/tables/{table['table']}/fragment")
                for text in (answer.text, page.text, fragment.text):
                    assert not leaked(text, hidden), (seat, leaked(text, hidden))
                    checks += 1
                views[seat] = answer.json()
            tv = client.get(f"/tables/{table['table']}/tv", params={"code": table["code"]})
            assert tv.status_code == 200
            assert not leaked(tv.text, set(hidden_cards(truth, None).to_list()))
            checks += 1
            if truth.state.finished:
                break
            mine = views[truth.state.turn]
            options = [(o["card"], c) for o in mine["legal"] for c in o["captures"]]
            card, capture = rng.choice(options)
            body = {"step": mine["step"], "card": card, "capture": capture}
            played = client.post(f"{path}/plays", json=body, headers=bearer(tokens[mine["you"]]))
            assert played.status_code == 200, played.text
            stored = tables.load(table["table"])
            assert stored is not None
            hidden = set(hidden_cards(TableGame(stored), mine["you"]).to_list())
            assert not leaked(played.text, hidden)
            checks += 1
    store.close()
    print(f"\n{variant} {players}: {checks} HTTP answers checked")
    assert checks > 100


@settings(max_examples=examples(150), deadline=None)
@given(
    game=st.sampled_from(ALL_GAMES),
    seed=st.integers(0, 2**40),
    plays=st.integers(0, 40),
    seat=st.integers(0, 3),
    shuffle=st.integers(0, 2**32),
    other_seed=st.integers(0, 2**40),
)
def test_reshuffling_what_a_seat_cannot_see_never_changes_what_it_is_sent(
    game: tuple[str, int], seed: int, plays: int, seat: int, shuffle: int, other_seed: int
) -> None:
    variant, players = game
    env = ENV
    record, played = random_game(variant, players, seed, plays)
    for who, lang in ((seat % players, "en"), (None, "it"), (seat % players, "es")):
        with i18n.using(lang):
            before = sent(env, record, played, who)
        hidden = set(hidden_cards(played, who).to_list())
        assert not any(leaked(text, hidden) for text in before)
        other = TableGame.__new__(TableGame)
        other.__dict__.update(played.__dict__)
        other.state = reshuffled(played.state, who, random.Random(shuffle))
        assert other.state.cards_in_play() == 40
        with i18n.using(lang):
            after = sent(env, replace(record, seed=other_seed), other, who)
        assert before == after


ENV = templates()
