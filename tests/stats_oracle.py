"""An independent reading of docs/formats.md "Player statistics" for the tests: every player's
figures worked out plainly from match files and their score sheets as JSON (docs/formats.md),
reusing nothing of the code under test (no tallies, no store, no SQL)."""

from __future__ import annotations

from typing import Any

KEYS = {
    "scopa": ["cards", "coins", "settebello", "primiera", "sweeps", "napola"],
    "scopone": ["cards", "coins", "settebello", "primiera", "sweeps", "napola"],
    "assi": ["cards", "coins", "settebello", "primiera", "sweeps", "napola"],
    "escoba": ["cards", "coins", "settebello", "primiera", "sweeps"],
    "cirulla": [
        "cards",
        "coins",
        "settebello",
        "primiera",
        "sweeps",
        "declarations",
        "piccola",
        "grande",
    ],
}


def side_names(match: dict[str, Any], sheet: dict[str, Any]) -> dict[str, str]:
    """Each player's side on the sheet: the player, or the team (given, or seats 1-3/2-4)."""
    players = match["players"]
    if list(sheet["sides"]) == list(players):
        return {p: p for p in players}
    teams = match.get("teams") or [players[0::2], players[1::2]]
    return {p: sheet["sides"][i] for i, team in enumerate(teams) for p in team}


def figures(
    matches: list[tuple[dict[str, Any], dict[str, Any]]], names: dict[str, str]
) -> dict[str, dict[str, Any]]:
    """Each player's figures (by the player's name key, ``casefold``) from ``(match file,
    its sheet as JSON)`` pairs of the matches that count, as docs/formats.md gives them; a player
    is called by ``names`` (name key to the spelling remembered)."""
    raw: dict[str, dict[str, Any]] = {}
    for match, sheet in matches:
        variant = match.get("variant", "scopa")
        side_of = side_names(match, sheet)
        rows = [row for row in sheet["deals"] if not row["after_end"]]
        winner = sheet["winner"]
        for player in match["players"]:
            side = side_of[player]
            one = raw.setdefault(
                player.casefold(),
                {
                    "name": names[player.casefold()],
                    "matches": 0,
                    "won": 0,
                    "finished": 0,
                    "deals": 0,
                    "points": 0,
                    "sweeps": 0,
                    "counts": {},
                    "variants": set(),
                    "opponents": {},
                    "partners": {},
                },
            )
            one["variants"].add(variant)
            one["matches"] += 1
            one["finished"] += sheet["status"] == "won"
            one["won"] += winner == side
            one["deals"] += len(rows)
            one["points"] += sum(row["points"][side]["total"] for row in rows)
            one["sweeps"] += sum(row["points"][side]["sweeps"] for row in rows)
            for key in KEYS[variant]:
                scored = sum(1 for row in rows if row["points"][side][key] > 0)
                one["counts"][key] = one["counts"].get(key, 0) + scored
            for other in match["players"]:
                if other == player:
                    continue
                if side_of[other] == side:
                    record = one["partners"].setdefault(
                        names[other.casefold()], {"matches": 0, "won": 0}
                    )
                    record["matches"] += 1
                    record["won"] += winner == side
                else:
                    record = one["opponents"].setdefault(
                        names[other.casefold()], {"matches": 0, "won": 0, "lost": 0}
                    )
                    record["matches"] += 1
                    record["won"] += winner == side
                    record["lost"] += winner == side_of[other]
    return {key: finish(one) for key, one in raw.items()}


def finish(one: dict[str, Any]) -> dict[str, Any]:
    deals = one["deals"]
    keys = [k for v in ("scopa", "cirulla") for k in KEYS[v]]
    wanted = {k for v in one["variants"] or {"scopa"} for k in KEYS[v]}
    return {
        "name": one["name"],
        "matches": one["matches"],
        "won": one["won"],
        "finished": one["finished"],
        "deals": deals,
        "points_per_deal": one["points"] / deals if deals else 0.0,
        "categories": {
            k: (one["counts"].get(k, 0) / deals if deals else 0.0)
            for k in dict.fromkeys(keys)
            if k in wanted
        },
        "sweeps_per_deal": one["sweeps"] / deals if deals else 0.0,
        "opponents": one["opponents"],
        "partners": one["partners"],
    }
