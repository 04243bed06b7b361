"""``scopa serve``: the web score sheet on this computer (or another host and port)."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Annotated

import typer

from scopa.i18n import _, ngettext
from scopa.store.records import MOST_CODE_HOURS
from scopa.system_errors import reason

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
PER_CLIENT = 64
"""Connections per client address and worker (``scopa.web.serve.server.Limits``' default)."""


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
        hosted: Annotated[
            bool,
            typer.Option(
                "--hosted",
                help="Serve many groups (tables, clubs, families), each seeing only its own "
                "matches: devices join with a group's code (`scopa groups create NAME`) and "
                "every request needs its device token.",
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
        code_hours: Annotated[
            float,
            typer.Option(
                "--code-hours",
                min=0.01,
                max=MOST_CODE_HOURS,
                help="With --lan: how long the printed access code lets new devices join "
                "(devices that joined keep their own token).",
            ),
        ] = 12.0,
        allowed_host: Annotated[
            list[str] | None,
            typer.Option(
                "--allowed-host",
                metavar="NAME",
                help="A host name this server answers to, besides IP addresses and localhost "
                "(for a set-up behind a proxy or a DNS name; repeatable). Requests naming "
                "any other host are refused (DNS rebinding).",
                show_default=False,
            ),
        ] = None,
        workers: Annotated[
            int,
            typer.Option(
                "--workers",
                min=1,
                max=64,
                help="Server processes on one database (PostgreSQL or SQLite); live updates "
                "reach every sheet whichever process made the change.",
            ),
        ] = 1,
        max_tables: Annotated[
            int | None,
            typer.Option(
                "--max-tables",
                min=1,
                max=100_000,
                help="Tables in play at once per group (the whole server when not hosted; "
                "default 50, or $SCOPA_MAX_TABLES).",
                show_default=False,
            ),
        ] = None,
        max_seats: Annotated[
            int | None,
            typer.Option(
                "--max-seats",
                min=1,
                max=100_000,
                help="People's seats at those tables per group (default 150, or $SCOPA_MAX_SEATS).",
                show_default=False,
            ),
        ] = None,
        max_per_client: Annotated[
            int,
            typer.Option(
                "--max-per-client",
                min=1,
                help="Open connections one client address may hold, per worker (behind a "
                "proxy on this machine every connection comes from it: raise this to the "
                "number of open sheets expected).",
            ),
        ] = PER_CLIENT,
        proxy: Annotated[
            list[str] | None,
            typer.Option(
                "--proxy",
                metavar="ADDRESS",
                help="The address of a proxy in front (e.g. 127.0.0.1 for Caddy on this "
                "machine; repeatable): its X-Forwarded-For names the client, for the rate "
                "limits. From any other address the header is ignored.",
                show_default=False,
            ),
        ] = None,
        insecure_open: Annotated[
            bool,
            typer.Option(
                "--insecure-open",
                help="Serve on a network address (--host) with no access code at all: "
                "anyone who reaches it reads and changes every match. Only for a network "
                "where that is wanted; --lan or --hosted otherwise.",
            ),
        ] = False,
    ) -> None:
        """Run the score sheet in the browser (and the JSON API under /api)."""

        from scopa.store import MatchStore, database_url
        from scopa.web import create_app
        from scopa.web.serve.server import (
            Limits,
            Server,
            raise_open_file_limit,
            settle_collector,
            uvicorn_config,
        )
        from scopa.web.serve.settings import WebSettings
        from scopa.web.serve.workers import bind

        if (certfile is None) != (keyfile is None):
            typer.echo("scopa: " + _("HTTPS needs both --certfile and --keyfile"), err=True)
            raise typer.Exit(2)
        if certfile is not None and keyfile is not None:
            unusable = tls_refusal(certfile, keyfile)
            if unusable:
                typer.echo("scopa: " + unusable, err=True)
                raise typer.Exit(2)
        if hosted and lan:
            typer.echo("scopa: " + _("--hosted has a code per group: leave out --lan"), err=True)
            raise typer.Exit(2)
        scheme = "https" if certfile else "http"
        proxies = tuple(p.strip() for p in proxy or () if p.strip())
        listen = host or (LAN_HOST if lan else DEFAULT_HOST)
        if not (lan or hosted) and not loopback(listen):
            if not insecure_open:
                refused = _(
                    "--host {address}: other devices could reach this address, and without "
                    "--lan or --hosted anyone who can would read and change every match with "
                    "no code. Add --lan (devices join with a code) or --hosted (groups with "
                    "their own codes); --insecure-open serves it open all the same."
                )
                typer.echo("scopa: " + refused.format(address=listen), err=True)
                raise typer.Exit(2)
            warning = _(
                "WARNING: listening on {address} without --lan or --hosted: anyone who can "
                "reach this address can read and change every match, with no code. Use --lan "
                "(devices join with a code) or --hosted, or keep the default 127.0.0.1."
            )
            typer.echo("scopa: " + warning.format(address=listen), err=True)
        hosts = tuple(h.strip().lower() for h in allowed_host or () if h.strip())
        url = database_url(db)
        try:
            settings = WebSettings.from_env(
                database_url=url,
                lan=lan,
                allowed_hosts=hosts,
                hosted=hosted,
                max_tables=max_tables,
                max_seats=max_seats,
            )
        except ValueError as error:
            typer.echo(f"scopa: {error}", err=True)
            raise typer.Exit(2) from None
        raise_open_file_limit()
        # Bound before anything is said, so a port in use is the one thing said (and the
        # parent's socket is the workers' socket: ``::`` then takes IPv4 too, where uvicorn's
        # own socket would be IPv6 only, while the join link is IPv4).
        try:
            sock = bind(listen, port)
        except OSError as error:  # the port is taken, or not ours to listen on
            typer.echo("scopa: " + cannot_listen(listen, port, error), err=True)
            raise typer.Exit(1) from None
        try:
            store = MatchStore.open(url)
        except BaseException:
            sock.close()
            raise
        shown = local_address(listen)
        at = _("the score sheet is at {url}  (database: {database})")
        typer.echo("scopa: " + at.format(url=f"{scheme}://{shown}:{port}/", database=store.url))
        if hosted:
            hosted_line = _(
                "hosted: devices join a group at /join with its code "
                "(`scopa groups create NAME` makes one; `scopa groups list` lists them)"
            )
            typer.echo("scopa: " + hosted_line)
        if lan:
            code, _expires = store.new_access_code(
                "scopa serve --lan", kind="serve", hours=code_hours
            )
            announce_lan(listen, port, code, scheme)
        tls = (str(certfile), str(keyfile)) if certfile and keyfile else (None, None)
        if workers > 1:
            from scopa.web.serve.workers import Plan, Supervisor

            processes = ngettext("{count} worker process", "{count} worker processes", workers)
            typer.echo("scopa: " + processes.format(count=workers))
            typer.echo("scopa: " + _("press Ctrl+C to stop"))
            plan = Plan(
                settings,
                listen,
                port,
                certfile=tls[0],
                keyfile=tls[1],
                limits=Limits(per_client=max_per_client, proxies=proxies),
            )
            try:
                Supervisor(plan, workers).run(sock)
            finally:
                store.close()
            return
        try:
            web = create_app(store, settings)
        except BaseException:
            sock.close()
            store.close()
            raise
        typer.echo("scopa: " + _("press Ctrl+C to stop"))
        settle_collector()
        try:
            limits = Limits(per_client=max_per_client, proxies=proxies)
            with sock:
                Server(uvicorn_config(web, listen, port, limits, *tls), web).run(sockets=[sock])
        finally:
            store.close()


LAN_HOST = "0.0.0.0"


def cannot_listen(listen: str, port: int, error: OSError) -> str:
    """Why the server cannot start on ``listen:port``, in the language in force (the
    system's reason after it: a common one in the reader's words, else as it says it)."""
    said = _("cannot listen on {address}: {error}")
    return said.format(address=f"{listen}:{port}", error=reason(error))


def loopback(listen: str) -> bool:
    """Whether ``listen`` is reached from this computer only.

    >>> loopback("127.0.0.1"), loopback("::1"), loopback("localhost"), loopback("0.0.0.0")
    (True, True, True, False)
    """
    import ipaddress

    if listen == "localhost":
        return True
    try:
        return ipaddress.ip_address(listen.strip("[]")).is_loopback
    except ValueError:
        return False


def local_address(listen: str) -> str:
    """Where this computer reaches a server listening on ``listen``, as a URL's host.

    >>> local_address("0.0.0.0"), local_address("::"), local_address("fe80::1")
    ('127.0.0.1', '[::1]', '[fe80::1]')
    """
    if listen == "0.0.0.0":
        return "127.0.0.1"
    if listen in ("::", "[::]"):
        return "[::1]"
    return f"[{listen}]" if ":" in listen and not listen.startswith("[") else listen


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
        hosts = lan_addresses() or ["<" + _("this computer's address") + ">"]
    else:
        hosts = [f"[{listen}]" if ":" in listen else listen]
    links = [f"{scheme}://{h}:{port}/join?code={quote(code)}" for h in hosts]
    said = _("on the network, the access code is {code}; phones join at:")
    typer.echo("scopa: " + said.format(code=code))
    for link in links:
        typer.echo(f"  {link}")
    if "://<" not in links[0]:
        typer.echo(qr_text(links[0]))
    until = _(
        "the code lets new devices join until it expires or the next `serve --lan`; "
        "`scopa access devices` lists the devices that joined, "
        "`scopa access revoke-device ID` shuts one out (`scopa access revoke all`: everything)"
    )
    typer.echo("scopa: " + until)


def qr_text(data: str) -> str:
    """A QR code drawn with block characters, for a terminal."""
    import io

    import qrcode

    code = qrcode.QRCode(border=2, error_correction=qrcode.constants.ERROR_CORRECT_L)
    code.add_data(data)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue()


def tls_refusal(certfile: Path, keyfile: Path) -> str:
    """Why the certificate and its key cannot serve HTTPS (not PEM, not a pair, a key with a
    passphrase), said in the reader's language; "" when they load. Checked before the port
    is bound, so that the server does not start to fail in its workers."""
    import ssl

    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        context.load_cert_chain(certfile, keyfile, password=lambda: b"")
    except (ssl.SSLError, OSError, ValueError) as error:
        reason = getattr(error, "reason", None) or getattr(error, "strerror", None) or error
        said = _(
            "{certfile} and {keyfile}: not a certificate and its private key in PEM, with no "
            "passphrase ({reason})"
        )
        return said.format(certfile=certfile, keyfile=keyfile, reason=reason)
    return ""
