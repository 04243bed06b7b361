# The tables of bad input hold each expected message whole, one case a line: E501 off here.
# ruff: noqa: E501

"""The category form of a deal (docs/formats.md, "A deal: the category form"): who took each
point, scored under every setting against the independent scorer (:mod:`tests.oracle`), the
facts turned into it, its messages, and the refused change of partnerships."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scopa import variants
from scopa.categories import to_categories
from scopa.errors import InputError, SettingsChangeRefused
from scopa.formats import match_to_json, parse_deal, parse_match, sheet_to_json
from scopa.match import Match, rescore, score_match
from scopa.rules import Settings
from scopa.variants import VARIANT_NAMES
from tests import oracle
from tests.strategies import variant_matches, variant_settings
from tests.test_variants_sheet import full_cards, per_side, side_of


def top(values: list[int], sides: tuple[str, ...]) -> Any:
    """Who is at the top of ``values`` as the category form writes it, worked out plainly."""
    best = max(values)
    if best <= 0:
        return None
    at_top = [s for s, v in zip(sides, values, strict=True) if v == best]
    return at_top[0] if len(at_top) == 1 else at_top


def category_json(match: Match, deal: Any) -> dict[str, Any]:
    """A deal of known facts written by hand in the category form, from its cards alone."""
    sides = match.sides
    piles = full_cards(match, deal)
    mode = match.settings.primiera_mode
    if mode == "sevens":
        primiera = top([sum(c.startswith("7") for c in p) for p in piles], sides)
    else:
        primiera = top([oracle.primiera_total(p) for p in piles], sides)
    data: dict[str, Any] = {
        "categories": {
            "cards": top([len(p) for p in piles], sides),
            "coins": top([sum(c.endswith("d") for c in p) for p in piles], sides),
            "settebello": next(s for s, p in zip(sides, piles, strict=True) if "7d" in p),
            "primiera": primiera,
        },
        "sweeps": dict(zip(sides, per_side(match, deal, list(deal.sweeps), 0), strict=True)),
        "last_capture": None
        if deal.last_capture is None
        else sides[side_of(match, deal, deal.last_capture) or 0],
    }
    run_key = variants.get(match.variant).category_run
    if run_key:
        runs = {s: oracle.coin_run(p) for s, p in zip(sides, piles, strict=True)}
        data[run_key] = {s: r for s, r in runs.items() if r >= 3}
    if match.variant == "cirulla":
        data["grande"] = next(
            (s for s, p in zip(sides, piles, strict=True) if all(r + "d" in p for r in "JHK")),
            None,
        )
        declared = per_side(
            match, deal, [list(deal.declared(i)) for i in range(len(deal.owners))], []
        )
        data["declarations"] = {s: d for s, d in zip(sides, declared, strict=True) if d}
    if match.variant == "assi":
        aces = per_side(match, deal, [deal.ace_sweeps_of(i) for i in range(len(deal.owners))], 0)
        data["ace_sweeps"] = dict(zip(sides, aces, strict=True))
    if match.variant == "scopone":
        cleared = side_of(match, deal, deal.last_play_cleared)
        data["last_play_cleared"] = None if cleared is None else sides[cleared]
    return data


@st.composite
def matches_and_settings(draw: st.DrawFn) -> tuple[Match, Settings]:
    """A match of full piles and other settings of its variant: the same partnerships and the
    same way of counting the primiera (the two facts the category form fixes)."""
    name = draw(st.sampled_from(VARIANT_NAMES))
    match = draw(variant_matches(name, max_deals=6, form="full"))
    other = draw(variant_settings(name, match.settings.partnerships))
    other = other.replace(primiera_mode=match.settings.primiera_mode)
    return match, other


@given(matches_and_settings())
def test_categories_of_known_facts_score_as_the_oracle_under_any_settings(
    case: tuple[Match, Settings],
) -> None:
    match, other = case
    data = match_to_json(match)
    data["deals"] = [category_json(match, d) for d in match.deals]
    by_categories = parse_match(json.loads(json.dumps(data)))
    assert match_to_json(by_categories)["deals"] == data["deals"]  # written back as read
    for settings in (match.settings, other):
        rules = settings.to_dict()
        _rescored, sheet, _ = rescore(by_categories, settings)
        keys = variants.get(match.variant).points_keys
        rows, cappotto = [], []
        for row, deal in zip(sheet.deals, match.deals, strict=True):
            piles = full_cards(match, deal)
            expected = oracle.score(
                piles,
                rules,
                match.variant,
                sweeps=per_side(match, deal, list(deal.sweeps), 0),
                last=side_of(match, deal, deal.last_capture),
                cleared=side_of(match, deal, deal.last_play_cleared),
                aces=per_side(
                    match, deal, [deal.ace_sweeps_of(i) for i in range(len(deal.owners))], 0
                ),
                declarations=per_side(
                    match, deal, [list(deal.declared(i)) for i in range(len(deal.owners))], []
                ),
            )
            assert [p.to_dict(keys) for p in row.points] == expected
            rows.append([p["total"] for p in expected])
            ten = [i for i, p in enumerate(piles) if sum(c.endswith("d") for c in p) == 10]
            wins = ten and match.variant == "cirulla" and settings.cappotto == "win"
            cappotto.append(ten[0] if wins else None)
        won, at = oracle.winner(rows, settings.target, cappotto)
        assert (sheet.winner, sheet.decided_at) == (None if won is None else match.sides[won], at)


@given(matches_and_settings())
def test_facts_turned_into_categories_score_as_the_facts(case: tuple[Match, Settings]) -> None:
    match, other = case
    converted = match.with_deals([to_categories(d, match) for d in match.deals])
    assert [category_json(match, d) for d in match.deals] == [
        json.loads(json.dumps(d)) for d in match_to_json(converted)["deals"]
    ]
    for settings in (match.settings, other):
        assert sheet_to_json(score_match(converted.with_settings(settings))) == sheet_to_json(
            score_match(match.with_settings(settings))
        )


def two(**rules: Any) -> Match:
    return parse_match({"players": ["Anna", "Bruno"], "rules": rules})


COMMON: dict[str, Any] = {
    "categories": {
        "cards": "Anna",
        "coins": ["Anna", "Bruno"],
        "settebello": "Bruno",
        "primiera": None,
    },
    "sweeps": {"Anna": 1},
    "last_capture": "Bruno",
}


def with_(**changes: Any) -> dict[str, Any]:
    deal: dict[str, Any] = json.loads(json.dumps(COMMON))
    for key, value in changes.items():
        if key in deal["categories"] or key == "extra_category":
            deal["categories"][key.replace("extra_category", "napola")] = value
        else:
            deal[key] = value
    return deal


@pytest.mark.parametrize(
    ("deal", "message"),
    [
        (
            with_(cards="Zeno"),
            "deals[0].categories.cards: 'Zeno' is not a side of this match (expected one of Anna, Bruno)",
        ),
        (
            with_(coins=["Anna"]),
            "deals[0].categories.coins: a tie needs two sides or more (1 given): name a side alone as a string",
        ),
        (with_(coins=["Anna", "Anna"]), "deals[0].categories.coins[1]: 'Anna' is listed twice"),
        (
            with_(settebello=["Anna", "Bruno"]),
            "deals[0].categories.settebello: the settebello is never tied: name the side that took it",
        ),
        (
            with_(settebello=None),
            "deals[0].categories.settebello: somebody always takes settebello: name the side that took it",
        ),
        (
            with_(cards=None),
            "deals[0].categories.cards: somebody always takes cards: name the side that took it, or a list of the sides that tied",
        ),
        (
            with_(primiera=3),
            "deals[0].categories.primiera: expected a side's name, a list of the sides that tied, or null, found 3",
        ),
        (
            with_(extra_category="Anna"),
            "deals[0].categories.napola: not a category of the category form (expected cards, coins, settebello, primiera)",
        ),
        (
            {"categories": {"cards": "Anna"}},
            "deals[0].categories.coins: missing (every category must be given: the side that took it, a list of the sides that tied, or null for nobody)",
        ),
        (
            with_(sweeps={"Anna": 21}),
            "deals[0].sweeps.Anna: 21 is outside 0-20 (a number of sweeps)",
        ),
        (
            with_(sweeps={"Anna": 12, "Bruno": 9}),
            "deals[0].sweeps.Bruno: 21 sweeps in one deal (at most 20: every sweep takes at least 2 of the 40 cards)",
        ),
        (
            with_(napola={"Anna": 3, "Bruno": 4}),
            "deals[0].napola: only one side can hold the ace, two and three of coins (2 given)",
        ),
        (
            with_(napola={"Anna": 2}),
            "deals[0].napola.Anna: 2 is outside 3-10 (the run of coins from the ace)",
        ),
        (
            with_(napola={"Anna": 7}),
            "deals[0].napola.Anna: a run of 7 from the ace holds the 7 of coins, but the settebello went to Bruno",
        ),
        (
            with_(napola={"Bruno": 10}),
            "deals[0].napola.Bruno: a run of 10 is all ten coins, so the coins went to Bruno alone",
        ),
        (with_(piles={}), "deals[0].piles: a deal has either piles or categories, not both"),
        (
            with_(declarations={}),
            "deals[0].declarations: unknown key in a deal of the category form (expected categories, napola, sweeps, last_capture)",
        ),
    ],
)
def test_bad_category_deals_say_what_and_where(deal: dict[str, Any], message: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_match({"players": ["Anna", "Bruno"], "deals": [deal]})
    assert str(caught.value) == message


def test_napola_in_play_asks_the_run_of_a_new_deal_but_not_of_a_match_file() -> None:
    match = two(napola="run")
    with pytest.raises(InputError) as caught:
        parse_deal(COMMON, match)
    assert caught.value.where == "napola"
    assert "the match plays napola" in str(caught.value)
    assert [p.napola for p in match.points(parse_deal({**COMMON, "napola": {}}, match))] == [0, 0]
    deal = parse_deal({**COMMON, "napola": {"Anna": 5}}, match)
    assert [p.napola for p in match.points(deal)] == [5, 0]
    # Recorded while napola was off, read back from a file with napola on: scores no napola.
    file = {"players": ["Anna", "Bruno"], "rules": {"napola": "flat"}, "deals": [COMMON]}
    assert sheet_to_json(score_match(parse_match(file)))["totals"] == {"Anna": 2, "Bruno": 1}
    assert "napola" not in match_to_json(parse_match(file))["deals"][0]


def test_every_setting_re_scores_a_category_deal() -> None:
    match = two(napola="flat").with_deals(
        [parse_deal({**COMMON, "napola": {"Anna": 4}}, two(napola="flat"))]
    )
    totals = sheet_to_json(score_match(match))["totals"]
    assert totals == {"Anna": 5, "Bruno": 1}  # cards, sweep, napola 3; settebello
    for change, expected in (
        ({"napola": "run"}, {"Anna": 6, "Bruno": 1}),
        ({"ties": "share"}, {"Anna": 6, "Bruno": 2}),
        ({"last_capture_sweep": True}, {"Anna": 5, "Bruno": 2}),
        ({"napola": "off"}, {"Anna": 2, "Bruno": 1}),
        ({"target": 5}, {"Anna": 5, "Bruno": 1}),
    ):
        _, sheet, _ = rescore(match, change)
        assert sheet_to_json(sheet)["totals"] == expected, change
    assert sheet_to_json(rescore(match, {"target": 5})[1])["winner"] == "Anna"


def test_a_change_of_partnerships_is_refused_naming_the_first_category_deal() -> None:
    players = ["Anna", "Bruno", "Carla", "Dario"]
    pile_deal = {
        "piles": {
            "Anna": {"count": 10, "coins": ["A", "2", "3"], "best": {"c": "7", "s": "7", "b": "7"}},
            "Bruno": {"count": 10, "coins": ["4", "5", "6"], "best": {}},
            "Carla": {"count": 10, "coins": ["7", "J"], "best": {}},
            "Dario": {"count": 10, "coins": ["H", "K"], "best": {}},
        }
    }
    cats = {
        "categories": {
            "cards": ["Anna", "Bruno", "Carla", "Dario"],
            "coins": ["Anna", "Bruno"],
            "settebello": "Carla",
            "primiera": None,
        }
    }
    match = parse_match({"players": players, "deals": [pile_deal, cats, cats]})
    with pytest.raises(SettingsChangeRefused) as caught:
        rescore(match, {"partnerships": True})
    assert str(caught.value) == (
        "partnerships cannot be changed: deal 2 was recorded as who took each point, which "
        "cannot be split among partners or pooled"
    )
    teams = parse_match({"players": players, "rules": {"partnerships": True}})
    with pytest.raises(InputError) as named:
        parse_deal(cats, teams)
    assert str(named.value) == (
        "categories.cards[0]: 'Anna' plays in a team: with partnerships on, name the team "
        "(Anna & Carla, Bruno & Dario)"
    )


def test_escoba_and_cirulla_have_their_own_categories() -> None:
    escoba = parse_match({"variant": "escoba", "players": ["Ana", "Beto"]})
    deal = parse_deal({"categories": deal_cats(("Ana", "Beto")), "sweeps": {"Ana": 2}}, escoba)
    row = sheet_to_json(score_match(escoba.with_deals([deal])))["deals"][0]["points"]
    assert row["Ana"] == {
        "cards": 1,
        "coins": 0,
        "settebello": 1,
        "primiera": 1,
        "sweeps": 2,
        "total": 5,
    }
    with pytest.raises(
        InputError,
        match=r"^napola: unknown key in a deal of the category form \(expected categories, sweeps, last_capture\)$",
    ):
        parse_deal({"categories": deal_cats(("Ana", "Beto")), "napola": {}}, escoba)
    cirulla = parse_match({"variant": "cirulla", "players": ["Anna", "Bruno"]})
    worked: dict[str, Any] = {  # docs/rules.md 9.6's worked example, as a paper sheet has it
        "categories": {"cards": "Anna", "coins": "Anna", "settebello": "Bruno", "primiera": "Anna"},
        "piccola": {"Anna": 4},
        "grande": "Anna",
        "sweeps": {"Bruno": 1},
        "last_capture": "Bruno",
        "declarations": {"Anna": ["cirulla"]},
    }
    row = sheet_to_json(score_match(cirulla.with_deals([parse_deal(worked, cirulla)])))["deals"][0]
    assert row["points"]["Anna"]["total"] == 15
    assert row["points"]["Bruno"]["total"] == 2
    assert row["cappotto"] is None
    all_ten = {
        **worked,
        "categories": {**worked["categories"], "settebello": "Anna"},
        "piccola": {"Anna": 10},
    }
    sheet = sheet_to_json(score_match(cirulla.with_deals([parse_deal(all_ten, cirulla)])))
    assert (sheet["winner"], sheet["deals"][0]["cappotto"]) == ("Anna", "Anna")
    with pytest.raises(
        InputError,
        match=r"^piccola\.Anna: a run of 10 is all ten coins, so the grande went to Anna$",
    ):
        parse_deal({**all_ten, "grande": "Bruno"}, cirulla)


def deal_cats(sides: tuple[str, str]) -> dict[str, Any]:
    a, b = sides
    return {"cards": a, "coins": b, "settebello": a, "primiera": a}


def test_the_command_line_scores_a_match_of_category_deals() -> None:
    from tests.test_cli import run

    match = {
        "players": ["Anna", "Bruno"],
        "rules": {"napola": "run"},
        "deals": [{**COMMON, "napola": {"Anna": 3}}],
    }
    done = run(["score", "-"], json.dumps(match))
    assert (done.returncode, done.stderr) == (0, "")
    assert json.loads(done.stdout)["totals"] == {"Anna": 5, "Bruno": 1}
    bad = {
        **match,
        "deals": [{**COMMON, "categories": {**COMMON["categories"], "settebello": None}}],
    }
    done = run(["score", "-"], json.dumps(bad))
    assert (done.returncode, done.stdout) == (2, "")
    assert "deals[0].categories.settebello: somebody always takes settebello" in done.stderr


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 12)
    | st.sampled_from(["Anna", "Bruno", "Zeno", ""]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["Anna", "Bruno", "x"]), inner, max_size=2)
    ),
    max_leaves=6,
)


@given(
    st.sampled_from(VARIANT_NAMES),
    st.dictionaries(
        st.sampled_from(["cards", "coins", "settebello", "primiera", "napola"]), JSON, max_size=5
    ),
    st.dictionaries(
        st.sampled_from(
            [
                "napola",
                "piccola",
                "grande",
                "sweeps",
                "last_capture",
                "declarations",
                "ace_sweeps",
                "last_play_cleared",
                "piles",
            ]
        ),
        JSON,
        max_size=4,
    ),
)
def test_any_category_deal_is_read_or_refused_with_a_place(
    variant: str, categories: dict[str, Any], rest: dict[str, Any]
) -> None:
    players = ["Anna", "Bruno", "Carla", "Dario"] if variant == "scopone" else ["Anna", "Bruno"]
    match = parse_match(
        {
            "variant": variant,
            "players": players,
            "rules": {"napola": "flat"} if variant in ("scopa", "assi") else {},
        }
    )
    where: str | None
    try:
        deal = parse_deal({"categories": categories, **rest}, match)
    except InputError as error:
        where = error.where
    else:
        where = None
    if where is not None:
        assert where  # every refusal names its place
        return
    score_match(match.with_deals([deal]))
    assert (
        parse_deal(
            json.loads(json.dumps(match_to_json(match.with_deals([deal]))["deals"][0])), match
        )
        == deal
    )


def test_cirulla_teams_may_hold_one_more_sweep_per_player() -> None:
    """Each player's pile may hold one sweep more than half its cards in Cirulla (the
    dealer's low table takes 4 for 3), so four players in two teams may sweep 24 times in a
    deal of the category form, as their piles may (it capped the teams at 22)."""
    teams = ("Anna & Carla", "Bruno & Dario")

    def match(sweeps: tuple[int, int]) -> dict[str, Any]:
        deal = {
            "categories": {
                "cards": teams[0],
                "coins": teams[0],
                "settebello": teams[1],
                "primiera": teams[0],
            },
            "sweeps": dict(zip(teams, sweeps, strict=True)),
            "last_capture": teams[0],
        }
        players = ["Anna", "Bruno", "Carla", "Dario"]
        return {
            "players": players,
            "variant": "cirulla",
            "rules": {"partnerships": True},
            "deals": [deal],
        }

    assert parse_match(match((12, 12))).deals[0].sweeps == (12, 12)
    with pytest.raises(InputError) as caught:
        parse_match(match((13, 12)))
    assert "25 sweeps in one deal (at most 24" in str(caught.value)
