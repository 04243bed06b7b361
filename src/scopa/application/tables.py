"""Tables: friends playing together online, each phone holding its own hand, the computer in
the empty seats (docs/formats.md "Tables: playing together online").

The server holds the game. A table is kept as its seed and its plays so far (like a game
against the computer, :mod:`scopa.application.computer`): each use case deals and plays it
again through the engine (:func:`scopa.engine.state.apply`, the one play path), checks the
move against the step the seat saw, makes it, and writes the plays back only if nobody moved
the table meanwhile.

**Hidden information by construction.** :func:`seat_view` is the one function that makes
what a seat is sent from the game: every answer, page, fragment and event for a seat is made
from its result and from nothing else. It reads the seat's own hand, the cards on the table,
the plays made, the counts of the other hands and of the stock, and the sheet of the finished
deals; never another hand's cards, the stock's order or the seed.

Seats come and go: a seat is *present* while it shows signs of life (an open event stream
beats every :data:`HEARTBEAT` seconds, every request counts); once it has been away longer
than the table's grace, the search player (:mod:`scopa.engine.ai`) at the table's level plays
for it, each such play marked ``"by": "computer"``, until its person is back. The computer
seats, and the absent ones, are played by :meth:`Tables.run_due`, which the server runs off
the request path (:mod:`scopa.web.tables.hub`); every moment comes from an injected clock.

Each finished deal goes to the one scorer through the table's match, a regular match of the
sheet, recorded with :meth:`~scopa.application.matches.MatchService.record_deal` like a deal
recorded by hand.
"""

from __future__ import annotations

import hashlib
import math
import random
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from scopa import variants
from scopa.application.bodies import check_step, object_of, step_of, whole_of
from scopa.application.computer import PLAY_VARIANTS, parse_play
from scopa.application.matches import MatchService
from scopa.cards import CardSet
from scopa.engine.ai import LEVELS, SearchPlayer, parse_level
from scopa.engine.game import (
    check_level,
    check_players,
    check_variant,
    deal_next,
    replay_log,
    step,
    with_finished_deal,
)
from scopa.engine.state import Play, State, legal_plays
from scopa.engine.variants import get_variant
from scopa.errors import (
    IllegalPlayError,
    InputError,
    MatchNotFoundError,
    QuotaExceededError,
    ScopaError,
    VersionConflictError,
)
from scopa.formats import player_name
from scopa.i18n import N_
from scopa.made_names import COMPUTER, PERSON, MadeName, Seat
from scopa.match import Match, score_match
from scopa.reading import ascii_digits
from scopa.rules import Settings
from scopa.sheet import Sheet
from scopa.store.protocol import TableStore
from scopa.store.records import PRESENCE, SeatRecord, TableRecord, TableWrite, new_code
from scopa.variants import deal_points

TABLE_VARIANTS = PLAY_VARIANTS
DEFAULT_GRACE = 60
MAX_GRACE = 24 * 60 * 60
DEFAULT_CLOCK = 90
"""Seconds a seat at the table has for each play (the turn clock) unless the table says."""
MAX_CLOCK = 60 * 60
HEARTBEAT = 5.0
"""Seconds between two signs of life of an open event stream."""
LEFT_MARGIN = 0.001
"""How far past the presence a seat that left is written (away at once, not a moment later)."""
MAX_TABLES = 50
"""Tables a group (or a server that is not hosted) may have in play at once."""
MAX_SEATS = 150
"""Human seats a group may hold in its tables in play."""
OPEN_DAYS = 2
"""A table nobody moved for this many days no longer counts against the limits."""
MAX_STEP = 100_000
BY_SEAT, BY_COMPUTER, BY_CLOCK = "seat", "computer", "clock"
"""Who made a play: the seat (its person, or a computer seat itself), the computer for a
person away longer than the grace, or the computer for a person whose turn clock ran out."""

Clock = Callable[[], float]
"""Seconds since the epoch (the same in every process); tests pass their own."""


class TableNotFoundError(ScopaError, LookupError):
    """No such table (or not one this seat or group may see)."""


class SeatRefusedError(ScopaError):
    """The seat's token, or the table's code, is wrong."""


class TableFullError(ScopaError):
    """Every seat of the table is taken."""


