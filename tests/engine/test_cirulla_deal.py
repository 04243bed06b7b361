"""Cirulla conformance: the deal, the redeal, the dealer's opening table, declarations, the
last play and the deal's facts (docs/rules.md 9.5, 9.8.1-5, 9.8.8, 9.8.10). Each case names the
section it checks."""

from __future__ import annotations

import random

import pytest

from scopa import variants as sheet_variants
from scopa.cards import CardSet
from scopa.engine.cirulla import declaration, opening_sweeps
from scopa.engine.players import RandomPlayer, play_out
from scopa.engine.simulate import Scorer, Simulation
from scopa.engine.state import Play, apply, deal, legal_plays, opening_fifteens, to_deal
from scopa.engine.variants import VARIANTS, get_variant
from scopa.errors import UnknownVariantError
from tests.engine.helpers import StackedDeck, mask, position, two_player_deck

CIRULLA = VARIANTS["cirulla"]
PLAIN = "Kd Kc 6s 5b"  # 31: no opening, no ace, no redeal


def cards(text: str) -> int:
    return CardSet.parse(text).mask


@pytest.mark.parametrize(
    ("players", "rounds"),
    [pytest.param(2, 6, id="9.5-deal 2 players 6 rounds"),
     pytest.param(3, 4, id="9.5-deal 3 players 4 rounds"),
     pytest.param(4, 3, id="9.5-deal 4 players 3 rounds")],
)  # fmt: skip
def test_deal_shapes(players: int, rounds: int) -> None:
    """9.5 players and deal: 3 each and 4 on the table, then 3 each until the stock is out;
    the player after the dealer leads, the dealer plays last."""
    dealer = players - 1
    state = deal(CIRULLA, players, seed=11, dealer=dealer)
    assert [h.bit_count() for h in state.hands] == [3] * players
    assert len(state.stock) == 36 - 3 * players
    assert state.turn == 0
    dealt_rounds = 1
    while not state.finished:
        before = state
        state = apply(state, legal_plays(state)[0])
        if state.stock != before.stock:
            assert before.turn == dealer, "a round ends with the dealer's play"
            dealt_rounds += 1
    assert dealt_rounds == rounds


def test_five_players_are_refused() -> None:
    """9.5: the engine deals Cirulla for 2, 3 and 4."""
    with pytest.raises(UnknownVariantError, match="cirulla is not dealt for 5 players"):
        deal(CIRULLA, 5, seed=1)


def test_no_kings_redeal() -> None:
    """9.5 deal: no kings redeal (3 kings on the table stay)."""
    state = deal(
        CIRULLA, 2, rng=StackedDeck(two_player_deck("2d 3d 4d", "2c 3c 4c", "Kd Kc Ks 2b"))
    )
    assert state.redeals == 0
    assert state.table == cards("Kd Kc Ks 2b")


@pytest.mark.parametrize(
    ("table", "redeals"),
    [pytest.param("Ad Ac 2s 4b", 1, id="9.5-redeal two aces"),
     pytest.param("Ad Ac As 4b", 1, id="9.5-redeal three aces"),
     pytest.param("Ad 5s 2s 4b", 0, id="9.5-redeal one ace stays"),
     pytest.param("Ad Ac 6s 7b", 0, id="9.8.1 two aces and 15: the dealer takes, no redeal"),
     pytest.param("Ad Ac Ks Kb", 1, id="9.5-redeal two aces, 22: redeal")],
)  # fmt: skip
def test_redeal_on_two_aces(table: str, redeals: int) -> None:
    """9.5 redeal: 2 or more aces among the 4 table cards: the same dealer deals again, unless
    the dealer takes the table first (9.8.1)."""
    first = two_player_deck("2d 3d 4d", "2c 3c 4c", table)
    second = two_player_deck("5d 6d 7d", "5c 6c 4s", PLAIN)
    state = deal(CIRULLA, 2, rng=StackedDeck(first, second))
    assert state.redeals == redeals
    assert state.dealer == 0
    if redeals:
        assert state.table == cards(PLAIN)
    assert state.cards_in_play() == 40


