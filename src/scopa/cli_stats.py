"""``scopa stats [NAME]``: the players' figures (docs/formats.md, "Player statistics"), and
``scopa players ...``: the players as people (rename, merge, remove, the log, undo).

They read the same database as ``scopa serve`` (``--db``); ``--group`` is a hosted server's
group (default: the one table of a server that is not hosted).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from scopa import i18n
from scopa.application import MatchService
from scopa.application.players import PlayerService, change_text
from scopa.cli_common import JsonOption, moment, no_group, subcommands, when, write_json
from scopa.cli_store import DbOption, opened
from scopa.errors import InputError
from scopa.i18n import _, ngettext
from scopa.names import printable
from scopa.tally import Figures
from scopa.variants import DEFAULT as DEFAULT_VARIANT
from scopa.variants import get as variant

players_app = subcommands(
    "players", help="The players as people: rename, merge, remove figures, and undo (logged)."
)

GroupOption = Annotated[
    int | None,
    typer.Option("--group", help="A hosted server's group (default: the one table).", min=1),
]
VariantOption = Annotated[
    str, typer.Option("--variant", help="Only the matches of this variant (scopa, escoba...).")
]


@contextmanager
def players_on(
    db: str | None, group: int | None, *, reads: bool = False
) -> Iterator[PlayerService]:
    """The players of the one table, or of a hosted server's ``group`` (one that is not
    there is refused by its id); ``reads``: as :func:`scopa.cli_store.opened`."""
    with opened(db, reads=reads) as store:
        if group is not None and store.groups.group(group) is None:
            raise no_group(group)
        view = store.in_group(group) if group is not None else store
        yield PlayerService(store.players(group), MatchService(view))


def stats(
    name: Annotated[
        str | None, typer.Argument(metavar="[NAME]", help="One player (default: every player).")
    ] = None,
    variant: VariantOption = "",
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the API's JSON (docs/formats.md).")
    ] = False,
    db: DbOption = None,
    group: GroupOption = None,
) -> None:
    """The players' figures: matches, wins, points and categories per deal, opponents and
    partners."""
    with players_on(db, group, reads=True) as players:
        wanted = players.filter(variant)
        if name is None:
            found = players.everyone(wanted)
            if as_json:
                write_json([f.to_json() for f in found])
            else:
                Console().print(board_table(found))
            return
        one = players.figures(name, wanted)
        if as_json:
            write_json(one.to_json())
        else:
            show_player(one, variant or DEFAULT_VARIANT)


def decimal(value: float) -> str:
    """``2.44``, ``2,44``: two decimals in the language's form."""
    from babel.numbers import format_decimal

    return str(format_decimal(value, format="#,##0.00", locale=i18n.language()))


def percent(value: float) -> str:
    """``47%``, ``47 %``: a share in the language's form."""
    from babel.numbers import format_percent

    return str(format_percent(value, locale=i18n.language()))


def board_table(found: list[Figures]) -> Table:
    table = Table(title=_("Players"))
    columns = (_("Player"), _("Matches"), _("Won"), _("Finished"), _("Deals"))
    for k, column in enumerate((*columns, _("Pts/deal"), _("Sweeps/deal"))):
        table.add_column(column, justify="left" if k == 0 else "right")
    for f in found:
        table.add_row(
            escape(printable(f.name)),
            str(f.matches),
            str(f.won),
            str(f.finished),
            str(f.deals),
            decimal(f.points_per_deal),
            decimal(f.sweeps_per_deal),
        )
    return table


