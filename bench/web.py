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

Run: ``.venv/bin/python bench/web.py [--samples N]``.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

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
    args = parser.parse_args()
    samples = max(10, args.samples)
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "bench.db"
        env = {**os.environ, "SCOPA_DATABASE_URL": f"sqlite:///{db}"}
        server = subprocess.Popen(
            [sys.executable, "-m", "scopa", "serve", "--port", str(port)],
            env=env,
            stdout=subprocess.DEVNULL,
        )
        try:
            base = f"http://127.0.0.1:{port}"
            with httpx.Client(base_url=base, timeout=10) as client:
                deadline = time.monotonic() + 20
                while True:
                    try:
                        client.get("/api/matches")
                        break
                    except httpx.TransportError:
                        if time.monotonic() > deadline or server.poll() is not None:
                            raise RuntimeError("the server did not start") from None
                        time.sleep(0.05)
                ids = [
                    client.post("/api/import", json=match_of(49)).json()["id"]
                    for _ in range(samples + 10)
                ]
                full = client.post("/api/import", json=match_of(50)).json()["id"]
                for warm in ids[:10]:
                    client.post(f"/api/matches/{warm}/deals", json=deal("Anna", "Bruno", 1))
                record = [
                    timed(
                        lambda m=m: client.post(
                            f"/api/matches/{m}/deals", json=deal("Anna", "Bruno", 1)
                        )
                    )
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
        finally:
            server.terminate()
            server.wait(timeout=10)
    print("scopa web over loopback, SQLite, 50-deal matches")
    ok = report("record a deal, get the sheet back (API)", record, True)
    ok = report("settings change, re-scored sheet (API)", toggles, True) and ok
    report("the sheet page (HTML)", page, False)
    print(f"target: median < {TARGET_MEDIAN_MS:.0f} ms, p99 < {TARGET_P99_MS:.0f} ms")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
