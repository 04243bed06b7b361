"""The native kernel: the engine's playout in C, with the same results as the Python engine.

The C extension ``scopa.engine.native._kernel`` deals, lists legal plays, plays deals out with
``random`` or ``greedy`` seats and works out the scorer's facts, drawing from CPython's own
generator (MT19937, ``random()``, ``shuffle``) number for number. So for the same seed the
kernel makes the same plays as :mod:`scopa.engine`, only some 30 times faster.

It is built by the normal install wherever a C compiler is present; :data:`AVAILABLE` says
whether it was, and :data:`REASON` why not.

>>> from scopa.engine import VARIANTS, deal
>>> from scopa.engine.players import play_out_random
>>> import random
>>> state = deal(VARIANTS["scopa"], 2, seed=9)
>>> not AVAILABLE or playout(state, 4) == play_out_random(state, random.Random(4))
True
"""

from __future__ import annotations

import importlib
import random
import sys
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, Literal

from scopa.engine.state import State
from scopa.engine.variants import Variant
from scopa.errors import ScopaError
from scopa.i18n import N_

if TYPE_CHECKING:
    from scopa.engine.native._kernel import Position, Rules

_kernel: Any = None
"""The kernel's module: the C extension, or its WebAssembly build once instantiated."""
try:
    _extension = importlib.import_module("scopa.engine.native._kernel")
except ImportError as error:  # pragma: no cover - only where no compiler was found
    AVAILABLE = False
    WHY = str(error)
    if sys.platform == "emscripten":  # the phone's worker: the WebAssembly build, if shipped
        from scopa.engine.native.wasm import wasm_path

        AVAILABLE = wasm_path().is_file()
        WHY = "" if AVAILABLE else "kernel.wasm is not in this package"
    REASON = f"the native kernel is not built ({WHY})" if WHY else ""
else:
    _kernel = _extension
    AVAILABLE = True
    WHY = REASON = ""

Engine = Literal["native", "python"]
ENGINES: tuple[str, ...] = ("native", "python")
STRATEGIES: dict[str, int] = {"random": 0, "greedy": 1, "mixed": 2}
"""The strategies the kernel plays itself (others run in the Python engine)."""
NATIVE_CAPTURES = ("scopa", "fifteen", "cirulla")
"""The capture rules the kernel plays: all of the engine's."""
KINDS = {1: "cirulla", 2: "decino"}
"""Cirulla's declarations as the kernel numbers them."""
MAX_SEED_WORDS = 5
"""Seeds up to 2**160: the kernel takes the generator's key (the seed's 32-bit words)."""


class NativeUnavailableError(ScopaError, RuntimeError):
    """The native kernel was asked for where it is not built."""


def seed_words(seed: int) -> tuple[int, ...]:
    """The key CPython seeds ``random.Random(seed)`` with: the 32-bit words of ``abs(seed)``.

    >>> seed_words(0), seed_words(5), seed_words((3 << 32) ^ 7)
    ((0,), (5,), (7, 3))
    """
    seed = abs(seed)
    words = []
    while seed:
        words.append(seed & 0xFFFFFFFF)
        seed >>= 32
    return tuple(words) or (0,)


def choose(engine: str | None) -> Engine:
    """The engine to run: ``native`` where built unless ``python`` is asked for.

    >>> choose("python")
    'python'
    >>> choose("fortran")
    Traceback (most recent call last):
    ...
    scopa.errors.InputError: --engine: 'fortran' is not an engine (native or python)
    """
    from scopa.errors import InputError

    if engine is not None and engine not in ENGINES:
        raise InputError(
            "--engine",
            N_("{engine!r} is not an engine (native or python)"),
            code="engine.not_engine",
            engine=engine,
        )
    if engine == "python" or not AVAILABLE:
        return "python"
    return "native"


def plays_natively(
    strategies: Sequence[str], seed: int = 0, variant: Variant | None = None
) -> bool:
    """Whether the kernel can play these seats (built-in strategies, a seed it takes) of this
    variant (all of the engine's)."""
    return (
        AVAILABLE
        and all(s in STRATEGIES for s in strategies)
        and len(seed_words(seed)) <= MAX_SEED_WORDS
        and (variant is None or variant.capture in NATIVE_CAPTURES)
    )


def rules_args(variant: Variant) -> tuple[int | tuple[int, ...], ...]:
    """The fields the kernel's ``Rules`` takes for a variant (the C extension's and the
    WebAssembly build's alike)."""
    return (
        int(variant.capture == "fifteen"),
        int(variant.sum_choice == "fewest"),
        int(variant.ace_takes_all),
        int(variant.ace_sweep),
        int(variant.capture_optional),
        int(variant.dealer_sweeps),
        int(variant.last_play_sweep),
        int(variant.sheet == "scopone"),
        int(variant.kings_redeal),
        variant.hand_size,
        variant.table_size,
        variant.packets,
        int(variant.capture == "cirulla"),
        int(variant.low_table),
        int(variant.aces_redeal),
        int(variant.matta_play == "declared"),
        variant.settings.cirulla_points,
        variant.settings.decino_points,
    )


@cache
def rules(variant: Variant) -> Rules:
    """The kernel's (cached) rules object for a variant."""
    if not AVAILABLE:
        raise NativeUnavailableError(REASON)
    if variant.capture not in NATIVE_CAPTURES:
        raise NativeUnavailableError(
            N_("the native kernel does not play {name} yet"),
            code="native.native_kernel_does_not",
            name=variant.name,
        )
    return kernel().Rules(*rules_args(variant))  # type: ignore[no-any-return]


