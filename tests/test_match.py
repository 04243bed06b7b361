"""The match: the sheet as a fold, game end, partnerships, re-scoring and what changed."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scopa.cards import CardSet
from scopa.deal import Deal, Pile
from scopa.errors import (
    InvalidDealError,
    InvalidMatchError,
    InvalidSettingError,
    SettingsChangeRefused,
)
from scopa.i18n import using
from scopa.match import Match, decide, rescore, score_match, seat_teams, team_name
from scopa.rules import Settings
from scopa.scoring import Points, clear_points_tables, score_deal
from tests.strategies import deals, matches, settings, variant_matches

# The worked example of docs/rules.md section 5: these cards take all four fixed points.
FOUR = CardSet.parse("Ad 2d 3d 5d 7d Kd Ac 2c 6c 7c Hc 2s 4s 7s Js Ks 2b 3b 5b 6b Hb Kb")
REST = CardSet.full() - FOUR
AB = ("Anna", "Bruno")


def deal(winner: str, winner_sweeps: int = 0, loser_sweeps: int = 0) -> Deal:
    """A two-player deal: ``winner`` scores 4 + its sweeps, the other only its sweeps."""
    big, small = Pile.of_cards(FOUR), Pile.of_cards(REST)
    if winner == "Anna":
        return Deal(AB, (big, small), (winner_sweeps, loser_sweeps))
    return Deal(AB, (small, big), (loser_sweeps, winner_sweeps))


def two(*deals_: Deal, **rules: object) -> Match:
    return Match(AB, Settings(**rules), deals_)  # type: ignore[arg-type]


def test_no_deals() -> None:
    sheet = score_match(two())
    assert sheet.sides == AB
    assert sheet.deals == ()
    assert sheet.totals == (0, 0)
    assert (sheet.status, sheet.winner, sheet.decided_at) == ("in_progress", None, None)


def test_running_totals_and_a_win() -> None:
    sheet = score_match(two(deal("Anna", 1, 2), deal("Anna", 2)))
    assert [row.totals for row in sheet.deals] == [(5, 2), (11, 2)]
    assert sheet.deals[0].points[0] == Points(1, 1, 1, 1, 1, 0, 5)
    assert sheet.deals[1].number == 2
    assert (sheet.status, sheet.winner, sheet.decided_at) == ("won", "Anna", 2)
    assert sheet.total_of("Bruno") == 2


def test_target_reached_only_at_a_deals_end() -> None:
    sheet = score_match(two(deal("Anna", 1, 2), deal("Anna", 1)))
    assert sheet.totals == (10, 2)
    assert sheet.winner is None


def test_both_past_the_target_the_highest_wins() -> None:
    sheet = score_match(two(deal("Anna", 3, 5), deal("Bruno", 5, 5)))
    assert [row.totals for row in sheet.deals] == [(7, 5), (12, 14)]
    assert (sheet.winner, sheet.decided_at) == ("Bruno", 2)


def test_a_tie_at_the_top_plays_on() -> None:
    match = two(deal("Anna", 1, 5), deal("Bruno", 2, 6), deal("Anna"))
    sheet = score_match(match)
    assert [row.totals for row in sheet.deals] == [(5, 5), (11, 11), (15, 11)]
    assert [row.after_end for row in sheet.deals] == [False, False, False]
    assert (sheet.winner, sheet.decided_at) == ("Anna", 3)
    assert score_match(match.with_deals(match.deals[:2])).status == "in_progress"


def test_deals_after_the_end_are_kept_and_flagged() -> None:
    sheet = score_match(two(deal("Anna", 1, 2), deal("Anna", 2), deal("Bruno", 3), deal("Bruno")))
    assert len(sheet.deals) == 4
    assert [row.after_end for row in sheet.deals] == [False, False, True, True]
    assert sheet.totals == (11, 2)
    assert sheet.deals[2].points[1].total == 7  # scored on its own, not added
    assert sheet.deals[2].totals == (11, 2)
    assert sheet.deals[3].totals == (11, 2)
    assert (sheet.winner, sheet.decided_at) == ("Anna", 2)


def test_lowering_the_target_ends_the_game_earlier() -> None:
    match = two(deal("Anna", 1, 2), deal("Anna", 2), deal("Bruno", 3))
    new_match, sheet, changes = rescore(match, {"target": 5})
    assert new_match.settings.target == 5
    assert (sheet.winner, sheet.decided_at) == ("Anna", 1)
    assert [row.after_end for row in sheet.deals] == [False, True, True]
    assert sheet.totals == (5, 2)
    assert changes.settings == (("target", 11, 5),)
    assert changes.decided_at == (2, 1)
    assert changes.winner is None  # Anna still wins
    assert changes.totals == (("Anna", 11, 5),)
    assert changes.deals == ()  # the deals' own points did not move
    assert changes.summary() == "Target 5: Anna 11 → 5; now decided at deal 1"


def test_raising_the_target_reopens_the_game() -> None:
    match = two(deal("Anna", 1, 2), deal("Anna", 2), deal("Bruno", 3))
    _, sheet, changes = rescore(match, Settings(target=21))
    assert sheet.status == "in_progress"
    assert sheet.decided_at is None
    assert [row.after_end for row in sheet.deals] == [False, False, False]
    assert sheet.totals == (11, 9)
    assert changes.winner == ("Anna", None)
    assert changes.decided_at == (2, None)
    assert changes.totals == (("Bruno", 2, 9),)
    assert changes.summary() == "Target 21: Bruno 2 → 9; no winner yet"


def test_rescore_reports_deal_points() -> None:
    match = two(deal("Anna", 1, 2), deal("Bruno"))
    _, sheet, changes = rescore(match, {"primiera": False, "napola": "flat"})
    # Whoever holds FOUR also holds A 2 3 of coins: napola 3, primiera 1 lost.
    assert [row.totals for row in sheet.deals] == [(7, 2), (7, 8)]
    assert changes.deals == ((1, "Anna", 5, 7), (2, "Bruno", 4, 6))
    assert changes.settings == (("primiera", True, False), ("napola", "off", "flat"))
    assert changes.any
    data = changes.to_dict()
    assert data["deals"][0] == {"number": 1, "side": "Anna", "before": 5, "after": 7}
    assert data["totals"] == {"Anna": {"before": 5, "after": 7}, "Bruno": {"before": 6, "after": 8}}
    assert data["winner"] is None
    assert data["summary"] == "Primiera off, Napola flat: Anna 5 → 7, Bruno 6 → 8"


def test_rescore_nothing_moved() -> None:
    match = two(deal("Anna"))
    _, _, changes = rescore(match, {"ties": "share"})
    assert not changes.any
    assert changes.summary() == "Ties share: no score changed"


def test_rescore_bad_setting_is_refused() -> None:
    with pytest.raises(InvalidSettingError, match=r"^rules\.target: 99 is outside"):
        rescore(two(), {"target": 99})


def test_sheets_equal_only_with_the_same_summary_and_rows() -> None:
    """A sheet's equality reads its totals, winner and variant as well as its rows."""
    won, lost = score_match(two(deal("Anna"))), score_match(two(deal("Bruno")))
    assert won == score_match(two(deal("Anna"))) != lost
    assert score_match(two()) != score_match(Match(AB, Settings.of("escoba")))  # no rows
    assert score_match(two(deal("Anna", 1), target=5)) != score_match(two(deal("Anna", 1)))


