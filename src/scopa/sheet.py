"""The score sheet (:class:`Sheet`, made by :func:`scopa.match.score_match`) and what a change
of the house rules moved on it: the "what changed" line of a re-score (docs/rules.md
section 7)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import compress
from operator import ne
from typing import Any, NamedTuple

from scopa import variants
from scopa.columns import picker
from scopa.errors import UnknownVariantError
from scopa.i18n import N_, _, pgettext
from scopa.scoring import Points
from scopa.words import Seated, side_name


class DealScore(NamedTuple):
    """One row of the sheet: a deal's points per side and the running totals after it."""

    number: int
    points: tuple[Points, ...]
    totals: tuple[int, ...]
    after_end: bool
    cappotto: str | None = None
    """Cirulla: the side whose pile held all ten coins in this deal."""


@dataclass(frozen=True, slots=True, eq=False)
class Sheet:
    """The score sheet: the sides, a row per deal, the totals, the winner.

    The rows (:attr:`deals`) are made the first time they are read: a re-score needs only
    each side's points total per deal (:attr:`gains`) for the running totals, the winner and
    what changed, and a long match has hundreds of rows.
    """

    sides: tuple[str, ...]
    gains: tuple[int, ...]
    """Deal by deal, each side's points total."""
    totals: tuple[int, ...]
    winner: str | None
    decided_at: int | None
    variant: str = "scopa"
    by_cappotto: bool = False
    """Whether the game was won by a cappotto (all ten coins, Cirulla) rather than on points."""
    make_rows: Callable[[int, int | None], tuple[DealScore, ...]] = dataclasses.field(
        default=lambda start, stop: (), repr=False
    )
    """Makes the rows of deals ``start + 1`` to ``stop`` (``None``: the last): all of them
    once for :attr:`deals`, or a few for :meth:`rows`."""
    cached_rows: tuple[DealScore, ...] | None = dataclasses.field(
        default=None, init=False, repr=False
    )

    @property
    def deal_count(self) -> int:
        return len(self.gains) // len(self.sides) if self.sides else 0

    @property
    def deals(self) -> tuple[DealScore, ...]:
        """A row per deal: its points per side, the running totals, whether after the end."""
        rows = self.cached_rows
        if rows is None:
            rows = self.make_rows(0, None)
            object.__setattr__(self, "cached_rows", rows)
        return rows

    def rows(self, start: int = 0, stop: int | None = None) -> tuple[DealScore, ...]:
        """``deals[start:stop]`` (counted from the first deal, never from the end), made
        without the other rows when they are not made yet: a change's answer and its tally
        cost the rows they show, not the match's length."""
        start = max(0, start)
        if self.cached_rows is not None:
            return self.cached_rows[start:stop]
        return self.make_rows(start, stop)

    @property
    def counted(self) -> tuple[DealScore, ...]:
        """The rows that count (up to the one that decided the game)."""
        return self.rows(0, self.decided_at)

    def _summary(self) -> tuple[Any, ...]:
        return self.sides, self.gains, self.totals, self.winner, self.decided_at, self.variant

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sheet):
            return NotImplemented
        same = self._summary() == other._summary() and self.by_cappotto == other.by_cappotto
        return same and self.deals == other.deals

    __hash__ = None  # type: ignore[assignment]  # equal sheets compare their rows: not hashed

    @property
    def status(self) -> str:
        return "won" if self.winner is not None else "in_progress"

    def total_of(self, side: str) -> int:
        return self.totals[self.sides.index(side)]


