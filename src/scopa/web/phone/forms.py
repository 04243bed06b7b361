"""The deal form of the pages: posted fields in, a deal in the deal format out, and every
error placed next to the field it is about.

Three ways to record a deal, each for each pile owner ``i`` (a side, or the owners the deal
was first recorded with): the quick tally (``count-i``, ``coins-i`` checkboxes by rank,
``best-i-c`` / ``-s`` / ``-b``, ``sweeps-i``), card by card (``card-7d`` = ``i`` for each of
the 40 cards), or who took each point (``cat-cards`` and so on: the index of the side that
took it, several for a tie, none for nobody; ``run`` and ``run-length`` for the napola's or
the piccola's run, ``grande``; always for the scoring sides). All share ``sweeps-i`` and
``last`` (an owner's index, or empty = none left).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scopa import variants, words
from scopa.cards import CARDS, RANK_SYMBOLS
from scopa.categories import RUN_MAX, RUN_MIN
from scopa.deal import CATEGORY_KEYS, Deal
from scopa.errors import InputError
from scopa.formats import BEST_SUITS, describe
from scopa.i18n import N_, _, ngettext
from scopa.reading import ascii_digits, form_int
from scopa.rules import Settings, setting_kind

FormData = Mapping[str, Sequence[str]]
"""Posted fields: each name to its values (a checkbox group has several)."""

CARD_CODES = tuple(str(card) for card in CARDS)


@dataclass
class DealForm:
    """What the form shows: the owners, the values to fill in, and the errors by field."""

    owners: tuple[str, ...]
    mode: str = "tally"
    counts: list[str] = field(default_factory=list)
    coins: list[set[str]] = field(default_factory=list)
    best: list[dict[str, str]] = field(default_factory=list)
    sweeps: list[str] = field(default_factory=list)
    last: str = ""
    cards: dict[str, str] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    rest: str = ""
    """The owner (index) who took the rest: their cards and coins are implied (tally)."""
    cirullas: list[str] = field(default_factory=list)
    """Cirulla: per owner, how many cirullas (and below, decini) it declared."""
    decinos: list[str] = field(default_factory=list)
    aces: list[str] = field(default_factory=list)
    """Scopa d'Assi: per owner, the times a played ace took the whole table."""
    cleared: str = ""
    """Scopone: the owner (index) who cleared the table with the last play, or empty."""
    took: dict[str, set[str]] = field(default_factory=dict)
    """Who took each point: per category, the owners (indices) who took it (several: tied)."""
    run: str = ""
    """Who took each point: the owner (index) holding the ace, two and three of coins."""
    run_length: str = "3"
    note: str = ""
    """Why the form shows another way than the one asked (a category deal as a tally)."""
    grande: str = ""
    """Who took each point, Cirulla: the owner (index) holding the jack, horse and king of
    coins."""

    def __post_init__(self) -> None:
        n = len(self.owners)
        self.counts = self.counts or [""] * n
        self.coins = self.coins or [set() for _ in range(n)]
        self.best = self.best or [dict.fromkeys(BEST_SUITS, "") for _ in range(n)]
        self.sweeps = self.sweeps or ["0"] * n
        self.cirullas = self.cirullas or ["0"] * n
        self.decinos = self.decinos or ["0"] * n
        self.aces = self.aces or ["0"] * n

    @property
    def general_error(self) -> str | None:
        return self.errors.get("deal")

    def error(self, key: str) -> str | None:
        return self.errors.get(key)


MODES = ("tally", "cards", "categories")


def form_mode(mode: str) -> str:
    """One of the form's three modes (the tally unless another is named)."""
    return mode if mode in MODES else "tally"


def blank_form(owners: Sequence[str], mode: str = "tally") -> DealForm:
    form = DealForm(tuple(owners), form_mode(mode))
    form.rest = str(len(owners) - 1)
    return form


