"""``/api/docs``: the API's documentation, Swagger UI from the pinned npm package
(``swagger-ui-dist``, copied to ``static/vendor`` by ``scripts/vendor.py``), served by the app
itself under its content security policy: no CDN, no inline script.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from fastapi import APIRouter, FastAPI
from fastapi.responses import HTMLResponse
from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from scopa.web.api.schemas import REQUEST_BODIES, Recorded

DOCS_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>scopa API</title>
<link rel="icon" href="/static/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/vendor/swagger-ui/swagger-ui.css">
</head><body>
<div id="swagger-ui" data-url="/api/openapi.json">
<noscript>The API's documentation needs JavaScript; the schema itself is at
<a href="/api/openapi.json">/api/openapi.json</a>.</noscript>
</div>
<script src="/static/vendor/swagger-ui/swagger-ui-bundle.js"></script>
<script type="module" src="/static/api-docs.js"></script>
</body></html>
"""

docs = APIRouter(include_in_schema=False)


@docs.get("/api/docs")
def docs_page() -> HTMLResponse:
    return HTMLResponse(DOCS_PAGE)


ANSWERED: type[BaseModel] = Recorded
"""The small answer to a change: no route's model (the routes answer the whole match unless
asked), so it is added to the components beside the bodies."""


def install_body_schemas(app: FastAPI, more: Sequence[type[BaseModel]] = ()) -> None:
    """Add the request bodies' models to the schema's components: the routes read bodies
    themselves (so that the core's messages name the place), and refer to these by name.
    ``more``: other routers' bodies (the tables'), named by the server that mounts them."""
    generate: Callable[[], dict[str, Any]] = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema:
            return app.openapi_schema
        schema = generate()
        _, defs = models_json_schema(
            [(model, "validation") for model in (*REQUEST_BODIES, *more, ANSWERED)],
            ref_template="#/components/schemas/{model}",
        )
        known = schema.setdefault("components", {}).setdefault("schemas", {})
        for name, definition in defs.get("$defs", {}).items():
            known.setdefault(name, definition)
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]