def token_hash(token: str) -> str:
    """What is kept of a seat's token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_seed() -> int:
    """A new table's seed, from the system's randomness (nobody can guess the deals)."""
    return random.SystemRandom().getrandbits(62)


def clean_code(text: object) -> str:
    """A table's code as typed: case and dashes and spaces do not matter.

    >>> clean_code(" abcd-efgh ")
    'ABCDEFGH'
    """
    if not isinstance(text, str):
        return ""
    return "".join(ch for ch in text.upper() if ch.isalnum())[:32]


def same_code(typed: object, code: str) -> bool:
    """Whether ``typed`` is the table's ``code``, in constant time (compared as UTF-8:
    :func:`secrets.compare_digest` refuses a string with a letter past ASCII, ``È``).

    >>> same_code("abcd-efgh", "ABCDEFGH"), same_code("ÈABCDEFGH", "ABCDEFGH")
    (True, False)
    """
    return secrets.compare_digest(clean_code(typed).encode(errors="replace"), code.encode())


@dataclass
class TableMove:
    """One play of the deal as the table saw it."""

    seat: int
    play: Play
    sweep: bool
    by: str


class TableGame:
    """The table's match as it stands: dealt from the seed and played again."""

    def __init__(self, record: TableRecord) -> None:
        self.record = record
        self.engine = get_variant(record.variant)
        settings = Settings.parse(
            record.rules, "rules", base=self.engine.settings_for(record.players)
        )
        self.names = names_of(record)
        made = match_name(record)
        self.match = Match(
            players=self.names,
            settings=settings,
            name=made.english(),
            made=made,
            seat_kinds=seat_kinds_of(record),
        )
        self.rng = random.Random(record.seed)
        self.moves: list[TableMove] = []
        self.leftovers = CardSet()
        self._sheet: Sheet | None = None
        self.state = self._deal()
        for _, (card, capture, by) in replay_log(
            record.log, lambda: self.state.finished, self._next_deal
        ):
            self._make(Play.of(int(card), int(capture)), str(by))
        if self.state.finished:
            self._finish()

    def copy(self) -> TableGame:
        """A game to play on, this one left as it is (its states, match and cards are
        values: only the list of moves and the dealing's randomness are copied)."""
        other = object.__new__(TableGame)
        other.record = self.record
        other.engine = self.engine
        other.names = self.names
        other.match = self.match
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.moves = list(self.moves)
        other.leftovers = self.leftovers
        other._sheet = self._sheet
        other.state = self.state
        return other

    def caught_up(self, record: TableRecord) -> TableGame | None:
        """This game brought to ``record`` without dealing again from the seed: the same
        game (a copy), or this one with the one play ``record`` has more, else ``None``."""
        mine = self.record
        if (
            record.id != mine.id
            or record.seed != mine.seed
            or names_of(record) != self.names
            or record.step not in (mine.step, mine.step + 1)
        ):
            return None
        if record.step == mine.step:
            if record.log != mine.log:
                return None
            game = self.copy()
            game.record = record
            return game
        log, before = record.log, mine.log
        if (
            len(log) != len(before)
            or not log
            or log[:-1] != before[:-1]
            or len(log[-1]) != len(before[-1]) + 1
            or log[-1][:-1] != before[-1]
            or self.state.finished
        ):
            return None
        card, capture, by = log[-1][-1]
        game = self.copy()
        try:
            game.make(Play.of(int(card), int(capture)), str(by))
        except ScopaError:
            return None
        game.record = record
        return game

    def deal_again(self) -> None:
        """The next deal, once this one is over and scored (this game's own: a copy)."""
        self.moves = []
        self.leftovers = CardSet()
        self.state = self._deal()

    def _next_deal(self) -> None:
        """The finished deal scored, the next one dealt."""
        self._finish()
        self.moves = []
        self.leftovers = CardSet()
        self.state = self._deal()

    def _deal(self) -> State:
        return deal_next(self.engine, self.record.players, self.rng, len(self.match.deals))

    def _finish(self) -> None:
        self.match, _ = with_finished_deal(self.match, self.state, self.names)
        self._sheet = None

    def _make(self, play: Play, by: str) -> TableMove:
        seat = self.state.turn
        done = step(self.state, play)
        self.state = done.state
        if done.leftovers is not None:
            self.leftovers = done.leftovers
        move = TableMove(seat, play, done.sweep, by)
        self.moves.append(move)
        return move

    def make(self, play: Play, by: str) -> TableMove:
        """A play of the seat to move, checked by the engine; a deal it ends is scored."""
        move = self._make(play, by)
        if self.state.finished:
            self._finish()
        return move

    @property
    def sheet(self) -> Sheet:
        """The finished deals' sheet (scored once for each deal that ends)."""
        if self._sheet is None:
            self._sheet = score_match(self.match)
        return self._sheet

    @property
    def status(self) -> str:
        if self.state.finished:
            return "match_over" if self.sheet.winner is not None else "deal_over"
        return "playing"

    @property
    def turn(self) -> int | None:
        return None if self.state.finished else self.state.turn

    def log(self, extra: TableMove | None = None) -> list[list[list[Any]]]:
        saved = [list(map(list, deal)) for deal in self.record.log] or [[]]
        if extra is not None:
            card, capture = extra.play.pair
            saved[-1].append([card, capture, extra.by])
        return saved


def clock_ran_out(record: TableRecord, seat: SeatRecord, now: float) -> bool:
    """Whether the computer plays for ``seat`` (the seat to move) because its turn clock ran
    out: a person at the table (present: an away seat waits for its grace, as without a
    clock), the table's clock on, and that many seconds gone since the table last moved
    (the same rule in SQL: ``scopa.store.tables.clock_ran_out``)."""
    return (
        record.clock > 0
        and seat.kind == "human"
        and seat.present(now)
        and now - record.moved_at >= record.clock
    )


