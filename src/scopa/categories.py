"""The category form of a deal (docs/formats.md, "A deal: the category form"): who took each
point, as a paper sheet records it, in and out of JSON, and a deal's facts turned into it.

A deal of this form names, for each category of its variant that depends on the piles (cards,
coins, settebello, primiera; Escoba's cartas, oros, siete de oros, setenta), the side that took
it, the sides that tied, or nobody; the run of coins from the ace when it scores (Scopa's
``napola``, Cirulla's ``piccola``) and Cirulla's ``grande``; then the sweeps, the last capture
and the variant's facts as the pile form has them. That is every fact the settings read but
the piles themselves, so such a deal re-scores under any setting except a change of
partnerships (:meth:`scopa.match.Match.with_settings` refuses it).

>>> from scopa.match import Match
>>> m = Match(("Anna", "Bruno"))
>>> deal = parse_category_deal({"categories": {"cards": "Anna", "coins": ["Anna", "Bruno"],
...     "settebello": "Bruno", "primiera": None}, "sweeps": {"Anna": 1}}, m)
>>> [p.total for p in m.points(deal)]
[2, 1]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scopa import variants
from scopa.deal import CATEGORY_KEYS, Categories, Deal
from scopa.errors import InputError, InvalidDealError, describe, join_place
from scopa.formats_variants import facts_to_json, parse_facts, parse_owner
from scopa.i18n import N_
from scopa.match import Match
from scopa.reading import check_keys, expect_object, or_empty, whole_number
from scopa.scoring import (
    KEY_CARDS_TOP,
    KEY_COINS_TOP,
    KEY_GRANDE,
    KEY_PRIMIERA_TOP,
    KEY_RUN_SHIFT,
    KEY_SETTEBELLO,
    KEY_SEVENS_TOP,
    pack_sides,
)
from scopa.variants import VariantDef

RUN_MIN, RUN_MAX = 3, 10
"""A run that scores starts with the ace, two and three of coins; all ten is the longest."""


def is_category_deal(data: Mapping[str, Any]) -> bool:
    """Whether a deal's JSON is of the category form."""
    return "categories" in data


def _side(value: object, sides: Sequence[str], match: Match, where: str) -> int:
    """The index of the side named by ``value`` (a string), or an error naming the place."""
    if isinstance(value, str) and value in sides:
        return sides.index(value)
    in_team = isinstance(value, str) and match.settings.partnerships and value in match.players
    raise _not_a_side(where, value, sides, in_team)


def _not_a_side(
    where: str, value: object, sides: Sequence[str], in_team: bool = False
) -> InvalidDealError:
    """The refusal of a name that is not a side (a category's taker, a key of the sweeps);
    ``in_team``: a player's name where partnerships want their team's."""
    if in_team:
        message = N_("{value} plays in a team: with partnerships on, name the team ({names})")
        code = "deal.category_name_team"
    else:
        message = N_("{value} is not a side of this match (expected one of {names})")
        code = "deal.category_not_side"
    return InvalidDealError(
        where, message, code=code, value=describe(value), names=", ".join(sides)
    )


def _takers(
    value: object, key: str, sides: Sequence[str], match: Match, where: str
) -> tuple[int, ...]:
    """Who took one category: a side, a list of the sides that tied, or ``null``."""
    if value is None:
        if key != "primiera":
            raise InvalidDealError(
                where,
                N_("somebody always takes {key}: name the side that took it{or_tied}"),
                code="deal.category_nobody",
                key=key,
                or_tied="" if key == "settebello" else ", or a list of the sides that tied",
            )
        return ()
    if isinstance(value, list):
        if key == "settebello":
            raise InvalidDealError(
                where,
                N_("the settebello is never tied: name the side that took it"),
                code="deal.category_settebello_tied",
            )
        taken: list[int] = []
        for i, item in enumerate(value):
            side = _side(item, sides, match, f"{where}[{i}]")
            if side in taken:
                raise InvalidDealError(
                    f"{where}[{i}]",
                    N_("{value} is listed twice"),
                    code="deal.category_listed_twice",
                    value=describe(item),
                )
            taken.append(side)
        if len(taken) < 2:
            raise InvalidDealError(
                where,
                N_("a tie needs two sides or more ({count} given): name a side alone as a string"),
                code="deal.category_tie_needs_two",
                count=len(taken),
            )
        return tuple(sorted(taken))
    if isinstance(value, str):
        return (_side(value, sides, match, where),)
    raise InvalidDealError(
        where,
        N_("expected a side's name, a list of the sides that tied, or null, found {value}"),
        code="deal.category_expected_taker",
        value=describe(value),
    )


