"""The help page: the rules of each variant and what each house rule does, written for the
players at the table (``/help``), in the reader's language. Every setting on the forms links
to its part of the page (``/help#setting-primiera``), the deal forms to their variant's
(``/help#variant-escoba``). The service worker keeps the page, so it reads offline too."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from scopa import variants
from scopa.rules import Settings
from scopa.web.pages.render import View, render

router = APIRouter(include_in_schema=False)

SETTINGS_HELPED = (
    "target",
    "primiera",
    "primiera_mode",
    "napola",
    "partnerships",
    "last_capture_sweep",
    "ties",
    "last_play_sweep",
    "ace_sweep",
    "cirulla_points",
    "decino_points",
    "piccola_cap",
    "cappotto",
)
"""Every setting of every variant, in the order the page explains them."""


def setting_anchor(name: str) -> str:
    """The help page's part about setting ``name``: ``/help#setting-ties``."""
    return f"/help#setting-{name}"


def variant_anchor(name: str) -> str:
    """The help page's part about a variant: ``/help#variant-cirulla``."""
    return f"/help#variant-{name}"


@router.get("/help")
def help_page(request: Request) -> Response:
    data = {
        "variants": {v.name: variant_anchor(v.name) for v in variants.all_variants()},
        "settings": {name: setting_anchor(name) for name in SETTINGS_HELPED},
    }
    every = variants.all_variants()
    only: dict[str, str] = {}
    for name in SETTINGS_HELPED:
        having = [v.title for v in every if name in Settings.of(v.name).names]
        only[name] = ", ".join(having) if len(having) < len(every) else ""
    titles = {v.name: v.title for v in every}
    context = {"variant_list": every, "only": only, "titles": titles}
    return render(request, View("help.html", data, context))
