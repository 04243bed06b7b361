"""Commands over the stored matches: ``scopa matches ...`` (and the ``--db`` option and the
store they open, which ``scopa access``, ``groups``, ``backup``, ``restore`` and ``play`` share:
:mod:`scopa.cli_access`, :mod:`scopa.cli_groups`, :mod:`scopa.cli_backup`).

They use the same database as ``scopa serve`` (``--db``, else ``$SCOPA_DATABASE_URL``, else
the SQLite file in the user's data folder).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from scopa import variants
from scopa.application import MatchService
from scopa.cli_common import (
    JsonOption,
    MatchFileArg,
    UserError,
    load_match,
    parsed_match,
    read_source,
    sheet_table,
    subcommands,
    when,
    write_json,
)
from scopa.errors import InputError, ScopaError
from scopa.formats import load_json, parse_deal
from scopa.i18n import N_, _
from scopa.match import Match
from scopa.names import printable, printable_lines
from scopa.words import side_name

if TYPE_CHECKING:
    from scopa.store import MatchStore

matches_app = subcommands(
    "matches", help="Manage the stored matches (the same database as `scopa serve`)."
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


def chosen_url(db: str | None) -> str:
    """The database URL of ``--db`` (else ``$SCOPA_DATABASE_URL``, else the default); an
    empty ``--db`` is the user's error, not the default database."""
    from scopa.store import database_url

    if db is not None and not db.strip():
        raise InputError(
            "--db",
            N_("empty; give a SQLite file or a database URL"),
            code="usage.db_empty",
        )
    return database_url(db)


@contextmanager
def opened(db: str | None, *, reads: bool = False) -> Iterator[MatchStore]:
    """The SQL store at ``db`` (imported here: the database layer is not loaded for
    `scopa score`). A database that cannot be used is refused before anything is created;
    a command that only ``reads`` is refused a ``--db`` SQLite file that is not there (a
    mistyped name), rather than making an empty one; the configured database
    (``$SCOPA_DATABASE_URL``, else the default one) is made for it, empty."""
    from scopa.store import MatchStore

    store = MatchStore.open(chosen_url(db), create=not reads or db is None)
    try:
        yield store
    finally:
        store.close()


@contextmanager
def service_on(db: str | None, *, reads: bool = False) -> Iterator[MatchService]:
    """The use cases over the stored matches (``reads``: as :func:`opened`)."""
    with opened(db, reads=reads) as store:
        yield MatchService(store)


@matches_app.command("list")
def list_matches(db: DbOption = None, as_json: JsonOption = False) -> None:
    """List the stored matches, most recently changed first."""
    with service_on(db, reads=True) as service:
        summaries = service.list_matches()
    if as_json:
        from scopa.web.api.schemas import summary_to_json

        write_json([summary_to_json(s) for s in summaries])
        return
    table = Table(header_style="bold")
    for k, column in enumerate(
        (_("Id"), _("Match"), _("Deals"), _("Score"), _("Status"), _("Changed"))
    ):
        table.add_column(column, justify="right" if k in (0, 2) else "left")
    for s in summaries:
        score = " · ".join(
            f"{escape(printable(side_name(side, s)))} {total}"
            for side, total in zip(s.sides, s.totals, strict=True)
        )
        won = _("{name} won").format(name=printable(side_name(s.winner, s))) if s.winner else ""
        status = f"[green]{escape(won)}[/]" if s.winner else _("in progress")
        changed = when(s.updated_at)
        table.add_row(
            str(s.id),
            escape(printable(s.title)),
            str(s.deal_count),
            score,
            status,
            changed,
        )
    Console().print(table if summaries else _("No matches yet."))


@matches_app.command("show")
def show(match_id: IdArg, db: DbOption = None, as_json: JsonOption = False) -> None:
    """Show a stored match's sheet as a table."""
    with service_on(db, reads=True) as service:
        scored = service.get(match_id=match_id)
    if as_json:  # as GET /api/matches/{id} answers
        from scopa.web.api.schemas import stored_to_json

        write_json(stored_to_json(scored))
        return
    Console().print(sheet_table(scored.match, scored.sheet))


VariantOption = Annotated[
    str | None,
    typer.Option(
        "--variant",
        help="The variant: {variants} (its categories, settings and defaults).",
        show_default=False,
    ),
]


def settings_changes(items: list[str] | None) -> dict[str, Any]:
    """``SETTING=VALUE`` arguments as a settings object (numbers as numbers)."""
    wanted: dict[str, Any] = {}
    for item in items or []:
        name, sep, value = item.partition("=")
        if not sep:
            raise UserError(
                N_("{item!r}: expected SETTING=VALUE, e.g. primiera=off"),
                code="usage.expected_setting_value_e",
                item=item,
            )
        text = value.strip()
        wanted[name.strip()] = int(text) if text.isascii() and text.isdigit() else text
    return wanted


def _store_new(db: str | None, match: Match, *, imported: bool = False) -> None:
    """Store ``match`` as a new match (logged as an import if ``imported``); print its id."""
    with service_on(db) as service:
        scored = service.import_match(match=match) if imported else service.create(match=match)
    print(scored.id)


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
    _store_new(db, parsed_match(data))


