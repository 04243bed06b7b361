"""Benchmark: the owner's latency under the two floods of issue 49, against a real
``scopa serve`` on loopback.

- **Wrong codes** (F2): ``scopa serve --lan --proxy 127.0.0.0/8``; 10 addresses send 20 wrong
  access codes each, all at once (each guesser from its own 127.0.0.x source, naming its
  address 10.0.0.x in ``X-Forwarded-For``, which the server believes from that proxy), while
  the owner's device, which joined with the right code, asks for the match list every 50 ms.
- **Idle connections** (F4): ``scopa serve`` under an open-file limit of 1,024 that it cannot
  raise; 20 addresses (127.0.0.10-29) open 64 connections each and send nothing, and the owner
  asks for the match list 20 times.

For each it prints the owner's requests, their p50, p99 and slowest, the answers that were not
200 (and the 500s among them), and what the guessers got or how many of the idle connections
the server still holds. Target: p99 under 1 s, no 500.

Run: ``.venv/bin/python bench/flood.py [--guessers 10] [--codes 20]``
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from scopa.store import MatchStore, database_url

SCOPA = str(Path(sys.executable).parent / "scopa")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def serve(args: list[str], files: int | None = None) -> subprocess.Popen[str]:
    def limit() -> None:
        if files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

    process = subprocess.Popen(
        [SCOPA, "serve", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        preexec_fn=limit,
    )
    assert process.stdout is not None
    line = ""
    while "press Ctrl+C" not in line:
        line = process.stdout.readline()
        if not line:
            raise SystemExit("the server stopped before it listened")
    return process


async def request(
    port: int, head: str, body: bytes = b"", source: str = "127.0.0.1"
) -> tuple[int, bytes]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    try:
        writer.write(head.encode() + body)
        await writer.drain()
        answer = await reader.read()
    finally:
        writer.close()
    status = int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/") else 0
    return status, answer


def get(path: str, *extra: str) -> str:
    lines = [f"GET {path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close", *extra]
    return "\r\n".join(lines) + "\r\n\r\n"


def post_form(path: str, body: bytes, *extra: str) -> str:
    lines = [
        f"POST {path} HTTP/1.1",
        "Host: 127.0.0.1",
        "Connection: close",
        "Content-Type: application/x-www-form-urlencoded",
        f"Content-Length: {len(body)}",
        *extra,
    ]
    return "\r\n".join(lines) + "\r\n\r\n"


def report(what: str, times: list[float], statuses: Counter[int]) -> None:
    times.sort()
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    others = {s: n for s, n in statuses.items() if s != 200}
    print(
        f"{what}: owner {len(times)} requests, p50 {statistics.median(times) * 1000:.0f} ms, "
        f"p99 {p99 * 1000:.0f} ms, slowest {times[-1] * 1000:.0f} ms; not 200: {others or 0}, "
        f"500s: {statuses.get(500, 0)}"
    )


async def owner_loop(
    port: int, head: str, until: asyncio.Event, times: list[float], statuses: Counter[int]
) -> None:
    while not until.is_set() or not times:
        start = time.perf_counter()
        try:
            status, _ = await asyncio.wait_for(request(port, head), 30)
        except (TimeoutError, OSError):
            status = 0
        times.append(time.perf_counter() - start)
        statuses[status] += 1
        await asyncio.sleep(0.05)


async def code_flood(port: int, token: str, guessers: int, codes: int) -> None:
    owner = get("/api/matches", f"Cookie: scopa_device={token}", "X-Forwarded-For: 192.168.1.2")
    got: Counter[int] = Counter()

    async def guess(n: int, k: int) -> None:
        body = f"code=AAAA-{k:04d}".encode().replace(b"0", b"A").replace(b"1", b"B")
        head = post_form("/join", body, f"X-Forwarded-For: 10.0.0.{n + 1}")
        status, _ = await request(port, head, body, source=f"127.0.0.{n + 10}")
        got[status] += 1

    times: list[float] = []
    statuses: Counter[int] = Counter()
    done = asyncio.Event()
    watcher = asyncio.create_task(owner_loop(port, owner, done, times, statuses))
    await asyncio.sleep(0.2)
    await asyncio.gather(*(guess(n, k) for n in range(guessers) for k in range(codes)))
    done.set()
    await watcher
    report(f"{guessers} addresses x {codes} wrong codes at once", times, statuses)
    print(f"  the guessers got: {dict(sorted(got.items()))}")


async def idle_flood(port: int, addresses: int, each: int) -> None:
    held: list[asyncio.StreamWriter] = []
    for n in range(addresses):
        for _ in range(each):
            _, writer = await asyncio.open_connection(
                "127.0.0.1", port, local_addr=(f"127.0.0.{n + 10}", 0)
            )
            held.append(writer)
    times: list[float] = []
    statuses: Counter[int] = Counter()
    for _ in range(20):
        start = time.perf_counter()
        try:
            status, _ = await asyncio.wait_for(request(port, get("/api/matches")), 30)
        except (TimeoutError, OSError):
            status = 0
        times.append(time.perf_counter() - start)
        statuses[status] += 1
    report(f"{addresses} addresses x {each} idle connections", times, statuses)
    print(f"  idle connections opened {len(held)}; the server answered the owner with them held")
    for writer in held:
        writer.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--guessers", type=int, default=10)
    parser.add_argument("--codes", type=int, default=20)
    parser.add_argument("--addresses", type=int, default=20)
    parser.add_argument("--each", type=int, default=64)
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a few seconds: every step on a little, no target judged (the suite runs it)",
    )
    options = parser.parse_args()
    if options.quick:
        options.guessers, options.codes, options.addresses, options.each = 2, 4, 2, 4
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "flood.db")
        store = MatchStore.open(database_url(db))
        code, _ = store.new_access_code("bench")
        store.close()
        port = free_port()
        process = serve(
            ["--lan", "--host", "127.0.0.1", "--port", str(port), "--db", db,
             "--proxy", "127.0.0.0/8"]
        )  # fmt: skip
        try:
            body = f"code={code}".encode()
            head = post_form("/join", body, "X-Forwarded-For: 192.168.1.2")
            status, answer = asyncio.run(request(port, head, body))
            assert status == 303, answer
            token = answer.split(b"scopa_device=", 1)[1].split(b";", 1)[0].decode()
            asyncio.run(code_flood(port, token, options.guessers, options.codes))
        finally:
            process.terminate()
            output, _ = process.communicate(timeout=30)
        print(f"  server log: {output.count('database is locked')} 'database is locked'")
        port = free_port()
        process = serve(["--port", str(port), "--db", db], files=1024)
        try:
            asyncio.run(idle_flood(port, options.addresses, options.each))
        finally:
            process.terminate()
            output, _ = process.communicate(timeout=30)
        lines = output.splitlines()
        refused = sum("connections refused" in line for line in lines)
        print(
            f"  server log: {len(lines)} lines, {refused} of them on refused connections, "
            f"{output.count('Too many open files')} 'Too many open files'"
        )


if __name__ == "__main__":
    main()
