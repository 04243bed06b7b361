"""JSON in and out (docs/formats.md): matches, deals and the score sheet.

Readers take parsed JSON (dicts, lists, strings, numbers) and either return core records or
raise an :class:`~scopa.errors.InputError` naming the place, e.g.
``deals[3].piles.Bruno.coins[2]: 'X' is not a rank (...)``.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping, Sequence
from typing import Any

from scopa import variants
from scopa.cards import RANK_SYMBOLS, CardSet, Rank
from scopa.categories import categories_to_json, is_category_deal, parse_category_deal
from scopa.deal import Deal, Pile
from scopa.errors import (
    InputError,
    InvalidDealError,
    InvalidMatchError,
    Phrase,
    describe,
    join_place,
    too_long,
)
from scopa.formats_variants import (
    by_owner,
    check_deal_keys,
    facts_to_json,
    parse_facts,
    parse_owner,
)
from scopa.i18n import N_
from scopa.made_names import MadeName, Seat
from scopa.match import Match, team_name
from scopa.names import MAX_NAME, clean_name
from scopa.reading import (
    check_keys,
    expect_list,
    expect_object,
    expect_string,
    or_empty,
    required,
    whole_number,
)
from scopa.rules import Settings
from scopa.sheet import Sheet
from scopa.teams import MAX_PLAYERS, MIN_PLAYERS, check_count
from scopa.variants import variant_name

MAX_MATCH_NAME = 100
"""The most characters a match's name has."""
MAX_DEALS = 500
MATCH_KEYS = (
    "players",
    "teams",
    "rules",
    "deals",
    "name",
    "generated_name",
    "first_dealer",
    "seat_kinds",
)
TALLY_KEYS = ("count", "coins", "best")
BEST_SUITS = ("c", "s", "b")
_BEST_ALIASES = {"c": 0, "s": 1, "b": 2, "♥": 0, "♠": 1, "♣": 2}


def match_name(value: object, where: str = "name") -> str | None:
    """A match's name: text of at most :data:`MAX_MATCH_NAME` characters, read by
    :func:`scopa.names.clean_name` (``None``: no name)."""
    if value is None:
        return None
    wrong = N_("expected a match's name (a text), found {value}")
    text = expect_string(value, where, wrong, "match.expected_match_name", InvalidMatchError)
    if len(text) > MAX_MATCH_NAME:
        raise too_long(where, text, MAX_MATCH_NAME)
    return clean_name(text, where, N_("a match's name"))


def player_name(value: object, where: str) -> str:
    """A player's name: at most 40 characters, not blank, read by :func:`scopa.names.clean_name`."""
    wrong = N_("expected a player's name, found {value}")
    text = expect_string(value, where, wrong, "match.expected_player_name_found", InvalidMatchError)
    name = clean_name(text, where, N_("a player's name"))
    if not name:
        raise InvalidMatchError(
            where, N_("a player's name cannot be empty"), code="match.player_name_cannot_empty"
        )
    if len(name) > MAX_NAME:
        raise too_long(where, name, MAX_NAME)
    if " & " in name:
        raise InvalidMatchError(
            where,
            N_("{value}: ' & ' is kept for team names"),
            code="match.kept_team_names",
            value=describe(name),
        )
    if any(ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0 for ch in name):
        raise InvalidMatchError(
            where,
            N_("{value} holds a control character"),
            code="match.holds_control_character",
            value=describe(name),
        )
    return name