def test_a_rules_change_hands_on_the_packed_facts_while_the_sides_stay() -> None:
    fresh = two(deal("Anna"), deal("Bruno", 2))
    unscored = fresh.with_settings(Settings(primiera=False))  # nothing to hand on yet
    assert unscored.cached_keys is None
    assert score_match(unscored).totals == (3, 5)
    score_match(fresh)
    kept = fresh.with_settings(Settings(target=21))
    assert kept.cached_keys is fresh.cached_keys is not None
    four = Match(("A", "B", "C", "D"), Settings(), ())
    score_match(four)
    pooled = four.with_settings(Settings(partnerships=True))  # the sides change: packed anew
    assert pooled.cached_keys is None
    assert score_match(pooled).sides == ("A & C", "B & D")


def test_all_ten_coins_mark_a_cappotto_in_cirulla_only() -> None:
    ten = CardSet.parse("Ad 2d 3d 4d 5d 6d 7d Jd Hd Kd")
    coins, rest = Pile.of_cards(ten), Pile.of_cards(CardSet.full() - ten)
    deal_ = Deal(AB, (coins, rest), (0, 0))
    assert score_match(two(deal_)).deals[0].cappotto is None
    cirulla = Match(AB, Settings.of("cirulla"), (deal_,))
    assert score_match(cirulla).deals[0].cappotto == "Anna"


