"""The kernel's WebAssembly build (``kernel.wasm``, what the phone's worker runs) against the C
extension: the same deals, plays, playouts, rollouts and search trees on the same seeds, in
every variant, through the same interface (run under CPython by wasmtime)."""

from __future__ import annotations

import random
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

from scopa.engine import VARIANTS, apply, deal, legal_plays
from scopa.engine import native as native_module
from scopa.engine.ai import PHONE_LEVELS, SearchPlayer, observe, parse_level
from scopa.engine.ai.inference import Inference
from scopa.engine.ai.ismcts import KernelTree
from scopa.engine.game import Game, level_here
from scopa.engine.native import position, rules, rules_args, wasm
from scopa.engine.native.simulate import _scoring_ready, scoring_tables
from scopa.engine.variants import Variant
from tests.engine.test_ai import greedy_until

CASES = [
    (name, players)
    for name, variant in VARIANTS.items()
    for players in variant.players
    if players <= 4
]


@pytest.fixture(scope="module")
def kernel() -> Kernel:
    built = wasm.wasm_path()
    if not built.is_file():
        if shutil.which("clang") and shutil.which("wasm-ld"):
            pytest.fail("kernel.wasm is not built though clang and lld are here: make setup")
        pytest.skip("kernel.wasm is not built (no clang/lld: scripts/build-wasm.py)")
    data = built.read_bytes()
    k = wasm.Kernel(lambda points: wasm.wasmtime_instance(data, points))
    k.set_scoring(*scoring_tables())
    _scoring_ready()  # the C extension's
    return k


Kernel = wasm.Kernel
LEVELS_HERE = {name: parse_level(name) for name in ("normal", "strong")}


def wasm_rules(kernel: Kernel, variant: Variant) -> Any:
    return kernel.Rules(*rules_args(variant))


def states(name: str, players: int) -> Iterator[Any]:
    """Deals part-played by greedy seats, from the first play to the last round."""
    for seed in range(4):
        state = greedy_until(name, players, seed, 2 + 5 * seed)
        if not state.finished:
            yield seed, state


@pytest.mark.parametrize(("name", "players"), CASES)
def test_deals_plays_and_playouts_agree(kernel: Kernel, name: str, players: int) -> None:
    variant = VARIANTS[name]
    c, w = rules(variant), wasm_rules(kernel, variant)
    for seed in range(6):
        words = native_module.seed_words(seed * 7919 + (seed << 40))
        assert w.deal(players, seed % players, seed=words) == c.deal(
            players, seed % players, seed=words
        )
        codes = tuple((seed + k) % 3 for k in range(players))
        kept = c.play(players, 0, codes, seed=words, keep_state=True)
        assert w.play(players, 0, codes, seed=words, keep_state=True) == kept
        # on from a generator's state, as the engine hands a random.Random over
        assert w.play(players, 1, codes, state=kept[11]) == c.play(
            players, 1, codes, state=kept[11]
        )
    for seed, state in states(name, players):
        for seats in (("random",) * players, ("greedy",) * players, ("mixed",) * players):
            where = position(state, seats)
            extra = {
                "shown": state.shown,
                "matta_as": -1 if state.matta_as is None else state.matta_as,
            }
            assert w.playout(*where, seed=(seed, 3), history=True, **extra) == c.playout(
                *where, seed=(seed, 3), history=True, **extra
            )
            teams = tuple(range(players))
            assert w.rollouts(*where, (seed,), 200, teams, players, **extra) == c.rollouts(
                *where, (seed,), 200, teams, players, **extra
            )
        hand = state.hands[state.turn]
        assert w.plays(hand, state.table) == c.plays(hand, state.table)


