"""The real server in a subprocess: killed with SIGKILL while recording deals, and raced by
clients writing on the same version. Every acknowledged deal must be there, exactly once, and
no update may be lost.

The figures (kills survived, deals acknowledged and found, conflicting writes tried, lost
updates) are printed; run with ``-s`` to see them.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from scopa.cards import CardSet
from tests import servers
from tests.pg import free_port
from tests.waiting import until
from tests.web.workers import Serve, first_answer

pytestmark = [pytest.mark.slow, pytest.mark.system]

KILLS = 5


def random_deal(rng: random.Random) -> dict[str, Any]:
    """A valid 2-player deal of full piles; the seed makes each one different."""
    cards = list(CardSet.full())
    rng.shuffle(cards)
    cut = rng.randint(12, 28)
    anna, bruno = CardSet(cards[:cut]), CardSet(cards[cut:])
    return {
        "piles": {"Anna": {"cards": anna.to_list()}, "Bruno": {"cards": bruno.to_list()}},
        "sweeps": {"Anna": rng.randint(0, 3), "Bruno": rng.randint(0, 3)},
        "last_capture": rng.choice(["Anna", "Bruno", None]),
    }


@contextmanager
def server(db: Path) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    port = free_port()
    with servers.started(
        servers.serve_command("--port", str(port), "--db", str(db)),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, "SCOPA_DATABASE_URL": ""},
    ) as process:
        base = f"http://127.0.0.1:{port}"

        def alive() -> bool:
            return process.poll() is None

        try:
            first_answer(lambda: httpx.get(f"{base}/api/matches", timeout=30), 120, alive)
        except RuntimeError:
            process.kill()  # first: reading the error of a live server never ends
            raise RuntimeError(f"the server did not start: {servers.stop(process)}") from None
        yield process, base


def test_sigkill_loses_no_acknowledged_deal(tmp_path: Path) -> None:
    """Each round starts the server on the database the last one was killed on, checks what
    it finds there, then records deals until it is killed; a last start checks the last kill."""
    db = tmp_path / "crash.db"
    rng = random.Random(20261129)
    acknowledged: list[dict[str, Any]] = []
    in_flight: list[dict[str, Any]] = []
    match_id = None
    survived = found = 0
    for _round in range(KILLS + 1):
        with server(db) as (process, base):
            if match_id is None:
                created = httpx.post(
                    f"{base}/api/matches",
                    json={"players": ["Anna", "Bruno"], "rules": {"target": 61}},
                    timeout=60,
                )
                assert created.status_code == 201, created.text
                match_id = created.json()["id"]
            else:
                found = _check_after_a_kill(base, match_id, acknowledged, in_flight)
            if _round == KILLS:
                break
            # Killed once a number of deals more have been acknowledged (drawn, so that each
            # round ends somewhere else), from another thread, while the next one is sent.
            enough = len(acknowledged) + rng.randint(5, 40)
            stop = threading.Event()
            thread = threading.Thread(
                target=_kill_when,
                args=(process, lambda enough=enough: len(acknowledged) >= enough, stop),
            )
            thread.start()
            with httpx.Client(timeout=60) as client:
                while not stop.is_set() and len(acknowledged) + len(in_flight) < 480:
                    deal = random_deal(rng)
                    in_flight.append(deal)
                    try:
                        answer = client.post(f"{base}/api/matches/{match_id}/deals", json=deal)
                    except httpx.TransportError:
                        break
                    assert answer.status_code == 201, answer.text
                    acknowledged.append(in_flight.pop())
            stop.set()  # the deals ran out first: the kill still comes
            thread.join()
            process.wait()
            survived += process.returncode == -signal.SIGKILL
    print(
        f"\ncrash test: {survived} SIGKILLs survived, {len(acknowledged)} deals acknowledged, "
        f"{found} found"
    )
    assert survived == KILLS
    assert found == len(acknowledged)
    assert len(acknowledged) > KILLS * 5, "the client should have recorded deals between kills"


def _check_after_a_kill(
    base: str, match_id: int, acknowledged: list[dict[str, Any]], in_flight: list[dict[str, Any]]
) -> int:
    """Every acknowledged deal is there, in order, and at most the one in flight after them
    (then counted as acknowledged: it is on disk, the client may re-send it after checking).
    How many deals the match has."""
    answer = httpx.get(f"{base}/api/matches/{match_id}", timeout=60)
    assert answer.status_code == 200
    stored = answer.json()["match"]["deals"]
    found = [_normal(d) for d in stored]
    expected = [_normal(d) for d in acknowledged]
    assert found[: len(expected)] == expected, "an acknowledged deal is missing or moved"
    extra = found[len(expected) :]
    assert len(extra) <= 1, "a deal was stored twice"
    assert extra == [] or extra == [_normal(in_flight[0])]
    acknowledged.extend(in_flight[: len(extra)])
    in_flight.clear()
    assert len(answer.json()["sheet"]["deals"]) == len(found)
    return len(found)


def _kill_when(
    process: subprocess.Popen[bytes], ready: Callable[[], bool], done: threading.Event
) -> None:
    """SIGKILL ``process`` as soon as ``ready()`` holds (or ``done`` is set), then set ``done``."""
    while not (ready() or done.is_set()):
        time.sleep(0.001)
    process.send_signal(signal.SIGKILL)
    done.set()


def _normal(deal: dict[str, Any]) -> dict[str, Any]:
    """A deal as the server gives it back (canonical card order, every owner's sweeps)."""
    piles = {o: {"cards": sorted(p["cards"])} for o, p in deal["piles"].items()}
    sweeps = {o: deal.get("sweeps", {}).get(o, 0) for o in deal["piles"]}
    return {"piles": piles, "sweeps": sweeps, "last_capture": deal.get("last_capture")}


def test_racing_writers_lose_no_update(tmp_path: Path) -> None:
    """Four clients each read the version and write on it; every write either lands (and
    is there afterwards) or is refused with 409. No write is lost or merged silently."""
    rng = random.Random(7)
    deals = [random_deal(rng) for _ in range(200)]
    with server(tmp_path / "race.db") as (_, base):
        created = httpx.post(
            f"{base}/api/matches", json={"players": ["Anna", "Bruno"], "rules": {"target": 61}}
        )
        match_id = created.json()["id"]
        landed: list[dict[str, Any]] = []
        conflicts = 0
        lock = threading.Lock()

        def writer(mine: list[dict[str, Any]]) -> None:
            nonlocal conflicts
            with httpx.Client(base_url=base, timeout=60) as client:
                for deal in mine:
                    version = client.get(f"/api/matches/{match_id}").json()["version"]
                    answer = client.post(
                        f"/api/matches/{match_id}/deals",
                        json=deal,
                        headers={"If-Match": str(version)},
                    )
                    with lock:
                        if answer.status_code == 201:
                            landed.append(deal)
                        else:
                            assert answer.status_code == 409, answer.text
                            conflicts += 1

        threads = [threading.Thread(target=writer, args=(deals[i::4],)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        final = httpx.get(f"{base}/api/matches/{match_id}").json()
    stored = [_normal(d) for d in final["match"]["deals"]]
    lost = [d for d in landed if _normal(d) not in stored]
    print(
        f"\nconcurrency: {len(deals)} writes, {conflicts} refused with 409, "
        f"{len(landed)} landed, {len(lost)} lost updates"
    )
    assert lost == []
    assert len(stored) == len(landed)
    assert final["version"] == 1 + len(landed)
    assert conflicts > 0, "four racing clients should have collided at least once"


WRITERS = 8
KEYED_KILLS = 2


def test_sigkill_of_two_workers_then_keyed_retries_store_each_deal_once(
    database_url: str,
) -> None:
    """``scopa serve --workers 2`` killed (every process, SIGKILL) under concurrent writers
    whose every deal carries its own ``Idempotency-Key``; on the next start each unanswered
    request is sent again with its key. Every acknowledged deal is there, no deal is there
    twice, and every retry is answered (made now, or found made and replayed)."""
    rng = random.Random(20261201)
    deals: dict[str, dict[str, Any]] = {}  # key -> the deal it carries
    acknowledged: set[str] = set()
    unanswered: set[str] = set()
    figures: list[str] = []
    match_id = None
    for kill in range(KEYED_KILLS + 1):
        serve = Serve(database_url, 2)
        base = f"http://127.0.0.1:{serve.port}"
        try:
            if match_id is None:
                created = httpx.post(
                    f"{base}/api/matches",
                    json={"players": ["Anna", "Bruno"], "rules": {"target": 61}},
                    timeout=60,
                )
                assert created.status_code == 201, created.text
                match_id = created.json()["id"]
            url = f"{base}/api/matches/{match_id}/deals"
            replayed = 0
            with httpx.Client(timeout=30) as client:
                for key in sorted(unanswered):
                    retry = client.post(url, json=deals[key], headers={"Idempotency-Key": key})
                    assert retry.status_code == 201, retry.text
                    replayed += retry.headers.get("Idempotent-Replayed") == "true"
                    acknowledged.add(key)
            retried = len(unanswered)
            unanswered.clear()
            stored = [
                _dump(d)
                for d in httpx.get(f"{base}/api/matches/{match_id}").json()["match"]["deals"]
            ]
            wanted = {_dump(deals[k]) for k in acknowledged}
            lost = len(wanted - set(stored))
            duplicated = len(stored) - len(set(stored))
            if kill:
                figures.append(
                    f"kill {kill}: {len(acknowledged)} acknowledged, {len(stored)} stored, "
                    f"{lost} lost, {duplicated} duplicated ({retried} retried, {replayed} "
                    "of them found made)"
                )
            assert lost == 0, figures
            assert duplicated == 0, figures
            assert set(stored) <= {_dump(d) for d in deals.values()}
            if kill == KEYED_KILLS:
                break
            stop = threading.Event()
            lock = threading.Lock()
            failures: list[str] = []

            def writer(
                seed: int,
                stop: threading.Event = stop,
                lock: threading.Lock = lock,
                url: str = url,
                failures: list[str] = failures,
            ) -> None:
                mine = random.Random(seed)
                with httpx.Client(timeout=30) as client:
                    while not stop.is_set():
                        key = f"w{seed}-{mine.getrandbits(64):016x}"
                        deal = random_deal(mine)
                        with lock:
                            deals[key] = deal
                            unanswered.add(key)
                        try:
                            answer = client.post(url, json=deal, headers={"Idempotency-Key": key})
                        except httpx.TransportError:
                            return
                        if answer.status_code != 201:
                            failures.append(f"{answer.status_code}: {answer.text}")
                            return
                        with lock:
                            unanswered.discard(key)
                            acknowledged.add(key)

            threads = [
                threading.Thread(target=writer, args=(rng.getrandbits(32),)) for _ in range(WRITERS)
            ]
            for thread in threads:
                thread.start()
            # Killed once a number of deals more have been acknowledged (drawn, so that each
            # round ends somewhere else), while the writers are sending the next ones.
            enough = len(acknowledged) + rng.randint(8, 40)

            def written(
                enough: int = enough,
                failures: list[str] = failures,
                threads: list[threading.Thread] = threads,
            ) -> bool:
                return (
                    len(acknowledged) >= enough
                    or bool(failures)
                    or not any(thread.is_alive() for thread in threads)
                )

            until(written, "the writers' deals", seconds=300)
            for pid in [*serve.pids, serve.process.pid]:
                os.kill(pid, signal.SIGKILL)
            stop.set()
            for thread in threads:
                thread.join(60)
            assert not failures, failures
        finally:
            serve.stop()
    print("\n" + "\n".join(f"{database_url.split(':')[0]} {line}" for line in figures))
    assert len(figures) == KEYED_KILLS


def _dump(deal: dict[str, Any]) -> str:
    return json.dumps(_normal(deal), sort_keys=True)
