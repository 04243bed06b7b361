"""The native kernel built to WebAssembly, with the C extension's interface.

``kernel.wasm`` (built from ``wasm.c`` over the same headers as ``_kernel.c``, by
``scripts/build-wasm.py``) is what the phone's worker runs: Pyodide cannot load a C extension
built for the server. :class:`Kernel` wraps a running instance of it so that
``scopa.engine.native`` and the AI call it as they call ``_kernel``: ``Kernel.Rules`` deals,
lists plays, plays out, runs rollouts and grows the search tree, ``Kernel.set_scoring`` takes
the scorer's tables. The same seeds give the same deals, plays and trees as the C extension's.

The instance is anything with :class:`Instance`'s three methods: :func:`pyodide_instance` in the
worker, or wasmtime's (:func:`wasmtime_instance`, where the ``wasmtime`` package is installed:
the tests and ``bench/wasm.py`` check the build against the C extension with it).
"""

from __future__ import annotations

import math
import struct
import weakref
from collections.abc import Callable, Sequence
from importlib import resources
from typing import TYPE_CHECKING, Any, Final, Protocol

if TYPE_CHECKING:
    from scopa.engine.native._kernel import Position

MASK = (1 << 64) - 1
MT_WORDS = 624
POSITION_FIELDS: Final = 11
"""The fields of a position (``_kernel.Position``): ``playout`` and ``rollouts`` take them first."""
WASM_NAME = "kernel.wasm"


class KernelError(RuntimeError):
    """The WebAssembly kernel refused a call (the C extension's ``KernelError``)."""


class Instance(Protocol):
    """A running ``kernel.wasm``: its exports called by name, its memory read and written."""

    def call(self, name: str, *args: int) -> Any: ...

    def read(self, address: int, size: int) -> bytes: ...

    def write(self, address: int, data: bytes) -> None: ...


Points = Callable[[int, int], float]
"""The import ``env.points(scorer, key)``: a tree's scorer's points for a packed key."""


def wasm_path() -> Any:
    """Where the package keeps ``kernel.wasm`` (a Traversable: it may not be built)."""
    return resources.files("scopa.engine.native").joinpath(WASM_NAME)


def wasmtime_instance(wasm: bytes, points: Points) -> Instance:
    """``wasm`` instantiated by wasmtime (CPython: tests and benches)."""
    import wasmtime

    engine = wasmtime.Engine()
    store = wasmtime.Store(engine)
    module = wasmtime.Module(engine, wasm)
    points_type = wasmtime.FuncType(
        [wasmtime.ValType.i32(), wasmtime.ValType.i64()], [wasmtime.ValType.f64()]
    )
    instance = wasmtime.Instance(store, module, [wasmtime.Func(store, points_type, points)])
    exports = instance.exports(store)
    memory = exports["memory"]
    if not isinstance(memory, wasmtime.Memory):
        raise TypeError("kernel.wasm exports no memory")
    heap: wasmtime.Memory = memory

    class Wasmtime:
        def call(self, name: str, *args: int) -> Any:
            function = exports[name]
            if not isinstance(function, wasmtime.Func):
                raise TypeError(f"kernel.wasm: {name} is not a function")
            return function(store, *args)

        def read(self, address: int, size: int) -> bytes:
            return bytes(heap.read(store, address, address + size))

        def write(self, address: int, data: bytes) -> None:
            heap.write(store, data, address)

    return Wasmtime()


def pyodide_instance(module: Any, points: Points) -> Instance:  # pragma: no cover - Pyodide
    """A ``WebAssembly.Module`` (compiled by the worker) instantiated in Pyodide."""
    import js  # type: ignore[import-not-found]
    from pyodide.ffi import create_proxy, to_js  # type: ignore[import-not-found]

    imports = to_js({"env": {"points": create_proxy(points)}}, dict_converter=js.Object.fromEntries)
    instance = js.WebAssembly.Instance.new(module, imports)
    exports = instance.exports

    class Pyodide:
        def call(self, name: str, *args: int) -> Any:
            return getattr(exports, name)(*args)

        def read(self, address: int, size: int) -> bytes:
            view = js.Uint8Array.new(exports.memory.buffer, address, size)
            return bytes(view.to_bytes())

        def write(self, address: int, data: bytes) -> None:
            js.Uint8Array.new(exports.memory.buffer, address, len(data)).assign(data)

    return Pyodide()


