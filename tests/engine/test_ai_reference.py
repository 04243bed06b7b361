"""The reference opponent (``ismcts``), what the others' plays reveal (inference) and the
coach: each never peeks, and each says what the engine's own exact search says where
nothing is hidden."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterator
from dataclasses import replace

import pytest

from scopa.cards import Card, CardSet
from scopa.engine import VARIANTS, Play, State, apply, deal, legal_plays
from scopa.engine.ai import Level, SearchPlayer, observe, parse_level
from scopa.engine.ai.coach import advise, review
from scopa.engine.ai.inference import Inference, score, sweepable
from scopa.engine.ai.ismcts import ISMCTSPlayer
from scopa.engine.ai.knowledge import Dealer, Knowledge, sample
from scopa.engine.board import options
from scopa.engine.captures import rules_for
from scopa.engine.players import GreedyPlayer, make_player
from tests.engine.test_ai import CASES, greedy_until, minimax, reshuffle_hidden

FEW = Level(think_ms=None, iterations=150)


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_ismcts_never_peeks(variant: str, players: int) -> None:
    """Changing the cards hidden from the reference player never changes its move for the
    same seed (it grows its tree on sampled deals only)."""
    rng = random.Random(f"ismcts{variant}{players}")
    for seed in range(4):
        state = greedy_until(variant, players, seed, rng.randrange(0, 12))
        if state.finished:
            continue
        seat = state.turn
        moves = set()
        for _ in range(3):
            other = reshuffle_hidden(state, seat, rng)
            assert observe(other, seat) == observe(state, seat)
            moves.add(ISMCTSPlayer(random.Random(seed), FEW).choose(other, legal_plays(other)))
        assert len(moves) == 1, (variant, players, seed)


def test_ismcts_is_registered_repeatable_and_legal() -> None:
    state = greedy_until("scopone", 4, 2, 7)
    a = make_player("ismcts:120it", random.Random(4)).choose(state, legal_plays(state))
    b = make_player("ISMCTS:120it", random.Random(4)).choose(state, legal_plays(state))
    assert a == b
    assert a in legal_plays(state)
    assert isinstance(make_player("ismcts", random.Random(0)), ISMCTSPlayer)
    player = ISMCTSPlayer(random.Random(1), parse_level("100it"))
    stats = player.root_stats(observe(state, state.turn))
    assert player.iterations == 100
    assert {s[0] for s in stats} == {p.pair for p in legal_plays(state)}
    assert sum(s[1] for s in stats) == 100  # every iteration visits one root play


def test_ismcts_takes_a_sweep_and_the_settebello() -> None:
    """A sweep of the settebello with a seven: worth some 4 points at once, every other play
    is a trail; the tree finds it in a few hundred iterations."""
    for seed in range(3):
        state = _position(hand=["7s", "2b", "9c"], table=["7d"], seed=seed)
        chosen = ISMCTSPlayer(random.Random(seed), parse_level("300it")).choose(
            state, legal_plays(state)
        )
        assert chosen.pair == (Card.parse("7s").index, Card.parse("7d").bit)


def _position(hand: list[str], table: list[str], seed: int, other: tuple[str, ...] = ()) -> State:
    """A 2-player Scopa deal at its first play: seat 0 holds ``hand``, ``table`` is on the
    table, seat 1 holds ``other`` (or three random cards); 30 cards in the stock and the rest
    already in seat 1's pile."""
    start = deal(VARIANTS["scopa"], 2, seed=seed, dealer=1)
    mine = CardSet.parse(" ".join(hand)).mask
    laid = CardSet.parse(" ".join(table)).mask
    theirs = CardSet.parse(" ".join(other)).mask if other else 0
    rest = [c for c in range(40) if not (mine | laid | theirs) >> c & 1]
    random.Random(seed).shuffle(rest)
    if not theirs:
        theirs, rest = sum(1 << c for c in rest[:3]), rest[3:]
    pile = sum(1 << c for c in rest[30:])
    return replace(
        start, hands=(mine, theirs), table=laid, stock=tuple(rest[:30]), piles=(0, pile), turn=0
    )


