"""The variants on the score sheet (docs/rules.md 9, docs/formats.md "Variants"): the worked examples,
every message of the format verbatim, the sheet per variant, and properties against an
independent scorer (:mod:`tests.oracle`)."""

# The tables of bad input hold each expected message whole, one case a line: E501 off here.
# ruff: noqa: E501

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scopa import variants
from scopa.cards import CardSet
from scopa.deal import Deal, Pile
from scopa.errors import InputError, InvalidSettingError, SettingsChangeRefused
from scopa.formats import match_to_json, parse_match, sheet_to_json
from scopa.match import Match, rescore, score_match
from scopa.rules import Settings
from scopa.variants import VARIANT_NAMES
from tests import oracle
from tests.strategies import variant_matches, variant_settings

# docs/rules.md 9.6's worked example, as docs/formats.md writes it (Anna in full, Bruno as a tally).
ANNA = [
    "Ad",
    "2d",
    "3d",
    "4d",
    "Jd",
    "Hd",
    "Kd",
    "Ac",
    "2c",
    "3c",
    "4c",
    "6c",
    "7c",
    "As",
    "2s",
    "3s",
    "4s",
    "5s",
    "7s",
    "Ab",
    "2b",
    "3b",
    "6b",
]
BRUNO_TALLY = {"count": 17, "coins": ["5", "6", "7"], "best": {"c": "5", "s": "6", "b": "7"}}
CIRULLA_DEAL: dict[str, Any] = {
    "piles": {"Anna": {"cards": ANNA}, "Bruno": BRUNO_TALLY},
    "sweeps": {"Bruno": 1},
    "last_capture": "Bruno",
    "declarations": {"Anna": ["cirulla"]},
}
FORMATS_SHEET = {
    "variant": "cirulla",
    "sides": ["Anna", "Bruno"],
    "deals": [
        {
            "number": 1,
            "points": {
                "Anna": {
                    "cards": 1,
                    "coins": 1,
                    "settebello": 0,
                    "primiera": 1,
                    "sweeps": 0,
                    "declarations": 3,
                    "piccola": 4,
                    "grande": 5,
                    "total": 15,
                },
                "Bruno": {
                    "cards": 0,
                    "coins": 0,
                    "settebello": 1,
                    "primiera": 0,
                    "sweeps": 1,
                    "declarations": 0,
                    "piccola": 0,
                    "grande": 0,
                    "total": 2,
                },
            },
            "totals": {"Anna": 15, "Bruno": 2},
            "after_end": False,
            "cappotto": None,
        }
    ],
    "totals": {"Anna": 15, "Bruno": 2},
    "status": "in_progress",
    "winner": None,
    "decided_at": None,
}


def cirulla(*deals: dict[str, Any], **rules: Any) -> dict[str, Any]:
    return {
        "variant": "cirulla",
        "players": ["Anna", "Bruno"],
        "rules": rules,
        "deals": list(deals),
    }


def test_worked_example_of_9_6_gives_the_sheet_of_formats() -> None:
    match = parse_match(cirulla(CIRULLA_DEAL))
    sheet = sheet_to_json(score_match(match))
    assert sheet == FORMATS_SHEET
    assert json.dumps(sheet) == json.dumps(FORMATS_SHEET)  # the key order too


def test_worked_example_in_full_and_by_the_oracle() -> None:
    bruno = CardSet.full() - CardSet.parse(ANNA)
    deal = copy.deepcopy(CIRULLA_DEAL)
    deal["piles"]["Bruno"] = {"cards": bruno.to_list()}
    points = score_match(parse_match(cirulla(deal))).deals[0].points
    keys = variants.get("cirulla").points_keys
    expected = oracle.score(
        [ANNA, bruno.to_list()],
        Settings.of("cirulla").to_dict(),
        "cirulla",
        sweeps=[0, 1],
        last=1,
        declarations=[["cirulla"], []],
    )
    assert [p.to_dict(keys) for p in points] == expected
    assert [p.total for p in points] == [15, 2]