def test_decide() -> None:
    assert decide([11, 9], 11) == 0
    assert decide([12, 12], 11) is None
    assert decide([10, 9], 11) is None
    assert decide([5, 12, 12, 11], 11) is None
    assert decide([5, 13, 12], 11) == 1


# Partnerships ---------------------------------------------------------------------------------

FOUR_PLAYERS = ("Anna", "Bruno", "Carla", "Dario")


def per_player_deal() -> Deal:
    """Anna and Carla between them hold FOUR; Bruno and Dario REST."""
    anna = CardSet.parse("Ad 2d 3d 5d 7d Kd Ac 2c 6c 7c Hc")
    carla = FOUR - anna
    bruno = CardSet.parse("4d 6d Jd Hd 3c 4c 5c")
    dario = REST - bruno
    piles = tuple(Pile.of_cards(c) for c in (anna, bruno, carla, dario))
    return Deal(FOUR_PLAYERS, piles, (1, 0, 0, 2), "Dario")


def test_seats_alternate() -> None:
    assert seat_teams(FOUR_PLAYERS) == (("Anna", "Carla"), ("Bruno", "Dario"))
    six = ("A", "B", "C", "D", "E", "F")
    assert seat_teams(six) == (("A", "C", "E"), ("B", "D", "F"))
    assert team_name(["A", "C", "E"]) == "A & C & E"


def test_partnerships_pool_per_player_piles() -> None:
    match = Match(
        FOUR_PLAYERS, Settings(partnerships=True, last_capture_sweep=True), (per_player_deal(),)
    )
    sheet = score_match(match)
    assert sheet.sides == ("Anna & Carla", "Bruno & Dario")
    ac, bd = sheet.deals[0].points
    # Pooled: Anna & Carla hold the worked example's A pile, so all four fixed points.
    assert ac == Points(1, 1, 1, 1, 1, 0, 5)
    assert bd == Points(0, 0, 0, 0, 3, 0, 3)  # Dario's 2 sweeps + the leftover sweep
    # Alone: cards 11-7-11-11 tied at the top, nobody holds all four suits; Anna has 6 coins.
    solo = score_match(match.with_settings(Settings(last_capture_sweep=True)))
    assert solo.sides == FOUR_PLAYERS
    assert [p.total for p in solo.deals[0].points] == [3, 0, 0, 3]
    assert [p.cards + p.primiera for p in solo.deals[0].points] == [0, 0, 0, 0]


def test_per_team_deal_scores_as_its_per_player_deal() -> None:
    players_deal = per_player_deal()
    team_deal = Deal(
        ("Anna & Carla", "Bruno & Dario"),
        (Pile.of_cards(FOUR), Pile.of_cards(REST)),
        (1, 2),
        "Bruno & Dario",
    )
    match = Match(FOUR_PLAYERS, Settings(partnerships=True, napola="run"))
    a = score_match(match.with_deals([players_deal]))
    b = score_match(match.with_deals([team_deal]))
    assert a.deals == b.deals
    assert a.deals[0].points[0].napola == 3


def test_explicit_teams() -> None:
    match = Match(
        FOUR_PLAYERS,
        Settings(partnerships=True),
        (per_player_deal(),),
        (("Anna", "Bruno"), ("Carla", "Dario")),
    )
    sheet = score_match(match)
    assert sheet.sides == ("Anna & Bruno", "Carla & Dario")
    ab, cd = sheet.deals[0].points
    # Anna & Bruno: 18 cards, all 10 coins, no swords; Carla & Dario: 22 cards, no coins.
    assert ab == Points(cards=0, coins=1, settebello=1, primiera=0, sweeps=1, napola=0, total=3)
    assert cd == Points(cards=1, coins=0, settebello=0, primiera=0, sweeps=2, napola=0, total=3)


def test_six_players_in_two_teams() -> None:
    six = ("A", "B", "C", "D", "E", "F")
    hands = ["Ad 2d 3d 5d 7d Kd Ac 2c", "", "6c 7c Hc 2s 4s 7s Js", "", "Ks 2b 3b 5b 6b Hb Kb", ""]
    sets = [CardSet.parse(h) for h in hands]
    sets[5] = REST
    the_deal = Deal(six, tuple(Pile.of_cards(c) for c in sets), (0, 0, 1, 0, 0, 2))
    sheet = score_match(Match(six, Settings(partnerships=True), (the_deal,)))
    assert sheet.sides == ("A & C & E", "B & D & F")
    assert [p.total for p in sheet.deals[0].points] == [5, 2]