def test_the_score_ranks_a_sweep_over_the_settebello_over_a_trail() -> None:
    rules = rules_for(VARIANTS["scopa"])
    table = CardSet.parse("7d 3c").mask
    sweep = score(Card.parse("Kc").index, table, table, rules)  # 10: takes both, a sweep
    settebello = score(Card.parse("7s").index, Card.parse("7d").bit, table, rules)
    trail = score(Card.parse("2b").index, 0, table, rules)
    assert sweep > settebello > trail


def test_a_table_is_open_when_one_card_could_sweep_it() -> None:
    rules = rules_for(VARIANTS["scopa"])
    assert sweepable(rules, CardSet.parse("3c 4s").mask)  # a seven takes both
    assert sweepable(rules, CardSet.parse("Kd").mask)
    assert not sweepable(rules, CardSet.parse("7d 8c").mask)  # fifteen: no single card
    assert not sweepable(rules, 0)
    escoba = rules_for(VARIANTS["escoba"])
    assert sweepable(escoba, CardSet.parse("7d 3c").mask)  # a five makes fifteen
    assert not sweepable(escoba, CardSet.parse("Kd Kc").mask)  # twenty: no card makes fifteen


def test_a_sweep_left_untaken_makes_a_hand_holding_it_unlikely() -> None:
    """Seat 1 trailed on a table holding only the settebello: a deal in which it held a seven
    then (a sweep of the settebello thrown away) weighs next to nothing against one in which
    it held none."""
    state = _position(hand=["2b", "9c", "4s"], table=["7d"], seed=5, other=("As", "2s", "5c"))
    state = apply(replace(state, turn=1), Play.parse("As"))
    k = observe(state, 0)
    inference = Inference(k)
    assert [(seat, table) for seat, table, _, _ in inference.decisions] == [
        (1, CardSet.parse("7d").mask)
    ]
    seven = Card.parse("7c").bit
    blank = CardSet.parse("2s 5c").mask
    with_seven = replace(state, hands=(state.hands[0], seven | Card.parse("2s").bit))
    without = replace(state, hands=(state.hands[0], blank))
    assert 0.1 < inference.weight(without) <= 1.0
    assert inference.weight(with_seven) < inference.weight(without) / 20


def positions(
    variant: str, players: int, rng: random.Random, seeds: int, least: int
) -> Iterator[Knowledge]:
    """What the seat to move knows, in games of greedy plays stopped after ``least`` to
    ``3 * players - 1`` plays (one game a seed; a finished one is left out)."""
    for seed in range(seeds):
        state = greedy_until(variant, players, seed, rng.randrange(least, 3 * players))
        if not state.finished:
            yield observe(state, state.turn)


@pytest.mark.parametrize(("variant", "players"), [("scopa", 2), ("scopone", 4), ("escoba", 2)])
def test_a_hands_odds_are_its_cards_odds(variant: str, players: int) -> None:
    """The weight of a sampled deal sums each hand's odds from its cards' odds worked out once
    per move: the same weight as every legal play of the hand scored, sampled deal by sampled
    deal, as a share of the likeliest (never above 1)."""
    rules = rules_for(VARIANTS[variant])
    rng = random.Random(variant)
    compared = 0
    for k in positions(variant, players, rng, 10, 1):
        inference = Inference(k)
        for _ in range(20):
            deal = sample(k, rng)
            likelihood = 1.0
            for (seat, table, later, card), row in zip(
                inference.decisions, inference.rows, strict=True
            ):
                hand_plays = options(rules, deal.hands[seat] | later, table, -1)
                total = sum(math.exp(score(c, x, table, rules)) for c, x in hand_plays)
                likelihood *= row[2] / total
                assert later >> card & 1
            assert inference.weight(deal) == pytest.approx(likelihood)
            assert inference.weight(deal) <= 1.0 + 1e-12
            compared += bool(inference.decisions)
    assert compared >= 20


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_a_dealer_draws_what_sample_draws_and_weighs_them_as_deals(
    variant: str, players: int
) -> None:
    """The dealer that draws a move's many deals (its shared parts worked out once) deals each
    as :func:`sample` does from the same randomness, and the inference weighs a draw's hands
    before it is a deal as it weighs the deal."""
    checked = 0
    for k in positions(variant, players, random.Random(f"dealer{variant}{players}"), 6, 0):
        dealer, inference = Dealer(k), Inference(k)
        for draw in range(5):
            assert dealer.sample(random.Random(draw)) == sample(k, random.Random(draw))
            hands, stock = dealer.hands(random.Random(draw))
            made = dealer.state(hands, stock)
            assert made == sample(k, random.Random(draw))
            assert inference._weight(hands) == inference.weight(made)
            checked += 1
    assert checked >= 10


