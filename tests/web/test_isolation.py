"""THE isolation walk (hosted mode): every route that names a match, called with a token of
another group, answers 404 exactly as for a match that does not exist, and changes nothing;
called without a token, 401 (the API) or the way to the join page (the pages).

The routes are read from the app itself (``app.routes``), so a route added later is walked
too, whatever its path parameters: the match id is the other group's match, the game id its
game against the computer, any other parameter one that exists in that match (deal 1, its
removed deal).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from scopa.store import MatchStore
from scopa.web import WebSettings, create_app
from tests.web.conftest import anna_deal, bruno_deal
from tests.web.hosted_helpers import Joined, join

PARAM = re.compile(r"{(\w+)(?::\w+)?}")
CHANGE = {"POST", "PUT", "PATCH", "DELETE"}


def all_routes(app: FastAPI) -> Iterator[tuple[str, str]]:
    """Every (method, path template) the app serves (HEAD left out: it is GET's)."""

    def walk(routes: list[Any]) -> Iterator[tuple[str, str]]:
        for route in routes:
            if hasattr(route, "effective_route_contexts"):  # an included router
                for context in route.effective_route_contexts():
                    for method in sorted(context.original_route.methods or ()):
                        yield method, context.path
            elif hasattr(route, "methods") and route.methods:
                for method in sorted(route.methods):
                    yield method, route.path
            elif hasattr(route, "routes") and not hasattr(route, "app"):
                yield from walk(route.routes)

    for method, path in walk(list(app.routes)):
        if method != "HEAD":
            yield method, path


def body_for(method: str, path: str) -> dict[str, Any]:
    """A body the route would accept for a match of the owner's (so that a 404 is not a
    422 in disguise): a deal, a settings change, a form with the match's version."""
    if method not in CHANGE:
        return {}
    if path.startswith("/play/") and path.endswith("/sync"):  # a device's plays, offline
        return {"json": {"log": [[]]}}
    if path.startswith("/play/"):  # a move in a game against the computer
        return {"json": {"step": 0, "card": "7d", "capture": []}}
    if path.startswith("/api/players/"):  # a new name, the player it is the same as
        return {"json": {"name": "Rosa B.", "into": "Remo"}}
    if path.startswith("/players/"):
        return {"data": {"name": "Rosa B.", "into": "Remo"}}
    if path.startswith("/api/"):
        if "/deals" in path and method in ("POST", "PUT"):
            return {"json": anna_deal()}
        if path.endswith("/rules"):
            return {"json": {"target": 21}}
        return {"json": {"version": 1}} if method != "DELETE" else {}
    form = {
        "version": "1",
        "target": "21",
        "napola": "off",
        "ties": "withhold",
        "name": "taken",
        "confirm": "1",
    }
    return {"data": form}


@pytest.fixture
def hosted(store: MatchStore) -> Iterator[TestClient]:
    with TestClient(create_app(store, WebSettings(hosted=True)), follow_redirects=False) as client:
        yield client


@pytest.fixture
def empty(tmp_path: Path) -> Iterator[tuple[TestClient, Joined]]:
    """A second hosted server on an empty database: what a match that does not exist
    looks like."""
    other = MatchStore.open(f"sqlite:///{tmp_path / 'empty.db'}")
    with TestClient(create_app(other, WebSettings(hosted=True)), follow_redirects=False) as client:
        yield client, join(client, other, "Nobody")
    other.close()


def owner_state(client: TestClient, owner: Joined, match_id: int) -> Any:
    """Everything the owner can read of its match and list."""
    return (
        client.get(f"/api/matches/{match_id}", headers=owner.auth).json(),
        client.get(f"/api/matches/{match_id}/history", headers=owner.auth).json(),
        client.get("/api/matches", headers=owner.auth).json(),
        client.get("/api/players", headers=owner.auth).json(),
    )


def test_every_route_naming_a_match_of_another_group_is_404(
    hosted: TestClient, store: MatchStore, empty: tuple[TestClient, Joined]
) -> None:
    rossi, bianchi = join(hosted, store, "Rossi"), join(hosted, store, "Bianchi")
    made = hosted.post("/api/matches", json={"players": ["Rosa", "Remo"]}, headers=rossi.auth)
    match_id = made.json()["id"]
    deals = f"/api/matches/{match_id}/deals"
    rosa_deal = {
        **anna_deal(),
        "piles": {"Rosa": anna_deal()["piles"]["Anna"], "Remo": anna_deal()["piles"]["Bruno"]},
        "sweeps": {"Rosa": 1, "Remo": 2},
        "last_capture": "Remo",
    }
    for _ in range(3):
        assert hosted.post(deals, json=rosa_deal, headers=rossi.auth).status_code == 201
    removed = hosted.delete(f"{deals}/3", headers=rossi.auth)
    assert removed.status_code == 200
    removed_id = removed.json()["removed"][0]["id"]
    started = hosted.post("/play", data={"level": "easy", "seed": "7"}, headers=rossi.auth)
    assert started.status_code == 303, started.text
    game_id = started.headers["location"].rsplit("/", 1)[1]
    renamed = hosted.post("/api/players/Remo/rename", json={"name": "Remo R."}, headers=rossi.auth)
    assert renamed.status_code == 200, renamed.text
    change = hosted.get("/api/player-changes", headers=rossi.auth).json()[0]["id"]
    values = {
        "match_id": str(match_id),
        "number": "1",
        "removed_id": str(removed_id),
        "game_id": game_id,
        "name": "Rosa",
        "change": str(change),
    }
    game_before = hosted.get(f"/play/{game_id}/state", headers=rossi.auth).json()
    before = owner_state(hosted, rossi, match_id)
    groups_before = [store.groups.group(g) for g in (rossi.group, bianchi.group)]

    nobody_client, nobody = empty
    walked = []
    for method, template in all_routes(hosted.app):  # type: ignore[arg-type]
        names = PARAM.findall(template)
        if not {"match_id", "game_id", "name", "change"} & set(names):
            continue
        path = PARAM.sub(lambda m: values.get(m.group(1), "1"), template)
        variants = [(path, {}), (path, {"HX-Request": "true"})]  # a page, the piece htmx swaps
        if method == "GET":
            variants.append((f"{path}?format=json", {}))  # the page's JSON twin
        for url, more in variants:
            extra = body_for(method, template)
            answer = hosted.request(method, url, headers={**bianchi.auth, **more}, **extra)
            assert answer.status_code == 404, (method, url, answer.status_code, answer.text[:200])
            missing = nobody_client.request(method, url, headers={**nobody.auth, **more}, **extra)
            assert missing.status_code == 404, (method, url)
            assert answer.content == missing.content, (method, url)
            assert answer.headers["content-type"] == missing.headers["content-type"]

            bare = hosted.request(method, url, headers=more, **extra)
            if template.startswith("/api/"):
                assert bare.status_code == 401, (method, url)
            elif method == "GET":
                assert bare.status_code == 303, (method, url)
                assert bare.headers["location"].startswith("/join")
            else:
                assert bare.status_code == 401, (method, url)
            walked.append((method, template))

    assert ("GET", "/api/matches/{match_id}") in walked
    assert ("POST", "/matches/{match_id}/rematch") in walked
    assert ("GET", "/matches/{match_id}/tv") in walked  # the board for a television
    assert ("GET", "/matches/{match_id}/share.svg") in walked  # the shared picture
    assert ("POST", "/play/{game_id}/play") in walked
    assert ("POST", "/api/players/{name}/merge") in walked
    assert ("POST", "/players/changes/{change}/undo") in walked
    assert hosted.get(f"/play/{game_id}/state", headers=rossi.auth).json() == game_before
    assert f"/play/{game_id}" not in hosted.get("/play", headers=bianchi.auth).text
    assert len({t for _, t in walked}) >= 15
    assert owner_state(hosted, rossi, match_id) == before
    assert hosted.get("/api/matches", headers=bianchi.auth).json() == []
    assert hosted.get("/api/players", headers=bianchi.auth).json() == []
    assert [store.groups.group(g) for g in (rossi.group, bianchi.group)] == groups_before


def test_lists_and_exports_show_only_the_groups_own(hosted: TestClient, store: MatchStore) -> None:
    rossi, bianchi = join(hosted, store, "Rossi"), join(hosted, store, "Bianchi")
    mine = hosted.post("/api/matches", json={"players": ["Anna", "Bruno"]}, headers=rossi.auth)
    hosted.post(f"/api/matches/{mine.json()['id']}/deals", json=bruno_deal(), headers=rossi.auth)
    for path in ["/api/matches", "/?format=json", "/api/players", "/matches/new?format=json"]:
        seen = hosted.get(path, headers=bianchi.auth)
        assert seen.status_code == 200, path
        assert "Anna" not in seen.text, path
        assert "Anna" in hosted.get(path, headers=rossi.auth).text, path
    home = hosted.get("/", headers=bianchi.auth)
    assert f"/matches/{mine.json()['id']}" not in home.text
