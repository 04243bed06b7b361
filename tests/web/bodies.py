"""The request bodies the web tests (and ``bench/hosted.py``) send: a module of its own, so
that a benchmark takes them without the test client."""

from __future__ import annotations

import copy
from typing import Any

from scopa.web.api.routes import DEAL_EXAMPLE


def anna_deal(anna_sweeps: int = 1, bruno_sweeps: int = 2) -> dict[str, Any]:
    """docs/rules.md's worked example as a tally (the API's documented deal, without its version):
    Anna 5 points (4 with primiera off), Bruno 2."""
    deal = copy.deepcopy({key: v for key, v in DEAL_EXAMPLE.items() if key != "version"})
    deal["sweeps"] = {"Anna": anna_sweeps, "Bruno": bruno_sweeps}
    return deal


def bruno_deal() -> dict[str, Any]:
    """The mirror image: Bruno 4 points, Anna 0."""
    deal = anna_deal(0, 0)
    piles = deal["piles"]
    deal["piles"] = {"Anna": piles["Bruno"], "Bruno": piles["Anna"]}
    deal["last_capture"] = "Anna"
    return deal