def test_low_table_comes_before_the_redeal() -> None:
    """9.5 redeal / 9.8.3: with ``low_table`` two aces totalling 9 or less are taken."""
    low = get_variant("cirulla", {"low_table": "on"})
    deck = two_player_deck("2d 3d 4d", "2c 3c 4c", "Ad Ac 2s 4b")
    state = deal(low, 2, rng=StackedDeck(deck))
    assert (state.redeals, state.sweeps, state.table) == (0, (3, 0), 0)


@pytest.mark.parametrize(
    ("table", "low", "sweeps"),
    [pytest.param("5d 5s 3b 2c", False, 1, id="9.5-opening total 15: 1 sweep"),
     pytest.param("Kd Kc 6s 4b", False, 2, id="9.5-opening total 30: 2 sweeps"),
     pytest.param("Kd Kc Hs Ab", False, 2, id="9.8.2 30 is a total: no split needed"),
     pytest.param("Kd Kc Hs 2b", False, 0, id="9.5-opening 31: nothing"),
     pytest.param("Ad 2c 3s 2b", False, 0, id="9.8.3 low table off by default"),
     pytest.param("Ad 2c 3s 2b", True, 3, id="9.8.3 low_table: 9 or less, 3 sweeps"),
     pytest.param("Ad 2c 3s 3b", True, 3, id="9.8.3 low_table: exactly 9"),
     pytest.param("Ad 2c 3s 4b", True, 0, id="9.8.3 low_table: 10 is not low"),
     pytest.param("7c 2d 3s Ab", False, 1, id="9.5-matta any value: 6 + 9 = 15"),
     pytest.param("7c 2d 3s Ab", True, 3, id="9.5-matta whichever scores more: low table"),
     pytest.param("7c Kd Ks Hb", False, 2, id="9.5-matta as an ace: 29 + 1 = 30"),
     pytest.param("7c Kd 2s 2b", False, 1, id="9.5-matta: 14 + 1 = 15"),
     pytest.param("7c Kd Ks Kb", False, 0, id="9.5-matta: 31 and up, nothing")],
)  # fmt: skip
def test_opening_table(table: str, low: bool, sweeps: int) -> None:
    """9.5 the dealer's opening table: the sweeps, in the dealer's ``sweeps``; the dealer is
    the last capturer; the first player faces an empty table."""
    assert opening_sweeps(cards(table), low) == sweeps
    variant = get_variant("cirulla", {"low_table": "on" if low else "off"})
    state = deal(variant, 2, rng=StackedDeck(two_player_deck("5c 6c 7s", "4d 4s 4c", table)))
    if not sweeps:
        assert state.table == cards(table)
        assert state.last_capturer is None
        return
    assert state.sweeps == (sweeps, 0)
    assert state.piles == (cards(table), 0)
    assert (state.table, state.last_capturer) == (0, 0)
    assert all(p.trails for p in legal_plays(state)), "the first player trails"


def test_escoba_keeps_its_two_fifteens() -> None:
    """9.8.2 against Escoba (9.4): 10 + 10 + 9 + 1 is no two fifteens there."""
    assert opening_fifteens(cards("Kd Kc Hs Ab")) == 0
    assert opening_sweeps(cards("Kd Kc Hs Ab")) == 2


def test_opening_sweeps_reach_the_record() -> None:
    """9.5 / docs/formats.md: the opening sweeps are counted in the dealer's ``sweeps``; the sheet
    allows 3 sweeps for the 4 cards of a low table."""
    low = get_variant("cirulla", {"low_table": "on"})
    state = deal(low, 2, rng=StackedDeck(two_player_deck("5c 6c 7s", "4d 4s 4b", "Ad 2c 3s 2b")))
    state = play_out(state, [RandomPlayer(random.Random(1))] * 2)
    record = to_deal(state)
    assert record.sweeps[0] >= 3
    record.check(sheet_variants.get("cirulla"))


