"""An independent reading of docs/rules.md sections 5, 6 and 9 for the tests: scoring written
plainly from lists of card names, reusing nothing of the code under test (no packed facts, no
points tables, no Pile facts). The scoring tests compare the real scorer against it."""

from __future__ import annotations

from typing import Any

PRIMIERA = {
    "A": 16,
    "2": 12,
    "3": 13,
    "4": 14,
    "5": 15,
    "6": 18,
    "7": 21,
    "J": 10,
    "H": 10,
    "K": 10,
}
COIN_ORDER = ["A", "2", "3", "4", "5", "6", "7", "J", "H", "K"]


def majority(values: list[int], share: bool) -> list[int]:
    top = max(values)
    at_top = [v == top for v in values]
    if top <= 0:
        return [0] * len(values)
    if at_top.count(True) == 1 or share:
        return [1 if t else 0 for t in at_top]
    return [0] * len(values)


def primiera_total(cards: list[str]) -> int:
    total = 0
    for suit in "dcsb":
        values = [PRIMIERA[c[:-1]] for c in cards if c[-1] == suit]
        if not values:
            return 0
        total += max(values)
    return total


def coin_run(cards: list[str]) -> int:
    run = 0
    for rank in COIN_ORDER:
        if rank + "d" not in cards:
            break
        run += 1
    return run


def score(
    piles: list[list[str]],
    rules: dict[str, Any],
    variant: str = "scopa",
    sweeps: list[int] | None = None,
    last: int | None = None,
    cleared: int | None = None,
    aces: list[int] | None = None,
    declarations: list[list[str]] | None = None,
) -> list[dict[str, int]]:
    """Each side's points by category (the variant's keys and ``total``)."""
    n = len(piles)
    sweeps = sweeps or [0] * n
    aces = aces or [0] * n
    declarations = declarations or [[] for _ in range(n)]
    share = rules["ties"] == "share"
    cards = majority([len(p) for p in piles], share)
    coins = majority([sum(1 for c in p if c.endswith("d")) for p in piles], share)
    if not rules["primiera"]:
        primiera = [0] * n
    elif rules.get("primiera_mode", "sum") == "sevens":
        primiera = majority([sum(1 for c in p if c.startswith("7")) for p in piles], share)
    else:
        primiera = majority([primiera_total(p) for p in piles], share)
    result = []
    for i, pile in enumerate(piles):
        swept = sweeps[i]
        if rules["last_capture_sweep"] and last == i:
            swept += 1
        if rules.get("last_play_sweep") and cleared == i:
            swept += 1
        if rules.get("ace_sweep"):
            swept += aces[i]
        points = {
            "cards": cards[i],
            "coins": coins[i],
            "settebello": 1 if "7d" in pile else 0,
            "primiera": primiera[i],
            "sweeps": swept,
        }
        run = coin_run(pile)
        if variant in ("scopa", "scopone", "assi"):
            napola = rules["napola"]
            points["napola"] = 0 if napola == "off" or run < 3 else (3 if napola == "flat" else run)
        if variant == "cirulla":
            points["declarations"] = sum(
                rules["cirulla_points"] if d == "cirulla" else rules["decino_points"]
                for d in declarations[i]
            )
            points["piccola"] = 0 if run < 3 else min(run, rules["piccola_cap"])
            points["grande"] = 5 if all(r + "d" in pile for r in "JHK") else 0
        points["total"] = sum(points.values())
        result.append(points)
    return result


def winner(
    rows: list[list[int]], target: int, cappotto: list[int | None] | None = None
) -> tuple[int | None, int | None]:
    """(winning side, deal number) from each deal's totals per side (section 6 and 9.7)."""
    totals = [0] * len(rows[0]) if rows else []
    for number, row in enumerate(rows, 1):
        totals = [t + p for t, p in zip(totals, row, strict=True)]
        if cappotto and cappotto[number - 1] is not None:
            return cappotto[number - 1], number
        top = max(totals)
        if top >= target and totals.count(top) == 1:
            return totals.index(top), number
    return None, None