def test_the_least_sum_of_odds_is_the_least_any_hand_has() -> None:
    """A deal's weight is its likelihood as a share of the likeliest: each play's row holds
    the least sum of odds over every hand the seat could have held then, found here by
    trying every such hand and scoring each of its legal plays."""
    rules = rules_for(VARIANTS["scopa"])
    checked = 0
    for seed in range(30):
        state = greedy_until("scopa", 2, seed, 1)  # the first play of a round is seen
        if state.finished:
            continue
        k = observe(state, state.turn)
        inference = Inference(k)
        unknown = [1 << c for c in range(40) if k.unknown >> c & 1]
        for (seat, table, later, _), (_, _, fewest, _) in zip(
            inference.decisions, inference.rows, strict=True
        ):
            least = min(
                sum(
                    math.exp(score(c, x, table, rules))
                    for c, x in options(rules, sum(pick) | later, table, -1)
                )
                for pick in itertools.combinations(unknown, k.hidden_size(seat))
            )
            assert fewest == pytest.approx(least)
            checked += 1
    assert checked >= 10


def test_informed_samples_lean_away_from_hands_that_contradict_the_plays() -> None:
    """Over many samples, seat 1 (which trailed on the lone settebello) holds a seven far
    less often than uniform sampling deals it one."""
    state = _position(hand=["2b", "9c", "4s"], table=["7d"], seed=8, other=("As", "2s", "5c"))
    k = observe(apply(replace(state, turn=1), Play.parse("As")), 0)
    inference = Inference(k)
    rng = random.Random(1)
    uniform = sum(_has_seven(sample(k, rng).hands[1]) for _ in range(300))
    informed = sum(_has_seven(inference.sample(rng).hands[1]) for _ in range(300))
    assert uniform >= 25  # three sevens among the 33 unseen cards, two of them in that hand
    assert informed <= uniform // 5


def _has_seven(hand: int) -> int:
    return int(any(hand >> c & 1 for c in range(6, 40, 10)))


@pytest.mark.parametrize("variant", ["scopa", "escoba"])
def test_the_coach_is_exact_once_nothing_is_hidden(variant: str) -> None:
    """In the last round of a 2-player deal the coach's values are the exact margins of
    each play (a brute force over the engine's plays), best first."""
    checked = 0
    for seed in range(12):
        state = greedy_until(variant, 2, seed, 30)
        if state.stock or state.finished or len(legal_plays(state)) < 2:
            continue
        seat = state.turn
        advice = advise(state, seed=1)
        assert {a.play for a in advice} == set(legal_plays(state))
        values = [a.expected for a in advice]
        assert values == sorted(values, reverse=True)
        best = max(minimax(apply(state, p), seat) for p in legal_plays(state))
        assert advice[0].expected == pytest.approx(best)
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_the_review_names_a_thrown_away_sweep() -> None:
    """A deal in which seat 0 trailed where it could sweep: the review names that play, with
    the sweep as the better one and a cost of at least a point."""
    start = _position(hand=["Ks", "2b", "9c"], table=["7d", "3c"], seed=4)
    sweeps = [p for p in legal_plays(start) if p.capture.mask == start.table]
    trails = [p for p in legal_plays(start) if not p.capture]
    assert sweeps
    assert trails
    plays = [trails[0]]
    state = apply(start, trails[0])
    greedy = GreedyPlayer()
    while not state.finished:
        play = greedy.choose(state, legal_plays(state))
        plays.append(play)
        state = apply(state, play)
    mistakes = review(start, plays, 0, seed=3)
    first = next(m for m in mistakes if m.index == 0)
    assert first.played.play == trails[0]
    assert first.best.play.capture.mask == start.table
    assert first.cost >= 1.0
    assert mistakes == sorted(mistakes, key=lambda m: (-m.cost, m.index))


