"""The coach (``scopa.engine.ai.coach``): its hint is the search player's own search (the
kernel's tree with greedy playouts, the method of the ``normal`` and ``strong`` levels) on the
same seed, its best play the one the player makes; without the kernel (the phone) it is the
lighter search the levels fall back to, and says so; each play says what it takes at once in
the table's words (``bench/coach.py --quick`` runs in tests/test_bench.py)."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterator

import pytest

import scopa.engine.ai.coach as coach
import scopa.engine.ai.player as search_player
from scopa import i18n
from scopa.engine import VARIANTS, Play, State, apply, deal, legal_plays
from scopa.engine.ai import SearchPlayer, observe
from scopa.engine.ai.coach import COACH_LEVEL, LIGHT_LEVEL, Takes, advise, lighter
from scopa.engine.ai.levels import LEVELS
from scopa.engine.native import AVAILABLE
from scopa.web.phone.play_device import run
from tests.engine.test_ai import greedy_until

kernel = pytest.mark.skipif(not AVAILABLE, reason="the native kernel is not built")


def positions(variant: str, players: int) -> list[State]:
    """Positions with a choice to make and cards still in the stock (where the search
    samples the hidden cards: the tree, not the exact endgame)."""
    found = []
    for seed in range(40):
        state = greedy_until(variant, players, seed, 3 + seed % 9)
        if (state.stock or players == 4) and len(legal_plays(state)) > 2:
            found.append(state)
        if len(found) == 3:
            break
    assert len(found) == 3
    return found


@pytest.fixture
def no_kernel() -> Iterator[None]:
    """The search player and the coach as the phone runs them: no native kernel."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(search_player, "native_ready", lambda variant: False)
        patch.setattr(coach, "native_ready", lambda variant: False)
        yield


@kernel
@pytest.mark.parametrize(("variant", "players"), [("scopa", 2), ("scopone", 4)])
def test_the_hint_is_the_players_own_tree_on_the_same_seed(variant: str, players: int) -> None:
    """The coach's values are those of the player at the ``strong`` level's method (its
    tree, greedy playouts) for the coach's iterations and seed: the same play first (the one
    the player makes) and the same figure for every play."""
    method = dataclasses.replace(
        LEVELS["strong"], think_ms=None, tree_ms=None, iterations=COACH_LEVEL.iterations
    )
    for seed, state in enumerate(positions(variant, players)):
        player = SearchPlayer(random.Random(seed), method)
        values = dict(player.values(observe(state, state.turn)))
        assert player.visits  # a tree was grown
        advice = advise(state, seed=seed)
        chosen = SearchPlayer(random.Random(seed), method).decide(observe(state, state.turn))
        assert advice[0].play.pair == chosen
        assert {a.play.pair: a.expected for a in advice} == values
        assert {a.play for a in advice} == set(legal_plays(state))
        rest = [a.expected for a in advice[1:]]
        assert rest == sorted(rest, reverse=True)
        assert not lighter(state.variant)


def test_without_the_kernel_the_hint_is_the_lighter_search_and_says_so(
    no_kernel: None,
) -> None:
    """With no kernel the coach's values are the player's sampled deals by alpha-beta at
    :data:`LIGHT_LEVEL` (the levels' own fallback), and it is known to be lighter."""
    state = positions("scopa", 2)[0]
    assert lighter(state.variant)
    player = SearchPlayer(random.Random(3), LIGHT_LEVEL)
    values = dict(player.values(observe(state, state.turn)))
    assert not player.visits  # no tree without the kernel
    assert player.searched == LIGHT_LEVEL.iterations
    advice = advise(state, seed=3)
    assert {a.play.pair: a.expected for a in advice} == values
    assert advice[0].expected == max(values.values())


def test_the_phones_coach_answers_the_hint_and_says_it_is_lighter(no_kernel: None) -> None:
    """The device's worker answers ``coach`` as ``GET /play/{id}/coach`` does, with
    ``lighter`` true (no kernel in the browser) and what each play takes."""
    answer = json.loads(run("start", json.dumps({"variant": "scopa", "level": "easy", "seed": 7})))
    game, table = answer["game"], answer["state"]
    while not table["your_turn"]:
        answer = json.loads(run("computer", json.dumps({"game": game, "step": table["step"]})))
        game, table = answer["game"], answer["state"]
    hint = json.loads(run("coach", json.dumps({"game": game})))
    assert hint["lighter"] is True
    assert hint["step"] == table["step"]
    assert {(a["card"], tuple(a["capture"])) for a in hint["advice"]} == {
        (p["card"], tuple(p["capture"])) for p in table["legal"]
    }
    assert all("words" in a["takes"] for a in hint["advice"])


def sweep_position() -> tuple[State, Play]:
    """Seat 0 can sweep a table of the 7 of coins with the 7 of cups."""
    state = deal(VARIANTS["scopa"], 2, seed=1)
    seven, settebello = 1 << 16, 1 << 6
    rest = state.hands[0] & ~seven
    state = dataclasses.replace(
        state,
        hands=(rest | seven, state.hands[1] & ~seven & ~settebello),
        table=settebello,
        stock=tuple(c for c in state.stock if c not in (6, 16)),
        turn=0,
    )
    play = next(p for p in legal_plays(state) if p.capture.mask == settebello)
    return state, play


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "a scopa, the settebello, 1 coin, 2 cards"),
        ("it", "scopa, il settebello, 1 denaro, 2 carte"),
        ("es", "escoba, el settebello, 1 oro, 2 cartas"),
    ],
)
def test_a_play_says_what_it_takes_in_the_tables_words(language: str, words: str) -> None:
    state, play = sweep_position()
    takes = Takes.of(state, play)
    assert (takes.sweep, takes.settebello, takes.coins, takes.cards) == (True, True, 1, 2)
    assert apply(state, play).sweeps[0] == state.sweeps[0] + 1
    with i18n.using(language):
        assert takes.words() == words
    trail = next(p for p in legal_plays(state) if not p.capture)
    assert Takes.of(state, trail).words() == ""


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "1 diamond, 2 cards|3 diamonds, 4 cards"),
        ("it", "1 quadro, 2 carte|3 quadri, 4 carte"),
        ("es", "1 diamante, 2 cartas|3 diamantes, 4 cartas"),
    ],
)
def test_a_french_suited_table_hears_diamonds_not_coins(language: str, words: str) -> None:
    """With the French-suited display the coach counts the coins as that deck names them."""
    from scopa.words import FRENCH, using_deck

    with i18n.using(language), using_deck(FRENCH):
        said = [Takes(coins=n, cards=n + 1).words() for n in (1, 3)]
    assert "|".join(said) == words
    with i18n.using(language):
        assert "diamant" not in Takes(coins=3, cards=4).words()
        assert "quadr" not in Takes(coins=3, cards=4).words()


def test_escoba_says_it_in_its_own_words() -> None:
    takes = Takes(sweep=True, settebello=True, coins=2, cards=3, escoba=True)
    with i18n.using("it"):
        assert takes.words() == "escoba, il siete de velo, 2 denari, 3 carte"
