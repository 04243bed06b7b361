"""Benchmark: tables played together (docs/tables.md) at a human pace.

N tables of Scopone, each with two people (two seats of this load generator, each holding
its event stream, ``GET /api/tables/{id}/events``) and two computer seats (at ``--level``,
played by the server's background player after its pause, ``SCOPA_TABLE_PAUSE``). A person
plays ``--think`` seconds (± 30 %) after the event that says it is their turn. For each N:

- plays per second over all the tables (the people's and the computer's);
- p50/p99 of the time from a person's play (the ``POST`` sent) until the other person's
  stream has the event with the new step, and events that never came;
- errors (any answer but 200/201/409, a broken stream).

- the server's CPU per play: the CPU time its processes used (user and system, ``/proc``)
  over the counted window, divided by the plays made in it (the people's and the computer's,
  with the events, the streams' signs of life and the computer's thinking). The window opens
  once every table is made, every seat taken and every stream has sent its first view, and
  lasts ``--duration`` seconds: making 100 tables and opening 200 streams is not a play's
  cost (as the keyed deal below is measured after a few deals, its group and device made
  before). The server is warmed first by one table played for a few seconds.

Then the largest N whose p99 stays under 500 ms. The server is ``scopa serve`` (one process,
``--workers`` more) on a SQLite file (``--db postgres``: a throwaway PostgreSQL cluster on
this machine; ``--db URL``: that database); the clients run in this asyncio process on the
same machine (the seats spread over 127.0.1.x source addresses, since the server caps
connections per address), so client and server share the cores.

Last, in the same run and on the same database, the yardstick: the server CPU of a deal
recorded as a phone records it on a hosted server (``scopa serve --hosted``, one group, the
device's token, ``If-Match``, ``Idempotency-Key``, ``Prefer: return=minimal``; ``--deals``
of them, 0: skip), and the play's CPU as a multiple of it.

Run: ``.venv/bin/python bench/tables.py [--tables 2,4,8,16] [--duration 20] [--think 1.5]
[--pause 1.0] [--level easy] [--workers 1] [--db URL|postgres] [--deals 150]``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.hosted import DEAL, TICK, cpu_times, cpu_used, groups
from tests.pg import free_port, postgres_cluster
from tests.web.workers import children

SCOPA = str(Path(sys.executable).parent / "scopa")
LIMITS = ("--max-tables", "10000", "--max-seats", "20000")
"""The server's limits raised: the tables of every N of a run add up."""
WARM = 3.0
"""Seconds one table is played before anything is measured: a server process's first
requests build FastAPI's routes (some 0.4 s of CPU, counted before in the first N's plays)."""
THINKER_NAME = "scopa-computer"
"""The name of the server's threads that play for the computer
(``scopa.web.tables.hub.THINKER_NAME``; a server from before has none: 0 s)."""
GRACE = 5.0
"""After the run's time, how long the seats keep reading for the events of plays already sent
(a play sent in its last second is not "missed" because its partner stopped listening)."""


@dataclass
class Figures:
    plays: int = 0
    latencies: list[float] = field(default_factory=list)
    missed: int = 0
    errors: list[str] = field(default_factory=list)
    answers: list[float] = field(default_factory=list)
    """How long each play's answer took."""
    opened_again: list[Any] = field(default_factory=list)
    """Streams opened again: the server had closed their connection before any answer."""
    moves: int = 0
    """The tables' steps within the run's time (plays and new deals)."""
    people: int = 0
    """The people's plays written (answered 200) within the run's time."""
    deals: int = 0
    """New deals (``/next``) within the run's time."""
    until: float = float("inf")
    """When the counted window ends (set as it begins)."""
    since: float = float("inf")
    """When the counted window began (every stream open): plays sent before are not counted."""
    streams: int = 0
    """Streams that have sent their first view."""
    whole: float = 0.0
    """The server's CPU seconds over the whole run: the tables made, the seats taken, the
    streams opened, the window, and the streams closed at the end (every seat leaving)."""
    used: float = 0.0
    """The server's CPU seconds in the counted window."""
    thought: float = 0.0
    """... of which the computer's threads."""


@dataclass
class Seat:
    table: int
    seat: int
    token: str
    client: httpx.AsyncClient
    sent: dict[int, float] = field(default_factory=dict)
    """Steps this seat's plays led to, and when each was sent."""