def form_of_deal(deal: Deal) -> DealForm:
    """A recorded deal, filled into the form (card by card if every pile was recorded so; who
    took each point if it was recorded so)."""
    form = DealForm(deal.owners)
    won = deal.categories
    if won is not None:
        form.mode = "categories"
        form.took = {key: {str(i) for i in won.took(key)} for key in CATEGORY_KEYS}
        if won.run is not None:
            form.run, form.run_length = str(won.run[0]), str(won.run[1])
        form.grande = "" if won.grande is None else str(won.grande)
        form.sweeps = [str(n) for n in deal.sweeps]
    if won is None and all(pile.cards is not None for pile in deal.piles):
        form.mode = "cards"
        for i, pile in enumerate(deal.piles):
            assert pile.cards is not None
            for card in pile.cards:
                form.cards[str(card)] = str(i)
    for i, pile in enumerate(deal.piles):
        form.counts[i] = str(pile.count)
        form.coins[i] = {RANK_SYMBOLS[r] for r in range(10) if pile.coins >> r & 1}
        form.best[i] = {
            s: (RANK_SYMBOLS[r] if r >= 0 else "")
            for s, r in zip(BEST_SUITS, pile.best, strict=True)
        }
        form.sweeps[i] = str(deal.sweeps[i])
    if deal.last_capture is not None:
        form.last = str(deal.owners.index(deal.last_capture))
    for i in range(len(deal.owners)):
        declared = deal.declared(i)
        form.cirullas[i] = str(declared.count("cirulla"))
        form.decinos[i] = str(declared.count("decino"))
        form.aces[i] = str(deal.ace_sweeps_of(i))
    if deal.cleared_index is not None:
        form.cleared = str(deal.cleared_index)
    return form


def whole(text: str, most: int = 6) -> bool:
    """Whether ``text`` is a whole number of at most ``most`` ASCII digits (``str.isdigit``
    also takes ``"²"``, which ``int`` does not).

    >>> whole("12"), whole("²"), whole("1" * 7)
    (True, False, False)
    """
    return ascii_digits(text, most) is not None


def first(data: FormData, key: str) -> str:
    values = data.get(key) or []
    return values[0] if values else ""


def run_asked(variant: str, settings: Settings) -> str:
    """The run of coins the category form asks for a match of ``variant`` under ``settings``
    (as ``_deal_categories.html`` shows it): Cirulla's piccola always, the napola only when
    the match plays it, else none (``""``).

    >>> off, flat = Settings.of("scopa"), Settings.of("scopa", napola="flat")
    >>> run_asked("scopa", off), run_asked("scopa", flat), run_asked("cirulla", off)
    ('', 'napola', 'piccola')
    """
    run_key = variants.get(variant).category_run
    if run_key == "napola" and settings.napola == "off":
        return ""
    return run_key


def read_form(
    data: FormData,
    owners: Sequence[str],
    variant: str = "scopa",
    settings: Settings | None = None,
) -> tuple[DealForm, dict[str, Any] | None]:
    """The posted form, and the deal it describes as JSON (``None`` when a field is wrong),
    with the facts the match's ``variant`` records under its ``settings`` (``None``: the
    variant's usual ones)."""
    owners = tuple(owners)
    form = DealForm(owners, form_mode(first(data, "mode")))
    n = len(owners)
    if form.mode == "categories":
        run_key = run_asked(variant, settings or Settings.of(variant))
        return form, read_categories(data, form, variant, run_key)
    for i in range(n):
        form.counts[i] = first(data, f"count-{i}").strip()[:6]
        form.coins[i] = {c for c in data.get(f"coins-{i}", []) if c in RANK_SYMBOLS}
        form.best[i] = {s: first(data, f"best-{i}-{s}").strip()[:2] for s in BEST_SUITS}
        form.sweeps[i] = first(data, f"sweeps-{i}").strip()[:6] or "0"
    imply_rest(form, first(data, "rest").strip())
    last = first(data, "last").strip()
    form.last = last if whole(last, 2) and int(last) < n else ""
    for code in CARD_CODES:
        value = first(data, f"card-{code}")
        if whole(value, 2) and int(value) < n:
            form.cards[code] = value
    sweeps: dict[str, int] = {}
    for i, owner in enumerate(owners):
        text = form.sweeps[i]
        if not whole(text):
            form.errors[f"sweeps-{i}"] = _("{value} is not a whole number of sweeps").format(
                value=describe(text)
            )
        else:
            sweeps[owner] = int(text)
    piles: dict[str, Any] = {}
    if form.mode == "cards":
        missing = [code for code in CARD_CODES if code not in form.cards]
        if missing:
            shown = ", ".join(words.card_name(code) for code in missing[:6])
            shown += " …" if len(missing) > 6 else ""
            form.errors["cards"] = ngettext(
                "{n} card is in nobody's pile: {cards} (tap each of the 40 cards into a pile)",
                "{n} cards are in nobody's pile: {cards} (tap each of the 40 cards into a pile)",
                len(missing),
            ).format(n=len(missing), cards=shown)
        for i, owner in enumerate(owners):
            piles[owner] = {"cards": [c for c in CARD_CODES if form.cards.get(c) == str(i)]}
    else:
        for i, owner in enumerate(owners):
            text = form.counts[i]
            if not text:  # the rest's count is implied, never typed: its error is the others'
                if form.rest != str(i):
                    form.errors[f"count-{i}"] = _("enter the number of cards taken")
            elif not whole(text):
                form.errors[f"count-{i}"] = _("{value} is not a whole number of cards").format(
                    value=describe(text)
                )
            best = {s: (form.best[i][s] or None) for s in BEST_SUITS}
            piles[owner] = {
                "count": int(text) if whole(text) else 0,
                "coins": sorted(form.coins[i], key=RANK_SYMBOLS.index),
                "best": best,
            }
    facts = read_facts(data, form, variants.get(variant).deal_facts)
    if form.errors:
        return form, None
    deal = {
        "piles": piles,
        "sweeps": sweeps,
        "last_capture": owners[int(form.last)] if form.last else None,
        **facts,
    }
    return form, deal


