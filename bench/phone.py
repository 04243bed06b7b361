"""Benchmark: the phone's search in Chromium against the server's: the tree the ``normal`` and
``strong`` levels grow, in iterations per ms of CPU time, in the Play page's worker (Pyodide
running the kernel's WebAssembly build in Debian's Chromium, headless) and in the C extension
(this process), on the same positions and seeds in the same run.

Starts ``scopa serve`` on a temporary SQLite file and a loopback port, opens ``/play`` (the
page starts the game's worker), and asks the worker's ``speed`` operation to grow the levels'
tree (``scopa.web.phone.play_device.level_tree``) from each position for a fixed number of
iterations (``--repeat`` times, the median counted). The worker's clock is the wall clock, so
the CPU time is read from outside: the worker's thread in Chromium's renderer process
(``/proc/PID/task/TID/schedstat``, in ns). Each tree is grown twice, for ``N`` iterations and
for one, and the difference of the two CPU times is what ``N - 1`` iterations cost: the call's
fixed part (the game dealt and played again, the others' plays read, the tree set up, the
message) is left out, and printed on its own. The first calls are not counted (``WARM_UP``):
V8 compiles WebAssembly quickly at first, then optimises what runs often. The C extension grows
the same trees on the thread's CPU clock.

It then prints the phone's levels as iterations at the rate measured (the server's times, 5 ms
and 200 ms, at the worker's rate) beside the budgets the levels hold
(``scopa.engine.ai.levels.PHONE_LEVELS``). Last, the worker plays whole deals at ``normal``
and ``strong`` (``--deals``; your seat plays its first legal play), each computer move timed on
the worker's CPU (the whole call: the game replayed, the search, the table's JSON), and the C
extension plays every one of them again at the same budgets: the count of the plays that agree
says whether the level table measured with the C extension (docs/ai.md) is the phone's. The
load average is printed, as the machine is shared.

Run: ``.venv/bin/python bench/phone.py [--quick] [--positions 8] [--iterations 500,30000]
[--repeat 3] [--deals 4,2]``. Target: the WebAssembly tree in Chromium >= 1/3 of the C extension's
iterations per ms.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as bench/….py
from bench.offline import CHROMIUM_ARGS, sheet_server  # noqa: E402
from bench.play_offline import wait_for  # noqa: E402
from scopa.engine import legal_plays, native  # noqa: E402
from scopa.engine.ai.levels import LEVELS, PHONE_LEVELS  # noqa: E402
from scopa.engine.game import Game  # noqa: E402
from scopa.web.phone.play_device import level_tree  # noqa: E402

TARGET_RATIO = 1 / 3
WARM_UP = 4
"""Calls not counted: V8 runs new WebAssembly code from a quick compile, then from an
optimised one once it is hot (compiled on other threads: later on a busy machine)."""
SPEED = """async ([game, iterations, seed]) =>
  await window.scopa.playEngine.call("speed", { game, iterations, seed })"""
ENGINE = """async () => await window.scopa.playEngine.call("engine", null)"""
CALL = """async ([op, payload]) => await window.scopa.playEngine.call(op, payload)"""
READY = "window.scopa && window.scopa.playEngine && window.scopa.playEngine.info"


@dataclass(frozen=True)
class Position:
    """A game of 2-player Scopa some plays in, as the page keeps it, and the tree's seed."""

    game: dict[str, Any]
    seed: int

    def played(self) -> Game:
        kept = self.game
        return Game.replay(
            kept["variant"], kept["players"], kept["level"], kept["seed"], kept["log"]
        )


def positions(count: int) -> list[Position]:
    """Positions from the first play of a deal to its middle, with two plays or more to
    choose from (the ``easy`` computer plays both seats there)."""
    found: list[Position] = []
    seed = 0
    while len(found) < count:
        game = Game("scopa", 2, "easy", seed)
        for _ in range(seed % 6 * 3):  # the easy player's plays, for either seat
            game._make(game.computers[1].choose(game.state, legal_plays(game.state)))
        if len(legal_plays(game.state)) > 1:
            kept = {"variant": "scopa", "players": 2, "level": "normal", "seed": seed}
            found.append(Position({**kept, "log": game.log}, seed))
        seed += 1
    return found


def native_cpu_ms(position: Position, iterations: int) -> float:
    """The C extension's CPU time (ms) for ``iterations`` of the levels' tree."""
    tree = level_tree(position.played(), position.seed)
    start = time.thread_time()
    tree.run(iterations)
    spent = time.thread_time() - start
    assert tree.iterations == iterations
    return spent * 1000.0


