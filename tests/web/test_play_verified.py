"""Issue 25, finding 3: a game against the computer played on a device is checked before it
counts. The server issues the seed before the game (``POST /play/seeds``), a game sent with
its ticket must be dealt from that seed, and the computer's plays are played again where
the computer's choice is the same every time (``easy``); a game the server cannot vouch for
is kept, marked unverified, and kept out of the players' figures, ratings and records."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from scopa.engine.game import Game
from scopa.engine.state import Play
from scopa.store import MatchStore
from scopa.store.games import OPEN_SEEDS, SqlSeeds
from tests.web.test_play import advance, start, state
from tests.web.test_play_device import device, device_deal, device_step


def forged(level: str, seed: int) -> dict[str, Any]:
    """A whole match "won" against the computer: you take all you can, and the computer's
    plays are chosen by the forger (its smallest trail, or its smallest capture), not by it."""
    game = Game("scopa", 2, level, seed)
    while True:
        if game.deal_over:
            if len(game.match.deals) < len(game.log):
                game.finish_deal()
            if game.over:
                break
            game.next_deal()
            continue
        plays = game.options_all() if game.your_turn else _computer_options(game)
        if game.your_turn:
            best = max(plays, key=lambda p: (len(p.capture), p.capture.mask, -p.card.index))
            game.play(best)
        else:
            worst = min(plays, key=lambda p: (len(p.capture), p.card.index))
            game._make(worst)
    return {
        "variant": "scopa",
        "players": 2,
        "level": level,
        "seed": str(seed),
        "log": game.log,
        "won": game.sheet.winner == "You",
    }


def forged_win(level: str) -> dict[str, Any]:
    """A forged game whose seed the forger chose so that "You" win the match."""
    for seed in range(1, 60):
        body = forged(level, seed)
        if body.pop("won"):
            return body
    raise AssertionError("no forged win among the seeds tried")


def _computer_options(game: Game) -> tuple[Play, ...]:
    from scopa.engine.state import legal_plays

    return legal_plays(game.state)


def figures(client: TestClient, name: str = "You") -> dict[str, Any]:
    found = [f for f in client.get("/api/players").json() if f["name"] == name]
    return found[0] if found else {"name": name, "matches": 0, "won": 0, "deals": 0}


def issue(client: TestClient) -> dict[str, Any]:
    issued = client.post("/play/seeds")
    assert issued.status_code == 200, issued.text
    body: dict[str, Any] = issued.json()
    assert isinstance(body["ticket"], int)
    assert body["seed"].isdigit()
    return body


def test_a_forged_win_against_the_computer_is_kept_but_never_counts(client: TestClient) -> None:
    before = figures(client)
    # A seed the client chose, computer plays the computer never chose: strong, then easy.
    for level in ("strong", "easy"):
        body = forged_win(level)
        sent = client.post("/play/games", json=body)
        assert sent.status_code == 200, sent.text
        data = sent.json()
        assert data["unverified"] == "seed_not_issued"
        assert "did not issue" in data["unverified_text"]
        assert data["score"]["winner"] == "You"
        sheet = client.get(f"/matches/{data['match_id']}")
        assert sheet.status_code == 200
        assert 'id="uncounted"' in sheet.text
        twin = client.get(f"/matches/{data['match_id']}", params={"format": "json"}).json()
        assert twin["uncounted"] == "seed_not_issued"
    # With a seed the server issued: at strong the computer's plays cannot be replayed, at
    # easy they are, and they are not the computer's.
    for level, reason in (("strong", "not_replayable"), ("easy", "computer_plays")):
        issued = issue(client)
        body = forged(level, int(issued["seed"]))
        body.pop("won")
        sent = client.post("/play/games", json={**body, "ticket": issued["ticket"]})
        assert sent.status_code == 200, sent.text
        assert sent.json()["unverified"] == reason
        assert client.get(f"/play/{sent.json()['id']}/state").json()["unverified"] == reason
    after = figures(client)
    assert (after["matches"], after["won"], after["deals"]) == (
        before["matches"],
        before["won"],
        before["deals"],
    )
    assert all(r["name"] != "You" for r in client.get("/api/ratings").json())


def test_an_honest_offline_game_from_an_issued_seed_counts(client: TestClient) -> None:
    issued = issue(client)
    played = device_deal(seed=int(issued["seed"]))  # easy: the device's search, replayed here
    sent = client.post("/play/games", json={**played["game"], "ticket": issued["ticket"]})
    assert sent.status_code == 200, sent.text
    data = sent.json()
    assert data["unverified"] is None
    assert data["unverified_text"] is None
    you = figures(client)
    assert (you["matches"], you["deals"]) == (1, 1)
    assert 'id="uncounted"' not in client.get(f"/matches/{data['match_id']}").text
    # The ticket is used: sent again with another game, that one does not count.
    other = device_deal(seed=int(issued["seed"]))["game"]
    again = client.post("/play/games", json={**other, "ticket": issued["ticket"]})
    assert again.status_code == 200
    assert again.json()["unverified"] == "seed_unknown"
    assert figures(client)["matches"] == 1


def test_a_ticket_with_another_seed_is_refused_and_keeps_nothing(client: TestClient) -> None:
    issued = issue(client)
    playing = client.get("/play", params={"format": "json"}).json()["playing"]
    other_seed = (int(issued["seed"]) + 1) % 2**62
    game = device_deal(seed=other_seed)["game"]
    refused = client.post("/play/games", json={**game, "ticket": issued["ticket"]})
    assert refused.status_code == 422
    assert refused.json()["where"] == "seed"
    assert str(issued["ticket"]) in refused.json()["error"]
    for ticket in ("12", -1, 2**40, True, 1.5):
        bad = client.post("/play/games", json={**game, "ticket": ticket})
        assert bad.status_code == 422, ticket
        assert bad.json()["where"] == "ticket"
    assert client.get("/play", params={"format": "json"}).json()["playing"] == playing
    # Still issued: the game dealt from it counts.
    honest = device_deal(seed=int(issued["seed"]))["game"]
    sent = client.post("/play/games", json={**honest, "ticket": issued["ticket"]})
    assert sent.json()["unverified"] is None


def test_a_server_game_continued_on_the_device_is_checked_too(client: TestClient) -> None:
    """The plays a device sends for a server game (``/play/{id}/sync``): the computer's
    replayed at easy; forged ones make the game unverified and its match uncounted."""
    honest_id, forged_id = start(client, seed="31"), start(client, seed="32")
    for game_id in (honest_id, forged_id):
        table = state(client, game_id)
        for _ in range(2):
            table = advance(client, game_id, table)
    honest = device("state", game=state(client, honest_id)["replay"])
    while not honest["state"]["deal_over"]:
        honest = device_step(honest["game"], honest["state"])
    synced = client.post(f"/play/{honest_id}/sync", json={"log": honest["game"]["log"]})
    assert synced.status_code == 200, synced.text
    assert synced.json()["unverified"] is None
    assert figures(client)["deals"] == 1

    kept = state(client, forged_id)["replay"]
    game = Game.replay("scopa", 2, "easy", int(kept["seed"]), kept["log"])
    while not game.deal_over:
        options = game.options_all() if game.your_turn else _computer_options(game)
        game._make(min(options, key=lambda p: (len(p.capture), p.card.index)))
    sent = client.post(f"/play/{forged_id}/sync", json={"log": game.log})
    assert sent.status_code == 200, sent.text
    assert sent.json()["unverified"] == "computer_plays"
    assert figures(client)["deals"] == 1  # the forged deal is not counted
    match_id = sent.json()["match_id"]
    assert client.get(f"/matches/{match_id}", params={"format": "json"}).json()["uncounted"]


def test_a_group_keeps_only_its_last_open_seeds(store: MatchStore) -> None:
    """Issued seeds cost a group a fixed room: past OPEN_SEEDS the oldest go; a used seed
    is gone (another view of the same table finds it no more)."""
    mine, other = SqlSeeds(store.db, None), SqlSeeds(store.db, None)
    tickets = [mine.issue(seed) for seed in range(OPEN_SEEDS + 2)]
    assert mine.claim(tickets[0], 0) == "unknown"  # dropped: the oldest
    assert mine.claim(tickets[2], 3) == "other"
    assert mine.claim(tickets[2], 2) == "ok"
    assert other.claim(tickets[2], 2) == "unknown"  # used
    assert mine.claim(0, 0) == "unknown"
    assert mine.claim(2**70, 0) == "unknown"


def phone_game(level: str, seed: int, swap: int | None = None) -> list[list[tuple[int, int]]]:
    """A deal as the phone plays it at ``level``: each computer play chosen by a game dealt
    and played again (as the worker does), at the phone's budgets. ``swap``: the deal stops
    at the computer's ``swap``-th play (from 0), made as another legal play instead."""
    log: list[list[tuple[int, int]]] = [[]]
    computer = 0
    while True:
        game = Game("scopa", 2, level, seed, phone=True)
        for _, (card, capture) in game._replaying(log):
            game._make(Play.of(card, capture))
        if game.deal_over:
            return game.log
        if game.your_turn:
            game.play(game.options_all()[0])
        elif computer == swap:
            made = game.computers[game.state.turn].choose(game.state, _computer_options(game))
            game._make(next(p for p in _computer_options(game) if p != made))
            return game.log
        else:
            game.computer_plays()
            computer += 1
        log = game.log