def split(*hands: str) -> dict[str, list[str]]:
    """Piles by name from card lists: the last name takes every card not listed."""
    names = ["Anna", "Bruno", "Carla", "Dario"]
    listed = [CardSet.parse(h) for h in hands]
    rest = CardSet.full()
    for cards in listed:
        rest = rest - cards
    return {n: c.to_list() for n, c in zip(names, [*listed, rest], strict=False)}


def deal_of(piles: dict[str, list[str]], **facts: Any) -> dict[str, Any]:
    return {"piles": {o: {"cards": c} for o, c in piles.items()}, **facts}


def points_of(doc: dict[str, Any], number: int = 1) -> list[dict[str, int]]:
    return list(
        sheet_to_json(score_match(parse_match(doc)))["deals"][number - 1]["points"].values()
    )


@pytest.mark.parametrize(
    ("coins", "cap", "piccola", "grande"),
    [
        ("Ad 2d 3d", 6, 3, 0),
        ("Ad 2d 3d 4d", 6, 4, 0),
        ("Ad 2d 3d 5d 6d", 6, 3, 0),  # the run breaks at the missing 4
        ("Ad 2d 3d 4d 5d 6d 7d", 6, 6, 0),
        ("Ad 2d 3d 4d 5d 6d 7d", 7, 7, 0),
        ("2d 3d 4d 5d", 6, 0, 0),  # no ace
        ("Ad 2d 3d 4d 5d", 3, 3, 0),  # cap 3: a flat 3
        ("Jd Hd Kd", 6, 0, 5),
        ("Ad 2d 3d Jd Hd Kd", 6, 3, 5),
    ],
)
def test_piccola_and_grande(coins: str, cap: int, piccola: int, grande: int) -> None:
    anna = points_of(cirulla(deal_of(split(coins + " 7c 7s 7b")), piccola_cap=cap))[0]
    assert (anna["piccola"], anna["grande"]) == (piccola, grande)


def test_all_ten_coins_and_cap_10() -> None:
    doc = cirulla(deal_of(split("Ad 2d 3d 4d 5d 6d 7d Jd Hd Kd")), piccola_cap=10)
    anna = points_of(doc)[0]
    assert (anna["piccola"], anna["grande"], anna["coins"], anna["settebello"]) == (10, 5, 1, 1)


COINS = "Ad 2d 3d 4d 5d 6d 7d Jd Hd Kd"


def test_a_cappotto_wins_the_game_at_once_even_behind() -> None:
    bruno_big = deal_of(
        split("Ad 7c"), sweeps={"Bruno": 10}, declarations={"Bruno": ["decino"] * 3}
    )
    cappotto = deal_of(split(COINS))
    doc = cirulla(bruno_big, cappotto, bruno_big)
    sheet = sheet_to_json(score_match(parse_match(doc)))
    assert sheet["totals"]["Bruno"] > sheet["totals"]["Anna"]
    assert (sheet["status"], sheet["winner"], sheet["decided_at"]) == ("won", "Anna", 2)
    assert [row["cappotto"] for row in sheet["deals"]] == [None, "Anna", None]
    assert [row["after_end"] for row in sheet["deals"]] == [False, False, True]
    assert score_match(parse_match(doc)).by_cappotto
    # With cappotto off the ten coins only score their categories: the game runs on.
    off = score_match(parse_match({**doc, "rules": {"cappotto": "off"}}))
    assert (off.winner, off.decided_at, off.by_cappotto) == ("Bruno", 3, False)
    assert off.deals[1].cappotto == "Anna"  # shown whatever the setting


def test_a_cappotto_after_the_end_changes_nothing() -> None:
    big = deal_of(split("Ad 7c"), sweeps={"Bruno": 15}, declarations={"Bruno": ["decino"] * 4})
    sheet = score_match(parse_match(cirulla(big, deal_of(split(COINS)))))
    assert (sheet.winner, sheet.decided_at, sheet.by_cappotto) == ("Bruno", 1, False)


def test_rescore_cappotto_off_reopens_the_game() -> None:
    match = parse_match(cirulla(deal_of(split(COINS))))
    assert score_match(match).winner == "Anna"
    _, sheet, changes = rescore(match, {"cappotto": "off"})
    assert sheet.winner is None
    assert changes.summary() == "Cappotto off: no winner yet"


