"""The engine's commands for the ``scopa`` command line: ``captures`` and ``simulate``.

Thin, as the rest of the CLI: parse, call the engine, print. :func:`register` adds them to
the Typer app of :mod:`scopa.cli`; errors are :class:`~scopa.errors.ScopaError` s, which the
CLI's ``main()`` prints on standard error with exit status 2.
"""

from __future__ import annotations

import sys
import time
from typing import Annotated, Any

import typer
from rich.console import Console, Group
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from scopa.cards import Card, CardSet
from scopa.engine.captures import rules_for
from scopa.engine.simulate import Simulation, Stats, simulate
from scopa.engine.variants import get_variant
from scopa.errors import InputError
from scopa.formats import dump_json

VariantOption = Annotated[
    str,
    typer.Option(
        "--variant", help="scopa, scopone, scopone-10, assi, escoba or cirulla.", show_default=True
    ),
]
RuleOption = Annotated[
    list[str] | None,
    typer.Option(
        "--rule",
        metavar="NAME=VALUE",
        help="Change a variant option, e.g. sum_choice=fewest or ace_sweep=on (repeatable).",
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON.")]


def parse_rules(rules: list[str] | None) -> dict[str, str]:
    """``["sum_choice=fewest"]`` -> ``{"sum_choice": "fewest"}``."""
    options: dict[str, str] = {}
    for i, text in enumerate(rules or []):
        name, sep, value = text.partition("=")
        if not sep or not name.strip():
            raise InputError(f"--rule[{i}]", f"{text!r} is not NAME=VALUE")
        options[name.strip()] = value
    return options


def captures(
    card: Annotated[str, typer.Argument(metavar="CARD", help="The card played: 7d, Hc, Ks...")],
    table: Annotated[
        list[str] | None,
        typer.Argument(metavar="TABLE...", help="The cards on the table (none = empty)."),
    ] = None,
    variant: VariantOption = "scopa",
    rule: RuleOption = None,
    as_json: JsonOption = False,
) -> None:
    """List the legal captures of CARD played onto TABLE, one per line."""
    rules = get_variant(variant, parse_rules(rule))
    played = Card.parse(card, "CARD")
    on_table = CardSet.parse(" ".join(table or []), "TABLE")
    if played in on_table:
        raise InputError("TABLE", f"{played} is the card played; it cannot also be on the table")
    found = [CardSet(c) for c in rules_for(rules).captures(played.index, on_table.mask)]
    if as_json:
        sys.stdout.write(dump_json([c.to_list() for c in found]) + "\n")
        return
    for capture in found:
        sys.stdout.write(f"{capture}\n")
    if not found:
        Console(stderr=True, highlight=False).print(
            f"no capture: {played} trails", markup=False, style="dim"
        )


def simulate_command(
    deals: Annotated[int, typer.Option("--deals", min=1, help="Number of deals to play.")] = 1000,
    matches: Annotated[
        int | None,
        typer.Option("--matches", min=1, help="Play this many whole matches instead of deals."),
    ] = None,
    players: Annotated[
        int | None,
        typer.Option("--players", help="2, 3, 4 or 6 (default: the variant's first)."),
    ] = None,
    variant: VariantOption = "scopa",
    rule: RuleOption = None,
    seed: Annotated[int, typer.Option("--seed", min=0, help="Seed of the run.")] = 0,
    strategy: Annotated[
        list[str] | None,
        typer.Option(
            "--strategy",
            help="random or greedy, one per seat in order (repeatable; repeated round the table).",
        ),
    ] = None,
    partnerships: Annotated[
        bool,
        typer.Option("--partnerships", help="Score 4 or 6 players as two teams."),
    ] = False,
    workers: Annotated[int, typer.Option("--workers", min=1, help="Processes to use.")] = 1,
    as_json: JsonOption = False,
) -> None:
    """Play many deals (or matches) between engine players and print statistics."""
    chosen = get_variant(variant, parse_rules(rule))
    seats = players if players is not None else chosen.players[0]
    settings = chosen.settings_for(seats)
    if partnerships:
        settings = settings.replace(partnerships=True)
    sim = Simulation(
        chosen, seats, tuple(strategy or ["random"]), seed, settings if partnerships else None
    )
    sim.match()  # refuses partnerships with other than 4 or 6 players, before any work
    count = matches if matches is not None else deals
    started = time.perf_counter()
    err = Console(stderr=True)
    if err.is_terminal:
        with Progress(
            "[progress.description]{task.description}",
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=err,
            transient=True,
        ) as bar:
            task = bar.add_task("matches" if matches else "deals", total=count)
            stats = simulate(
                sim, count, matches is not None, workers, lambda n: bar.advance(task, n)
            )
    else:
        stats = simulate(sim, count, matches is not None, workers)
    elapsed = time.perf_counter() - started
    if as_json:
        sys.stdout.write(dump_json(simulation_json(sim, stats, elapsed)) + "\n")
    else:
        Console().print(stats_table(sim, stats, elapsed))


def simulation_json(sim: Simulation, stats: Stats, elapsed: float) -> dict[str, Any]:
    """What ``simulate --json`` prints: the run's parameters and its statistics."""
    return {
        "variant": sim.variant.describe(),
        "players": sim.players,
        "strategies": list(sim.seat_strategies()),
        "seed": sim.seed,
        "rules": sim.rules.to_dict(),
        **stats.to_json(),
        "seconds": round(elapsed, 3),
    }


def stats_table(sim: Simulation, stats: Stats, elapsed: float) -> Group:
    """The statistics as a Rich table (mean points per deal by category, a column per side)
    and a few lines below it."""
    data = stats.to_json()
    strategies = sim.seat_strategies()
    title = f"{sim.variant.describe()}: {stats.deals} deals"
    table = Table(title=title, header_style="bold", title_justify="left")
    table.add_column("per deal")
    for side in stats.sides:
        table.add_column(side, justify="right")
    per_side = data["points_per_deal"]
    for name in stats.keys:
        table.add_row(name, *(f"{per_side[side][name]:.3f}" for side in stats.sides))
    table.add_row("deals won", *(str(data["deal_wins"][side]) for side in stats.sides))
    if stats.matches:
        table.add_row("matches won", *(str(data["match_wins"][side]) for side in stats.sides))
    first = data["first_player"]
    caption = [
        f"seats: {', '.join(strategies)}",
        f"sweeps per deal {data['sweeps_per_deal']:.3f}",
        f"first player advantage {first['advantage']:+.3f} points per deal",
        f"tied deals {stats.deal_ties}",
    ]
    if stats.matches:
        caption.append(f"{stats.matches} matches, {data['deals_per_match']:.2f} deals each")
        if "cappotto_wins" in data:
            caption.append(f"won by a cappotto {data['cappotto_wins']}")
    caption.append(f"{stats.deals / max(elapsed, 1e-9):,.0f} deals/s")
    return Group(table, Text("\n".join(caption)))


def register(app: typer.Typer) -> None:
    """Add ``captures`` and ``simulate`` to the ``scopa`` app."""
    app.command("captures")(captures)
    app.command("simulate")(simulate_command)
