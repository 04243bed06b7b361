"""The command line's commands: thin commands that parse, call the core (or the application
layer for stored matches) and print. :mod:`scopa.cli` runs them (and answers ``--version``
without loading them).
"""

from __future__ import annotations

import os
from typing import Annotated

import typer
from rich.console import Console

import scopa
from scopa import (
    cli_access,
    cli_backup,
    cli_engine,
    cli_groups,
    cli_help,
    cli_play,
    cli_stats,
    cli_store,
    i18n,
)
from scopa.cli_common import Exit, MatchFileArg, UserError, err, load_match, sheet_table, write_json
from scopa.errors import ScopaError
from scopa.formats import sheet_to_json
from scopa.i18n import N_
from scopa.match import score_match
from scopa.names import printable
from scopa.web.serve import cli as web_cli

COMPLETION_HELP = (
    N_("Install completion for the current shell."),
    N_("Show completion for the current shell, to copy it or customize the installation."),
)
"""Typer's own help of ``--install-completion`` and ``--show-completion``, word for word, for
the catalogs (:func:`scopa.cli_help.translate` says every option's help in the reader's
language)."""

app = typer.Typer(
    name="scopa",
    help="Score sheet, rules engine and tools for Scopa and its family.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
)


def _version(shown: bool) -> None:
    if shown:
        print(f"scopa {scopa.__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            metavar="LANG",
            help="The language of the messages and tables: en, it or es (default: from "
            "LANGUAGE, LC_ALL, LC_MESSAGES or LANG).",
        ),
    ] = None,
) -> None:
    """Score sheet, rules engine and tools for Scopa and its family."""
    if lang is not None:
        i18n.use(i18n.choose(lang, i18n.from_environment(os.environ)))


@app.command()
def score(match_file: MatchFileArg) -> None:
    """Print the score sheet of a match file as JSON (docs/formats.md)."""
    write_json(sheet_to_json(score_match(load_match(match_file))))


@app.command()
def sheet(match_file: MatchFileArg) -> None:
    """Show the score sheet of a match file as a table."""
    match = load_match(match_file)
    Console().print(sheet_table(match, score_match(match)))


cli_store.register(app)
cli_access.register(app)
cli_backup.register(app)
cli_groups.register(app)
cli_engine.register(app)
cli_play.register(app)
cli_stats.register(app)
web_cli.register(app)


def run(args: list[str]) -> int:
    """Run a command: errors the user can fix end as a message on standard error, with exit
    status 2 for a command used wrongly (an option, an argument or input that is not valid)
    and 1 for one that could not do what was asked (not found, refused, the database in use
    or damaged). Stored text in the message is shown escaped (``\\x1b``), never as raw
    control characters."""
    try:
        command = cli_help.translate(typer.main.get_command(app))
        command.main(args=args, prog_name="scopa")
    except ScopaError as error:
        where = getattr(error, "where", "")
        text = f"{where}: {error.text()}" if where else error.text()
        err.print(f"scopa: {printable(text)}", markup=False, soft_wrap=True)
        return exit_status(error)
    except SystemExit as done:
        code = done.code
        return code if isinstance(code, int) else (Exit.OK if code is None else Exit.FAILURE)
    return Exit.OK


def exit_status(error: ScopaError) -> Exit:
    """2 for a usage error (bad input), 1 for a failure (not found is a failure).

    >>> from scopa.errors import MatchNotFoundError, InputError, VersionConflictError
    >>> exit_status(InputError("deals[0]", "bad")), exit_status(MatchNotFoundError("gone"))
    (<Exit.BAD_INPUT: 2>, <Exit.FAILURE: 1>)
    >>> exit_status(VersionConflictError("old"))
    <Exit.FAILURE: 1>
    """
    if isinstance(error, LookupError) or getattr(error, "failure", False):
        return Exit.FAILURE
    return Exit.BAD_INPUT if isinstance(error, (UserError, ValueError)) else Exit.FAILURE
