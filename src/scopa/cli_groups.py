"""``scopa groups ...``: the groups of a hosted server (``scopa serve --hosted``).

``create`` prints one JSON object on standard output (docs/formats.md, "Hosted mode") and, when
standard error is a terminal (or with ``--qr``), the join link as a QR code there. The code is
shown once: only a hash of it is kept. ``list``, ``revoke`` (the group's code and every device
token of it), ``devices`` and ``revoke-device`` (one device), ``limits`` (a group's quotas and
its own limits on tables), ``language`` (the language its pages speak to a reader who chose
none).
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any
from urllib.parse import quote

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from scopa.cli_common import (
    JsonOption,
    UserNotFound,
    device_json,
    device_row,
    no_group,
    show_list,
    subcommands,
    when,
    write_json,
)
from scopa.cli_store import DbOption, opened
from scopa.errors import InputError
from scopa.i18n import N_, _
from scopa.names import printable
from scopa.store.records import Device, Group, Limits

groups_app = subcommands(
    "groups",
    help="The groups of a hosted server (`scopa serve --hosted`): each sees only its own "
    "matches; devices join one with its code.",
)

GroupArg = Annotated[int, typer.Argument(metavar="ID", help="The group's id (see `groups list`).")]


def _limit(flag: str, help: str, **given: Any) -> Any:
    """A limit's option: not shown with a default (none given: the limit stays as it is)."""
    return typer.Option(flag, help=help, show_default=False, **given)


MaxMatches = Annotated[
    int | None, _limit("--max-matches", help="How many matches the group may keep (1000).", min=0)
]
MaxDeals = Annotated[
    int | None, _limit("--max-deals", help="How many deals it may record (50000).", min=0)
]
MaxBytes = Annotated[
    int | None,
    _limit("--max-bytes", help="How many bytes of facts and history it may store (64 MiB).", min=0),
]
MaxTables = Annotated[
    str | None,
    _limit(
        "--max-tables",
        help="The group's own limit on tables played online at once, instead of the server's "
        "(`scopa serve --max-tables`); `default`: the server's again.",
        metavar="N",
    ),
]
MaxSeats = Annotated[
    str | None,
    _limit(
        "--max-seats",
        help="The group's own limit on people's seats at those tables (`scopa serve "
        "--max-seats`); `default`: the server's again.",
        metavar="N",
    ),
]
SERVER_DEFAULT = "default"
"""Said for a table limit: the server's again."""
NO_LANGUAGE = "none"
"""Said for a language: none of the group's own (the reader's browser decides)."""


def table_settings(max_tables: str | None, max_seats: str | None) -> dict[str, object]:
    """The table limits given on the command line, as the store's settings: a whole number,
    or ``default`` (``None``: the server's). Anything else is an error naming the option.

    >>> table_settings("3", "default"), table_settings(None, None)
    ({'max_tables': 3, 'max_seats': None}, {})
    """
    found: dict[str, object] = {}
    for name, text in (("max_tables", max_tables), ("max_seats", max_seats)):
        if text is None:
            continue
        clean = text.strip()
        if clean.lower() == SERVER_DEFAULT:
            found[name] = None
        elif clean.isascii() and clean.isdigit() and len(clean) <= 9:
            found[name] = int(clean)
        else:
            found[name] = clean  # refused by the store, which says why
    return found


def option_error(error: InputError) -> InputError:
    """The store's refusal of a setting, placed at its command-line option."""
    option = "--" + error.where.replace("_", "-")
    return InputError(option, error.template, code=error.code, **error.params)


def join_path(code: str) -> str:
    """The join page's address for a code (the server's address goes in front).

    >>> join_path("ABCD-EFGH-JKLM")
    '/join?code=ABCD-EFGH-JKLM'
    """
    return f"/join?code={quote(code)}"


def group_json(group: Group) -> dict[str, Any]:
    return {
        "group": group.id,
        "name": group.name,
        "active": group.active,
        "created_at": group.created_at.isoformat(),
        "revoked_at": None if group.revoked_at is None else group.revoked_at.isoformat(),
        "devices": group.devices,
        "matches": group.used_matches,
        "deals": group.used_deals,
        "bytes": group.used_bytes,
        "max_matches": group.max_matches,
        "max_deals": group.max_deals,
        "max_bytes": group.max_bytes,
        "language": group.language,
        "max_tables": group.max_tables,
        "max_seats": group.max_seats,
    }


@groups_app.command("create")
def create(
    name: Annotated[str, typer.Argument(help="The group's name (a table, a club, a family).")],
    db: DbOption = None,
    max_matches: MaxMatches = None,
    max_deals: MaxDeals = None,
    max_bytes: MaxBytes = None,
    language: Annotated[
        str | None,
        typer.Option(
            "--language",
            metavar="LANG",
            help="The language of the group's pages and answers when a reader has chosen none "
            "(it, es, en); without it, each reader's browser decides.",
            show_default=False,
        ),
    ] = None,
    max_tables: MaxTables = None,
    max_seats: MaxSeats = None,
    url: Annotated[
        str,
        typer.Option(
            "--url",
            help="The server's address as people reach it (https://sheet.example.org): the "
            "QR code then holds the whole join link.",
        ),
    ] = "",
    qr: Annotated[
        bool, typer.Option("--qr/--no-qr", help="Draw the QR code even when not on a terminal.")
    ] = False,
) -> None:
    """Make a group; print its id, name, join code and join link as one JSON object."""
    with opened(db) as store:
        limits = Limits(max_matches=max_matches, max_deals=max_deals, max_bytes=max_bytes)
        settings = table_settings(max_tables, max_seats)
        if language is not None:
            settings["language"] = language
        try:
            group, code = store.groups.create_group(name, limits, settings)
        except InputError as error:
            if error.where == "name":
                raise
            raise option_error(error) from None
    link = join_path(code)
    created = {"group": group.id, "name": group.name, "code": code, "join": link}
    sys.stdout.write(json.dumps(created, ensure_ascii=False) + "\n")
    sys.stdout.flush()
    if qr or sys.stderr.isatty():
        from scopa.web.serve.cli import qr_text

        full = url.rstrip("/") + link if url else link
        sys.stderr.write(qr_text(full))
        if not url:
            hint = _("(add --url https://your.server to put the whole link in the QR code)")
            sys.stderr.write(hint + "\n")