def test_partnerships_need_four_or_six_players() -> None:
    with pytest.raises(
        InvalidMatchError, match=r"^rules\.partnerships: partnerships need 4 or 6 players"
    ):
        Match(("A", "B", "C"), Settings(partnerships=True))
    with pytest.raises(SettingsChangeRefused, match="partnerships need 4 or 6 players"):
        rescore(Match(("A", "B", "C")), {"partnerships": True})


def test_turning_partnerships_on_pools_recorded_per_player_deals() -> None:
    match = Match(FOUR_PLAYERS, Settings(), (per_player_deal(),))
    _, sheet, changes = rescore(match, {"partnerships": True})
    assert sheet.sides == ("Anna & Carla", "Bruno & Dario")
    assert sheet.totals == (5, 2)
    assert changes.sides == (FOUR_PLAYERS, ("Anna & Carla", "Bruno & Dario"))
    assert changes.totals == ()
    assert changes.summary() == "Partnerships on: sides now Anna & Carla, Bruno & Dario"


def test_turning_partnerships_off_refused_for_per_team_deals() -> None:
    team_deal = Deal(
        ("Anna & Carla", "Bruno & Dario"), (Pile.of_cards(FOUR), Pile.of_cards(REST)), (0, 0)
    )
    match = Match(
        FOUR_PLAYERS,
        Settings(partnerships=True, target=61),
        (per_player_deal(), team_deal, per_player_deal(), team_deal),
    )
    before = score_match(match)
    with pytest.raises(SettingsChangeRefused) as info:
        rescore(match, {"partnerships": False, "target": 21})
    assert str(info.value) == (
        "partnerships cannot be turned off: deals 2, 4 were recorded per team, "
        "and a shared pile cannot be split"
    )
    assert match.settings == Settings(partnerships=True, target=61)
    assert score_match(match) == before
    with using("it"):
        assert info.value.text().startswith(
            "il gioco a coppie non si può disattivare: le mani 2, 4 sono state segnate"
        )
    single = match.with_deals(match.deals[:2])
    with pytest.raises(SettingsChangeRefused, match="deal 2 was recorded per team") as info:
        single.with_settings(Settings())
    with using("es"):
        assert info.value.text().startswith(
            "el juego por parejas no se puede desactivar: la mano 2 se anotó por parejas"
        )


def test_turning_partnerships_off_with_per_player_deals() -> None:
    match = Match(FOUR_PLAYERS, Settings(partnerships=True), (per_player_deal(),))
    _, sheet, _ = rescore(match, {"partnerships": False})
    assert sheet.sides == FOUR_PLAYERS


def test_per_team_deal_without_partnerships_cannot_be_scored() -> None:
    team_deal = Deal(
        ("Anna & Carla", "Bruno & Dario"), (Pile.of_cards(FOUR), Pile.of_cards(REST)), (0, 0)
    )
    match = Match(FOUR_PLAYERS)
    with pytest.raises(InvalidDealError, match="recorded per team, partnerships are off"):
        match.side_facts(team_deal)


def test_players_and_teams_are_checked() -> None:
    with pytest.raises(InvalidMatchError, match=r"^players: 1 player; a match has 2 to 6$"):
        Match(("A",))
    with pytest.raises(InvalidMatchError, match=r"^players: 7 player"):
        Match(tuple("ABCDEFG"))
    with pytest.raises(InvalidMatchError, match=r"^players\[2\]: 'A' is listed twice$"):
        Match(("A", "B", "A"))
    with pytest.raises(InvalidMatchError, match=r"^teams\[1\]\[1\]: 'E' is not a player$"):
        Match(("A", "B", "C", "D"), teams=(("A", "C"), ("B", "E")))
    with pytest.raises(InvalidMatchError, match=r"^teams\[1\]\[0\]: 'A' is in two teams$"):
        Match(("A", "B", "C", "D"), teams=(("A", "C"), ("A", "D")))
    with pytest.raises(InvalidMatchError, match=r"^teams: 'D' in no team$"):
        Match(("A", "B", "C", "D"), teams=(("A", "C"), ("B",)))
    with pytest.raises(InvalidMatchError, match=r"^teams: expected two teams, found 3$"):
        Match(("A", "B", "C", "D", "E", "F"), teams=(("A", "B"), ("C", "D"), ("E", "F")))
    with pytest.raises(InvalidMatchError, match=r"^teams: teams of 3 and 1; they must be equal$"):
        Match(("A", "B", "C", "D"), teams=(("A", "B", "C"), ("D",)))


