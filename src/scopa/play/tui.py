"""``scopa play``: a match against the computer in the terminal (Textual), by keyboard.

Keys: ``1``-``9`` play the card of that number in your hand (then, when it can take more than
one way, ``1``-``9`` choose the capture; ``Escape`` goes back), ``h`` lists your legal plays,
``Enter`` deals the next deal, ``q`` quits. Each finished deal is stored in the match database
as it ends, so the game is on the sheet like any other match.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import ClassVar

from babel.numbers import format_decimal
from rich.markup import escape
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Footer, RichLog, Static

from scopa import i18n, variants, words
from scopa.cards import Card, CardSet
from scopa.deal import Deal
from scopa.engine.ai.coach import Advice, Mistake
from scopa.engine.game import Game, Move
from scopa.engine.state import Play
from scopa.i18n import N_, _, ngettext
from scopa.words import side_name

SUIT_STYLE = {"d": "bold yellow", "c": "bold red", "s": "bold cyan", "b": "bold green"}
"""Each suit's colour: coins, cups, swords, clubs."""


def card_markup(card: Card, deck: str = words.ITALIAN) -> str:
    """A card as Rich markup in its suit's colour: named as the table says it (``7 of
    coins``, ``sette di denari``, ``siete de oros``), or ``7♦`` with a French-suited deck."""
    text = str(card)
    shown = words.card_short(text, deck) if deck == words.FRENCH else words.card_name(text)
    return f"[{SUIT_STYLE[text[-1]]}]{escape(shown)}[/]"


def cards_markup(cards: CardSet, deck: str = words.ITALIAN) -> str:
    if not cards:
        return "[dim]" + escape(_("(no cards)")) + "[/]"
    return (", " if deck == words.ITALIAN else "  ").join(card_markup(c, deck) for c in cards)


def play_markup(play: Play, deck: str = words.ITALIAN) -> str:
    """``7 of coins: takes 3 of cups and 4 of swords``, ``re di coppe: posalo in tavola``."""
    card = card_markup(play.card, deck)
    if not play.capture:
        return f"{card}: " + escape(_("lay it on the table"))
    joiner = " " + escape(_("and")) + " "
    taken = joiner.join(card_markup(c, deck) for c in play.capture)
    return f"{card}: " + escape(_("takes {cards}")).replace("{cards}", taken)


def advice_markup(advice: Advice, deck: str = words.ITALIAN) -> str:
    """A play of the coach's with what it takes at once: ``7 of coins: takes 7 of cups — a
    scopa, the settebello, 1 coin, 2 cards``."""
    play = play_markup(advice.play, deck)
    takes = advice.takes.words()
    if not takes:
        return play
    return said(_("{play} — {takes}"), play=play, takes=escape(takes))


def points(value: float) -> str:
    """A number of points with one decimal, in the language's form (``1.2``, ``1,2``)."""
    return str(format_decimal(value, format="0.0", locale=i18n.language()))


def expected_markup(value: float) -> str:
    """``about 1.2 points ahead by the deal's end`` (your side's points less the others')."""
    shown = points(abs(value))
    if value >= 0:
        return _("about {points} points ahead by the deal's end").format(points=shown)
    return _("about {points} points behind by the deal's end").format(points=shown)


def said(message: str, **markup: str) -> str:
    """A translated message with Rich markup put in its ``{placeholders}`` (the message
    itself escaped)."""
    text = escape(message)
    for name, value in markup.items():
        text = text.replace("{" + name + "}", value)
    return text


def hint_lines(advice: Sequence[Advice], deck: str = words.ITALIAN) -> list[str]:
    """The coach's hint: the best play and the runner-up with what each is expected to
    bring."""
    if not advice:
        return []
    best = advice[0]
    lines = [
        "[bold]"
        + said(
            _("Best: {play} ({expected})."),
            play=advice_markup(best, deck),
            expected=escape(expected_markup(best.expected)),
        )
        + "[/]"
    ]
    if len(advice) > 1:
        second = advice[1]
        lines.append(
            said(
                _("Next best: {play} ({expected})."),
                play=advice_markup(second, deck),
                expected=escape(expected_markup(second.expected)),
            )
        )
    return lines


def review_lines(
    mistakes: Sequence[Mistake], shown: int = 3, deck: str = words.ITALIAN
) -> list[str]:
    """After a deal: your plays that cost the most, with the better play then."""
    coach = "[dim]" + escape(_("The coach:")) + "[/] "
    if not mistakes:
        return [coach + escape(_("No play of yours cost a point worth saying: well played."))]
    return [
        coach
        + said(
            _("You played {played}; better was {best} (about {cost} points lost)."),
            played=play_markup(m.played.play, deck),
            best=play_markup(m.best.play, deck),
            cost=points(m.cost),
        )
        for m in mistakes[:shown]
    ]


