"""Dependencies shared by the routers, as module-level ``Annotated`` aliases.

They must stay at module level: under ``from __future__ import annotations`` an alias defined
inside a function is not resolved by FastAPI and turns into a query parameter.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path as FilePath
from typing import Annotated, Literal
from urllib.parse import urlencode

from fastapi import Depends, Header, HTTPException, Path, Query, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BeforeValidator
from pydantic_core import PydanticCustomError
from starlette.routing import Match, Route
from starlette.types import Scope

from scopa.application import MatchService, MatchSummary
from scopa.errors import ScopaError
from scopa.names import clean_name
from scopa.reading import ascii_digits, digits_only
from scopa.store.protocol import GameStore, Players, SeedStore, Store, TableStore
from scopa.store.records import ListPage, Member
from scopa.web.versions import parse_if_match

MAX_ID = 2**31 - 1
"""The largest id (PostgreSQL's integer column)."""
TEMPLATES_DIR = FilePath(__file__).parent / "templates"
STATIC_DIR = FilePath(__file__).parent / "static"


MEMBER = "scopa.member"
"""Where :class:`~scopa.web.access.hosted.HostedMiddleware` puts the request's
:class:`~scopa.store.records.Member` (the device and its group) in the ASGI scope."""
GROUPS = "scopa.groups"
"""Where it puts every group the device's cookie lets in (for the group switcher)."""


def store_of(request: Request) -> Store:
    """The server's whole store (every group's): for what is not one group's (the access
    codes, the groups themselves, the wrong codes per address)."""
    store: Store = request.app.state.store
    return store


def group_of(request: Request) -> int | None:
    """The group the request is bound to: on a hosted server the one its device's token lets
    in, otherwise ``None`` (the one table).

    Every repository a request reaches (its matches, tables, games, seeds and players) is
    bound to it here, so this is the one place where a request is bound to a group."""
    if not getattr(request.app.state, "hosted", False):
        return None
    member: Member | None = request.scope.get(MEMBER)
    if member is None:  # the middleware lets no such request through; never the one table
        raise HTTPException(401, "a device token is needed: join a group at /join")
    return member.group


def get_service(request: Request) -> MatchService:
    """The use cases as this request may use them: on a hosted server, over the matches of
    the request's group only (any other group's match is not found: 404, as for a match that
    does not exist); otherwise over the one table."""
    group = group_of(request)
    if group is None:
        service: MatchService = request.app.state.service
        return service
    return MatchService(store_of(request).in_group(group))


def tables_of_request(request: Request) -> TableStore:
    """The tables the request's group may see."""
    return store_of(request).tables(group_of(request))


def games_of_request(request: Request) -> GameStore:
    """The games against the computer of the request's group."""
    return store_of(request).games(group_of(request))


def seeds_of_request(request: Request) -> SeedStore:
    """The seeds issued to the devices of the request's group."""
    return store_of(request).seeds(group_of(request))


def players_of_request(request: Request) -> Players:
    """The players and figures of the request's group."""
    return store_of(request).players(group_of(request))


async def service_of(request: Request) -> MatchService:
    """:func:`get_service` as a dependency: ``async`` so that FastAPI calls it in the event
    loop (it does no I/O), where a plain function would cost a hop to a worker thread."""
    return get_service(request)


def error_json(
    status: int, exc: ScopaError, where: str, headers: dict[str, str] | None = None
) -> JSONResponse:
    """The API's one shape of an error: the message in the reader's language, its place and
    its code."""
    body = {"error": exc.text(), "where": where, "code": exc.code}
    return JSONResponse(body, status_code=status, headers=headers)


async def if_match_version(
    if_match: Annotated[
        str | None,
        Header(
            alias="If-Match",
            description='The version the change is based on: `3`, `"3"` (an ETag) or `*`.',
        ),
    ] = None,
) -> int | None:
    return parse_if_match(if_match)


def only_digits(value: object) -> object:
    """An id or number in a path as pydantic reads an ``int``, but ASCII digits only:
    pydantic alone takes ``"1.0"``, ``"+1"`` and ``" 1"`` as 1 (a deal recorded on match 1 for
    ``/api/matches/1.0/deals``). Refused as pydantic refuses ``abc`` (``int_parsing``); a
    number of too many digits is left to pydantic, which refuses it (``int_parsing_size``)."""
    if isinstance(value, str) and not digits_only(value):
        raise PydanticCustomError(
            "int_parsing", "Input should be a valid integer, unable to parse string as an integer"
        )
    return value


DIGITS = BeforeValidator(only_digits)
"""The check of a whole number in a path (``Annotated[int, DIGITS, Path(...)]``)."""


class IdRoute(Route):
    """A fast route (answered without FastAPI's dependency solving) whose path holds one id,
    ``{name}``, placed before its documented twin: it declines (``Match.NONE``) a request
    whose id is not ASCII digits from 1 to :data:`MAX_ID`, so the documented route answers
    it with its own error (422 naming the place), and hands its endpoint the id as an int."""

    def __init__(
        self, path: str, endpoint: Callable[[Request], Awaitable[Response]], name: str
    ) -> None:
        super().__init__(path, endpoint, methods=["POST"])
        self.id_name = name

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        found, child = super().matches(scope)
        if found is not Match.FULL:
            return Match.NONE, {}
        ident = ascii_digits(str(child["path_params"][self.id_name]), len(str(MAX_ID)))
        if ident is None or not 1 <= ident <= MAX_ID:
            return Match.NONE, {}
        child["path_params"] = {**child["path_params"], self.id_name: ident}
        return found, child


Service = Annotated[MatchService, Depends(service_of)]
IfMatch = Annotated[int | None, Depends(if_match_version)]
MatchId = Annotated[int, DIGITS, Path(ge=1, le=MAX_ID, description="The match's id.")]
DealNumber = Annotated[
    int, DIGITS, Path(ge=1, le=100_000, description="The deal's number on the sheet (1-based).")
]
RemovedId = Annotated[int, DIGITS, Path(ge=1, le=MAX_ID, description="The removed deal's id.")]


@dataclass(frozen=True, slots=True)
class ListQuery:
    """The query of the list of matches (the API's and the home page's): at most ``limit``
    matches older than match ``before``, only those of ``player`` and in ``status`` if given."""

    limit: Annotated[
        int, Query(ge=1, le=500, description="How many matches at most (default 50, at most 500).")
    ] = 50
    before: Annotated[
        int | None, Query(ge=1, le=MAX_ID, description="Only the matches older than this one.")
    ] = None
    player: Annotated[
        str, Query(max_length=100, description="Only the matches of this player (any case).")
    ] = ""
    status: Annotated[
        Literal["", "in_progress", "won"],
        Query(description="Only the matches in progress (`in_progress`) or won (`won`)."),
    ] = ""

    def page(self, service: MatchService, path: str) -> tuple[list[MatchSummary], str | None]:
        """The page's matches, newest first, and the address of the next page at ``path``
        (None when no more follow)."""
        player = clean_name(self.player, "player") if self.player else ""
        wanted = ListPage(limit=self.limit, before=self.before, player=player, status=self.status)
        found, more = service.page(wanted)
        return found, self.next_page(path, found[-1].id) if more and found else None

    def next_page(self, path: str, before: int) -> str:
        """The address of the page after match ``before`` (the filters kept).

        >>> ListQuery().next_page("/api/matches", 17)
        '/api/matches?limit=50&before=17'
        >>> ListQuery(player="Anna B", status="won").next_page("/", 9)
        '/?limit=50&before=9&player=Anna+B&status=won'
        """
        query: dict[str, str | int] = {"limit": self.limit, "before": before}
        if self.player:
            query["player"] = self.player
        if self.status:
            query["status"] = self.status
        return f"{path}?{urlencode(query)}"


Listing = Annotated[ListQuery, Depends()]
