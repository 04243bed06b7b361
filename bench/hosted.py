"""Benchmark: hosted mode under load, on PostgreSQL with ``scopa serve --workers 2``.

A model of real use in compressed time: T tables, each with 3 open sheets holding an event
stream (``GET /api/matches/{id}/events``) and one phone recording a deal every ``--interval``
seconds (first deal at a random moment of the first interval). For each T it reports:

- deals recorded per second, and p50/p99 of recording one (the ``POST`` answered);
- p99 of the time from the phone's answer until every other sheet of that table has the
  event with the new version, and events that never came;
- errors (any answer but 201, any broken connection) and lost updates (a match whose stored
  version or deal count is not what its phone had recorded);
- the memory per open stream: the workers' resident memory after the streams opened, less
  before, divided by the streams.

Everything runs on this machine over loopback: a throwaway PostgreSQL cluster
(``tests/pg.py``; or ``--db URL``), the server, and the clients in one asyncio process (the
sheets and phones spread over 127.0.1.x source addresses, since the server caps connections
per address). Client and server share the cores, so the figures are a floor.

Each table is a group of ``scopa serve --hosted`` (its devices joined with the group's code,
every request with its token); ``--no-hosted`` runs the one-table server instead.

It also prints the CPU time one recorded deal costs the server's workers, PostgreSQL (when
it runs on this machine) and this load generator, over the recording phase: a figure that
compares before and after on a busy machine, where the latencies do not.

The phones ask for the small answer (``Prefer: return=minimal``), as the phone's outbox does
(``--full``: the whole match in every answer). With ``--servers N``, N servers listen on
127.0.0.1, 127.0.0.2, ... against the one PostgreSQL, as several machines would: table i's
phone records on server i mod N and its sheets listen on the next server, so every event
crosses from one server process to another (PostgreSQL's NOTIFY).

Last, the floor, in the same run: ``bench/floor_app.py`` (the project's app and middleware
under uvicorn, plus a route that inserts one row and commits) on PostgreSQL and on a SQLite
WAL file; the server CPU of that route per request, and of a deal recorded as the phone
records it (``If-Match``, ``Idempotency-Key``, the small answer) in matches in progress (deals
1-50), in matches won at their 13th deal (deals 1-50) and at deals 451-500,
as a ratio of the floor (``--floor N`` requests; 0: skip).

Run: ``.venv/bin/python bench/hosted.py [--tables 100,500,1000] [--duration 30]
[--interval 3] [--workers 2] [--servers 1] [--db URL] [--no-hosted] [--keys] [--full]
[--floor 300]`` (``--keys``: every deal with an ``Idempotency-Key``, as the sheet's deal
form sends one).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scopa.web.serve.server import raise_open_file_limit, settle_collector  # noqa: E402
from tests.pg import free_port, postgres_cluster  # noqa: E402
from tests.web.bodies import anna_deal, level_deal  # noqa: E402
from tests.web.workers import children  # noqa: E402

SCOPA = str(Path(sys.executable).parent / "scopa")
STREAMS_PER_TABLE = 3
HOSTED = ", --hosted (a group a table)"
PER_ADDRESS = 40
"""Connections opened from one source address (the server caps 64 per address and worker)."""
DEAL = anna_deal(0, 0)


class Addresses:
    """Loopback source addresses, ``PER_ADDRESS`` connections each."""

    def __init__(self, block: int) -> None:
        self.block = block
        self.used = 0

    def next(self) -> str:
        n = self.used // PER_ADDRESS
        self.used += 1
        return f"127.{self.block}.{n // 250}.{n % 250 + 1}"


class Http:
    """One keep-alive HTTP/1.1 connection (JSON in and out)."""

    def __init__(self, port: int, source: str, host: str = "127.0.0.1") -> None:
        self.port = port
        self.source = source
        self.host = host
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def call(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, Any]:
        if self.writer is None or self.writer.is_closing():
            self.reader, self.writer = await asyncio.open_connection(
                self.host, self.port, local_addr=(self.source, 0)
            )
        assert self.reader is not None
        raw = json.dumps(body).encode() if body is not None else b""
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {len(raw)}\r\n"
        head += "Content-Type: application/json\r\n" if raw else ""
        head += "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
        self.writer.write(head.encode() + b"\r\n" + raw)
        status_line = await self.reader.readline()
        if not status_line:
            self.writer = None
            raise ConnectionError("closed by the server")
        length, close = 0, False
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            if name.lower() == "content-length":
                length = int(value)
            elif name.lower() == "connection" and "close" in value.lower():
                close = True
        data = await self.reader.readexactly(length) if length else b""
        if close:
            self.writer.close()
            self.writer = None
        try:
            answer = json.loads(data) if data else None
        except ValueError:  # not JSON (a proxy's or a refusal's text): shown as it is
            answer = data.decode("utf-8", "replace")[:300]
        return int(status_line.split()[1]), answer

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


@dataclass
class Table:
    match_id: int
    auth: dict[str, str] = field(default_factory=dict)
    """The group's device token (``--hosted``)."""
    version: int = 1
    recorded: list[tuple[int, float]] = field(default_factory=list)
    """(version, moment the phone had the answer)."""
    arrivals: list[dict[int, float]] = field(default_factory=list)
    """Per sheet: version -> moment its event arrived."""


