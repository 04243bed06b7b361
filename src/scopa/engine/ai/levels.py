"""The search player's levels: a time per move or a number of sampled deals, and how each
sampled deal is judged (``ai:50ms``, ``ai:300it+tree``, the named ``easy``, ``normal`` and
``strong``)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from scopa.errors import ScopaError
from scopa.i18n import N_


class AIOptionError(ScopaError, ValueError):
    """A search player option (level, thinking time) that cannot be used."""


MAX_TREES = 16
"""The most trees a level grows apart (``+trees16``)."""


@dataclass(frozen=True, slots=True)
class Level:
    """How hard the player thinks: a time per move or a fixed number of sampled deals, and
    the leaves (a raw count, before pruning) one sampled deal may be searched to."""

    think_ms: float | None = 200.0
    iterations: int | None = None
    leaves: int = 1600
    playouts: bool = False
    """Judge the root plays of sampled deals by greedy playouts in the native kernel (many
    more deals in the same time) instead of alpha-beta, where the kernel is built."""
    cpu: bool = False
    """Count the thinking time on the thread's CPU clock instead of the wall clock: the same
    strength on a busy machine (a benchmark's choice; people wait for the wall clock)."""
    infer: bool = True
    """Sample the hidden hands by what the others' plays of the round reveal
    (:mod:`~scopa.engine.ai.inference`) instead of uniformly (``+uniform``)."""
    tree: bool = False
    """Grow one search tree over every sampled deal (information-set Monte Carlo tree
    search, :mod:`~scopa.engine.ai.ismcts`, on the deals :attr:`infer` samples) instead of
    judging each sampled deal alone (``+tree``); the exact endgame stays. Where the kernel is
    built the tree grows in C (:class:`~scopa.engine.ai.ismcts.KernelTree`), its iterations
    finished by random playouts, or greedy ones with :attr:`playouts`; without the kernel a
    tree with :attr:`playouts` is not grown (alpha-beta judges the sampled deals)."""
    mixed: bool = False
    """Play the kernel's playouts with the mixed strategy (greedy, a random play one time in
    four: ``+mixed``) instead of all random (a tree) or all greedy (``+playouts``)."""
    tree_ms: float | None = None
    """With :attr:`tree` where the kernel grows the tree: think this long instead of
    :attr:`think_ms` (the named levels: the tree in C grows some 400 iterations a
    millisecond, where the phone's alpha-beta without the kernel searches a few deals)."""
    trees: int = 1
    """With :attr:`tree` where the kernel grows the tree: grow this many trees apart, each
    from its own random stream and for an equal share of the time (or of the iterations), and
    choose by their root visits added up (``+trees4``: root parallelisation, tried at
    200 ms in docs/ai.md, "Four trees at 200 ms")."""
    temperature: float = 0.0
    """0: play the best play. Above 0, choose among the plays at random, each with a weight
    of ``exp(value / temperature)`` (values in expected points): a player that slips, as a
    beginner does, the more the higher (the ``easy`` level)."""

    def __post_init__(self) -> None:
        if self.think_ms is None and self.iterations is None:
            raise AIOptionError(
                N_("the search player needs a thinking time or a number of deals"),
                code="ai.search_player_needs_thinking",
            )
        if self.think_ms is not None and not self.think_ms > 0:
            raise AIOptionError(
                N_("thinking time {think_ms} ms: expected more than 0"),
                code="ai.thinking_time_ms_expected",
                think_ms=self.think_ms,
            )
        if not 1 <= self.trees <= MAX_TREES:
            raise AIOptionError(
                N_("{trees} trees: expected 1 to {most}"),
                code="ai.trees_expected",
                trees=self.trees,
                most=MAX_TREES,
            )
        if self.iterations is not None and self.iterations < 1:
            raise AIOptionError(
                N_("{iterations} sampled deals: expected at least 1"),
                code="ai.sampled_deals_expected_least",
                iterations=self.iterations,
            )


LEVELS: dict[str, Level] = {
    "easy": Level(think_ms=None, iterations=8, leaves=12, temperature=0.6),
    "normal": Level(think_ms=200.0, leaves=1600, playouts=True, tree=True, tree_ms=5.0),
    "strong": Level(think_ms=1000.0, leaves=20_000, playouts=True, tree=True, tree_ms=200.0),
}
"""The named levels (the pages and ``scopa play --level``). ``normal`` and ``strong`` grow
one search tree in the native kernel, finishing each iteration with greedy playouts, where
the kernel is built: ``normal`` for 5 ms a move, ``strong`` for 200 ms, past which the tree
gains nothing (docs/ai.md, Levels: each ahead of the reference at its own time, ``strong``
ahead of ``normal``). On the phone they grow the same tree for a number of iterations
(:data:`PHONE_LEVELS`). Without the kernel they search sampled deals with alpha-beta for 200 ms
and 1 s. ``easy`` looks a play or two ahead."""


PHONE_LEVELS: dict[str, Level] = {
    "easy": LEVELS["easy"],
    "normal": Level(think_ms=None, iterations=500, leaves=1600, playouts=True, tree=True),
    "strong": Level(think_ms=None, iterations=30_000, leaves=1600, playouts=True, tree=True),
}
"""The named levels on the phone, where the kernel is its WebAssembly build: ``normal`` and
``strong`` grow the same tree as on the server for a number of iterations instead of a time,
about what the phone's worker in Chromium grows in the server's 5 ms and 200 ms
(``bench/phone.py``). A count plays as strongly on a slow phone as on a fast one, and the
same plays as the C extension at the same count (``tests/native/test_wasm.py``), which is how
the levels' strength on the phone is measured (docs/ai.md, "On the phone")."""


def leaves_for(think_ms: float) -> int:
    """The leaves of one sampled deal's search for a thinking time: a short time searches
    shallower, so that it still averages over enough deals.

    >>> leaves_for(20), leaves_for(200), leaves_for(5000)
    (160, 1600, 20000)
    """
    return max(60, min(20_000, int(think_ms * LEAVES_PER_MS)))


LEAVES_PER_MS = 8


def parse_level(spec: str) -> Level:
    """A level from its text: a name (``easy``), milliseconds (``50`` or ``50ms``) or a
    number of sampled deals (``300it``), optionally with the leaves of each deal's search
    (``50ms/800``). A time in ``cpu`` (``200cpu``) is counted on the CPU clock.

    >>> parse_level("50ms").think_ms, parse_level("300it").iterations, parse_level("easy").leaves
    (50.0, 300, 12)
    >>> parse_level("200cpu+playouts").cpu, parse_level("200ms").cpu
    (True, False)
    >>> parse_level("10it/500").leaves, parse_level("50ms").leaves
    (500, 400)
    """
    text, _, leaves = spec.strip().lower().partition("/")
    text, *flags = text.split("+")
    playouts = any(f in ("playouts", "p") for f in flags)
    infer = not any(f in ("uniform", "u") for f in flags)
    tree = any(f in ("tree", "t") for f in flags)
    mixed = any(f in ("mixed", "m") for f in flags)
    counts = [f.removeprefix("trees") for f in flags if f.startswith("trees")]
    trees = int(counts[-1]) if counts and counts[-1].isdigit() else 1
    tree = tree or trees > 1
    known = ("playouts", "p", "uniform", "u", "tree", "t", "mixed", "m")
    if any(f not in known and not f.startswith("trees") for f in flags) or (
        counts and not 2 <= trees <= MAX_TREES
    ):
        text = "?"
    if not text:
        return Level(infer=infer, tree=tree, mixed=mixed, trees=trees)
    if text in LEVELS and not leaves:
        named = LEVELS[text]
        return dataclasses.replace(
            named,
            playouts=named.playouts or playouts,
            infer=infer,
            tree=named.tree or tree,
            mixed=named.mixed or mixed,
            trees=trees if counts else named.trees,
        )
    try:
        if text.endswith("it"):
            iterations = int(text[:-2])
            return Level(
                None,
                iterations,
                int(leaves or 1600),
                playouts,
                infer=infer,
                tree=tree,
                mixed=mixed,
                trees=trees,
            )
        cpu = text.endswith("cpu")
        think = float(text.removesuffix("cpu") if cpu else text.removesuffix("ms"))
        depth = int(leaves) if leaves else leaves_for(think)
        return Level(think, None, depth, playouts, cpu, infer, tree, mixed, trees=trees)
    except ValueError:
        raise AIOptionError(
            N_(
                "ai level {spec!r}: expected easy, normal, strong, a time (50ms, or 50cpu on "
                "the CPU clock) or deals (300it), optionally /LEAVES, +playouts for the "
                "kernel's greedy playouts and +uniform for hidden hands sampled uniformly, "
                "+tree for one search tree over the sampled deals, +trees4 for 2 to 16 trees "
                "grown apart, +mixed for playouts mostly greedy"
            ),
            code="ai.ai_level_expected_easy",
            spec=spec,
        ) from None
