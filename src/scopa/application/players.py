"""The use cases over the players: their figures (docs/formats.md, "Player statistics"), a
player's page, head to head, Scopone's partnerships, ratings, and the players as people
(rename, merge, remove, undo).

The figures are sums of the tallies the store keeps with every change of a match; a match
whose tally is not kept yet (stored before tallies were kept) is filled in once, first.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from scopa import variants
from scopa.application.matches import MatchService
from scopa.application.ratings import plackett_luce
from scopa.errors import InputError, describe, one_of
from scopa.formats import csv_text, dump_json, player_name
from scopa.i18n import N_, _
from scopa.made_names import Seat
from scopa.store.protocol import Players
from scopa.store.records import EVERY, Filter, Person, Played, PlayerChange, Rating
from scopa.tally import Figures, Record, category_keys

PERIODS = {"": None, "30d": timedelta(days=30), "365d": timedelta(days=365)}
"""The periods the figures can be limited to: ever, the last 30 days, the last year."""
SORTS = ("win_rate", "matches", "points_per_deal", "rating")
Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class PlayerPage:
    """What a player's page shows."""

    person: Person
    figures: Figures
    average: Figures
    rating: Rating | None
    played: list[Played]


@dataclass(frozen=True, slots=True)
class Pair:
    """Two partners and their record together."""

    names: tuple[str, str]
    record: Record

    @property
    def rate(self) -> float:
        return self.record.won / self.record.matches if self.record.matches else 0.0


class PlayerService:
    """The players of one store view (a group's, or the one table's)."""

    def __init__(self, players: Players, matches: MatchService, now: Clock = utc_now) -> None:
        self.players = players
        self.matches = matches
        self.now = now

    def filter(self, variant: str = "", period: str = "") -> Filter:
        """The matches that count (checked: a variant's name, a period of :data:`PERIODS`)."""
        if variant:
            variant = variants.get(variant, "variant").name
        if period not in PERIODS:
            raise InputError(
                "period",
                N_("{period!r} is not a period (all, 30d or 365d)"),
                code="players.not_period",
                period=period,
            )
        span = PERIODS[period]
        return Filter(variant=variant, since=None if span is None else self.now() - span)

    def _fill_in(self) -> None:
        for match_id in self.players.untallied():
            self.matches.fill_in(match_id)

    def everyone(self, wanted: Filter = EVERY) -> list[Figures]:
        """Every player remembered (removed ones not), most recently played first, with
        their figures."""
        self._fill_in()
        found = {f.name: f for f in self.players.leaderboard(wanted, others=True)}
        people = self.players.people().shown()
        return [found.get(p.name) or _zero(p.name, wanted.variant) for p in people]

    def seats(self) -> dict[str, Seat]:
        """By name key, the names the program gave a seat, worded in the reader's language
        on the players' pages (:meth:`scopa.store.people.People.seats`)."""
        return self.players.people().seats()

    def leaderboard(self, wanted: Filter = EVERY, sort: str = "win_rate") -> list[Figures]:
        """The players who played a match counted, best first by ``sort``."""
        if sort not in SORTS:
            raise one_of("sort", sort, SORTS, code="players.not_order")
        self._fill_in()
        board = self.players.leaderboard(wanted)
        if sort == "rating":
            ratings = self.ratings_by_name()
            unrated = float("-inf")
            return sorted(
                board,
                key=lambda f: (-(r.ordinal if (r := ratings.get(f.name)) else unrated), f.name),
            )
        keys: dict[str, Callable[[Figures], tuple[float, float, str]]] = {
            "win_rate": lambda f: (-f.win_rate, -f.finished, f.name.casefold()),
            "matches": lambda f: (-f.matches, -f.win_rate, f.name.casefold()),
            "points_per_deal": lambda f: (-f.points_per_deal, -f.deals, f.name.casefold()),
        }
        return sorted(board, key=keys[sort])

    def figures(self, name: str, wanted: Filter = EVERY) -> Figures:
        """One player's figures (:class:`~scopa.errors.PlayerNotFoundError` if never played)."""
        self._fill_in()
        return self.players.figures(name, wanted)[1]

    def page(self, name: str, wanted: Filter = EVERY) -> PlayerPage:
        """A player's page: figures, the table's average, rating, latest matches."""
        self._fill_in()
        person, figures = self.players.figures(name, wanted)
        ratings = self.players.ratings(plackett_luce)
        return PlayerPage(
            person=person,
            figures=figures,
            average=self.players.average(wanted),
            rating=ratings.get(person.id),
            played=self.players.played(person.name, wanted, limit=30),
        )

    def head_to_head(self, one: str, other: str, wanted: Filter = EVERY) -> tuple[Figures, Figures]:
        """Two players' figures, each with the other among opponents and partners."""
        self._fill_in()
        return self.players.figures(one, wanted)[1], self.players.figures(other, wanted)[1]

    def partnerships(self, wanted: Filter = EVERY) -> list[Pair]:
        """Every pair who played as partners (Scopone's, unless another variant is asked),
        best record first."""
        self._fill_in()
        chosen = wanted if wanted.variant else Filter(variant="scopone", since=wanted.since)
        pairs = self.players.pairs(chosen)
        return sorted(
            (Pair(names, record) for names, record in pairs),
            key=lambda p: (-p.rate, -p.record.matches, p.names),
        )

    def ratings_by_name(self) -> dict[str, Rating]:
        self._fill_in()
        ratings = self.players.ratings(plackett_luce)
        people = self.players.people()
        return {p.name: ratings[p.id] for p in people.shown() if p.id in ratings}

    def export(self, name: str, kind: str = "json", wanted: Filter = EVERY) -> str:
        """A player's figures as JSON (docs/formats.md) or CSV (one line per figure)."""
        figures = self.figures(name, wanted)
        if kind == "json":
            return dump_json(figures.to_json()) + "\n"
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["figure", "against", "value"])
        data = figures.to_json()
        writer.writerow(["name", "", csv_text(figures.name)])  # never run as a formula
        for key in ("matches", "won", "finished", "deals", "points_per_deal"):
            writer.writerow([key, "", data[key]])
        for key, share in figures.shares().items():
            writer.writerow([f"categories.{key}", "", share])
        writer.writerow(["sweeps_per_deal", "", data["sweeps_per_deal"]])
        for other, record in figures.opponents:
            writer.writerow(["opponent.matches", csv_text(other), record.matches])
            writer.writerow(["opponent.won", csv_text(other), record.won])
            writer.writerow(["opponent.lost", csv_text(other), record.lost])
        for other, record in figures.partners:
            writer.writerow(["partner.matches", csv_text(other), record.matches])
            writer.writerow(["partner.won", csv_text(other), record.won])
        return out.getvalue()

    # People

    def known(self, name: str) -> None:
        """:class:`~scopa.errors.PlayerNotFoundError` unless ``name`` has played here."""
        self.players.people().find(name)

    def rename(self, *, name: str, new: str) -> str:
        """Show ``name`` as ``new`` (the player is looked up first: an unknown one is not
        found, whatever the new name)."""
        person = self.players.people().find(name)
        new = player_name(new, "name")  # the rules of a name at a match: " & " is a team's
        if new == person.name:  # nothing to change, and nothing logged
            raise InputError(
                "name",
                N_("{name} is already the name shown"),
                code="people.same_name",
                name=describe(new),
            )
        return self.players.rename(name, new)

    def merge(self, *, name: str, into: str) -> str:
        """Make ``name`` another name of ``into``."""
        self.known(name)
        return self.players.merge(name, into)

    def remove(self, *, name: str) -> str:
        return self.players.remove(name)

    def undo(self, *, change: int) -> str:
        return self.players.undo(change)

    def log(self) -> list[PlayerChange]:
        return self.players.log()


