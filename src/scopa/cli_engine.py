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
from scopa.engine import native
from scopa.engine.captures import rules_for
from scopa.engine.duplicate import DuplicateStats, simulate_duplicate
from scopa.engine.simulate import Simulation, Stats, simulate
from scopa.engine.variants import get_variant
from scopa.errors import InputError
from scopa.formats import dump_json
from scopa.i18n import N_

VariantOption = Annotated[
    str,
    typer.Option("--variant", help="The variant: {engine_variants}.", show_default=True),
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
            raise InputError(
                f"--rule[{i}]",
                N_("{text!r} is not NAME=VALUE"),
                code="cli_engine.not_name_value",
                text=text,
            )
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
        raise InputError(
            "TABLE",
            N_("{played} is the card played; it cannot also be on the table"),
            code="cli_engine.card_played_cannot_also",
            played=played,
        )
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
            help="random, greedy, mixed (greedy, a random play one time in four), ai (ai:easy, "
            "ai:strong, ai:50ms, ai:300it) or ismcts (the reference, ismcts:50cpu), one per seat "
            "in order (repeatable; repeated round the table).",
        ),
    ] = None,
    duplicate: Annotated[
        bool,
        typer.Option(
            "--duplicate",
            help="Play each deal once per seating, the seats rotated; with two strategies, "
            "print the margin of the first over the second.",
        ),
    ] = False,
    think_ms: Annotated[
        float | None,
        typer.Option("--think-ms", min=1, help="The ai strategy's thinking time per move."),
    ] = None,
    partnerships: Annotated[
        bool,
        typer.Option("--partnerships", help="Score 4 or 6 players as two teams."),
    ] = False,
    workers: Annotated[int, typer.Option("--workers", min=1, help="Processes to use.")] = 1,
    engine: Annotated[
        str | None,
        typer.Option(
            "--engine",
            metavar="native|python",
            help="The native kernel (default where built) or the pure-Python engine; "
            "the same results.",
        ),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Play many deals (or matches) between engine players and print statistics."""
    chosen = get_variant(variant, parse_rules(rule))
    seats = players if players is not None else chosen.players[0]
    settings = chosen.settings_for(seats)
    if partnerships:
        settings = settings.replace(partnerships=True)
    names = tuple(strategy or ["random"])
    if think_ms is not None:
        names = tuple(f"ai:{think_ms:g}ms" if n.strip().lower() == "ai" else n for n in names)
    sim = Simulation(chosen, seats, names, seed, settings if partnerships else None, engine)
    sim.match()  # refuses partnerships with other than 4 or 6 players, before any work
    count = matches if matches is not None else deals
    run = simulate_duplicate if duplicate else simulate
    started = time.perf_counter()
    err = Console(stderr=True)
    if engine != "python" and not native.AVAILABLE:
        err.print(
            f"{native.REASON}: using the pure-Python engine",
            markup=False,
            style="dim",
            soft_wrap=True,
        )
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
            result = run(sim, count, matches is not None, workers, lambda n: bar.advance(task, n))
    else:
        result = run(sim, count, matches is not None, workers)
    elapsed = time.perf_counter() - started
    stats = result.stats if isinstance(result, DuplicateStats) else result
    if as_json:
        data = simulation_json(sim, stats, elapsed)
        if isinstance(result, DuplicateStats):
            data.update(duplicate_json(result))
        sys.stdout.write(dump_json(data) + "\n")
    else:
        Console().print(stats_table(sim, stats, elapsed))
        if isinstance(result, DuplicateStats):
            Console().print(Text(duplicate_lines(result)))


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


def duplicate_json(result: DuplicateStats) -> dict[str, Any]:
    """What ``--duplicate`` adds to the JSON: the seatings, points by strategy, the margin."""
    data = result.to_json()
    extra = {"seatings": result.seatings, "by_strategy": data["by_strategy"]}
    if "margin" in data:
        extra["margin"] = data["margin"]
    return extra


def duplicate_lines(result: DuplicateStats) -> str:
    """The duplicate figures in words, under the table."""
    data = result.to_json()
    lines = [
        f"{name}: {row['points_per_deal']:.3f} points per deal"
        + (f", wins {row['match_win_rate']:.1%} of its matches" if "match_win_rate" in row else "")
        for name, row in data["by_strategy"].items()
    ]
    margin = data.get("margin")
    if margin is not None:
        lines.append(
            f"margin of {margin['of']} over {margin['over']}: {margin['mean']:+.3f} "
            f"± {margin['stderr']:.3f} points per deal ({margin['deals']} paired deals)"
        )
    return "\n".join(lines)


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
