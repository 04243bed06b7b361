"""A second backend for the :class:`~scopa.store.protocol.Players` protocol: the players'
figures summed, in plain Python, from the tallies the memory store keeps with every change
(:class:`~tests.application.memory.MemoryMatches`), and the players as people (renamed,
merged, removed, each change undoable). It never scores: the tallies are handed to it."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from scopa.names import name_key
from scopa.store.figures import others_records
from scopa.store.people import (
    People,
    checked_merge,
    checked_remove,
    checked_rename,
    refuse_shared,
    refuse_undo,
)
from scopa.store.protocol import Rater
from scopa.store.records import EVERY, Filter, Person, Played, PlayerChange, Rating, StoredMatch
from scopa.tally import Figures, MatchTally, Record, SeatTally, category_keys
from tests.application.memory import MemoryMatches


@dataclass
class _Name:
    """A name played under, as the SQL store's ``players`` row (:class:`NameRow`): the person
    it belongs to (its own id: itself)."""

    id: int
    name: str
    person_id: int
    last_played_at: datetime
    shown_as: str | None = None
    removed_at: datetime | None = None
    seat: dict[str, Any] | None = None


@dataclass
class _Sums:
    matches: int = 0
    won: int = 0
    finished: int = 0
    deals: int = 0
    points: int = 0
    sweeps: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    variants: set[str] = field(default_factory=set)

    def add(self, tally: MatchTally, seat: SeatTally) -> None:
        self.matches += 1
        self.won += seat.won
        self.finished += tally.finished
        self.deals += seat.deals
        self.points += seat.points
        self.sweeps += seat.sweeps
        self.variants.add(tally.variant)
        for key, count in seat.categories:
            self.counts[key] = self.counts.get(key, 0) + count

    def figures(self, name: str, variant: str) -> Figures:
        keys = category_keys({variant} if variant else self.variants)
        return Figures(
            name,
            matches=self.matches,
            won=self.won,
            finished=self.finished,
            deals=self.deals,
            points=self.points,
            sweeps=self.sweeps,
            categories=tuple((k, self.counts.get(k, 0)) for k in keys),
        )


class MemoryPlayers:
    """The players of a :class:`MemoryMatches` and their figures."""

    def __init__(self, matches: MemoryMatches) -> None:
        self.matches = matches
        self._names: dict[str, _Name] = {}
        self._ids = itertools.count(1)
        self._log: list[tuple[PlayerChange, dict[str, Any]]] = []

    # What the figures are summed from

    def _counted(self, wanted: Filter) -> Iterator[tuple[StoredMatch, MatchTally]]:
        """The live matches that count, with their tallies, oldest first."""
        for match_id in sorted(self.matches._matches):
            stored = self.matches._matches[match_id]
            standing = self.matches._standings.get(match_id)
            if match_id in self.matches._deleted or stored.uncounted is not None:
                continue
            if standing is None or standing.tally is None:
                continue
            tally = standing.tally
            if wanted.variant and tally.variant != wanted.variant:
                continue
            if wanted.since is not None and stored.created_at < wanted.since:
                continue
            yield stored, tally

    def _people(self) -> People:
        """The names played under (the first spelling of each, as the store remembers it),
        each its own person until renamed or merged."""
        for name, at in self.matches._players.items():
            key = name_key(name)
            if key not in self._names:
                row_id = next(self._ids)
                self._names[key] = _Name(row_id, name, row_id, at)
            else:
                known = self._names[key]
                known.last_played_at = max(known.last_played_at, at)
            seat = self.matches._seats.get(key)
            if seat is not None:
                self._names[key].seat = seat.to_json()
        return People(list(self._names.values()))

    def untallied(self) -> list[int]:
        return [
            i
            for i, stored in self.matches._matches.items()
            if i not in self.matches._deleted
            and stored.uncounted is None
            and (self.matches._standings.get(i) is None)
        ]

    def people(self) -> People:
        return self._people()

    # The figures

    def _sums(self, people: People, wanted: Filter) -> dict[int, _Sums]:
        sums: dict[int, _Sums] = {}
        for _stored, tally in self._counted(wanted):
            for seat in tally.seats:
                person = people.of_key(name_key(seat.name))
                if person is not None:
                    sums.setdefault(person.id, _Sums()).add(tally, seat)
        return sums

    def _others(
        self, people: People, wanted: Filter
    ) -> dict[int, tuple[tuple[tuple[str, Record], ...], tuple[tuple[str, Record], ...]]]:
        found: dict[int, dict[bool, dict[str, list[int]]]] = {}
        for _stored, tally in self._counted(wanted):
            for mine, other in itertools.permutations(tally.seats, 2):
                me = people.of_key(name_key(mine.name))
                who = people.of_key(name_key(other.name))
                if me is None or who is None or who.removed or who.id == me.id:
                    continue
                table = found.setdefault(me.id, {True: {}, False: {}})[mine.side == other.side]
                counts = table.setdefault(who.name, [0, 0, 0])
                for i, value in enumerate((1, mine.won, other.won)):
                    counts[i] += int(value)
        return others_records(found)

    def leaderboard(self, wanted: Filter = EVERY, others: bool = False) -> list[Figures]:
        people = self._people()
        sums = self._sums(people, wanted)
        board = {
            p: sums[p].figures(people.people[p].name, wanted.variant)
            for p in sums
            if not people.people[p].removed
        }
        if not others:
            return list(board.values())
        everyone = self._others(people, wanted)
        return [
            dataclasses.replace(f, opponents=everyone[p][0], partners=everyone[p][1])
            if p in everyone
            else f
            for p, f in board.items()
        ]

    def figures(self, name: str, wanted: Filter = EVERY) -> tuple[Person, Figures]:
        people = self._people()
        person = people.figures_of(name)
        sums = self._sums(people, wanted).get(person.id, _Sums())
        opponents, partners = self._others(people, wanted).get(person.id, ((), ()))
        figures = sums.figures(person.name, wanted.variant)
        return person, dataclasses.replace(figures, opponents=opponents, partners=partners)

    def pairs(self, wanted: Filter = EVERY) -> list[tuple[tuple[str, str], Record]]:
        people = self._people()
        found: dict[tuple[str, str], list[int]] = {}
        for _stored, tally in self._counted(wanted):
            for one, other in itertools.combinations(tally.seats, 2):
                first = people.of_key(name_key(one.name))
                second = people.of_key(name_key(other.name))
                if one.side != other.side or first is None or second is None:
                    continue
                if first.removed or second.removed or first.id == second.id:
                    continue
                names = sorted((first.name, second.name), key=str.casefold)
                counts = found.setdefault((names[0], names[1]), [0, 0])
                counts[0] += 1
                counts[1] += int(one.won)
        return [(names, Record(m, w)) for names, (m, w) in found.items()]

    def average(self, wanted: Filter = EVERY) -> Figures:
        sums = _Sums()
        for _stored, tally in self._counted(wanted):
            for seat in tally.seats:
                sums.add(tally, seat)
        return sums.figures("", wanted.variant)

    def played(self, name: str, wanted: Filter = EVERY, limit: int = 20) -> list[Played]:
        person = self._people().figures_of(name)
        out = []
        for stored, tally in reversed(list(self._counted(wanted))):
            seat = next((s for s in tally.seats if name_key(s.name) in person.keys), None)
            line = self.matches._standings[stored.id]
            if seat is None or line is None:
                continue
            out.append(
                Played(
                    match_id=stored.id,
                    title=stored.match.name or " vs ".join(line.sides),
                    variant=tally.variant,
                    played_at=stored.created_at,
                    finished=tally.finished,
                    won=seat.won,
                    deals=seat.deals,
                    points=seat.points,
                    totals=line.totals,
                    sides=line.sides,
                    made=stored.match.made,
                )
            )
        return out[:limit]

    def ratings(self, rate: Rater) -> dict[int, Rating]:
        """Worked out from the first finished match every time (the memory store keeps no
        ratings between calls)."""
        people = self._people()
        games: list[list[list[int]]] = []
        ranks: list[list[float]] = []
        for _stored, tally in self._counted(EVERY):
            if not tally.finished:
                continue
            sides: dict[int, list[int]] = {}
            winner: set[int] = set()
            for seat in sorted(tally.seats, key=lambda s: s.side):
                person = people.of_key(name_key(seat.name))
                sides.setdefault(seat.side, []).append(
                    person.id if person is not None else -abs(hash(seat.name))
                )
                if seat.won:
                    winner.add(seat.side)
            if len(sides) >= 2:
                order = sorted(sides)
                games.append([sides[s] for s in order])
                ranks.append([1.0 if s in winner else 2.0 for s in order])
        return {p: r for p, r in rate(games, ranks, {}).items() if p > 0}

    # The people

    def _write(self, action: str, summary: str, detail: dict[str, Any]) -> str:
        change = PlayerChange(len(self._log) + 1, datetime.now(UTC), action, summary, False)
        self._log.append((change, detail))
        return summary

    def _row(self, person_id: int) -> _Name:
        return next(r for r in self._names.values() if r.id == person_id)

    def rename(self, name: str, new: str) -> str:
        person, taken = checked_rename(self._people(), name, new)
        head = self._row(person.id)
        added = None
        if taken is None:
            added = next(self._ids)
            self._names[name_key(new)] = _Name(added, new, person.id, head.last_played_at)
        detail = {"person": person.id, "was": head.shown_as, "added": added}
        head.shown_as = None if new == head.name else new
        return self._write("rename", f"Renamed {person.name} → {new}", detail)

    def merge(self, name: str, into: str) -> str:
        gone, kept = checked_merge(self._people(), name, into)
        shared = next(
            (
                stored.id
                for stored, _tally in self._counted(EVERY)
                if {name_key(n) for n in stored.match.players} & set(gone.keys)
                and {name_key(n) for n in stored.match.players} & set(kept.keys)
            ),
            None,
        )
        refuse_shared(gone, kept, shared)
        moved = [
            {"id": r.id, "person": r.person_id}
            for r in self._names.values()
            if r.person_id == gone.id
        ]
        for row in self._names.values():
            if row.person_id == gone.id:
                row.person_id = kept.id
        return self._write("merge", f"Merged {gone.name} into {kept.name}", {"moved": moved})

    def remove(self, name: str) -> str:
        person = checked_remove(self._people(), name)
        self._row(person.id).removed_at = datetime.now(UTC)
        summary = f"Removed the figures of {person.name}"
        return self._write("remove", summary, {"person": person.id})

    def undo(self, change_id: int) -> str:
        held = 0 < change_id <= len(self._log)
        refuse_undo(change_id, self._log[change_id - 1][0].undone if held else None)
        change, detail = self._log[change_id - 1]
        if change.action == "rename":
            self._row(detail["person"]).shown_as = detail["was"]
            if detail["added"] is not None:
                alias = self._row(detail["added"])
                if not any(name_key(alias.name) == name_key(n) for n in self.matches._players):
                    del self._names[name_key(alias.name)]
        elif change.action == "merge":
            for one in detail["moved"]:
                self._row(one["id"]).person_id = one["person"]
        elif change.action == "remove":
            self._row(detail["person"]).removed_at = None
        self._log[change_id - 1] = (dataclasses.replace(change, undone=True), detail)
        return self._write("undo", f"Undone: {change.summary}", {"undid": change_id})

    def log(self) -> list[PlayerChange]:
        return [change for change, _detail in reversed(self._log)]