def test_declarations_score_by_the_settings() -> None:
    doc = cirulla(
        deal_of(
            split("Ad 7c 7s 7b"), declarations={"Anna": ["cirulla", "decino"], "Bruno": ["Cirulla"]}
        )
    )
    anna, bruno = points_of(doc)
    assert (anna["declarations"], bruno["declarations"]) == (13, 3)
    doc["rules"] = {"cirulla_points": 0, "decino_points": 2}
    anna, bruno = points_of(doc)
    assert (anna["declarations"], bruno["declarations"]) == (2, 0)


def test_primiera_mode_sevens() -> None:
    # Anna holds three sevens but no clubs: no primiera by sum, the most sevens by `sevens`.
    piles = split("7d 7c 7s 6d 6c 6s Ad Ac As")
    by_sum = points_of(cirulla(deal_of(piles)))
    assert [p["primiera"] for p in by_sum] == [0, 1]
    sevens = points_of(cirulla(deal_of(piles), primiera_mode="sevens"))
    assert [p["primiera"] for p in sevens] == [1, 0]
    tied = split("7d 7c")
    assert [p["primiera"] for p in points_of(cirulla(deal_of(tied), primiera_mode="sevens"))] == [
        0,
        0,
    ]
    shared = points_of(cirulla(deal_of(tied), primiera_mode="sevens", ties="share"))
    assert [p["primiera"] for p in shared] == [1, 1]
    escoba = {
        "variant": "escoba",
        "players": ["Anna", "Bruno"],
        "rules": {"primiera_mode": "sevens"},
        "deals": [deal_of(piles)],
    }
    assert [p["primiera"] for p in points_of(escoba)] == [1, 0]


def test_escoba_sheet_has_no_napola() -> None:
    doc = {
        "variant": "Escoba",
        "players": ["Anna", "Bruno"],
        "deals": [deal_of(split("Ad 2d 3d 4d"), sweeps={"Anna": 2})],
    }
    sheet = sheet_to_json(score_match(parse_match(doc)))
    assert list(sheet) == ["variant", "sides", "deals", "totals", "status", "winner", "decided_at"]
    assert sheet["variant"] == "escoba"
    assert list(sheet["deals"][0]) == ["number", "points", "totals", "after_end"]
    assert list(sheet["deals"][0]["points"]["Anna"]) == [
        "cards",
        "coins",
        "settebello",
        "primiera",
        "sweeps",
        "total",
    ]
    assert sheet["deals"][0]["points"]["Anna"]["sweeps"] == 2


def test_assi_ace_sweeps_count_with_the_setting() -> None:
    doc = {
        "variant": "assi",
        "players": ["Anna", "Bruno"],
        "deals": [
            deal_of(split("Ac 2c 3c 4c"), sweeps={"Anna": 1}, ace_sweeps={"Anna": 1, "Bruno": 2})
        ],
    }
    match = parse_match(doc)
    assert [p.sweeps for p in score_match(match).deals[0].points] == [1, 0]
    _, sheet, changes = rescore(match, {"ace_sweep": True})
    assert [p.sweeps for p in sheet.deals[0].points] == [2, 2]
    assert changes.summary() == "Ace sweep on: Anna 1 → 2, Bruno 14 → 16"  # napola run 10
    assert match_to_json(match)["deals"][0]["ace_sweeps"] == {"Anna": 1, "Bruno": 2}
    assert match.settings.napola == "run"
    assert match.settings.target == 21


def test_scopone_last_play_cleared_counts_with_the_setting() -> None:
    players = ["Ann", "Bob", "Cat", "Dan"]
    piles = {
        "Ann": {"cards": []},
        "Bob": {"cards": []},
        "Cat": {"cards": []},
        "Dan": {"cards": CardSet.full().to_list()},
    }
    doc = {
        "variant": "scopone",
        "players": players,
        "deals": [{"piles": piles, "last_play_cleared": "Dan"}],
    }
    match = parse_match(doc)
    assert match.settings.partnerships
    assert [p.sweeps for p in score_match(match).deals[0].points] == [0, 0]
    _, sheet, _ = rescore(match, {"last_play_sweep": "on"})
    assert sheet.sides == ("Ann & Cat", "Bob & Dan")
    assert [p.sweeps for p in sheet.deals[0].points] == [0, 1]
    team = {
        "piles": {"Ann & Cat": {"cards": []}, "Bob & Dan": {"cards": CardSet.full().to_list()}},
        "last_play_cleared": "Bob & Dan",
    }
    by_team = parse_match({**doc, "deals": [team], "rules": {"last_play_sweep": True}})
    assert [p.sweeps for p in score_match(by_team).deals[0].points] == [0, 1]


