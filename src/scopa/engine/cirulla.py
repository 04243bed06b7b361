"""Cirulla's own facts at the table (docs/rules.md 9.5): declarations and the dealer's opening.

The matta, the 7 of cups, is wild in both: its holder (for the opening table, the dealer)
names any value 1-10. Everywhere else it is an ordinary 7 of cups, unless the variant's
``matta_play`` is ``declared`` (:func:`declare`).
"""

from __future__ import annotations

from scopa.engine.captures import MATTA, RANK_OF, indices_of

MATTA_BIT = 1 << MATTA
CIRULLA, DECINO = "cirulla", "decino"


def declaration(hand: int, cirulla_points: int = 3, decino_points: int = 10) -> tuple[str, int]:
    """The declaration of a 3-card hand and the rank the matta is given (-1: no matta).

    A **cirulla**: capture values totalling 9 or less; a **decino**: three cards of one rank.
    The matta counts as any value; in a cirulla the engine names it the ace (the lowest
    value, always allowed), in a decino the rank of the other two. A hand that is both is
    declared as the one worth more (a decino when they are worth the same); a declaration
    worth 0 points is not played. ``("", -1)``: nothing to declare.

    >>> from scopa.cards import CardSet
    >>> [declaration(CardSet.parse(h).mask) for h in ("7c 4s 4b", "7c As 2b", "7c 4s 5b")]
    [('decino', 3), ('cirulla', 0), ('', -1)]
    >>> declaration(CardSet.parse("Ad As Ab").mask), declaration(CardSet.parse("Ad As Ab").mask, 3, 0)
    (('decino', -1), ('cirulla', -1))
    """  # noqa: E501
    if hand.bit_count() != 3:
        return "", -1
    wild = bool(hand & MATTA_BIT)
    ranks = [RANK_OF[i] for i in indices_of(hand & ~MATTA_BIT)]
    total = sum(r + 1 for r in ranks) + (1 if wild else 0)
    same = ranks.count(ranks[0]) == len(ranks)
    options = []
    if same and decino_points:
        options.append((decino_points, 1, DECINO, ranks[0] if wild else -1))
    if total <= 9 and cirulla_points:
        options.append((cirulla_points, 0, CIRULLA, 0 if wild else -1))
    if not options:
        return "", -1
    _, _, kind, matta = max(options)
    return kind, matta


def opening_sweeps(table: int, low_table: bool = False) -> int:
    """The dealer's sweeps for the four opening table cards: total 15 -> 1, 30 -> 2, and with
    ``low_table`` 9 or less -> 3; the matta counts as whichever value 1-10 scores more.

    >>> from scopa.cards import CardSet
    >>> [opening_sweeps(CardSet.parse(t).mask) for t in ("5d 5s 3b 2c", "Kd Kc 5s 5b", "Ad 2c 3s 2b")]
    [1, 2, 0]
    >>> opening_sweeps(CardSet.parse("Ad 2c 3s 2b").mask, low_table=True)
    3
    >>> opening_sweeps(CardSet.parse("7c 2d 3s Ab").mask), opening_sweeps(CardSet.parse("7c 2d 3s Ab").mask, True)
    (1, 3)
    """  # noqa: E501
    base = sum(RANK_OF[i] + 1 for i in indices_of(table & ~MATTA_BIT))
    totals = [base + v for v in range(1, 11)] if table & MATTA_BIT else [base]
    best = 0
    for total in totals:
        if total == 15:
            best = max(best, 1)
        elif total == 30:
            best = max(best, 2)
        elif low_table and total <= 9:
            best = 3
    return best