def start_server(
    db: str, workers: int, pause: float, *extra: str
) -> tuple[subprocess.Popen[str], int]:
    port = free_port()
    env = {**os.environ, "SCOPA_TABLE_PAUSE": str(pause)}
    process = subprocess.Popen(
        [
            SCOPA,
            "serve",
            "--port",
            str(port),
            "--db",
            db,
            "--workers",
            str(workers),
            *LIMITS,
            *extra,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    assert process.stdout is not None
    while True:
        line = process.stdout.readline()
        if not line:
            raise RuntimeError("the server stopped")
        if "press Ctrl+C" in line:
            break
    deadline = time.monotonic() + 30
    while True:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/matches", timeout=2)
            return process, port
        except httpx.TransportError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def client_for(base: str, n: int) -> httpx.AsyncClient:
    address = f"127.0.1.{n % 250 + 1}"
    transport = httpx.AsyncHTTPTransport(local_address=address)
    return httpx.AsyncClient(base_url=base, transport=transport, timeout=30)


async def make_table(base: str, n: int, level: str, people: int) -> list[Seat]:
    """One Scopone table: ``people`` seats taken by this load generator (2: seats 0 and 2,
    partners, the computer at 1 and 3; 4: every seat, no computer)."""
    first = client_for(base, 4 * n)
    computer = {"1": level, "3": level} if people == 2 else {}
    body = {"variant": "scopone", "names": ["Anna"], "computer": computer}
    answer = await first.post("/api/tables", json=body)
    if answer.status_code != 201:
        raise RuntimeError(f"table {n} was not made: {answer.status_code} {answer.text[:200]}")
    made = answer.json()
    seats = [Seat(made["table"], 0, made["token"], first)]
    for k, name in enumerate(["Carla", "Bruno", "Dora"][: people - 1], start=1):
        client = client_for(base, 4 * n + k)
        joined = await client.post(
            f"/api/tables/{made['table']}/seats", json={"code": made["code"], "name": name}
        )
        if joined.status_code != 201:
            raise RuntimeError(f"table {n}: no seat taken: {joined.status_code}")
        seats.append(Seat(made["table"], joined.json()["seat"], joined.json()["token"], client))
    return seats


def partner_of(me: Seat, seats: list[Seat]) -> Seat:
    """The person opposite (Scopone's partner): whose plays this seat's stream times."""
    return next(s for s in seats if s.seat == (me.seat + 2) % 4)


async def follow(
    me: Seat, partner: Seat, figures: Figures, think: float, rng: random.Random
) -> None:
    """One person: follow the stream, play when it is my turn, time the partner's plays
    (until ``figures.until``, set once every stream is open)."""
    headers = {"Authorization": f"Bearer {me.token}"}
    pending: asyncio.Task[None] | None = None
    seen_step = -1
    try:
        async with opened(me, headers, figures) as stream:
            data = ""
            async for line in stream.aiter_lines():
                now = time.monotonic()
                until = figures.until
                if now > until + GRACE:
                    break
                if line.startswith("data:"):
                    data += line[5:].strip()
                    continue
                if line or not data:
                    continue
                arrived = time.monotonic()
                view = json.loads(data)["view"]
                data = ""
                step = view["step"]
                if seen_step < 0:
                    figures.streams += 1
                if step <= seen_step:
                    continue
                for done in [s for s in partner.sent if s <= step]:
                    figures.latencies.append(arrived - partner.sent.pop(done))
                seen_step = step
                if view["status"] == "deal_over":
                    if me.seat == 0:
                        sent = time.monotonic()
                        dealt = await me.client.post(
                            f"/api/tables/{me.table}/next", json={"step": step}, headers=headers
                        )
                        if dealt.status_code == 200 and figures.since <= sent <= figures.until:
                            figures.deals += 1
                    continue
                if now > until:  # the run is over: only the events of plays already sent
                    continue
                if view["legal"] and (pending is None or pending.done()):
                    pending = asyncio.create_task(
                        play(me, view, figures, think * rng.uniform(0.7, 1.3))
                    )
    except httpx.HTTPError as error:
        figures.errors.append(f"stream: {error!r}")
    finally:
        if pending is not None:
            pending.cancel()


@contextlib.asynccontextmanager
async def opened(me: Seat, headers: dict[str, str], figures: Figures) -> AsyncIterator[Any]:
    """The seat's event stream, opened again once when the connection it was sent on had
    been closed by the server before any answer (the server closes a connection idle past
    its keep-alive just as the client reuses it: a browser sends such a GET again too)."""
    answered = False
    for attempt in (1, 2):
        try:
            async with me.client.stream(
                "GET", f"/api/tables/{me.table}/events", headers=headers, timeout=None
            ) as stream:
                answered = True
                yield stream
                return
        except (httpx.RemoteProtocolError, httpx.ReadError):
            if answered or attempt == 2:
                raise
            figures.opened_again.append(me)


async def play(me: Seat, view: dict[str, Any], figures: Figures, wait: float) -> None:
    await asyncio.sleep(wait)
    if time.monotonic() > figures.until:  # thought past the run's end: not played
        return
    option = view["legal"][0]
    body = {"step": view["step"], "card": option["card"], "capture": option["captures"][0]}
    sent = time.monotonic()
    me.sent[view["step"] + 1] = sent
    # The seat's connection may have been idle past the server's keep-alive (5 s) and be
    # closed by the server as the play goes out: sent again once on a new connection (a
    # play that was made after all is then refused as based on an older step: 409). Before,
    # such a play was lost with its task's error unread, and counted as an event missed.
    for attempt in (1, 2):
        try:
            answer = await me.client.post(
                f"/api/tables/{me.table}/plays",
                json=body,
                headers={"Authorization": f"Bearer {me.token}"},
            )
            break
        except (httpx.RemoteProtocolError, httpx.ReadError) as error:
            if attempt == 2:
                me.sent.pop(view["step"] + 1, None)
                figures.errors.append(f"play: {error!r}")
                return
    figures.answers.append(time.monotonic() - sent)
    if answer.status_code == 409:  # the computer moved meanwhile: the next event says so
        me.sent.pop(view["step"] + 1, None)
    elif answer.status_code == 200:
        figures.people += figures.since <= sent <= figures.until
    else:
        figures.errors.append(f"play: {answer.status_code} {answer.text[:80]}")


async def steps(base: str, seats: list[Seat]) -> int:
    total = 0
    for seat in seats:
        # The seat's connection may have been idle past the server's keep-alive (5 s) while
        # the other tables were made: closed by the server as the request went out. A read
        # is asked again once on a new connection.
        for attempt in range(2):
            try:
                answer = await seat.client.get(
                    f"/api/tables/{seat.table}", headers={"Authorization": f"Bearer {seat.token}"}
                )
                break
            except (httpx.RemoteProtocolError, httpx.ReadError):
                if attempt == 1:
                    raise
        view = answer.json()
        total += view["step"]
    return total


async def run(
    base: str,
    tables: int,
    duration: float,
    think: float,
    level: str,
    people: int = 2,
    meter: Callable[[], tuple[float, float]] = lambda: (0.0, 0.0),
) -> Figures:
    """The tables played for ``duration`` seconds, counted from the moment every seat's
    stream has sent its first view: the tables' making, the seats' joining and the streams'
    opening are not a play's. ``meter`` reads the server's CPU seconds so far (all, and its
    computer's threads'), read as the counted window begins and as it ends."""
    figures = Figures()
    start = meter()[0]
    pairs = [await make_table(base, n, level, people) for n in range(tables)]
    firsts = [pair[0] for pair in pairs]
    seats = [me for pair in pairs for me in pair]
    rng = random.Random(tables)
    followers = asyncio.gather(
        *(follow(me, partner_of(me, pair), figures, think, rng) for pair in pairs for me in pair)
    )

    # The window opens once every stream has sent its first view (at most 30 s).
    opening = time.monotonic() + 30
    while figures.streams < len(seats) and time.monotonic() < opening:
        await asyncio.sleep(0.05)
    before = await steps(base, firsts)
    first = meter()
    figures.since = time.monotonic()
    figures.until = figures.since + duration
    await asyncio.sleep(duration)
    after = await steps(base, firsts)
    last = meter()
    elapsed = time.monotonic() - figures.since
    figures.used, figures.thought = last[0] - first[0], last[1] - first[1]
    # Past the window the streams are read until no play sent in it waits for its event (at
    # most GRACE seconds), then all closed at once: a seat that left while others still
    # waited would time its partner's play against the server's work for the leaving (the
    # seat away, the table's others told), which no play of a table in progress has.
    while any(seat.sent for seat in seats) and time.monotonic() < figures.until + GRACE:
        await asyncio.sleep(0.05)
    followers.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await followers
    figures.moves = after - before
    figures.missed = sum(len(seat.sent) for seat in seats)
    for seat in seats:
        await seat.client.aclose()
    # The seats' leaving is the server's work after their streams close: counted in the
    # whole run once its CPU stops moving (at most a few seconds).
    settle = time.monotonic() + 5
    used = meter()[0]
    while time.monotonic() < settle:
        await asyncio.sleep(0.25)
        now = meter()[0]
        if now - used < 0.005:
            break
        used = now
    figures.whole = meter()[0] - start
    figures.latencies.sort()
    figures.plays = round(figures.moves / elapsed * 1000)  # per 1000 s: printed / 1000
    return figures


def server_pids(process: subprocess.Popen[str]) -> list[int]:
    """The server and its worker processes."""
    return [process.pid, *children(process.pid)]


def server_cpu(pids: list[int]) -> tuple[float, float]:
    """The CPU seconds the processes ``pids`` have used so far: all, and their computer's
    threads' (:func:`computer_cpu`)."""
    return sum(cpu_times(pids).values()), computer_cpu(pids)


def computer_cpu(pids: list[int]) -> float:
    """The CPU seconds (user and system) used so far by the computer's threads of the
    processes ``pids`` (named ``scopa-computer``, ``scopa.web.tables.hub.THINKER_NAME``: each
    computer's play, its read, search and write)."""
    total = 0.0
    for pid in pids:
        with contextlib.suppress(OSError):
            for task in Path(f"/proc/{pid}/task").iterdir():
                with contextlib.suppress(OSError):
                    if (task / "comm").read_text().strip() != THINKER_NAME:
                        continue
                    fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
                    total += (int(fields[11]) + int(fields[12])) / TICK
    return total


def keyed_deal_cpu(db: str, deals: int) -> float:
    """The server CPU (ms) of a deal recorded as a phone records it on a hosted server: one
    group, its device's token, each deal with ``If-Match``, an ``Idempotency-Key`` and the
    small answer, in matches of 50 deals (one worker process)."""
    code = groups(db, 1)[0]
    process, port = start_server(db, 1, 1.0, "--hosted")
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
            joined = http.post("/api/join", json={"code": code})
            assert joined.status_code == 201, joined.text
            auth = {"Authorization": f"Bearer {joined.json()['token']}"}

            def record(count: int) -> None:
                done = 0
                while done < count:
                    made = http.post(
                        "/api/matches", json={"players": ["Anna", "Bruno"]}, headers=auth
                    )
                    assert made.status_code == 201, made.text
                    match, version = made.json()["id"], made.json()["version"]
                    for n in range(min(50, count - done)):
                        answer = http.post(
                            f"/api/matches/{match}/deals",
                            json=DEAL,
                            headers={
                                **auth,
                                "If-Match": str(version + n),
                                "Prefer": "return=minimal",
                                "Idempotency-Key": f"bench-{match}-{n}",
                            },
                        )
                        assert answer.status_code == 201, answer.text
                    done += 50

            record(20)  # warm
            pids = server_pids(process)
            before = cpu_times(pids)
            record(deals)
            return 1000 * cpu_used(before, cpu_times(pids)) / deals
    finally:
        process.terminate()
        process.wait(timeout=30)


@contextmanager
def database(given: str, folder: str) -> Iterator[str]:
    """The run's database: a SQLite file, a throwaway PostgreSQL cluster, or ``given``."""
    if given == "postgres":
        with postgres_cluster() as url:
            yield url
    else:
        yield given or f"sqlite:///{folder}/tables.db"


def quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="2,4,8,16")
    parser.add_argument("--duration", type=float, default=20.0)
    parser.add_argument("--think", type=float, default=1.5)
    parser.add_argument("--pause", type=float, default=1.0)
    parser.add_argument("--level", default="easy")
    parser.add_argument(
        "--people",
        type=int,
        choices=(2, 4),
        default=2,
        help="people at each table: 2 (and 2 computer seats) or 4 (no computer: every play "
        "a person's, so the CPU per play is a person's play alone)",
    )
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--db", default="")
    parser.add_argument("--deals", type=int, default=150)
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a few seconds: every step on a little, no target judged (the suite runs it)",
    )
    args = parser.parse_args()
    if args.quick:
        args.tables, args.duration, args.think, args.pause = "1", 2.0, 0.2, 0.1
        args.deals = min(args.deals, 10)
    folder = tempfile.mkdtemp(prefix="scopa-tables-")
    with database(args.db, folder) as db:
        measure(args, db)