def test_team_declarations_add_up_and_are_bounded_per_team() -> None:
    players = ["Anna", "Bruno", "Carla", "Dario"]
    piles = {
        "Anna & Carla": {"cards": CardSet.parse("Ad 2d 3d 7c 7s 7b").to_list()},
        "Bruno & Dario": {"cards": (CardSet.full() - CardSet.parse("Ad 2d 3d 7c 7s 7b")).to_list()},
    }
    six = {"piles": piles, "declarations": {"Anna & Carla": ["cirulla"] * 6}}
    doc = {
        "variant": "cirulla",
        "players": players,
        "rules": {"partnerships": True},
        "deals": [six],
    }
    assert points_of(doc)[0]["declarations"] == 18
    per_player = deal_of(
        split("Ad 2d 3d", "7c 7s 7b", "Ac"),
        declarations={"Anna": ["decino"], "Carla": ["cirulla", "cirulla"]},
    )
    assert points_of({**doc, "deals": [per_player]})[0]["declarations"] == 16
    seven = {**six, "declarations": {"Anna & Carla": ["cirulla"] * 7}}
    with pytest.raises(InputError) as info:
        parse_match({**doc, "deals": [seven]})
    assert (
        str(info.value)
        == "deals[0].declarations.Anna & Carla: 7 declarations, but Anna & Carla received 6 hands (one declaration a hand at most)"
    )


def two_deals(
    second: dict[str, Any], variant: str = "cirulla", players: tuple[str, ...] = ("Anna", "Bruno")
) -> dict[str, Any]:
    first = deal_of(split("Ad 2d 3d 7c 7s 7b"))
    return {"variant": variant, "players": list(players), "deals": [first, second]}


