"""The command line's commands: thin commands that parse, call the core (or the application
layer for stored matches) and print. :mod:`scopa.cli` runs them (and answers ``--version``
without loading them).
"""

from __future__ import annotations

import errno
import importlib
import os
import sys
from typing import TYPE_CHECKING, Annotated

import typer
from typer import _click as click
from typer.core import TyperCommand, TyperGroup

import scopa
from scopa import cli_help, i18n
from scopa.errors import ScopaError
from scopa.i18n import N_, _

if TYPE_CHECKING:
    from scopa.cli_common import Exit

COMMANDS: dict[str, tuple[str, str]] = {
    "score": (
        "scopa.cli_sheet",
        N_("Print the score sheet of a match file as JSON (docs/formats.md)."),
    ),
    "sheet": ("scopa.cli_sheet", N_("Show the score sheet of a match file as a table.")),
    "backup": (
        "scopa.cli_backup",
        N_("Write a consistent copy of the database (SQLite online backup), even while serving."),
    ),
    "restore": (
        "scopa.cli_backup",
        N_("Bring back a backup: it replaces the database (keep a backup of that one first)."),
    ),
    "captures": (
        "scopa.cli_engine",
        N_("List the legal captures of CARD played onto TABLE, one per line."),
    ),
    "simulate": (
        "scopa.cli_engine",
        N_("Play many deals (or matches) between engine players and print statistics."),
    ),
    "play": (
        "scopa.cli_play",
        N_(
            "Play a match against the computer (keys: 1-9 play a card, h hint, Enter next deal,"
            "\nq quit)."
        ),
    ),
    "stats": (
        "scopa.cli_stats",
        N_(
            "The players' figures: matches, wins, points and categories per deal, opponents and"
            "\npartners."
        ),
    ),
    "serve": (
        "scopa.web.serve.cli",
        N_("Run the score sheet in the browser (and the JSON API under /api)."),
    ),
    "matches": (
        "scopa.cli_store",
        N_("Manage the stored matches (the same database as `scopa serve`)."),
    ),
    "access": (
        "scopa.cli_access",
        N_("Access codes for devices joining over the network (`scopa serve --lan`)."),
    ),
    "groups": (
        "scopa.cli_groups",
        N_(
            "The groups of a hosted server (`scopa serve --hosted`): each sees only its own "
            "matches; devices join one with its code."
        ),
    ),
    "players": (
        "scopa.cli_stats",
        N_("The players as people: rename, merge, remove figures, and undo (logged)."),
    ),
}
"""The commands in the order ``scopa --help`` lists them: the module that registers each
(its ``register(app)``) and its help, word for word as its docstring or ``help=`` says
(tests/test_cli_lazy.py keeps them in step). ``scopa --help`` is drawn from this table alone,
so it imports none of the commands' modules (they load the whole toolkit: 0.4 s of CPU); a
command's module is imported when the command runs or its own help is shown."""


class LazyGroup(TyperGroup):
    """The ``scopa`` group: its commands loaded from :data:`COMMANDS` when asked for, its
    help listing them from the table."""

    listing = False

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        if cmd_name in self.commands:
            return self.commands[cmd_name]
        if self.listing:
            return TyperCommand(cmd_name, help=_(COMMANDS[cmd_name][1]))
        return self.load(cmd_name)

    def load(self, name: str) -> click.Command:
        """The command ``name``, its module imported and its help in the language in force
        (with the other commands the module registers)."""
        module = importlib.import_module(COMMANDS[name][0])
        scratch = typer.Typer()
        module.register(scratch)
        if len(scratch.registered_commands) + len(scratch.registered_groups) == 1:
            scratch.callback()(lambda: None)  # a lone command still comes as a group's
        built = typer.main.get_command(scratch)
        for found_name, found in built.commands.items():  # type: ignore[attr-defined]
            self.commands[found_name] = cli_help.translate(found)
        return self.commands[name]

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        self.listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self.listing = False


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
    cls=LazyGroup,
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
        if i18n.normal(lang) is None:
            from scopa.cli_common import UserError

            raise UserError(
                N_("unknown language {value!r} ({languages})"),
                code="usage.unknown_language",
                value=lang,
                languages=", ".join(i18n.LANGUAGES),
            )
        i18n.use(lang)


def run(args: list[str]) -> int:
    """Run a command: errors the user can fix end as a message on standard error, with exit
    status 2 for a command used wrongly (an option, an argument or input that is not valid)
    and 1 for one that could not do what was asked (not found, refused, the database in use
    or damaged). Stored text in the message is shown escaped (``\\x1b``), never as raw
    control characters."""
    if not args or "--help" in args:  # a process that draws help and ends
        cli_help.defer_rich_modules()
    try:
        command = cli_help.translate(typer.main.get_command(app))
        try:
            command.main(args=args, prog_name="scopa")
        finally:
            sys.stdout.flush()  # what is left to write fails here, not as Python ends
    except OSError as error:
        if error.errno not in OUTPUT_ERRORS:
            raise
        return output_failed(error)
    except ScopaError as error:
        from scopa.cli_common import err
        from scopa.names import printable

        where = getattr(error, "where", "")
        text = f"{where}: {error.text()}" if where else error.text()
        err.print(f"scopa: {printable(text)}", markup=False, soft_wrap=True)
        return exit_status(error)
    except SystemExit as done:
        code = done.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    return 0


OUTPUT_ERRORS = {
    errno.EPIPE: "",
    errno.ENOSPC: N_("no space left on the device"),
    errno.EDQUOT: N_("the disk quota is used up"),
    errno.EFBIG: N_("the file is too large"),
    errno.EIO: N_("an input/output error"),
}
"""The errors of writing the output that end a command with a message (a closed pipe, as
``scopa ... | head -1`` makes, ends it quietly, as Unix tools do)."""


def output_failed(error: OSError) -> int:
    """A command whose output could not be written: said in a line on standard error (a
    closed pipe says nothing), exit status 1. The output is thrown away from now on, so that
    Python does not fail again writing what is left of it as it ends."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # not a file (a test's capture)
        pass
    else:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fd)
        os.close(devnull)
    reason = OUTPUT_ERRORS.get(error.errno or 0, "")
    if reason:
        from scopa.cli_common import err

        said = _("cannot write the output: {reason}").format(reason=_(reason))
        err.print(f"scopa: {said}", markup=False, soft_wrap=True)
    return 1


def exit_status(error: ScopaError) -> Exit:
    """2 for a usage error (bad input), 1 for a failure (not found is a failure).

    >>> from scopa.errors import MatchNotFoundError, InputError, VersionConflictError
    >>> exit_status(InputError("deals[0]", "bad")), exit_status(MatchNotFoundError("gone"))
    (<Exit.BAD_INPUT: 2>, <Exit.FAILURE: 1>)
    >>> exit_status(VersionConflictError("old"))
    <Exit.FAILURE: 1>
    """
    from scopa.cli_common import Exit, UserError

    if isinstance(error, LookupError) or getattr(error, "failure", False):
        return Exit.FAILURE
    return Exit.BAD_INPUT if isinstance(error, (UserError, ValueError)) else Exit.FAILURE
