"""A search player's rollouts in C give the Python engine's figures."""

from __future__ import annotations

import random

import pytest

from scopa.engine import VARIANTS, apply, deal, legal_plays
from scopa.engine.players import play_out_random
from scopa.engine.simulate import deal_seed
from scopa.engine.state import seat_names, to_deal
from scopa.match import Match
from scopa.native.rollouts import rollout_points


@pytest.mark.parametrize(
    ("name", "players", "steps"),
    [
        ("scopa", 2, 0),
        ("scopa", 4, 7),
        ("scopone", 4, 12),
        ("assi", 3, 5),
        ("escoba", 2, 9),
        ("cirulla", 2, 4),
        ("cirulla", 4, 3),
    ],
)
def test_mean_points_as_python(name: str, players: int, steps: int) -> None:
    variant = VARIANTS[name]
    state = deal(variant, players, seed=21)
    chooser = random.Random(3)
    for _ in range(steps):
        state = apply(state, chooser.choice(legal_plays(state)))
    count = 150
    match = Match(players=seat_names(players), settings=variant.settings_for(players))
    sums = [0] * len(match.sides)
    for k in range(count):
        finished = play_out_random(state, random.Random(deal_seed(77, k)))
        for i, p in enumerate(match.points(to_deal(finished, match.players))):
            sums[i] += p.total
    assert rollout_points(state, 77, count) == tuple(s / count for s in sums)


def test_bad_count() -> None:
    with pytest.raises(ValueError, match="count: 0 playouts"):
        rollout_points(deal(VARIANTS["scopa"], 2, seed=1), 1, 0)