@dataclass(frozen=True, slots=True)
class Changes:
    """What a settings change moved on the sheet."""

    settings: tuple[tuple[str, Any, Any], ...]
    """(setting, before, after) for each setting that changed."""
    sides: tuple[tuple[str, ...], tuple[str, ...]] | None
    """(before, after) when the scoring sides changed (partnerships turned on or off)."""
    deals: tuple[tuple[int, str, int, int], ...]
    """(deal number, side, points before, points after) for each deal cell that moved."""
    totals: tuple[tuple[str, int, int], ...]
    """(side, before, after) for each total that moved (sides present before and after)."""
    winner: tuple[str | None, str | None] | None
    decided_at: tuple[int | None, int | None] | None
    variant: str = "scopa"
    """The match's variant: its own words for the settings in :meth:`summary` (Escoba's
    setenta)."""

    @property
    def any(self) -> bool:
        return bool(self.sides or self.deals or self.totals or self.winner or self.decided_at)

    def to_dict(self, *, summary: bool = True) -> dict[str, Any]:
        result: dict[str, Any] = {
            "settings": {name: {"before": a, "after": b} for name, a, b in self.settings},
            "sides": None
            if self.sides is None
            else {"before": list(self.sides[0]), "after": list(self.sides[1])},
            "deals": [
                {"number": n, "side": side, "before": a, "after": b} for n, side, a, b in self.deals
            ],
            "totals": {side: {"before": a, "after": b} for side, a, b in self.totals},
            "winner": None
            if self.winner is None
            else {"before": self.winner[0], "after": self.winner[1]},
            "decided_at": None
            if self.decided_at is None
            else {"before": self.decided_at[0], "after": self.decided_at[1]},
        }
        if summary:
            result["summary"] = summarize(result, self.variant)
        return result

    def summary(self, seated: Seated | None = None) -> str:
        """One line for people: ``Primiera off: Anna 12 → 10; winner now Bruno at deal 7``
        (in the language in force: ``Primiera disattivata: Anna 12 → 10; ora vince Bruno
        alla mano 7``); the seats the program named in ``seated``, the match, in that
        language too."""
        return summarize(self.to_dict(summary=False), self.variant, seated)


def summarize(changes: Any, variant: str = "scopa", seated: Seated | None = None) -> str:
    """The summary line of a change, from its :meth:`Changes.to_dict` (as the log keeps it),
    in the language in force and the words of the match's ``variant``."""
    parts = []
    settings = changes.get("settings") or {}
    if settings:
        named = (describe_setting(n, v.get("after"), variant) for n, v in settings.items())
        parts.append(", ".join(named))
    moved = [
        f"{side_name(side, seated)} {v.get('before')} → {v.get('after')}"
        for side, v in (changes.get("totals") or {}).items()
    ]
    sides = changes.get("sides")
    if sides is not None:
        after = ", ".join(side_name(side, seated) for side in sides.get("after", ()))
        moved.insert(0, _("sides now {sides}").format(sides=after))
    if moved:
        parts.append(", ".join(moved))
    winner, decided = changes.get("winner"), changes.get("decided_at")
    if winner is not None:
        new, at = winner.get("after"), decided.get("after") if decided else None
        if new is None:
            parts.append(_("no winner yet"))
        else:
            at_ = at if at is not None else "?"
            said = _("winner now {name} at deal {number}")
            parts.append(said.format(name=side_name(new, seated), number=at_))
    elif decided is not None and decided.get("after") is not None:
        parts.append(_("now decided at deal {number}").format(number=decided["after"]))
    if not moved and winner is None and decided is None:
        parts.append(_("no score changed"))
    return parts[0] + (": " + "; ".join(parts[1:]) if len(parts) > 1 else "")


SETTING_NAMES = {
    "target": N_("Target"),
    "primiera": N_("Primiera"),
    "napola": N_("Napola"),
    "partnerships": N_("Partnerships"),
    "last capture sweep": N_("Last capture sweep"),
    "ties": N_("Ties"),
    "primiera mode": N_("Primiera mode"),
    "last play sweep": N_("Last play sweep"),
    "ace sweep": N_("Ace sweep"),
    "cirulla points": N_("Cirulla points"),
    "decino points": N_("Decino points"),
    "piccola cap": N_("Piccola cap"),
    "cappotto": N_("Cappotto"),
    "variant": N_("Variant"),
}
"""Each setting's name in a summary (``Primiera off``)."""
SWITCHES = {
    "primiera": (N_("Primiera on"), N_("Primiera off")),
    "partnerships": (N_("Partnerships on"), N_("Partnerships off")),
    "last capture sweep": (N_("Last capture sweep on"), N_("Last capture sweep off")),
    "last play sweep": (N_("Last play sweep on"), N_("Last play sweep off")),
    "ace sweep": (N_("Ace sweep on"), N_("Ace sweep off")),
}
"""A setting that is on or off, each way (the words agree with the setting's name)."""
VALUES = (N_("off"), N_("flat"), N_("run"), N_("withhold"), N_("share"), N_("sum"), N_("sevens"))
WIN = N_("win")
"""The settings' values that are words (translated in a summary, never in a file)."""