def clock_left(record: TableRecord, game: TableGame, now: float) -> int | None:
    """The whole seconds left on the turn clock of the seat to move, while it runs: the
    table's clock on, a deal in play, and a person to move who is at the table (``None``
    otherwise: a computer seat, or a person away, whom the grace is for)."""
    if record.clock <= 0 or not record.full or game.state.finished:
        return None
    seat = record.seats[game.state.turn]
    if seat.kind != "human" or not seat.present(now):
        return None
    return max(0, math.ceil(record.moved_at + record.clock - now))


def names_of(record: TableRecord) -> tuple[str, ...]:
    """The seats' names in the table's match (a free seat: ``Seat N``)."""
    return tuple(
        seat.name if seat.name is not None else f"Seat {seat.seat + 1}" for seat in record.seats
    )


class Games:
    """The tables' games as this process last played or read them, by table (the newest
    :data:`GAMES_KEPT`): a play is made on the game as it stands, not on the table dealt
    again from its seed and every play (that stays the record, and what another process
    or a restart deals from); a table another process moved one play on is brought up to
    it with that play. Each caller gets its own copy to play on."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._games: OrderedDict[int, TableGame] = OrderedDict()
        self._lock = threading.Lock()

    def game(self, record: TableRecord) -> TableGame:
        """The game of ``record`` as it stands, the caller's own to play on."""
        with self._lock:
            kept = self._games.get(record.id)
        found = kept.caught_up(record) if kept is not None else None
        if found is None:
            found = TableGame(record)
        self.keep(found.copy())
        return found

    def latest(self, table_id: int, version: int) -> TableGame | None:
        """The game last kept for the table if its record is at ``version`` (a copy)."""
        kept = self.peek(table_id, version)
        return None if kept is None else kept.copy()

    def peek(self, table_id: int, version: int) -> TableGame | None:
        """The game last kept for the table if its record is at ``version``, to read only
        (never played on: :meth:`latest` gives one to play on)."""
        with self._lock:
            kept = self._games.get(table_id)
        if kept is None or kept.record.version != version:
            return None
        return kept

    def keep(self, game: TableGame) -> None:
        """Keep ``game`` (never played on again here: callers get copies)."""
        with self._lock:
            self._games[game.record.id] = game
            self._games.move_to_end(game.record.id)
            while len(self._games) > self.size:
                self._games.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._games.clear()


GAMES_KEPT = 1024
GAMES = Games(GAMES_KEPT)
"""This process's games (every :class:`Tables` of the process shares them)."""


def match_name(record: TableRecord) -> MadeName:
    """The name a table's match is given (kept as data, worded when shown)."""
    return MadeName.table(record.code[:4], variants.get(record.variant).title)


def seat_view(record: TableRecord, game: TableGame, seat: int | None, now: float) -> dict[str, Any]:
    """What ``seat`` is sent (``None``: the television's view, no hand at all).

    The one function every answer, page, fragment and event for a seat goes through. It
    reads the seat's own hand and what is public at the table (the cards played, captured
    and on the table, the counts, the finished deals' sheet), never another hand's cards,
    the stock's order or the seed.
    """
    state = game.state
    sheet = game.sheet
    settings = game.match.settings
    mine = seat is not None and not state.finished and record.full
    your_turn = mine and state.turn == seat and record.status == "playing"
    legal: dict[str, list[list[str]]] = {}
    if your_turn:
        for play in legal_plays(state):
            legal.setdefault(str(play.card), []).append(play.capture.to_list())
    shown = CardSet(state.shown)
    last_row = sheet.deals[-1] if sheet.deals and state.finished else None
    points = deal_points(variants.get(record.variant), last_row.points) if last_row else None
    status = game.status
    return {
        "table": record.id,
        "code": record.code,
        "step": record.step,
        "version": record.version,
        "variant": record.variant,
        "title": variants.get(record.variant).title,
        "deal": len(record.log) or 1,
        "dealer": state.dealer,
        "turn": None if state.finished else state.turn,
        "you": seat,
        "hand": state.hand(seat).to_list() if seat is not None else [],
        "table_cards": state.table_cards.to_list(),
        "stock": len(state.stock),
        "seats": [
            {
                "name": game.names[k],
                "kind": one.kind,
                "seat_kind": game.match.seat_kinds[k].to_json(),
                "taken": one.taken,
                "present": one.taken and one.present(now),
                "computer_plays": one.taken and one.away_too_long(now, record.grace),
                "hand": state.hands[k].bit_count(),
                "shown": (CardSet(state.hands[k]) & shown).to_list(),
                "pile": state.piles[k].bit_count(),
                "sweeps": state.sweeps[k],
            }
            for k, one in enumerate(record.seats)
        ],
        "waiting": [one.seat for one in record.seats if not one.taken],
        "legal": [{"card": card, "captures": taken} for card, taken in legal.items()],
        "plays": [
            {
                "seat": move.seat,
                "name": game.names[move.seat],
                "card": str(move.play.card),
                "captured": move.play.capture.to_list(),
                "sweep": move.sweep,
                "by": move.by,
            }
            for move in game.moves
        ],
        "leftovers": (
            {"seat": state.leftovers_to, "cards": game.leftovers.to_list()}
            if state.finished and state.leftovers_to is not None
            else None
        ),
        "score": {
            "sides": list(sheet.sides),
            "totals": list(sheet.totals),
            "target": settings.target,
            "winner": sheet.winner,
            # the variant's own keys and words for the deal's points (play.js draws them)
            "last": points["points"] if points else None,
            "keys": points["keys"] if points else [],
            "labels": points["labels"] if points else {},
        },
        "grace": record.grace,
        "clock": record.clock,
        "clock_left": clock_left(record, game, now) if record.status == "playing" else None,
        "timed_out": seat is not None and timed_out(game, seat),
        "level": record.level,
        "match": record.match_id,
        "status": status,
    }


