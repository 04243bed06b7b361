"""Commands over the stored matches: ``scopa matches ...``, ``scopa backup``, ``scopa restore``.

They use the same database as ``scopa serve`` (``--db``, else ``$SCOPA_DATABASE_URL``, else
the SQLite file in the user's data folder).
"""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from scopa import variants
from scopa.application import MatchService
from scopa.cli_common import MatchFileArg, UserError, load_match, read_source, sheet_table
from scopa.errors import ScopaError
from scopa.formats import load_json, parse_deal, parse_match
from scopa.names import printable

if TYPE_CHECKING:
    from scopa.store import Store

matches_app = typer.Typer(
    name="matches",
    help="Manage the stored matches (the same database as `scopa serve`).",
    no_args_is_help=True,
)

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        help="Database: a SQLite file or a URL (default: $SCOPA_DATABASE_URL, else the "
        "user's data folder).",
        show_default=False,
    ),
]
IdArg = Annotated[int, typer.Argument(metavar="ID", help="The match's id (see `matches list`).")]


@contextmanager
def opened(db: str | None) -> Iterator[Store]:
    """The SQL store at ``db`` (imported here: the database layer is not loaded for
    `scopa score`)."""
    from scopa.store import MatchStore, database_url

    store = MatchStore.open(database_url(db))
    try:
        yield store
    finally:
        store.close()


@contextmanager
def service_on(db: str | None) -> Iterator[MatchService]:
    """The use cases over the stored matches."""
    with opened(db) as store:
        yield MatchService(store)


@matches_app.command("list")
def list_matches(db: DbOption = None) -> None:
    """List the stored matches, most recently changed first."""
    with service_on(db) as service:
        summaries = service.list_matches()
    table = Table(header_style="bold")
    for column in ("Id", "Match", "Deals", "Score", "Status", "Changed"):
        table.add_column(column, justify="right" if column in ("Id", "Deals") else "left")
    for s in summaries:
        score = " · ".join(
            f"{escape(printable(side))} {total}"
            for side, total in zip(s.sides, s.totals, strict=True)
        )
        status = f"[green]{escape(printable(s.winner))} won[/]" if s.winner else "in progress"
        changed = s.updated_at.astimezone().strftime("%Y-%m-%d %H:%M")
        table.add_row(
            str(s.id),
            escape(printable(s.title)),
            str(s.deal_count),
            score,
            status,
            changed,
        )
    Console().print(table if summaries else "No matches yet.")


@matches_app.command("show")
def show(match_id: IdArg, db: DbOption = None) -> None:
    """Show a stored match's sheet as a table."""
    with service_on(db) as service:
        scored = service.get(match_id=match_id)
    Console().print(sheet_table(scored.match, scored.sheet))


VariantOption = Annotated[
    str | None,
    typer.Option(
        "--variant",
        help="scopa, scopone, assi, escoba or cirulla (its categories, settings and defaults).",
        show_default=False,
    ),
]


def settings_changes(items: list[str] | None) -> dict[str, Any]:
    """``SETTING=VALUE`` arguments as a settings object (numbers as numbers)."""
    wanted: dict[str, Any] = {}
    for item in items or []:
        name, sep, value = item.partition("=")
        if not sep:
            raise UserError(f"{item!r}: expected SETTING=VALUE, e.g. primiera=off")
        text = value.strip()
        wanted[name.strip()] = int(text) if text.isascii() and text.isdigit() else text
    return wanted


@matches_app.command("new")
def new_match(
    players: Annotated[list[str], typer.Argument(metavar="PLAYER...", help="2 to 6 names.")],
    variant: VariantOption = None,
    rule: Annotated[
        list[str] | None,
        typer.Option("--rule", metavar="SETTING=VALUE", help="A house rule, e.g. target=21."),
    ] = None,
    name: Annotated[str | None, typer.Option(help="A name for the match.")] = None,
    db: DbOption = None,
) -> None:
    """Start a new match (of a variant, with its defaults) and print its id."""
    data: dict[str, Any] = {"players": players, "rules": settings_changes(rule)}
    if variant:
        data["variant"] = variant
    if name:
        data["name"] = name
    try:
        match = parse_match(data)
    except ScopaError as error:
        raise UserError(str(error)) from None
    with service_on(db) as service:
        scored = service.create(match=match)
    print(scored.id)


@matches_app.command("import")
def import_match(
    match_file: MatchFileArg,
    variant: VariantOption = None,
    db: DbOption = None,
) -> None:
    """Store a match file (FORMATS.md) as a new match and print its id. ``--variant`` names
    the variant of a file that has none (a file naming another one is refused)."""
    if variant:
        data = load_json(read_source(match_file), match_file)
        if isinstance(data, dict):
            if data.get("variant") is not None and variants.get(data["variant"]).name != (
                variants.get(variant).name
            ):
                raise UserError(f"{match_file}: a {data['variant']} match, not {variant}")
            data = {"variant": variant, **data}
        try:
            match = parse_match(data)
        except ScopaError as error:
            raise UserError(f"{match_file}: {error}") from None
    else:
        match = load_match(match_file)
    with service_on(db) as service:
        scored = service.import_match(match=match)
    print(scored.id)


