"""Hypothesis strategies: random valid deals (full and tally), settings and matches."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from scopa.cards import RANK_SYMBOLS, CardSet
from scopa.deal import Deal, Pile
from scopa.formats import BEST_SUITS
from scopa.match import Match, seat_teams, team_name
from scopa.rules import NAPOLA_VALUES, TARGET_MAX, TARGET_MIN, TIES_VALUES, Settings

NAMES = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio")


def tally_of(pile: Pile) -> Pile:
    """The tally form of a full pile: count, coins, best card of cups, swords and clubs."""
    return Pile(pile.count, pile.coins, pile.best)


def settings(partnerships: bool | None = False) -> st.SearchStrategy[Settings]:
    """Any settings; ``partnerships`` fixed, or drawn when ``None``."""
    return st.builds(
        Settings,
        target=st.integers(TARGET_MIN, TARGET_MAX),
        primiera=st.booleans(),
        napola=st.sampled_from(NAPOLA_VALUES),
        partnerships=st.booleans() if partnerships is None else st.just(partnerships),
        last_capture_sweep=st.booleans(),
        ties=st.sampled_from(TIES_VALUES),
    )


@st.composite
def card_masks(draw: st.DrawFn, sides: int) -> tuple[int, ...]:
    """The 40 cards shared out among ``sides`` piles (some may be empty)."""
    owners = draw(st.lists(st.integers(0, sides - 1), min_size=40, max_size=40))
    masks = [0] * sides
    for index, owner in enumerate(owners):
        masks[owner] |= 1 << index
    return tuple(masks)


@st.composite
def deals(draw: st.DrawFn, owners: tuple[str, ...], form: str = "full") -> Deal:
    """A valid deal for ``owners``; ``form`` is ``full``, ``tally`` or ``mixed``."""
    masks = draw(card_masks(len(owners)))
    piles = []
    for mask in masks:
        pile = Pile.of_cards(CardSet(mask))
        if form == "tally" or (form == "mixed" and draw(st.booleans())):
            pile = tally_of(pile)
        piles.append(pile)
    sweeps = tuple(draw(st.integers(0, p.count // 2)) for p in piles)
    takers = [o for o, p in zip(owners, piles, strict=True) if p.count]
    last = draw(st.none() | st.sampled_from(takers))
    return Deal(owners, tuple(piles), sweeps, last)


def player_lists(low: int = 2, high: int = 6) -> st.SearchStrategy[tuple[str, ...]]:
    return st.integers(low, high).map(lambda n: NAMES[:n])


@st.composite
def matches(draw: st.DrawFn, max_deals: int = 12, form: str = "full") -> Match:
    """A match of 2-6 players; with 4 or 6, maybe partnerships and deals recorded per team."""
    players = draw(player_lists())
    partnerships = len(players) in (4, 6) and draw(st.booleans())
    rules = draw(settings(partnerships))
    match = Match(players, rules)
    teams = tuple(team_name(t) for t in seat_teams(players))
    recorded = []
    for _ in range(draw(st.integers(0, max_deals))):
        owners = teams if partnerships and draw(st.booleans()) else players
        recorded.append(draw(deals(owners, form)))
    return match.with_deals(recorded)


def pile_json(pile: Pile) -> dict[str, Any]:
    """A pile as FORMATS.md writes it (full, or tally with ranks)."""
    if pile.cards is not None:
        return {"cards": pile.cards.to_list()}
    return {
        "count": pile.count,
        "coins": [RANK_SYMBOLS[r] for r in range(10) if pile.coins >> r & 1],
        "best": {
            s: RANK_SYMBOLS[r] if r >= 0 else None
            for s, r in zip(BEST_SUITS, pile.best, strict=True)
        },
    }


def deal_json(deal: Deal) -> dict[str, Any]:
    return {
        "piles": {o: pile_json(p) for o, p in zip(deal.owners, deal.piles, strict=True)},
        "sweeps": dict(zip(deal.owners, deal.sweeps, strict=True)),
        "last_capture": deal.last_capture,
    }