def timed_out(game: TableGame, seat: int) -> bool:
    """Whether the seat's last play of this deal was made for it when its turn clock ran out
    (the seat is told until it plays again)."""
    mine = [move for move in game.moves if move.seat == seat]
    return bool(mine) and mine[-1].by == BY_CLOCK


@dataclass(frozen=True, slots=True)
class Seated:
    """A seat's answer: the table as it stands, from that seat."""

    record: TableRecord
    game: TableGame
    seat: int | None
    now: float
    token: str | None = None

    def view(self) -> dict[str, Any]:
        return seat_view(self.record, self.game, self.seat, self.now)


@dataclass
class NewTable:
    """What ``POST /api/tables`` asks for, checked."""

    variant: str = "scopa"
    players: int = 2
    names: list[str] = field(default_factory=list)
    rules: dict[str, Any] = field(default_factory=dict)
    computer: dict[int, str] = field(default_factory=dict)
    grace: int = DEFAULT_GRACE
    level: str | None = None
    clock: int = DEFAULT_CLOCK

    @classmethod
    def parse(cls, body: object) -> NewTable:
        if not isinstance(body, Mapping):
            raise InputError("body", N_("a table is a JSON object"), code="table.table_json_object")
        known = {"variant", "players", "names", "rules", "computer", "grace", "level", "clock"}
        for key in body:
            if key not in known:
                raise InputError(
                    str(key),
                    N_("unknown key (the keys are {names})"),
                    code="table.unknown_key",
                    names=", ".join(sorted(known)),
                )
        variant = check_variant(body.get("variant", "scopa"))
        engine = get_variant(variant)
        players = body.get("players", engine.players[0])
        if isinstance(players, bool) or not isinstance(players, int):
            raise InputError(
                "players",
                N_("the number of players is a whole number"),
                code="table.number_players_whole_number",
            )
        check_players(variant, players)
        names_in = body.get("names", [])
        if not isinstance(names_in, list) or len(names_in) > players:
            raise InputError(
                "names",
                N_("the names are a list of at most {players}"),
                code="table.names_list_most",
                players=players,
            )
        names: list[str] = []
        for k, name in enumerate(names_in):
            names.append(player_name(name, f"names[{k}]"))
        rules = object_of(
            body, "rules", N_("the rules are an object of settings"), "table.rules_object_settings"
        )
        Settings.parse(rules, "rules", base=engine.settings_for(players))
        computer_in = object_of(
            body,
            "computer",
            N_('the computer\'s seats are an object: {"1": "normal"}'),
            "table.computer_seats_object",
        )
        computer: dict[int, str] = {}
        for key, level in computer_in.items():
            where = f"computer.{key}"
            seat = ascii_digits(key) if isinstance(key, str) else None  # "²".isdigit(), too
            if seat is None or not 0 < seat < players:
                raise InputError(
                    where,
                    N_("a computer's seat is a number from 1 to {value}"),
                    code="table.computer_seat_number_from",
                    value=players - 1,
                )
            computer[seat] = check_level(level, where)
        grace = whole_of(
            body,
            "grace",
            MAX_GRACE,
            N_("the grace is a whole number of seconds, 0-{most}"),
            "table.grace_whole_number_seconds",
            DEFAULT_GRACE,
        )
        level = body.get("level")
        if level is not None:
            level = check_level(level, "level")
        clock = whole_of(
            body,
            "clock",
            MAX_CLOCK,
            N_("the turn clock is a whole number of seconds, 0-{most} (0: no clock)"),
            "table.clock_whole_number_seconds",
            DEFAULT_CLOCK,
        )
        return cls(variant, players, names, rules, computer, grace, level, clock)