@groups_app.command("list")
def list_groups(
    db: DbOption = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="One JSON list instead of a table.")
    ] = False,
) -> None:
    """List the groups: devices, what each stores against its limits, revoked or not."""
    with opened(db, reads=True) as store:
        groups = store.groups.groups()
    if as_json:
        write_json([group_json(g) for g in groups])
        return
    table = Table(header_style="bold")
    columns = (_("Id"), _("Name"), _("Devices"), _("Matches"), _("Deals"), _("Bytes"))
    for column in (*columns, _("Language"), _("State")):
        table.add_column(column)
    for g in groups:
        state = _("active") if g.active else _("revoked {when}").format(when=when(g.revoked_at))
        table.add_row(
            str(g.id),
            escape(printable(g.name)),
            str(g.devices),
            f"{g.used_matches}/{g.max_matches}",
            f"{g.used_deals}/{g.max_deals}",
            f"{g.used_bytes}/{g.max_bytes}",
            g.language or "-",
            state,
        )
    none = _("No groups yet: `scopa groups create NAME` makes one.")
    Console().print(table if groups else none)


@groups_app.command("revoke")
def revoke(group_id: GroupArg, db: DbOption = None) -> None:
    """Revoke a group: its code stops working and every device of it is shut out (its
    matches stay in the database)."""
    with opened(db) as store:
        group = store.groups.revoke_group(group_id)
    if group is None:
        raise no_group(group_id)
    said = _("revoked group {id} ({name}) and its devices' tokens")
    print(said.format(id=group.id, name=printable(group.name)))


@groups_app.command("devices")
def devices(
    group_id: Annotated[
        int | None, typer.Argument(metavar="[ID]", help="Only this group's devices.")
    ] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """List the devices that joined a group: label, group, when, last use, state."""
    with opened(db, reads=True) as store:
        if group_id is not None and store.groups.group(group_id) is None:
            raise no_group(group_id)
        found = store.groups.group_devices(group_id)
    columns = (_("Id"), _("Device"), _("Group"), _("Joined"), _("Last use"), _("State"))
    empty = _("No devices have joined a group yet.")
    show_list(found, as_json, _group_device_json, columns, _group_device_row, empty)


def _group_device_json(found: tuple[Device, int]) -> dict[str, Any]:
    device, group = found
    return {**device_json(device), "group": group}


def _group_device_row(found: tuple[Device, int]) -> tuple[str, ...]:
    device, group = found
    number, label, *rest = device_row(device)
    return (number, label, str(group), *rest)


@groups_app.command("revoke-device")
def revoke_device(
    device_id: Annotated[int, typer.Argument(metavar="ID", help="The device (see `devices`).")],
    db: DbOption = None,
) -> None:
    """Shut one device out of its group (its id from `scopa groups devices`)."""
    with opened(db) as store:
        done = store.groups.revoke_group_device(device_id)
    if not done:
        raise UserNotFound(
            N_("{device_id}: no active device of a group with that id"),
            code="usage.no_active_device_group",
            device_id=device_id,
        )
    print(_("revoked device {id}").format(id=device_id))


@groups_app.command("limits")
def limits(
    group_id: GroupArg,
    db: DbOption = None,
    max_matches: MaxMatches = None,
    max_deals: MaxDeals = None,
    max_bytes: MaxBytes = None,
    max_tables: MaxTables = None,
    max_seats: MaxSeats = None,
) -> None:
    """Show a group's limits, or change those given; prints the group as JSON."""
    settings = table_settings(max_tables, max_seats)
    with opened(db) as store:
        wanted = Limits(max_matches=max_matches, max_deals=max_deals, max_bytes=max_bytes)
        try:
            wanted.given()
            group = store.groups.set_settings(group_id, settings) if settings else None
        except InputError as error:
            raise option_error(error) from None
        if group is not None or not settings:
            group = store.groups.set_limits(group_id, wanted)
    if group is None:
        raise no_group(group_id)
    write_json(group_json(group))


@groups_app.command("language")
def language(
    group_id: GroupArg,
    spoken: Annotated[
        str | None,
        typer.Argument(
            metavar="LANG",
            help="it, es or en: the language of the group's pages and answers when a reader "
            "has chosen none; `none`: each reader's browser decides.",
            show_default=False,
        ),
    ] = None,
    db: DbOption = None,
) -> None:
    """Show a group's language, or set it; prints the group as JSON. A reader's own choice
    (the menu's switch, `?lang=`) still wins."""
    with opened(db) as store:
        if spoken is None:
            group = store.groups.group(group_id)
        else:
            value = None if spoken.strip().lower() == NO_LANGUAGE else spoken
            try:
                group = store.groups.set_settings(group_id, {"language": value})
            except InputError as error:
                raise InputError("LANG", error.template, code=error.code, **error.params) from None
    if group is None:
        raise no_group(group_id)
    write_json(group_json(group))


def register(app: typer.Typer) -> None:
    """Add ``scopa groups`` to the main app."""
    app.add_typer(groups_app)
