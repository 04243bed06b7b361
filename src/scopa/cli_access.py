"""``scopa access ...``: the codes that let devices join over the network, and the devices
that joined (``scopa serve --lan``)."""

from __future__ import annotations

from collections.abc import Sized
from typing import Annotated

import typer
from rich.markup import escape

from scopa.cli_common import UserError, device_row, print_table, when
from scopa.cli_store import DbOption, opened
from scopa.names import printable

access_app = typer.Typer(
    name="access",
    help="Access codes for devices joining over the network (`scopa serve --lan`).",
    no_args_is_help=True,
)


@access_app.command("new")
def access_new(
    label: Annotated[str, typer.Option(help="A note to tell codes apart.")] = "",
    hours: Annotated[
        float, typer.Option(min=0.01, help="How long the code lets new devices join.")
    ] = 12.0,
    db: DbOption = None,
) -> None:
    """Make a new access code (shown once)."""
    with opened(db) as store:
        code, record = store.new_access_code(label, hours=hours)
    print(f"{code}  (id {record.id})")


def _say_revoked(revoked: Sized, noun: str, missing: str) -> None:
    """``revoked 2 devices``; the user's error ``missing`` when nothing was revoked."""
    if not revoked:
        raise UserError(missing)
    print(f"revoked {len(revoked)} {noun}{'' if len(revoked) == 1 else 's'}")


@access_app.command("list")
def access_list(db: DbOption = None) -> None:
    """List the access codes (only their first letters are kept)."""
    with opened(db) as store:
        codes = store.access_codes()
    rows = []
    for c in codes:
        state = f"active until {when(c.expires_at)}" if c.expires_at else "active"
        if c.revoked_at is not None:
            state = f"revoked {when(c.revoked_at)}"
        elif not c.active:
            state = f"expired {when(c.expires_at)}"
        label = escape(printable(c.label))
        rows.append((str(c.id), f"{c.hint}··-····", label, when(c.created_at), state))
    print_table(("Id", "Code", "Label", "Made", "State"), rows, "No access codes yet.")


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
    missing = f"{which}: no active access code matches"
    if devices and not codes:
        _say_revoked(devices, "device", missing)
    else:
        _say_revoked(codes, "access code", missing)


@access_app.command("devices")
def access_devices(db: DbOption = None) -> None:
    """List the devices that joined with a code: label, when, last use, state."""
    with opened(db) as store:
        devices = store.devices()
    rows = [device_row(d) for d in devices]
    columns = ("Id", "Device", "Joined", "Last use", "State")
    print_table(columns, rows, "No devices have joined yet.")


@access_app.command("revoke-device")
def access_revoke_device(
    which: Annotated[str, typer.Argument(metavar="ID|all", help="The device (see `devices`).")],
    db: DbOption = None,
) -> None:
    """Shut one device out (its id from `scopa access devices`), or `all` of them."""
    with opened(db) as store:
        revoked = store.revoke_device(which)
    _say_revoked(revoked, "device", f"{which}: no active device with that id")


def register(app: typer.Typer) -> None:
    """Add these commands to the main app."""
    app.add_typer(access_app)