def computer_seat(seat: int, computers: Sequence[int]) -> Seat:
    """The computer's seat ``seat`` of a table whose computer seats are ``computers``:
    ``Computer``, or numbered when there are several (``Computer 2``)."""
    return Seat(COMPUTER, 0 if len(computers) == 1 else sorted(computers).index(seat) + 1)


def seat_kinds_of(record: TableRecord) -> tuple[Seat, ...]:
    """Who sits in each seat of the table's match, as data."""
    computers = [s.seat for s in record.seats if s.kind == "computer"]
    return tuple(
        computer_seat(s.seat, computers) if s.kind == "computer" else Seat(PERSON)
        for s in record.seats
    )


def seat_records(spec: NewTable) -> tuple[SeatRecord, ...]:
    """The seats of a new table: the computer's named Computer (Computer 2… when several)."""
    seats = []
    for k in range(spec.players):
        if k in spec.computer:
            label = str(computer_seat(k, list(spec.computer)).english())
            seats.append(SeatRecord(k, label, "computer", spec.computer[k]))
        else:
            seats.append(SeatRecord(k, None, "human"))
    return tuple(seats)


class Tables:
    """Create, join, see and play the tables kept in a store."""

    def __init__(
        self,
        tables: TableStore,
        matches: MatchService,
        clock: Clock = time.time,
        *,
        limits: tuple[int, int] = (MAX_TABLES, MAX_SEATS),
        pause: float = 0.0,
        matches_for: Callable[[int | None], MatchService] | None = None,
        seeds: Callable[[], int] | None = None,
    ) -> None:
        self.tables = tables
        self.seeds = seeds or new_seed
        """Where a new table's (or a rematch's) deals come from; tests pass their own."""
        self.matches = matches
        self.matches_for = matches_for
        """The sheet of a table's group (the background player serves every group)."""
        self.clock = clock
        self.limits = limits
        self.pause = pause
        """Seconds the computer waits after the last change before it plays (a human pace)."""

    # Use cases of a person

    def create(self, body: object) -> Seated:
        """A new table; the creator holds seat 0 (and its token, which is never stored)."""
        spec = NewTable.parse(body)
        now = self.clock()
        open_tables, in_seats = self.tables.counts(now - OPEN_DAYS * 86400)
        humans = spec.players - len(spec.computer)
        if open_tables + 1 > self.limits[0]:
            raise QuotaExceededError(
                "tables",
                N_("tables in play at once: at most {limits}"),
                code="quota.most_tables_play_once",
                limits=self.limits[0],
            )
        if in_seats + humans > self.limits[1]:
            raise QuotaExceededError(
                "seats",
                N_("seats in play at once: at most {limits}"),
                code="quota.most_seats_play_once",
                limits=self.limits[1],
            )
        level = spec.level or (
            min(spec.computer.values(), key=list(LEVELS).index) if spec.computer else "normal"
        )
        token = secrets.token_urlsafe(24)
        seats = list(seat_records(spec))
        name = spec.names[0] if spec.names else "Player 1"
        seats[0] = replace(seats[0], name=name, seen_at=now, token_hash=token_hash(token))
        record = TableRecord(
            id=0,
            code=new_code(),
            variant=spec.variant,
            players=spec.players,
            rules=spec.rules,
            level=level,
            grace=spec.grace,
            clock=spec.clock,
            seed=self.seeds(),
            log=[[]],
            step=0,
            version=1,
            status="playing",
            match_id=None,
            moved_at=now,
            seats=tuple(seats),
        )
        table_id = self.tables.create(record)
        loaded = self._load(table_id)
        loaded = self._start_match(loaded)
        return Seated(loaded, GAMES.game(loaded), 0, now, token)

    def join(self, table_id: int, code: object, name: object) -> Seated:
        """Take the first free seat with the table's code."""
        record = self._load(table_id)
        if not same_code(code, record.code):
            raise SeatRefusedError(N_("the code is not this table's"), code="table.code_not_table")
        return self._join(record, name)

    def join_by_code(self, code: object, name: object) -> Seated:
        """Take the first free seat of the table with this code."""
        record = self.tables.by_code(clean_code(code))
        if record is None:
            raise SeatRefusedError(N_("no table has this code"), code="table.no_table_code")
        return self._join(record, name)

    def _join(self, record: TableRecord, name: object) -> Seated:
        free = [seat for seat in record.seats if not seat.taken]
        if not free:
            raise TableFullError(
                N_("every seat of this table is taken"), code="table.every_seat_table_taken"
            )
        seat = free[0].seat
        chosen = player_name(name, "name") if name not in (None, "") else f"Player {seat + 1}"
        taken = {s.name.casefold() for s in record.seats if s.name is not None}
        if chosen.casefold() in taken:
            raise InputError(
                "name",
                N_("{chosen!r} already sits at this table: choose another name"),
                code="table.already_sits_table_choose",
                chosen=chosen,
            )
        token = secrets.token_urlsafe(24)
        now = self.clock()
        if not self.tables.take_seat(record.id, seat, chosen, token_hash(token), now):
            raise TableFullError(
                N_("the seat was taken meanwhile: try again"), code="table.seat_taken_meanwhile_try"
            )
        loaded = self._start_match(self._load(record.id))
        return Seated(loaded, GAMES.game(loaded), seat, now, token)

    def seat_for(self, table_id: int, token: str | None) -> int:
        """The seat a token holds at the table (a wrong token: :class:`SeatRefusedError`)."""
        return self.seat_at(table_id, token)[0]

    def seat_at(self, table_id: int, token: str | None) -> tuple[int, TableRecord]:
        """The seat a token holds at the table, and the table as read to find it (a play
        is made on it: the table read once)."""
        if not token:
            raise SeatRefusedError(
                N_("a seat's token is needed (Authorization: Bearer TOKEN)"),
                code="table.seat_token_needed",
            )
        record = self._load(table_id)
        hashed = token_hash(token).encode()
        for one in record.seats:
            if one.token_hash is not None and secrets.compare_digest(
                one.token_hash.encode(), hashed
            ):
                return one.seat, record
        raise SeatRefusedError(
            N_("this token holds no seat at this table"), code="table.token_holds_no_seat"
        )

    def view(self, table_id: int, seat: int | None, *, alive: bool = True) -> Seated:
        """The table from a seat; the request counts as the seat's sign of life."""
        if alive and seat is not None:
            self.seen(table_id, seat)
        record = self._load(table_id)
        game = GAMES.game(record)
        self._catch_up(record, game)
        return Seated(record, game, seat, self.clock())

    def kept(self, table_id: int, version: int) -> Seated | None:
        """The table at ``version`` as this process last wrote or read it, for the events
        (the television's seat): the record and game a play here just made are handed to
        the events, nothing read or dealt again (``None``: not kept at that version)."""
        game = GAMES.peek(table_id, version)  # read only: the events play nothing on it
        if game is None:
            return None
        return Seated(game.record, game, None, self.clock())

    def computer_turn(self, table_id: int, version: int) -> int | None:
        """The step at which a computer seat is to play at the table as this process last
        wrote or read it at ``version`` (``None``: not kept at that version, or no computer
        seat to move): the background player plays it once the pause has passed, with no
        look at every table (:meth:`due` finds the rest)."""
        game = GAMES.peek(table_id, version)
        if game is None:
            return None
        record = game.record
        if record.status != "playing" or not record.full or game.state.finished:
            return None
        if record.seats[game.state.turn].kind != "computer":
            return None
        return record.step

    def spectate(self, table_id: int, code: object) -> Seated:
        """The television's view: anyone with the table's code, no hand."""
        record = self._load(table_id)
        if not same_code(code, record.code):
            raise SeatRefusedError(N_("the code is not this table's"), code="table.code_not_table")
        return Seated(record, GAMES.game(record), None, self.clock())

    def seen(self, table_id: int, seat: int) -> None:
        """A sign of life of a seat; the table's version moves when it was away."""
        now = self.clock()
        if self.tables.touch(table_id, seat, now, now):
            self.tables.bump(table_id)

    def left(self, table_id: int, seat: int) -> None:
        """The seat's stream closed: away from now on (its grace starts now): its last sign
        of life is written just past the presence, at this very moment too."""
        now = self.clock()
        self.tables.touch(table_id, seat, now - PRESENCE - LEFT_MARGIN, now)
        self.tables.bump(table_id)

    def play(
        self, table_id: int, seat: int, body: object, read: TableRecord | None = None
    ) -> Seated:
        """The seat's play: ``{"step": S, "card": "7d", "capture": ["7c"]}``; ``read``: the
        table as this request read it to find the seat (:meth:`seat_at`), else read here."""
        if not isinstance(body, Mapping):
            raise InputError("body", N_("a play is a JSON object"), code="table.play_json_object")
        step = step_of(body, MAX_STEP, "table.step_move_based_whole")
        capture = body.get("capture", body.get("captured", []))
        made = parse_play(body.get("card"), capture)
        loaded = None
        if read is not None and read.id == table_id:  # read just now, to find the seat
            loaded = (read, GAMES.game(read))
        try:  # the seat's sign of life is written with its play (one commit)
            return self._change(table_id, seat, step, made, BY_SEAT, loaded=loaded)
        except (VersionConflictError, IllegalPlayError):
            self.seen(table_id, seat)  # refused: still a sign of life
            raise

    def next_deal(
        self, table_id: int, seat: int, body: object, read: TableRecord | None = None
    ) -> Seated:
        """The next deal once a deal is over; once the match is over, a new match (the
        rematch) at the same table, with the same seats. ``read``: the table as this request
        read it to find the seat (:meth:`seat_at`), else read here.

        The next deal is dealt on the game as it stands (not from the seed and every play)
        and written with the seat's sign of life in one commit; a rematch is its match on
        the sheet, then the table's one commit."""
        step = step_of(body, MAX_STEP, "table.step_move_based_whole")
        record = read if read is not None and read.id == table_id else self._load(table_id)
        try:
            moved = N_("the table moved on (step {step}, not {step2})")
            check_step(step, record.step, moved, "version.table_moved")
            game = GAMES.game(record)
            if game.status == "playing":
                raise IllegalPlayError(
                    N_("the deal is not over yet"), code="play.deal_not_over_yet"
                )
            self._record(record, game)
            if game.status == "match_over":
                return self._rematch(record, seat)
            game.deal_again()
            return self._moved(record, game, seat, [*game.log(), []])
        except (VersionConflictError, IllegalPlayError):
            self.seen(table_id, seat)  # refused: still a sign of life
            raise

    def _rematch(self, record: TableRecord, seat: int) -> Seated:
        """A new match at the table: new deals, the same seats."""
        fresh = replace(record, seed=self.seeds(), log=[[]], match_id=None)
        game = TableGame(fresh)
        sheet = self._sheet(record)
        created = sheet.create(match=game.match.with_deals(())).id
        try:
            return self._moved(fresh, game, seat, [[]], match_id=created)
        except VersionConflictError:
            sheet.delete_match(match_id=created, version=None)
            raise

    def _moved(
        self,
        record: TableRecord,
        game: TableGame,
        seat: int,
        log: list[Any],
        match_id: int | None = None,
    ) -> Seated:
        """A new deal (or match) written, with the seat's sign of life: one commit."""
        now = self.clock()
        version = self.tables.save(
            record.id,
            TableWrite(
                based_on=record.step,
                log=log,
                status=game.status,
                turn=game.turn if record.full else None,
                now=now,
                seed=record.seed if match_id is not None else None,
                match_id=match_id,
                seen=seat,
            ),
        )
        if version is None:
            raise VersionConflictError(
                N_("the table moved on meanwhile"), code="version.table_moved_meanwhile"
            )
        seats = tuple(replace(s, seen_at=now) if s.seat == seat else s for s in record.seats)
        saved = replace(
            record,
            log=log,
            step=record.step + 1,
            version=version,
            status=game.status,
            moved_at=now,
            seats=seats,
            match_id=match_id if match_id is not None else record.match_id,
        )
        game.record = saved
        GAMES.keep(game.copy())
        return Seated(saved, game, seat, now)

    # The computer

    def run_due(self) -> int:
        """Play once for every table whose seat to move is the computer's (a computer seat,
        or a human away longer than the grace); how many plays were made."""
        return sum(self.play_for(table_id, step) is not None for table_id, step in self.due())

    def due(self) -> list[tuple[int, int]]:
        """The tables (id, step) where the computer is to play now."""
        return self.tables.due(self.clock(), self.pause)

    def play_for(self, table_id: int, step: int) -> Seated | None:
        """Play once for the seat to move at a table :meth:`due` gave: read, thought and
        written in one commit (the move written only if the table is still at ``step``;
        :meth:`due` gives a table to the process that wrote its last move, so two processes
        do not think for it). The table as written (``None``: no play made)."""
        record = self.tables.load(table_id)
        if record is None:
            return None
        return self.computer_plays(table_id, step, record)

    def computer_plays(
        self, table_id: int, step: int, record: TableRecord | None = None
    ) -> Seated | None:
        if record is None:
            record = self._load(table_id)
        if record.step != step or record.status != "playing" or not record.full:
            return None
        game = GAMES.game(record)
        if game.state.finished:
            return None
        seat = record.seats[game.state.turn]
        now = self.clock()
        if record.moved_at > now - self.pause:  # as in SQL (SqlTables.due)
            return None  # not yet: the others see each card land
        if all(one.kind != "human" or one.away_too_long(now, record.grace) for one in record.seats):
            return None  # nobody left to play for: the table waits (as :meth:`due` says)
        if seat.kind == "computer":
            by = BY_SEAT
        elif seat.away_too_long(now, record.grace):
            by = BY_COMPUTER
        elif clock_ran_out(record, seat, now):
            by = BY_CLOCK
        else:
            return None
        level = seat.level or record.level
        rng = random.Random(record.seed ^ (step * 2654435761))
        player = SearchPlayer(rng, parse_level(level), game.match.settings)
        play = player.choose(game.state, legal_plays(game.state))
        try:
            return self._change(table_id, None, step, play, by, loaded=(record, game))
        except VersionConflictError:
            return None

    # Internals

    def _sheet(self, record: TableRecord) -> MatchService:
        return self.matches if self.matches_for is None else self.matches_for(record.group_id)

    def _load(self, table_id: int) -> TableRecord:
        record = self.tables.load(table_id)
        if record is None:
            raise TableNotFoundError(
                N_("there is no table {table_id}"), code="table.there_no_table", table_id=table_id
            )
        return record

    def _change(
        self,
        table_id: int,
        seat: int | None,
        step: int,
        play: Play,
        by: str,
        loaded: tuple[TableRecord, TableGame] | None = None,
    ) -> Seated:
        record, game = loaded if loaded is not None else (None, None)
        if record is None or game is None:
            record = self._load(table_id)
            game = GAMES.game(record)  # as it stands: not dealt again from the seed
        moved = N_("the table moved on (step {step}, not {step2}): look again")
        check_step(step, record.step, moved, "version.table_moved_2")
        if seat is not None:
            if not record.full:
                raise VersionConflictError(
                    N_("waiting for every seat to be taken"),
                    code="version.waiting_every_seat_taken",
                )
            if game.state.finished:
                raise VersionConflictError(N_("the deal is over"), code="version.deal_over")
            if game.state.turn != seat:
                raise VersionConflictError(
                    N_("it is not your turn (seat {turn} plays)"),
                    code="version.not_your_turn",
                    turn=game.state.turn,
                )
        move = game.make(play, by)
        log = game.log(move)
        now = self.clock()
        version = self.tables.save(
            table_id,
            TableWrite(
                based_on=step, log=log, status=game.status, turn=game.turn, now=now, seen=seat
            ),
        )
        if version is None:
            raise VersionConflictError(
                N_("the table moved on meanwhile: look again"),
                code="version.table_moved_meanwhile_look",
            )
        # The table as just written, not read again; the game is the one just played.
        seats = record.seats
        if seat is not None:
            seats = tuple(replace(s, seen_at=now) if s.seat == seat else s for s in seats)
        saved = replace(
            record,
            log=log,
            step=step + 1,
            version=version,
            status=game.status,
            moved_at=now,
            seats=seats,
        )
        game.record = saved
        GAMES.keep(game)
        if game.state.finished:
            self._record(saved, game)
        return Seated(saved, game, seat, now)

    def _save_turn(self, record: TableRecord) -> TableRecord:
        game = GAMES.game(record)
        self.tables.save(
            record.id,
            TableWrite(
                based_on=record.step,
                log=game.log(),
                status=game.status,
                turn=game.turn if record.full else None,
                now=self.clock(),
            ),
        )
        return self._load(record.id)

    def _start_match(self, record: TableRecord) -> TableRecord:
        """Once every seat is taken, the table's match (with the seats' names) is created,
        and the table waits for the seat to move."""
        if not record.full or record.match_id is not None:
            return record
        game = GAMES.game(record)
        sheet = self._sheet(record)
        created = sheet.create(match=game.match.with_deals(())).id
        if not self.tables.attach_match(record.id, created):
            sheet.delete_match(match_id=created, version=None)
        return self._save_turn(self._load(record.id))

    def _catch_up(self, record: TableRecord, game: TableGame) -> None:
        """A deal finished but not recorded (the server stopped in between) is recorded."""
        if record.match_id is not None and record.log and record.log[-1] and game.state.finished:
            self._record(record, game)

    def _record(self, record: TableRecord, game: TableGame) -> None:
        """Bring the table's match up to its finished deals, each through the sheet's
        ``record_deal``."""
        match_id = record.match_id
        deals = game.match.deals
        if match_id is None or not deals:
            return
        sheet = self._sheet(record)
        for _ in range(len(deals) + 1):
            try:
                stored = sheet.get(match_id=match_id)
            except MatchNotFoundError:
                return  # removed from the sheet: the table plays on
            recorded = len(stored.match.deals)
            if recorded >= len(deals):
                return
            try:
                sheet.record_deal(match_id=match_id, deal=deals[recorded], version=stored.version)
            except VersionConflictError:
                continue
            except QuotaExceededError:
                return  # the group's sheet is full: the table plays on, the deal unrecorded


