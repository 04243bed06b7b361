"""``scopa serve --workers N``: N server processes on one listening socket and one database.

The parent binds the socket, starts the workers (fresh interpreters: nothing of the parent's
database connections is shared), restarts one that dies, and on Ctrl+C or SIGTERM asks each
to stop (uvicorn's graceful shutdown: open answers finish, event streams end) and waits.

Each worker is a whole server: its own store (connection pool and cache of committed states,
checked against the database's version in every read), its own event hub fed by the
database (:mod:`scopa.store.notify`), the same guarded h11 protocol with its deadlines. What
lives only in one worker's memory: the count of connections per client address (the cap is
per worker) and LAN mode's failed-code counter; matches, idempotency keys, devices and codes
are in the database.
"""

from __future__ import annotations

import logging
import multiprocessing
import signal
import socket
import time
from dataclasses import dataclass, field
from types import FrameType
from typing import TYPE_CHECKING, Any

from scopa.web.serve.server import Limits, Server, settle_collector, uvicorn_config

if TYPE_CHECKING:
    from scopa.web.serve.settings import WebSettings

logger = logging.getLogger("scopa.web.serve.workers")

RESTART_PAUSE = 1.0
"""Seconds before a worker that died is started again."""
STOP_WAIT = 15.0
"""Seconds a worker gets to finish its answers after SIGTERM before it is killed."""


@dataclass(frozen=True, slots=True)
class Plan:
    """What every worker serves (it crosses to the worker processes: plain values only)."""

    settings: WebSettings
    """The app's (its database URL resolved)."""
    host: str
    port: int
    certfile: str | None = None
    keyfile: str | None = None
    limits: Limits = field(default_factory=Limits)


def bind(host: str, port: int) -> socket.socket:
    """The listening socket the workers share (IPv6 when ``host`` is an IPv6 address)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if family == socket.AF_INET6:
        sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
    sock.bind((host.strip("[]"), port))
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def run_worker(plan: Plan, sock: socket.socket) -> None:
    """One worker process: its store and app, served on the shared socket until SIGTERM."""
    from scopa.store import MatchStore, database_url
    from scopa.web import create_app

    store = MatchStore.open(database_url(plan.settings.database_url))
    try:
        app = create_app(store, plan.settings)
        settle_collector()
        config = uvicorn_config(app, plan.host, plan.port, plan.limits, plan.certfile, plan.keyfile)
        Server(config, app).run(sockets=[sock])
    finally:
        store.close()


class Supervisor:
    """Starts ``count`` workers, keeps them running, stops them on a signal."""

    def __init__(self, plan: Plan, count: int) -> None:
        self.plan = plan
        self.count = count
        self.stopping = False
        self._context = multiprocessing.get_context("spawn")
        self._workers: list[Any] = []

    def run(self, sock: socket.socket | None = None) -> None:
        """Serve on ``sock`` (bound already, so that a port in use is said before anything
        else; ``None``: bound here) until a signal; the socket is closed after."""
        sock = bind(self.plan.host, self.plan.port) if sock is None else sock
        previous = {sig: signal.signal(sig, self._stop) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            self._workers = [self._start(sock) for _ in range(self.count)]
            while not self.stopping:
                time.sleep(0.2)
                for i, worker in enumerate(self._workers):
                    if not worker.is_alive() and not self.stopping:
                        logger.warning(
                            "worker %s stopped (exit code %s); starting it again",
                            worker.pid,
                            worker.exitcode,
                        )
                        time.sleep(RESTART_PAUSE)
                        self._workers[i] = self._start(sock)
        finally:
            self._stop_all()
            for sig, handler in previous.items():
                signal.signal(sig, handler)
            sock.close()

    def _start(self, sock: socket.socket) -> Any:
        worker = self._context.Process(
            target=run_worker, args=(self.plan, sock), name="scopa worker", daemon=False
        )
        worker.start()
        return worker

    def _stop(self, _sig: int, _frame: FrameType | None) -> None:
        self.stopping = True

    def _stop_all(self) -> None:
        for worker in self._workers:
            if worker.is_alive() and worker.pid is not None:
                worker.terminate()  # SIGTERM: uvicorn's graceful shutdown
        deadline = time.monotonic() + STOP_WAIT
        for worker in self._workers:
            worker.join(max(0.1, deadline - time.monotonic()))
            if worker.is_alive():
                worker.kill()
                worker.join(5)