@matches_app.command("export")
def export(
    match_id: IdArg,
    db: DbOption = None,
    csv: Annotated[bool, typer.Option("--csv", help="The sheet as CSV instead.")] = False,
    sheet: Annotated[bool, typer.Option("--sheet", help="The sheet as JSON instead.")] = False,
) -> None:
    """Print a stored match as a match file (or its sheet as JSON or CSV)."""
    with service_on(db) as service:
        text = service.export(
            match_id=match_id, kind="csv" if csv else "sheet" if sheet else "match"
        )
    sys.stdout.write(text)


@matches_app.command("add-deal")
def add_deal(
    match_id: IdArg,
    deal_file: Annotated[str, typer.Argument(metavar="DEAL.json", help="A deal, or -.")],
    db: DbOption = None,
) -> None:
    """Record a deal (FORMATS.md) at the end of a stored match; print the new totals."""
    data = load_json(read_source(deal_file), "deal")
    with service_on(db) as service:
        scored = service.get(match_id=match_id)
        deal = parse_deal(data, scored.match)
        scored = service.record_deal(match_id=match_id, deal=deal, version=scored.version)
    totals = ", ".join(
        f"{s} {t}" for s, t in zip(scored.sheet.sides, scored.sheet.totals, strict=True)
    )
    print(f"deal {len(scored.match.deals)} recorded: {totals}")


@matches_app.command("rules")
def rules(
    match_id: IdArg,
    changes: Annotated[
        list[str] | None,
        typer.Argument(metavar="SETTING=VALUE...", help="e.g. primiera=off target=21"),
    ] = None,
    db: DbOption = None,
) -> None:
    """Show a match's house rules, or change some: the match re-scores from its facts."""
    with service_on(db) as service:
        scored = service.get(match_id=match_id)
        if not changes:
            for name, value in scored.match.settings.to_dict().items():
                shown = ("on" if value else "off") if isinstance(value, bool) else value
                print(f"{name}={shown}")
            return
        wanted = settings_changes(changes)
        _, moved = service.change_rules(match_id=match_id, rules=wanted, version=scored.version)
    print(moved.summary())


@matches_app.command("rename")
def rename(
    match_id: IdArg,
    name: Annotated[str, typer.Argument(help='The new name ("" for none).')],
    db: DbOption = None,
) -> None:
    """Give a stored match a name (at most 100 characters)."""
    if len(name) > 100:
        raise UserError(f"name: {len(name)} characters; at most 100")
    with service_on(db) as service:
        service.rename(match_id=match_id, name=name.strip() or None, version=None)
    print(f"match {match_id} renamed" if name.strip() else f"match {match_id} has no name now")


@matches_app.command("history")
def history(match_id: IdArg, db: DbOption = None) -> None:
    """Show a match's change log: every edit, when, and the version it made."""
    with service_on(db) as service:
        entries = service.history(match_id=match_id)
    table = Table(header_style="bold")
    for column in ("Version", "When", "Change"):
        table.add_column(column)
    for e in entries:
        when = e.at.astimezone().strftime("%Y-%m-%d %H:%M:%S")
        table.add_row(str(e.version), when, escape(printable(e.summary)))
    Console().print(table)


@matches_app.command("delete")
def delete(match_id: IdArg, db: DbOption = None) -> None:
    """Remove a match from the list (its facts and log stay in the database)."""
    with service_on(db) as service:
        service.delete_match(match_id=match_id, version=None)
    print(f"match {match_id} deleted")


def sqlite_path(db: str | None) -> Path:
    from sqlalchemy.engine import make_url

    from scopa.store import database_url

    url = make_url(database_url(db))
    if url.get_backend_name() != "sqlite" or not url.database:
        raise UserError(
            f"{url.render_as_string(hide_password=True)}: backup and restore work on SQLite "
            "files; for PostgreSQL use pg_dump and pg_restore"
        )
    return Path(url.database)


def backup(
    destination: Annotated[Path, typer.Argument(help="The file to write the copy to.")],
    db: DbOption = None,
) -> None:
    """Write a consistent copy of the database (SQLite online backup), even while serving."""
    source = sqlite_path(db)
    if not source.exists():
        raise UserError(f"{source}: no database there yet")
    if destination.exists():
        raise UserError(f"{destination}: exists already; choose a new file")
    with sqlite3.connect(source) as src, sqlite3.connect(destination) as dest:
        src.backup(dest)
    dest_conn = sqlite3.connect(destination)
    try:
        count = dest_conn.execute("SELECT count(*) FROM matches").fetchone()[0]
    finally:
        dest_conn.close()
    print(f"backed up {source} to {destination} ({count} matches)")