def read_categories(
    data: FormData, form: DealForm, variant: str, run_key: str
) -> dict[str, Any] | None:
    """The deal of the category form (docs/formats.md), or ``None`` with the errors by field:
    a category nobody took where somebody always does, a sweeps count not a number.
    ``run_key``: the run of coins the form asks (:func:`run_asked`); with none (a match
    without napola) the page shows no run, and the posted ``run`` fields are not read."""
    owners = form.owners
    n = len(owners)
    definition = variants.get(variant)

    def index(value: str) -> str | None:
        return value if whole(value, 2) and int(value) < n else None

    categories: dict[str, Any] = {}
    for key in definition.category_form:
        took = {i for i in map(index, data.get(f"cat-{key}", [])) if i is not None}
        form.took[key] = took
        names = [owners[int(i)] for i in sorted(took, key=int)]
        categories[key] = None if not names else names[0] if len(names) == 1 else names
        if not names and key != "primiera":
            form.errors[f"cat-{key}"] = (
                _("tap who took it")
                if key == "settebello"
                else _("tap who took it, or the sides that tied")
            )
    deal: dict[str, Any] = {"categories": categories}
    form.run = (index(first(data, "run").strip()) or "") if run_key else ""
    length = first(data, "run-length").strip()[:2] or "3"
    form.run_length = length
    if run_key and "run-length" in data:
        if form.run and not (whole(length, 2) and RUN_MIN <= int(length) <= RUN_MAX):
            form.errors["run"] = _("{value} is not a run of 3 to 10 coins").format(
                value=describe(length)
            )
        deal[run_key] = {owners[int(form.run)]: int(length)} if form.run and whole(length) else {}
    if "grande" in definition.category_facts:
        form.grande = index(first(data, "grande").strip()) or ""
        deal["grande"] = owners[int(form.grande)] if form.grande else None
    sweeps: dict[str, int] = {}
    for i, owner in enumerate(owners):
        text = first(data, f"sweeps-{i}").strip()[:6] or "0"
        form.sweeps[i] = text
        if not whole(text):
            form.errors[f"sweeps-{i}"] = _("{value} is not a whole number of sweeps").format(
                value=describe(text)
            )
        else:
            sweeps[owner] = int(text)
    last = first(data, "last").strip()
    form.last = last if index(last) is not None else ""
    deal["sweeps"] = sweeps
    deal["last_capture"] = owners[int(form.last)] if form.last else None
    deal.update(read_facts(data, form, definition.deal_facts))
    return None if form.errors else deal