def pyodide_loader() -> Callable[[Points], Instance]:  # pragma: no cover - Pyodide
    """The package's ``kernel.wasm`` compiled in Pyodide (the phone's worker), to instantiate."""
    import js
    from pyodide.ffi import to_js

    module = js.WebAssembly.Module.new(to_js(wasm_path().read_bytes()))
    return lambda points: pyodide_instance(module, points)


def _signed(word: int) -> int:
    return word - (1 << 64) if word >> 63 else word


def _opt(word: int) -> int | None:
    value = _signed(word)
    return None if value < 0 else value


def _bits(value: float) -> int:
    return int(struct.unpack("<Q", struct.pack("<d", value))[0])


def _float(word: int) -> float:
    return float(struct.unpack("<d", struct.pack("<Q", word))[0])


class _Reader:
    def __init__(self, words: Sequence[int]) -> None:
        self.words = words
        self.at = 0

    def word(self) -> int:
        self.at += 1
        return self.words[self.at - 1]

    def many(self, n: int) -> tuple[int, ...]:
        self.at += n
        return tuple(self.words[self.at - n : self.at])

    def ints(self, n: int) -> tuple[int, ...]:
        return tuple(_signed(w) for w in self.many(n))


class Tree:
    """One search tree in the instance's memory (freed with this object)."""

    def __init__(self, kernel: Kernel, address: int, scorer: int) -> None:
        self.address = address
        self._finalizer = weakref.finalize(self, kernel._free_tree, address, scorer)


class Kernel:
    """The C extension's module (``_kernel``) over a WebAssembly instance of the kernel.

    ``Kernel(make)`` instantiates it with ``make(points)`` (:func:`wasmtime_instance`,
    :func:`pyodide_instance` with the wasm bound); ``Kernel.Rules`` is then the extension's
    ``Rules`` and ``Kernel.set_scoring`` its ``set_scoring``.
    """

    KernelError = KernelError

    def __init__(self, make: Callable[[Points], Instance]) -> None:
        self._scorers: dict[int, Callable[[int], float]] = {}
        self._next_scorer = 1
        self._failure: BaseException | None = None
        self.instance = make(self._points)
        self.instance.call("_initialize")
        self.instance.call("k_init")
        kernel = self

        class Rules(_Rules):
            def __init__(self, *args: Any) -> None:
                super().__init__(kernel, *args)

        self.Rules = Rules

    def _points(self, scorer: int, key: int) -> float:
        try:
            return float(self._scorers[scorer](key & MASK))
        except BaseException as error:  # handed back by the call that asked (tree_run)
            self._failure = error
            return math.nan

    def _free_tree(self, address: int, scorer: int) -> None:
        self.instance.call("k_tree_free", address)
        self._scorers.pop(scorer, None)

    def call(self, name: str, words: Sequence[int], *args: int) -> list[int]:
        """Write ``words`` to the input buffer, call ``name(*args)``, read its answer's words
        (KernelError, ValueError or MemoryError when it refuses)."""
        self.send(words)
        count = self.instance.call(name, *args)
        return self.answer(count)

    def send(self, words: Sequence[int]) -> None:
        address = self.instance.call("k_in", len(words)) & 0xFFFFFFFF
        if not address and words:
            raise MemoryError("the WebAssembly kernel has no memory left")
        data = struct.pack(f"<{len(words)}Q", *(w & MASK for w in words))
        self.instance.write(address, data)

    def answer(self, count: int) -> list[int]:
        if count < 0:
            self.refused()
        address = self.instance.call("k_out") & 0xFFFFFFFF
        return list(struct.unpack(f"<{count}Q", self.instance.read(address, 8 * count)))

    def refused(self) -> None:
        failure, self._failure = self._failure, None
        if failure is not None:
            raise failure
        address = self.instance.call("k_error") & 0xFFFFFFFF
        text = self.instance.read(address, 200).split(b"\0")[0].decode()
        if text == "no memory":
            raise MemoryError("the WebAssembly kernel has no memory left")
        if "set_scoring" in text:
            raise KernelError(text)
        raise ValueError(text)

    def set_scoring(
        self,
        coin_bits: Sequence[int],
        best_primiera: Sequence[int],
        best_rank: Sequence[int],
        primiera_values: Sequence[int],
        constants: Sequence[int],
        /,
    ) -> None:
        self.call(
            "k_set_scoring",
            [*coin_bits, *best_primiera, *best_rank, *primiera_values, *constants],
        )

    def new_scorer(self, scorer: Callable[[int], float]) -> int:
        number = self._next_scorer
        self._next_scorer += 1
        self._scorers[number] = scorer
        return number