FOUR = ("Ann", "Bob", "Cat", "Dan")
PILES_4 = {
    o: {"cards": c}
    for o, c in zip(
        FOUR, split("Ad 2d 3d 4d 5d 6d 7d Jd Hd Kd", "7c 7s 7b", "Ac").values(), strict=True
    )
}
BAD: list[tuple[dict[str, Any], str]] = [
    (
        {"variant": "briscola", "players": ["A", "B"]},
        "variant: 'briscola' is not a variant (the variants are scopa, scopone, assi, escoba, cirulla)",
    ),
    (
        {"variant": 3, "players": ["A", "B"]},
        "variant: expected a variant's name (a string), found 3",
    ),
    (
        {"variant": "scopone", "players": ["A", "B", "C"]},
        "players: scopone is played by 4 players (3 given)",
    ),
    (
        {"variant": "scopone", "players": list(FOUR), "rules": {"partnerships": False}},
        "rules.partnerships: false is not allowed: scopone is always played in partnerships",
    ),
    (
        {"players": ["A", "B"], "rules": {"piccola_cap": 4}},
        "rules.piccola_cap: a setting of cirulla, not of scopa (the settings of scopa are target, primiera, napola, partnerships, last_capture_sweep, ties)",
    ),
    (
        {"variant": "cirulla", "players": ["A", "B"], "rules": {"napola": "run"}},
        "rules.napola: a setting of scopa, scopone and assi, not of cirulla (the settings of cirulla are target, primiera, primiera_mode, partnerships, last_capture_sweep, ties, cirulla_points, decino_points, piccola_cap, cappotto)",
    ),
    (
        {"variant": "cirulla", "players": ["A", "B"], "rules": {"target": 200}},
        "rules.target: 200 is outside the allowed values (a whole number from 5 to 151)",
    ),
    (
        {"variant": "cirulla", "players": ["A", "B"], "rules": {"piccola_cap": 2}},
        "rules.piccola_cap: 2 is outside the allowed values (a whole number from 3 to 10)",
    ),
    (
        {"variant": "cirulla", "players": ["A", "B"], "rules": {"cappotto": "maybe"}},
        "rules.cappotto: 'maybe' is outside the allowed values ('win' or 'off')",
    ),
    (
        {"variant": "cirulla", "players": ["A", "B"], "rules": {"primiera_mode": "most"}},
        "rules.primiera_mode: 'most' is outside the allowed values ('sum' or 'sevens')",
    ),
    (
        two_deals({**deal_of(split("Ad")), "declarations": {"Anna": ["cirulla"]}}, "scopa"),
        "deals[1].declarations: a fact of cirulla deals, not of scopa (a scopa deal has piles, sweeps, last_capture)",
    ),
    (
        two_deals({**deal_of(split("Ad")), "declarations": {"Anna": "cirulla"}}),
        "deals[1].declarations.Anna: expected the declarations of Anna's hands (a JSON list), found 'cirulla'",
    ),
    (
        two_deals({**deal_of(split("Ad")), "declarations": {"Anna": ["tris"]}}),
        "deals[1].declarations.Anna[0]: 'tris' is not one of 'cirulla', 'decino'",
    ),
    (
        two_deals({**deal_of(split("Ad")), "declarations": {"Zeno": ["cirulla"]}}),
        "deals[1].declarations.Zeno: 'Zeno' has no pile in this deal",
    ),
    (
        two_deals({**deal_of(split("Ad")), "declarations": {"Anna": ["cirulla"] * 7}}),
        "deals[1].declarations.Anna: 7 declarations, but Anna received 6 hands (one declaration a hand at most)",
    ),
    (
        {
            "variant": "assi",
            "players": ["Anna", "Bruno"],
            "deals": [
                deal_of(
                    split("Ad 2d 3d 4d 5d 6d 7c 7s 7b Kc"),
                    sweeps={"Anna": 4},
                    ace_sweeps={"Anna": 2},
                )
            ],
        },
        "deals[0].ace_sweeps.Anna: 4 sweeps and 2 ace sweeps with 10 cards captured (at most 5: every sweep takes at least 2 cards)",
    ),
    (
        {
            "variant": "scopone",
            "players": list(FOUR),
            "deals": [{"piles": PILES_4, "last_play_cleared": "Zeno"}],
        },
        "deals[0].last_play_cleared: 'Zeno' is not an owner of this deal (expected null or one of Ann, Bob, Cat, Dan)",
    ),
    (
        {
            "variant": "scopone",
            "players": list(FOUR),
            "deals": [{"piles": PILES_4, "last_play_cleared": "Dan", "last_capture": "Bob"}],
        },
        "deals[0].last_play_cleared: 'Dan' cleared the table with the last play, so no cards were left: last_capture must be null, not 'Bob'",
    ),
    (
        {
            **cirulla(
                *[deal_of(split("Ad 2d 3d 7c 7s 7b"))] * 3,
                deal_of(
                    {
                        "Bruno": ["Kc", "Ks", "Kb", "Hc"],
                        "Anna": (CardSet.full() - CardSet.parse("Kc Ks Kb Hc")).to_list(),
                    },
                    sweeps={"Bruno": 4},
                ),
            )
        },
        "deals[3].sweeps.Bruno: 4 sweeps with 4 cards captured (at most 3 in cirulla: every sweep takes at least 2 cards; the dealer's low table takes 4 for 3)",
    ),
    (
        {"variant": "cirulla", "players": ["A", "B"], "rules": {"foo": 1}},
        "rules.foo: unknown setting (the settings are target, primiera, primiera_mode, partnerships, last_capture_sweep, ties, cirulla_points, decino_points, piccola_cap, cappotto)",
    ),
    (
        two_deals({**deal_of(split("Ad")), "ace_sweeps": {"Anna": 1}}, "escoba"),
        "deals[1].ace_sweeps: a fact of assi deals, not of escoba (an escoba deal has piles, sweeps, last_capture)",
    ),
    (
        two_deals({**deal_of(split("Ad")), "dealer": "Anna"}, "assi"),
        "deals[1].dealer: unknown key in a deal (expected piles, sweeps, last_capture, ace_sweeps)",
    ),
]


