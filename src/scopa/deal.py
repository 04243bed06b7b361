"""The facts of a played deal: each owner's captured pile, the sweeps, the last capture.

A pile is recorded in full (the captured cards) or as a tally (count, coins, best card of the
other suits). Both reduce to the same facts, which is all scoring looks at, so a tally scores
exactly as the full pile it summarises.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from scopa.cards import (
    BEST_PRIMIERA,
    BEST_RANK,
    CARDS,
    COINS_MASK,
    NAPOLA_RUN,
    PRIMIERA_VALUES,
    CardSet,
    Rank,
    Suit,
)
from scopa.errors import InvalidDealError, one_of
from scopa.i18n import N_
from scopa.variants import PILE_CATEGORIES, VariantDef
from scopa.words import CardWords

NO_CARD = -1
OTHER_SUITS = (Suit.CUPS, Suit.SWORDS, Suit.CLUBS)
SEVEN_BIT = 1 << Rank.SEVEN
FACE_RANKS = frozenset({Rank.JACK, Rank.HORSE, Rank.KING})
GRANDE_MASK = 1 << Rank.JACK | 1 << Rank.HORSE | 1 << Rank.KING
DECLARATIONS = ("cirulla", "decino")
MAX_HANDS = 12
"""The most hands an owner can receive in a deal (hence the most declarations)."""
"""Cirulla's declarations: a hand worth 9 or less, three cards of one rank."""


@dataclass(frozen=True, slots=True)
class Pile:
    """What one owner captured in a deal, with the facts scoring needs worked out once.

    ``coins`` is the 10-bit mask of coin ranks; ``best`` the rank index of the best primiera
    card in cups, swords and clubs (``-1`` = none of that suit); ``cards`` is set for a pile
    recorded in full.

    >>> pile = Pile.of_cards(CardSet.parse("Ad 2d 3d 7d 7c 6s Kb"))
    >>> pile.count, pile.coin_count, pile.settebello, pile.primiera, pile.napola
    (7, 4, True, 70, 3)
    """

    count: int
    coins: int
    best: tuple[int, int, int]
    cards: CardSet | None = None
    coin_count: int = field(init=False, compare=False)
    settebello: bool = field(init=False, compare=False)
    primiera: int = field(init=False, compare=False)
    """The primiera total, or 0 when a suit is missing (such a side cannot win it)."""
    napola: int = field(init=False, compare=False)
    """Length of the unbroken run of coins from the ace (0 = no ace): napola and piccola."""
    sevens: int = field(init=False, compare=False)
    """How many of the four sevens the pile holds (a suit's best card is its 7 if held)."""
    grande: bool = field(init=False, compare=False)
    """Whether the pile holds the jack, horse and king of coins (Cirulla's grande)."""

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "coin_count", self.coins.bit_count())
        set_(self, "settebello", bool(self.coins & SEVEN_BIT))
        values = [BEST_PRIMIERA[self.coins]] + [
            PRIMIERA_VALUES[r] if r >= 0 else 0 for r in self.best
        ]
        set_(self, "primiera", sum(values) if all(values) else 0)
        set_(self, "napola", NAPOLA_RUN[self.coins])
        set_(self, "sevens", (self.coins >> Rank.SEVEN & 1) + self.best.count(Rank.SEVEN))
        set_(self, "grande", self.coins & GRANDE_MASK == GRANDE_MASK)

    @classmethod
    def of_cards(cls, cards: CardSet) -> Pile:
        """The facts of a pile recorded in full."""
        mask = cards.mask
        best = (BEST_RANK[mask >> 10 & 0x3FF], BEST_RANK[mask >> 20 & 0x3FF], BEST_RANK[mask >> 30])
        return cls(mask.bit_count(), mask & COINS_MASK, best, cards)

    @classmethod
    def tally(cls, count: int, coins: Iterable[Rank], best: Sequence[Rank | None]) -> Pile:
        """The facts of a pile recorded as a tally (ranks of the coins; best of c, s, b)."""
        mask = 0
        for rank in coins:
            mask |= 1 << rank
        best_ = tuple(NO_CARD if r is None else int(r) for r in best)
        return cls(count, mask, (best_[0], best_[1], best_[2]))

    @classmethod
    def pool(cls, piles: Sequence[Pile]) -> Pile:
        """Partners' piles put together before anything is counted."""
        if len(piles) == 1:
            return piles[0]
        coins = 0
        cards_mask: int | None = 0
        for pile in piles:
            coins |= pile.coins
            if cards_mask is not None and pile.cards is not None:
                cards_mask |= pile.cards.mask
            else:
                cards_mask = None
        best = tuple(
            max((p.best[i] for p in piles), key=lambda r: PRIMIERA_VALUES[r] if r >= 0 else -1)
            for i in range(3)
        )
        return cls(
            sum(p.count for p in piles),
            coins,
            (best[0], best[1], best[2]),
            None if cards_mask is None else CardSet(cards_mask),
        )

    @property
    def is_full(self) -> bool:
        return self.cards is not None

    @property
    def primiera_values(self) -> tuple[int, int, int, int]:
        """Primiera value of the best card per suit (coins, cups, swords, clubs; 0 = none)."""
        values = [BEST_PRIMIERA[self.coins]]
        values += [PRIMIERA_VALUES[r] if r >= 0 else 0 for r in self.best]
        return (values[0], values[1], values[2], values[3])

    def claimed(self) -> int:
        """The cards this pile certainly holds, as a mask (for the exactly-once check).

        A tally pile holds its coins and its best card of each suit, except a face (jack,
        horse and king are all worth 10, so a face names no single card).
        """
        if self.cards is not None:
            return self.cards.mask
        mask = self.coins
        for i, rank in enumerate(self.best):
            if rank >= 0 and rank not in FACE_RANKS:
                mask |= 1 << (10 * (i + 1) + rank)
        return mask


