"""Scoring one deal (docs/rules.md sections 5 and 9): itemised points per side, for every variant.

The one place where points are worked out; the sheet, the engine and the web app all come
here. A deal's facts are reduced once to a small int per side (its *packed facts*: who is at
the top of cards, coins, primiera and sevens and whether alone, the run of coins from the ace,
the grande, the declarations, the sweeps...), which no setting changes; a :class:`PointsTable`
then turns packed facts into :class:`Points` under one set of rules, so re-scoring a match
under other settings is one table look-up per side and deal.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import filterfalse, repeat
from operator import add, and_, attrgetter
from typing import NamedTuple

from scopa import variants
from scopa.cards import NAPOLA_RUN, Rank
from scopa.deal import GRANDE_MASK, Deal, Pile
from scopa.rules import Settings

CATEGORIES = variants.get(variants.DEFAULT).categories
"""Scopa's categories (and Scopone's and Scopa d'Assi's): the keys of :meth:`Points.to_dict`."""
ALL_CATEGORIES = (*CATEGORIES, "declarations", "piccola", "grande")

# The packed facts of one side in one deal, bit by bit (see :func:`pack_sides`).
KEY_SETTEBELLO = 1
# each majority: 2 bits, at the top and alone there
KEY_CARDS_SHIFT, KEY_COINS_SHIFT, KEY_PRIMIERA_SHIFT, KEY_SEVENS_SHIFT = 1, 3, 5, 7
KEY_CARDS_TOP, KEY_CARDS_ALONE = 1 << KEY_CARDS_SHIFT, 2 << KEY_CARDS_SHIFT
KEY_COINS_TOP, KEY_COINS_ALONE = 1 << KEY_COINS_SHIFT, 2 << KEY_COINS_SHIFT
KEY_PRIMIERA_TOP, KEY_PRIMIERA_ALONE = 1 << KEY_PRIMIERA_SHIFT, 2 << KEY_PRIMIERA_SHIFT
KEY_SEVENS_TOP, KEY_SEVENS_ALONE = 1 << KEY_SEVENS_SHIFT, 2 << KEY_SEVENS_SHIFT
KEY_RUN_SHIFT = 9  # 4 bits: the run of coins from the ace, 0-10 (10 = all ten coins)
KEY_GRANDE = 1 << 13
KEY_END_SHIFT = 14  # 2 bits: the deal's end
KEY_LEFTOVER = 1 << KEY_END_SHIFT  # took the cards left on the table at the end
KEY_CLEARED = 2 << KEY_END_SHIFT  # cleared the table with the deal's last play (Scopone)
KEY_CIRULLA_SHIFT = 16  # 4 bits: cirullas declared
KEY_DECINO_SHIFT = 20  # 4 bits: decini declared
KEY_ACES_SHIFT = 24  # 6 bits: the ace's take-alls (Scopa d'Assi)
KEY_SWEEPS_SHIFT = 30  # the rest: sweeps recorded in play
KEY_SWEEP = 1 << KEY_SWEEPS_SHIFT
ALL_COINS = 10
SEVEN = int(Rank.SEVEN)


class Points(NamedTuple):
    """One side's points in one deal, by category, and their total.

    The fields after ``total`` are Cirulla's; they stay 0 in the other variants. (A named
    tuple: immutable, and quick to build when a table of points fills.)
    """

    cards: int = 0
    coins: int = 0
    settebello: int = 0
    primiera: int = 0
    sweeps: int = 0
    napola: int = 0
    total: int = 0
    declarations: int = 0
    piccola: int = 0
    grande: int = 0

    def to_dict(self, keys: Sequence[str] = (*CATEGORIES, "total")) -> dict[str, int]:
        """The points by key, Scopa's keys unless a variant's are given.

        >>> Points(cards=1, total=1).to_dict(("cards", "piccola", "total"))
        {'cards': 1, 'piccola': 0, 'total': 1}
        """
        return {key: getattr(self, key) for key in keys}


def top_bits(values: Sequence[int], top_bit: int, alone_bit: int) -> list[int]:
    """Per side: ``top_bit`` if at the top (a positive top), plus ``alone_bit`` if alone there.

    >>> top_bits([22, 18], 1, 2), top_bits([14, 14, 12], 1, 2), top_bits([0, 0], 1, 2)
    ([3, 0], [1, 1, 0], [0, 0])
    """
    top = max(values)
    if top <= 0:
        return [0] * len(values)
    bit = top_bit | alone_bit if values.count(top) == 1 else top_bit
    return [bit if v == top else 0 for v in values]


def _coin_bits(coins: int) -> int:
    """The packed facts that a pile's coins alone decide: settebello, run, grande."""
    run = NAPOLA_RUN[coins]
    grande = coins & GRANDE_MASK == GRANDE_MASK
    return (coins >> SEVEN & 1) | run << KEY_RUN_SHIFT | (KEY_GRANDE if grande else 0)


