"""Benchmark: the server's CPU per request on the write path, by match size (issue 24).

The app runs in this process (no sockets, no client library on the measured path): each
request is handed to the ASGI app as a server would hand it, and the CPU time of this
process (``time.process_time``, every thread) is read around it. That is the server's own
cost of the request: routing, middleware, the use case, SQL through the driver, rendering
and encoding. The database's own backend (PostgreSQL) is not in it.

For each database (SQLite WAL in a temporary file; PostgreSQL in a throwaway cluster,
``tests/pg.py``, unless ``--no-pg``) and each match size (1, 50, 200, 500 deals after the
change) it prints the median over ``--samples`` matches of:

- ``POST /api/matches/{id}/deals`` with ``If-Match`` and ``Idempotency-Key`` (each sample
  the mean of 5 deals recorded in a row on the match: deals N-4 to N, or 1 to 5), full answer
  (the contract's default), and with ``Prefer: return=minimal`` (the small answer the pages
  and the offline outbox ask for), with each answer's size;
- ``GET /matches/{id}`` (the sheet page) just after a change (the first viewer) and again
  (the next viewer), and the same page with every cache emptied (cold);
- ``GET /matches/{id}/sheet?since=V-1`` (the whole piece, which every open sheet fetched
  after each change before the live update patched rows in) and
  ``GET /matches/{id}/sheet/change?since=V-1`` (what the live update fetches now: the rows
  the change altered; the first viewer makes it, the next ones are served the same bytes),
  with their sizes;
- the floor: the same app answering a minimal route that inserts one row and commits.

Before each size's requests the collector is settled as a server process settles it
(``scopa.web.serve.server.settle_collector``): what is loaded is frozen, and the thresholds
are the server's, so a full collection through the matches just imported does not fall in
one request and not in another.

Ratios: recording at 500 deals over 1 deal, the page at 500 over 1, and recording over the
floor. Nothing is asserted: the figures are printed.

With ``--hosted`` the app is a hosted server's (``scopa serve --hosted``): one group, and
every request, the floor's included, carries its device token.

Run: ``.venv/bin/python bench/writepath.py [--samples 15] [--sizes 1,50,200,500] [--no-pg]
[--hosted]``.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from statistics import median
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import orjson  # noqa: E402
from sqlalchemy import Column, Integer, MetaData, Table, insert  # noqa: E402

from scopa.store import MatchStore  # noqa: E402
from scopa.web.serve.app import create_app  # noqa: E402
from scopa.web.serve.server import settle_collector  # noqa: E402
from scopa.web.serve.settings import WebSettings  # noqa: E402
from tests.pg import postgres_cluster  # noqa: E402
from tests.web.bodies import anna_deal, bruno_deal  # noqa: E402

SIZES = (1, 50, 200, 500)
IN_A_ROW = 5
"""Deals recorded one after another on each sample match; a sample is their mean."""


def match_of(deals: int) -> dict[str, Any]:
    return {
        "players": ["Anna", "Bruno"],
        "rules": {"target": 61},
        "deals": [anna_deal(n % 2, n % 3) if n % 2 else bruno_deal() for n in range(deals)],
    }


class Asgi:
    """Requests handed straight to an ASGI app, and the CPU time each took."""

    def __init__(self, app: Any, headers: dict[str, str] | None = None) -> None:
        self.app = app
        self.headers = headers or {}

    async def call(
        self,
        method: str,
        path: str,
        body: bytes = b"",
        headers: dict[str, str] | None = None,
        query: str = "",
    ) -> tuple[int, bytes, float]:
        raw = [(b"host", b"127.0.0.1"), (b"content-type", b"application/json")]
        headers = {**self.headers, **(headers or {})}
        raw += [(k.lower().encode(), v.encode()) for k, v in headers.items()]
        raw.append((b"content-length", str(len(body)).encode()))
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": method,
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": query.encode(),
            "root_path": "",
            "headers": raw,
            "client": ("127.0.0.1", 50000),
            "server": ("127.0.0.1", 8000),
            "state": {},
        }
        sent = False
        status = 0
        chunks: list[bytes] = []

        async def receive() -> dict[str, Any]:
            nonlocal sent
            if sent:
                await asyncio.sleep(3600)
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        async def send(message: dict[str, Any]) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        start = time.process_time()
        await self.app(scope, receive, send)
        spent = (time.process_time() - start) * 1000
        return status, b"".join(chunks), spent


def drop_caches(app: Any) -> None:
    """Every in-process cache of match states and rendered pieces, emptied."""
    store = app.state.store
    cache = getattr(store, "_cache", None)
    entries = getattr(cache, "_entries", None)
    if entries is not None:
        entries.clear()
    for name in ("charts", "pieces", "changes"):
        kept = getattr(app.state, name, None)
        if kept is not None and hasattr(kept, "clear"):
            kept.clear()


def floor_route(app: Any, store: MatchStore) -> None:
    """``POST /bench/floor``: insert one row and commit, on the store's engine."""
    table = Table("bench_floor", MetaData(), Column("id", Integer, primary_key=True))
    table.create(store.engine, checkfirst=True)

    def floor() -> dict[str, bool]:
        with store.engine.begin() as connection:
            connection.execute(insert(table))
        return {"ok": True}

    app.add_api_route("/bench/floor", floor, methods=["POST"])