class PlayApp(App[None]):
    """The terminal game: the table, your hand, the moves, the running score."""

    TITLE = "Scopa"
    CSS = """
    #score { height: auto; padding: 0 1; background: $boost; }
    #table { height: auto; padding: 1 1; border: round $success; }
    #hand { height: auto; padding: 0 1; border: round $accent; }
    #prompt { height: auto; padding: 0 1; }
    #log { height: 1fr; border: round $panel; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(str(k), f"pick({k})", show=False) for k in range(1, 10)),
        Binding("escape", "cancel", N_("Back")),
        Binding("h", "hint", N_("Hint")),
        Binding("enter", "next_deal", N_("Next deal")),
        Binding("q", "quit", N_("Quit")),
    ]

    def __init__(
        self,
        game: Game,
        on_deal: Callable[[Game, Deal], None] | None = None,
        pause: float = 0.7,
        deck: str = words.ITALIAN,
    ) -> None:
        super().__init__()
        # The footer's key names in the language in force.
        self._bindings.key_to_bindings = {
            key: [replace(b, description=_(b.description)) if b.description else b for b in found]
            for key, found in self._bindings.key_to_bindings.items()
        }
        self.game = game
        self.on_deal = on_deal
        """Called with each finished deal (the store records it)."""
        self.pause = pause
        """Seconds an opponent's move stays before the next one (0 in tests)."""
        self.choosing: tuple[Play, ...] = ()
        """The captures to choose from, once a card that can take several ways is picked."""
        self.deck = deck
        """How cards show: named (:data:`scopa.words.ITALIAN`) or ``7♦`` (``FRENCH``)."""
        self._computer_due: asyncio.TimerHandle | None = None
        """The computer's next move, once the pause is over."""

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(id="score")
            yield Static(id="table")
            yield Static(id="hand")
            yield Static(id="prompt")
            yield RichLog(id="log", markup=True, wrap=True)
        yield Footer()

    def on_mount(self) -> None:
        self.title = _("Scopa against the computer")
        self._write(self._dealer_line(1))
        self._go_on()

    # The flow of play

    def _go_on(self) -> None:
        """Let the computer play until it is your turn or the deal is over."""
        self.refresh_view()
        game = self.game
        if game.deal_over:
            self._end_of_deal()
        elif not game.your_turn:
            # asyncio's timer, not Textual's set_timer: a one-shot Textual timer whose task
            # starts later than its delay (a busy machine) skips its only tick, and the
            # computer would never play.
            self._computer_due = asyncio.get_running_loop().call_later(
                max(self.pause, 0.001), self.call_next, self._computer_step
            )

    def on_unmount(self) -> None:
        if self._computer_due is not None:
            self._computer_due.cancel()

    def _computer_step(self) -> None:
        if self.game.deal_over or self.game.your_turn:
            return
        self._show_move(self.game.computer_plays())
        self._go_on()

    def _show_move(self, move: Move) -> None:
        """``You play the 7 of coins and take ...``, ``Computer gioca re di coppe e prende
        ...``: the same words as the Play page, the cards in their suits' colours."""
        name = escape(side_name(move.name, self.game.match))
        card = card_markup(move.play.card, self.deck)
        you = move.seat == 0
        if move.play.capture:
            taken = ", ".join(card_markup(c, self.deck) for c in move.play.capture)
            message = (
                _("{name} play {card} and take {cards}")
                if you
                else _("{name} plays {card} and takes {cards}")
            )
            text = said(message, name=name, card=card, cards=taken)
        else:
            message = _("{name} play {card}") if you else _("{name} plays {card}")
            text = said(message, name=name, card=card)
        if move.sweep:
            text += " [bold magenta]" + escape(_("— scopa!")) + "[/]"
        self._write(f"[bold]{text}[/]" if you else text)

    def _end_of_deal(self) -> None:
        game = self.game
        state = game.state
        if state.leftovers_to is not None:
            self._write(
                escape(
                    _("The last cards on the table go to {name}: {cards}.").format(
                        name=side_name(game.names[state.leftovers_to], game.match),
                        cards=words.cards_named(state.table_cards),
                    )
                )
            )
        record = game.finish_deal()
        if self.on_deal is not None:
            self.on_deal(game, record)
        sheet = game.sheet
        row = sheet.deals[-1]
        definition = variants.get(sheet.variant)
        parts = [
            f"{escape(side_name(side, game.match))} +{p.total} ("
            + ", ".join(
                f"{escape(definition.label(key))} {getattr(p, key)}"
                for key in definition.categories
            )
            + ")"
            for side, p in zip(sheet.sides, row.points, strict=True)
        ]
        end = escape(_("End of deal {number}").format(number=row.number))
        self._write(f"[bold]{end}:[/] " + "; ".join(parts))
        for line in review_lines(game.review(), deck=self.deck):
            self._write(line)
        if sheet.winner is not None:
            won = _("{name} won the match").format(name=side_name(sheet.winner, game.match))
            self._write(f"[bold green]{escape(won)}.[/] " + escape(_("Press q to leave.")))
        else:
            self._write(escape(_("Press Enter for the next deal.")))
        self.refresh_view()

    # Keys

    def action_pick(self, number: int) -> None:
        game = self.game
        if not game.your_turn:
            return
        if self.choosing:
            if number <= len(self.choosing):
                play = self.choosing[number - 1]
                self.choosing = ()
                self._show_move(game.play(play))
                self._go_on()
            return
        cards = list(game.hand)
        if number > len(cards):
            return
        options = game.options(cards[number - 1].index)
        if len(options) == 1:
            self._show_move(game.play(options[0]))
            self._go_on()
        else:
            self.choosing = options
            self.refresh_view()

    def action_cancel(self) -> None:
        self.choosing = ()
        self.refresh_view()

    def action_hint(self) -> None:
        if self.game.your_turn:
            for line in hint_lines(self.game.advice(), self.deck):
                self._write(line)

    def action_next_deal(self) -> None:
        game = self.game
        if game.deal_over and not game.over:
            game.next_deal()
            self._write(self._dealer_line(len(game.match.deals) + 1))
            self._go_on()

    # The view

    def _dealer_line(self, number: int) -> str:
        """``Deal 2: Computer deals.``"""
        dealer = side_name(self.game.names[self.game.state.dealer], self.game.match)
        return escape(_("Deal {number}: {name} deals.").format(number=number, name=dealer))

    def _write(self, text: str) -> None:
        self.query_one("#log", RichLog).write(text)

    def refresh_view(self) -> None:
        game = self.game
        sheet = game.sheet
        deck = self.deck
        totals = "   ".join(
            f"{escape(side_name(side, game.match))} [bold]{total}[/]"
            for side, total in zip(sheet.sides, sheet.totals, strict=True)
        )
        target = escape(_("(to {points})").format(points=game.match.settings.target))
        self.query_one("#score", Static).update(f"{totals}   [dim]{target}[/]")
        state = game.state
        others = "   ".join(
            escape(
                f"{side_name(game.names[s], game.match)}: "
                + _("{count} in hand").format(count=state.hands[s].bit_count())
                + ", "
                + self._sweeps(state.sweeps[s])
            )
            for s in range(1, game.players)
        )
        stock = ngettext("{n} card to deal", "{n} cards to deal", len(state.stock))
        table = escape(_("Table"))
        self.query_one("#table", Static).update(
            f"[b]{table}[/]  {cards_markup(state.table_cards, deck)}\n"
            f"[dim]{others} · {escape(stock.format(n=len(state.stock)))}[/]"
        )
        hand = "   ".join(f"[b]{k}[/] {card_markup(c, deck)}" for k, c in enumerate(game.hand, 1))
        empty = "[dim]" + escape(_("(no cards)")) + "[/]"
        yours = escape(_("Your hand"))
        self.query_one("#hand", Static).update(
            f"[b]{yours}[/]  {hand or empty}   [dim]{escape(self._sweeps(state.sweeps[0]))}[/]"
        )
        if self.choosing:
            lines = [f"[b]{k}[/] {play_markup(p, deck)}" for k, p in enumerate(self.choosing, 1)]
            prompt = (
                escape(_("Which capture?"))
                + "  "
                + "   ".join(lines)
                + "   [dim]("
                + escape(_("Escape: back"))
                + ")[/]"
            )
        elif game.over:
            won = _("{name} won the match").format(name=side_name(sheet.winner or "", game.match))
            prompt = f"[bold green]{escape(won)}.[/]"
        elif game.deal_over:
            prompt = escape(_("Deal over: press Enter for the next deal."))
        elif game.your_turn:
            prompt = escape(_("Your turn: press the number of a card."))
        else:
            name = side_name(game.names[state.turn], game.match)
            thinking = _("{name} is thinking…").format(name=name)
            prompt = "[dim]" + escape(thinking) + "[/]"
        self.query_one("#prompt", Static).update(prompt)

    def _sweeps(self, count: int) -> str:
        """``2 sweeps``, ``2 scope``, ``2 escobas`` (Escoba's word on an Escoba table)."""
        if self.game.match.variant == "escoba":
            return ngettext("{n} escoba", "{n} escobas", count).format(n=count)
        return ngettext("{n} sweep", "{n} sweeps", count).format(n=count)