COIN_BITS: tuple[int, ...] = tuple(_coin_bits(coins) for coins in range(1024))
"""By the 10-bit mask of a pile's coins."""
_MAJORITY_FACTS = attrgetter("count", "coin_count", "primiera", "sevens")
_MAJORITY_BITS = (
    (KEY_CARDS_TOP, KEY_CARDS_TOP | KEY_CARDS_ALONE),
    (KEY_COINS_TOP, KEY_COINS_TOP | KEY_COINS_ALONE),
    (KEY_PRIMIERA_TOP, KEY_PRIMIERA_TOP | KEY_PRIMIERA_ALONE),
    (KEY_SEVENS_TOP, KEY_SEVENS_TOP | KEY_SEVENS_ALONE),
)


def pack_sides(deal: Deal) -> tuple[int, ...]:
    """The settings-independent scoring facts of each owner of a deal, packed (``KEY_*``).

    A side with 22 of 40 cards alone at the top, the settebello, no napola and one sweep:

    >>> from scopa.cards import CardSet
    >>> a = Pile.of_cards(CardSet.parse("Ad 7d 7c 7s 7b 2d Kd Hd Jd 6d 5d 4d 6c 6s 6b 5c 5s 5b 4c 4s 4b Kc"))
    >>> key = pack_sides(Deal(("A", "B"), (a, Pile.of_cards(CardSet.full() - a.cards)), (1, 0)))[0]
    >>> key >> KEY_SWEEPS_SHIFT, bool(key & KEY_CARDS_ALONE), bool(key & KEY_SETTEBELLO)
    (1, True, True)
    """  # noqa: E501
    if deal.categories is not None:
        keys = _category_keys(deal)
    else:
        piles = deal.piles
        if not piles:
            return ()
        keys = [
            COIN_BITS[p.coins] | s << KEY_SWEEPS_SHIFT
            for p, s in zip(piles, deal.sweeps, strict=True)
        ]
        columns = zip(*map(_MAJORITY_FACTS, piles), strict=True)
        for values, (top_bit, alone_bits) in zip(columns, _MAJORITY_BITS, strict=True):
            top = max(values)
            if top <= 0:
                continue
            if values.count(top) == 1:
                keys[values.index(top)] |= alone_bits
            else:
                for i, value in enumerate(values):
                    if value == top:
                        keys[i] |= top_bit
    if deal.last_capture is not None:
        keys[deal.owners.index(deal.last_capture)] |= KEY_LEFTOVER
    if deal.last_play_cleared is not None:
        keys[deal.owners.index(deal.last_play_cleared)] |= KEY_CLEARED
    for i, declared in enumerate(deal.declarations):
        if declared:
            cirullas = declared.count("cirulla")
            decini = len(declared) - cirullas
            keys[i] |= cirullas << KEY_CIRULLA_SHIFT | decini << KEY_DECINO_SHIFT
    for i, aces in enumerate(deal.ace_sweeps):
        keys[i] |= aces << KEY_ACES_SHIFT
    return tuple(keys)


