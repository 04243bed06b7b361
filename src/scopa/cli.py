"""The command line: thin commands that parse, call the core and print.

Errors the user can fix come back as a message on standard error and exit status 2.
"""

from __future__ import annotations

import sys
from enum import IntEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console, Group
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from scopa.errors import ScopaError
from scopa.formats import dump_json, load_json, parse_match, sheet_to_json
from scopa.match import Match, Sheet, score_match
from scopa.names import printable


class Exit(IntEnum):
    OK = 0
    FAILURE = 1
    BAD_INPUT = 2


app = typer.Typer(
    name="scopa",
    help="Score sheet, rules engine and tools for Scopa and its family.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
err = Console(stderr=True, highlight=False)


@app.callback()
def _root() -> None:
    """Score sheet, rules engine and tools for Scopa and its family."""


class UserError(Exception):
    """Raised by commands for a message on stderr and exit 2."""


def read_source(source: str) -> str:
    """The text of a file, or of standard input for ``-``."""
    if source == "-":
        data = sys.stdin.buffer.read()
    else:
        path = Path(source)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise UserError(f"{source}: no such file") from None
        except IsADirectoryError:
            raise UserError(f"{source}: is a directory, not a match file") from None
        except OSError as error:
            raise UserError(f"{source}: cannot be read ({error.strerror})") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UserError(f"{source}: not UTF-8 text") from None


def load_match(source: str) -> Match:
    """Read and validate a match file; errors name the file and the place."""
    try:
        return parse_match(load_json(read_source(source)))
    except ScopaError as error:
        name = "<stdin>" if source == "-" else source
        raise UserError(f"{name}: {error}") from None


def write_json(data: Any) -> None:
    sys.stdout.write(dump_json(data) + "\n")


MatchFileArg = Annotated[
    str, typer.Argument(metavar="MATCH.json", help="A match file, or - for standard input.")
]


@app.command()
def score(
    match_file: Annotated[
        str, typer.Argument(metavar="MATCH.json", help="A match file, or - for stdin.")
    ],
) -> None:
    """Print the score sheet of a match file as JSON (FORMATS.md)."""
    write_json(sheet_to_json(score_match(load_match(match_file))))


def sheet_table(match: Match, sheet: Sheet) -> Group:
    """The sheet as a Rich table (a row per deal, a column per side, running totals) and a
    line with the outcome and the house rules."""
    title = escape(printable(match.name or " vs ".join(sheet.sides)))
    table = Table(title=title, show_footer=True, header_style="bold")
    table.add_column("Deal", footer="Total", justify="right")
    for i, side in enumerate(sheet.sides):
        table.add_column(escape(printable(side)), footer=str(sheet.totals[i]), justify="right")
    for row in sheet.deals:
        cells = [str(row.number)]
        for i, points in enumerate(row.points):
            text = f"+{points.total} [dim]→[/dim] {row.totals[i]}"
            cells.append(f"[dim]{text} (after the end)[/dim]" if row.after_end else text)
        table.add_row(*cells)
    caption = [escape(match.settings.describe())]
    if sheet.winner is not None:
        winner = escape(printable(sheet.winner))
        caption.insert(0, f"[bold green]{winner} wins at deal {sheet.decided_at}[/]")
    else:
        caption.insert(0, "in progress")
    return Group(table, Text.from_markup(" · ".join(caption)))


@app.command()
def sheet(
    match_file: Annotated[
        str, typer.Argument(metavar="MATCH.json", help="A match file, or - for stdin.")
    ],
) -> None:
    """Show the score sheet of a match file as a table."""
    match = load_match(match_file)
    Console().print(sheet_table(match, score_match(match)))


def _register_commands() -> None:
    from scopa.cli_store import register

    register(app)


_register_commands()


def _register_engine_commands() -> None:
    from scopa.cli_engine import register

    register(app)


_register_engine_commands()


def _register_web_commands() -> None:
    from scopa.web.cli import register

    register(app)


_register_web_commands()


def main(argv: list[str] | None = None) -> int:
    """The ``scopa`` entry point: runs a command, turns user errors into exit status 2."""
    try:
        app(args=argv, prog_name="scopa")
    except (UserError, ScopaError) as error:
        err.print(f"scopa: {error}", markup=False, soft_wrap=True)
        return Exit.BAD_INPUT
    except SystemExit as done:
        code = done.code
        return code if isinstance(code, int) else (Exit.OK if code is None else Exit.FAILURE)
    return Exit.OK


if __name__ == "__main__":
    sys.exit(main())
