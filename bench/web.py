"""Benchmark: the web sheet over loopback, on SQLite.

Starts ``scopa serve`` in a subprocess on a temporary SQLite file and a free 127.0.0.1 port,
then measures with one keep-alive HTTP client:

- recording a deal on a 50-deal match and getting the sheet back (``POST /api/matches/{id}/deals``,
  whose answer carries the re-scored sheet); each sample uses its own 49-deal match, imported
  beforehand, so every sample is the 50th deal;
- a settings change on a 50-deal match (``PATCH /api/matches/{id}/rules``, primiera off and on);
- the sheet page itself (``GET /matches/{id}``) of a 50-deal match.

Prints the median and 99th percentile of each. Target (issue 4): median under 20 ms and p99
under 50 ms for the first two.

Then, on a fresh server each (issue 9):

- the list with 10,000 stored matches against 2: the home page (``GET /``, 50 a page) and
  ``GET /api/matches``, median of each and the ratio (target: within 3x);
- a settings change on a 500-deal match (``PATCH .../rules``): median and p99;
- 32 clients recording deals at once for ``--duration`` seconds (30 by default), each on its
  own matches: throughput, p99 and errors (target: 0).

Run: ``.venv/bin/python bench/web.py [--samples N] [--duration S] [--only scale|load|...]``.
"""

from __future__ import annotations

import argparse
import os
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.web.workers import first_answer  # noqa: E402

TARGET_MEDIAN_MS = 20.0
TARGET_P99_MS = 50.0


def deal(winner: str, loser: str, sweeps: int) -> dict[str, Any]:
    return {
        "piles": {
            winner: {
                "count": 22,
                "coins": ["A", "2", "3", "5", "7", "K"],
                "best": {"c": "7", "s": "7", "b": "6"},
            },
            loser: {
                "count": 18,
                "coins": ["4", "6", "J", "H"],
                "best": {"c": "5", "s": "6", "b": "7"},
            },
        },
        "sweeps": {winner: sweeps % 3, loser: sweeps % 2},
        "last_capture": loser,
    }


def match_of(deals: int) -> dict[str, Any]:
    players = ("Anna", "Bruno")
    return {
        "players": list(players),
        "rules": {"target": 61},
        "deals": [deal(players[n % 2], players[1 - n % 2], n) for n in range(deals)],
    }


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def timed(call: Any) -> float:
    start = time.perf_counter()
    response = call()
    elapsed = (time.perf_counter() - start) * 1000
    if response.status_code >= 400:
        raise RuntimeError(f"{response.status_code}: {response.text[:200]}")
    return elapsed