def read_facts(data: FormData, form: DealForm, facts: Sequence[str]) -> dict[str, Any]:
    """A variant's facts from the form: Cirulla's declarations (a number of cirullas and of
    decini per owner), d'Assi's ace take-alls, Scopone's last-play clear."""
    owners = form.owners
    result: dict[str, Any] = {}

    def number(key: str, i: int, refused: str) -> int:
        """The count in field ``key-i``; ``refused``: what to say of another text."""
        text = first(data, f"{key}-{i}").strip()[:3] or "0"
        getattr(form, f"{key}s")[i] = text
        if not whole(text):
            form.errors[f"{key}-{i}"] = refused.format(value=describe(text))
            return 0
        return int(text)

    if "declarations" in facts:
        declared: dict[str, list[str]] = {}
        for i, owner in enumerate(owners):
            kinds = ["cirulla"] * number(
                "cirulla", i, _("{value} is not a whole number of cirullas")
            )
            kinds += ["decino"] * number("decino", i, _("{value} is not a whole number of decini"))
            if kinds:
                declared[owner] = kinds
        result["declarations"] = declared
    if "ace_sweeps" in facts:
        refused = _("{value} is not a whole number of ace take-alls")
        result["ace_sweeps"] = {o: number("ace", i, refused) for i, o in enumerate(owners)}
    if "last_play_cleared" in facts:
        cleared = first(data, "cleared").strip()
        form.cleared = cleared if whole(cleared, 2) and int(cleared) < len(owners) else ""
        result["last_play_cleared"] = owners[int(form.cleared)] if form.cleared else None
    return result


def imply_rest(form: DealForm, rest: str) -> None:
    """The tally of the owner who took the rest: the cards the others did not take (when
    their counts are given and come to at most 40) and every coin they did not take."""
    n = len(form.owners)
    if form.mode != "tally" or not whole(rest, 2) or int(rest) >= n or n < 2:
        return
    form.rest = rest
    r = int(rest)
    others = [i for i in range(n) if i != r]
    if not form.counts[r] and all(whole(form.counts[i]) for i in others):
        total = sum(int(form.counts[i]) for i in others)
        if total <= 40:
            form.counts[r] = str(40 - total)
        else:  # said where the counts were typed: the rest's side has no count to fix
            for i in others:
                form.errors[f"count-{i}"] = _("{total} cards in all: the deck has 40").format(
                    total=total
                )
    taken = {c for i in others for c in form.coins[i]}
    form.coins[r] = {c for c in RANK_SYMBOLS if c not in taken}


def place_error(form: DealForm, error: InputError) -> None:
    """Put a core error next to the field its place names (``piles.Anna.count`` → count-0)."""
    where = error.where
    key = "deal"
    by_length = sorted(enumerate(form.owners), key=lambda item: -len(item[1]))
    for section, prefix in (("piles", "piles."), ("sweeps", "sweeps.")):
        if not where.startswith(prefix):
            continue
        rest = where[len(prefix) :]
        for i, owner in by_length:
            if rest == owner or rest.startswith(owner + "."):
                tail = rest[len(owner) + 1 :]
                if section == "sweeps":
                    key = f"sweeps-{i}"
                elif form.mode == "cards":
                    key = "cards"
                elif tail.startswith("count"):
                    key = f"count-{i}"
                elif tail.startswith("coins"):
                    key = f"coins-{i}"
                elif tail.startswith("best"):
                    key = f"best-{i}"
                else:
                    key = f"side-{i}"
                break
        break
    if where == "last_capture":
        key = "last"
    for prefix, field_key in (("declarations.", "cirulla"), ("ace_sweeps.", "ace")):
        if where.startswith(prefix):
            owner = where[len(prefix) :].split("[")[0]
            if owner in form.owners:
                key = f"{field_key}-{form.owners.index(owner)}"
    if where == "last_play_cleared":
        key = "cleared"
    if where.startswith("categories."):
        key = "cat-" + where.split(".")[1].split("[")[0]
    if where.split(".")[0] in ("napola", "piccola"):
        key = "run"
    if where == "grande":
        key = "grande"
    if key == "deal" and form.mode == "cards" and where == "piles":
        key = "cards"
    form.errors[key] = error.text()


WHOLE_SETTINGS = {
    "target": N_("the points to win"),
    "cirulla_points": N_("the points for a cirulla"),
    "decino_points": N_("the points for a decino"),
    "piccola_cap": N_("the most a piccola is worth"),
}
"""How a form's error names each setting written as a whole number (``enter {what}``)."""


def settings_from_form(form: Mapping[str, str], base: Settings) -> dict[str, Any]:
    """The settings of the match's variant as posted by a page's form (checkboxes absent =
    off; Scopone's partnerships are always on)."""
    rules: dict[str, Any] = {}
    for name in base.names:
        kind = setting_kind(name)
        if kind == "whole":
            rules[name] = form_int(form.get(name, ""), f"rules.{name}", WHOLE_SETTINGS[name])
        elif kind == "choice":
            rules[name] = form.get(name, getattr(base, name))
        else:
            forced = name == "partnerships" and base.definition.partnerships_forced
            rules[name] = name in form or forced
    return rules