def test_a_phone_game_that_says_it_thought_by_iterations_is_replayed(client: TestClient) -> None:
    before = figures(client)
    cases = (("iterations", None), ("iterations", 1), (None, None))
    for thinking, swap in cases:
        issued = issue(client)
        seed = int(issued["seed"])
        body = {"variant": "scopa", "players": 2, "level": "normal", "seed": issued["seed"]}
        body |= {"log": phone_game("normal", seed, swap), "ticket": issued["ticket"]}
        if thinking is not None:
            body["thinking"] = thinking
        sent = client.post("/play/games", json=body)
        assert sent.status_code == 200, sent.text
        expected = "not_replayable" if thinking is None else (swap and "computer_plays")
        assert sent.json()["unverified"] == expected, (thinking, swap)
    after = figures(client)
    assert (after["matches"], after["deals"]) == (before["matches"] + 1, before["deals"] + 1)
    bad = client.post("/play/games", json={**body, "thinking": "time"})
    assert bad.status_code == 422
    assert bad.json()["where"] == "thinking"
    assert "'time' is not how the computer thought" in bad.json()["error"]
    italian = client.post(
        "/play/games", json={**body, "thinking": 5}, headers={"Accept-Language": "it"}
    )
    assert italian.status_code == 422
    assert "5 non dice come ha pensato il computer" in italian.json()["error"]


def test_a_server_game_synced_from_the_phone_is_replayed_at_its_budgets(
    client: TestClient,
) -> None:
    for thinking, swap, expected in (
        ("iterations", None, None),
        ("iterations", 0, "computer_plays"),
        (None, None, "not_replayable"),
    ):
        game_id = start(client, level="normal", seed="7")
        assert state(client, game_id)["step"] == 0
        body: dict[str, Any] = {"log": phone_game("normal", 7, swap)}
        if thinking is not None:
            body["thinking"] = thinking
        synced = client.post(f"/play/{game_id}/sync", json=body)
        assert synced.status_code == 200, synced.text
        assert synced.json()["unverified"] == expected, (thinking, swap)