def descendants(root: int) -> Iterator[int]:
    """The processes under ``root`` (Playwright's driver, Chromium and its renderers)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(parent, []).append(int(entry))
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), []):
            todo.append(child)
            yield child


def worker_threads() -> dict[tuple[int, int], int]:
    """Every Chromium worker thread under this process and its CPU time so far (ns)."""
    found = {}
    for pid in descendants(os.getpid()):
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tasks:
            try:
                name = Path(f"/proc/{pid}/task/{tid}/comm").read_text().strip()
                run_ns = int(Path(f"/proc/{pid}/task/{tid}/schedstat").read_text().split()[0])
            except OSError:
                continue
            if name.startswith("DedicatedWorker"):
                found[(pid, int(tid))] = run_ns
    return found


def timed(page: Page, op: str, payload: dict[str, Any]) -> tuple[dict[str, Any], float]:
    """One call of the worker and the CPU time its thread spent on it (ms)."""
    before = worker_threads()
    answer: dict[str, Any] = page.evaluate(CALL, [op, payload])
    after = worker_threads()
    if "error" in answer:
        raise RuntimeError(answer["error"])
    spent = max(after[k] - before.get(k, 0) for k in after)  # the worker that answered
    return answer, spent / 1e6


def worker_call(page: Page, position: Position, iterations: int) -> tuple[float, float]:
    """One ``speed`` call: the worker thread's CPU time for the whole call and the tree's
    time in the worker (wall), both in ms."""
    payload = {"game": position.game, "iterations": iterations, "seed": position.seed}
    answer, cpu = timed(page, "speed", payload)
    assert answer["iterations"] == iterations, answer
    return cpu, float(answer["ms"])


@dataclass
class Played:
    """Deals the worker played at a level: its computer moves' CPU times and how many of its
    plays the C extension makes too."""

    level: str
    move_ms: list[float]
    agree: int = 0
    plays: int = 0


def play_deals(page: Page, level: str, deals: int) -> Played:
    """``deals`` whole deals of 2-player Scopa in the worker at ``level``, each computer play
    checked against the C extension's at the phone's budgets."""
    played = Played(level, [])
    for seed in range(7000, 7000 + deals):
        start = {"variant": "scopa", "players": 2, "level": level, "seed": seed}
        answer, _ = timed(page, "start", start)
        computer = []  # the steps the computer played at
        while not answer["state"]["deal_over"]:
            table, game = answer["state"], answer["game"]
            if table["your_turn"]:
                payload = {"game": game, "step": table["step"], **table["legal"][0]}
                answer, _ = timed(page, "play", payload)
            else:
                answer, cpu = timed(page, "computer", {"game": game, "step": table["step"]})
                played.move_ms.append(cpu)
                computer.append(table["step"])
        log = [[(card, capture) for card, capture in deal] for deal in answer["game"]["log"]]
        played.plays += len(computer)
        step: int | None = 0
        while step is not None:  # each play the C extension makes otherwise, and on
            other = Game.other_computer_play("scopa", 2, level, seed, log, step, phone=True)
            end = len(log[0]) if other is None else other
            played.agree += sum(1 for k in computer if step <= k < end)
            step = None if other is None else other + 1
    return played


@dataclass
class Figures:
    iterations: int
    native_ms: list[float]
    wasm_cpu_ms: list[float]
    wasm_wall_ms: list[float]
    fixed_ms: list[float]

    def native_rate(self) -> float:
        return self.iterations * len(self.native_ms) / sum(self.native_ms)

    def wasm_rate(self) -> float:
        return (self.iterations - 1) * len(self.wasm_cpu_ms) / sum(self.wasm_cpu_ms)

    def wall_rate(self) -> float:
        return self.iterations * len(self.wasm_wall_ms) / sum(self.wasm_wall_ms)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2 positions, few iterations")
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument(
        "--iterations", default="500,30000", help="iterations per tree, comma-separated"
    )
    parser.add_argument(
        "--deals", default="4,2", help="deals the worker plays at normal and at strong"
    )
    parser.add_argument(
        "--repeat", type=int, default=3, help="trees grown per position and budget (the median)"
    )
    parser.add_argument("--port", type=int, default=None, help="the server's (default: a free one)")
    args = parser.parse_args()
    repeat = 1 if args.quick else args.repeat
    budgets = [200, 2000] if args.quick else [int(n) for n in args.iterations.split(",")]
    count = 2 if args.quick else args.positions
    normal_deals, strong_deals = (1, 0) if args.quick else map(int, args.deals.split(","))
    if not native.AVAILABLE:
        print("needs the C extension (make setup)")
        sys.exit(1)
    cases = positions(count)
    load_before = os.getloadavg()
    with sheet_server(port=args.port) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS
        )
        try:
            page = browser.new_page()
            page.goto(base + "/play")
            wait_for(page, READY)
            engine = page.evaluate(ENGINE)
            if engine.get("build") != "webassembly":
                print(f"the worker has no WebAssembly kernel: {engine}")
                sys.exit(1)
            warm = [worker_call(page, cases[k % count], budgets[-1])[0] for k in range(WARM_UP)]
            print(
                f"the first {WARM_UP} calls, {budgets[-1]:,} iterations each (the code compiled"
                f" as it runs, then optimised): "
                + ", ".join(f"{ms:.0f}" for ms in warm)
                + " ms of the worker's CPU"
            )
            figures = [Figures(n, [], [], [], []) for n in budgets]
            for position in cases:
                for f in figures:
                    native_ms, wasm_ms, wall_ms, fixed_ms = [], [], [], []
                    for _ in range(repeat):
                        native_ms.append(native_cpu_ms(position, f.iterations))
                        one_cpu, _ = worker_call(page, position, 1)
                        cpu, wall = worker_call(page, position, f.iterations)
                        wasm_ms.append(cpu - one_cpu)
                        wall_ms.append(wall)
                        fixed_ms.append(one_cpu)
                    f.native_ms.append(statistics.median(native_ms))
                    f.wasm_cpu_ms.append(statistics.median(wasm_ms))
                    f.wasm_wall_ms.append(statistics.median(wall_ms))
                    f.fixed_ms.append(statistics.median(fixed_ms))
            played = [
                play_deals(page, level, deals)
                for level, deals in (("normal", normal_deals), ("strong", strong_deals))
                if deals
            ]
        finally:
            browser.close()
    load_after = os.getloadavg()
    report(figures, count, load_before, load_after)
    for p in played:
        print(
            f"{p.level:6} in the worker, {len(p.move_ms)} computer moves: median"
            f" {statistics.median(p.move_ms):.0f} ms of the worker's CPU a move (max"
            f" {max(p.move_ms):.0f}); the C extension makes {p.agree} of its {p.plays} plays"
        )


def report(
    figures: list[Figures],
    count: int,
    load_before: tuple[float, float, float],
    load_after: tuple[float, float, float],
) -> None:
    print(f"the levels' tree, {count} positions of 2-player Scopa, iterations per ms:")
    print(
        f"{'iterations':>10} | {'C extension (CPU)':>17} | {'Chromium worker (CPU)':>21} |"
        f" {'ratio':>5} | {'by position':>11} | {'worker (wall)':>13}"
    )
    for f in figures:
        native_rate, wasm_rate = f.native_rate(), f.wasm_rate()
        each = [c / w for c, w in zip(f.native_ms, f.wasm_cpu_ms, strict=True)]
        print(
            f"{f.iterations:>10,} | {native_rate:>17.1f} | {wasm_rate:>21.1f} |"
            f" {wasm_rate / native_rate:>5.2f} | {min(each):.2f}-{max(each):.2f} |"
            f" {f.wall_rate():>13.1f}"
        )
    fixed = [ms for f in figures for ms in f.fixed_ms]
    print(
        f"a call's fixed part in the worker (the game replayed, the tree set up):"
        f" median {statistics.median(fixed):.1f} ms of CPU"
    )
    print(f"target: ratio >= {TARGET_RATIO:.2f}")
    print("the phone's levels at the worker's rate (the row nearest each level's budget):")
    for name, level in PHONE_LEVELS.items():
        server = LEVELS[name].tree_ms
        held = level.iterations
        if server is None or held is None:
            continue
        near = min(figures, key=lambda f: abs(f.iterations - held))
        rate = near.wasm_rate()
        print(
            f"  {name:6}: the server's {server:g} ms at {rate:.0f} iterations/ms ->"
            f" {rate * server:,.0f} iterations; the level holds {held:,}"
            f" ({held / rate:.1f} ms of the worker's CPU here)"
        )
    print(
        "load average (1, 5, 15 min): before "
        + ", ".join(f"{x:.2f}" for x in load_before)
        + "; after "
        + ", ".join(f"{x:.2f}" for x in load_after)
        + f" ({os.cpu_count()} cores)"
    )


if __name__ == "__main__":
    main()