def _zero(name: str, variant: str) -> Figures:
    keys = category_keys({variant} if variant else ())
    return Figures(name, categories=tuple((k, 0) for k in keys))


_UNDONE = re.compile(r"Undone: (?P<change>.+)", re.S)
_RENAMED = re.compile(r"Renamed (?P<old>.+) → (?P<new>.+)", re.S)
_MERGED = re.compile(r"Merged (?P<gone>.+?) into (?P<kept>.+)", re.S)
_REMOVED = re.compile(r"Removed the figures of (?P<name>.+)", re.S)


def change_text(summary: str) -> str:
    """A players' log entry as the reader says it. The store keeps each summary in English
    (``Renamed Anna → Ann``, ``Merged anna into Anna``, ``Removed the figures of Bruno``,
    ``Undone: …``), as the API answers it; the pages and the command line say it again in the
    language in force (entries written before read right too).

    >>> from scopa.i18n import using
    >>> with using("it"):
    ...     change_text("Undone: Merged anna into Anna")
    'Annullato: anna unito a Anna'
    """
    found = _UNDONE.fullmatch(summary)
    if found:
        return _("Undone: {change}").format(change=change_text(found["change"]))
    found = _RENAMED.fullmatch(summary)
    if found:
        return _("Renamed {old} → {new}").format(old=found["old"], new=found["new"])
    found = _MERGED.fullmatch(summary)
    if found:
        return _("Merged {gone} into {kept}").format(gone=found["gone"], kept=found["kept"])
    found = _REMOVED.fullmatch(summary)
    if found:
        return _("Removed the figures of {name}").format(name=found["name"])
    return summary
