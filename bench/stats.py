"""Benchmark: the players' figures (issue 26), in process on a temporary SQLite file.

- the Players page (``GET /players``) and a player's page (``GET /players/Anna``) with 10
  stored matches, then with 10,000 (the 10 imported through the API, then copied with their
  tallies straight into the file: the pages' cost is measured, not the imports'); median of
  each and the ratio (target: within 3x, and at most 50 ms at 10,000);
- the ratings worked out again after the outcomes moved, at 10,000 matches (once per change
  of a finished match's outcome, on the next page that shows ratings);
- a rules change on a 500-deal match (``PATCH .../rules``, primiera off and on), which now
  also keeps the match's tally: median and p99, and the tally's own cost.

Run: ``.venv/bin/python bench/stats.py [--samples N]``. Prints its figures.
"""

from __future__ import annotations

import argparse
import functools
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from scopa.formats import parse_match
from scopa.match import score_match
from scopa.store import MatchStore
from scopa.tally import tally_of
from scopa.web import create_app

TARGET_MS = 50.0
PEOPLE = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gino", "Ines")


def deal(players: list[str], winner: int, sweeps: int) -> dict[str, Any]:
    """A valid tally deal: ``players[winner]`` takes most (or, with four, their team)."""
    big = {
        "count": 22,
        "coins": ["A", "2", "3", "5", "7", "K"],
        "best": {"c": "7", "s": "7", "b": "6"},
    }
    small = {"count": 18, "coins": ["4", "6", "J", "H"], "best": {"c": "5", "s": "6", "b": "7"}}
    if len(players) == 2:
        piles = {players[winner]: big, players[1 - winner]: small}
        counts = {p: sweeps if i == winner else 0 for i, p in enumerate(players)}
        return {"piles": piles, "sweeps": counts, "last_capture": players[winner]}
    teams = [f"{players[0]} & {players[2]}", f"{players[1]} & {players[3]}"]
    piles = {teams[winner % 2]: big, teams[1 - winner % 2]: small}
    return {"piles": piles, "sweeps": dict.fromkeys(teams, 0), "last_capture": teams[0]}


def match_of(index: int, deals: int) -> dict[str, Any]:
    if index % 3 == 2:
        players = [PEOPLE[(index + k) % 8] for k in (0, 1, 2, 3)]
        return {
            "variant": "scopone",
            "players": players,
            "deals": [deal(players, (n + index) % 2, 0) for n in range(deals)],
        }
    players = ["Anna", PEOPLE[1 + index % 7]]
    return {
        "players": players,
        "rules": {"target": 21},
        "deals": [deal(players, (n * index) % 2, n % 3) for n in range(deals)],
    }