@pytest.mark.parametrize(
    ("hand", "points", "expected"),
    [pytest.param("2d 3c 4s", (3, 10), ("cirulla", -1), id="9.5-declarations total 9: cirulla"),
     pytest.param("2d 3c 5s", (3, 10), ("", -1), id="9.5-declarations total 10: nothing"),
     pytest.param("Kd Kc Ks", (3, 10), ("decino", -1), id="9.5-declarations three kings: decino"),
     pytest.param("7c 4s 4b", (3, 10), ("decino", 3), id="9.5-matta example: decino as a 4"),
     pytest.param("7c As 2b", (3, 10), ("cirulla", 0), id="9.5-matta example: cirulla as an ace"),
     pytest.param("7c 4s 5b", (3, 10), ("", -1), id="9.5-matta example: 1 + 4 + 5 = 10, nothing"),
     pytest.param("7d 7s 7b", (3, 10), ("decino", -1), id="9.5-declarations the 7 of coins"),
     pytest.param("7c 7s 7b", (3, 10), ("decino", 6), id="9.5-matta with two sevens"),
     pytest.param("Ad As Ab", (3, 10), ("decino", -1), id="9.8.5 both: the higher, decino"),
     pytest.param("Ad As Ab", (10, 3), ("cirulla", -1), id="9.8.5 both: the higher, cirulla"),
     pytest.param("3d 3s 3b", (3, 0), ("cirulla", -1), id="9.3 decino_points 0: not played"),
     pytest.param("2d 3c 4s", (0, 10), ("", -1), id="9.3 cirulla_points 0: not played"),
     pytest.param("7c Ad As", (3, 10), ("decino", 0), id="9.8.5 matta both ways: decino"),
     pytest.param("2d 2s 2b", (5, 5), ("decino", -1), id="9.8.5 equal worth: decino (engine)")],
)  # fmt: skip
def test_declaration(hand: str, points: tuple[int, int], expected: tuple[str, int]) -> None:
    """9.5 declarations: one per hand, the matta wild, the higher under the settings."""
    assert declaration(cards(hand), *points) == expected


def test_every_hand_of_every_round_is_declared() -> None:
    """9.8.5: automatic in the engine, on every 3-card hand as it is received; the declared
    hand lies face up (``shown``) until played; to_deal records them (9.8.10)."""
    deck = two_player_deck("2d 3c 4s", "5c 6c Js", PLAIN, "Hd Hc Hs", "Ab 2b 3b")
    state = deal(CIRULLA, 2, rng=StackedDeck(deck))
    assert state.declarations == ((), ("cirulla",))
    assert state.shown == cards("2d 3c 4s")
    state = apply(state, Play.parse("2d"))
    assert state.shown == cards("3c 4s")
    while state.history and len(state.history) < 6:
        state = apply(state, next(p for p in legal_plays(state)))
    # The second round: the leader holds H H H (decino), the dealer A 2 3 (cirulla).
    assert state.hands == (cards("Ab 2b 3b"), cards("Hd Hc Hs"))
    assert state.declarations == (("cirulla",), ("cirulla", "decino"))
    assert state.shown == cards("Ab 2b 3b Hd Hc Hs")
    state = play_out(state, [RandomPlayer(random.Random(2))] * 2)
    record = to_deal(state)
    assert record.declarations[0][:1] == ("cirulla",)
    assert record.declarations[1][:2] == ("cirulla", "decino")
    record.check(sheet_variants.get("cirulla"), (6, 6))


def test_partners_each_declare_and_the_team_scores_them_all() -> None:
    """9.5 declarations: partners each declare their own hands; the team scores them all."""
    sim = Simulation(CIRULLA, 4, seed=3)
    scorer = Scorer(sim)
    seen = 0
    for seed in range(40):
        state = sim.play(seed, seed % 4)
        record = scorer.record(state)
        points = scorer.points(record)
        for team, seats in enumerate(((0, 2), (1, 3))):
            kinds = [k for s in seats for k in state.declarations[s]]
            want = sum(3 if k == "cirulla" else 10 for k in kinds)
            assert points[team].declarations == want
            seen += len(kinds)
    assert seen > 0


