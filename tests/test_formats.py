"""JSON in and out (docs/formats.md): every validation error names its place; the sheet's exact shape."""

# The tables of bad input hold each expected message whole, one case a line: E501 off here.
# ruff: noqa: E501

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given

from scopa.errors import InputError
from scopa.formats import (
    deal_to_json,
    dump_json,
    load_json,
    match_to_json,
    parse_match,
    sheet_to_json,
)
from scopa.match import Match, score_match
from scopa.rules import Settings
from tests.strategies import deal_json, matches

WORKED_A = [
    "Ad",
    "2d",
    "3d",
    "5d",
    "7d",
    "Kd",
    "Ac",
    "2c",
    "6c",
    "7c",
    "Hc",
    "2s",
    "4s",
    "7s",
    "Js",
    "Ks",
    "2b",
    "3b",
    "5b",
    "6b",
    "Hb",
    "Kb",
]
TALLY_B = {"count": 18, "coins": ["4", "6", "J", "H"], "best": {"c": "5", "s": "6", "b": "7"}}


def worked_deal(**changes: Any) -> dict[str, Any]:
    deal: dict[str, Any] = {
        "piles": {"Anna": {"cards": list(WORKED_A)}, "Bruno": copy.deepcopy(TALLY_B)},
        "sweeps": {"Anna": 1, "Bruno": 2},
        "last_capture": None,
    }
    deal.update(changes)
    return deal


def base_match() -> dict[str, Any]:
    return {"players": ["Anna", "Bruno"], "rules": {"target": 11}, "deals": [worked_deal()] * 4}


def test_worked_example_full_and_tally() -> None:
    match = parse_match(base_match())
    sheet = sheet_to_json(score_match(match))
    assert sheet["deals"][0] == {
        "number": 1,
        "points": {
            "Anna": {
                "cards": 1,
                "coins": 1,
                "settebello": 1,
                "primiera": 1,
                "sweeps": 1,
                "napola": 0,
                "total": 5,
            },
            "Bruno": {
                "cards": 0,
                "coins": 0,
                "settebello": 0,
                "primiera": 0,
                "sweeps": 2,
                "napola": 0,
                "total": 2,
            },
        },
        "totals": {"Anna": 5, "Bruno": 2},
        "after_end": False,
    }
    assert [d["totals"] for d in sheet["deals"]] == [
        {"Anna": 5, "Bruno": 2},
        {"Anna": 10, "Bruno": 4},
        {"Anna": 15, "Bruno": 6},
        {"Anna": 15, "Bruno": 6},
    ]
    assert [d["after_end"] for d in sheet["deals"]] == [False, False, False, True]
    assert sheet["totals"] == {"Anna": 15, "Bruno": 6}
    assert (sheet["status"], sheet["winner"], sheet["decided_at"]) == ("won", "Anna", 3)
    assert list(sheet) == ["sides", "deals", "totals", "status", "winner", "decided_at"]


PARTNERSHIP_MATCH: dict[str, Any] = {
    "players": ["Anna", "Bruno", "Carla", "Dario"],
    "rules": {"partnerships": True, "napola": "flat"},
    "deals": [
        {
            "piles": {
                "Anna": {"cards": ["7d", "Ac", "6c", "7c", "Hc", "2s"]},
                "Bruno": {"cards": ["4d", "6d", "Jd", "Hd", "3c", "4c", "5c"]},
                "Carla": {
                    "cards": [c for c in WORKED_A if c not in ("7d", "Ac", "6c", "7c", "Hc", "2s")]
                },
                "Dario": {"count": 11, "coins": [], "best": {"c": "K", "s": "6", "b": "7"}},
            },
            "sweeps": {"Dario": 2, "Anna": 1},
            "last_capture": "Dario",
        },
        {
            "piles": {
                "Bruno & Dario": {"cards": list(WORKED_A)},
                "Anna & Carla": copy.deepcopy(TALLY_B),
            },
            "sweeps": {"Bruno & Dario": 0, "Anna & Carla": 3},
            "last_capture": "Anna & Carla",
        },
    ],
}


