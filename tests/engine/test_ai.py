"""The search player: it never peeks, it steps as ``apply`` does, it scores as the scorer
does, and once nothing is hidden it plays perfectly."""

from __future__ import annotations

import itertools
import random
from dataclasses import fields, replace

import pytest

from scopa.engine import (
    VARIANTS,
    Play,
    State,
    apply,
    deal,
    legal_plays,
    rules_for,
    seat_names,
    to_deal,
)
from scopa.engine.ai import AIOptionError, Level, SearchPlayer, observe, parse_level
from scopa.engine.ai.evaluate import Evaluator
from scopa.engine.ai.knowledge import PUBLIC, Knowledge, every_deal, sample
from scopa.engine.ai.player import MIN_SAMPLES
from scopa.engine.ai.solver import Solver, restore, save, side_of_seats
from scopa.engine.board import Board
from scopa.engine.players import GreedyPlayer, make_player, play_out
from scopa.errors import UnknownStrategyError
from scopa.match import Match
from tests.engine.helpers import position

CASES = [
    ("scopa", 2),
    ("scopa", 3),
    ("scopa", 4),
    ("scopone", 4),
    ("escoba", 2),
    ("assi", 2),
    ("cirulla", 2),
]
FAST = Level(think_ms=None, iterations=3, leaves=60)
FAST_PLAYOUTS = Level(think_ms=None, iterations=40, playouts=True)
FAST_TREE = Level(think_ms=None, iterations=60, tree=True)


def greedy_until(variant: str, players: int, seed: int, plays: int) -> State:
    """A deal dealt from ``seed`` and played ``plays`` plays by greedy players."""
    state = deal(VARIANTS[variant], players, seed=seed, dealer=seed % players)
    greedy = GreedyPlayer()
    for _ in range(plays):
        if state.finished:
            break
        state = apply(state, greedy.choose(state, legal_plays(state)))
    return state


def reshuffle_hidden(state: State, seat: int, rng: random.Random) -> State:
    """The same deal as ``seat`` sees it, with the cards it cannot see dealt out again (a
    Cirulla hand declared and shown stays where everyone saw it)."""
    others = [s for s in range(state.players) if s != seat]
    hidden = [c for c in range(40) if any(state.hands[s] >> c & 1 for s in others)]
    hidden = [c for c in hidden if not state.shown >> c & 1] + list(state.stock)
    rng.shuffle(hidden)
    hands = list(state.hands)
    pos = 0
    for other in others:
        face_up = state.hands[other] & state.shown
        size = state.hands[other].bit_count() - face_up.bit_count()
        hands[other] = face_up | sum(1 << c for c in hidden[pos : pos + size])
        pos += size
    return replace(state, hands=tuple(hands), stock=tuple(hidden[pos:]))


@pytest.mark.parametrize(
    "level", [FAST, FAST_PLAYOUTS, FAST_TREE], ids=["alpha-beta", "playouts", "tree"]
)
@pytest.mark.parametrize(("variant", "players"), CASES)
def test_never_peeks(variant: str, players: int, level: Level) -> None:
    """Changing the cards hidden from the player, its information the same, never changes
    its move for the same seed (searched by alpha-beta, or by the kernel's playouts)."""
    rng = random.Random(f"{variant}{players}")
    for seed in range(6):
        state = greedy_until(variant, players, seed, rng.randrange(0, 12))
        if state.finished:
            continue
        seat = state.turn
        moves = set()
        for _ in range(3):
            other = reshuffle_hidden(state, seat, rng)
            assert observe(other, seat) == observe(state, seat)
            player = SearchPlayer(random.Random(seed), level)
            moves.add(player.choose(other, legal_plays(other)))
        assert len(moves) == 1, (variant, players, seed)


def test_hidden_cards_do_change_a_peeking_search() -> None:
    """The never-peeks test can fail: searching the true deal (a cheat) depends on the hidden
    cards, so some reshuffle changes the move of a seat that sees them."""
    rng = random.Random(3)
    changed = False
    for seed in range(20):
        state = greedy_until("scopa", 2, seed, 6)
        seat = state.turn
        plays = rules_for(state.variant).plays(state.hands[seat], state.table)
        evaluator = Evaluator(state.variant.settings, 2, seat)
        chosen = set()
        for _ in range(4):
            other = reshuffle_hidden(state, seat, rng)
            values = Solver(other, (0, 1), evaluator).root_values(plays, 4)
            chosen.add(plays[values.index(max(values))])
        changed = changed or len(chosen) > 1
    assert changed


