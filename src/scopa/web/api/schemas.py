"""The API's shapes (docs/formats.md, "HTTP API") as typed models, so ``/api/openapi.json``
describes every body, and the answers themselves, built from the core's JSON writers.

The models document; they do not read. A request body is read as JSON and validated by the
core (:mod:`scopa.formats`, :class:`~scopa.rules.Settings`), whose messages name the place
(``deals[3].piles.Bruno.coins[2]: ...``). Answers are written by the core's writers and sent
as they are; the test suite checks that each one matches its model, key for key.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from scopa import variants
from scopa.application import MatchSummary, ScoredMatch
from scopa.formats import (
    MAX_MATCH_NAME,
    deal_to_json,
    match_to_json,
    sheet_rows_to_json,
    sheet_to_json,
)
from scopa.made_names import MAX_SEAT_NUMBER, SEAT_KINDS
from scopa.names import MAX_NAME
from scopa.store import LogEntry, RemovedDeal

Card = Annotated[
    str,
    Field(
        pattern=r"^(10|[1-9AaJjFfHhQqCcKkRr])[dcsbDCSB♦♥♠♣]$",
        description="Rank then suit: `7d` (the settebello), `Ad`, `Hc`, `Kb`.",
        examples=["7d"],
    ),
]
Rank = Annotated[
    str,
    Field(
        pattern=r"^(10|[1-9AaJjFfHhQqCcKkRr])$",
        description="A rank alone: `A 2 3 4 5 6 7 J H K`.",
        examples=["7"],
    ),
]
Player = Annotated[str, Field(min_length=1, max_length=MAX_NAME, description="A player's name.")]
Owner = Annotated[str, Field(min_length=1, description="A player, or a team (`Anna & Carla`).")]
Whole = Annotated[int, Field(ge=0)]
Switch = bool | Literal["on", "off"]
VersionField = Annotated[
    int | None,
    Field(ge=1, description="The match's version the change is based on (or `If-Match`)."),
]


class Shape(BaseModel):
    """A JSON object with exactly these keys."""

    model_config = ConfigDict(extra="forbid")


class Pile(Shape):
    """What an owner captured: in full (`cards`) or as a tally (`count`, `coins`, `best`)."""

    cards: list[Card] | None = Field(None, max_length=40, description="Every card captured.")
    count: int | None = Field(None, ge=0, le=40, description="Tally: how many cards.")
    coins: list[Rank] | None = Field(None, max_length=10, description="Tally: the coins' ranks.")
    best: dict[Literal["c", "s", "b"], Rank | None] | None = Field(
        None, description="Tally: the best primiera card held in cups, swords and clubs."
    )


Taker = Owner | list[Owner]
"""The side that took a category, or the list of the sides that tied for it."""
Run = Annotated[int, Field(ge=3, le=10, description="The run of coins from the ace.")]


class Categories(Shape):
    """Who took each point (the category form): a side, the sides that tied, or nobody."""

    cards: Taker
    coins: Taker
    settebello: Owner = Field(description="Never tied.")
    primiera: Taker | None = Field(description="`null`: no side could make a primiera.")


class Deal(Shape):
    """The facts of a played deal; owners are players, or teams with partnerships on. Either
    the piles, or who took each point (`categories`, docs/formats.md "A deal: the category
    form")."""

    piles: dict[Owner, Pile] | None = Field(None, description="The pile form.")
    categories: Categories | None = Field(None, description="The category form.")
    napola: dict[Owner, Run] | None = Field(
        None,
        description="Category form: the side holding the ace, 2 and 3 of coins and its run "
        "(`{}` nobody); required when the match plays napola.",
    )
    piccola: dict[Owner, Run] | None = Field(
        None, description="Cirulla's category form: as `napola`, for the piccola."
    )
    grande: Owner | None = Field(
        None, description="Cirulla's category form: the side holding J, H and K of coins."
    )
    sweeps: dict[Owner, Whole] = Field(default_factory=dict, description="Absent = 0.")
    last_capture: Owner | None = Field(None, description="Who took the cards left at the end.")
    declarations: dict[Owner, list[Literal["cirulla", "decino"]] | None] | None = Field(
        None, description="Cirulla: the hands each owner declared."
    )
    ace_sweeps: dict[Owner, Whole] | None = Field(
        None, description="Scopa d'Assi: how often a played ace took the whole table."
    )
    last_play_cleared: Owner | None = Field(
        None, description="Scopone: whose capture with the very last card left the table empty."
    )


class Rules(Shape):
    """House rules by name. In a request, any subset (the rest keep their values); in an
    answer, all of the match's variant's settings."""

    target: int | None = Field(None, ge=5, le=151, description="Points that end the game.")
    primiera: Switch | None = None
    napola: Literal["off", "flat", "run"] | None = None
    partnerships: Switch | None = None
    last_capture_sweep: Switch | None = None
    ties: Literal["withhold", "share"] | None = None
    primiera_mode: Literal["sum", "sevens"] | None = None
    last_play_sweep: Switch | None = None
    ace_sweep: Switch | None = None
    cirulla_points: int | None = Field(None, ge=0, le=10)
    decino_points: int | None = Field(None, ge=0, le=10)
    piccola_cap: int | None = Field(None, ge=3, le=10)
    cappotto: Literal["win", "off"] | None = None


def _variant_names(schema: dict[str, Any]) -> None:
    """The variants registered when the schema is written (:mod:`scopa.variants`)."""
    schema["enum"] = list(variants.names())


Variant = Annotated[str, Field(json_schema_extra=_variant_names)]
"""A variant's name, one of :func:`scopa.variants.names` (the core reads and checks it)."""


class SeatKind(Shape):
    """Who sits in a seat: a person, or one the program names (you, the computer, your
    partner the computer)."""

    kind: str = Field(json_schema_extra={"enum": list(SEAT_KINDS)})
    number: int | None = Field(
        None,
        ge=0,
        le=MAX_SEAT_NUMBER,
        description="One computer's number among several (Computer 2).",
    )


class Match(Shape):
    """A match file: its players in seating order, optional teams, rules and deals."""

    variant: Variant | None = Field(None, description="Absent = scopa.")
    name: str | None = Field(None, max_length=MAX_MATCH_NAME)
    generated_name: dict[str, str] | None = Field(
        None,
        description="A name the program made, as data: its kind (computer, table, rematch) and "
        "parameters; shown in the reader's language. `name` is then its English wording.",
    )
    players: list[Player] = Field(min_length=2, max_length=6)
    teams: list[list[Player]] | None = Field(
        None, description="With partnerships on; absent = seats alternate."
    )
    first_dealer: Player | None = Field(
        None,
        description="Who dealt the first deal, one of the players; absent = the first player. "
        "The deal then passes to the next player in seating order after each deal.",
    )
    seat_kinds: list[SeatKind] | None = Field(
        None,
        max_length=6,
        description="Who sits in each seat, in order, when the program named some (a game "
        "against the computer, a table's computer seats): such a player's name is the seat's "
        "English wording, shown in the reader's language; absent = every player a person.",
    )
    rules: Rules | None = None
    deals: list[Deal] = Field(default_factory=list, max_length=500)


class DealBody(Deal):
    """A deal, optionally with the version it is based on."""

    version: VersionField = None


class RulesBody(Rules):
    """Some settings by name, optionally with the version the change is based on."""

    variant: Variant | None = Field(
        None, description="Refused: the variant is chosen when the match is created."
    )
    version: VersionField = None


class VersionBody(Shape):
    """Optional: the version the change is based on."""

    version: VersionField = None


class SheetRow(Shape):
    number: int
    points: dict[str, dict[str, int]] = Field(
        description="Per side, the points by category (the variant's keys) and their `total`."
    )
    totals: dict[str, int]
    after_end: bool = Field(description="Recorded after the deal that decided the game.")
    cappotto: str | None = Field(None, description="Cirulla: whose pile held all ten coins.")


class Sheet(Shape):
    """The score sheet, computed from the facts."""

    variant: Variant | None = None
    sides: list[str]
    deals: list[SheetRow]
    totals: dict[str, int]
    status: Literal["in_progress", "won"]
    winner: str | None
    decided_at: int | None


class Removed(Shape):
    """A deleted deal, restorable at the number it had."""

    id: int
    number: int
    removed_at: datetime
    deal: Deal


class StoredMatch(Shape):
    """A stored match: its facts, its sheet and its version (also the `ETag`)."""

    id: int
    version: int
    match: Match
    sheet: Sheet
    removed: list[Removed]
    deal_ids: list[int] = Field(
        description="Each deal's identity, in order: it stays the deal's through edits, "
        "deletions (its removed id) and restores."
    )
    created_at: datetime
    updated_at: datetime


class Recorded(Shape):
    """The small answer to a change (asked for with `Prefer: return=minimal`): what changed,
    not the whole match. `rows` are the sheet's rows from deal `from` on (a recorded deal:
    its own row only); the rows before it are as they were."""

    id: int
    version: int
    deals: int = Field(description="How many deals the match now has.")
    sides: list[str]
    totals: dict[str, int]
    status: Literal["in_progress", "won"]
    winner: str | None
    decided_at: int | None
    from_: int = Field(alias="from", description="The first deal whose row may have changed.")
    rows: list[SheetRow]
    updated_at: datetime


class Moved(Shape):
    before: Any
    after: Any


class DealMoved(Shape):
    number: int
    side: str
    before: int
    after: int


class Changes(Shape):
    """What a settings change moved on the sheet."""

    settings: dict[str, Moved]
    sides: Moved | None
    deals: list[DealMoved]
    totals: dict[str, Moved]
    winner: Moved | None
    decided_at: Moved | None
    summary: str


class RulesChanged(StoredMatch):
    """The match re-scored, and what moved."""

    changes: Changes


class ListItem(Shape):
    """A line of the list of matches."""

    id: int
    name: str | None
    players: list[str]
    sides: list[str]
    status: Literal["in_progress", "won"]
    winner: str | None
    totals: dict[str, int]
    deal_count: int
    variant: str = "scopa"
    created_at: datetime
    updated_at: datetime


class LogItem(Shape):
    """An entry of a match's change log."""

    id: int
    version: int
    at: datetime
    action: str
    summary: str


class Deleted(Shape):
    id: int
    deleted: Literal[True]


class ChangeBase(Shape):
    """The match as the device saw it when the change was made."""

    version: int | None = None
    count: int | None = Field(None, description="How many deals it had (a deal recorded).")
    deal_id: int | None = Field(None, description="The identity of the deal changed.")
    deal: dict[str, Any] | None = Field(None, description="The deal changed, as it was.")
    rules: dict[str, Any] | None = Field(None, description="The house rules, as they were.")


class ChangeBody(Shape):
    """A change made on an older state of the match (kept on a phone while it was offline,
    or a form another device made stale): the merge policy decides (docs/offline.md)."""

    kind: Literal["add", "replace", "delete", "restore", "rules"]
    number: int | None = Field(None, description="The deal edited or deleted, as numbered then.")
    removed_id: int | None = Field(None, description="The removed deal restored.")
    body: dict[str, Any] | None = Field(None, description="The deal, or the settings by name.")
    base: ChangeBase | None = None
    accept_after: bool = Field(False, description="Add the deal after another device's.")
    force: bool = Field(False, description="Keep this change over another device's edit.")
    accept_rules: bool = Field(False, description="Keep these settings over another device's.")


class ChangeMerged(StoredMatch):
    """What the merge policy did: `sent` (the match after the change), or `dropped` (`why`:
    nothing left to do; the match as it is). A clash answers 409 with the `conflict`."""

    outcome: Literal["sent", "dropped"]
    merged: bool = Field(False, description="An edit merged with another device's, by field.")
    why: str | None = None
    changes: Changes | None = None


class Error(Shape):
    """Every refusal: what was wrong (in the reader's language), where
    (`deals[3].piles.Bruno.coins[2]`, never translated) and a stable dotted code, the same in
    every language (`card.rank`)."""

    error: str
    where: str
    code: str | None = None
    conflict: dict[str, Any] | None = Field(
        None, description="A change that clashes with another device's: both sides."
    )


REQUEST_BODIES: tuple[type[BaseModel], ...] = (Match, DealBody, RulesBody, VersionBody, ChangeBody)


def plain(value: object) -> Any:
    """A record's field as JSON: a time as its ISO 8601 string, a tuple as a list."""
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, tuple):
        return list(value)
    return value