# Properties -----------------------------------------------------------------------------------


@given(matches())
def test_sheet_is_a_fold_over_the_deals(match: Match) -> None:
    sheet = score_match(match)
    assert len(sheet.deals) == len(match.deals)
    totals = [0] * len(sheet.sides)
    ended = False
    for row, recorded in zip(sheet.deals, match.deals, strict=True):
        piles, sweeps, last = match.side_facts(recorded)
        assert row.points == score_deal(piles, sweeps, last, match.settings)
        assert row.after_end == ended
        if not ended:
            totals = [t + p.total for t, p in zip(totals, row.points, strict=True)]
        assert list(row.totals) == totals
        if not ended and decide(totals, match.settings.target) is not None:
            ended = True
            assert sheet.decided_at == row.number
    assert list(sheet.totals) == totals
    assert (sheet.winner is not None) == ended == (sheet.decided_at is not None)
    assert not sheet.by_cappotto  # Cirulla's alone
    if sheet.winner is not None:
        assert sheet.total_of(sheet.winner) == max(sheet.totals) >= match.settings.target


@given(matches(max_deals=4))
def test_match_points_are_the_sheets_rows(match: Match) -> None:
    """``Match.points``, the engine's scorer of one deal (partners pooled), gives each deal's
    row of the sheet."""
    sheet = score_match(match)
    for row, recorded in zip(sheet.deals, match.deals, strict=True):
        assert match.points(recorded) == row.points


@given(matches(max_deals=8), settings(None), settings(None))
def test_rescoring_a_then_b_then_c_equals_scoring_with_c(
    match: Match, b: Settings, c: Settings
) -> None:
    partnerships_ok = len(match.players) in (4, 6)
    b = b.replace(partnerships=b.partnerships and partnerships_ok)
    c = c.replace(partnerships=c.partnerships and partnerships_ok)
    per_team = any(d.owners != match.players for d in match.deals)
    if per_team:  # such deals need partnerships to stay on
        b, c = b.replace(partnerships=True), c.replace(partnerships=True)
    via_b, _, _ = rescore(match, b)
    via_c, sheet, _ = rescore(via_b, c)
    assert via_c == match.with_settings(c)
    assert sheet == score_match(match.with_settings(c))


@given(variant_matches())
def test_a_table_filled_for_a_whole_match_gives_the_points_of_one_key_at_a_time(
    match: Match,
) -> None:
    """``score_match`` fills a cold table with all the match's keys at once; a deal scored
    alone meets its keys one at a time."""
    clear_points_tables()
    one_at_a_time = [match.points(deal) for deal in match.deals]
    clear_points_tables()
    assert [row.points for row in score_match(match).deals] == one_at_a_time


@given(matches(max_deals=6), st.data())
def test_tally_match_scores_as_full_match(match: Match, data: st.DataObject) -> None:
    tallies = [
        Deal(
            d.owners,
            tuple(Pile(p.count, p.coins, p.best) for p in d.piles),
            d.sweeps,
            d.last_capture,
        )
        for d in match.deals
    ]
    assert score_match(match.with_deals(tallies)) == score_match(match)
    del data


def test_deals_strategy_builds_valid_team_deals() -> None:
    @given(deals(("Anna & Carla", "Bruno & Dario"), "tally"))
    def check(team_deal: Deal) -> None:
        team_deal.check()
        match = Match(FOUR_PLAYERS, Settings(partnerships=True), (team_deal,))
        assert score_match(match).sides == ("Anna & Carla", "Bruno & Dario")

    check()


# Mutants that survived (issue 8): a partial change keeps the other rules; "in no team" -------


def test_a_partial_rules_change_keeps_every_other_setting() -> None:
    house = Settings(target=21, napola="run", ties="share", last_capture_sweep=True)
    match = two(deal("Anna", 1), **house.to_dict())
    changed, _, changes = rescore(match, {"primiera": False})
    assert changed.settings == house.replace(primiera=False)
    assert [name for name, _, _ in changes.settings] == ["primiera"]
    assert Settings.parse({"target": 31}, "rules", base=house) == house.replace(target=31)


