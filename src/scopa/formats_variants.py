"""The facts a variant adds to a deal, in and out of JSON (docs/formats.md "Variants").

``declarations`` (Cirulla), ``ace_sweeps`` (Scopa d'Assi) and ``last_play_cleared`` (Scopone)
are read for the match's variant only; elsewhere they are unknown keys of a deal. A Scopa deal
is read and written exactly as before the variants.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scopa.deal import DECLARATIONS, Deal
from scopa.errors import InputError, InvalidDealError, Phrase, describe, join_place, one_of
from scopa.i18n import N_
from scopa.reading import expect_list, expect_object, or_empty, whole_number
from scopa.variants import VariantDef, all_variants


def fact_variants() -> dict[str, str]:
    """Each deal fact and the variant that records it (the first, if several do)."""
    found: dict[str, str] = {}
    for variant in all_variants():
        for fact in variant.deal_facts:
            found.setdefault(fact, variant.name)
    return found


def _a(name: str) -> str:
    return f"an {name}" if name[:1] in "aeiou" else f"a {name}"


def check_deal_keys(deal: Mapping[str, Any], variant: VariantDef, where: str) -> None:
    """Refuse a key that a deal of this variant does not have, saying whose fact it is."""
    allowed = variant.deal_keys
    for key in deal:
        if key in allowed:
            continue
        place = join_place(where, str(key) or '""')
        owner = fact_variants().get(str(key))
        if owner is not None:
            raise InvalidDealError(
                place,
                N_("a fact of {owner} deals, not of {name} ({value} deal has {names})"),
                code="deal.fact_deals_not",
                owner=owner,
                name=variant.name,
                value=_a(variant.name),
                names=", ".join(allowed),
            )
        raise InputError(
            place,
            N_("unknown key in a deal (expected {names})"),
            code="format.unknown_key_deal",
            names=", ".join(allowed),
        )


def by_owner(
    deal: Mapping[str, Any], key: str, owners: Sequence[str], where: str, what: str
) -> Mapping[str, Any]:
    """The deal's ``key``, an object by owner (``what``: how the reader calls it): absent or
    null is empty; an owner without a pile in the deal is refused, saying where."""
    place = join_place(where, key)
    data = expect_object(or_empty(deal.get(key), {}), place, what)
    for owner in data:
        if owner not in owners:
            raise InvalidDealError(
                join_place(place, str(owner)),
                N_("{value} has no pile in this deal"),
                code="deal.no_pile_deal",
                value=describe(owner),
            )
    return data


def parse_declarations(
    deal: Mapping[str, Any], owners: Sequence[str], where: str
) -> tuple[tuple[str, ...], ...]:
    """Per owner (aligned with ``owners``), the declarations of its hands."""
    data = by_owner(deal, "declarations", owners, where, N_("the declarations by owner"))
    place = join_place(where, "declarations")
    result = []
    for owner in owners:
        raw = or_empty(data.get(owner), [])
        owner_place = join_place(place, owner)
        items = expect_list(
            raw, owner_place, Phrase(N_("the declarations of {owner}'s hands"), owner=owner)
        )
        declared = []
        for i, item in enumerate(items):
            kind = item.strip().lower() if isinstance(item, str) else None
            if kind not in DECLARATIONS:
                raise one_of(
                    f"{owner_place}[{i}]",
                    item,
                    DECLARATIONS,
                    code="deal.not_declaration",
                    error=InvalidDealError,
                )
            declared.append(kind)
        result.append(tuple(declared))
    return tuple(result)


def parse_ace_sweeps(deal: Mapping[str, Any], owners: Sequence[str], where: str) -> tuple[int, ...]:
    """Per owner, how many times a played ace took the whole table."""
    data = by_owner(deal, "ace_sweeps", owners, where, N_("the ace sweeps by owner"))
    place = join_place(where, "ace_sweeps")
    return tuple(
        whole_number(data[o], join_place(place, o), N_("a number of ace sweeps"))
        if data.get(o) is not None
        else 0
        for o in owners
    )


def parse_owner(deal: Mapping[str, Any], key: str, owners: Sequence[str], where: str) -> str | None:
    """The owner named at ``key`` of a deal (``last_capture``, ``last_play_cleared``), or
    ``None``."""
    value = deal.get(key)
    if value is not None and (not isinstance(value, str) or value not in owners):
        raise InvalidDealError(
            join_place(where, key),
            N_("{value} is not an owner of this deal (expected null or one of {names})"),
            code="deal.not_owner_deal",
            value=describe(value),
            names=", ".join(owners),
        )
    return value


def parse_facts(
    deal: Mapping[str, Any], owners: Sequence[str], variant: VariantDef, where: str
) -> dict[str, Any]:
    """The variant's facts of a deal, as keyword arguments of :class:`~scopa.deal.Deal`."""
    facts: dict[str, Any] = {}
    if "declarations" in variant.deal_facts:
        facts["declarations"] = parse_declarations(deal, owners, where)
    if "ace_sweeps" in variant.deal_facts:
        facts["ace_sweeps"] = parse_ace_sweeps(deal, owners, where)
    if "last_play_cleared" in variant.deal_facts:
        facts["last_play_cleared"] = parse_owner(deal, "last_play_cleared", owners, where)
    return facts


def facts_to_json(deal: Deal, variant: VariantDef | None = None) -> dict[str, Any]:
    """The deal's variant facts as docs/formats.md writes them: the variant's keys (all of them
    when the variant is given; without it, those the deal holds). Nothing for Scopa."""
    facts = variant.deal_facts if variant is not None else ()
    data: dict[str, Any] = {}
    if "declarations" in facts or deal.declarations:
        data["declarations"] = {
            owner: list(deal.declared(i)) for i, owner in enumerate(deal.owners) if deal.declared(i)
        }
    if "ace_sweeps" in facts or deal.ace_sweeps:
        data["ace_sweeps"] = {o: deal.ace_sweeps_of(i) for i, o in enumerate(deal.owners)}
    if "last_play_cleared" in facts or deal.last_play_cleared is not None:
        data["last_play_cleared"] = deal.last_play_cleared
    return data