@dataclass
class Results:
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    streams_open: int = 0


async def sheet(server: Server, source: str, table: Table, seen: dict[int, float], res: Results,
                opened: asyncio.Event, stop: asyncio.Event) -> None:  # fmt: skip
    reader, writer = await asyncio.open_connection(server.host, server.port, local_addr=(source, 0))
    auth = "".join(f"{k}: {v}\r\n" for k, v in table.auth.items())
    writer.write(
        f"GET /api/matches/{table.match_id}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Accept: text/event-stream\r\n{auth}\r\n".encode()
    )
    try:
        status = await reader.readline()
        if b" 200 " not in status:
            res.errors.append(f"stream: {status!r}")
            return
        res.streams_open += 1
        opened.set()
        while not stop.is_set():
            line = await reader.readline()
            if not line:
                if not stop.is_set():
                    res.errors.append("stream closed by the server")
                return
            if line.startswith(b"data:") and b'"version"' in line:
                version = json.loads(line[5:])["version"]
                if isinstance(version, int):
                    seen.setdefault(version, time.monotonic())
    except (ConnectionError, OSError) as error:
        if not stop.is_set():
            res.errors.append(f"stream: {error}")
    finally:
        writer.close()


async def phone(server: Server, source: str, table: Table, interval: float, until: float,
                res: Results, keys: bool = False, small: bool = True) -> None:  # fmt: skip
    http = Http(server.port, source, server.host)
    await asyncio.sleep(random.uniform(0, interval))
    try:
        while time.monotonic() < until:
            started = time.monotonic()
            try:
                status, body = await http.call(
                    "POST",
                    f"/api/matches/{table.match_id}/deals",
                    DEAL,
                    {
                        "If-Match": str(table.version),
                        **table.auth,
                        **({"Prefer": "return=minimal"} if small else {}),
                        **(
                            {"Idempotency-Key": f"bench-{random.getrandbits(64):x}"} if keys else {}
                        ),
                    },
                )
            except (ConnectionError, OSError, asyncio.IncompleteReadError) as error:
                res.errors.append(f"record: {error}")
                http.close()
                http = Http(server.port, source, server.host)
                continue
            done = time.monotonic()
            if status == 201:
                table.version = body["version"]
                table.recorded.append((table.version, done))
                res.latencies.append(done - started)
            else:
                res.errors.append(f"record: {status} {body}")
            await asyncio.sleep(max(0.0, interval - (time.monotonic() - started)))
    finally:
        http.close()


