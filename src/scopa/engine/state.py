"""The deal itself, legal plays and applying a play (docs/rules.md 2-4, 8, 9.5).

A :class:`State` is immutable: :func:`apply` returns the next one, through the one
implementation of a play, :class:`~scopa.engine.board.Board`. A deal is fully determined by
its seed and its list of plays (:func:`replay`).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Sequence

from scopa import variants as sheet_variants
from scopa.cards import CARDS, CardSet
from scopa.deal import Deal, Pile
from scopa.engine.board import Board, deal_packets, declare, options
from scopa.engine.captures import ACE_MASK, KING_MASK, RANK_OF, indices_of, rules_for
from scopa.engine.cirulla import opening_sweeps
from scopa.engine.records import Play, State
from scopa.engine.variants import Variant
from scopa.errors import IllegalPlayError, InputError
from scopa.i18n import N_

__all__ = [
    "Play",
    "State",
    "apply",
    "deal",
    "legal_plays",
    "replay",
    "seat_names",
    "to_deal",
]


def deal(
    variant: Variant,
    players: int,
    seed: int | None = None,
    dealer: int = 0,
    rng: random.Random | None = None,
) -> State:
    """Shuffle and deal; deal again while the table calls for it (3 or 4 kings; Cirulla's 2
    aces, unless the dealer takes the opening table); the dealer's opening sweeps (Escoba,
    Cirulla) and Cirulla's declarations of the first hands.

    The shuffle draws from ``rng``, or from ``random.Random(seed)``; dealing is by the
    variant's packets, starting with the player after the dealer.

    >>> from scopa.engine.variants import VARIANTS
    >>> state = deal(VARIANTS["scopa"], 2, seed=1)
    >>> len(state.hand(0)), len(state.table_cards), len(state.stock), state.turn
    (3, 4, 30, 1)
    """
    variant.check_players(players)
    if not 0 <= dealer < players:
        raise IllegalPlayError(
            N_("dealer seat {dealer} is not one of the {players} seats"),
            code="play.dealer_seat_not_one",
            dealer=dealer,
            players=players,
        )
    if rng is None:
        rng = random.Random(seed)
    redeals = 0
    while True:
        deck = list(range(40))
        rng.shuffle(deck)
        hands, table, used = deal_packets(deck, dealer, players, variant.packets)
        opening = opening_take(variant, table)
        if opening or not redeal(variant, table):
            break
        redeals += 1
    piles = [0] * players
    sweeps = [0] * players
    last = None
    if opening:
        piles[dealer] = table
        sweeps[dealer] = opening
        table = 0
        last = dealer
    state = State(
        variant=variant,
        dealer=dealer,
        hands=tuple(hands),
        table=table,
        stock=tuple(deck[used:]),
        piles=tuple(piles),
        sweeps=tuple(sweeps),
        turn=(dealer + 1) % players,
        last_capturer=last,
        seed=seed,
        redeals=redeals,
    )
    if variant.capture == "cirulla":
        declared, shown, matta_as = declare(variant, hands, state)
        state = dataclasses.replace(
            state,
            declarations=declared,
            shown=shown,
            matta_as=None if matta_as < 0 else matta_as,
        )
    return state


def redeal(variant: Variant, table: int) -> bool:
    """Whether the starting table calls for a new deal: 3 or 4 kings (``kings_redeal``), 2 or
    more aces (``aces_redeal``, Cirulla)."""
    return (variant.kings_redeal and (table & KING_MASK).bit_count() >= 3) or (
        variant.aces_redeal and (table & ACE_MASK).bit_count() >= 2
    )


def opening_take(variant: Variant, table: int) -> int:
    """The dealer's sweeps for the starting table (0: the table stays)."""
    if not variant.dealer_sweeps or not table:
        return 0
    if variant.capture == "cirulla":
        return opening_sweeps(table, variant.low_table)
    return opening_fifteens(table)


def opening_fifteens(table: int) -> int:
    """Escoba: the dealer's sweeps from the starting table (15 = one, two fifteens = two).

    >>> opening_fifteens(CardSet.parse("7d Jc").mask), opening_fifteens(CardSet.parse("Kd 5c Kb 5s").mask)
    (1, 2)
    >>> opening_fifteens(CardSet.parse("Kd Kc Hb As").mask)
    0
    """  # noqa: E501
    total = sum(RANK_OF[i] + 1 for i in indices_of(table))
    if total == 15:
        return 1
    if total == 30 and any(
        sum(card.value for card in part) == 15 for part in CardSet(table).subsets()
    ):
        return 2
    return 0


