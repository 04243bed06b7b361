"""Golden figures over fixed seeds, like a chess engine's perft: any change to dealing, the
capture rules, the players' draws or the scoring shows up here."""

from __future__ import annotations

import pytest

from scopa.engine.simulate import Simulation, run_deals, run_matches
from scopa.engine.state import State, apply, deal, legal_plays
from scopa.engine.variants import VARIANTS


def perft(state: State, depth: int) -> int:
    """The number of play sequences of ``depth`` plies from ``state`` (fewer at the end)."""
    if depth == 0 or state.finished:
        return 1
    return sum(perft(apply(state, play), depth - 1) for play in legal_plays(state))


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("scopa", [17, 52, 116, 236]),
        ("assi", [17, 52, 116, 236]),
        ("escoba", [27, 136, 552, 2108]),
        ("scopone", [48, 479, 4651]),
        ("scopone-10", [50, 500, 5000]),
        ("cirulla", [24, 75, 165, 347]),
    ],
)
def test_perft_over_seeds_0_to_4(name: str, expected: list[int]) -> None:
    variant = VARIANTS[name]
    starts = [deal(variant, variant.players[0], seed=seed) for seed in range(5)]
    got = [sum(perft(s, depth) for s in starts) for depth in range(1, len(expected) + 1)]
    assert got == expected


@pytest.mark.parametrize(
    ("name", "totals", "sweeps", "wins"),
    [
        ("scopa", [436, 436], 141, [87, 91]),
        ("scopone", [430, 402], 100, [93, 85]),
        ("scopone-10", [498, 425], 163, [102, 82]),
        ("assi", [559, 555], 153, [88, 91]),
        ("escoba", [416, 406], 83, [85, 90]),
        ("cirulla", [1682, 1668], 1127, [100, 90]),
    ],
)
def test_random_deals_seed_7(name: str, totals: list[int], sweeps: int, wins: list[int]) -> None:
    variant = VARIANTS[name]
    stats = run_deals(Simulation(variant, variant.players[0], seed=7), 0, 200)
    assert (stats.points["total"], stats.sweeps, stats.deal_wins) == (totals, sweeps, wins)


def test_greedy_beats_random() -> None:
    sim = Simulation(VARIANTS["scopa"], 2, ("greedy", "random"), seed=7)
    stats = run_deals(sim, 0, 200)
    assert stats.points["total"] == [655, 252]


def test_matches_seed_7() -> None:
    stats = run_matches(Simulation(VARIANTS["scopa"], 2, seed=7), 0, 5)
    assert (stats.match_wins, stats.match_deals, stats.points["total"]) == ([1, 4], 23, [47, 48])


def test_cirulla_golden() -> None:
    """Cirulla's figures over fixed seeds (the native kernel must make the same plays)."""
    cirulla = VARIANTS["cirulla"]
    deals = run_deals(Simulation(cirulla, 2, seed=7), 0, 200)
    assert (deals.points["declarations"], deals.redeals) == ([604, 464], 8)
    four = run_deals(Simulation(cirulla, 4, seed=7), 0, 100)
    assert (four.points["total"], four.sweeps, four.deal_wins) == ([893, 846], 585, [51, 44])
    matches = run_matches(Simulation(cirulla, 2, seed=7), 0, 5)
    assert (matches.match_wins, matches.match_deals) == ([2, 3], 31)
