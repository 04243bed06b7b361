"""``scopa score`` and ``scopa sheet``: a match file's score sheet, as JSON or as a table."""

from __future__ import annotations

import typer
from rich.console import Console

from scopa.cli_common import MatchFileArg, load_match, sheet_table, write_json
from scopa.formats import sheet_to_json
from scopa.match import score_match


def score(match_file: MatchFileArg) -> None:
    """Print the score sheet of a match file as JSON (docs/formats.md)."""
    write_json(sheet_to_json(score_match(load_match(match_file))))


def sheet(match_file: MatchFileArg) -> None:
    """Show the score sheet of a match file as a table."""
    match = load_match(match_file)
    Console().print(sheet_table(match, score_match(match)))


def register(app: typer.Typer) -> None:
    """Add ``score`` and ``sheet`` to the ``scopa`` app."""
    app.command("score")(score)
    app.command("sheet")(sheet)
