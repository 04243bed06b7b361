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

from scopa import i18n, variants
from scopa.cards import Card, CardSet
from scopa.engine import native
from scopa.engine.captures import rules_for
from scopa.engine.duplicate import DuplicateStats, simulate_duplicate
from scopa.engine.simulate import Simulation, Stats, simulate
from scopa.engine.variants import get_variant
from scopa.errors import InputError
from scopa.formats import dump_json
from scopa.i18n import N_, _, ngettext
from scopa.words import card_name

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
MAX_DEALS = 100_000_000
"""The most deals ``simulate`` plays in one run (some hours of the native kernel)."""
MAX_MATCHES = 1_000_000
"""The most matches ``simulate --matches`` plays in one run."""


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
        # Translators: captures: the card played takes nothing and stays on the table
        # ("trails"); {card} is the card in words (sette di denari, siete de oros).
        said = _("{card}: no capture, it stays on the table").format(card=card_name(played))
        said = said[:1].upper() + said[1:]
        Console(stderr=True, highlight=False).print(said, markup=False, style="dim")


def simulate_command(
    deals: Annotated[
        int,
        typer.Option(
            "--deals",
            min=1,
            max=MAX_DEALS,
            help="Number of deals to play (at most 100,000,000).",
        ),
    ] = 1000,
    matches: Annotated[
        int | None,
        typer.Option(
            "--matches",
            min=1,
            max=MAX_MATCHES,
            help="Play this many whole matches instead of deals (at most 1,000,000).",
        ),
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
            # Translators: {why} is the system's own words (the kernel's module not found).
            _("the native kernel is not built here ({why}): using the pure-Python engine").format(
                why=native.WHY
            ),
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
            task = bar.add_task(_("matches") if matches else _("deals"), total=count)
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
    lines = []
    for name, row in data["by_strategy"].items():
        if "match_win_rate" in row:
            # Translators: simulate --duplicate; {name} is a strategy (greedy, random, ai).
            line = _("{name}: {points} points per deal, wins {rate} of its matches")
        else:
            line = _("{name}: {points} points per deal")
        lines.append(
            line.format(
                name=name,
                points=number(row["points_per_deal"], "0.000"),
                rate=number(row.get("match_win_rate", 0), "0.0%"),
            )
        )
    margin = data.get("margin")
    if margin is not None:
        lines.append(
            ngettext(
                "margin of {of} over {over}: {mean} ± {stderr} points per deal "
                "({deals} paired deal)",
                "margin of {of} over {over}: {mean} ± {stderr} points per deal "
                "({deals} paired deals)",
                margin["deals"],
            ).format(
                of=margin["of"],
                over=margin["over"],
                mean=number(margin["mean"], "+0.000;-0.000"),
                stderr=number(margin["stderr"], "0.000"),
                deals=margin["deals"],
            )
        )
    return "\n".join(lines)


def number(value: float, pattern: str) -> str:
    """A figure in the language's form (``0.400``, ``0,400``; ``2,214``, ``2.214``)."""
    from babel.numbers import format_decimal, format_percent

    if pattern.endswith("%"):
        return str(format_percent(value, format=pattern, locale=i18n.language()))
    return str(format_decimal(value, format=pattern, locale=i18n.language()))


def variant_title(sim: Simulation) -> str:
    """The variant for people: its title and the options that differ (``Escoba (ace_sweep=on)``)."""
    described = sim.variant.describe()
    try:
        definition = variants.get(sim.variant.name)
    except InputError:
        return described
    return definition.title + described[len(sim.variant.name) :]


def stats_table(sim: Simulation, stats: Stats, elapsed: float) -> Group:
    """The statistics as a Rich table (mean points per deal by category, a column per side)
    and a few lines below it, in the reader's language and the variant's own words."""
    data = stats.to_json()
    strategies = sim.seat_strategies()
    try:
        definition = variants.get(sim.variant.name)
    except InputError:
        definition = variants.get(variants.DEFAULT)
    # Translators: simulate's title: a variant (Scopa, Escoba) and how many deals were played.
    title = ngettext("{variant}: {count} deal", "{variant}: {count} deals", stats.deals).format(
        variant=variant_title(sim), count=stats.deals
    )
    table = Table(header_style="bold")
    # Translators: simulate's first column: the mean points of each category in one deal.
    table.add_column(_("Per deal"))
    for side in stats.sides:
        table.add_column(side, justify="right")
    per_side = data["points_per_deal"]
    for name in stats.keys:
        table.add_row(
            definition.label(name), *(number(per_side[side][name], "0.000") for side in stats.sides)
        )
    table.add_row(_("Deals won"), *(str(data["deal_wins"][side]) for side in stats.sides))
    if stats.matches:
        table.add_row(_("Matches won"), *(str(data["match_wins"][side]) for side in stats.sides))
    first = data["first_player"]
    caption = [
        # Translators: simulate: the strategy playing each seat, in order.
        _("seats: {strategies}").format(strategies=", ".join(strategies)),
        _("sweeps per deal: {sweeps}").format(sweeps=number(data["sweeps_per_deal"], "0.000")),
        # Translators: simulate: how many more points the player who leads makes per deal.
        _("first player advantage: {points} points per deal").format(
            points=number(first["advantage"], "+0.000;-0.000")
        ),
        _("tied deals: {count}").format(count=stats.deal_ties),
    ]
    if stats.matches:
        caption.append(
            ngettext(
                "{count} match, {deals} deals each",
                "{count} matches, {deals} deals each",
                stats.matches,
            ).format(count=stats.matches, deals=number(data["deals_per_match"], "0.00"))
        )
        if "cappotto_wins" in data:
            caption.append(_("won by a cappotto: {count}").format(count=data["cappotto_wins"]))
    # Translators: simulate: how fast the deals were played.
    caption.append(
        _("{rate} deals a second").format(rate=number(stats.deals / max(elapsed, 1e-9), "#,##0"))
    )
    return Group(Text(title), table, Text("\n".join(caption)))


def register(app: typer.Typer) -> None:
    """Add ``captures`` and ``simulate`` to the ``scopa`` app."""
    app.command("captures")(captures)
    app.command("simulate")(simulate_command)