def parse_pile(data: object, where: str) -> Pile:
    """One owner's pile, full (``cards``) or tally (``count``, ``coins``, ``best``)."""
    pile = expect_object(data, where, N_('a pile: {"cards": [...]} or {"count": ..., ...}'))
    if "cards" in pile:
        check_keys(pile, ("cards",), where, N_("a full pile (cards alone)"))
        cards = expect_list(pile["cards"], join_place(where, "cards"), N_("the captured cards"))
        return Pile.of_cards(CardSet.parse(cards, join_place(where, "cards")))
    if "count" not in pile:
        raise InputError(
            where,
            N_("a pile needs either 'cards' (full) or 'count' (tally)"),
            code="format.pile_needs_either_cards",
        )
    check_keys(pile, TALLY_KEYS, where, N_("a tally pile"))
    count = whole_number(
        pile["count"], join_place(where, "count"), N_("the number of cards captured")
    )
    coins_place = join_place(where, "coins")
    coins: list[Rank] = []
    for i, item in enumerate(
        expect_list(pile.get("coins", []), coins_place, N_("the coins' ranks"))
    ):
        rank = Rank.parse(item, f"{coins_place}[{i}]")
        if rank in coins:
            raise InputError(
                f"{coins_place}[{i}]",
                N_("the {symbol} of coins is listed twice"),
                code="format.coins_listed_twice",
                symbol=rank.symbol,
            )
        coins.append(rank)
    best: list[Rank | None] = [None, None, None]
    best_place = join_place(where, "best")
    raw_best = pile.get("best")
    seen: set[int] = set()
    if raw_best is not None:
        for key, value in expect_object(raw_best, best_place, N_("the best card per suit")).items():
            place = join_place(best_place, str(key))
            slot = _BEST_ALIASES.get(str(key).lower())
            if slot is None:
                hint = " (the coins' best card comes from 'coins')" if key in ("d", "♦") else ""
                raise InputError(
                    place,
                    N_("unknown suit (expected c, s or b){hint}"),
                    code="format.unknown_suit",
                    hint=hint,
                )
            if slot in seen:
                raise InputError(
                    place,
                    N_("the best card of {best_suits} is given twice"),
                    code="format.best_card_given_twice",
                    best_suits=BEST_SUITS[slot],
                )
            seen.add(slot)
            if value is not None:
                best[slot] = Rank.parse(value, place)
    return Pile.tally(count, coins, best)


def parse_deal(data: object, match: Match, where: str = "", new: bool = True) -> Deal:
    """Read a deal's facts for a match (and its variant) and check that they add up, in the
    pile form or the category form; ``new``: a deal being recorded, not one read back from
    a match file (see :func:`scopa.categories.parse_category_deal`)."""
    deal = expect_object(data, where, N_("a deal"))
    if is_category_deal(deal):
        if "piles" in deal:
            raise InvalidDealError(
                join_place(where, "piles"),
                N_("a deal has either piles or categories, not both"),
                code="deal.piles_and_categories",
            )
        return parse_category_deal(deal, match, where, new)
    variant = variants.get(match.variant)
    check_deal_keys(deal, variant, where)
    piles_place = join_place(where, "piles")
    missing = N_("missing (a deal needs each owner's captured pile)")
    raw = required(deal, "piles", piles_place, missing, "deal.missing", InvalidDealError)
    raw_piles = expect_object(raw, piles_place, N_("the piles by owner"))
    owners = owners_of(raw_piles, match, piles_place)
    piles = tuple(parse_pile(raw_piles[o], join_place(piles_place, o)) for o in owners)
    sweeps_place = join_place(where, "sweeps")
    raw_sweeps = by_owner(deal, "sweeps", owners, where, N_("the sweeps by owner"))
    sweeps = tuple(
        whole_number(raw_sweeps.get(o, 0), join_place(sweeps_place, o), N_("a number of sweeps"))
        if raw_sweeps.get(o) is not None
        else 0
        for o in owners
    )
    last = parse_owner(deal, "last_capture", owners, where)
    facts = parse_facts(deal, owners, variant, where)
    result = Deal(owners, piles, sweeps, last, **facts)
    hands = hands_received(match, owners) if "declarations" in facts else ()
    try:
        result.check(variant if variant.name != "scopa" else None, hands)
    except InputError as error:
        raise error.within(where) from None
    if last is not None and result.pile(last).count == 0:
        raise InvalidDealError(
            join_place(where, "last_capture"),
            N_("{last!r} took the last cards but has no cards"),
            code="deal.took_last_cards_but",
            last=last,
        )
    return result