async def measure(
    url: str, sizes: tuple[int, ...], samples: int, hosted: bool = False
) -> dict[str, dict[int, float]]:
    store = MatchStore.open(url)
    app = create_app(store, WebSettings(hosted=hosted))
    floor_route(app, store)
    asgi = Asgi(app)
    if hosted:  # one group; every request (the floor's too) with its device token
        _, code = store.groups.create_group("Bench")
        status, body, _ = await asgi.call("POST", "/api/join", orjson.dumps({"code": code}))
        assert status in (200, 201), body[:300]
        asgi.headers["Authorization"] = f"Bearer {orjson.loads(body)['token']}"
    figures: dict[str, dict[int, float]] = {}

    def note(name: str, size: int, value: float) -> None:
        figures.setdefault(name, {})[size] = value

    deal = orjson.dumps(anna_deal(1, 0))
    for _ in range(5):  # warm the app: imports, templates, the pool
        await asgi.call("POST", "/bench/floor")
    floors = [(await asgi.call("POST", "/bench/floor"))[2] for _ in range(samples * 2)]
    note("floor: insert one row and commit", 0, statistics.median(floors))
    for size in sizes:
        ids = []
        for _ in range(samples * 2 + 2):
            status, body, _ = await asgi.call(
                "POST", "/api/import", orjson.dumps(match_of(max(size - IN_A_ROW, 0)))
            )
            assert status == 201, body[:300]
            ids.append(orjson.loads(body)["id"])
        settle_collector()  # as a server's process runs (scopa serve settles it at start)
        for kind, extra in (("full", {}), ("small", {"Prefer": "return=minimal"})):
            spent, sizes_of = [], []
            chosen = ids[:samples] if kind == "full" else ids[samples : 2 * samples]
            for match_id in chosen:
                status, body, _ = await asgi.call("GET", f"/api/matches/{match_id}")
                version = orjson.loads(body)["version"]
                cpu_sum = 0.0
                for n in range(IN_A_ROW):  # one deal's CPU, less noisy than one request's
                    headers = {
                        "If-Match": f'"{version + n}"',
                        "Idempotency-Key": uuid.uuid4().hex,
                    }
                    status, body, cpu = await asgi.call(
                        "POST", f"/api/matches/{match_id}/deals", deal, {**headers, **extra}
                    )
                    assert status == 201, body[:300]
                    cpu_sum += cpu
                spent.append(cpu_sum / IN_A_ROW)
                sizes_of.append(len(body))
            note(f"POST deals, {kind} answer (ms)", size, statistics.median(spent))
            note(f"POST deals, {kind} answer (KB)", size, statistics.median(sizes_of) / 1024)
        first: list[float] = []
        again: list[float] = []
        piece: list[float] = []
        cold: list[float] = []
        made: list[float] = []
        shared: list[float] = []
        piece_next: list[float] = []
        piece_kb: list[float] = []
        change_kb: list[float] = []
        for match_id in ids[: samples * 2]:
            status, body, _ = await asgi.call("GET", f"/api/matches/{match_id}")
            version = orjson.loads(body)["version"]
            since = f"since={version - 1}"
            for kept in (made, shared):  # the first viewer makes it, the next gets it
                status, body, cpu = await asgi.call(
                    "GET", f"/matches/{match_id}/sheet/change", query=since
                )
                assert status == 200
                assert b"data-whole" not in body, body[:300]
                kept.append(cpu)
            change_kb.append(len(body) / 1024)
            for kept in (piece, piece_next):  # what each viewer fetched before
                status, body, cpu = await asgi.call(
                    "GET", f"/matches/{match_id}/sheet", query=since
                )
                assert status == 200
                kept.append(cpu)
            piece_kb.append(len(body) / 1024)
            first.append((await asgi.call("GET", f"/matches/{match_id}"))[2])
            again.append((await asgi.call("GET", f"/matches/{match_id}"))[2])
            drop_caches(app)
            cold.append((await asgi.call("GET", f"/matches/{match_id}"))[2])
        note("GET sheet piece after a change, first viewer", size, statistics.median(piece))
        note("GET sheet piece, next viewer (each viewer, before)", size, median(piece_next))
        note("GET the change, first viewer (makes it)", size, statistics.median(made))
        note("GET the change, next viewer (each viewer, now)", size, statistics.median(shared))
        note("sheet piece (KB)", size, statistics.median(piece_kb))
        note("the change (KB)", size, statistics.median(change_kb))
        note("GET sheet page, first view after the change", size, statistics.median(first))
        note("GET sheet page, next viewer", size, statistics.median(again))
        note("GET sheet page, cold caches", size, statistics.median(cold))
        gc.collect()
    store.close()
    return figures


