"""Dependencies shared by the routers, as module-level ``Annotated`` aliases.

They must stay at module level: under ``from __future__ import annotations`` an alias defined
inside a function is not resolved by FastAPI and turns into a query parameter.
"""

from __future__ import annotations

from pathlib import Path as FilePath
from typing import Annotated

from fastapi import Depends, Header, Path, Request
from fastapi.templating import Jinja2Templates

from scopa.application import MatchService
from scopa.web.versions import parse_if_match

MAX_ID = 2**62
TEMPLATES_DIR = FilePath(__file__).parent / "templates"
STATIC_DIR = FilePath(__file__).parent / "static"


def get_service(request: Request) -> MatchService:
    service: MatchService = request.app.state.service
    return service


def get_templates(request: Request) -> Jinja2Templates:
    templates: Jinja2Templates = request.app.state.templates
    return templates


def if_match_version(
    if_match: Annotated[
        str | None,
        Header(
            alias="If-Match",
            description='The version the change is based on: `3`, `"3"` (an ETag) or `*`.',
        ),
    ] = None,
) -> int | None:
    return parse_if_match(if_match)


Service = Annotated[MatchService, Depends(get_service)]
Templates = Annotated[Jinja2Templates, Depends(get_templates)]
IfMatch = Annotated[int | None, Depends(if_match_version)]
MatchId = Annotated[int, Path(ge=1, le=MAX_ID, description="The match's id.")]
DealNumber = Annotated[
    int, Path(ge=1, le=100_000, description="The deal's number on the sheet (1-based).")
]
RemovedId = Annotated[int, Path(ge=1, le=MAX_ID, description="The removed deal's id.")]
