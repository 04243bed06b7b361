"""The tables' hot path (issue 47): a person's play answered by a route of its own, without
FastAPI's dependency solving, with the documented route's answers; a table's event stream
not wrapped by the compression, its events sent once made, in bytes, straight to the server
past the middlewares (which still add their headers to its head). On both databases."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
import sqlalchemy
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.middleware import Middleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from scopa.store import MatchStore
from scopa.store import tables as tables_store
from scopa.web import create_app
from scopa.web.tables import routes
from tests.web.tables_helpers import Clock, bearer, first_play, table_app

IDS = ("table", "match", "code", "join", "token")
"""What differs between two tables dealt alike: their ids, codes and tokens."""


def made_alike(store: MatchStore, fast: bool) -> FastAPI:
    """An app whose tables are all dealt from one seed, with or without the fast moves."""
    app = table_app(create_app(store), Clock())
    app.state.table_seeds = lambda: 7
    if not fast:
        app.router.routes[:] = [r for r in app.router.routes if r not in routes.MOVES]
    return app


def without_ids(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: without_ids(v) for k, v in data.items() if k not in IDS}
    if isinstance(data, list):
        return [without_ids(v) for v in data]
    return data


def test_the_fast_moves_answer_as_the_documented_routes(
    store: MatchStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same requests, good and bad, get the same answers (status, type, body, the kept
    answer of a key) from the fast routes as from the documented ones."""
    taken: list[int] = []
    documented_read = routes.body_as_documented

    async def counted(request: Any) -> Any:
        taken.append(1)
        return await documented_read(request)

    monkeypatch.setattr(routes, "body_as_documented", counted)
    answers: list[list[Any]] = []
    for fast in (True, False):
        taken.clear()
        with TestClient(made_alike(store, fast), raise_server_exceptions=False) as client:
            made = client.post("/api/tables", json={"players": 2, "names": ["Anna"]}).json()
            joined = client.post(
                f"/api/tables/{made['table']}/seats", json={"code": made["code"], "name": "Bo"}
            ).json()
            tokens = {0: made["token"], 1: joined["token"]}
            seen = client.get(f"/api/tables/{made['table']}", headers=bearer(tokens[0])).json()
            mover, other = bearer(tokens[seen["turn"]]), bearer(tokens[1 - seen["turn"]])
            good = first_play(seen)
            url = f"/api/tables/{made['table']}"
            plays, step = f"{url}/plays", seen["step"]
            text_json = {"Content-Type": "text/plain"}
            key = f"play-{made['table']}"  # the keys are the store's: one for each app
            cases: list[tuple[str, str, Any, dict[str, str]]] = [
                ("POST", plays, b'{"step": ', mover),
                ("POST", plays, b'{"step": 0, "step": 0}', mover),
                ("POST", plays, b"", mover),
                ("POST", plays, json.dumps(good).encode(), {**mover, **text_json}),
                ("POST", plays, b"\xff\xfe\x00", mover),
                ("POST", plays, {**good, "card": "Zz"}, {**mover, "Accept-Language": "it"}),
                ("POST", plays, good, {}),
                ("POST", plays, good, other),
                ("POST", f"{url}/next", {"step": step}, mover),
                ("POST", plays, good, {**mover, "Idempotency-Key": key}),
                ("POST", plays, good, {**mover, "Idempotency-Key": key}),
                ("POST", plays, good, mover),
                ("POST", "/api/tables/999999/plays", good, mover),
                ("POST", "/api/tables/0/plays", good, mover),
                ("POST", f"/api/tables/{2**31}/next", good, mover),
                ("POST", "/api/tables/abc/plays", good, mover),
                ("POST", f"/api/tables/{'1' * 5000}/plays", good, mover),  # int() refuses it
                ("POST", "/api/tables/%C2%B2/next", good, mover),  # "²".isdigit()
                ("POST", "/api/tables/1.0/plays", good, mover),
                ("GET", plays, None, mover),
            ]
            seen_answers: list[Any] = []
            for method, path, body, headers in cases:
                if isinstance(body, bytes | None):
                    content = body
                    headers = {"Content-Type": "application/json", **headers}
                else:
                    content = json.dumps(body).encode()
                    headers = {"Content-Type": "application/json", **headers}
                answer = client.request(method, path, content=content, headers=headers)
                kept = ("content-type", "cache-control", "idempotent-replayed", "allow")
                try:
                    data = without_ids(answer.json())
                except ValueError:
                    data = answer.text
                heard = [answer.headers.get(h) for h in kept]
                seen_answers.append(
                    [method, path.removeprefix(f"{url}/"), answer.status_code, data, heard]
                )
            answers.append(seen_answers)
            assert bool(taken) is fast, "the fast route was not taken"
    fast_answers, documented = answers
    statuses = [422, 422, 422, 422, 422, 422, 401, 409, 422, 200, 200, 409, 404, 422, 422, 422]
    assert [a[2] for a in documented] == [*statuses, 422, 422, 422, 405]
    assert documented[10][4][2] == "true"  # the key's answer, kept
    for one, other in zip(fast_answers, documented, strict=True):
        assert one == other