@pytest.mark.parametrize(("doc", "message"), BAD, ids=[m.split(":")[0] for _, m in BAD])
def test_every_message_of_formats_verbatim(doc: dict[str, Any], message: str) -> None:
    with pytest.raises(InputError) as info:
        parse_match(doc)
    assert str(info.value) == message


def test_cirulla_sweeps_limit_allows_the_low_table() -> None:
    doc = cirulla(deal_of(split("Ad 2d 3d 4d"), sweeps={"Anna": 3}))
    assert points_of(doc)[0]["sweeps"] == 3
    with pytest.raises(InputError, match=r"at most 2: every sweep takes at least 2 cards\)$"):
        parse_match({**doc, "variant": "scopa"})


def test_the_variant_cannot_change() -> None:
    match = parse_match(cirulla())
    with pytest.raises(InvalidSettingError) as info:
        rescore(match, {"variant": "scopa"})
    assert (
        str(info.value)
        == "variant: the variant is chosen when the match is created and cannot be changed"
    )
    assert info.value.where == "variant"
    with pytest.raises(SettingsChangeRefused) as refused:
        match.with_settings(Settings())
    assert str(refused.value) == (
        "variant: the variant is chosen when the match is created and cannot be changed"
    )


def test_settings_spellings_of_the_variants() -> None:
    match = parse_match(cirulla(piccola_cap=7.0, cappotto=False, primiera_mode=" Sevens "))
    assert (match.settings.piccola_cap, match.settings.cappotto, match.settings.primiera_mode) == (
        7,
        "off",
        "sevens",
    )
    assi = parse_match({"variant": "ASSI", "players": ["A", "B"], "rules": {"ace_sweep": "on"}})
    assert assi.settings.ace_sweep is True
    assert parse_match({"variant": "scopone-10", "players": list(FOUR)}).variant == "scopone"
    assert parse_match({"variant": None, "players": ["A", "B"]}).variant == "scopa"


def test_writers_put_the_variant_first_and_scopa_has_none() -> None:
    match = parse_match({**cirulla(CIRULLA_DEAL), "name": "Friday"})
    data = match_to_json(match)
    assert list(data)[:3] == ["variant", "name", "players"]
    assert data["rules"] == Settings.of("cirulla").to_dict()
    assert data["deals"][0]["declarations"] == {"Anna": ["cirulla"]}
    assert parse_match(data) == match
    scopa = parse_match({"players": ["Anna", "Bruno"], "deals": [deal_of(split("Ad"))]})
    written = match_to_json(scopa)
    assert "variant" not in written
    assert list(written["deals"][0]) == ["piles", "sweeps", "last_capture"]
    sheet = sheet_to_json(score_match(scopa))
    assert "variant" not in sheet
    assert "cappotto" not in sheet["deals"][0]
    assert list(sheet["deals"][0]["points"]["Anna"]) == [
        "cards",
        "coins",
        "settebello",
        "primiera",
        "sweeps",
        "napola",
        "total",
    ]


# Properties -----------------------------------------------------------------------------------


def full_cards(match: Match, deal: Deal) -> list[list[str]]:
    """Each scoring side's captured cards, pooled by hand for teams."""
    sides = match.sides
    if deal.owners == sides:
        return [p.cards.to_list() if p.cards is not None else [] for p in deal.piles]
    result = []
    for team in match.team_members():
        cards: list[str] = []
        for player in team:
            pile = deal.pile(player).cards
            assert pile is not None
            cards += pile.to_list()
        result.append(cards)
    return result


def side_of(match: Match, deal: Deal, owner: str | None) -> int | None:
    if owner is None:
        return None
    if owner in match.sides:
        return match.sides.index(owner)
    return next(i for i, team in enumerate(match.team_members()) if owner in team)


def per_side(match: Match, deal: Deal, values: list[Any], start: Any) -> list[Any]:
    result = [copy.copy(start) for _ in match.sides]
    for owner, value in zip(deal.owners, values, strict=True):
        i = side_of(match, deal, owner)
        assert i is not None
        result[i] = result[i] + value
    return result