@matches_app.command("import")
def import_match(
    match_file: MatchFileArg,
    variant: VariantOption = None,
    db: DbOption = None,
) -> None:
    """Store a match file (docs/formats.md) as a new match and print its id. `--variant` names
    the variant of a file that has none (a file naming another one is refused)."""
    if variant:
        data = load_json(read_source(match_file), match_file)
        if isinstance(data, dict):
            if data.get("variant") is not None and variants.get(data["variant"]).name != (
                variants.get(variant).name
            ):
                raise UserError(
                    N_("{match_file}: a {data} match, not {variant}"),
                    code="usage.match_not",
                    match_file=match_file,
                    data=data["variant"],
                    variant=variant,
                )
            data = {"variant": variant, **data}
        match = parsed_match(data, match_file)
    else:
        match = load_match(match_file)
    _store_new(db, match, imported=True)


@matches_app.command("export")
def export(
    match_id: IdArg,
    db: DbOption = None,
    csv: Annotated[bool, typer.Option("--csv", help="The sheet as CSV instead.")] = False,
    sheet: Annotated[bool, typer.Option("--sheet", help="The sheet as JSON instead.")] = False,
) -> None:
    """Print a stored match as a match file (or its sheet as JSON or CSV)."""
    with service_on(db, reads=True) as service:
        text = service.export(
            match_id=match_id, kind="csv" if csv else "sheet" if sheet else "match"
        )
    # Names stored by older versions may hold control characters: never sent raw to a
    # terminal (an escape sequence could write the clipboard), and JSON stays the same data.
    sys.stdout.write(printable_lines(text, json_text=not csv))


@matches_app.command("add-deal")
def add_deal(
    match_id: IdArg,
    deal_file: Annotated[str, typer.Argument(metavar="DEAL.json", help="A deal, or -.")],
    db: DbOption = None,
) -> None:
    """Record a deal (docs/formats.md) at the end of a stored match; print the new totals."""
    data = load_json(read_source(deal_file), "<stdin>" if deal_file == "-" else deal_file)
    with service_on(db) as service:
        scored = service.get(match_id=match_id)
        deal = parse_deal(data, scored.match)
        scored = service.record_deal(match_id=match_id, deal=deal, version=scored.version)
    totals = ", ".join(
        f"{side_name(s, scored.match)} {t}"
        for s, t in zip(scored.sheet.sides, scored.sheet.totals, strict=True)
    )
    print(
        _("deal {number} recorded: {totals}").format(number=len(scored.match.deals), totals=totals)
    )


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
    with service_on(db, reads=not changes) as service:
        scored = service.get(match_id=match_id)
        if not changes:
            for name, value in scored.match.settings.to_dict().items():
                shown = ("on" if value else "off") if isinstance(value, bool) else value
                print(f"{name}={shown}")
            return
        wanted = settings_changes(changes)
        after, moved = service.change_rules(match_id=match_id, rules=wanted, version=scored.version)
    if after.version == scored.version:  # the rules as they were: nothing stored
        print(_("The house rules are as they were."))
        return
    print(moved.summary())


@matches_app.command("rename")
def rename(
    match_id: IdArg,
    name: Annotated[str, typer.Argument(help='The new name ("" for none).')],
    db: DbOption = None,
) -> None:
    """Give a stored match a name (at most 100 characters)."""
    with service_on(db) as service:
        renamed = service.rename(match_id=match_id, name=name, version=None)
    said = _("match {id} renamed") if renamed.match.name else _("match {id} has no name now")
    print(said.format(id=match_id))


@matches_app.command("history")
def history(match_id: IdArg, db: DbOption = None, as_json: JsonOption = False) -> None:
    """Show a match's change log: every edit, when, and the version it made."""
    with service_on(db, reads=True) as service:
        entries = service.history(match_id=match_id)
        match = shown_match(service, match_id) if entries and not as_json else None
    if as_json:
        from scopa.web.api.schemas import log_to_json

        write_json([log_to_json(e) for e in entries])  # the stored data, as it is kept
        return
    from scopa.web.pages.changelog import summary  # the log page's words for each change

    table = Table(header_style="bold")
    for column in (_("Version"), _("When"), _("Change")):
        table.add_column(column)
    for e in entries:
        at = e.at.astimezone().strftime("%Y-%m-%d %H:%M:%S")
        said = summary(e, match) if match is not None else e.summary
        table.add_row(str(e.version), at, escape(printable(said)))
    Console().print(table)


@matches_app.command("delete")
def delete(match_id: IdArg, db: DbOption = None) -> None:
    """Remove a match from the list (its facts and log stay in the database)."""
    with service_on(db) as service:
        service.delete_match(match_id=match_id, version=None)
    print(_("match {id} deleted").format(id=match_id))


def register(app: typer.Typer) -> None:
    """Add these commands to the main app."""
    app.add_typer(matches_app)


def shown_match(service: MatchService, match_id: int) -> Match | None:
    """The match whose log is shown, for the log's words (its variant, its seats' names);
    ``None`` when it cannot be read (the log then shows its stored summaries)."""
    try:
        return service.get(match_id=match_id).match
    except ScopaError:
        return None
