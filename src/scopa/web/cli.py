"""``scopa serve``: the web score sheet on this computer (or another host and port)."""

from __future__ import annotations

from typing import Annotated

import typer

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


def register(app: typer.Typer) -> None:
    """Add ``serve`` to the ``scopa`` command line."""

    @app.command()
    def serve(
        host: Annotated[
            str, typer.Option(help="Address to listen on (127.0.0.1: this computer only).")
        ] = DEFAULT_HOST,
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
    ) -> None:
        """Run the score sheet in the browser (and the JSON API under /api)."""
        import uvicorn

        from scopa.store import MatchStore, database_url
        from scopa.web import create_app

        url = database_url(db)
        store = MatchStore.open(url)
        web = create_app(store)
        shown = f"[{host}]" if ":" in host else host
        if host in ("0.0.0.0", "::"):
            shown = "127.0.0.1"
        typer.echo(f"scopa: the score sheet is at http://{shown}:{port}/  (database: {safe(url)})")
        typer.echo("scopa: press Ctrl+C to stop")
        try:
            uvicorn.run(web, host=host, port=port, log_level="warning", access_log=False)
        finally:
            store.close()


def safe(url: str) -> str:
    """A database URL without its password, for printing.

    >>> safe("postgresql+psycopg://scopa:secret@127.0.0.1:5432/scopa")
    'postgresql+psycopg://scopa:***@127.0.0.1:5432/scopa'
    """
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)
