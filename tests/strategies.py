"""Hypothesis strategies: random valid deals (full and tally), settings and matches."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from scopa import variants
from scopa.cards import RANK_SYMBOLS, CardSet
from scopa.deal import DECLARATIONS, Deal, Pile
from scopa.formats import BEST_SUITS
from scopa.match import Match, seat_teams, team_name
from scopa.rules import (
    CAPPOTTO_VALUES,
    NAPOLA_VALUES,
    PRIMIERA_MODES,
    TIES_VALUES,
    Settings,
    target_range,
)
from scopa.variants import TARGET_MAX, TARGET_MIN, VARIANT_NAMES

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
    """A pile as docs/formats.md writes it (full, or tally with ranks)."""
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


# The variants (docs/rules.md section 9): their settings, their deals' facts, their matches.


def variant_settings(
    variant: str, partnerships: bool | None = False
) -> st.SearchStrategy[Settings]:
    """Any settings of ``variant`` (Scopone: partnerships always on)."""
    names = variants.get(variant).setting_names
    low, high = target_range(variant)
    choices: dict[str, st.SearchStrategy[Any]] = {
        "target": st.integers(low, high),
        "primiera": st.booleans(),
        "napola": st.sampled_from(NAPOLA_VALUES),
        "partnerships": st.booleans() if partnerships is None else st.just(partnerships),
        "last_capture_sweep": st.booleans(),
        "ties": st.sampled_from(TIES_VALUES),
        "primiera_mode": st.sampled_from(PRIMIERA_MODES),
        "last_play_sweep": st.booleans(),
        "ace_sweep": st.booleans(),
        "cirulla_points": st.integers(0, 10),
        "decino_points": st.integers(0, 10),
        "piccola_cap": st.integers(3, 10),
        "cappotto": st.sampled_from(CAPPOTTO_VALUES),
    }
    if variant == "scopone":
        choices["partnerships"] = st.just(True)
    return st.fixed_dictionaries({name: choices[name] for name in names}).map(
        lambda changes: Settings.of(variant, **changes)
    )


@st.composite
def variant_deals(
    draw: st.DrawFn,
    owners: tuple[str, ...],
    variant: str,
    hands: tuple[int, ...] = (),
    form: str = "full",
) -> Deal:
    """A valid deal of ``variant`` for ``owners``, with the variant's facts (``hands``: per
    owner, the hands it received, which bound its declarations)."""
    plain = draw(deals(owners, form))
    limit = variants.get(variant).max_sweeps
    piles = plain.piles
    sweeps = tuple(draw(st.integers(0, limit(p.count))) for p in piles)
    facts: dict[str, Any] = {}
    last = plain.last_capture
    if variant == "cirulla":
        facts["declarations"] = tuple(
            tuple(draw(st.lists(st.sampled_from(DECLARATIONS), max_size=n))) for n in hands
        )
    elif variant == "assi":
        facts["ace_sweeps"] = tuple(
            draw(st.integers(0, limit(p.count) - s)) for p, s in zip(piles, sweeps, strict=True)
        )
    elif variant == "scopone":
        room = [o for o, p, s in zip(owners, piles, sweeps, strict=True) if s < p.count // 2]
        cleared = draw(st.none() | st.sampled_from(room)) if room else None
        if cleared is not None:
            last = None
        facts["last_play_cleared"] = cleared
    return Deal(owners, piles, sweeps, last, **facts)


def hands_of(players: tuple[str, ...], owners: tuple[str, ...]) -> tuple[int, ...]:
    """Per owner, the hands received (a team: its players' hands together)."""
    each = 12 // len(players)
    return tuple(each * (owner.count(" & ") + 1) for owner in owners)


@st.composite
def variant_matches(
    draw: st.DrawFn, variant: str | None = None, max_deals: int = 10, form: str = "full"
) -> Match:
    """A match of a variant (drawn when ``None``), its deals with the variant's facts."""
    name = variant or draw(st.sampled_from(VARIANT_NAMES))
    players = NAMES[:4] if name == "scopone" else draw(player_lists())
    partnerships = name == "scopone" or (len(players) in (4, 6) and draw(st.booleans()))
    rules = draw(variant_settings(name, partnerships))
    match = Match(players, rules)
    teams = tuple(team_name(t) for t in seat_teams(players))
    recorded = []
    for _ in range(draw(st.integers(0, max_deals))):
        owners = teams if partnerships and draw(st.booleans()) else players
        recorded.append(draw(variant_deals(owners, name, hands_of(players, owners), form)))
    return match.with_deals(recorded)