def describe_setting(name: str, value: Any, variant: str = "scopa") -> str:
    """``Primiera off``, ``Target 21``, ``Napola run``... in the words of the ``variant``
    (Escoba's primiera is its setenta).

    >>> describe_setting("primiera", False), describe_setting("target", 21)
    ('Primiera off', 'Target 21')
    >>> describe_setting("primiera", False, "escoba"), describe_setting("primiera_mode", "sum", "escoba")
    ('Setenta off', 'Setenta mode sum')
    """  # noqa: E501
    words = name.replace("_", " ")
    own = _own_word(variant) if words.startswith("primiera") else None
    if own is not None:  # the variant's own word for the primiera (Escoba's setenta)
        if isinstance(value, bool):
            # {category} in lower case (Sin setenta), the line's first letter made a capital
            on, off = pgettext("setting", "{category} on"), pgettext("setting", "{category} off")
            said = (on if value else off).format(category=own.lower())
            return said[:1].upper() + said[1:]
        if words == "primiera mode":
            label = pgettext("setting", "{category} mode").format(category=own)
            return f"{label} {_(str(value))}"
    label = _(SETTING_NAMES.get(words, words.capitalize()))
    if isinstance(value, bool):
        switch = SWITCHES.get(words)
        if switch is not None:
            return _(switch[0] if value else switch[1])
        state = _("on") if value else _("off")
        return f"{label} {state}"
    return f"{label} {_(str(value)) if isinstance(value, str) else value}"


def setting_label(name: str, variant: str, scopa_label: str) -> str:
    """A primiera setting's label on the House rules form in the ``variant``'s words
    (Escoba's ``Setenta``, ``Setenta mode``), else ``scopa_label`` translated."""
    own = _own_word(variant)
    if own is None:
        return _(scopa_label)
    if name == "primiera_mode":
        return pgettext("setting", "{category} mode").format(category=own)
    return own


def _own_word(variant: str) -> str | None:
    """The variant's word for the primiera, in the language in force, when it is not
    Scopa's (Escoba's ``Setenta``); ``None`` for Scopa's."""
    try:
        word = variants.get(variant).labels.get("primiera", "Primiera")
    except UnknownVariantError:  # a log written by a version with other variants
        return None
    return None if word == "Primiera" else pgettext("category", word)


def diff_sheets(
    before: Sheet, after: Sheet, settings: tuple[tuple[str, Any, Any], ...] = ()
) -> Changes:
    """What moved between two sheets of the same deals."""
    if before.deal_count != after.deal_count:
        raise ValueError("the two sheets are not of the same deals")
    common = [s for s in after.sides if s in before.sides]
    old_index = {s: i for i, s in enumerate(before.sides)}
    new_index = {s: i for i, s in enumerate(after.sides)}
    old_gains, new_gains = before.gains, after.gains
    deals: list[tuple[int, str, int, int]] = []
    if before.sides == after.sides:
        moved = list(compress(range(len(new_gains)), map(ne, old_gains, new_gains)))
        if moved:
            pick = picker(moved)
            numbers, names = _cells(after.sides, after.deal_count)
            cells = pick(numbers), pick(names), pick(old_gains), pick(new_gains)
            deals = list(zip(*cells, strict=True))
    else:
        places = [(side, old_index[side], new_index[side]) for side in common]
        old_rows = _by_deal(old_gains, len(before.sides))
        new_rows = _by_deal(new_gains, len(after.sides))
        for number, (old, new) in enumerate(zip(old_rows, new_rows, strict=True), 1):
            deals += [(number, s, old[i], new[j]) for s, i, j in places if old[i] != new[j]]
    totals = []
    for side in common:
        a, b = before.totals[old_index[side]], after.totals[new_index[side]]
        if a != b:
            totals.append((side, a, b))
    return Changes(
        settings=settings,
        sides=None if before.sides == after.sides else (before.sides, after.sides),
        deals=tuple(deals),
        totals=tuple(totals),
        winner=None if before.winner == after.winner else (before.winner, after.winner),
        decided_at=(
            None if before.decided_at == after.decided_at else (before.decided_at, after.decided_at)
        ),
        variant=after.variant,
    )


@lru_cache(maxsize=64)
def _cells(sides: tuple[str, ...], deals: int) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """The deal number and the side of each cell of a sheet's points (deal by deal, side by
    side), kept for the sheets of a few shapes."""
    numbers = tuple(number for number in range(1, deals + 1) for _ in sides)
    return numbers, sides * deals


def _by_deal(gains: Sequence[int], width: int) -> list[tuple[int, ...]]:
    """Flat gains, deal by deal, as a tuple per deal."""
    return list(zip(*[iter(gains)] * width, strict=True))