_STORED_PILES: dict[Any, Pile] = {}
_STORED_PILES_MAX = 65536


def stored_deal(data: Mapping[str, Any], match: Match) -> Deal:
    """A deal as :func:`deal_to_json` wrote it into the store, which checked it before it
    was stored: read without checking again (the 40 cards, the sweeps' limits), so that a
    cold read of a long match costs what reading its rows costs. Each distinct pile is read
    once per process (piles are immutable and shared). Anything else than what the store
    writes (another key order, an owner that no longer fits the match): :func:`parse_deal`.
    """
    raw = data.get("piles")
    if not isinstance(raw, dict) or tuple(raw) not in match.owners_allowed():
        return parse_deal(data, match, new=False)
    owners = tuple(raw)
    piles = tuple(_stored_pile(raw[owner]) for owner in owners)
    raw_sweeps = data.get("sweeps") or {}
    sweeps = tuple(raw_sweeps.get(owner) or 0 for owner in owners)
    if not all(type(n) is int for n in sweeps):
        return parse_deal(data, match)
    last = data.get("last_capture")
    variant = variants.get(match.variant)
    facts = parse_facts(data, owners, variant, "") if variant.deal_facts else {}
    return Deal(owners, piles, sweeps, last, **facts)


def _stored_pile(pile: Mapping[str, Any]) -> Pile:
    cards = pile.get("cards")
    if cards is not None:
        key: Any = tuple(cards)
    else:
        best = pile.get("best") or {}
        key = (pile.get("count"), tuple(pile.get("coins") or ()), tuple(best.items()))
    found = _STORED_PILES.get(key)
    if found is None:
        found = parse_pile(pile, "pile")
        if len(_STORED_PILES) >= _STORED_PILES_MAX:
            _STORED_PILES.clear()
        _STORED_PILES[key] = found
    return found


def hands_received(match: Match, owners: Sequence[str]) -> tuple[int, ...]:
    """Per owner, the hands it received in a deal: a player's share, a team's players' sum.

    >>> m = Match(("A", "B", "C", "D"), Settings.of("cirulla", partnerships=True))
    >>> hands_received(m, ("A", "B", "C", "D")), hands_received(m, m.team_names())
    ((3, 3, 3, 3), (6, 6))
    """
    each = variants.VariantDef.hands_received(len(match.players))
    sizes = dict(zip(match.team_names(), map(len, match.team_members()), strict=True))
    return tuple(each * sizes.get(owner, 1) for owner in owners)


def owners_of(piles: Mapping[str, Any], match: Match, where: str) -> tuple[str, ...]:
    """Which owners a deal's piles were recorded with (players, or teams), in canonical
    order; an error naming the place when they do not belong to this match."""
    keys = list(piles)
    teams = match.team_names()
    for candidates in match.owners_allowed():
        if all(k in candidates for k in keys):
            missing = [c for c in candidates if c not in piles]
            if missing:
                per_player = N_(
                    "no pile for {names} (every player needs a pile, even an empty one)"
                )
                per_team = N_("no pile for {names} (every team needs a pile, even an empty one)")
                raise InvalidDealError(
                    where,
                    per_player if candidates == match.players else per_team,
                    code="deal.no_pile",
                    names=", ".join(map(repr, missing)),
                )
            return candidates
    for key in keys:
        place = join_place(where, str(key))
        if key in match.players:
            continue
        if key in teams and not match.settings.partnerships:
            raise InvalidDealError(
                place,
                N_("{key!r} is a team, but partnerships are off"),
                code="deal.team_but_partnerships_off",
                key=key,
            )
        if key not in match.players and key not in teams:
            allowed = match.players + (teams if match.settings.partnerships else ())
            raise InvalidDealError(
                place,
                N_("{value} is not a player of this match ({names})"),
                code="deal.not_player_match",
                value=describe(key),
                names=", ".join(allowed),
            )
    raise InvalidDealError(
        where,
        N_("piles must be recorded all per player or all per team"),
        code="deal.piles_must_recorded_all",
    )