def restore(
    source: Annotated[Path, typer.Argument(help="A backup written by `scopa backup`.")],
    db: DbOption = None,
    force: Annotated[
        bool, typer.Option("--force", help="Replace a database that holds matches.")
    ] = False,
) -> None:
    """Bring back a backup: it replaces the database (keep a backup of that one first)."""
    target = sqlite_path(db)
    if not source.is_file():
        raise UserError(f"{source}: no such backup file")
    try:
        with sqlite3.connect(f"file:{source}?mode=ro", uri=True) as check:
            tables = {r[0] for r in check.execute("SELECT name FROM sqlite_master")}
            if not {"matches", "deals", "changes"} <= tables:
                raise UserError(f"{source}: not a scopa database (no matches table)")
            count = check.execute("SELECT count(*) FROM matches").fetchone()[0]
    except sqlite3.DatabaseError as error:
        raise UserError(f"{source}: not a SQLite database ({error})") from None
    if target.exists() and not force:
        with sqlite3.connect(target) as current:
            has = current.execute(
                "SELECT count(*) FROM sqlite_master WHERE name = 'matches'"
            ).fetchone()[0]
            held = current.execute("SELECT count(*) FROM matches").fetchone()[0] if has else 0
        if held:
            raise UserError(
                f"{target} holds {held} matches; add --force to replace it with {source}"
            )
    target.parent.mkdir(parents=True, exist_ok=True)
    from scopa.store.lock import DatabaseInUse, exclusive

    try:
        with exclusive(target), sqlite3.connect(source) as src, sqlite3.connect(target) as dest:
            src.backup(dest)
    except DatabaseInUse as error:
        raise UserError(f"restore refused: {error}") from None
    with opened(db):  # applies the migrations to an older backup
        pass
    print(f"restored {source} into {target} ({count} matches)")


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


def _when(moment: Any) -> str:
    return str(moment.astimezone().strftime("%Y-%m-%d %H:%M"))


@access_app.command("list")
def access_list(db: DbOption = None) -> None:
    """List the access codes (only their first letters are kept)."""
    with opened(db) as store:
        codes = store.access_codes()
    table = Table(header_style="bold")
    for column in ("Id", "Code", "Label", "Made", "State"):
        table.add_column(column)
    for c in codes:
        state = f"active until {_when(c.expires_at)}" if c.expires_at else "active"
        if c.revoked_at is not None:
            state = f"revoked {_when(c.revoked_at)}"
        elif not c.active:
            state = f"expired {_when(c.expires_at)}"
        label = escape(printable(c.label))
        table.add_row(str(c.id), f"{c.hint}··-····", label, _when(c.created_at), state)
    Console().print(table if codes else "No access codes yet.")


@access_app.command("revoke")
def access_revoke(
    which: Annotated[str, typer.Argument(metavar="CODE|ID|all", help="What to revoke.")],
    db: DbOption = None,
) -> None:
    """Revoke an access code (the code, its id, or `all`: every code and every device)."""
    with opened(db) as store:
        revoked = store.revoke_access_code(which)
        devices = store.revoke_device("all") if which == "all" else []
    if not revoked and not devices:
        raise UserError(f"{which}: no active access code matches")
    print(f"revoked {len(revoked)} access code{'' if len(revoked) == 1 else 's'}")


@access_app.command("devices")
def access_devices(db: DbOption = None) -> None:
    """List the devices that joined with a code: label, when, last use, state."""
    with opened(db) as store:
        devices = store.devices()
    table = Table(header_style="bold")
    for column in ("Id", "Device", "Joined", "Last use", "State"):
        table.add_column(column)
    for d in devices:
        state = "active" if d.revoked_at is None else f"revoked {_when(d.revoked_at)}"
        label = escape(printable(d.label))
        table.add_row(str(d.id), label, _when(d.created_at), _when(d.last_used_at), state)
    Console().print(table if devices else "No devices have joined yet.")


@access_app.command("revoke-device")
def access_revoke_device(
    which: Annotated[str, typer.Argument(metavar="ID|all", help="The device (see `devices`).")],
    db: DbOption = None,
) -> None:
    """Shut one device out (its id from `scopa access devices`), or `all` of them."""
    with opened(db) as store:
        revoked = store.revoke_device(which)
    if not revoked:
        raise UserError(f"{which}: no active device with that id")
    print(f"revoked {len(revoked)} device{'' if len(revoked) == 1 else 's'}")


def register(app: typer.Typer) -> None:
    """Add these commands to the main app."""
    app.add_typer(matches_app)
    app.add_typer(access_app)
    app.command()(backup)
    app.command()(restore)
