"""Many random playouts of one state in C, scored: what a search player's rollouts need.

>>> from scopa.engine import VARIANTS, deal
>>> state = deal(VARIANTS["scopa"], 2, seed=4)
>>> means = rollout_points(state, seed=1, count=200)
>>> len(means), 0 < sum(means) < 11
(2, True)
"""

from __future__ import annotations

from collections.abc import Sequence

from scopa.engine.native import position, rules
from scopa.engine.native.simulate import _scoring_ready, prefix
from scopa.engine.state import State, seat_names
from scopa.match import Match
from scopa.scoring import points_table


def rollout_points(
    state: State, seed: int, count: int, strategies: Sequence[str] = ()
) -> tuple[float, ...]:
    """The mean points per scoring side (partners pooled as the variant's sheet pools them)
    over ``count`` playouts of ``state``, playout ``k`` drawing from
    ``random.Random(deal_seed(seed, k))`` with ``random`` seats (or ``strategies``): the same
    figures as the Python engine's ``play_out_random`` and the one scorer give."""
    if count < 1:
        raise ValueError(f"count: {count} playouts (at least 1)")
    _scoring_ready()
    n = state.players
    match = Match(players=seat_names(n), settings=state.variant.settings_for(n))
    teams = match.team_members()
    direct = match.sides == match.players
    team_of = tuple(
        k if direct else next(t for t, team in enumerate(teams) if name in team)
        for k, name in enumerate(match.players)
    )
    seats = tuple(strategies) or ("random",) * n
    tallies = rules(state.variant).rollouts(
        *position(state, seats),
        prefix(seed),
        count,
        team_of,
        len(match.sides),
        shown=state.shown,
        matta_as=-1 if state.matta_as is None else state.matta_as,
    )
    table = points_table(match.settings)
    sums = [0] * len(match.sides)
    for (keys, _), times in tallies.items():
        for i, key in enumerate(keys):
            sums[i] += table[key].total * times
    return tuple(total / count for total in sums)
