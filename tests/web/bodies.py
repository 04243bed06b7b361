"""The request bodies the web tests (and ``bench/hosted.py``) send: a module of its own, so
that a benchmark takes them without the test client."""

from __future__ import annotations

from typing import Any


def anna_deal(anna_sweeps: int = 1, bruno_sweeps: int = 2) -> dict[str, Any]:
    """RULES.md's worked example as a tally: Anna 5 points (4 with primiera off), Bruno 2."""
    return {
        "piles": {
            "Anna": {
                "count": 22,
                "coins": ["A", "2", "3", "5", "7", "K"],
                "best": {"c": "7", "s": "7", "b": "6"},
            },
            "Bruno": {
                "count": 18,
                "coins": ["4", "6", "J", "H"],
                "best": {"c": "5", "s": "6", "b": "7"},
            },
        },
        "sweeps": {"Anna": anna_sweeps, "Bruno": bruno_sweeps},
        "last_capture": "Bruno",
    }


def bruno_deal() -> dict[str, Any]:
    """The mirror image: Bruno 4 points, Anna 0."""
    deal = anna_deal(0, 0)
    piles = deal["piles"]
    deal["piles"] = {"Anna": piles["Bruno"], "Bruno": piles["Anna"]}
    deal["last_capture"] = "Anna"
    return deal
