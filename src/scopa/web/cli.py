"""``scopa serve``: the web score sheet on this computer (or another host and port)."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Annotated

import typer

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


def register(app: typer.Typer) -> None:
    """Add ``serve`` to the ``scopa`` command line."""

    @app.command()
    def serve(
        host: Annotated[
            str | None,
            typer.Option(
                help="Address to listen on (default 127.0.0.1: this computer only; "
                "0.0.0.0 with --lan).",
                show_default=False,
            ),
        ] = None,
        port: Annotated[int, typer.Option(help="Port to listen on.", min=1, max=65535)] = (
            DEFAULT_PORT
        ),
        db: Annotated[
            str | None,
            typer.Option(
                "--db",
                envvar="SCOPA_DATABASE_URL",
                help="Database: a SQLite file or a URL such as postgresql+psycopg://... "
                "(default: a SQLite file in the user's data folder).",
                show_default=False,
            ),
        ] = None,
        lan: Annotated[
            bool,
            typer.Option(
                "--lan",
                help="Listen on the network for the phones at the table: prints a join "
                "address with a new access code (and its QR code); devices without a code "
                "get only the join page.",
            ),
        ] = False,
        certfile: Annotated[
            Path | None,
            typer.Option(
                "--certfile",
                help="Serve HTTPS with this certificate (PEM; with --keyfile). Phones run "
                "the offline sheet only over HTTPS (or on localhost).",
                exists=True,
                dir_okay=False,
                show_default=False,
            ),
        ] = None,
        keyfile: Annotated[
            Path | None,
            typer.Option(
                "--keyfile",
                help="The certificate's private key (PEM; with --certfile).",
                exists=True,
                dir_okay=False,
                show_default=False,
            ),
        ] = None,
    ) -> None:
        """Run the score sheet in the browser (and the JSON API under /api)."""
        import gc

        import uvicorn

        from scopa.store import MatchStore, database_url
        from scopa.web import create_app

        if (certfile is None) != (keyfile is None):
            raise typer.BadParameter("HTTPS needs both --certfile and --keyfile")
        scheme = "https" if certfile else "http"
        listen = host or (LAN_HOST if lan else DEFAULT_HOST)
        url = database_url(db)
        store = MatchStore.open(url)
        web = create_app(store, lan=lan)
        shown = f"[{listen}]" if ":" in listen else listen
        if listen in ("0.0.0.0", "::"):
            shown = "127.0.0.1"
        typer.echo(
            f"scopa: the score sheet is at {scheme}://{shown}:{port}/  (database: {store.url})"
        )
        if lan:
            code, _ = store.new_access_code("scopa serve --lan")
            announce_lan(listen, port, code, scheme)
        typer.echo("scopa: press Ctrl+C to stop")
        # What is loaded now lives as long as the server: keep it out of the collector's
        # full passes, which otherwise stall a request now and then for tens of ms.
        gc.collect()
        gc.freeze()
        try:
            uvicorn.run(
                web,
                host=listen,
                port=port,
                log_level="warning",
                access_log=False,
                ssl_certfile=str(certfile) if certfile else None,
                ssl_keyfile=str(keyfile) if keyfile else None,
            )
        finally:
            store.close()


LAN_HOST = "0.0.0.0"


def lan_addresses() -> list[str]:
    """This computer's network (non-loopback) IPv4 addresses: by interface where the system
    tells (Linux), else by what its host name resolves to."""
    import ipaddress
    import socket

    found: list[str] = []
    try:
        import fcntl
        import struct

        for _, name in socket.if_nameindex():
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
                try:
                    packed = fcntl.ioctl(
                        probe.fileno(), 0x8915, struct.pack("256s", name.encode()[:15])
                    )  # SIOCGIFADDR
                except OSError:
                    continue
                found.append(socket.inet_ntoa(packed[20:24]))
    except (ImportError, OSError):
        pass
    with contextlib.suppress(OSError):
        found += [
            str(i[4][0]) for i in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
        ]
    unique: list[str] = []
    for address in found:
        if not ipaddress.ip_address(address).is_loopback and address not in unique:
            unique.append(address)
    return unique


def announce_lan(listen: str, port: int, code: str, scheme: str = "http") -> None:
    """Print where the phones join: the address with the code, and its QR code."""
    from urllib.parse import quote

    if listen in ("0.0.0.0", "::"):
        hosts = lan_addresses() or ["<this computer's address>"]
    else:
        hosts = [f"[{listen}]" if ":" in listen else listen]
    links = [f"{scheme}://{h}:{port}/join?code={quote(code)}" for h in hosts]
    typer.echo(f"scopa: on the network, the access code is {code}; phones join at:")
    for link in links:
        typer.echo(f"  {link}")
    if "://<" not in links[0]:
        typer.echo(qr_text(links[0]))
    typer.echo(
        "scopa: revoke a code with `scopa access revoke CODE` (or `all`); "
        "`scopa access list` shows them all"
    )


def qr_text(data: str) -> str:
    """A QR code drawn with block characters, for a terminal."""
    import io

    import qrcode

    code = qrcode.QRCode(border=2, error_correction=qrcode.constants.ERROR_CORRECT_L)
    code.add_data(data)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue()
