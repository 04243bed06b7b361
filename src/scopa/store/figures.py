"""The players' figures, read from the tallies kept per match (:mod:`scopa.store.tallies`):
sums in SQL grouped by name, then by person (:mod:`scopa.store.people`). Nothing is scored
here, and no match is loaded: a page of figures costs a few grouped queries whatever the
number of matches."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import replace
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session, aliased

from scopa.made_names import made_from_row
from scopa.store import people as people_module
from scopa.store.database import aware, of_group
from scopa.store.models import MatchRow, PairTotalRow, PlayerTotalRow, TallyRow
from scopa.store.people import People, people_of
from scopa.store.protocol import Rater
from scopa.store.ratings import ratings_of
from scopa.store.records import EVERY, Filter, Person, Played, PlayerChange, Rating
from scopa.store.tallies import CATEGORY_COLUMNS, SUMMED, scope_of, untallied
from scopa.tally import Figures, Record, category_keys

Transaction = Callable[[], AbstractContextManager[Session]]

SUMS = (
    func.count(TallyRow.id),
    func.sum(TallyRow.won),
    func.sum(TallyRow.finished),
    func.sum(TallyRow.deals),
    func.sum(TallyRow.points),
    func.sum(TallyRow.sweeps),
    *(func.sum(getattr(TallyRow, f"cat_{c}")) for c in CATEGORY_COLUMNS),
)


class _Sums:
    """Sums of tallies, added up name by name into a person's figures."""

    def __init__(self) -> None:
        self.values = [0] * len(SUMS)
        self.variants: set[str] = set()

    def add(self, variant: str, values: tuple[Any, ...]) -> None:
        self.variants.add(variant)
        self.values = [a + int(b or 0) for a, b in zip(self.values, values, strict=True)]

    def figures(self, name: str, variant: str) -> Figures:
        matches, won, finished, deals, points, sweeps, *cats = self.values
        counts = dict(zip(CATEGORY_COLUMNS, cats, strict=True))
        keys = category_keys({variant} if variant else self.variants)
        return Figures(
            name,
            matches=matches,
            won=won,
            finished=finished,
            deals=deals,
            points=points,
            sweeps=sweeps,
            categories=tuple((k, counts[k]) for k in keys),
        )