def hidden_cards(game: TableGame, seat: int | None) -> CardSet:
    """The cards ``seat`` may not know now: the other hands (but cards shown face up by a
    declaration) and the stock."""
    state = game.state
    mask = 0
    for k, hand in enumerate(state.hands):
        if k != seat:
            mask |= hand & ~state.shown
    for card in state.stock:
        mask |= 1 << card
    return CardSet(mask)


def reshuffled(state: State, seat: int | None, rng: random.Random) -> State:
    """The same deal as ``seat`` sees it, with what it cannot see dealt again at random: the
    other hands' hidden cards and the stock, each hand keeping its size (for tests)."""
    hidden = []
    for k, hand in enumerate(state.hands):
        if k != seat:
            hidden += [c for c in range(40) if hand >> c & 1 and not state.shown >> c & 1]
    hidden += list(state.stock)
    rng.shuffle(hidden)
    hands = []
    at = 0
    for k, hand in enumerate(state.hands):
        if k == seat:
            hands.append(hand)
            continue
        keep = hand & state.shown
        count = (hand & ~state.shown).bit_count()
        for card in hidden[at : at + count]:
            keep |= 1 << card
        at += count
        hands.append(keep)
    stock = tuple(hidden[at:])
    return replace(state, hands=tuple(hands), stock=stock, seed=None)


def seats_of(record: TableRecord) -> Sequence[SeatRecord]:
    return record.seats