def _category_keys(deal: Deal) -> list[int]:
    """The packed facts of a deal of the category form: who took each point is who is at the
    top (alone, or tied with the others named). Its primiera is the point as recorded, so it
    stands for the sevens too (the form does not say which way it was counted)."""
    won = deal.categories
    assert won is not None
    keys = [s << KEY_SWEEPS_SHIFT for s in deal.sweeps]
    for taken, top_bit, alone_bits in (
        (won.cards, KEY_CARDS_TOP, KEY_CARDS_TOP | KEY_CARDS_ALONE),
        (won.coins, KEY_COINS_TOP, KEY_COINS_TOP | KEY_COINS_ALONE),
        (
            won.primiera,
            KEY_PRIMIERA_TOP | KEY_SEVENS_TOP,
            KEY_PRIMIERA_TOP | KEY_PRIMIERA_ALONE | KEY_SEVENS_TOP | KEY_SEVENS_ALONE,
        ),
    ):
        bits = alone_bits if len(taken) == 1 else top_bit
        for i in taken:
            keys[i] |= bits
    for i in won.settebello:
        keys[i] |= KEY_SETTEBELLO
    if won.run is not None:
        keys[won.run[0]] |= won.run[1] << KEY_RUN_SHIFT
    if won.grande is not None:
        keys[won.grande] |= KEY_GRANDE
    return keys


def packed(deal: Deal) -> tuple[int, ...]:
    """A deal's packed facts per owner, worked out the first time and kept on the deal."""
    keys = deal.packed
    if keys is None:
        keys = pack_sides(deal)
        object.__setattr__(deal, "packed", keys)
    return keys


def majority_point(top: bool, alone: bool, share: bool) -> int:
    """The one tie rule of cards, coins and primiera: the side at the top scores the point
    if it is alone there, or, with ``ties`` = ``share``, even when others share the top."""
    return 1 if top and (alone or share) else 0


def napola_for(run: int, mode: str) -> int:
    """Napola for an unbroken run of coins from the ace of length ``run``: ``flat`` 3,
    ``run`` 1 per card, nothing without the ace, 2 and 3 or with napola ``off``.

    >>> napola_for(4, "flat"), napola_for(4, "run"), napola_for(2, "run"), napola_for(5, "off")
    (3, 4, 0, 0)
    """
    if mode == "off" or run < 3:
        return 0
    return 3 if mode == "flat" else run


def piccola_for(run: int, cap: int) -> int:
    """Cirulla's piccola for a run of coins from the ace: 3 for A-2-3, 1 more per further
    coin of the run, at most ``cap``; nothing without the ace, 2 and 3 (docs/rules.md 9.6).

    >>> [piccola_for(run, 6) for run in (2, 3, 4, 7, 10)], piccola_for(10, 10), piccola_for(5, 3)
    ([0, 3, 4, 6, 6], 10, 3)
    """
    return min(run, cap) if run >= 3 else 0


GRANDE_POINTS = 5


_new_points = tuple.__new__
"""Builds a :class:`Points` from its ten values in field order (``Points(...)`` without the
keyword handling of a named tuple's constructor: a cold table fills one per new key)."""