@pytest.mark.parametrize(
    ("hands", "table", "play", "sweeps"),
    [pytest.param(["", "Ad"], "5s 3c", "Ad x 5s 3c", (0, 0), id="9.8.8 take-all no sweep"),
     pytest.param(["", "5d"], "5s", "5d x 5s", (0, 0), id="9.8.8 last play: rank match no sweep"),
     pytest.param(["", "5d"], "Kd", "5d x Kd", (0, 0), id="9.8.8 last play: fifteen no sweep"),
     pytest.param(["4d", "Ad"], "5s 3c", "Ad x 5s 3c", (0, 1), id="9.5 sweeps: take-all is one"),
     pytest.param(["4d", "5d"], "Kd", "5d x Kd", (0, 1), id="9.5 sweeps: a fifteen clears")],
)  # fmt: skip
def test_sweeps_and_the_last_play(
    hands: list[str], table: str, play: str, sweeps: tuple[int, int]
) -> None:
    """9.5 sweeps and the end of the deal: any clearing capture is a sweep, the ace's take-all
    included, except the capture made with the deal's very last card."""
    state = position(hands, table, variant=CIRULLA, turn=1)
    after = apply(state, Play.parse(play))
    assert after.sweeps == sweeps
    assert after.ace_sweeps == ()
    assert after.last_capturer == 1


def test_leftovers_go_to_the_last_capturer() -> None:
    """9.5 / section 4: leftovers go to the last capturer and are not a sweep."""
    state = position(["", "4d"], "Ks 9c", variant=CIRULLA, turn=1, last=0)
    after = apply(state, Play.parse("4d"))
    assert after.finished
    assert (after.leftovers_to, after.sweeps) == (0, (0, 0))
    assert after.piles[0] == cards("Ks 9c 4d")


def test_the_facts_each_variant_records() -> None:
    """9.4 / docs/formats.md: Cirulla's deals carry declarations only, Scopa d'Assi's the ace
    take-alls, Scopone's the last-play clear; none of them in another variant."""
    assi = apply(
        position(["Ad 4c", "2c"], "5s 3c", variant=VARIANTS["assi"]), Play.parse("Ad x 5s 3c")
    )
    assert (assi.sweeps, assi.ace_sweeps) == ((0, 0), (1, 0))
    scopone = position(["", "", "", "5d"], "5s", variant=VARIANTS["scopone"], turn=3)
    cleared = apply(scopone, Play.parse("5d x 5s"))
    assert (cleared.sweeps, cleared.last_play_cleared, cleared.leftovers_to) == ((0,) * 4, 3, None)
    record = to_deal(cleared)
    assert (record.last_play_cleared, record.last_capture) == ("P4", None)
    for name, fact in (("scopone", "last_play_sweep"),):
        sim = Simulation(VARIANTS[name].with_options({fact: "on"}), 4)
        assert getattr(sim.rules, fact) is True
    sheet = Simulation(VARIANTS["scopone"].with_options({"last_play_sweep": "on"}), 4)
    partners = Scorer(sheet).points(record)
    plain = Scorer(Simulation(VARIANTS["scopone"], 4)).points(record)
    assert partners[1].sweeps == plain[1].sweeps + 1
    cirulla = to_deal(position(["", ""], "", variant=CIRULLA))
    assert (cirulla.ace_sweeps, cirulla.last_play_cleared) == ((), None)


def test_ace_sweep_option_only_changes_the_simulated_score() -> None:
    """9.4: the engine records every take-all in ``ace_sweeps`` whatever its ``ace_sweep``;
    the option sets how its simulations score them."""
    variant = VARIANTS["assi"].with_options({"ace_sweep": "on"})
    assert Simulation(variant, 2).rules.ace_sweep is True
    assert Simulation(VARIANTS["assi"], 2).rules.ace_sweep is False
    state = apply(position(["Ad 4c", "2c"], "5s 3c", variant=variant), Play.parse("Ad x 5s 3c"))
    assert state.ace_sweeps == (1, 0)
    assert mask("Ad 5s 3c") == state.piles[0]
