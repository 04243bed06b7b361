"""``scopa play``: a match against the computer in the terminal (Textual), by keyboard.

Keys: ``1``-``9`` play the card of that number in your hand (then, when it can take more than
one way, ``1``-``9`` choose the capture; ``Escape`` goes back), ``h`` lists your legal plays,
``Enter`` deals the next deal, ``q`` quits. Each finished deal is stored in the match database
as it ends, so the game is on the sheet like any other match.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.markup import escape
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Footer, RichLog, Static

from scopa.cards import Card, CardSet
from scopa.deal import Deal
from scopa.engine.ai.coach import Advice, Mistake
from scopa.engine.game import Game, Move
from scopa.engine.state import Play

SUIT_STYLE = {
    "d": ("♦", "bold yellow"),
    "c": ("♥", "bold red"),
    "s": ("♠", "bold cyan"),
    "b": ("♣", "bold green"),
}
"""How a suit shows: coins, cups, swords, clubs."""


def card_markup(card: Card) -> str:
    """A card as Rich markup: its rank and a coloured suit sign (``7♦`` for the settebello)."""
    text = str(card)
    symbol, style = SUIT_STYLE[text[-1]]
    return f"[{style}]{text[:-1]}{symbol}[/]"


def cards_markup(cards: CardSet) -> str:
    return "  ".join(card_markup(c) for c in cards) if cards else "[dim](empty)[/]"


def play_markup(play: Play) -> str:
    if not play.capture:
        return f"lay {card_markup(play.card)} on the table"
    return f"{card_markup(play.card)} takes {cards_markup(play.capture)}"


def move_markup(play: Play, you: bool) -> str:
    """What a player did, after their name: ``lays 5♥ on the table``, ``plays 7♦ and takes
    3♠ 4♠`` (``lay``, ``play`` and ``take`` for you)."""
    s = "" if you else "s"
    if not play.capture:
        return f"lay{s} {card_markup(play.card)} on the table"
    return f"play{s} {card_markup(play.card)} and take{s} {cards_markup(play.capture)}"


def expected_markup(value: float) -> str:
    """``about 1.2 points ahead by the deal's end`` (your side's points less the others')."""
    way = "ahead" if value >= 0 else "behind"
    return f"about {abs(value):.1f} points {way} by the deal's end"


def hint_lines(advice: Sequence[Advice]) -> list[str]:
    """The coach's hint: the best play and the runner-up with what each is expected to
    bring."""
    if not advice:
        return []
    lines = [
        f"[bold]Best:[/] {play_markup(advice[0].play)} ({expected_markup(advice[0].expected)})"
    ]
    if len(advice) > 1:
        second = advice[1]
        lines.append(
            f"[dim]Next best:[/] {play_markup(second.play)} ({expected_markup(second.expected)})"
        )
    return lines


def review_lines(mistakes: Sequence[Mistake], shown: int = 3) -> list[str]:
    """After a deal: your plays that cost the most, with the better play then."""
    if not mistakes:
        return ["[dim]Coach:[/] no play of yours cost a point worth saying: well played."]
    return [
        f"[dim]Coach:[/] you played {play_markup(m.played.play)}; better was "
        f"{play_markup(m.best.play)} (about {m.cost:.1f} points lost)"
        for m in mistakes[:shown]
    ]