def show_player(f: Figures, variant_name: str = DEFAULT_VARIANT) -> None:
    """One player's figures; the categories named as the variant asked for names them
    (``--variant escoba``: Siete de oros, Setenta), Scopa's words for every variant."""
    console = Console()
    definition = variant(variant_name)
    played = ngettext(
        "{matches} match, won {won} of {finished} finished",
        "{matches} matches, won {won} of {finished} finished",
        f.matches,
    ).format(matches=f.matches, won=f.won, finished=f.finished)
    dealt = ngettext(
        "{deals} deal, {points} points and {sweeps} sweeps per deal",
        "{deals} deals, {points} points and {sweeps} sweeps per deal",
        f.deals,
    ).format(deals=f.deals, points=decimal(f.points_per_deal), sweeps=decimal(f.sweeps_per_deal))
    # Translators: a player's figures: how many matches, then how many deals.
    said = _("{matches}; {deals}").format(matches=played, deals=dealt)
    console.print(f"[bold]{escape(printable(f.name))}[/]: {escape(said)}")
    shares = Table(title=_("Deals in which the side scored"))
    for key in f.shares():
        shares.add_column(definition.label(key), justify="right")
    shares.add_row(*(percent(share) for share in f.shares().values()))
    console.print(shares)
    for title, records, with_lost in (
        (_("Opponents"), f.opponents, True),
        (_("Partners"), f.partners, False),
    ):
        if not records:
            continue
        table = Table(title=title)
        table.add_column(_("Player"))
        table.add_column(_("Matches"), justify="right")
        table.add_column(_("Won"), justify="right")
        if with_lost:
            table.add_column(_("Lost"), justify="right")
        for other, r in records:
            row = [escape(printable(other)), str(r.matches), str(r.won)]
            table.add_row(*row, *([str(r.lost)] if with_lost else []))
        console.print(table)


@players_app.command("rename")
def rename(
    name: Annotated[str, typer.Argument(help="The player's name now.")],
    new: Annotated[str, typer.Argument(help="The new name.")],
    db: DbOption = None,
    group: GroupOption = None,
) -> None:
    """Show a player under a new name everywhere (the matches keep the old one)."""
    with players_on(db, group) as players:
        print(change_text(players.rename(name=name, new=new)))


@players_app.command("merge")
def merge(
    name: Annotated[str, typer.Argument(help="The name that goes.")],
    into: Annotated[str, typer.Argument(help="The player it is another name of.")],
    db: DbOption = None,
    group: GroupOption = None,
) -> None:
    """Make one player of two names ("anna" and "Anna B.")."""
    with players_on(db, group) as players:
        print(change_text(players.merge(name=name, into=into)))


@players_app.command("remove")
def remove(
    name: Annotated[str, typer.Argument(help="The player.")],
    db: DbOption = None,
    group: GroupOption = None,
) -> None:
    """Remove a player's figures at their request (their matches stay)."""
    with players_on(db, group) as players:
        print(change_text(players.remove(name=name)))


@players_app.command("log")
def log(db: DbOption = None, group: GroupOption = None, as_json: JsonOption = False) -> None:
    """The renames, merges and removals, newest first, with their ids."""
    with players_on(db, group, reads=True) as players:
        if as_json:
            write_json(
                [
                    {
                        "id": c.id,
                        "at": moment(c.at),
                        "change": change_text(c.summary),
                        "undone": bool(c.undone),
                    }
                    for c in players.log()
                ]
            )
            return
        for c in players.log():
            undone = " (" + _("undone") + ")" if c.undone else ""
            print(f"{c.id}\t{when(c.at)}\t{change_text(c.summary)}{undone}")


@players_app.command("undo")
def undo(
    change: Annotated[int, typer.Argument(metavar="ID", help="The log entry (see `players log`).")],
    db: DbOption = None,
    group: GroupOption = None,
) -> None:
    """Undo a rename, a merge or a removal."""
    with players_on(db, group) as players:
        try:
            undone = players.undo(change=change)
        except InputError as error:
            if error.where != "change":
                raise
            # the API's field; here the ID is the command's only argument: said without a place
            raise type(error)("", error.template, code=error.code, **error.params) from None
        print(change_text(undone))


def register(app: typer.Typer) -> None:
    """Add these commands to the main app."""
    app.command("stats")(stats)
    app.add_typer(players_app)