@pytest.mark.parametrize(
    ("variant", "players"), [*CASES, ("scopone-10", 4), ("scopa", 6), ("cirulla", 2)]
)
def test_a_play_is_taken_back_exactly(variant: str, players: int) -> None:
    """The search plays on the engine's board and takes each play back: after a play and its
    undo the board is as it was, and the play itself is ``apply``'s."""
    chosen = VARIANTS[variant]
    for seed in range(10):
        state = deal(chosen, players, seed=seed, dealer=seed % players)
        board = Board(state)
        rng = random.Random(seed)
        while not state.finished:
            plays = legal_plays(state)
            play = plays[rng.randrange(len(plays))]
            saved = save(board)
            board.play(*play.pair)
            assert board.freeze() == apply(state, play)
            restore(board, saved)
            assert board.freeze() == state
            board.play(*play.pair)
            state = apply(state, play)


def true_points(state: State) -> tuple[int, ...]:
    """Each side's points of a finished deal, by the match's one scorer."""
    settings = state.variant.settings_for(state.players)
    match = Match(players=seat_names(state.players), settings=settings)
    return tuple(p.total for p in match.points(to_deal(state)))


@pytest.mark.parametrize(
    ("variant", "players"), [*CASES, ("scopone-10", 4), ("cirulla", 2), ("cirulla", 4)]
)
def test_final_points_are_the_scorers(variant: str, players: int) -> None:
    chosen = VARIANTS[variant]
    settings = chosen.settings_for(players)
    side_of = side_of_seats(players, settings.partnerships)
    sides = max(side_of) + 1
    for seed in range(30):
        state = play_out(
            deal(chosen, players, seed=seed), [make_player("random", random.Random(seed))] * players
        )
        expected = true_points(state)
        for side in range(sides):
            solver = Solver(state, side_of, Evaluator(settings, sides, side))
            mine = expected[side]
            margin = mine - (sum(expected) - mine) / (sides - 1)
            assert solver._final() == margin


def minimax(state: State, seat: int) -> int:
    """The true worth to ``seat`` of a 2-player deal with nothing hidden, by the engine alone."""
    if state.finished:
        points = true_points(state)
        return points[seat] - points[1 - seat]
    values = [minimax(apply(state, play), seat) for play in legal_plays(state)]
    return max(values) if state.turn == seat else min(values)


@pytest.mark.parametrize("variant", ["scopa", "escoba", "assi", "cirulla"])
def test_plays_perfectly_once_nothing_is_hidden(variant: str) -> None:
    """In the last round of a 2-player deal every card is known: the player's move is worth
    the most that any move is worth, by a brute force over the engine's plays."""
    checked = 0
    for seed in range(12):
        state = greedy_until(variant, 2, seed, 30)
        if state.stock or state.finished:
            continue
        seat = state.turn
        player = SearchPlayer(random.Random(0), FAST)
        chosen = player.choose(state, legal_plays(state))
        assert player.searched == 1
        best = max(minimax(apply(state, p), seat) for p in legal_plays(state))
        assert minimax(apply(state, chosen), seat) == best
        checked += 1
        if checked == 4:
            break
    assert checked == 4


def test_every_deal_and_sample_agree_with_what_the_seat_knows() -> None:
    state = greedy_until("scopa", 3, 5, 30)
    assert not state.stock
    knowledge = observe(state, state.turn)
    deals = list(every_deal(knowledge))
    assert len(deals) == knowledge.deals() == len({d.hands for d in deals})
    assert state.hands in {d.hands for d in deals}
    assert all(observe(d, state.turn) == knowledge for d in deals)
    early = greedy_until("scopa", 2, 5, 3)
    assert observe(sample(observe(early, early.turn), random.Random(1)), early.turn) == observe(
        early, early.turn
    )


def test_what_every_seat_sees_is_copied_by_name() -> None:
    """The fields a seat sees as they are carry the same name and type in the knowledge and
    in the state (they are copied by name, which mypy cannot check), every field the two share
    is either one of them or converted, and a sampled deal keeps them."""
    state_types = {f.name: f.type for f in fields(State)}
    knowledge_types = {f.name: f.type for f in fields(Knowledge)}
    assert {name: knowledge_types[name] for name in PUBLIC} == {
        name: state_types[name] for name in PUBLIC
    }
    assert set(state_types) & set(knowledge_types) == {*PUBLIC, "shown", "matta_as"}
    state = greedy_until("assi", 2, 3, 7)
    dealt = sample(observe(state, state.turn), random.Random(2))
    assert [getattr(dealt, name) for name in PUBLIC] == [getattr(state, name) for name in PUBLIC]


def test_deterministic_for_a_seed_and_registered() -> None:
    state = greedy_until("scopa", 2, 9, 5)
    a = make_player("ai:5it", random.Random(4)).choose(state, legal_plays(state))
    b = make_player("AI:5it", random.Random(4)).choose(state, legal_plays(state))
    assert a == b
    assert isinstance(a, Play)
    assert isinstance(make_player("ai", random.Random(0)), SearchPlayer)
    assert parse_level("easy").iterations == 8
    assert parse_level("easy").temperature > 0  # it slips, as a beginner does
    with pytest.raises(AIOptionError, match="'fast'"):
        make_player("ai:fast", random.Random(0))
    with pytest.raises(UnknownStrategyError, match="greedy:3"):
        make_player("greedy:3", random.Random(0))
    with pytest.raises(AIOptionError, match="more than 0"):
        Level(think_ms=0)