def test_partnership_sheet_exactly_as_formats_shows() -> None:
    sheet = sheet_to_json(score_match(parse_match(PARTNERSHIP_MATCH)))
    assert sheet == {
        "sides": ["Anna & Carla", "Bruno & Dario"],
        "deals": [
            {
                "number": 1,
                "points": {
                    "Anna & Carla": {
                        "cards": 1,
                        "coins": 1,
                        "settebello": 1,
                        "primiera": 1,
                        "sweeps": 1,
                        "napola": 3,
                        "total": 8,
                    },
                    "Bruno & Dario": {
                        "cards": 0,
                        "coins": 0,
                        "settebello": 0,
                        "primiera": 0,
                        "sweeps": 2,
                        "napola": 0,
                        "total": 2,
                    },
                },
                "totals": {"Anna & Carla": 8, "Bruno & Dario": 2},
                "after_end": False,
            },
            {
                "number": 2,
                "points": {
                    "Anna & Carla": {
                        "cards": 0,
                        "coins": 0,
                        "settebello": 0,
                        "primiera": 0,
                        "sweeps": 3,
                        "napola": 0,
                        "total": 3,
                    },
                    "Bruno & Dario": {
                        "cards": 1,
                        "coins": 1,
                        "settebello": 1,
                        "primiera": 1,
                        "sweeps": 0,
                        "napola": 3,
                        "total": 7,
                    },
                },
                "totals": {"Anna & Carla": 11, "Bruno & Dario": 9},
                "after_end": False,
            },
        ],
        "totals": {"Anna & Carla": 11, "Bruno & Dario": 9},
        "status": "won",
        "winner": "Anna & Carla",
        "decided_at": 2,
    }


def test_explicit_teams_and_settings_spellings() -> None:
    data = copy.deepcopy(PARTNERSHIP_MATCH)
    data["teams"] = [["Anna", "Carla"], ["Bruno", "Dario"]]
    data["rules"] = {"partnerships": "on", "napola": "flat", "ties": "share"}
    match = parse_match(data)
    assert match.teams == (("Anna", "Carla"), ("Bruno", "Dario"))
    assert match.settings == Settings(partnerships=True, napola="flat", ties="share")


def test_card_aliases_in_a_file_read_canonically() -> None:
    data = base_match()
    data["deals"] = [worked_deal()]
    data["deals"][0]["piles"]["Anna"]["cards"] = [
        c.replace("K", "10").replace("H", "Q") + "" for c in WORKED_A
    ]
    data["deals"][0]["piles"]["Anna"]["cards"][4] = "7♦"
    data["deals"][0]["piles"]["Bruno"]["coins"] = ["4", "6", "F", "c"]
    match = parse_match(data)
    assert deal_to_json(match.deals[0])["piles"]["Anna"]["cards"] == [
        "Ad", "2d", "3d", "5d", "7d", "Kd", "Ac", "2c", "6c", "7c", "Hc",
        "2s", "4s", "7s", "Js", "Ks", "2b", "3b", "5b", "6b", "Hb", "Kb",
    ]  # fmt: skip
    assert deal_to_json(match.deals[0])["piles"]["Bruno"] == {
        "count": 18,
        "coins": ["4", "6", "J", "H"],
        "best": {"c": "5", "s": "6", "b": "7"},
    }


Mutation = Callable[[dict[str, Any]], None]


