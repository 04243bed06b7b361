"""Benchmark: a person's play at a table, the request alone (docs/tables.md).

One table of two people on a SQLite file; ``--plays`` plays (and the next deals between
them), each ``POST /api/tables/{id}/plays`` sent to the app itself over ASGI (no HTTP server,
no event stream open, the computer not playing): the process's CPU time (every thread: the
event loop's middlewares and routing, the worker thread's read, move, write and answer) over
each play's request, per play. Run it with the code before and after a change, one after the
other, to compare what the request costs without the noise of a server's other work.

Run: ``.venv/bin/python bench/table_play.py [--plays 400]``.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from typing import Any

import httpx

from scopa.store import MatchStore
from scopa.web import create_app


async def measure(plays: int, folder: str) -> float:
    """The CPU seconds of ``plays`` plays' requests."""
    store = MatchStore.open(f"sqlite:///{folder}/tables.db")
    app = create_app(store)
    app.state.table_pause = 0.0
    app.state.tables.run_computer = False
    transport = httpx.ASGITransport(app=app)
    used = 0.0
    try:
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
            made = (await http.post("/api/tables", json={"players": 2, "names": ["A"]})).json()
            table = made["table"]
            joined = await http.post(f"/api/tables/{table}/seats", json={"code": made["code"]})
            tokens = {0: made["token"], 1: joined.json()["token"]}

            async def seen(seat: int) -> dict[str, Any]:
                auth = {"Authorization": f"Bearer {tokens[seat]}"}
                view: dict[str, Any] = (await http.get(f"/api/tables/{table}", headers=auth)).json()
                return view

            made_plays = 0
            while made_plays < plays:
                view = await seen(0)
                if view["status"] != "playing":
                    auth = {"Authorization": f"Bearer {tokens[0]}"}
                    await http.post(
                        f"/api/tables/{table}/next", json={"step": view["step"]}, headers=auth
                    )
                    continue
                mine = await seen(view["turn"])
                option = mine["legal"][0]
                body = {"step": mine["step"], "card": option["card"]}
                body["capture"] = option["captures"][0]
                auth = {"Authorization": f"Bearer {tokens[view['turn']]}"}
                before = time.process_time()
                answer = await http.post(f"/api/tables/{table}/plays", json=body, headers=auth)
                used += time.process_time() - before
                assert answer.status_code == 200, answer.text
                made_plays += 1
    finally:
        await app.state.tables.close()
        store.close()
    return used


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plays", type=int, default=400)
    parser.add_argument("--quick", action="store_true", help="a few plays (the suite runs it)")
    args = parser.parse_args()
    plays = 10 if args.quick else args.plays
    with tempfile.TemporaryDirectory(prefix="scopa-table-play-") as folder:
        used = asyncio.run(measure(plays, folder))
    print(f"{plays} plays: {1000 * used / plays:.2f} ms of CPU a play's request (in process)")


if __name__ == "__main__":
    main()