class PlayApp(App[None]):
    """The terminal game: the table, your hand, the moves, the running score."""

    TITLE = "Scopa against the computer"
    CSS = """
    #score { height: auto; padding: 0 1; background: $boost; }
    #table { height: auto; padding: 1 1; border: round $success; }
    #hand { height: auto; padding: 0 1; border: round $accent; }
    #prompt { height: auto; padding: 0 1; }
    #log { height: 1fr; border: round $panel; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(str(k), f"pick({k})", show=False) for k in range(1, 10)),
        Binding("escape", "cancel", "Back"),
        Binding("h", "hint", "Hint"),
        Binding("enter", "next_deal", "Next deal"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(
        self,
        game: Game,
        on_deal: Callable[[Game, Deal], None] | None = None,
        pause: float = 0.7,
    ) -> None:
        super().__init__()
        self.game = game
        self.on_deal = on_deal
        """Called with each finished deal (the store records it)."""
        self.pause = pause
        """Seconds an opponent's move stays before the next one (0 in tests)."""
        self.choosing: tuple[Play, ...] = ()
        """The captures to choose from, once a card that can take several ways is picked."""

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(id="score")
            yield Static(id="table")
            yield Static(id="hand")
            yield Static(id="prompt")
            yield RichLog(id="log", markup=True, wrap=True)
        yield Footer()

    def on_mount(self) -> None:
        self.title = self.game.match.name or self.TITLE
        self._write(f"Deal 1: {self._dealer_line()}")
        self._go_on()

    # The flow of play

    def _go_on(self) -> None:
        """Let the computer play until it is your turn or the deal is over."""
        self.refresh_view()
        game = self.game
        if game.deal_over:
            self._end_of_deal()
        elif not game.your_turn:
            self.set_timer(max(self.pause, 0.001), self._computer_step)

    def _computer_step(self) -> None:
        if self.game.deal_over or self.game.your_turn:
            return
        self._show_move(self.game.computer_plays())
        self._go_on()

    def _show_move(self, move: Move) -> None:
        style = "bold" if move.seat == 0 else ""
        text = f"{escape(move.name)} {move_markup(move.play, you=move.seat == 0)}"
        if move.sweep:
            text += "  [bold magenta]Sweep![/]"
        self._write(f"[{style}]{text}[/]" if style else text)

    def _end_of_deal(self) -> None:
        game = self.game
        state = game.state
        if state.leftovers_to is not None:
            self._write(
                f"The cards left on the table go to {escape(game.names[state.leftovers_to])}."
            )
        record = game.finish_deal()
        if self.on_deal is not None:
            self.on_deal(game, record)
        sheet = game.sheet
        row = sheet.deals[-1]
        parts = [
            f"{escape(side)} +{p.total} ({p.cards} cards, {p.coins} coins, {p.settebello} "
            f"settebello, {p.primiera} primiera, {p.sweeps} sweeps)"
            for side, p in zip(sheet.sides, row.points, strict=True)
        ]
        self._write(f"[bold]End of deal {row.number}:[/] " + "; ".join(parts))
        for line in review_lines(game.review()):
            self._write(line)
        if sheet.winner is not None:
            self._write(f"[bold green]{escape(sheet.winner)} won the match.[/] Press q to leave.")
        else:
            self._write("Press Enter for the next deal.")
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
            for line in hint_lines(self.game.advice()):
                self._write(line)

    def action_next_deal(self) -> None:
        game = self.game
        if game.deal_over and not game.over:
            game.next_deal()
            self._write(f"Deal {len(game.match.deals) + 1}: {self._dealer_line()}")
            self._go_on()

    # The view

    def _dealer_line(self) -> str:
        dealer = escape(self.game.names[self.game.state.dealer])
        return f"{dealer} deals."

    def _write(self, text: str) -> None:
        self.query_one("#log", RichLog).write(text)

    def refresh_view(self) -> None:
        game = self.game
        sheet = game.sheet
        totals = "   ".join(
            f"{escape(side)} [bold]{total}[/]"
            for side, total in zip(sheet.sides, sheet.totals, strict=True)
        )
        target = game.match.settings.target
        self.query_one("#score", Static).update(f"{totals}   [dim](to {target})[/]")
        state = game.state
        others = "   ".join(
            f"{escape(game.names[s])}: {state.hands[s].bit_count()} cards, {state.sweeps[s]} sweeps"
            for s in range(1, game.players)
        )
        self.query_one("#table", Static).update(
            f"[b]Table[/]  {cards_markup(state.table_cards)}\n[dim]{others} · "
            f"{len(state.stock)} cards to deal[/]"
        )
        hand = "   ".join(f"[b]{k}[/] {card_markup(c)}" for k, c in enumerate(game.hand, 1))
        self.query_one("#hand", Static).update(
            f"[b]Your hand[/]  {hand or '[dim](empty)[/]'}   [dim]{state.sweeps[0]} sweeps[/]"
        )
        if self.choosing:
            lines = [f"[b]{k}[/] {play_markup(p)}" for k, p in enumerate(self.choosing, 1)]
            prompt = "Which capture?  " + "   ".join(lines) + "   [dim](Escape: back)[/]"
        elif game.over:
            prompt = f"[bold green]{escape(sheet.winner or '')} won the match.[/]"
        elif game.deal_over:
            prompt = "Deal over: press Enter for the next deal."
        elif game.your_turn:
            prompt = "Your turn: press the number of a card."
        else:
            prompt = f"[dim]{escape(game.names[state.turn])} is thinking...[/]"
        self.query_one("#prompt", Static).update(prompt)