def parse_match(data: object, where: str = "") -> Match:
    """Read a match file (docs/formats.md): players, optional teams and rules, deals."""
    obj = expect_object(data, where, N_("a match"))
    variant = variants.DEFAULT
    if obj.get("variant") is not None:
        variant = variant_name(obj["variant"], join_place(where, "variant"))
    listed = MATCH_KEYS if variant == variants.DEFAULT else ("variant", *MATCH_KEYS)
    check_keys({k: v for k, v in obj.items() if k != "variant"}, listed, where, N_("a match"))
    players_place = join_place(where, "players")
    missing = N_("missing (a match needs the names of its {low} to {high} players)")
    raw = required(
        obj,
        "players",
        players_place,
        missing,
        "match.missing",
        InvalidMatchError,
        low=MIN_PLAYERS,
        high=MAX_PLAYERS,
    )
    raw_players = expect_list(raw, players_place, N_("the players' names"))
    check_count(len(raw_players), players_place)  # before a long list's names are read
    players = tuple(player_name(p, f"{players_place}[{i}]") for i, p in enumerate(raw_players))
    variants.get(variant).check_players(len(players), players_place)
    teams: tuple[tuple[str, ...], ...] | None = None
    if obj.get("teams") is not None:
        teams_place = join_place(where, "teams")
        raw_teams = expect_list(obj["teams"], teams_place, N_("two teams"))
        teams = tuple(
            tuple(
                player_name(name, f"{teams_place}[{t}][{i}]")
                for i, name in enumerate(
                    expect_list(team, f"{teams_place}[{t}]", N_("a team's players"))
                )
            )
            for t, team in enumerate(raw_teams)
        )
    settings = Settings.parse(obj.get("rules"), join_place(where, "rules"), variant=variant)
    name = match_name(obj.get("name"), join_place(where, "name"))
    first_dealer = 0
    if obj.get("first_dealer") is not None:
        dealer_place = join_place(where, "first_dealer")
        dealer = obj["first_dealer"]
        if not isinstance(dealer, str) or dealer not in players:
            raise InvalidMatchError(
                dealer_place,
                N_("expected one of the players' names ({names}), found {value}"),
                code="match.first_dealer_not_player",
                names=", ".join(players),
                value=describe(dealer),
            )
        first_dealer = players.index(dealer)
    made = None
    if obj.get("generated_name") is not None:
        made = MadeName.from_json(obj["generated_name"], join_place(where, "generated_name"))
        name = made.english()[:MAX_MATCH_NAME]
    seats: tuple[Seat, ...] = ()
    if obj.get("seat_kinds") is not None:
        seats_place = join_place(where, "seat_kinds")
        raw_seats = expect_list(obj["seat_kinds"], seats_place, N_("who sits in each seat"))
        seats = tuple(Seat.from_json(s, f"{seats_place}[{i}]") for i, s in enumerate(raw_seats))
    try:
        match = Match(players, settings, (), teams, name or None, first_dealer, made, seats)
    except InputError as error:
        raise error.within(where) from None
    deals_place = join_place(where, "deals")
    raw_deals = expect_list(or_empty(obj.get("deals"), []), deals_place, N_("the deals"))
    if len(raw_deals) > MAX_DEALS:
        raise InvalidMatchError(
            deals_place,
            N_("{count} deals; at most {max_deals}"),
            code="match.deals_most",
            count=len(raw_deals),
            max_deals=MAX_DEALS,
        )
    deals = tuple(
        parse_deal(d, match, f"{deals_place}[{i}]", new=False) for i, d in enumerate(raw_deals)
    )
    return match.with_deals(deals)