CATEGORY_KEYS = PILE_CATEGORIES
"""The categories of the category form that depend on the piles (every variant's sheet has
them; Escoba calls them cartas, oros, siete de oros and setenta)."""


@dataclass(frozen=True, slots=True)
class Categories:
    """Who took each point (docs/formats.md, "A deal: the category form"): for each of
    :data:`CATEGORY_KEYS`, the indices of the owners who took it (one owner: alone; two or
    more: tied at the top; none: nobody), and the facts that need more than a winner.

    ``run`` is the owner (index) holding the ace, two and three of coins and the length of
    their run of coins from the ace (3 to 10; Scopa's napola, Cirulla's piccola), or ``None``
    for nobody; ``run_given`` says whether the run was recorded at all (a deal recorded while
    napola was off does not ask it). ``grande`` is Cirulla's: the owner holding the jack,
    horse and king of coins, or ``None``.
    """

    cards: tuple[int, ...]
    coins: tuple[int, ...]
    settebello: tuple[int, ...]
    primiera: tuple[int, ...]
    run: tuple[int, int] | None = None
    run_given: bool = False
    grande: int | None = None

    def took(self, key: str) -> tuple[int, ...]:
        """The owners (indices) who took category ``key``."""
        taken: tuple[int, ...] = getattr(self, key)
        return taken