def legal_plays(state: State) -> tuple[Play, ...]:
    """The legal plays of the player to move, in the engine's fixed order.

    >>> from scopa.engine.variants import VARIANTS
    >>> s = State(VARIANTS["scopa"], 0, (CardSet.parse("Hd 3d").mask, 0),
    ...           CardSet.parse("As 3c 4b 5c Jb").mask, (), (0, 0), (0, 0), 0, None)
    >>> [str(p) for p in legal_plays(s)]
    ['3d x 3c', 'Hd x As Jb', 'Hd x 5c 4b', 'Hd x 3c 5c As']
    """
    if state.finished:
        return ()
    rules = rules_for(state.variant)
    matta_as = -1 if state.matta_as is None else state.matta_as
    pairs = options(rules, state.hands[state.turn], state.table, matta_as)
    return tuple(Play.of(card, capture) for card, capture in pairs)


def apply(state: State, play: Play | tuple[int, int]) -> State:
    """The state after the player to move makes ``play``; an illegal play raises
    :class:`~scopa.errors.IllegalPlayError` naming the card and the table."""
    card, capture = play.pair if isinstance(play, Play) else play
    if state.finished:
        raise IllegalPlayError(
            N_("the deal is over: {cards} cannot be played"),
            code="play.deal_over_cannot_played",
            cards=CARDS[card],
        )
    seat = state.turn
    hand = state.hands[seat]
    if not hand >> card & 1:
        raise IllegalPlayError(
            N_("{cards} is not in the hand of seat {value} ({value2})"),
            code="play.not_hand_seat",
            cards=CARDS[card],
            value=seat + 1,
            value2=CardSet(hand) or "empty",
        )
    board = Board(state)
    legal = board.card_options(card)
    if capture not in legal:
        raise IllegalPlayError(_illegal(card, capture, state.table, legal))
    board.play(card, capture)
    return board.freeze()


def _illegal(card: int, capture: int, table: int, legal: list[int]) -> str:
    shown_table = str(CardSet(table)) or "empty"
    options = ", ".join(str(CardSet(c)) if c else "trail" for c in legal)
    what = f"take {CardSet(capture)} from" if capture else "trail on"
    why = ""
    if not capture:
        why = ": a card that can capture must capture"
    elif capture & ~table:
        missing = CardSet(capture & ~table)
        why = f": {missing} {'is' if len(missing) == 1 else 'are'} not on the table"
    return f"{CARDS[card]} cannot {what} the table {shown_table}{why} (legal: {options})"


def replay(
    variant: Variant,
    players: int,
    seed: int,
    plays: Iterable[Play | tuple[int, int] | str],
    dealer: int = 0,
) -> State:
    """Deal from ``seed`` and make ``plays`` in order: the same deal, exactly.

    >>> from scopa.engine.variants import VARIANTS
    >>> start = deal(VARIANTS["scopa"], 2, seed=7)
    >>> first = legal_plays(start)[0]
    >>> replay(VARIANTS["scopa"], 2, 7, [str(first)]) == apply(start, first)
    True
    """
    state = deal(variant, players, seed=seed, dealer=dealer)
    for play in plays:
        state = apply(state, Play.parse(play) if isinstance(play, str) else play)
    return state


def seat_names(players: int) -> tuple[str, ...]:
    """The default names of the seats: ``P1``, ``P2``...

    >>> seat_names(3)
    ('P1', 'P2', 'P3')
    """
    return tuple(f"P{k + 1}" for k in range(players))


def to_deal(state: State, names: Sequence[str] | None = None) -> Deal:
    """The finished deal as the facts the scorer reads: one full pile per seat, and the facts
    the variant's sheet records (docs/formats.md "Variants"): Cirulla's ``declarations``, Scopa
    d'Assi's ``ace_sweeps``, Scopone's ``last_play_cleared``.

    For Scopone the four players' piles are kept apart; a match with partnerships pools them.
    """
    if not state.finished:
        raise IllegalPlayError(
            N_("the deal is not over: it has no record yet"), code="play.deal_not_over_no"
        )
    owners = tuple(names) if names is not None else seat_names(state.players)
    if len(owners) != state.players:
        raise InputError(
            "names",
            N_("{count} names for {players} seats"),
            code="engine.names_seats",
            count=len(owners),
            players=state.players,
        )
    last = None if state.leftovers_to is None else owners[state.leftovers_to]
    piles = tuple(Pile.of_cards(CardSet(mask)) for mask in state.piles)
    facts = sheet_variants.get(state.variant.sheet).deal_facts
    cleared = state.last_play_cleared
    return Deal(
        owners,
        piles,
        state.sweeps,
        last,
        declarations=state.declarations if "declarations" in facts else (),
        ace_sweeps=state.ace_sweeps if "ace_sweeps" in facts else (),
        last_play_cleared=(
            owners[cleared] if "last_play_cleared" in facts and cleared is not None else None
        ),
    )