def _run(
    data: Mapping[str, Any], key: str, sides: Sequence[str], match: Match, where: str
) -> tuple[int, int] | None:
    """The side holding the ace, two and three of coins and its run (``{"Anna": 4}``)."""
    place = join_place(where, key)
    runs = expect_object(
        or_empty(data.get(key), {}),
        place,
        N_("the side holding the ace, two and three of coins, with its run of coins from the ace"),
    )
    if len(runs) > 1:
        raise InvalidDealError(
            place,
            N_("only one side can hold the ace, two and three of coins ({count} given)"),
            code="deal.category_run_one_side",
            count=len(runs),
        )
    for owner, length in runs.items():
        side = _side(owner, sides, match, join_place(place, str(owner)))
        run = whole_number(
            length,
            join_place(place, str(owner)),
            N_("the run of coins from the ace"),
            RUN_MIN,
            RUN_MAX,
        )
        return side, run
    return None


def parse_category_deal(
    data: Mapping[str, Any], match: Match, where: str = "", new: bool = True
) -> Deal:
    """Read a deal of the category form for a match; ``new``: a deal being recorded (its run
    is required when the match plays napola), not one read back from a match file or the
    store (recorded perhaps while napola was off)."""
    variant = variants.get(match.variant)
    check_keys(data, variant.category_deal_keys, where, N_("a deal of the category form"))
    sides = match.sides
    place = join_place(where, "categories")
    what = N_("who took each category")
    raw = expect_object(data["categories"], place, what)
    keys = variant.category_form
    unknown = N_("not a category of the category form (expected {names})")
    check_keys(raw, keys, place, what, unknown, "deal.category_unknown", InvalidDealError)
    took: dict[str, tuple[int, ...]] = {}
    for key in keys:
        if key not in raw:
            raise InvalidDealError(
                join_place(place, key),
                N_(
                    "missing (every category must be given: the side that took it, a list of "
                    "the sides that tied, or null for nobody)"
                ),
                code="deal.category_missing",
            )
        took[key] = _takers(raw[key], key, sides, match, join_place(place, key))
    run: tuple[int, int] | None = None
    run_key = variant.category_run
    run_given = bool(run_key) and data.get(run_key) is not None
    if run_key:
        if new and not run_given and run_key == "napola" and match.settings.napola != "off":
            raise InvalidDealError(
                join_place(where, "napola"),
                N_(
                    "missing (the match plays napola: give the side holding the ace, two and "
                    'three of coins with its run, as {"Anna": 4}, or {} for nobody)'
                ),
                code="deal.category_napola_missing",
            )
        run = _run(data, run_key, sides, match, where)
    grande: int | None = None
    if "grande" in variant.category_facts and data.get("grande") is not None:
        grande = _side(data["grande"], sides, match, join_place(where, "grande"))
    if run is not None:
        has_grande = "grande" in variant.category_facts
        _check_run(run, run_key, took, grande, has_grande, sides, where)
    sweeps = _sweeps(data, sides, where, 21 if variant.low_table_sweep else 20)
    last = parse_owner(data, "last_capture", sides, where)
    facts = parse_facts(data, sides, variant, where)
    categories = Categories(
        took.get("cards", ()),
        took.get("coins", ()),
        took.get("settebello", ()),
        took.get("primiera", ()),
        run,
        run_given or not run_key,
        grande,
    )
    deal = Deal(sides, (), sweeps, last, categories=categories, **facts)
    hands = _hands(match) if "declarations" in facts else ()
    try:
        deal.check(variant, hands, players=len(match.players))
    except InputError as error:
        raise error.within(where) from None
    return deal


def _hands(match: Match) -> tuple[int, ...]:
    each = VariantDef.hands_received(len(match.players))
    if not match.settings.partnerships:
        return (each,) * len(match.players)
    return tuple(each * len(team) for team in match.team_members())


