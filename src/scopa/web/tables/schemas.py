"""The tables' JSON in the OpenAPI document (``/api/openapi.json``): the bodies the routes read
and the answers they give (docs/tables.md, "The API"). The routes read their bodies
themselves, so that every refusal names its place in the project's one error shape; these
models describe them, they do not parse them."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from scopa.names import MAX_NAME
from scopa.web.api.schemas import Error, SeatKind


class Shape(BaseModel):
    """A JSON object with exactly these keys."""

    model_config = ConfigDict(extra="forbid")


class NewTable(Shape):
    """A table to create: every key may be left out (a table of two, Scopa, no computer)."""

    variant: str = Field("scopa", examples=["scopone"], description="The variant played.")
    players: int | None = Field(None, ge=2, le=4, description="Seats (Scopone: 4).")
    names: list[str] = Field(
        default_factory=list, description="The creator's name first (seat 0).", max_length=4
    )
    rules: dict[str, Any] = Field(
        default_factory=dict, description="House rules, as a match's (`target`, ...)."
    )
    computer: dict[str, str] = Field(
        default_factory=dict,
        description='The computer\'s seats and their level: `{"1": "normal"}`.',
        examples=[{"1": "normal", "3": "easy"}],
    )
    grace: int = Field(60, ge=0, le=86400, description="Seconds a person may be away.")
    level: str | None = Field(None, description="The level that plays for an absent person.")
    clock: int = Field(
        90,
        ge=0,
        le=3600,
        description="The turn clock: seconds a person at the table has for each play before "
        "the computer plays for them (0: no clock).",
    )


class TableCreated(Shape):
    table: int
    code: str = Field(description="The table's code: anyone with it may take a free seat.")
    join: str = Field(description="The join page's path, `/t/CODE` (what the QR code holds).")
    seat: int
    token: str = Field(description="The seat's token (shown once, stored only as a hash).")
    match: int | None = Field(description="The table's match on the sheet.")


class TableSeatBody(Shape):
    code: str = Field(description="The table's code.", examples=["ZFSJHNCZ"])
    name: str | None = Field(None, max_length=MAX_NAME, description="Your name at the table.")


class TableSeatTaken(Shape):
    seat: int
    token: str = Field(description="The seat's token (shown once).")
    match: int | None


class TablePlayBody(Shape):
    step: int = Field(description="The step the play is based on (the view's `step`).")
    card: str = Field(examples=["7d"])
    capture: list[str] = Field(default_factory=list, description="The cards taken (`[]` trails).")


class TableStepBody(Shape):
    step: int = Field(description="The step the move is based on.")


class TableSeat(Shape):
    name: str | None
    kind: Literal["human", "computer"]
    seat_kind: SeatKind = Field(
        description="Who sits there, as data: a person (`name` as typed), or a computer "
        "seat the program names (`name` its English wording; `number` among several)."
    )
    taken: bool
    present: bool
    computer_plays: bool = Field(description="The computer plays for this absent person.")
    hand: int = Field(description="How many cards the seat holds (never which).")
    shown: list[str] = Field(description="Cirulla's declared cards, face up.")
    pile: int
    sweeps: int


class TableLegalPlay(Shape):
    card: str
    captures: list[list[str]]


class TablePlay(Shape):
    seat: int
    name: str | None
    card: str
    captured: list[str]
    sweep: bool
    by: Literal["seat", "computer", "clock"] = Field(
        description="`computer`: the computer played for an absent person; `clock`: for a "
        "person whose turn clock ran out."
    )


class TableScore(Shape):
    sides: list[str]
    totals: list[int]
    target: int
    winner: str | None
    last: list[dict[str, Any]] | None = Field(
        description="The last deal's points once it is over, per side, under `keys`."
    )
    keys: list[str] = Field(
        description="The variant's own keys for the last deal's points, `total` last (empty "
        "while no deal is over)."
    )
    labels: dict[str, str] = Field(
        description="Each key's word in English, which the page says in its language."
    )


class TableView(Shape):
    """The table from one seat (or a television's, `you: null`): only what that seat may
    know. No other seat's card, no order of the stock."""

    table: int
    code: str
    step: int
    version: int
    variant: str
    title: str
    deal: int
    dealer: int
    turn: int | None
    you: int | None
    hand: list[str]
    table_cards: list[str]
    stock: int
    seats: list[TableSeat]
    waiting: list[int]
    legal: list[TableLegalPlay]
    plays: list[TablePlay]
    leftovers: Any = None
    score: TableScore
    grace: int
    clock: int = Field(description="The table's turn clock in seconds (0: none).")
    clock_left: int | None = Field(
        description="Seconds left to the seat to move before the computer plays for it "
        "(`null`: no clock running: a computer seat, a person away, no deal in play)."
    )
    timed_out: bool = Field(
        description="Your last play of this deal was made by the computer when your turn "
        "clock ran out."
    )
    level: str | None
    match: int | None
    status: Literal["playing", "deal_over", "match_over"]


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The error answers of a route, each in the project's one shape (:class:`Error`)."""
    said = {
        401: "A wrong seat token, or a wrong table code (`where`: `token` or `code`)",
        403: "The group's tables or seats are at their limit (`where`: `quota.tables`, "
        "`quota.seats`)",
        404: "No such table (`where`: `id`)",
        409: "A stale step, not your turn, or every seat is taken (`where`: `step`, `seat`)",
        413: "The request body is over the cap",
        422: "Invalid input; nothing changed (`where` names the place)",
        429: "Too many wrong table codes from this address (or its /64) lately: see the "
        "`Retry-After` header",
    }
    found: dict[int | str, dict[str, Any]] = {
        status: {"model": Error, "description": said[status]} for status in statuses
    }
    if 429 in found:
        found[429]["headers"] = {
            "Retry-After": {"description": "Seconds to wait", "schema": {"type": "integer"}}
        }
    return found


def body_of(model: type[BaseModel], required: bool = True) -> dict[str, Any]:
    """``openapi_extra`` for a route that reads its JSON body itself."""
    name = model.__name__
    return {
        "requestBody": {
            "required": required,
            "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{name}"}}},
        }
    }


BODIES: tuple[type[BaseModel], ...] = (NewTable, TableSeatBody, TablePlayBody, TableStepBody)
"""The bodies named by reference: added to the document's components (see ``docs.py``)."""
