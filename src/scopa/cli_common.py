"""What the command line's modules share: exit codes, the user's error, reading a match file,
printing JSON and a sheet."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Sequence
from enum import IntEnum
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console, Group
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from scopa.application import title_of
from scopa.errors import ScopaError
from scopa.formats import dump_json, load_json, parse_match
from scopa.match import Match
from scopa.names import printable
from scopa.sheet import Sheet
from scopa.words import side_name


class Exit(IntEnum):
    OK = 0
    FAILURE = 1
    BAD_INPUT = 2


err = Console(stderr=True, highlight=False)


from scopa import i18n  # noqa: E402
from scopa.errors import UserError as UserError  # noqa: E402  (raised by the commands)
from scopa.errors import UserFailure as UserFailure  # noqa: E402
from scopa.errors import UserNotFound as UserNotFound  # noqa: E402
from scopa.i18n import N_, _  # noqa: E402
from scopa.system_errors import reason  # noqa: E402


def unreadable(source: object, error: OSError) -> UserError:
    """The refusal of a file the system would not let us read, its reason in the reader's
    language."""
    return UserError(
        N_("{source}: cannot be read ({strerror})"),
        code="usage.cannot_read",
        source=source,
        strerror=reason(error),
    )


def read_source(source: str) -> str:
    """The text of a file, or of standard input for ``-``."""
    if source == "-":
        data = sys.stdin.buffer.read()
    else:
        path = Path(source)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise UserNotFound(
                N_("{source}: no such file"), code="usage.no_such_file", source=source
            ) from None
        except IsADirectoryError:
            raise UserError(
                N_("{source}: is a directory, not a match file"),
                code="usage.directory_not_match_file",
                source=source,
            ) from None
        except OSError as error:
            raise unreadable(source, error) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UserError(
            N_("{source}: not UTF-8 text"), code="usage.not_utf_text", source=source
        ) from None


def load_match(source: str) -> Match:
    """Read and validate a match file; errors name the file and the place."""
    text = read_source(source)
    name = "<stdin>" if source == "-" else source
    data = load_json(text, name)  # a syntax error names the file as its place
    try:
        return parse_match(data)
    except ScopaError as error:
        raise UserError("{name}: {error}", code=error.code, name=name, error=error) from None


def parsed_match(data: Any, source: str | None = None) -> Match:
    """A match from its JSON data; an error names the file (when there is one) and the
    place."""
    try:
        return parse_match(data)
    except ScopaError as error:
        if source:
            raise UserError(
                "{source}: {error}", code=error.code, source=source, error=error
            ) from None
        raise UserError("{error}", code=error.code, error=error) from None


def sheet_table(match: Match, sheet: Sheet) -> Group:
    """The sheet as a Rich table (a row per deal, a column per side, running totals) and a
    line with the outcome and the house rules."""
    title = escape(printable(title_of(match.name, sheet.sides, match.made, match)))
    table = Table(title=title, show_footer=True, header_style="bold")
    table.add_column(_("Deal"), footer=_("Total"), justify="right")
    for i, side in enumerate(sheet.sides):
        shown = escape(printable(side_name(side, match)))
        table.add_column(shown, footer=str(sheet.totals[i]), justify="right")
    for row in sheet.deals:
        cells = [str(row.number)]
        for i, points in enumerate(row.points):
            text = f"+{points.total} [dim]→[/dim] {row.totals[i]}"
            cells.append(f"[dim]{text} ({_('after the end')})[/dim]" if row.after_end else text)
        table.add_row(*cells)
    caption = [escape(match.settings.describe())]
    if sheet.winner is not None:
        winner = escape(printable(side_name(sheet.winner, match)))
        said = _("{name} wins at deal {number}").format(name=winner, number=sheet.decided_at)
        if sheet.by_cappotto:
            said += " " + _("by a cappotto: all ten coins")
        caption.insert(0, f"[bold green]{said}[/]")
    else:
        caption.insert(0, _("in progress"))
    return Group(table, Text.from_markup(" · ".join(caption)))


def subcommands(name: str, help: str) -> typer.Typer:
    """The command ``scopa NAME``, whose subcommands are registered on it (alone, it prints
    its help)."""
    return typer.Typer(name=name, help=help, no_args_is_help=True)


def write_json(data: Any) -> None:
    sys.stdout.write(dump_json(data) + "\n")


JsonOption = Annotated[
    bool, typer.Option("--json", help="Print JSON (docs/formats.md) instead of a table.")
]


def moment(value: Any) -> str | None:
    """A stored moment as JSON writes it (ISO 8601, UTC), or None."""
    return None if value is None else str(value.isoformat())


def device_json(device: Any) -> dict[str, Any]:
    """A joined device as ``--json`` prints it."""
    return {
        "id": device.id,
        "label": device.label,
        "created_at": moment(device.created_at),
        "last_used_at": moment(device.last_used_at),
        "revoked_at": moment(device.revoked_at),
        "active": device.revoked_at is None,
    }


MatchFileArg = Annotated[
    str, typer.Argument(metavar="MATCH.json", help="A match file, or - for standard input.")
]


def when(moment: Any) -> str:
    """A stored moment in local time, to the minute."""
    if i18n.language() == "en":
        return str(moment.astimezone().strftime("%Y-%m-%d %H:%M"))
    from babel.dates import format_datetime

    return str(format_datetime(moment.astimezone(), "short", locale=i18n.language()))


def print_table(columns: Sequence[str], rows: Sequence[Sequence[str]], empty: str) -> None:
    """A table of ``rows`` under ``columns``, or ``empty`` when there are none."""
    table = Table(header_style="bold")
    for column in columns:
        table.add_column(column)
    for row in rows:
        table.add_row(*row)
    Console().print(table if rows else empty)


T = TypeVar("T")


def show_list(
    items: Iterable[T],
    as_json: bool,
    to_json: Callable[[T], Any],
    columns: Sequence[str],
    to_row: Callable[[T], Sequence[str]],
    empty: str,
) -> None:
    """A listing command's answer: ``items`` as one JSON list (``--json``: each as ``to_json``
    writes it) or as a table under ``columns`` (a row each as ``to_row`` writes it; ``empty``
    when there are none)."""
    if as_json:
        write_json([to_json(item) for item in items])
    else:
        print_table(columns, [to_row(item) for item in items], empty)


def device_row(device: Any) -> tuple[str, str, str, str, str]:
    """A device that joined (with an access code or into a group): id, label, when it
    joined, its last use, active or revoked."""
    state = (
        _("active")
        if device.revoked_at is None
        else _("revoked {when}").format(when=when(device.revoked_at))
    )
    label = escape(printable(device.label))
    return (str(device.id), label, when(device.created_at), when(device.last_used_at), state)


def either(names: Sequence[str]) -> str:
    """Names as a choice: ``scopa, scopone or escoba`` (for help texts built from the
    registries, so a variant registered once shows in every command's help)."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def no_group(group_id: int) -> UserError:
    """The user's error for a group id that no group has."""
    return UserNotFound(
        N_("{group_id}: no group with that id (see `scopa groups list`)"),
        code="usage.no_group_id",
        group_id=group_id,
    )