def _check_run(
    run: tuple[int, int],
    key: str,
    took: Mapping[str, tuple[int, ...]],
    grande: int | None,
    has_grande: bool,
    sides: Sequence[str],
    where: str,
) -> None:
    """A run of 7 holds the settebello; a run of 10 is all ten coins (and Cirulla's grande)."""
    side, length = run
    place = join_place(join_place(where, key), sides[side])
    if length >= 7 and took.get("settebello") != (side,):
        raise InvalidDealError(
            place,
            N_(
                "a run of {length} from the ace holds the 7 of coins, but the settebello went "
                "to {other}"
            ),
            code="deal.category_run_settebello",
            length=length,
            other=", ".join(sides[i] for i in took.get("settebello", ())),
        )
    if length == RUN_MAX and took.get("coins") != (side,):
        raise InvalidDealError(
            place,
            N_("a run of 10 is all ten coins, so the coins went to {side} alone"),
            code="deal.category_run_all_coins",
            side=sides[side],
        )
    if length == RUN_MAX and has_grande and grande != side:
        raise InvalidDealError(
            place,
            N_("a run of 10 is all ten coins, so the grande went to {side}"),
            code="deal.category_run_grande",
            side=sides[side],
        )


def _sweeps(
    data: Mapping[str, Any], sides: Sequence[str], where: str, most: int
) -> tuple[int, ...]:
    place = join_place(where, "sweeps")
    raw = expect_object(or_empty(data.get("sweeps"), {}), place, N_("the sweeps by side"))
    for key in raw:
        if key not in sides:
            raise _not_a_side(join_place(place, str(key)), key, sides)
    return tuple(
        whole_number(raw[s], join_place(place, s), N_("a number of sweeps"), 0, most)
        if raw.get(s) is not None
        else 0
        for s in sides
    )


def categories_to_json(deal: Deal, variant: str | None = None) -> dict[str, Any]:
    """A deal of the category form as docs/formats.md writes it: ``categories`` (a side, the
    list of the sides that tied, or ``null``), the run and grande where recorded, then the
    sweeps, the last capture and the variant's facts."""
    won = deal.categories
    assert won is not None
    definition = variants.get(variant or variants.DEFAULT)
    owners = deal.owners
    categories: dict[str, Any] = {}
    for key in CATEGORY_KEYS:
        taken = won.took(key)
        categories[key] = (
            None
            if not taken
            else owners[taken[0]]
            if len(taken) == 1
            else [owners[i] for i in taken]
        )
    data: dict[str, Any] = {"categories": categories}
    run_key = definition.category_run
    if run_key and won.run_given:
        data[run_key] = {} if won.run is None else {owners[won.run[0]]: won.run[1]}
    if "grande" in definition.category_facts:
        data["grande"] = None if won.grande is None else owners[won.grande]
    data["sweeps"] = dict(zip(owners, deal.sweeps, strict=True))
    data["last_capture"] = deal.last_capture
    data.update(facts_to_json(deal, definition if variant is not None else None))
    return data


def to_categories(deal: Deal, match: Match) -> Deal:
    """A deal's facts as who took each point (the tally or card form → the category form), for
    the match's sides (partners' piles pooled first) and the way its primiera is counted.
    Scored under any setting of the same partnerships and primiera mode, it scores as the
    facts did. A deal already of the category form is returned as it is."""
    if deal.categories is not None:
        return deal
    side = match.side_deal(deal)
    keys = pack_sides(side)
    sevens = match.settings.primiera_mode == "sevens"

    def at_top(bit: int) -> tuple[int, ...]:
        return tuple(i for i, key in enumerate(keys) if key & bit)

    runs = [(i, key >> KEY_RUN_SHIFT & 0xF) for i, key in enumerate(keys)]
    run = next(((i, r) for i, r in runs if r >= RUN_MIN), None)
    grande = next((i for i, key in enumerate(keys) if key & KEY_GRANDE), None)
    categories = Categories(
        at_top(KEY_CARDS_TOP),
        at_top(KEY_COINS_TOP),
        at_top(KEY_SETTEBELLO),
        at_top(KEY_SEVENS_TOP if sevens else KEY_PRIMIERA_TOP),
        run,
        True,
        grande,
    )
    return Deal(
        side.owners,
        (),
        side.sweeps,
        side.last_capture,
        declarations=side.declarations,
        ace_sweeps=side.ace_sweeps,
        last_play_cleared=side.last_play_cleared,
        categories=categories,
    )


def from_categories_refused() -> InvalidDealError:
    """The error for editing a category deal as piles (who took a point does not say which
    cards were taken)."""
    return InvalidDealError(
        "categories",
        N_(
            "a deal recorded as who took each point cannot be edited as piles or cards: it "
            "does not say which cards each side took"
        ),
        code="deal.categories_not_piles",
    )


__all__ = [
    "categories_to_json",
    "from_categories_refused",
    "is_category_deal",
    "parse_category_deal",
    "to_categories",
]