class PointsTable(dict[int, Points]):
    """A side's :class:`Points` by its packed facts, under one set of rules.

    Filled as keys are met (:meth:`fill` works out a whole match's at once). A key is a
    handful of small facts, so the table stays small. What each setting gives for each small
    fact (a majority's top and alone bits, a run of coins, the sweeps the house rules add) is
    worked out once, when the table is made, by the rules above; so are the facts these rules
    ignore (primiera's with primiera off, the run of coins without napola...): keys that
    differ only in those share one (immutable) :class:`Points`, worked out once.
    """

    def __init__(self, settings: Settings) -> None:
        super().__init__()
        self.settings = settings
        self.share = share = settings.ties == "share"
        self.cirulla = settings.definition.cirulla_scoring
        # by a majority's two bits: at the top (1), alone there (2)
        majority = tuple(majority_point(bool(b & 1), bool(b & 2), share) for b in range(4))
        sevens = settings.primiera_mode == "sevens"
        # by the deal's end bits: took the leftover cards (1), cleared the table (2)
        leftover, cleared = int(settings.last_capture_sweep), int(settings.last_play_sweep)
        self._rules = (
            majority,
            majority if settings.primiera else (0, 0, 0, 0),
            KEY_SEVENS_SHIFT if sevens else KEY_PRIMIERA_SHIFT,
            tuple(napola_for(run, settings.napola) for run in range(16)),
            tuple((b & 1) * leftover + (b >> 1) * cleared for b in range(4)),
            int(settings.ace_sweep),
        )
        self._cirulla_rules = (
            tuple(piccola_for(run, settings.piccola_cap) for run in range(16)),
            settings.cirulla_points,
            settings.decino_points,
        )
        self._kept = ~ignored_facts(settings)
        self.totals: dict[int, int] = {}
        """A side's total by a slice of its packed facts (:meth:`slice_totals`)."""

    def __missing__(self, key: int) -> Points:
        self.fill((key,))
        return self[key]

    def fill(self, keys: Iterable[int]) -> None:
        """Work out the points of those ``keys`` not in the table yet, all at once: the keys
        without the facts these rules ignore first, then, for those not met yet, a list per
        category, each a look-up in the rules' small tables by a slice of the keys."""
        missing = list(filterfalse(self.__contains__, keys))
        if not missing:
            return
        same = list(map(and_, missing, repeat(self._kept)))
        new = list(filterfalse(self.__contains__, set(same)))
        if new:
            columns = self._columns(new)
            totals = map(sum, zip(*columns, strict=True))
            values = zip(*columns[:6], totals, *columns[6:], strict=True)
            self.update(zip(new, map(_new_points, repeat(Points), values), strict=True))
        self.update(zip(missing, map(self.__getitem__, same), strict=True))

    def slice_totals(self, slices: Sequence[Sequence[int]]) -> list[list[int]]:
        """The totals of key slices (the low, middle and high apart: see :mod:`scopa.columns`),
        those not met yet worked out all at once, with only the categories that read their
        slice."""
        totals = self.totals
        for keys, columns in zip(slices, (self._low, self._middle, self._high), strict=True):
            new = list(filterfalse(totals.__contains__, keys))
            if new:
                worked_out = map(sum, zip(*columns(new), strict=True))
                totals.update(zip(new, worked_out, strict=True))
        return [list(map(totals.__getitem__, keys)) for keys in slices]

    def _columns(self, keys: list[int]) -> tuple[list[int], ...]:
        """The points of ``keys`` category by category, in :class:`Points`' order less the
        total."""
        cards, coins, settebello, primiera = self._low(keys)
        napola, end_sweeps, *middle = self._middle(keys)
        sweeps, *high = self._high(keys)
        sweeps = list(map(add, sweeps, end_sweeps))
        zeros = [0] * len(keys)
        declarations = high[0] if high else zeros
        piccola, grande = middle or (zeros, zeros)
        return cards, coins, settebello, primiera, sweeps, napola, declarations, piccola, grande

    # Each category reads one slice of a key (scopa.columns.KEY_SLICES): a look-up in the
    # rules' small tables, a list per category.

    def _low(self, keys: list[int]) -> tuple[list[int], ...]:
        """Cards, coins, settebello and primiera (or the sevens)."""
        majority, primiera_of, primiera_shift = self._rules[:3]
        cards = [majority[k >> KEY_CARDS_SHIFT & 3] for k in keys]
        coins = [majority[k >> KEY_COINS_SHIFT & 3] for k in keys]
        settebello = [k & KEY_SETTEBELLO for k in keys]
        primiera = [primiera_of[k >> primiera_shift & 3] for k in keys]
        return cards, coins, settebello, primiera

    def _middle(self, keys: list[int]) -> tuple[list[int], ...]:
        """Napola, the sweeps the deal's end earns; with Cirulla, piccola and grande."""
        napola_of, added_sweeps = self._rules[3:5]
        runs = [k >> KEY_RUN_SHIFT & 0xF for k in keys]
        napola = list(map(napola_of.__getitem__, runs))
        end_sweeps = [added_sweeps[k >> KEY_END_SHIFT & 3] for k in keys]
        if not self.cirulla:
            return napola, end_sweeps
        piccola = list(map(self._cirulla_rules[0].__getitem__, runs))
        grande = [GRANDE_POINTS if k & KEY_GRANDE else 0 for k in keys]
        return napola, end_sweeps, piccola, grande

    def _high(self, keys: list[int]) -> tuple[list[int], ...]:
        """The sweeps made in play (and the ace's take-alls); with Cirulla, declarations."""
        sweeps = [k >> KEY_SWEEPS_SHIFT for k in keys]
        if self._rules[5]:
            sweeps = list(map(add, sweeps, [k >> KEY_ACES_SHIFT & 0x3F for k in keys]))
        if not self.cirulla:
            return (sweeps,)
        _, cirulla_points, decino_points = self._cirulla_rules
        declarations = [
            (k >> KEY_CIRULLA_SHIFT & 0xF) * cirulla_points
            + (k >> KEY_DECINO_SHIFT & 0xF) * decino_points
            for k in keys
        ]
        return sweeps, declarations