def pile_to_json(pile: Pile) -> dict[str, Any]:
    if pile.cards is not None:
        return {"cards": pile.cards.to_list()}
    return {
        "count": pile.count,
        "coins": [RANK_SYMBOLS[r] for r in range(10) if pile.coins >> r & 1],
        "best": {
            s: (RANK_SYMBOLS[r] if r >= 0 else None)
            for s, r in zip(BEST_SUITS, pile.best, strict=True)
        },
    }


def deal_to_json(deal: Deal, variant: str | None = None) -> dict[str, Any]:
    """A deal as docs/formats.md writes it; with its match's ``variant``, all that variant's facts
    (without, the facts the deal holds). A Scopa deal has no new key."""
    if deal.categories is not None:
        return categories_to_json(deal, variant)
    data = {
        "piles": {o: pile_to_json(p) for o, p in zip(deal.owners, deal.piles, strict=True)},
        "sweeps": dict(zip(deal.owners, deal.sweeps, strict=True)),
        "last_capture": deal.last_capture,
    }
    data.update(facts_to_json(deal, None if variant is None else variants.get(variant)))
    return data


def match_to_json(match: Match) -> dict[str, Any]:
    """A match file: ``variant`` first for any variant but Scopa (which has no such key)."""
    data: dict[str, Any] = {"players": list(match.players)}
    if match.first_dealer:
        data["first_dealer"] = match.players[match.first_dealer]
    if match.made is not None:
        data = {"generated_name": match.made.to_json(), **data}
    if match.name:
        data = {"name": match.name, **data}
    if match.variant != variants.DEFAULT:
        data = {"variant": match.variant, **data}
    if match.teams is not None:
        data["teams"] = [list(team) for team in match.teams]
    if any(seat.english() is not None for seat in match.seat_kinds):
        data["seat_kinds"] = [seat.to_json() for seat in match.seat_kinds]
    data["rules"] = match.settings.to_dict()
    data["deals"] = [deal_to_json(d, match.variant) for d in match.deals]
    return data


def sheet_to_json(sheet: Sheet) -> dict[str, Any]:
    """The score sheet (docs/formats.md): ``variant`` first and the variant's points keys for any
    variant but Scopa, whose sheet is as it always was; Cirulla rows add ``cappotto``."""
    sides = sheet.sides
    rows = sheet_rows_to_json(sheet)
    data: dict[str, Any] = {} if sheet.variant == variants.DEFAULT else {"variant": sheet.variant}
    data.update(
        {
            "sides": list(sides),
            "deals": rows,
            "totals": dict(zip(sides, sheet.totals, strict=True)),
            "status": sheet.status,
            "winner": sheet.winner,
            "decided_at": sheet.decided_at,
        }
    )
    return data


def sheet_rows_to_json(sheet: Sheet, first: int = 1) -> list[dict[str, Any]]:
    """The sheet's rows from deal ``first`` (1-based) on, as :func:`sheet_to_json` writes them."""
    sides = sheet.sides
    definition = variants.get(sheet.variant)
    keys = definition.points_keys
    rows = []
    for row in sheet.rows(max(first, 1) - 1):
        item: dict[str, Any] = {
            "number": row.number,
            "points": {s: p.to_dict(keys) for s, p in zip(sides, row.points, strict=True)},
            "totals": dict(zip(sides, row.totals, strict=True)),
            "after_end": row.after_end,
        }
        if definition.cappotto:
            item["cappotto"] = row.cappotto
        rows.append(item)
    return rows