def report(name: str, samples: list[float], target: bool) -> bool:
    median, p99 = statistics.median(samples), percentile(samples, 0.99)
    ok = median < TARGET_MEDIAN_MS and p99 < TARGET_P99_MS
    mark = ("ok" if ok else "OVER TARGET") if target else "(no target)"
    print(f"{name:<44} median {median:6.2f} ms   p99 {p99:6.2f} ms   n={len(samples)}  {mark}")
    return ok or not target


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=200, help="samples per measurement")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds of the load run")
    parser.add_argument(
        "--only", choices=("sheet", "scale", "patch500", "load"), help="run one part only"
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a few seconds: every step on a little, no target judged (the suite runs it)",
    )
    args = parser.parse_args()
    if args.quick:
        args.samples, args.duration = 10, 1.0
    samples = max(10, args.samples)
    ok = True
    if args.only in (None, "sheet"):
        ok = sheet_bench(samples) and ok
    if args.only in (None, "scale"):
        ok = scale_bench(samples) and ok
    if args.only in (None, "patch500"):
        patch500_bench(max(10, samples // 4))
    if args.only in (None, "load"):
        ok = load_bench(args.duration) and ok
    return 0 if ok or args.quick else 1


def sheet_bench(samples: int) -> bool:
    with tempfile.TemporaryDirectory() as folder, serving(folder) as (client, _):
        ids = [
            client.post("/api/import", json=match_of(49)).json()["id"] for _ in range(samples + 10)
        ]
        full = client.post("/api/import", json=match_of(50)).json()["id"]
        for warm in ids[:10]:
            client.post(f"/api/matches/{warm}/deals", json=deal("Anna", "Bruno", 1))
        record = [
            timed(lambda m=m: client.post(f"/api/matches/{m}/deals", json=deal("Anna", "Bruno", 1)))
            for m in ids[10:]
        ]
        toggles = [
            timed(
                lambda n=n: client.patch(
                    f"/api/matches/{full}/rules", json={"primiera": n % 2 == 1}
                )
            )
            for n in range(samples)
        ]
        page = [timed(lambda: client.get(f"/matches/{full}")) for _ in range(samples)]
    print("scopa web over loopback, SQLite, 50-deal matches")
    ok = report("record a deal, get the sheet back (API)", record, True)
    ok = report("settings change, re-scored sheet (API)", toggles, True) and ok
    report("the sheet page (HTML)", page, False)
    print(f"target: median < {TARGET_MEDIAN_MS:.0f} ms, p99 < {TARGET_P99_MS:.0f} ms")
    return ok


@contextmanager
def serving(folder: str) -> Iterator[tuple[httpx.Client, Path]]:
    """``scopa serve`` on a new SQLite file in ``folder``; a keep-alive client on it."""
    port = free_port()
    db = Path(folder) / "bench.db"
    env = {**os.environ, "SCOPA_DATABASE_URL": f"sqlite:///{db}"}
    server = subprocess.Popen(
        [sys.executable, "-m", "scopa", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
    )
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            first_answer(lambda: client.get("/api/matches"), 20, lambda: server.poll() is None)
            yield client, db
    finally:
        server.terminate()
        server.wait(timeout=10)


def seed(db: Path, template: int, copies: int) -> None:
    """``copies`` more matches like match ``template`` (its row, summary and deals), written
    straight into the file: the list's cost, not the import's, is measured."""
    columns = "name, players, teams, rules, version, created_at, updated_at, summary, status, "
    columns += "player_key, variant"
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA busy_timeout=10000")
        first = conn.execute("SELECT max(id) FROM matches").fetchone()[0] + 1
        conn.execute(
            f"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) "
            f"INSERT INTO matches ({columns}) SELECT {columns} FROM matches, n WHERE id = ?",
            (copies, template),
        )
        conn.execute(
            "INSERT INTO deals (match_id, position, facts, created_at) "
            "SELECT m.id, d.position, d.facts, d.created_at FROM matches m, deals d "
            "WHERE m.id >= ? AND d.match_id = ?",
            (first, template),
        )


def list_costs(client: httpx.Client, samples: int) -> tuple[float, float]:
    home = [timed(lambda: client.get("/")) for _ in range(samples)]
    api = [timed(lambda: client.get("/api/matches")) for _ in range(samples)]
    return statistics.median(home), statistics.median(api)


def scale_bench(samples: int) -> bool:
    with tempfile.TemporaryDirectory() as folder, serving(folder) as (client, db):
        template = client.post("/api/import", json=match_of(10)).json()["id"]
        client.post("/api/import", json=match_of(3))
        for _ in range(5):
            client.get("/")  # warm up
        small_home, small_api = list_costs(client, samples)
        seed(db, template, 9_998)
        count = len(client.get("/api/matches?limit=500").json())
        assert count == 500, count
        for _ in range(5):
            client.get("/")
        big_home, big_api = list_costs(client, samples)
    print("the list of matches: 10,000 stored against 2 (SQLite, 50 a page)")
    ok = True
    for name, small, big in (("home page (HTML)", small_home, big_home),
                             ("GET /api/matches", small_api, big_api)):  # fmt: skip
        ratio = big / small
        mark = "ok" if ratio <= 3 else "OVER TARGET"
        print(f"{name:<44} 2: {small:6.2f} ms   10,000: {big:6.2f} ms   x{ratio:4.2f}  {mark}")
        ok = ok and ratio <= 3
    print("target: within 3x")
    return ok


def patch500_bench(samples: int) -> None:
    with tempfile.TemporaryDirectory() as folder, serving(folder) as (client, _):
        full = client.post("/api/import", json=match_of(500)).json()["id"]
        for n in range(3):
            client.patch(f"/api/matches/{full}/rules", json={"primiera": n % 2 == 1})
        toggles = [
            timed(
                lambda n=n: client.patch(
                    f"/api/matches/{full}/rules", json={"primiera": n % 2 == 1}
                )
            )
            for n in range(samples)
        ]
    report("settings change on a 500-deal match (API)", toggles, False)


def load_bench(duration: float, clients: int = 32) -> bool:
    with tempfile.TemporaryDirectory() as folder, serving(folder) as (client, _):
        base = str(client.base_url)
        latencies: list[float] = []
        errors: list[str] = []
        lock = threading.Lock()
        ready = threading.Barrier(clients + 1)
        go = threading.Event()
        stop = [0.0]

        def player(n: int) -> None:
            mine: list[float] = []
            with httpx.Client(base_url=base, timeout=30) as own:
                match = own.post("/api/matches", json=match_of(0)).json()["id"]
                recorded = 0
                ready.wait()
                go.wait()
                while time.monotonic() < stop[0]:
                    if recorded == 400:
                        match = own.post("/api/matches", json=match_of(0)).json()["id"]
                        recorded = 0
                    start = time.perf_counter()
                    try:
                        answer = own.post(
                            f"/api/matches/{match}/deals", json=deal("Anna", "Bruno", n)
                        )
                        if answer.status_code != 201:
                            with lock:
                                errors.append(f"{answer.status_code} {answer.text[:80]}")
                    except httpx.HTTPError as error:
                        with lock:
                            errors.append(repr(error))
                    mine.append((time.perf_counter() - start) * 1000)
                    recorded += 1
            with lock:
                latencies.extend(mine)

        threads = [threading.Thread(target=player, args=(n,)) for n in range(clients)]
        for thread in threads:
            thread.start()
        ready.wait()  # every client has its match: the clock starts
        started = time.monotonic()
        stop[0] = started + duration
        go.set()
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - started
    rate = len(latencies) / elapsed
    p99 = percentile(latencies, 0.99)
    print(f"{clients} clients recording deals for {duration:.0f} s (SQLite)")
    print(
        f"{'deals recorded':<44} {rate:7.1f} /s   median {statistics.median(latencies):6.2f} ms"
        f"   p99 {p99:7.2f} ms   errors {len(errors)}"
    )
    for error in errors[:5]:
        print(f"  {error}")
    print("target: errors 0")
    return not errors


if __name__ == "__main__":
    sys.exit(main())