def _rng(seed: Sequence[int] | None, state: tuple[Sequence[int], int] | None) -> list[int]:
    if state is not None:
        words, index = state
        if len(words) != MT_WORDS:
            raise ValueError("state: 624 words")
        return [1, *words, index]
    if seed is None or not seed:
        raise ValueError("seed: at least one word")
    return [0, len(seed), *seed]


def _position(position: Sequence[Any], shown: int, matta_as: int) -> list[int]:
    """A deal in progress (``_kernel.Position``: hands, table, stock, piles, sweeps, turn,
    last, dealer, strategies, ace_sweeps, cleared) as the kernel's input words."""
    if len(position) != POSITION_FIELDS:
        raise TypeError("a position is the 11 fields of _kernel.Position")
    hands, table, stock, piles, sweeps, turn, last, dealer, strategies, ace_sweeps, cleared = (
        position
    )
    n = len(hands)
    if len(piles) != n or len(sweeps) != n or len(strategies) != n:
        raise ValueError("one pile, sweep and strategy per seat")
    return [
        n,
        *hands,
        table,
        len(stock),
        *stock,
        *piles,
        *sweeps,
        turn,
        -1 if last is None else last,
        dealer,
        len(ace_sweeps),
        *ace_sweeps,
        -1 if cleared is None else cleared,
        shown,
        matta_as,
        *strategies,
    ]