def measure(args: argparse.Namespace, db: str) -> None:
    process, port = start_server(db, args.workers, args.pause)
    base = f"http://127.0.0.1:{port}"
    computer = (
        f" + 2 computer seats ({args.level}, pause {args.pause} s)" if args.people == 2 else ""
    )
    print(
        f"Scopone tables: {args.people} people (think {args.think} s){computer}; "
        f"{args.duration:.0f} s each; {args.workers} worker(s); {db}; load average "
        f"{os.getloadavg()[0]:.1f}"
    )
    print(
        "CPU/play: the server's CPU over the plays made, "
        + (
            "the people's and the computer's (its search included)"
            if args.people == 2
            else "every one a person's (no computer seat)"
        )
    )
    heads: tuple[str, ...] = ("tables", "plays/s", "p50 ms", "p99 ms", "samples", "missed")
    heads = (*heads, "errors", "CPU/play", "load")
    print(" ".join(f"{h:>{max(6, len(h))}}" for h in heads))
    best = 0
    per_plays: list[float] = []
    persons: list[float] = []
    """A person's play: the server's CPU but the computer's threads, over the people's plays."""
    try:
        if not args.quick:  # the server's first requests build FastAPI's routes: not a play's
            asyncio.run(run(base, 1, WARM, 0.3, args.level, args.people))
        for n in (int(x) for x in args.tables.split(",")):
            meter = functools.partial(server_cpu, server_pids(process))
            figures = asyncio.run(
                run(base, n, args.duration, args.think, args.level, args.people, meter)
            )
            used, thought = figures.used, figures.thought
            p50 = quantile(figures.latencies, 0.50) * 1000
            p99 = quantile(figures.latencies, 0.99) * 1000
            per_play = 1000 * used / figures.moves if figures.moves else float("nan")
            per_plays.append(per_play)
            print(
                f"{n:>6} {figures.plays / 1000:>8.1f} {p50:>7.0f} {p99:>7.0f} "
                f"{len(figures.latencies):>8} {figures.missed:>6} {len(figures.errors):>6} "
                f"{per_play:>6.1f} ms {os.getloadavg()[0]:>5.1f}"
            )
            print(
                f"{'':>6} the whole run's CPU: {figures.whole:.2f} s, {used:.2f} s of it in the "
                f"counted {args.duration:.0f} s; the rest ({figures.whole - used:.2f} s) the "
                f"tables made ({n}), the streams opened and closed ({n * args.people}), their "
                "seats leaving, and the plays before and after the window"
                + (
                    f" (the whole run over the window's plays: "
                    f"{1000 * figures.whole / figures.moves:.1f} ms a play)"
                    if figures.moves
                    else ""
                )
            )
            theirs = figures.moves - figures.people - figures.deals  # the computer's plays
            if args.people == 2 and theirs > 0 and figures.people:
                person = 1000 * (used - thought) / figures.people
                persons.append(person)
                print(
                    f"{'':>6} {figures.people} people's plays, {theirs} computer's, "
                    f"{figures.deals} new deals: the computer's threads {1000 * thought:.0f} ms "
                    f"({1000 * thought / theirs:.1f} ms a play of the computer's: its read, "
                    f"search and write); all the rest over the people's plays: {person:.1f} ms "
                    "a person's play (every event, stream and look included)"
                )
            answers = sorted(figures.answers)
            print(
                f"{'':>6} the play's own answer: p50 {quantile(answers, 0.5) * 1000:.0f} ms, "
                f"p99 {quantile(answers, 0.99) * 1000:.0f} ms"
            )
            if figures.opened_again:
                print(
                    f"{'':>6} streams opened again (closed before any answer): "
                    f"{len(figures.opened_again)}"
                )
            for error in figures.errors[:3]:
                print(f"       {error}")
            if p99 < 500 and not figures.errors:
                best = n
            else:
                break
    finally:
        process.terminate()
        process.wait(timeout=30)
    print(f"largest N with p99 < 500 ms: {best}")
    if args.deals:
        deal = keyed_deal_cpu(db, args.deals)
        print(f"a keyed deal on a hosted server (same database, same run): {deal:.1f} ms of CPU")
        for n, per_play in zip(args.tables.split(","), per_plays, strict=False):
            print(f"  {n} tables: a play costs {per_play / deal:.1f}x a keyed deal")
        for n, person in zip(args.tables.split(","), persons, strict=False):
            print(
                f"  {n} tables: a person's play (the computer's threads apart) costs "
                f"{person / deal:.1f}x a keyed deal"
            )


if __name__ == "__main__":
    main()