def table(title: str, figures: dict[str, dict[int, float]], sizes: tuple[int, ...]) -> None:
    print(f"\n{title}")
    head = "| CPU ms per request | " + " | ".join(f"{s} deal{'s' if s > 1 else ''}" for s in sizes)
    print(head + " |")
    print("|---|" + "---|" * len(sizes))
    floor = figures.pop("floor: insert one row and commit")[0]
    for name, values in figures.items():
        print(f"| {name} | " + " | ".join(f"{values.get(s, 0):.2f}" for s in sizes) + " |")
    print(f"| floor: insert one row and commit | {floor:.2f} |")
    for kind in ("full", "small"):
        values = figures.get(f"POST deals, {kind} answer (ms)", {})
        if sizes[0] in values and sizes[-1] in values:
            ratio = values[sizes[-1]] / values[sizes[0]]
            over = ", ".join(f"{values[s] / floor:.1f}x" for s in sizes)
            print(
                f"recording ({kind}): {sizes[-1]} deals / {sizes[0]} = {ratio:.2f}x;"
                f" over the floor: {over}"
            )
    for name in ("GET sheet page, first view after the change", "GET sheet page, next viewer"):
        values = figures.get(name, {})
        if sizes[0] in values and sizes[-1] in values:
            print(f"{name}: {sizes[-1]} / {sizes[0]} = {values[sizes[-1]] / values[sizes[0]]:.2f}x")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=15)
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
    parser.add_argument("--no-pg", action="store_true", help="SQLite only")
    parser.add_argument(
        "--hosted",
        action="store_true",
        help="serve --hosted: one group, every request with its device token",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a few seconds: every step on a little, no target judged (the suite runs it)",
    )
    args = parser.parse_args()
    if args.quick:
        args.samples, args.sizes = 2, "1,10"
    sizes = tuple(int(s) for s in args.sizes.split(","))
    runs: list[tuple[str, Callable[[], Any]]] = []
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/bench.db"
        figures = asyncio.run(measure(url, sizes, args.samples, args.hosted))
        table("SQLite (WAL, synchronous=FULL)", figures, sizes)
    if not args.no_pg:
        with postgres_cluster() as url:
            figures = asyncio.run(measure(url, sizes, args.samples, args.hosted))
        table(
            "PostgreSQL (throwaway cluster, fsync off; its backend's CPU not counted)",
            figures,
            sizes,
        )
    del runs
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
