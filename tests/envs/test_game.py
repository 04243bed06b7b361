"""The environments' game plays exactly as the engine: same states, same points."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from scopa.engine import VARIANTS, apply, deal
from scopa.engine.simulate import Scorer, Simulation
from scopa.engine.state import to_deal
from scopa.errors import IllegalPlayError

pytest.importorskip("numpy", reason="the rl extra (pip install 'scopa[rl]') is not installed")

from scopa.envs.game import ACTIONS, SLOTS, Game


@pytest.mark.parametrize(
    ("name", "players"), [("scopa", 2), ("scopa", 6), ("scopone", 4), ("assi", 3), ("escoba", 2)]
)
def test_game_follows_the_engine(name: str, players: int) -> None:
    variant = VARIANTS[name]
    chooser = random.Random(1)
    for seed in range(30):
        game = Game(variant, players)
        game.deal(random.Random(seed), dealer=seed % players)
        state = deal(variant, players, dealer=seed % players, rng=random.Random(seed))
        while not game.over:
            assert (tuple(game.hands), game.table, game.turn) == (
                state.hands,
                state.table,
                state.turn,
            )
            action = chooser.choice(sorted(game.legal()))
            state = apply(state, game.legal()[action])
            game.play(action)
        assert state.finished
        assert (tuple(game.piles), tuple(game.sweeps)) == (state.piles, state.sweeps)
        scorer = Scorer(Simulation(variant, players))
        expected = tuple(p.total for p in scorer.points(to_deal(state, scorer.names)))
        assert game.points() == expected


def test_actions_are_card_and_slot() -> None:
    game = Game(VARIANTS["scopa"], 2)
    game.deal(random.Random(3), dealer=1)
    for action, (card, capture) in game.legal().items():
        assert 0 <= action < ACTIONS
        assert action // SLOTS == card
        assert (action % SLOTS == 0) == (capture == 0)
    with pytest.raises(IllegalPlayError, match="is not a legal play"):
        game.play(ACTIONS - 1)


def test_core_install_does_not_import_the_frameworks() -> None:
    code = (
        "import sys, scopa.cli, scopa.envs, scopa.engine.simulate, scopa.native;"
        "loaded = [m for m in ('numpy', 'gymnasium', 'pettingzoo') if m in sys.modules];"
        "print(loaded)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
