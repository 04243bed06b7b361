"""The players of a match and its two teams: names, seats, and the checks of a match's line-up
(docs/formats.md "A match")."""

from __future__ import annotations

from collections.abc import Sequence

from scopa.errors import InvalidMatchError
from scopa.i18n import N_, NN_
from scopa.names import name_key

MIN_PLAYERS = 2
MAX_PLAYERS = 6
TEAM_JOIN = " & "


def team_name(members: Sequence[str]) -> str:
    """A team's name: its players joined by `` & ``.

    >>> team_name(["Anna", "Carla"])
    'Anna & Carla'
    """
    return TEAM_JOIN.join(members)


def seat_teams(players: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """Two teams with seats alternating (1-3 / 2-4; 1-3-5 / 2-4-6).

    >>> seat_teams(["Anna", "Bruno", "Carla", "Dario"])
    (('Anna', 'Carla'), ('Bruno', 'Dario'))
    """
    return (tuple(players[0::2]), tuple(players[1::2]))


def check_count(count: int, where: str = "players") -> None:
    """Refuse a match of ``count`` players: a match has :data:`MIN_PLAYERS` to
    :data:`MAX_PLAYERS` (whatever its variant; :meth:`VariantDef.check_players
    <scopa.variants.VariantDef.check_players>` says which of them the variant takes)."""
    if not MIN_PLAYERS <= count <= MAX_PLAYERS:
        raise InvalidMatchError(
            where,
            NN_(
                "{count} player; a match has {min_players} to {max_players}",
                "{count} players; a match has {min_players} to {max_players}",
                "count",
            ),
            code="match.player",
            count=count,
            min_players=MIN_PLAYERS,
            max_players=MAX_PLAYERS,
        )


def check_players(players: Sequence[str]) -> None:
    check_count(len(players))
    seen: set[str] = set()
    for i, name in enumerate(players):
        key = name_key(name)  # one person however written: case, Unicode form, invisibles
        if key in seen:
            raise InvalidMatchError(
                f"players[{i}]",
                N_("{name!r} is listed twice"),
                code="match.listed_twice",
                name=name,
            )
        seen.add(key)


def check_partnerships(players: Sequence[str]) -> None:
    if len(players) not in (4, 6):
        raise InvalidMatchError(
            "rules.partnerships",
            N_("partnerships need 4 or 6 players (two teams), this match has {count}"),
            code="match.partnerships_need_players",
            count=len(players),
        )


def check_teams(players: Sequence[str], teams: Sequence[Sequence[str]]) -> None:
    """Two teams of equal size that share out all the players."""
    if len(teams) != 2:
        raise InvalidMatchError(
            "teams",
            N_("expected two teams, found {count}"),
            code="match.expected_two_teams_found",
            count=len(teams),
        )
    seen: dict[str, int] = {}
    for t, team in enumerate(teams):
        for i, name in enumerate(team):
            if name not in players:
                raise InvalidMatchError(
                    f"teams[{t}][{i}]",
                    N_("{name!r} is not a player"),
                    code="match.not_player",
                    name=name,
                )
            if name in seen:
                raise InvalidMatchError(
                    f"teams[{t}][{i}]",
                    N_("{name!r} is in two teams"),
                    code="match.two_teams",
                    name=name,
                )
            seen[name] = t
    missing = [p for p in players if p not in seen]
    if missing:
        raise InvalidMatchError(
            "teams",
            N_("{names} in no team"),
            code="match.no_team",
            names=", ".join(map(repr, missing)),
        )
    if len(teams[0]) != len(teams[1]):
        raise InvalidMatchError(
            "teams",
            N_("teams of {count} and {count2}; they must be equal"),
            code="match.teams_they_must_equal",
            count=len(teams[0]),
            count2=len(teams[1]),
        )
