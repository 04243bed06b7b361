"""``scopa access ...``: the codes that let devices join over the network, and the devices
that joined (``scopa serve --lan``)."""

from __future__ import annotations

from collections.abc import Sized
from typing import Annotated, Any

import typer
from rich.markup import escape

from scopa.cli_common import (
    JsonOption,
    UserError,
    UserNotFound,
    device_json,
    device_row,
    moment,
    show_list,
    subcommands,
    when,
)
from scopa.cli_store import DbOption, opened
from scopa.i18n import N_, _, ngettext
from scopa.names import printable
from scopa.store.records import MOST_CODE_HOURS

access_app = subcommands(
    "access", help="Access codes for devices joining over the network (`scopa serve --lan`)."
)


@access_app.command("new")
def access_new(
    label: Annotated[str, typer.Option(help="A note to tell codes apart.")] = "",
    hours: Annotated[
        float,
        typer.Option(
            min=0.01, max=MOST_CODE_HOURS, help="How long the code lets new devices join."
        ),
    ] = 12.0,
    db: DbOption = None,
) -> None:
    """Make a new access code (shown once)."""
    with opened(db) as store:
        code, record = store.new_access_code(label, hours=hours)
    print(f"{code}  (" + _("id {id}").format(id=record.id) + ")")


def _say_revoked(revoked: Sized, devices: bool, missing: UserError) -> None:
    """``revoked 2 devices`` (or access codes); the user's error ``missing`` when nothing
    was revoked."""
    if not revoked:
        raise missing
    n = len(revoked)
    said = (
        ngettext("revoked {n} device", "revoked {n} devices", n)
        if devices
        else ngettext("revoked {n} access code", "revoked {n} access codes", n)
    )
    print(said.format(n=n))


def code_json(code: Any) -> dict[str, Any]:
    """An access code as ``scopa access list --json`` writes it."""
    return {
        "id": code.id,
        "hint": code.hint,
        "label": code.label,
        "created_at": moment(code.created_at),
        "expires_at": moment(code.expires_at),
        "revoked_at": moment(code.revoked_at),
        "active": code.active,
    }


def code_row(code: Any) -> tuple[str, str, str, str, str]:
    """An access code in the table: id, first letters, label, when made, state."""
    state = _("active until {when}").format(when=when(code.expires_at)) if code.expires_at else ""
    state = state or _("active")
    if code.revoked_at is not None:
        state = _("revoked {when}").format(when=when(code.revoked_at))
    elif not code.active:
        state = _("expired {when}").format(when=when(code.expires_at))
    label = escape(printable(code.label))
    return (str(code.id), f"{code.hint}··-····", label, when(code.created_at), state)


@access_app.command("list")
def access_list(db: DbOption = None, as_json: JsonOption = False) -> None:
    """List the access codes (only their first letters are kept)."""
    with opened(db, reads=True) as store:
        codes = store.access_codes()
    columns = (_("Id"), _("Code"), _("Label"), _("Made"), _("State"))
    show_list(codes, as_json, code_json, columns, code_row, _("No access codes yet."))


@access_app.command("revoke")
def access_revoke(
    which: Annotated[str, typer.Argument(metavar="CODE|ID|all", help="What to revoke.")],
    db: DbOption = None,
) -> None:
    """Revoke an access code (the code, its id, or `all`: every code and every device)."""
    with opened(db) as store:
        # `all` shuts the devices out too: revoked first, so that they are counted
        devices = store.revoke_device("all") if which == "all" else []
        codes = store.revoke_access_code(which)
    missing = UserNotFound(
        N_("{which}: no active access code matches"), code="usage.no_access_code", which=which
    )
    if devices and not codes:
        _say_revoked(devices, True, missing)
    else:
        _say_revoked(codes, False, missing)


@access_app.command("devices")
def access_devices(db: DbOption = None, as_json: JsonOption = False) -> None:
    """List the devices that joined with a code: label, when, last use, state."""
    with opened(db, reads=True) as store:
        devices = store.devices()
    columns = (_("Id"), _("Device"), _("Joined"), _("Last use"), _("State"))
    show_list(devices, as_json, device_json, columns, device_row, _("No devices have joined yet."))


@access_app.command("revoke-device")
def access_revoke_device(
    which: Annotated[str, typer.Argument(metavar="ID|all", help="The device (see `devices`).")],
    db: DbOption = None,
) -> None:
    """Shut one device out (its id from `scopa access devices`), or `all` of them."""
    with opened(db) as store:
        revoked = store.revoke_device(which)
    missing = UserNotFound(
        N_("{which}: no active device with that id"), code="usage.no_device", which=which
    )
    _say_revoked(revoked, True, missing)


def register(app: typer.Typer) -> None:
    """Add these commands to the main app."""
    app.add_typer(access_app)