def ignored_facts(settings: Settings) -> int:
    """The bits of a packed key that score nothing under ``settings``.

    >>> ignored_facts(Settings()) & KEY_CARDS_TOP, bool(ignored_facts(Settings()) & KEY_LEFTOVER)
    (0, True)
    """
    ignored = 0
    if not settings.definition.cirulla_scoring:
        ignored |= KEY_GRANDE | 0xF << KEY_CIRULLA_SHIFT | 0xF << KEY_DECINO_SHIFT
        if settings.napola == "off":
            ignored |= 0xF << KEY_RUN_SHIFT
    if not settings.primiera or settings.primiera_mode == "sevens":
        ignored |= KEY_PRIMIERA_TOP | KEY_PRIMIERA_ALONE
    if not settings.primiera or settings.primiera_mode != "sevens":
        ignored |= KEY_SEVENS_TOP | KEY_SEVENS_ALONE
    if not settings.last_capture_sweep:
        ignored |= KEY_LEFTOVER
    if not settings.last_play_sweep:
        ignored |= KEY_CLEARED
    if not settings.ace_sweep:
        ignored |= 0x3F << KEY_ACES_SHIFT
    return ignored


_TABLES: dict[Settings, PointsTable] = {}


def clear_points_tables() -> None:
    """Forget the tables of points (for benchmarks and tests: they refill as needed)."""
    _TABLES.clear()


def points_table(settings: Settings) -> PointsTable:
    """The table of points by packed facts for these settings (one per distinct rules: the
    target scores nothing, so settings that differ only in it share a table)."""
    table = _TABLES.get(settings)
    if table is None:
        rules = settings.replace(target=11) if settings.target != 11 else settings
        table = _TABLES.get(rules)
        if table is None:
            table = _TABLES[rules] = PointsTable(rules)
        _TABLES[settings] = table
    return table


def cappotto_of(keys: Sequence[int]) -> int | None:
    """The index of the side whose pile holds all ten coins, if any (Cirulla's cappotto)."""
    for i, key in enumerate(keys):
        if key >> KEY_RUN_SHIFT & 0xF == ALL_COINS:
            return i
    return None


def score_sides(deal: Deal, settings: Settings) -> tuple[Points, ...]:
    """Score a deal whose owners are the scoring sides (partners' piles already pooled)."""
    table = points_table(settings)
    return tuple([table[key] for key in packed(deal)])


def score_deal(
    piles: Sequence[Pile],
    sweeps: Sequence[int],
    last: int | None,
    settings: Settings,
) -> tuple[Points, ...]:
    """Score one deal from its piles: per side (in the order of ``piles``) the points.

    ``sweeps`` are the sweeps made during play; ``last`` is the index of the side that took
    the cards left on the table (``None`` when none were left), which earns a sweep only with
    ``last_capture_sweep``. A variant's other facts go through :func:`score_sides`.

    The worked example of docs/rules.md section 5:

    >>> from scopa.cards import CardSet
    >>> a = CardSet.parse("Ad 2d 3d 5d 7d Kd Ac 2c 6c 7c Hc 2s 4s 7s Js Ks 2b 3b 5b 6b Hb Kb")
    >>> b = CardSet.full() - a
    >>> pa, pb = score_deal([Pile.of_cards(a), Pile.of_cards(b)], [1, 2], None, Settings())
    >>> pa.total, pb.total, pa.primiera
    (5, 2, 1)
    """
    if not piles:
        return ()
    owners = tuple(str(i) for i in range(len(piles)))
    deal = Deal(owners, tuple(piles), tuple(sweeps), None if last is None else owners[last])
    return score_sides(deal, settings)