@settings(max_examples=settings().max_examples * 3 // 2)  # 75, 150 thorough; fewer under mutmut
@given(variant_matches(form="full"))
def test_every_variant_scores_as_the_oracle(match: Match) -> None:
    sheet = score_match(match)
    keys = variants.get(match.variant).points_keys
    rules = match.settings.to_dict()
    cappotto = []
    rows = []
    for row, deal in zip(sheet.deals, match.deals, strict=True):
        piles = full_cards(match, deal)
        expected = oracle.score(
            piles,
            rules,
            match.variant,
            sweeps=per_side(match, deal, list(deal.sweeps), 0),
            last=side_of(match, deal, deal.last_capture),
            cleared=side_of(match, deal, deal.last_play_cleared),
            aces=per_side(match, deal, [deal.ace_sweeps_of(i) for i in range(len(deal.owners))], 0),
            declarations=per_side(
                match, deal, [list(deal.declared(i)) for i in range(len(deal.owners))], []
            ),
        )
        assert [p.to_dict(keys) for p in row.points] == expected
        rows.append([p["total"] for p in expected])
        ten = [i for i, cards in enumerate(piles) if sum(c.endswith("d") for c in cards) == 10]
        cappotto.append(
            ten[0]
            if ten and match.variant == "cirulla" and match.settings.cappotto == "win"
            else None
        )
        assert row.cappotto == (match.sides[ten[0]] if ten and match.variant == "cirulla" else None)
    won, at = oracle.winner(rows, match.settings.target, cappotto)
    assert (sheet.winner, sheet.decided_at) == (None if won is None else match.sides[won], at)


def as_tallies(match: Match) -> Match:
    return match.with_deals(
        [
            Deal(
                d.owners,
                tuple(Pile(p.count, p.coins, p.best) for p in d.piles),
                d.sweeps,
                d.last_capture,
                declarations=d.declarations,
                ace_sweeps=d.ace_sweeps,
                last_play_cleared=d.last_play_cleared,
            )
            for d in match.deals
        ]
    )


@given(variant_matches(form="full"))
def test_tally_scores_as_full_in_every_variant(match: Match) -> None:
    assert score_match(as_tallies(match)) == score_match(match)


@given(
    st.sampled_from(VARIANT_NAMES).flatmap(
        lambda v: st.tuples(
            variant_matches(v, max_deals=6), variant_settings(v, None), variant_settings(v, None)
        )
    )
)
def test_rescore_a_then_b_then_c_equals_c_in_every_variant(
    case: tuple[Match, Settings, Settings],
) -> None:
    match, b, c = case
    fits = len(match.players) in (4, 6)
    per_team = any(d.owners != match.players for d in match.deals)
    b = b.replace(partnerships=(b.partnerships and fits) or per_team or match.variant == "scopone")
    c = c.replace(partnerships=(c.partnerships and fits) or per_team or match.variant == "scopone")
    via_b, _, _ = rescore(match, b)
    via_c, sheet, _ = rescore(via_b, c)
    assert via_c == match.with_settings(c)
    assert sheet == score_match(match.with_settings(c))


@given(variant_matches(form="mixed", max_deals=5))
def test_every_variant_round_trips_through_json(match: Match) -> None:
    data = json.loads(json.dumps(match_to_json(match)))
    assert parse_match(data) == match
    assert ("variant" in data) == (match.variant != "scopa")
    sheet = sheet_to_json(score_match(match))
    keys = variants.get(match.variant).points_keys
    for row in sheet["deals"]:
        for points in row["points"].values():
            assert tuple(points) == keys
            assert points["total"] == sum(v for k, v in points.items() if k != "total")


@given(
    st.sampled_from(VARIANT_NAMES).flatmap(
        lambda v: st.tuples(variant_matches(v, max_deals=8), variant_settings(v, None))
    )
)
def test_what_changed_names_every_deal_cell_that_moved(case: tuple[Match, Settings]) -> None:
    match, other = case
    keep = match.settings.partnerships
    _, after, changes = rescore(match, other.replace(partnerships=keep))
    before = score_match(match)
    moved = [
        (old.number, side, a.total, b.total)
        for old, new in zip(before.deals, after.deals, strict=True)
        for side, a, b in zip(before.sides, old.points, new.points, strict=True)
        if a.total != b.total
    ]
    assert list(changes.deals) == moved