def written(model: type[Shape], record: object, **given: Any) -> dict[str, Any]:
    """``record`` as the answer ``model`` describes it: the model's keys in its order, each
    the record's field of that name (:func:`plain`), or the value ``given`` for it.

    >>> from datetime import UTC
    >>> entry = LogEntry(7, 3, datetime(2024, 5, 12, tzinfo=UTC), "add_deal", "Deal 3", {})
    >>> written(LogItem, entry)  # doctest: +NORMALIZE_WHITESPACE
    {'id': 7, 'version': 3, 'at': '2024-05-12T00:00:00+00:00', 'action': 'add_deal',
     'summary': 'Deal 3'}
    >>> written(LogItem, entry, summary="Deal 3 recorded: Anna 4")["summary"]
    'Deal 3 recorded: Anna 4'
    """
    return {
        key: given[key] if key in given else plain(getattr(record, key))
        for key in model.model_fields
    }


def stored_to_json(scored: ScoredMatch) -> dict[str, Any]:
    """The API's answer for one match (:class:`StoredMatch`)."""
    return written(
        StoredMatch,
        scored,
        match=match_to_json(scored.match),
        sheet=sheet_to_json(scored.sheet),
        removed=[removed_to_json(r) for r in scored.removed],
    )


def change_to_json(scored: ScoredMatch, first: int) -> dict[str, Any]:
    """The small answer to a change (:class:`Recorded`): the rows from deal ``first`` on,
    the totals, the status and the version; nothing that grows with the match but those rows."""
    sheet = scored.sheet
    return {
        "id": scored.id,
        "version": scored.version,
        "deals": sheet.deal_count,
        "sides": list(sheet.sides),
        "totals": dict(zip(sheet.sides, sheet.totals, strict=True)),
        "status": sheet.status,
        "winner": sheet.winner,
        "decided_at": sheet.decided_at,
        "from": first,
        "rows": sheet_rows_to_json(sheet, first),
        "updated_at": scored.updated_at.isoformat(),
    }


def removed_to_json(removed: RemovedDeal) -> dict[str, Any]:
    """A removed deal (:class:`Removed`)."""
    return written(Removed, removed, deal=deal_to_json(removed.deal))


def summary_to_json(summary: MatchSummary) -> dict[str, Any]:
    """A line of the list (:class:`ListItem`): the totals by side."""
    totals = dict(zip(summary.sides, summary.totals, strict=False))
    return written(ListItem, summary, totals=totals)


def log_to_json(entry: LogEntry) -> dict[str, Any]:
    """An entry of the change log (:class:`LogItem`)."""
    return written(LogItem, entry)