@pytest.mark.parametrize(("name", "players"), CASES)
def test_search_trees_agree(
    kernel: Kernel, monkeypatch: pytest.MonkeyPatch, name: str, players: int
) -> None:
    """The same tree, iteration for iteration: its root plays' visits and values, its size
    and the deals it draws, with the others' plays read (inference) and without."""
    variant = VARIANTS[name]
    w = wasm_rules(kernel, variant)
    grown = 0
    for seed, state in states(name, players):
        if len(legal_plays(state)) < 2:
            continue
        k = observe(state, state.turn)
        inference = Inference(k) if players == 2 else None
        trees = []
        for kernel_rules in (rules(variant), w):
            monkeypatch.setattr(native_module, "rules", lambda v, r=kernel_rules: r)
            tree = KernelTree(k, variant.settings, random.Random(seed), inference=inference)
            tree.run(300)
            trees.append(
                (tree.iterations, tree.stats(), tree.size(), tree.kernel.tree_sample(tree.tree))
            )
        monkeypatch.undo()
        assert trees[0] == trees[1]
        assert trees[0][0] == 300
        grown += 1
    assert grown >= 2


def played(name: str, players: int, seed: int, level: str, most: int = 99) -> list[Any]:
    """A deal between search players at the phone's ``level`` (to its end, or its first
    ``most`` plays), on the kernel in use: each play, the plays tried at its root and how
    often (a tree's own account), and the iterations grown."""
    state = deal(VARIANTS[name], players, seed=seed, dealer=seed % players)
    seats = [
        SearchPlayer(random.Random(seed * 10 + seat), PHONE_LEVELS[level])
        for seat in range(players)
    ]
    out: list[Any] = []
    while not state.finished and len(out) < most:
        player = seats[state.turn]
        play = player.choose(state, legal_plays(state))
        out.append((play.pair, tuple(player.visits), player.searched))
        state = apply(state, play)
    return out


@pytest.mark.slow  # strong's 30,000 iterations a move on both builds
@pytest.mark.parametrize(
    ("name", "players", "level", "seeds", "most"),
    [
        ("scopa", 2, "normal", range(3), 99),  # whole deals
        ("scopa", 2, "strong", range(2), 4),  # each deal's first four plays
        ("scopone", 4, "normal", range(1), 99),
        ("cirulla", 2, "normal", range(1), 99),
    ],
)
def test_the_phone_levels_play_as_the_c_extension(
    kernel: Kernel, name: str, players: int, level: str, seeds: range, most: int
) -> None:
    """At the phone's budgets (a number of iterations, not a time) the WebAssembly build
    chooses every play the C extension chooses from the same seeds, after the same tree:
    so the phone's levels measured on the C extension (docs/ai.md) are the phone's own.
    And the phone's game plays its levels so once the kernel is the WebAssembly build."""
    assert level_here(level) == LEVELS_HERE[level]  # the server's, on the C extension
    on_c = [played(name, players, seed, level, most) for seed in seeds]
    try:
        native_module.use_kernel(kernel)
        assert level_here(level) is PHONE_LEVELS[level]
        assert Game(name, players, level, 1).computers[1].level is PHONE_LEVELS[level]
        on_wasm = [played(name, players, seed, level, most) for seed in seeds]
    finally:
        native_module.use_kernel(native_module._extension)
    assert on_wasm == on_c
    trees = [searched for deal_plays in on_c for _, visits, searched in deal_plays if visits]
    assert trees
    assert set(trees) == {PHONE_LEVELS[level].iterations}  # each tree grown to the budget


def test_refusals_say_what_was_wrong(kernel: Kernel) -> None:
    variant = VARIANTS["scopa"]
    w = wasm_rules(kernel, variant)
    state = greedy_until("scopa", 2, 1, 3)
    hands, table, *rest = position(state, ("random", "random"))
    with pytest.raises(ValueError, match="each of the 40 cards once"):
        w.playout(hands, table | hands[0], *rest, seed=(1,))  # a card in a hand and on the table
    with pytest.raises(ValueError, match="disjoint"):
        w.plays(1, 1)

    def broken(key: int) -> float:
        raise ZeroDivisionError(key)

    k = observe(state, state.turn)
    tree = KernelTree(k, variant.settings, random.Random(1))
    args = tree.position(k, random.Random(1))
    from scopa.engine.ai.ismcts import tree_position

    failing = w.tree(
        *tree_position(args), k.seat, (0, 0), (1,), (0, 1), 2, 1.0, 10.0, broken, (), 10,
        shown=args.shown, matta_as=k.matta_as,
    )  # fmt: skip
    with pytest.raises(ZeroDivisionError):
        w.tree_run(failing, 5)