def sheet_to_csv(sheet: Sheet) -> str:
    """The sheet as CSV: a row per deal; per side the deal's points and the running total.

    >>> from scopa.match import Match, score_match
    >>> print(sheet_to_csv(score_match(Match(("Anna", "Bruno")))).strip())
    deal,Anna points,Anna total,Bruno points,Bruno total,after_end
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    header = ["deal"]
    for side in sheet.sides:
        header += [csv_text(f"{side} points"), csv_text(f"{side} total")]
    writer.writerow([*header, "after_end"])
    for row in sheet.deals:
        cells: list[object] = [row.number]
        for points, total in zip(row.points, row.totals, strict=True):
            cells += [points.total, total]
        writer.writerow([*cells, "yes" if row.after_end else "no"])
    return out.getvalue()


def csv_text(text: str) -> str:
    """Text that a spreadsheet will not run as a formula (a name like ``=1+1``).

    >>> csv_text("=1+1 points"), csv_text("Anna points")
    ("'=1+1 points", 'Anna points')
    """
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


class _DuplicateKey(Exception):
    def __init__(self, key: str) -> None:
        self.key = key


def _one_of_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise _DuplicateKey(key)
        found[key] = value
    return found


JSON_MESSAGES = (
    ("Expecting value", N_("a value is missing")),
    ("Expecting ',' delimiter", N_("a comma is missing")),
    ("Expecting ':' delimiter", N_("a colon is missing")),
    ("Expecting property name enclosed in double quotes", N_("a key in double quotes is missing")),
    ("Unterminated string starting", N_("a string that is never closed starts")),
    ("Invalid control character", N_("a control character inside a string")),
    ("Invalid \\uXXXX escape", N_("a \\u escape without four hex digits")),
    ("Invalid \\escape", N_("an unknown backslash escape")),
    ("Extra data", N_("more text after the end")),
    ("Illegal trailing comma", N_("a comma before the closing bracket")),
)
"""The messages of Python's JSON reader (their beginning: some add the character) and how
people are told them; one not listed is shown as Python says it."""


def json_problem(message: str) -> str:
    """What Python's JSON reader found, in words for the catalog (a :class:`Phrase`, said in
    the reader's language), or its own message if unknown.

    >>> json_problem("Unterminated string starting at"), json_problem("Something new")
    ('a string that is never closed starts', 'Something new')
    """
    for english, said in JSON_MESSAGES:
        if message.startswith(english):
            return Phrase(said)
    return message


def load_json(text: str | bytes, where: str = "") -> Any:
    """Parse JSON text; a syntax error names the line and column, and a key given twice in
    one object is refused (JSON readers differ on which of the two they keep).

    >>> load_json('{"players": ["Anna", "Bruno"], "players": ["Carla"]}', "file")
    Traceback (most recent call last):
    ...
    scopa.errors.InputError: file: the key 'players' is given twice in one object
    """
    try:
        return json.loads(text, object_pairs_hook=_one_of_each)
    except _DuplicateKey as duplicate:
        raise InputError(
            where or "input",
            N_("the key {key!r} is given twice in one object"),
            code="format.key_given_twice",
            key=duplicate.key,
        ) from None
    except json.JSONDecodeError as error:
        raise InputError(
            where or "input",
            N_("not valid JSON: {msg} at line {lineno} column {colno}"),
            code="format.not_valid_json_line",
            msg=json_problem(error.msg),
            lineno=error.lineno,
            colno=error.colno,
        ) from None
    except UnicodeDecodeError:
        raise InputError(
            where or "input",
            N_("not valid JSON: not UTF-8 text"),
            code="format.not_valid_json_text",
        ) from None
    except RecursionError:
        raise InputError(
            where or "input",
            N_("not valid JSON: nested too deeply"),
            code="format.not_valid_json_text",
        ) from None
    except ValueError:  # an integer literal over Python's 4,300-digit limit
        raise InputError(
            where or "input",
            N_("a number with over 4,300 digits"),
            code="format.number_over_digits",
        ) from None


def dump_json(data: Any) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False)


__all__ = [
    "deal_to_json",
    "describe",
    "dump_json",
    "load_json",
    "match_to_json",
    "owners_of",
    "parse_deal",
    "parse_match",
    "parse_pile",
    "player_name",
    "sheet_to_csv",
    "sheet_to_json",
    "team_name",
]