def test_thinking_time_is_a_budget() -> None:
    """With a time budget it searches until the clock says the time is up, but never fewer
    than a few deals. Here the clock moves 1 ms each time it is read: once at the start, then
    after each deal from the fifth on; 12 ms are up at the 12th read."""
    ticks = iter(range(1000))
    player = SearchPlayer(
        random.Random(1), Level(think_ms=12.0, leaves=30), clock=lambda: next(ticks) / 1000
    )
    state = greedy_until("scopa", 2, 2, 0)
    player.choose(state, legal_plays(state))
    assert player.searched == MIN_SAMPLES + 11
    seconds = itertools.count()
    hurried = SearchPlayer(
        random.Random(1), Level(think_ms=0.5, leaves=30), clock=lambda: next(seconds)
    )
    hurried.choose(state, legal_plays(state))
    assert hurried.searched == MIN_SAMPLES


def test_takes_the_sweep() -> None:
    """Offered a sweep early in a deal, it takes it."""
    state = position(["7d 2c Kb", "4s 5s 6s"], "3c 4c", piles=["", "Ab Ac As 2b 2s 3b 3s 4b"])
    seen = state.hands[0] | state.hands[1] | state.table | state.piles[1]
    state = replace(state, stock=tuple(c for c in range(40) if not seen >> c & 1))
    assert state.cards_in_play() == 40
    assert len(state.stock) == 24
    player = SearchPlayer(random.Random(1), Level(think_ms=None, iterations=8))
    assert str(player.choose(state, legal_plays(state))) == "7d x 3c 4c"


def test_playouts_level_and_their_values() -> None:
    """``+playouts`` judges sampled deals by the kernel's greedy playouts: with a few cards
    left they give the same values as the exact search (every play after the root forced)."""
    assert parse_level("200ms+playouts").playouts
    assert parse_level("normal+p").think_ms == 200.0
    assert parse_level("10it+p").iterations == 10
    assert parse_level("normal").playouts
    assert not parse_level("easy").playouts
    assert not parse_level("200ms").playouts
    with pytest.raises(AIOptionError, match="playouts"):
        parse_level("normal+x")
    from scopa.engine.ai.playouts import Playouts, native_ready

    if not native_ready(VARIANTS["scopa"]):
        pytest.skip("the native kernel is not built")
    for seed in range(4):
        state = greedy_until("scopa", 2, seed, 33)
        settings = state.variant.settings_for(2)
        evaluator = Evaluator(settings, 2, state.turn)
        plays = [p.pair for p in legal_plays(state)]
        by_playout = Playouts(state.variant, settings, (0, 1), evaluator).values(state, plays, 1)
        assert by_playout == Solver(state, (0, 1), evaluator).root_values(plays, 10)
    state = next(s for k in range(20) if len(legal_plays(s := greedy_until("scopa", 2, k, 6))) > 1)
    player = SearchPlayer(random.Random(2), FAST_PLAYOUTS)
    first = player.choose(state, legal_plays(state))
    assert player.searched == 40
    assert SearchPlayer(random.Random(2), FAST_PLAYOUTS).choose(state, legal_plays(state)) == first


def test_the_exact_endgame_weighs_each_deal_by_what_the_plays_reveal() -> None:
    """With the stock empty and few ways for the hidden hands to lie, every such deal is
    searched to the end, and each one's values count as much as the others' plays of the
    round make it likely (the inference's weight): the player's values are the weighted
    mean of each deal's exact values, not their plain mean."""
    from scopa.engine.ai.inference import Inference

    checked = 0
    for seed in range(40):
        state = greedy_until("scopa", 3, seed, 28)
        if state.stock or state.finished or len(legal_plays(state)) < 2:
            continue
        k = observe(state, state.turn)
        inference = Inference(k)
        deals = list(every_deal(k))
        weights = [inference.weight(d) for d in deals]
        if not 1 < len(deals) <= 60 or max(weights) < 2 * min(weights):
            continue
        player = SearchPlayer(random.Random(0), FAST)
        values = player.values(k)
        assert player.searched == len(deals)
        plays = [p for p, _ in values]
        settings = state.variant.settings_for(3)
        side_of = side_of_seats(3, settings.partnerships)
        evaluator = Evaluator(settings, max(side_of) + 1, side_of[k.seat])
        totals = [0.0] * len(plays)
        for d, w in zip(deals, weights, strict=True):
            exact = Solver(d, side_of, evaluator).root_values(plays, 12)
            totals = [t + w * v for t, v in zip(totals, exact, strict=True)]
        expected = [t / sum(weights) for t in totals]
        assert [v for _, v in values] == pytest.approx(expected)
        checked += 1
        if checked == 3:
            break
    assert checked == 3