def test_inference_is_on_by_default_and_uniform_on_request() -> None:
    assert parse_level("50ms").infer
    assert not parse_level("50ms+uniform").infer
    assert parse_level("normal+u").playouts
    assert not parse_level("normal+u").infer
    assert Level().infer
    state = greedy_until("scopa", 2, 3, 5)
    a = SearchPlayer(random.Random(2), parse_level("20it+p")).choose(state, legal_plays(state))
    assert a in legal_plays(state)
    # The deals a player searches come from the inference unless asked otherwise: seat 1
    # trailed on the lone settebello, so the default level's deals seldom give it a seven,
    # and the uniform ones as often as chance does.
    position = _position(hand=["2b", "9c", "4s"], table=["7d"], seed=8, other=("As", "2s", "5c"))
    k = observe(apply(replace(position, turn=1), Play.parse("As")), 0)

    def sevens(level: Level) -> int:
        deals, _ = SearchPlayer(random.Random(1), level)._deals(k)
        searched = [deal.hands[1] for deal in deals]
        assert len(searched) == 300
        return sum(_has_seven(hand) for hand in searched)

    informed = sevens(replace(Level(), think_ms=None, iterations=300))
    uniform = sevens(parse_level("300it+uniform"))
    assert uniform >= 25
    assert informed <= uniform // 5


def test_a_temperature_slips_and_none_plays_the_best() -> None:
    """At temperature 0 the player always plays its best play; with a temperature it
    sometimes plays another (the easy level), drawn from its own generator only."""
    state = _position(hand=["Ks", "2b", "9c"], table=["7d", "3c"], seed=4)  # Ks sweeps
    sweep = (Card.parse("Ks").index, CardSet.parse("7d 3c").mask)
    exact = Level(think_ms=None, iterations=8, leaves=12)
    slipping = replace(exact, temperature=3.0)
    best = {SearchPlayer(random.Random(s), exact).decide(observe(state, 0)) for s in range(20)}
    assert best == {sweep}
    chosen = [SearchPlayer(random.Random(s), slipping).decide(observe(state, 0)) for s in range(40)]
    assert sweep in chosen
    assert len(set(chosen)) > 1
    again = [SearchPlayer(random.Random(s), slipping).decide(observe(state, 0)) for s in range(40)]
    assert again == chosen


def test_one_tree_over_the_sampled_deals_plays_legally_and_the_most_tried() -> None:
    """``+tree``: the values come from one ISMCTS tree grown on the (informed) samples; the
    play is the one tried most; the exact endgame is unchanged."""
    state = greedy_until("scopa", 2, 6, 6)  # a new round: three cards in hand
    k = observe(state, state.turn)
    assert len(legal_plays(state)) > 1
    player = SearchPlayer(random.Random(3), parse_level("200it+tree"))
    choice = player.decide(k)
    assert player.searched == 200
    assert sum(player.visits) == 200
    plays = options(rules_for(k.variant), k.hand, k.table, k.matta_as)
    assert choice == plays[player.visits.index(max(player.visits))]
    end = greedy_until("scopa", 2, 6, 30)  # the last round: the stock is empty
    assert not end.stock
    assert not end.finished
    exact = SearchPlayer(random.Random(3), parse_level("200it+tree"))
    exact.values(observe(end, end.turn))
    assert exact.visits == []  # every hidden deal searched to the end instead