def at(path: str, value: Any) -> Mutation:
    """Set the value at a dotted path (``deals.0.piles.Anna.cards.2``)."""

    def change(data: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node: Any = data
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value

    return change


def drop(path: str) -> Mutation:
    def change(data: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node: Any = data
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        del node[last]

    return change


D3 = "deals.3"
INVALID: list[tuple[str, Mutation, str]] = [
    # Cards and ranks.
    ("bad card", at(f"{D3}.piles.Anna.cards.2", "Xd"),
     "deals[3].piles.Anna.cards[2]: 'Xd' is not a card (expected a rank A-7, J, H, K and a suit d c s b)"),
    ("card twice", at(f"{D3}.piles.Anna.cards.2", "ad"),
     "deals[3].piles.Anna.cards[2]: 'Ad' is listed twice"),
    ("card not text", at(f"{D3}.piles.Anna.cards.0", 7),
     "deals[3].piles.Anna.cards[0]: 7 is not a card (expected a rank A-7, J, H, K and a suit d c s b)"),
    ("bad coin rank", at(f"{D3}.piles.Bruno.coins.2", "X"),
     "deals[3].piles.Bruno.coins[2]: 'X' is not a rank (expected A-7, J, H, K or an alias: 1, 8/F/S, 9/Q/C, 10/R)"),
    ("coin twice", at(f"{D3}.piles.Bruno.coins.2", "4"),
     "deals[3].piles.Bruno.coins[2]: the 4 of coins is listed twice"),
    ("bad best rank", at(f"{D3}.piles.Bruno.best.s", "Z"),
     "deals[3].piles.Bruno.best.s: 'Z' is not a rank (expected A-7, J, H, K or an alias: 1, 8/F/S, 9/Q/C, 10/R)"),
    ("best of coins", at(f"{D3}.piles.Bruno.best.d", "7"),
     "deals[3].piles.Bruno.best.d: unknown suit (expected c, s or b) (the coins' best card comes from 'coins')"),
    ("best suit twice", at(f"{D3}.piles.Bruno.best.♥", "4"),
     "deals[3].piles.Bruno.best.♥: the best card of c is given twice"),
    # Shapes.
    ("cards not a list", at(f"{D3}.piles.Anna.cards", "7d"),
     "deals[3].piles.Anna.cards: expected the captured cards (a JSON list), found '7d'"),
    ("pile not an object", at(f"{D3}.piles.Anna", ["7d"]),
     'deals[3].piles.Anna: expected a pile: {"cards": [...]} or {"count": ..., ...} (a JSON object), found a list'),
    ("pile neither form", at(f"{D3}.piles.Bruno", {"coins": []}),
     "deals[3].piles.Bruno: a pile needs either 'cards' (full) or 'count' (tally)"),
    ("full pile extra key", at(f"{D3}.piles.Anna.count", 22),
     "deals[3].piles.Anna.count: unknown key in a full pile (cards alone) (expected cards)"),
    ("tally extra key", at(f"{D3}.piles.Bruno.sweeps", 2),
     "deals[3].piles.Bruno.sweeps: unknown key in a tally pile (expected count, coins, best)"),
    ("count not whole", at(f"{D3}.piles.Bruno.count", 17.5),
     "deals[3].piles.Bruno.count: expected the number of cards captured (a whole number), found 17.5"),
    ("count too big", at(f"{D3}.piles.Bruno.count", 41),
     "deals[3].piles.Bruno.count: 41 is outside 0-40 (the number of cards captured)"),
    ("deal not an object", at("deals.3", None),
     "deals[3]: expected a deal (a JSON object), found null"),
    ("deal without piles", drop(f"{D3}.piles"),
     "deals[3].piles: missing (a deal needs each owner's captured pile)"),
    ("deal extra key", at(f"{D3}.dealer", "Anna"),
     "deals[3].dealer: unknown key in a deal (expected piles, sweeps, last_capture)"),
    ("deals not a list", at("deals", {}), "deals: expected the deals (a JSON list), found an object"),
    ("deals a number", at("deals", 0), "deals: expected the deals (a JSON list), found 0"),
    ("sweeps not an object", at(f"{D3}.sweeps", 0),
     "deals[3].sweeps: expected the sweeps by owner (a JSON object), found 0"),
    ("sweeps a list", at(f"{D3}.sweeps", []),
     "deals[3].sweeps: expected the sweeps by owner (a JSON object), found a list"),
    # Owners.
    ("unknown owner", at(f"{D3}.piles.Carla", {"cards": []}),
     "deals[3].piles.Carla: 'Carla' is not a player of this match (Anna, Bruno)"),
    ("missing pile", drop(f"{D3}.piles.Bruno"),
     "deals[3].piles: no pile for 'Bruno' (every player needs a pile, even an empty one)"),
    ("sweeps of a stranger", at(f"{D3}.sweeps.Carla", 0),
     "deals[3].sweeps.Carla: 'Carla' has no pile in this deal"),
    ("last capture a stranger", at(f"{D3}.last_capture", "Carla"),
     "deals[3].last_capture: 'Carla' is not an owner of this deal (expected null or one of Anna, Bruno)"),
    # The facts add up.
    ("card in two piles", at(f"{D3}.piles.Bruno", {"cards": ["7d"]}),
     "deals[3].piles.Bruno: 7 of coins already in another pile"),
    ("coin in two piles", at(f"{D3}.piles.Bruno.coins", ["A", "4", "6", "J", "H"]),
     "deals[3].piles.Bruno: ace of coins already in another pile"),
    ("not 40 cards", at(f"{D3}.piles.Bruno.count", 19),
     "deals[3].piles: the piles hold 41 cards (Anna 22, Bruno 19), not 40"),
    ("coins not split", at(f"{D3}.piles.Bruno.coins", ["4", "6", "J"]),
     "deals[3].piles: the coins H are in nobody's pile (all 10 coins must be split)"),
    ("seven nobody's best", at(f"{D3}.piles.Bruno.best.b", "4"),
     "deals[3].piles: nobody holds the 7 of clubs (it must be somebody's best card)"),
    ("best claims a card of another pile", at(f"{D3}.piles.Bruno.best.b", "6"),
     "deals[3].piles.Bruno: 6 of clubs already in another pile"),
    ("count below the tally", at(f"{D3}.piles.Bruno.count", 6),
     "deals[3].piles.Bruno.count: 6 cards is fewer than the 7 that its coins and best cards imply"),
    ("too many sweeps", at(f"{D3}.sweeps.Bruno", 10),
     "deals[3].sweeps.Bruno: 10 sweeps with 18 cards captured (at most 9: every sweep takes at least 2 cards)"),
    ("negative sweeps", at(f"{D3}.sweeps.Bruno", -1),
     "deals[3].sweeps.Bruno: -1 is outside 0-40 (a number of sweeps)"),
    ("sweeps not whole", at(f"{D3}.sweeps.Anna", "1"),
     "deals[3].sweeps.Anna: expected a number of sweeps (a whole number), found '1'"),
    # The match.
    ("no players", drop("players"), "players: missing (a match needs the names of its 2 to 6 players)"),
    ("one player", at("players", ["Anna"]), "players: 1 player; a match has 2 to 6"),
    ("seven players", at("players", list("ABCDEFG")), "players: 7 players; a match has 2 to 6"),
    ("player twice", at("players", ["Anna", "Anna"]), "players[1]: 'Anna' is listed twice"),
    ("empty name", at("players", ["Anna", " "]), "players[1]: a player's name cannot be empty"),
    ("name not text", at("players", ["Anna", 3]), "players[1]: expected a player's name, found 3"),
    ("name with &", at("players", ["Anna & Carla", "Bruno"]),
     "players[0]: 'Anna & Carla': ' & ' is kept for team names"),
    ("unknown match key", at("dealer", "Anna"),
     "dealer: unknown key in a match (expected players, teams, rules, deals, name, "
     "generated_name, first_dealer, seat_kinds)"),
    ("first dealer not playing", at("first_dealer", "Zia"),
     "first_dealer: expected one of the players' names (Anna, Bruno), found 'Zia'"),
    ("bad rule", at("rules.target", 62),
     "rules.target: 62 is outside the allowed values (a whole number from 5 to 61)"),
    ("unknown rule", at("rules.scopone", True),
     "rules.scopone: unknown setting (the settings are target, primiera, napola, partnerships, "
     "last_capture_sweep, ties)"),
    ("partnerships with two", at("rules.partnerships", True),
     "rules.partnerships: partnerships need 4 or 6 players (two teams), this match has 2"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("change", "message"), [(c, m) for _, c, m in INVALID], ids=[n for n, _, _ in INVALID]
)
def test_invalid_input_names_the_place(change: Mutation, message: str) -> None:
    data = base_match()
    data["deals"] = [worked_deal() for _ in range(4)]
    change(data)
    with pytest.raises(InputError) as info:
        parse_match(data)
    assert str(info.value) == message
    assert isinstance(info.value, ValueError)


FOUR = ["Anna", "Bruno", "Carla", "Dario"]
TEAM_INVALID: list[tuple[str, dict[str, Any], str]] = [
    ("team without partnerships",
     {"players": FOUR, "deals": [{"piles": {"Anna & Carla": {"cards": []}}}]},
     "deals[0].piles.Anna & Carla: 'Anna & Carla' is a team, but partnerships are off"),
    ("mixed players and teams",
     {"players": FOUR, "rules": {"partnerships": True},
      "deals": [{"piles": {"Anna & Carla": {"cards": []}, "Bruno": {"cards": []}}}]},
     "deals[0].piles: piles must be recorded all per player or all per team"),
    ("missing team pile",
     {"players": FOUR, "rules": {"partnerships": True},
      "deals": [{"piles": {"Anna & Carla": {"cards": []}}}]},
     "deals[0].piles: no pile for 'Bruno & Dario' (every team needs a pile, even an empty one)"),
    ("unknown owner with partnerships",
     {"players": FOUR, "rules": {"partnerships": True},
      "deals": [{"piles": {"Elena": {"cards": []}}}]},
     "deals[0].piles.Elena: 'Elena' is not a player of this match "
     "(Anna, Bruno, Carla, Dario, Anna & Carla, Bruno & Dario)"),
    ("team of a stranger", {"players": FOUR, "teams": [["Anna", "Elena"], ["Bruno", "Dario"]]},
     "teams[0][1]: 'Elena' is not a player"),
    ("uneven teams", {"players": FOUR, "teams": [["Anna", "Carla", "Bruno"], ["Dario"]]},
     "teams: teams of 3 and 1; they must be equal"),
    ("teams not a list", {"players": FOUR, "teams": "Anna & Carla"},
     "teams: expected two teams (a JSON list), found 'Anna & Carla'"),
    ("last capture with no cards",
     {"players": ["Anna", "Bruno"],
      "deals": [{"piles": {"Anna": {"cards": []}, "Bruno": {"cards": [c + s for s in "dcsb" for c in "A234567JHK"]}},
                 "last_capture": "Anna"}]},
     "deals[0].last_capture: 'Anna' took the last cards but has no cards"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("data", "message"), [(d, m) for _, d, m in TEAM_INVALID], ids=[n for n, _, _ in TEAM_INVALID]
)
def test_invalid_matches_name_the_place(data: dict[str, Any], message: str) -> None:
    with pytest.raises(InputError) as info:
        parse_match(data)
    assert str(info.value) == message


def test_not_a_match() -> None:
    with pytest.raises(InputError, match=r"^expected a match \(a JSON object\), found a list$"):
        parse_match([])


def test_json_syntax_error_names_line_and_column() -> None:
    with pytest.raises(InputError) as info:
        load_json('{"players": ["Anna",\n  "Bruno"')
    assert str(info.value).startswith("input: not valid JSON: ")
    assert "at line 2 column 10" in str(info.value)


def test_null_sweeps_and_deals_read_as_empty() -> None:
    data = base_match()
    data["deals"] = [worked_deal(sweeps=None)]
    assert parse_match(data).deals[0].sweeps == (0, 0)
    data["deals"] = None
    assert parse_match(data).deals == ()


def test_a_deal_ends_with_every_owner_and_default_sweeps() -> None:
    data = base_match()
    data["deals"] = [worked_deal(sweeps={"Bruno": 2})]
    deal = parse_match(data).deals[0]
    assert deal.owners == ("Anna", "Bruno")
    assert deal.sweeps == (0, 2)


@given(matches(max_deals=5, form="mixed"))
def test_match_json_round_trip(match: Match) -> None:
    data = json.loads(dump_json(match_to_json(match)))
    again = parse_match(data)
    assert again == match
    assert sheet_to_json(score_match(again)) == sheet_to_json(score_match(match))
    for recorded, written in zip(match.deals, data["deals"], strict=True):
        assert written == deal_json(recorded)