def rss_kib(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total


TICK = os.sysconf("SC_CLK_TCK")


def cpu_times(pids: list[int]) -> dict[int, float]:
    """The CPU time (user and system, with their reaped children's: a backend that ended
    counts on its postmaster) each of the processes ``pids`` has used, in seconds."""
    found = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        found[pid] = sum(int(f) for f in fields[11:15]) / TICK
    return found


def cpu_used(before: dict[int, float], after: dict[int, float]) -> float:
    """The CPU seconds used between two :func:`cpu_times` (a process new since counts in
    full)."""
    return sum(t - before.get(pid, 0.0) for pid, t in after.items())


def database_pids(url: str) -> list[int]:
    """The PostgreSQL server processes listening on ``url``'s port on this machine (the
    postmaster first, then its backends), or none when it is not here."""
    port = url.rsplit(":", 1)[1].split("/", 1)[0] if "@127.0.0.1:" in url else ""
    postmaster = None
    for entry in os.listdir("/proc"):
        if entry.isdigit() and port:
            try:
                cmd = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if cmd and cmd[0].endswith(b"/postgres") and f"-p {port}".encode() in b" ".join(cmd):
                postmaster = int(entry)
    if postmaster is None:
        return []
    return [postmaster, *children(postmaster, b"")]


@dataclass
class Server:
    """One ``scopa serve`` process: where it listens and its workers."""

    host: str
    port: int
    pids: list[int]


@contextmanager
def serving(
    db: str, workers: int, log: Path, hosted: bool, host: str = "127.0.0.1"
) -> Iterator[Server]:
    port = free_port()
    hosting = ["--hosted"] if hosted else []
    with log.open("w") as out:
        process = subprocess.Popen(
            [SCOPA, "serve", "--db", db, "--host", host, "--port", str(port),
             "--workers", str(workers), *hosting],
            stdout=out,
            stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while workers > 1 and len(children(process.pid)) < workers:  # 1: no worker processes
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the server did not start:\n{log.read_text()}")
            time.sleep(0.2)
        yield Server(host, port, children(process.pid) if workers > 1 else [process.pid])
    finally:
        process.terminate()
        process.wait(60)


async def ready(server: Server) -> None:
    """Wait until the workers answer (a few requests each, on new connections)."""
    deadline = time.monotonic() + 120
    answered = 0
    while answered < 4 * len(server.pids):
        try:
            http = Http(server.port, "127.0.0.1", server.host)
            status, _ = await http.call(
                "GET", "/api/matches?limit=1", None, {"Connection": "close"}
            )
            answered += status in (200, 401)
        except OSError:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.2)


async def run(servers: list[Server], tables: int, duration: float, interval: float,
              codes: list[str], db: str, keys: bool = False,
              small: bool = True) -> dict[str, Any]:  # fmt: skip
    """The load on ``servers`` (several: table i's phone records on server i, its sheets
    listen on the next one, so every event crosses from one server to another)."""
    for server in servers:
        await ready(server)
    pids = [pid for server in servers for pid in server.pids]
    first = servers[0]
    admin = Http(first.port, "127.0.0.1", first.host)
    board = []
    for i in range(tables):
        auth = {}
        if codes:  # hosted: each table is a group, its devices joined with its code
            status, body = await admin.call("POST", "/api/join", {"code": codes[i]})
            assert status == 201, body
            auth = {"Authorization": f"Bearer {body['token']}"}
        status, body = await admin.call(
            "POST", "/api/matches", {"players": ["Anna", "Bruno"]}, auth
        )
        assert status == 201, body
        board.append(Table(body["id"], auth))
    res = Results()
    stop = asyncio.Event()
    sheets_at, phones_at = Addresses(1), Addresses(2)
    await asyncio.sleep(1.0)
    before = rss_kib(pids)
    opened: list[asyncio.Event] = []
    sheet_tasks = []
    for i, table in enumerate(board):
        watched = servers[(i + 1) % len(servers)]
        for _ in range(STREAMS_PER_TABLE):
            seen: dict[int, float] = {}
            table.arrivals.append(seen)
            event = asyncio.Event()
            opened.append(event)
            sheet_tasks.append(
                asyncio.create_task(sheet(watched, sheets_at.next(), table, seen, res, event, stop))
            )
    for event in opened:
        await asyncio.wait_for(event.wait(), 120)
    await asyncio.sleep(1.0)
    streams = res.streams_open
    after = rss_kib(pids)
    settle_collector()  # this load generator's own pauses would count as the server's
    server_cpu, database_cpu = cpu_times(pids), cpu_times(database_pids(db))
    client_cpu = time.process_time()
    started = time.monotonic()
    until = started + duration
    await asyncio.gather(
        *(
            phone(servers[i % len(servers)], phones_at.next(), t, interval, until, res, keys, small)
            for i, t in enumerate(board)
        )
    )
    elapsed = time.monotonic() - started
    cpu = [
        cpu_used(server_cpu, cpu_times(pids)),
        cpu_used(database_cpu, cpu_times(database_pids(db))),
        time.process_time() - client_cpu,
    ]
    await asyncio.sleep(1.5)  # the last events
    stop.set()
    for task in sheet_tasks:
        task.cancel()
    await asyncio.gather(*sheet_tasks, return_exceptions=True)
    lost = 0
    admin = Http(first.port, "127.0.0.1", first.host)  # the first one idled past keep-alive
    for table in board:
        status, body = await admin.call("GET", f"/api/matches/{table.match_id}", None, table.auth)
        deals = len(body["match"]["deals"]) if status == 200 else -1
        if body["version"] != table.version or deals != len(table.recorded):
            lost += 1
    admin.close()
    delays, missed = [], 0
    for table in board:
        for version, at in table.recorded:
            got = [seen.get(version) for seen in table.arrivals]
            if any(g is None for g in got):
                missed += 1
            else:
                delays.append(max(g for g in got if g is not None) - at)
    recorded = sum(len(t.recorded) for t in board)
    return {
        "tables": tables,
        "streams": streams,
        "deals_per_s": recorded / elapsed,
        "record_p50": quantile(res.latencies, 0.5),
        "record_p99": quantile(res.latencies, 0.99),
        "event_p99": quantile(delays, 0.99),
        "missed": missed,
        "errors": len(res.errors),
        "first_error": res.errors[0] if res.errors else "",
        "lost": lost,
        "kib_per_stream": (after - before) / max(streams, 1),
        "cpu_ms": [1000 * c / max(recorded, 1) for c in cpu],
    }


@contextmanager
def floor_server(db: str, log: Path) -> Iterator[Server]:
    """``bench/floor_app.py`` served by one uvicorn process, as ``scopa serve`` serves."""
    port = free_port()
    env = {**os.environ, "SCOPA_DATABASE_URL": db, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "uvicorn", "--factory", "bench.floor_app:make",
               "--host", "127.0.0.1", "--port", str(port), "--no-access-log",
               "--log-level", "warning"]  # fmt: skip
    with log.open("w") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
    try:
        yield Server("127.0.0.1", port, [process.pid])
    finally:
        process.terminate()
        process.wait(60)


async def floor_figures(server: Server, requests: int) -> dict[str, float]:
    """Server CPU per request (ms): the floor (insert one row, commit), and a deal recorded
    as the phone records it (``If-Match``, ``Idempotency-Key``, the small answer): deals 1
    to 50 of matches in progress (a point a deal: each deal writes the players' tallies and
    totals), deals 1 to 50 of matches won at the 13th (the deals after it leave the tallies
    as they are), and deals 451 to 500."""
    await ready(server)
    http = Http(server.port, "127.0.0.1", server.host)

    async def per_request(calls: list[tuple[str, str, Any, dict[str, str]]]) -> float:
        before = cpu_times(server.pids)
        for method, path, body, headers in calls:
            status, answer = await http.call(method, path, body, headers)
            assert status in (200, 201), answer
        return 1000 * cpu_used(before, cpu_times(server.pids)) / len(calls)

    floor: list[tuple[str, str, Any, dict[str, str]]] = [("POST", "/bench/floor", None, {})]
    floor *= requests
    await per_request(floor[:20])
    figures = {"floor": await per_request(floor)}
    rounds = (
        (0, "record in progress, deals 1-50", [level_deal("Anna"), level_deal("Bruno")]),
        (0, "record at 1-50 deals (won at 13)", [DEAL]),
        (450, "record at 451-500 deals", [DEAL]),
    )
    for size, name, dealt in rounds:
        calls = []
        for _ in range(max(1, requests // 50)):
            body = {"players": ["Anna", "Bruno"], "rules": {"target": 61}, "deals": [DEAL] * size}
            status, created = await http.call("POST", "/api/import", body)
            assert status == 201, created
            calls += [
                ("POST", f"/api/matches/{created['id']}/deals", dealt[n % len(dealt)],
                 {"If-Match": str(created["version"] + n), "Prefer": "return=minimal",
                  "Idempotency-Key": f"floor-{created['id']}-{n}"})
                for n in range(50)
            ]  # fmt: skip
        figures[name] = await per_request(calls)
    http.close()
    return figures


def quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[round(q * 100) - 1]


def groups(db: str, tables: int) -> list[str]:
    """One group a table (hosted mode): their join codes."""
    from scopa.store import MatchStore

    store = MatchStore.open(db)
    try:
        return [store.groups.create_group(f"Table {i + 1}")[1] for i in range(tables)]
    finally:
        store.close()


def fresh_database(admin_url: str, name: str) -> str:
    import psycopg

    plain = admin_url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(plain, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return admin_url.rsplit("/", 1)[0] + f"/{name}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="100,500,1000", help="T values, comma-separated")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds of deals per T")
    parser.add_argument("--interval", type=float, default=3.0, help="seconds between deals")
    parser.add_argument("--workers", type=int, default=2, help="workers of each server")
    parser.add_argument(
        "--servers",
        type=int,
        default=1,
        help="servers on 127.0.0.1, 127.0.0.2, ... against the one database (a deployment "
        "of several machines in front of one PostgreSQL, on loopback)",
    )
    parser.add_argument("--db", help="a PostgreSQL URL (default: a throwaway cluster)")
    parser.add_argument(
        "--hosted",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="serve --hosted, each table a group with its own token (default)",
    )
    parser.add_argument(
        "--keys",
        action="store_true",
        help="each deal with an Idempotency-Key, as the sheet's deal form sends it",
    )
    parser.add_argument(
        "--full",
        action="store_true",
        help="ask for the whole match in every answer (default: Prefer: return=minimal, "
        "as the phone's outbox asks)",
    )
    parser.add_argument(
        "--floor",
        type=int,
        default=300,
        help="requests of the floor measurement (insert one row and commit, PostgreSQL and "
        "SQLite WAL) and of the record path beside it; 0: none",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a few seconds: every step on a little, no target judged (the suite runs it)",
    )
    args = parser.parse_args()
    if args.quick:
        args.tables, args.duration, args.interval, args.floor = "2", 2.0, 0.5, 5
        args.workers = 1
    raise_open_file_limit()
    sizes = [int(t) for t in args.tables.split(",") if t]
    hosts = [f"127.0.0.{k + 1}" for k in range(max(args.servers, 1))]
    with tempfile.TemporaryDirectory(prefix="scopa-hosted-") as tmp, (
        postgres_cluster() if args.db is None else _given(args.db)
    ) as admin_url:  # fmt: skip
        for i, tables in enumerate(sizes):
            db = fresh_database(admin_url, f"hosted_{os.getpid()}_{i}") if not args.db else args.db
            codes = groups(db, tables) if args.hosted else []
            with ExitStack() as stack:
                servers = [
                    stack.enter_context(
                        serving(
                            db,
                            args.workers,
                            Path(tmp) / f"serve-{tables}-{host}.log",
                            args.hosted,
                            host,
                        )
                    )
                    for host in hosts
                ]
                row = asyncio.run(
                    run(
                        servers,
                        tables,
                        args.duration,
                        args.interval,
                        codes,
                        db,
                        args.keys,
                        not args.full,
                    )
                )
            print_row(row, header=i == 0)
            for log in Path(tmp).glob(f"serve-{tables}-*.log"):
                if "Traceback" in log.read_text():
                    print(f"  (the server logged a traceback: {log.read_text()[-800:]})")
        if sizes:
            print(
                f"\n{len(hosts)} server{'s' if len(hosts) > 1 else ''} ({', '.join(hosts)}) of "
                f"{args.workers} workers each, one PostgreSQL{HOSTED if args.hosted else ''}, "
                f"{STREAMS_PER_TABLE} streams and one phone a table, a deal every "
                f"{args.interval:g} s for {args.duration:g} s"
                f"{' (whole answers)' if args.full else ' (small answers)'}; event: from the "
                "phone's answer until every other sheet has it."
            )
        if args.floor:
            print("\nServer CPU per request, one uvicorn process, requests one after another:")
            floors = {"PostgreSQL": fresh_database(admin_url, f"floor_{os.getpid()}")}
            floors["SQLite WAL"] = f"sqlite:///{tmp}/floor.db"
            for name, db in floors.items():
                with floor_server(db, Path(tmp) / f"floor-{name[:6]}.log") as server:
                    figures = asyncio.run(floor_figures(server, args.floor))
                floor = figures.pop("floor")
                # The processes' CPU is read in the kernel's ticks (10 ms): a quick run's few
                # requests may not see one, and then there is no ratio to give.
                ratios = ", ".join(
                    f"{what} {ms:.2f} ms ({f'{ms / floor:.1f}x' if floor else 'no floor read'})"
                    for what, ms in figures.items()
                )
                print(f"  {name}: floor (insert one row, commit) {floor:.2f} ms; {ratios}")


@contextmanager
def _given(url: str) -> Iterator[str]:
    yield url


def print_row(row: dict[str, Any], header: bool) -> None:
    if header:
        print(
            f"{'tables':>6} {'streams':>7} {'deals/s':>8} {'rec p50':>8} {'rec p99':>8} "
            f"{'event p99':>9} {'missed':>6} {'errors':>6} {'lost':>4} {'KiB/stream':>10}"
        )
    print(
        f"{row['tables']:>6} {row['streams']:>7} {row['deals_per_s']:>8.1f} "
        f"{row['record_p50'] * 1000:>6.1f}ms {row['record_p99'] * 1000:>6.1f}ms "
        f"{row['event_p99'] * 1000:>7.0f}ms {row['missed']:>6} {row['errors']:>6} "
        f"{row['lost']:>4} {row['kib_per_stream']:>10.1f}",
        flush=True,
    )
    server, database, client = row["cpu_ms"]
    print(
        f"  CPU per deal: server {server:.1f} ms, PostgreSQL {database:.1f} ms, "
        f"this load generator {client:.1f} ms (its streams included)"
    )
    if row["first_error"]:
        print(f"  first error: {row['first_error'][:200]}")


if __name__ == "__main__":
    main()