def test_every_player_in_no_team_is_named() -> None:
    with pytest.raises(InvalidMatchError, match=r"^teams: 'E', 'F' in no team$"):
        Match(("A", "B", "C", "D", "E", "F"), teams=(("A", "C"), ("B", "D")))


def test_a_per_team_deal_without_partnerships_names_the_piles() -> None:
    team_deal = Deal(
        ("Anna & Carla", "Bruno & Dario"), (Pile.of_cards(FOUR), Pile.of_cards(REST)), (0, 0)
    )
    with pytest.raises(InvalidDealError) as info:
        Match(FOUR_PLAYERS).side_deal(team_deal)
    assert str(info.value) == "piles: the deal was recorded per team, partnerships are off"


def test_the_variant_cannot_change() -> None:
    match = two(deal("Anna"))
    with pytest.raises(SettingsChangeRefused) as info:
        match.with_settings(Settings.of("escoba"))
    assert str(info.value) == (
        "variant: the variant is chosen when the match is created and cannot be changed"
    )
    assert score_match(match).totals == (4, 0)  # the match as it was


def test_partners_pool_their_declarations_ace_sweeps_and_last_clear() -> None:
    """A per-player deal seen per team: partners' piles pooled, and the facts of the
    variants added up or carried to the team (docs/rules.md 9)."""
    players = ("A", "B", "C", "D")
    quarters = [CardSet(sum(1 << i for i in range(q, 40, 4))) for q in range(4)]
    piles = tuple(Pile.of_cards(cards) for cards in quarters)
    assi = Match(players, Settings.of("assi", partnerships=True))
    side = assi.side_deal(Deal(players, piles, (0, 1, 0, 0), ace_sweeps=(1, 0, 1, 0)))
    assert (side.owners, side.sweeps, side.ace_sweeps) == (("A & C", "B & D"), (0, 1), (2, 0))
    assert side.piles[0].count == 20
    cirulla = Match(players, Settings.of("cirulla", partnerships=True))
    declared = (("cirulla",), (), ("decino",), ())
    side = cirulla.side_deal(Deal(players, piles, (0, 0, 0, 0), declarations=declared))
    assert side.declarations == (("cirulla", "decino"), ())
    scopone = Match(players, Settings.of("scopone"))
    side = scopone.side_deal(Deal(players, piles, (0, 0, 0, 0), "B", last_play_cleared="D"))
    assert (side.last_capture, side.last_play_cleared) == ("B & D", "B & D")


@pytest.mark.parametrize("count", [2, 3, 6])
def test_scopone_is_played_by_four(count: int) -> None:
    """docs/rules.md 9.4: Scopone has exactly 4 players; 6 would make partnerships, still
    refused."""
    players = tuple("ABCDEF"[:count])
    with pytest.raises(
        InvalidMatchError, match=rf"^players: scopone is played by 4 players \({count} given\)$"
    ):
        Match(players, Settings.of("scopone"))
    assert Match(tuple("ABCD"), Settings.of("scopone")).sides == ("A & C", "B & D")


def test_a_few_rows_are_made_alone_as_the_whole_sheet_makes_them() -> None:
    """A change's answer and its tally make only the rows they show (issue 24)."""
    played = two(deal("Anna", 1, 2), deal("Anna", 2), deal("Bruno", 3), deal("Bruno"))
    sheet = score_match(played)
    assert sheet.cached_rows is None
    assert [row.number for row in sheet.rows(1, 3)] == [2, 3]
    assert [row.after_end for row in sheet.rows(1, 3)] == [False, True]
    assert sheet.rows(3)[0].totals == (11, 2)
    assert [row.number for row in sheet.counted] == [1, 2]
    assert sheet.rows(4) == ()
    assert sheet.cached_rows is None  # none of that made every row


@given(variant_matches(max_deals=14), st.integers(0, 16), st.none() | st.integers(0, 16))
def test_rows_made_alone_are_the_whole_sheets_rows(
    match: Match, start: int, stop: int | None
) -> None:
    alone = score_match(match)
    whole = score_match(Match(match.players, match.settings, match.deals, match.teams)).deals
    assert alone.rows(start, stop) == whole[start:stop]
    assert alone.counted == tuple(row for row in whole if not row.after_end)
    assert alone.rows(start, stop) == alone.deals[start:stop]  # and once they are all made