class _Rules:
    """The C extension's ``Rules`` (see ``_kernel.pyi``) over the instance."""

    def __init__(self, kernel: Kernel, *args: Any) -> None:
        if len(args) != 18:
            raise TypeError("Rules takes the 18 fields of _kernel.Rules")
        packets = tuple(args[11])
        flags = [*args[:11], *args[12:]]
        self.kernel = kernel
        kernel.send([*flags, len(packets), *packets])
        address = kernel.instance.call("k_rules_new") & 0xFFFFFFFF
        if not address:
            kernel.refused()
        self.address = address
        self._finalizer = weakref.finalize(self, kernel.instance.call, "k_rules_free", address)

    def _game(self, words: list[int], history: bool) -> tuple[Any, ...]:
        r = _Reader(words)
        n = r.word()
        hands = r.many(n)
        table = r.word()
        stock = r.many(r.word())
        piles = r.many(n)
        sweeps = r.ints(n)
        last, leftovers_to = _opt(r.word()), _opt(r.word())
        turn = r.word()
        plays = r.word()
        played = [(r.word(), r.word()) for _ in range(plays)]
        redeals, dealer = r.word(), r.word()
        state = (r.many(MT_WORDS), r.word()) if r.word() else None
        ace_sweeps = r.ints(n)
        cleared = _opt(r.word())
        declared = tuple(r.many(r.word()) for _ in range(n))
        return (
            hands,
            table,
            stock,
            piles,
            sweeps,
            last,
            leftovers_to,
            turn,
            played if history else None,
            redeals,
            dealer,
            state,
            ace_sweeps,
            cleared,
            declared,
        )

    def plays(self, hand: int, table: int, /) -> list[tuple[int, int]]:
        words = self.kernel.call("k_plays", [hand, table], self.address)
        return list(zip(words[::2], words[1::2], strict=True))

    def deal(
        self,
        players: int,
        dealer: int,
        seed: Sequence[int] | None = None,
        state: tuple[Sequence[int], int] | None = None,
        keep_state: bool = False,
    ) -> tuple[Any, ...]:
        words = [players, dealer, *_rng(seed, state), int(keep_state)]
        return self._game(self.kernel.call("k_deal", words, self.address), False)

    def play(
        self,
        players: int,
        dealer: int,
        strategies: Sequence[int],
        seed: Sequence[int] | None = None,
        state: tuple[Sequence[int], int] | None = None,
        history: bool = True,
        keep_state: bool = False,
    ) -> tuple[Any, ...]:
        if len(strategies) != players:
            raise ValueError(f"strategies: {len(strategies)} for {players} seats")
        words = [players, dealer, *strategies, *_rng(seed, state), int(history), int(keep_state)]
        return self._game(self.kernel.call("k_play", words, self.address), history)

    def playout(
        self,
        *position: *Position,
        seed: Sequence[int] | None = None,
        state: tuple[Sequence[int], int] | None = None,
        history: bool = False,
        keep_state: bool = False,
        shown: int = 0,
        matta_as: int = -1,
    ) -> tuple[Any, ...]:
        game = _position(position, shown, matta_as)
        words = [*game, *_rng(seed, state), int(history), int(keep_state)]
        return self._game(self.kernel.call("k_playout", words, self.address), history)

    def rollouts(
        self,
        # the position, then the seed's prefix, the count, each seat's side, the sides
        *args: *tuple[*Position, Sequence[int], int, Sequence[int], int],
        shown: int = 0,
        matta_as: int = -1,
    ) -> dict[tuple[tuple[int, ...], int], int]:
        if len(args) != POSITION_FIELDS + 4:
            raise TypeError("rollouts takes a position, the seed's prefix, count, team_of, sides")
        game = _position(args[:POSITION_FIELDS], shown, matta_as)
        hands, (prefix, count, team_of, sides) = args[0], args[POSITION_FIELDS:]
        if len(team_of) != len(hands):
            raise ValueError("team_of: a side below `sides` for each seat")
        words = [*game, len(prefix), *prefix, count, *team_of, sides]
        out = self.kernel.call("k_rollouts", words, self.address)
        r = _Reader(out)
        tallies: dict[tuple[tuple[int, ...], int], int] = {}
        while r.at < len(out):
            keys = r.many(sides)
            leader = _signed(r.word())
            tallies[(keys, leader)] = r.word()
        return tallies

    def tree(
        self,
        hands: Sequence[int],
        table: int,
        stock: Sequence[int],
        piles: Sequence[int],
        sweeps: Sequence[int],
        turn: int,
        last: int | None,
        dealer: int,
        ace_sweeps: Sequence[int],
        cleared: int | None,
        seat: int,
        strategies: Sequence[int],
        seed: Sequence[int],
        team_of: Sequence[int],
        sides: int,
        exploration: float,
        scale: float,
        scorer: Callable[[int], float],
        decisions: Sequence[tuple[int, int, float, Sequence[float]]],
        tries: int,
        shown: int = 0,
        matta_as: int = -1,
        endgame: int = 0,
        round_only: bool = False,
    ) -> Tree:
        if not callable(scorer):
            raise TypeError("scorer: a callable from a packed key to points")
        if len(team_of) != len(hands):
            raise ValueError("team_of: a side below `sides` for each seat")
        position = (hands, table, stock, piles, sweeps, turn, last, dealer, strategies,
                    ace_sweeps, cleared)  # fmt: skip
        game = _position(position, shown, matta_as)
        rows: list[int] = []
        for row_seat, later, fewest, odds in decisions:
            if len(odds) != 40:
                raise ValueError("decisions: (seat, later, fewest, 40 odds)")
            rows += [row_seat, later, _bits(fewest), *(_bits(float(v)) for v in odds)]
        words = [
            *game,
            seat,
            *_rng(seed, None),
            *team_of,
            sides,
            _bits(exploration),
            _bits(scale),
            tries,
            endgame,
            int(round_only),
            len(decisions),
            *rows,
        ]
        number = self.kernel.new_scorer(scorer)
        self.kernel.send(words)
        address = self.kernel.instance.call("k_tree_new", self.address, number) & 0xFFFFFFFF
        if not address:
            self.kernel._scorers.pop(number)
            self.kernel.refused()
        return Tree(self.kernel, address, number)

    def tree_run(self, tree: Tree, count: int, /) -> int:
        count_words = self.kernel.instance.call("k_tree_run", tree.address, count)
        return self.kernel.answer(count_words)[0]

    def tree_sample(self, tree: Tree, /) -> tuple[tuple[int, ...], tuple[int, ...]]:
        words = self.kernel.answer(self.kernel.instance.call("k_tree_sample", tree.address))
        r = _Reader(words)
        hands = r.many(r.word())
        return hands, r.many(r.word())

    def tree_size(self, tree: Tree, /) -> int:
        return int(self.kernel.instance.call("k_tree_size", tree.address))

    def tree_stats(self, tree: Tree, /) -> list[tuple[tuple[int, int], int, float]]:
        words = self.kernel.answer(self.kernel.instance.call("k_tree_stats", tree.address))
        return [
            ((words[k], words[k + 1]), words[k + 2], _float(words[k + 3]))
            for k in range(0, len(words), 4)
        ]