@dataclass(frozen=True, slots=True)
class Deal:
    """The recorded facts of one deal, owners in seating (or team) order."""

    owners: tuple[str, ...]
    piles: tuple[Pile, ...]
    sweeps: tuple[int, ...]
    last_capture: str | None = None
    declarations: tuple[tuple[str, ...], ...] = field(default=(), kw_only=True)
    """Cirulla: per owner (aligned with ``owners``), one ``"cirulla"`` or ``"decino"`` per
    declared hand; ``()`` = nobody declared."""
    ace_sweeps: tuple[int, ...] = field(default=(), kw_only=True)
    """Scopa d'Assi: per owner, the times a played ace took the whole table; ``()`` = none."""
    last_play_cleared: str | None = field(default=None, kw_only=True)
    """Scopone: the owner whose capture with the deal's last card left the table empty."""
    categories: Categories | None = field(default=None, kw_only=True)
    """The category form: who took each point, instead of the piles (``piles`` is then
    ``()``); its owners are the scoring sides it was recorded for."""
    packed: tuple[int, ...] | None = field(default=None, init=False, compare=False, repr=False)
    """The scorer's cache: per owner, the packed facts it reads (see :mod:`scopa.scoring`),
    worked out the first time the deal is scored."""

    def __post_init__(self) -> None:
        piles = self.piles if self.categories is None else self.owners
        if self.categories is not None and self.piles:
            raise InvalidDealError(
                "piles",
                N_("a deal has either piles or categories, not both"),
                code="deal.piles_and_categories",
            )
        if not len(self.owners) == len(piles) == len(self.sweeps):
            raise InvalidDealError(
                "piles",
                N_("owners, piles and sweeps do not line up"),
                code="deal.owners_piles_sweeps_do",
            )
        self._check_owner("last_capture", "deal.not_owner")
        declarations = tuple(tuple(d) for d in self.declarations)
        if declarations and len(declarations) != len(self.owners):
            raise InvalidDealError(
                "declarations",
                N_("owners and declarations do not line up"),
                code="deal.owners_declarations_do_not",
            )
        for owner, declared in zip(self.owners, declarations, strict=False):
            for kind in declared:
                if kind not in DECLARATIONS:
                    raise one_of(
                        f"declarations.{owner}",
                        kind,
                        DECLARATIONS,
                        code="deal.not_declaration",
                        error=InvalidDealError,
                    )
        set_ = object.__setattr__
        set_(self, "declarations", declarations if any(declarations) else ())
        ace_sweeps = tuple(self.ace_sweeps)
        if ace_sweeps and len(ace_sweeps) != len(self.owners):
            raise InvalidDealError(
                "ace_sweeps",
                N_("owners and ace sweeps do not line up"),
                code="deal.owners_ace_sweeps_do",
            )
        if any(not 0 <= n <= 40 for n in ace_sweeps):
            raise InvalidDealError(
                "ace_sweeps",
                N_("a number of ace sweeps is outside 0-40"),
                code="deal.number_ace_sweeps_outside",
            )
        if any(len(d) > MAX_HANDS for d in declarations):
            raise InvalidDealError(
                "declarations",
                N_("more than {max_hands} declarations"),
                code="deal.more_than_declarations",
                max_hands=MAX_HANDS,
            )
        set_(self, "ace_sweeps", ace_sweeps if any(ace_sweeps) else ())
        self._check_owner("last_play_cleared", "deal.not_owner_2")

    def _check_owner(self, name: str, code: str) -> None:
        """Refuse the field ``name`` (an owner, or ``None``) unless it is one of the owners."""
        owner = getattr(self, name)
        if owner is not None and owner not in self.owners:
            raise InvalidDealError(name, N_("{owner!r} is not an owner"), code=code, owner=owner)

    def pile(self, owner: str) -> Pile:
        return self.piles[self.owners.index(owner)]

    @property
    def last_index(self) -> int | None:
        return None if self.last_capture is None else self.owners.index(self.last_capture)

    @property
    def cleared_index(self) -> int | None:
        """The index of the owner who cleared the table with the last play (Scopone)."""
        cleared = self.last_play_cleared
        return None if cleared is None else self.owners.index(cleared)

    def declared(self, i: int) -> tuple[str, ...]:
        """The declarations of owner ``i`` (``()`` = none)."""
        return self.declarations[i] if self.declarations else ()

    def ace_sweeps_of(self, i: int) -> int:
        return self.ace_sweeps[i] if self.ace_sweeps else 0

    def check(
        self, variant: VariantDef | None = None, hands: Sequence[int] = (), players: int = 0
    ) -> None:
        """Check that the facts add up (docs/formats.md); the error names the place in the deal.

        The piles account for all 40 cards exactly once, counts cover what the coins and best
        cards imply, and each owner's sweeps are 0 to half its captured cards (Cirulla: plus
        one from 4 cards). With a ``variant``, its facts are checked too: the ace sweeps and
        the last-play clear count toward the sweeps limit, and an owner declares at most once
        per hand it received (``hands``, aligned with ``owners``). A deal of the category form
        has no piles: its sweeps are checked against the 40 cards of the deal instead
        (``players``: how many play it, when its owners are teams).
        """
        if self.categories is not None:
            self._check_category_sweeps(variant, players)
            self._check_declared(hands)
            return
        self._check_piles()
        limit = variant.max_sweeps if variant is not None else _half
        in_variant = (
            f" in {variant.name}" if variant is not None and variant.low_table_sweep else ""
        )
        low_table = "; the dealer's low table takes 4 for 3" if in_variant else ""
        for i, (owner, pile, sweeps) in enumerate(
            zip(self.owners, self.piles, self.sweeps, strict=True)
        ):
            most = limit(pile.count)
            if sweeps > most:
                raise InvalidDealError(
                    f"sweeps.{owner}",
                    N_(
                        "{sweeps} sweeps with {count} cards captured (at most "
                        "{most}{in_variant}: every sweep takes at least 2 cards{low_table})"
                    ),
                    code="deal.sweeps_cards_captured",
                    sweeps=sweeps,
                    count=pile.count,
                    most=most,
                    in_variant=in_variant,
                    low_table=low_table,
                )
            aces = self.ace_sweeps_of(i)
            if aces and sweeps + aces > most:
                raise InvalidDealError(
                    f"ace_sweeps.{owner}",
                    N_(
                        "{sweeps} sweeps and {aces} ace sweeps with {count} cards captured (at "
                        "most {most}: every sweep takes at least 2 cards)"
                    ),
                    code="deal.sweeps_ace_sweeps_cards",
                    sweeps=sweeps,
                    aces=aces,
                    count=pile.count,
                    most=most,
                )
        self._check_cleared(limit)
        self._check_declared(hands)

    def _check_declared(self, hands: Sequence[int]) -> None:
        if hands:
            for owner, declared, received in zip(
                self.owners, self.declarations, hands, strict=False
            ):
                if len(declared) > received:
                    raise InvalidDealError(
                        f"declarations.{owner}",
                        N_(
                            "{count} declarations, but {owner} received {received} hands (one "
                            "declaration a hand at most)"
                        ),
                        code="deal.declarations_but_received_hands",
                        count=len(declared),
                        owner=owner,
                        received=received,
                    )

    def _check_category_sweeps(self, variant: VariantDef | None, players: int = 0) -> None:
        """A category deal's sweeps: every sweep takes at least 2 of the deal's 40 cards (the
        ace take-alls and a last-play clear too), so all of them together are at most 20
        (Cirulla: one more per player, as each player's pile's limit has it: the dealer's low
        table takes 4 for 3; a team's side counts its two players)."""
        low_table = variant is not None and variant.low_table_sweep
        most = 20 + (max(players, len(self.owners)) if low_table else 0)
        self._check_nothing_after_clear()
        cleared = self.cleared_index
        total = 0
        for i, owner in enumerate(self.owners):
            total += self.sweeps[i] + self.ace_sweeps_of(i) + (1 if cleared == i else 0)
            if total > most:
                raise InvalidDealError(
                    f"sweeps.{owner}",
                    N_(
                        "{total} sweeps in one deal (at most {most}: every sweep takes at "
                        "least 2 of the 40 cards)"
                    ),
                    code="deal.category_sweeps_too_many",
                    total=total,
                    most=most,
                )

    def _check_nothing_after_clear(self) -> None:
        """A last play that cleared the table left no cards for a last capture (both forms)."""
        if self.last_play_cleared is not None and self.last_capture is not None:
            raise InvalidDealError(
                "last_play_cleared",
                N_(
                    "{cleared!r} cleared the table with the last play, so no cards were left: "
                    "last_capture must be null, not {last_capture!r}"
                ),
                code="deal.cleared_table_last_play",
                cleared=self.last_play_cleared,
                last_capture=self.last_capture,
            )

    def _check_cleared(self, limit: Callable[[int], int]) -> None:
        cleared = self.last_play_cleared
        if cleared is None:
            return
        self._check_nothing_after_clear()
        i = self.owners.index(cleared)
        count, sweeps = self.piles[i].count, self.sweeps[i]
        if sweeps + 1 > limit(count):
            raise InvalidDealError(
                "last_play_cleared",
                N_(
                    "{cleared!r} has {sweeps} sweeps and cleared the table with the last play, "
                    "with {count} cards captured (at most {value}: every sweep takes at least 2 "
                    "cards)"
                ),
                code="deal.sweeps_cleared_table_last",
                cleared=cleared,
                sweeps=sweeps,
                count=count,
                value=limit(count),
            )

    def _check_piles(self) -> None:
        claimed = 0
        for owner, pile in zip(self.owners, self.piles, strict=True):
            place = f"piles.{owner}"
            if pile.cards is None:
                implied = pile.coin_count + sum(r >= 0 for r in pile.best)
                if pile.count < implied:
                    raise InvalidDealError(
                        f"{place}.count",
                        N_(
                            "{count} cards is fewer than the {implied} that its coins and best "
                            "cards imply"
                        ),
                        code="deal.cards_fewer_than_coins",
                        count=pile.count,
                        implied=implied,
                    )
            overlap = claimed & pile.claimed()
            if overlap:
                shown = CardWords(CardSet(overlap))
                raise InvalidDealError(
                    place,
                    N_("{shown} already in another pile"),
                    code="deal.already_another_pile",
                    shown=shown,
                )
            claimed |= pile.claimed()
        total = sum(pile.count for pile in self.piles)
        if total != 40:
            counts = ", ".join(
                f"{o} {p.count}" for o, p in zip(self.owners, self.piles, strict=True)
            )
            raise InvalidDealError(
                "piles",
                N_("the piles hold {total} cards ({counts}), not 40"),
                code="deal.piles_hold_cards",
                total=total,
                counts=counts,
            )
        missing_coins = COINS_MASK & ~claimed
        if missing_coins:
            shown = CardWords(CardSet(missing_coins), letters=True)
            raise InvalidDealError(
                "piles",
                N_("the coins {shown} are in nobody's pile (all 10 coins must be split)"),
                code="deal.coins_nobody_pile",
                shown=shown,
            )
        for suit in OTHER_SUITS:
            seven = CARDS[10 * suit + Rank.SEVEN]
            if not claimed >> seven.index & 1:
                raise InvalidDealError(
                    "piles",
                    N_("nobody holds the {seven} (it must be somebody's best card)"),
                    code="deal.nobody_holds",
                    seven=CardWords([seven]),
                )


def _half(count: int) -> int:
    return count // 2