class SqlPlayers:
    """The players of one group (``None``: the one table) and their figures."""

    def __init__(self, transaction: Transaction, group: int | None = None) -> None:
        self.transaction = transaction
        self.group = group

    def _mine(self, table: Any = TallyRow) -> Any:
        return of_group(table.group_id, self.group)

    def _where(self, wanted: Filter, table: Any = TallyRow) -> list[Any]:
        conditions = [self._mine(table)]
        if wanted.variant:
            conditions.append(table.variant == wanted.variant)
        if wanted.since is not None:
            conditions.append(table.played_at >= wanted.since)
        return conditions

    def untallied(self) -> list[int]:
        """The matches whose tally is not kept yet (the application fills them in)."""
        with self.transaction() as session:
            return untallied(session, self._mine(MatchRow))

    def people(self) -> People:
        with self.transaction() as session:
            return people_of(session, self.group)

    def _sums(self, session: Session, wanted: Filter, keys: Any = None) -> list[Any]:
        """Per name key and variant: matches, won, finished, deals, points, sweeps and the
        categories' counts, summed. From the kept totals (a few rows) unless a period is
        asked, which the tallies answer."""
        table: Any
        if wanted.since is None:
            table = PlayerTotalRow
            sums: Any = [func.sum(getattr(table, c)) for c in ("matches", *SUMMED)]
            where = [table.scope == scope_of(self.group)]
            if wanted.variant:
                where.append(table.variant == wanted.variant)
        else:
            table, sums, where = TallyRow, SUMS, self._where(wanted)
        if keys is not None:
            where.append(table.key.in_(keys))
        query = select(table.key, table.variant, *sums).where(*where)
        return list(session.execute(query.group_by(table.key, table.variant)))

    def _pair_sums(
        self, session: Session, wanted: Filter, keys: Any = None, partners: bool = False
    ) -> list[Any]:
        """Per name key, other name key and whether on one side: matches shared, won by the
        first's side, won by the other's (only partners, each pair once, with ``partners``)."""
        if wanted.since is None:
            table = PairTotalRow
            where = [table.scope == scope_of(self.group)]
            if wanted.variant:
                where.append(table.variant == wanted.variant)
            if keys is not None:
                where += [table.key.in_(keys), table.other.not_in(keys)]
            if partners:
                where += [table.same == 1, table.other > table.key]
            query = select(
                table.key,
                table.other,
                table.same,
                func.sum(table.matches),
                func.sum(table.won),
                func.sum(table.lost),
            ).where(*where)
            return list(session.execute(query.group_by(table.key, table.other, table.same)))
        mine, other = TallyRow, aliased(TallyRow)
        same = (other.side == mine.side).label("same")
        joined = (other.match_id == mine.match_id) & (other.key != mine.key)
        if partners:
            joined = joined & (other.side == mine.side) & (other.key > mine.key)
        tallied = select(
            mine.key, other.key, same, func.count(mine.id), func.sum(mine.won), func.sum(other.won)
        ).join(other, joined)
        if keys is not None:
            tallied = tallied.where(mine.key.in_(keys), other.key.not_in(keys))
        tallied = tallied.where(*self._where(wanted)).group_by(mine.key, other.key, same)
        return list(session.execute(tallied))

    def leaderboard(self, wanted: Filter = EVERY, others: bool = False) -> list[Figures]:
        """Every person shown who played a match counted, with figures (their opponents and
        partners too with ``others``)."""
        with self.transaction() as session:
            people = people_of(session, self.group)
            sums: dict[int, _Sums] = {}
            names: dict[int, str] = {}
            for key, variant, *values in self._sums(session, wanted):
                person = people.of_key(key)
                if person is None or person.removed or not values[0]:
                    continue
                sums.setdefault(person.id, _Sums()).add(variant, tuple(values))
                names[person.id] = person.name
            board = [sums[p].figures(names[p], wanted.variant) for p in sums]
            if not others:
                return board
            everyone = self._others(session, people, None, wanted)
            return [
                replace(f, opponents=everyone[p][0], partners=everyone[p][1])
                if p in everyone
                else f
                for p, f in zip(sums, board, strict=True)
            ]

    def figures(self, name: str, wanted: Filter = EVERY) -> tuple[Person, Figures]:
        """One person's figures, with their opponents and partners
        (:class:`~scopa.errors.PlayerNotFoundError` for a name never played, or removed)."""
        with self.transaction() as session:
            people = people_of(session, self.group)
            person = people.figures_of(name)
            sums = _Sums()
            for _, variant, *values in self._sums(session, wanted, person.keys):
                if values[0]:
                    sums.add(variant, tuple(values))
            figures = sums.figures(person.name, wanted.variant)
            opponents, partners = self._others(session, people, person, wanted).get(
                person.id, ((), ())
            )
            return person, replace(figures, opponents=opponents, partners=partners)

    def _others(
        self, session: Session, people: People, person: Person | None, wanted: Filter
    ) -> dict[int, tuple[tuple[tuple[str, Record], ...], tuple[tuple[str, Record], ...]]]:
        """Opponents and partners of ``person`` (``None``: of everyone), by person."""
        keys = None if person is None else person.keys
        found: dict[int, dict[bool, dict[str, list[int]]]] = {}
        for key, other_key, together, matches, won, lost in self._pair_sums(session, wanted, keys):
            me, who = people.of_key(key), people.of_key(other_key)
            if me is None or who is None or who.removed or who.id == me.id or not matches:
                continue
            table = found.setdefault(me.id, {True: {}, False: {}})[bool(together)]
            counts = table.setdefault(who.name, [0, 0, 0])
            for i, value in enumerate((matches, won, lost)):
                counts[i] += int(value or 0)
        return others_records(found)

    def pairs(self, wanted: Filter = EVERY) -> list[tuple[tuple[str, str], Record]]:
        """Every two people who played on one side, and their record together."""
        with self.transaction() as session:
            people = people_of(session, self.group)
            found: dict[tuple[str, str], list[int]] = {}
            for a, b, _, matches, won, _ in self._pair_sums(session, wanted, partners=True):
                first, second = people.of_key(a), people.of_key(b)
                if first is None or second is None or first.removed or second.removed:
                    continue
                if first.id == second.id or not matches:
                    continue
                names = tuple(sorted((first.name, second.name), key=str.casefold))
                counts = found.setdefault((names[0], names[1]), [0, 0])
                counts[0] += int(matches)
                counts[1] += int(won or 0)
            return [(names, Record(m, w)) for names, (m, w) in found.items()]

    def average(self, wanted: Filter = EVERY) -> Figures:
        """The whole table's figures: every seat of every match counted."""
        with self.transaction() as session:
            sums = _Sums()
            for _, variant, *values in self._sums(session, wanted):
                if values[0]:
                    sums.add(variant, tuple(values))
            return sums.figures("", wanted.variant)

    def played(self, name: str, wanted: Filter = EVERY, limit: int = 20) -> list[Played]:
        """A person's latest matches, newest first (at most ``limit``)."""
        with self.transaction() as session:
            person = people_of(session, self.group).figures_of(name)
            found = []
            for key in person.keys:  # one name at a time: the index gives the newest first
                query = (
                    select(
                        TallyRow,
                        MatchRow.name,
                        MatchRow.summary,
                        MatchRow.name_kind,
                        MatchRow.name_args,
                    )
                    .join(MatchRow, MatchRow.id == TallyRow.match_id)
                    .where(TallyRow.key == key, *self._where(wanted))
                    .order_by(TallyRow.match_id.desc())
                    .limit(limit)
                )
                found += list(session.execute(query))
            found.sort(key=lambda row: -row[0].match_id)
            out = []
            for tally, title, summary, kind, args in found[:limit]:
                line = summary or {}
                sides = tuple(line.get("sides", ()))
                out.append(
                    Played(
                        match_id=tally.match_id,
                        title=title or " vs ".join(sides),
                        variant=tally.variant,
                        played_at=aware(tally.played_at),
                        finished=bool(tally.finished),
                        won=bool(tally.won),
                        deals=tally.deals,
                        points=tally.points,
                        totals=tuple(int(t) for t in line.get("totals", ())),
                        sides=sides,
                        made=made_from_row(kind, args),
                    )
                )
            return out

    def ratings(self, rate: Rater) -> dict[int, Rating]:
        """Each person's rating, worked out again by ``rate`` first if the outcomes moved
        since."""
        with self.transaction() as session:
            return ratings_of(session, self.group, people_of(session, self.group), rate)

    # People

    def rename(self, name: str, new: str) -> str:
        with self.transaction() as session:
            return people_module.rename(session, self.group, name, new)

    def merge(self, name: str, into: str) -> str:
        with self.transaction() as session:
            return people_module.merge(session, self.group, name, into)

    def remove(self, name: str) -> str:
        with self.transaction() as session:
            return people_module.remove(session, self.group, name)

    def undo(self, change_id: int) -> str:
        with self.transaction() as session:
            return people_module.undo(session, self.group, change_id)

    def log(self) -> list[PlayerChange]:
        with self.transaction() as session:
            return people_module.log_of(session, self.group)


Others = dict[int, tuple[tuple[tuple[str, Record], ...], tuple[tuple[str, Record], ...]]]
"""Each person's opponents and partners, by person id: (name, record) pairs, most matches
first."""


def others_records(found: dict[int, dict[bool, dict[str, list[int]]]]) -> Others:
    """The opponents and partners of each person from their counts (matches, won, lost by
    the other's name; ``True``: played together), most matches first; a partner's matches
    are never lost against them."""

    def records(table: dict[str, list[int]], partners: bool) -> tuple[tuple[str, Record], ...]:
        ordered = sorted(table.items(), key=lambda item: (-item[1][0], item[0]))
        return tuple(
            (name, Record(m, w, 0 if partners else lost)) for name, (m, w, lost) in ordered
        )

    return {
        me: (records(tables[False], False), records(tables[True], True))
        for me, tables in found.items()
    }