class Counting:
    """The innermost middleware: keeps what an event stream sends through it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.seen: list[tuple[str, bytes]] = []
        COUNTERS.append(self)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def counted(message: Message) -> None:
            self.seen.append((message["type"], bytes(message.get("body", b""))))
            await send(message)

        stream = str(scope.get("path", "")).endswith("/events")
        await self.app(scope, receive, counted if stream else send)


COUNTERS: list[Counting] = []


def test_a_tables_stream_sends_its_events_straight_past_the_middlewares(
    store: MatchStore,
) -> None:
    """The stream's head goes through every middleware (the security headers, the
    language's ``Vary``, never a compression's), its events, the frames made once, go to
    the server's ``send`` as they are (before: through every middleware's wrapper, each
    event)."""
    COUNTERS.clear()
    app = made_alike(store, True)
    app.user_middleware.append(Middleware(Counting))

    async def run() -> tuple[list[Message], list[tuple[str, bytes]]]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
            created = await http.post("/api/tables", json={"players": 2, "names": ["A"]})
            assert created.status_code == 201, created.text
            made = created.json()
            code, table = made["code"], made["table"]
            joined = await http.post(f"/api/tables/{table}/seats", json={"code": code})
            tokens = {0: made["token"], 1: joined.json()["token"]}
            seen = (await http.get(f"/api/tables/{table}", headers=bearer(tokens[0]))).json()
            sent: list[Message] = []
            gone = asyncio.Event()
            event_came = asyncio.Event()

            async def send(message: Message) -> None:
                sent.append(message)
                if b"event: table" in message.get("body", b""):
                    event_came.set()

            asked = False

            async def receive() -> Message:
                nonlocal asked
                if not asked:
                    asked = True
                    return {"type": "http.request", "body": b"", "more_body": False}
                await gone.wait()
                return {"type": "http.disconnect"}

            headers = [
                (b"host", b"127.0.0.1"),
                (b"accept-encoding", b"gzip"),
                (b"authorization", f"Bearer {tokens[1]}".encode()),
            ]
            scope = {
                "type": "http",
                "asgi": {"version": "3.0", "spec_version": "2.3"},
                "http_version": "1.1",
                "method": "GET",
                "scheme": "http",
                "path": f"/api/tables/{table}/events",
                "raw_path": f"/api/tables/{table}/events".encode(),
                "query_string": b"",
                "headers": headers,
                "client": ("127.0.0.1", 5000),
                "server": ("127.0.0.1", 80),
            }
            streaming = asyncio.create_task(app(scope, receive, send))
            async with asyncio.timeout(30):  # a bound for a broken stream, not a latency
                await event_came.wait()  # the view at once
                event_came.clear()
                mover = bearer(tokens[seen["turn"]])
                played = await http.post(
                    f"/api/tables/{table}/plays", json=first_play(seen), headers=mover
                )
                assert played.status_code == 200
                await event_came.wait()  # the play's event
            gone.set()
            async with asyncio.timeout(30):
                await streaming
            await app.state.tables.close()
            (inner,) = COUNTERS
            return sent, inner.seen

    sent, inner = asyncio.run(run())
    head = dict(sent[0]["headers"])
    assert sent[0]["type"] == "http.response.start"
    assert head[b"content-type"].startswith(b"text/event-stream")
    assert head[b"x-content-type-options"] == b"nosniff"  # the guard's headers
    assert b"accept-language" in head[b"vary"].lower()  # the language's
    assert b"content-encoding" not in head
    frames = [m["body"] for m in sent[1:] if m["body"]]
    assert sum(b"event: table" in f for f in frames) == 2
    assert frames[0].startswith(b"retry: ")
    assert inner[0][0] == "http.response.start"  # the head went through every middleware
    assert not [body for _, body in inner if body]  # no event did


def test_a_tables_read_builds_no_statement(
    store: MatchStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every play reads its table: the read's statements are built once, not each time
    (building one cost as much as running it); each store still sees only its own tables."""
    with TestClient(made_alike(store, True)) as client:
        made = client.post("/api/tables", json={"players": 2, "names": ["Anna"]}).json()
    built: list[Any] = []
    select = sqlalchemy.select

    def counted(*args: Any, **kwargs: Any) -> Any:
        built.append(args)
        return select(*args, **kwargs)

    monkeypatch.setattr(tables_store, "select", counted)
    plain, every = store.tables(None), store.tables(None, every_group=True)
    found = [plain.load(made["table"]), every.load(made["table"])]
    assert [r.code if r else None for r in found] == [made["code"]] * 2
    assert found[0] is not None
    assert found[0].seats[0].name == "Anna"
    assert store.tables(12345).load(made["table"]) is None  # another group's: not found
    assert plain.load(made["table"] + 1) is None
    assert built == []


@pytest.mark.parametrize("fast", [True, False])
def test_a_body_that_is_not_json_is_told_once_what_and_where(store: MatchStore, fast: bool) -> None:
    """The 422 for a body that is not JSON says the core's sentence once (before, the fast
    and the documented routes both said "not valid JSON: not valid JSON: …"), in the
    reader's language, with the line and column; a key given twice is named."""
    with TestClient(made_alike(store, fast), raise_server_exceptions=False) as client:
        made = client.post("/api/tables", json={"players": 2, "names": ["Anna"]}).json()
        plays = f"/api/tables/{made['table']}/plays"
        head = {**bearer(made["token"]), "Content-Type": "application/json"}
        broken = client.post(plays, content=b'{"step": ', headers=head).json()
        assert broken["where"] == "body"
        assert broken["code"] == "request.json_invalid"
        assert broken["error"].count("not valid JSON") == 1
        assert "line 1 column 10" in broken["error"]
        twice = client.post(plays, content=b'{"step": 0, "step": 0}', headers=head).json()
        assert twice["error"] == "the key 'step' is given twice in one object"
        italian = client.post(
            plays, content=b'{"step": ', headers={**head, "Accept-Language": "it"}
        ).json()["error"]
        assert italian.startswith("JSON non valido")
        assert "JSON non valido: JSON" not in italian
