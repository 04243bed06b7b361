"""The rating model: OpenSkill's Plackett-Luce over the finished matches in the order they
were played, each a ranking of its sides (the winning side first, the others tied behind),
partners rated as a team.

The store keeps the rows (the tallies it replays, the ratings worked out, the mark of what
moved since: :mod:`scopa.store.ratings`) and hands the games to this model, which it is
given (:data:`scopa.store.protocol.Rater`) and never imports.

>>> after = plackett_luce([[[1], [2]]], [[1.0, 2.0]])
>>> after[1].mu > after[2].mu, after[1].matches, after[2].matches
(True, 1, 1)
"""

from __future__ import annotations

from typing import Any

from scopa.store.records import Rating


def plackett_luce(
    games: list[list[list[int]]], ranks: list[list[float]], kept: dict[int, Rating] | None = None
) -> dict[int, Rating]:
    """Ratings from games in order: each a list of teams (lists of person ids), ranked
    (1 first; equal ranks tie); on top of ``kept`` ratings if given."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    held: dict[int, Any] = {
        p: model.rating(mu=r.mu, sigma=r.sigma) for p, r in (kept or {}).items()
    }
    played: dict[int, int] = {p: r.matches for p, r in (kept or {}).items()}
    for teams, rank in zip(games, ranks, strict=True):
        current = [[held.setdefault(p, model.rating()) for p in team] for team in teams]
        after = model.rate(current, ranks=rank)
        for team, rated in zip(teams, after, strict=True):
            for person, one in zip(team, rated, strict=True):
                held[person] = one
                played[person] = played.get(person, 0) + 1
    return {p: Rating(r.mu, r.sigma, played[p]) for p, r in held.items()}