class Timed:
    """The app, timed on the server's side: from the request's arrival to the answer's last
    byte (the test client's own threads and copies are not counted)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.last = 0.0

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        await self.app(scope, receive, send)
        self.last = (time.perf_counter() - start) * 1000


SERVER: Timed | None = None


def change_primiera(client: TestClient, match_id: int, on: bool) -> Any:
    return client.patch(f"/api/matches/{match_id}/rules", json={"primiera": on})


def timed(call: Callable[[], Any]) -> float:
    answer = call()
    assert answer.status_code == 200, answer.text[:300]
    assert SERVER is not None
    return SERVER.last


def client_on(store: MatchStore) -> TestClient:
    global SERVER
    SERVER = Timed(create_app(store))
    return TestClient(SERVER)


def page_costs(client: TestClient, samples: int) -> tuple[float, float]:
    for _ in range(3):
        client.get("/players")
        client.get("/players/Anna")
    board = [timed(lambda: client.get("/players")) for _ in range(samples)]
    player = [timed(lambda: client.get("/players/Anna")) for _ in range(samples)]
    return statistics.median(board), statistics.median(player)


def seed(db: Path, copies: int) -> None:
    """``copies`` more matches like the stored ones (rows and tallies, round robin), written
    straight into the file; the outcomes are marked moved (the ratings follow)."""
    matches = "name, players, teams, rules, version, created_at, updated_at, summary, status, "
    matches += "player_key, variant"
    tallies = "group_id, key, name, variant, played_at, side, finished, won, deals, points, "
    tallies += "sweeps, " + ", ".join(
        f"cat_{c}"
        for c in (
            "cards",
            "coins",
            "settebello",
            "primiera",
            "sweeps",
            "napola",
            "declarations",
            "piccola",
            "grande",
        )
    )
    with sqlite3.connect(db) as conn:
        ids = [row[0] for row in conn.execute("SELECT id FROM matches ORDER BY id")]
        for n in range(copies):
            source = ids[n % len(ids)]
            made = conn.execute(
                f"INSERT INTO matches ({matches}) SELECT {matches} FROM matches WHERE id = ?",
                (source,),
            ).lastrowid
            conn.execute(
                f"INSERT INTO tallies (match_id, {tallies}) SELECT ?, {tallies} FROM tallies "
                "WHERE match_id = ?",
                (made, source),
            )
        conn.execute("UPDATE stats_marks SET outcomes = outcomes + 1")
        # the totals the store keeps with every change, summed again from the copied tallies
        summed = ", ".join(f"sum({c})" for c in tallies.split(", ")[6:])
        conn.execute("DELETE FROM player_totals")
        conn.execute(
            f"INSERT INTO player_totals (scope, key, variant, matches, "
            f"{', '.join(tallies.split(', ')[6:])}) "
            f"SELECT 0, key, variant, count(*), {summed} FROM tallies GROUP BY key, variant"
        )
        conn.execute("DELETE FROM pair_totals")
        conn.execute(
            "INSERT INTO pair_totals (scope, key, other, same, variant, matches, won, lost) "
            "SELECT 0, a.key, b.key, a.side = b.side, a.variant, count(*), sum(a.won), "
            "sum(b.won) FROM tallies a JOIN tallies b ON b.match_id = a.match_id "
            "AND b.key != a.key GROUP BY a.key, b.key, a.side = b.side, a.variant"
        )


def scale(samples: int, copies: int = 9_990) -> bool:
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "scopa.db"
        store = MatchStore.open(f"sqlite:///{db}")
        with client_on(store) as client:
            for index in range(10):
                answer = client.post("/api/import", json=match_of(index, 8))
                assert answer.status_code == 201, answer.text
            small = page_costs(client, samples)
            seed(db, copies)
            assert len(client.get("/api/players").json()) == 8
            start = time.perf_counter()
            client.get("/api/ratings")
            rerate = (time.perf_counter() - start) * 1000
            big = page_costs(client, samples)
            listed = [
                timed(lambda: client.get("/api/players")) for _ in range(max(samples // 4, 3))
            ]
        store.close()
    print("the players' pages: 10 stored matches against 10,000 (SQLite, server time)")
    ok = True
    for name, one, many in (("Players page (GET /players)", small[0], big[0]),
                            ("a player's page (GET /players/Anna)", small[1], big[1])):  # fmt: skip
        ratio = many / one
        fine = ratio <= 3 and many <= TARGET_MS
        mark = "ok" if fine else "OVER TARGET"
        print(f"{name:<38} 10: {one:6.2f} ms   10,000: {many:6.2f} ms   x{ratio:4.2f}  {mark}")
        ok = ok and fine
    print(f"{'GET /api/players (with opponents)':<38} 10,000: {statistics.median(listed):6.2f} ms")
    print(f"{'ratings worked out again, once':<38} 10,000: {rerate:6.2f} ms")
    print(f"target: within 3x, and at most {TARGET_MS:.0f} ms at 10,000")
    return ok


def rules_change(samples: int, keep_tallies: bool = True) -> list[float]:
    with tempfile.TemporaryDirectory() as folder:
        store = MatchStore.open(f"sqlite:///{Path(folder) / 'scopa.db'}")
        with client_on(store) as client:
            data = match_of(0, 500)
            data["rules"] = {"target": 61}
            full = client.post("/api/import", json=data).json()["id"]
            costs = [
                timed(functools.partial(change_primiera, client, full, n % 2 == 1))
                for n in range(samples)
            ]
            match = parse_match(data)
            tally = 0.0
            for _ in range(samples):
                fresh = match.with_deals(match.deals)
                sheet = score_match(fresh)
                start = time.perf_counter()
                tally_of(fresh, sheet)
                tally += (time.perf_counter() - start) * 1000 / samples
        store.close()
    costs.sort()
    if keep_tallies:
        print(f"(of which the tally itself: {tally:5.2f} ms)")
    return costs


def without_tallies() -> Any:
    """The store's writes as they were before the figures: no tally worked out or kept."""
    from unittest import mock

    import scopa.application.records as records
    import scopa.store.summaries as summaries

    def no_tally(session: Any, row: Any, tally: Any, old: Any = None) -> None:
        return None

    return mock.patch.multiple(
        records.__name__, tally_of=lambda match, sheet=None: None
    ), mock.patch.multiple(summaries.__name__, write_tally=no_tally)


def rules_changes(samples: int) -> None:
    print("a rules change on a 500-deal match (PATCH .../rules, primiera off and on), server time")
    kept = rules_change(samples)
    first, second = without_tallies()
    with first, second:
        bare = rules_change(samples, keep_tallies=False)
    for name, costs in (("with the figures kept", kept), ("without (as before)", bare)):
        p99 = costs[min(len(costs) - 1, int(len(costs) * 0.99))]
        print(f"{name:<24} median {statistics.median(costs):6.2f} ms   p99 {p99:6.2f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--samples", type=int, default=40)
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a few seconds: every step on a little, no target judged (the suite runs it)",
    )
    args = parser.parse_args()
    if args.quick:
        args.samples = 3
    ok = scale(args.samples, 90 if args.quick else 9_990)
    rules_changes(args.samples)
    return 0 if ok or args.quick else 1


if __name__ == "__main__":
    sys.exit(main())