def kernel() -> Any:
    """The kernel's module (``Rules``, ``set_scoring``): the C extension, or in the phone's
    worker the WebAssembly build, instantiated on first use (so after the worker's memory
    snapshot, which may hold no JavaScript object)."""
    global _kernel
    if _kernel is None:
        if not AVAILABLE:
            raise NativeUnavailableError(REASON)
        from scopa.engine.native import wasm  # pragma: no cover - the phone's worker

        _kernel = wasm.Kernel(wasm.pyodide_loader())  # pragma: no cover
    return _kernel


def webassembly() -> bool:
    """Whether the kernel in use is its WebAssembly build (:mod:`scopa.engine.native.wasm`:
    the phone's worker, or :func:`use_kernel` under wasmtime), instantiated if need be."""
    if not AVAILABLE:
        return False
    from scopa.engine.native.wasm import Kernel

    return isinstance(kernel(), Kernel)


def use_kernel(module: object) -> None:
    """Play on ``module``, a module with the C extension's interface: the WebAssembly build
    (:class:`scopa.engine.native.wasm.Kernel`, under wasmtime: ``bench/wasm.py`` plays the
    phone's levels on it). :data:`AVAILABLE` is then true and the AI's levels grow its tree."""
    global _kernel, AVAILABLE, REASON
    _kernel = module
    AVAILABLE, REASON = True, ""
    rules.cache_clear()  # the scorer's tables follow the kernel (simulate._scoring_ready)


def legal_pairs(variant: Variant, hand: int, table: int) -> list[tuple[int, int]]:
    """The legal plays of ``hand`` on ``table`` as (card index, capture mask), in the
    engine's order (the same list as ``rules_for(variant).plays``)."""
    return rules(variant).plays(hand, table)


def _codes(strategies: Sequence[str]) -> tuple[int, ...]:
    return tuple(STRATEGIES[s] for s in strategies)


def play(
    variant: Variant, players: int, seed: int, dealer: int, strategies: Sequence[str]
) -> State:
    """Deal from ``random.Random(seed)`` and play to the end, one strategy per seat: the
    state :meth:`scopa.engine.simulate.Simulation.play` gives, worked out in C."""
    variant.check_players(players)
    out = rules(variant).play(players, dealer, _codes(strategies), seed=seed_words(seed))
    return _finished(variant, seed, out)


def playout(state: State, rng: int | random.Random, strategies: Sequence[str] = ()) -> State:
    """Play ``state`` to the end: random seats (or ``strategies``, one per seat) drawing from
    ``random.Random(rng)`` or from ``rng`` itself (left where the Python engine leaves it).

    ``playout(state, random.Random(5))`` equals ``play_out_random(state, random.Random(5))``;
    an int seed saves copying the generator's state in and out (a search player's rollouts).
    """
    if state.finished:
        return state
    seats = tuple(strategies) or ("random",) * state.players
    generator = None
    seed: tuple[int, ...] | None = None
    mt: tuple[tuple[int, ...], int] | None = None
    if isinstance(rng, random.Random):
        generator = rng
        version, words, gauss = rng.getstate()
        mt = (words[:624], words[624])
    else:
        seed = seed_words(rng)
    out = rules(state.variant).playout(
        *position(state, seats),
        seed=seed,
        state=mt,
        history=True,
        keep_state=generator is not None,
        shown=state.shown,
        matta_as=-1 if state.matta_as is None else state.matta_as,
    )
    if generator is not None:
        words_after, index = out[11]
        generator.setstate((version, (*words_after, index), gauss))
    return _finished(
        state.variant, state.seed, out, state.history, state.redeals, state.declarations
    )


def position(state: State, strategies: Sequence[str]) -> Position:
    """``state`` as the kernel's ``playout`` and ``rollouts`` take it, one strategy a seat."""
    return (
        state.hands,
        state.table,
        state.stock,
        state.piles,
        state.sweeps,
        state.turn,
        state.last_capturer,
        state.dealer,
        _codes(strategies),
        state.ace_sweeps,
        state.last_play_cleared,
    )


def _finished(
    variant: Variant,
    seed: int | None,
    out: tuple,  # type: ignore[type-arg]
    before: tuple[tuple[int, int], ...] = (),
    redeals: int | None = None,
    declared: tuple[tuple[str, ...], ...] = (),
) -> State:
    hands, _, stock, piles, sweeps, last, leftovers_to, turn, history = out[:9]
    dealt_again, dealer, _, ace_sweeps, cleared, kinds = out[9:15]
    declarations: tuple[tuple[str, ...], ...] = ()
    if variant.capture == "cirulla":
        earlier = declared or ((),) * len(kinds)
        declarations = tuple(
            (*mine, *(KINDS[k] for k in new)) for mine, new in zip(earlier, kinds, strict=True)
        )
    return State(
        variant=variant,
        dealer=dealer,
        hands=hands,
        table=0,
        stock=stock,
        piles=piles,
        sweeps=sweeps,
        turn=turn,
        last_capturer=last,
        history=(*before, *history),
        leftovers_to=leftovers_to,
        seed=seed,
        redeals=dealt_again if redeals is None else redeals,
        ace_sweeps=ace_sweeps if any(ace_sweeps) else (),
        last_play_cleared=cleared,
        declarations=declarations,
    )
