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


def anna_deal_of(anna: str, bruno: str) -> dict[str, Any]:
    """:func:`anna_deal` with Anna called ``anna`` and Bruno ``bruno``: ``anna`` 5 points,
    ``bruno`` 2."""
    names = {"Anna": anna, "Bruno": bruno}
    return {
        key: {names.get(k, k): v for k, v in value.items()}
        if isinstance(value, dict)
        else names.get(value, value)
        if isinstance(value, str)
        else value
        for key, value in anna_deal().items()
    }


def bruno_deal() -> dict[str, Any]:
    """The mirror image: Bruno 4 points, Anna 0."""
    deal = anna_deal(0, 0)
    piles = deal["piles"]
    deal["piles"] = {"Anna": piles["Bruno"], "Bruno": piles["Anna"]}
    deal["last_capture"] = "Anna"
    return deal


def level_deal(settebello: str = "Anna") -> dict[str, Any]:
    """A deal that gives one point, the settebello's: cards 20 to 20, coins 5 to 5 and
    primiera 78 to 78 are ties (no point). Given to each player in turn, it keeps a match
    in progress for over a hundred deals."""
    holder = {
        "count": 20,
        "coins": ["A", "2", "3", "4", "7"],
        "best": {"c": "7", "s": "6", "b": "6"},
    }
    other = {
        "count": 20,
        "coins": ["5", "6", "J", "H", "K"],
        "best": {"c": "6", "s": "7", "b": "7"},
    }
    rest = "Bruno" if settebello == "Anna" else "Anna"
    return {
        "piles": {settebello: holder, rest: other},
        "sweeps": {"Anna": 0, "Bruno": 0},
        "last_capture": rest,
    }
