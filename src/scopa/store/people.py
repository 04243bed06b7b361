"""The players as people: each remembered name (``players``) is a person, or another name of
one (``person_id``: after a rename or a merge). A rename shows the person under a new name
(``shown_as``) and remembers that name as theirs, so that new matches under either name count
for the same person; the stored matches keep the names they were played under. A merge makes
one person of two names ("anna" and "Anna B."); a removal hides a person's figures at their
request. Each is logged (``player_changes``) with what undoes it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import select
from sqlalchemy.orm import Session, aliased

from scopa.errors import InputError, PlayerNotFoundError
from scopa.i18n import N_
from scopa.made_names import Seat
from scopa.names import MAX_NAME, name_key
from scopa.store.database import aware, of_group
from scopa.store.models import PlayerChangeRow, PlayerRow, TallyRow, utcnow
from scopa.store.players import in_group
from scopa.store.records import Person, PlayerChange
from scopa.store.tallies import outcomes_moved


class NameRow(Protocol):
    """A name played under, as a store keeps it (the SQL store's ``players`` row): the person
    it belongs to (``person_id``; ``None`` or its own id for the person's first name), the
    name it is shown as after a rename, when its figures were removed, and the seat the
    program gave the name (``None``: a person's name)."""

    @property
    def id(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def person_id(self) -> int | None: ...
    @property
    def shown_as(self) -> str | None: ...
    @property
    def removed_at(self) -> datetime | None: ...
    @property
    def last_played_at(self) -> datetime | None: ...
    @property
    def seat(self) -> dict[str, Any] | None: ...


class People:
    """Every person of a group, as read in one transaction (from any store's name rows)."""

    def __init__(self, rows: Sequence[NameRow]) -> None:
        self.rows = {row.id: row for row in rows}
        members: dict[int, list[NameRow]] = {}
        for row in rows:
            members.setdefault(row.person_id or row.id, []).append(row)
        self.people: dict[int, Person] = {}
        self.by_key: dict[str, Person] = {}
        for person_id, names in members.items():
            head = self.rows.get(person_id, names[0])
            names.sort(key=lambda r: (r.id != head.id, r.id))
            person = Person(
                id=head.id,
                name=head.shown_as or head.name,
                names=tuple(r.name for r in names),
                keys=tuple(name_key(r.name) for r in names),
                removed=head.removed_at is not None,
                last_played_at=max(aware(r.last_played_at) for r in names),
            )
            self.people[head.id] = person
            for key in person.keys:
                self.by_key[key] = person
        for person in list(self.people.values()):  # a shown name is the person's too
            self.by_key.setdefault(name_key(person.name), person)

    def seats(self) -> dict[str, Seat]:
        """By name key, the names the program gave a seat (a game against the computer's
        ``You``, ``Computer 2``; a table's computer seat), worded in the reader's language
        (:func:`scopa.words.player_name`); a person shown under a name of their own since
        (a rename) is not one."""
        seats = {}
        for row in self.rows.values():
            person = self.by_key.get(name_key(row.name))
            if row.seat is not None and (person is None or person.name == row.name):
                seats[name_key(row.name)] = Seat.from_json(row.seat)
        return seats

    def of_key(self, key: str) -> Person | None:
        return self.by_key.get(key)

    def find(self, name: str) -> Person:
        """The person known by ``name`` (any case; a shown name or a name played under)."""
        person = self.by_key.get(name_key(name))
        if person is None:
            raise PlayerNotFoundError(
                N_("no player called {name!r} has played here"),
                code="player.no_player_called_played",
                name=name,
            )
        return person

    def figures_of(self, name: str) -> Person:
        """The person known by ``name``, whose figures are shown (a removed person's are
        not: refused)."""
        person = self.find(name)
        if person.removed:
            raise PlayerNotFoundError(
                N_("{name}'s figures were removed at their request"),
                code="player.figures_were_removed_their",
                name=person.name,
            )
        return person

    def shown(self) -> list[Person]:
        """Every person not removed, most recently played first."""
        people = [p for p in self.people.values() if not p.removed]
        return sorted(people, key=lambda p: (-p.last_played_at.timestamp(), p.name))


def people_of(session: Session, group: int | None) -> People:
    return People(list(session.scalars(select(PlayerRow).where(in_group(group)))))


def checked_rename(people: People, name: str, new: str) -> tuple[Person, Person | None]:
    """The person ``name`` and the person already called ``new`` (``None``: a new name), or
    the refusal: ``new`` is no name, or another person's."""
    person = people.find(name)
    if not new or len(new) > MAX_NAME:
        raise InputError(
            "name",
            N_("{new!r} is not a name of 1 to {max_name} characters"),
            code="people.not_name_characters",
            new=new,
            max_name=MAX_NAME,
        )
    taken = people.of_key(name_key(new))
    if taken is not None and taken.id != person.id:
        raise InputError(
            "name",
            N_("{new!r} is already another player's name: merge the two players instead"),
            code="people.already_another_player_name",
            new=new,
        )
    return person, taken


def checked_merge(people: People, name: str, into: str) -> tuple[Person, Person]:
    """The person who goes and the one kept, or the refusal: no name to merge into, or one
    of nobody (refused at ``into``, the field that holds it, not at the player's name), or
    they are one person already."""
    gone = people.find(name)
    if not into.strip():
        raise InputError(
            "into",
            N_("enter the name of the player to merge with"),
            code="people.merge_into_missing",
        )
    try:
        kept = people.find(into)
    except PlayerNotFoundError as error:
        raise InputError("into", error.template, code=error.code, **error.params) from None
    if gone.id == kept.id:
        raise InputError(
            "into",
            N_("{name!r} and {into!r} are already one player"),
            code="people.already_one_player",
            name=name,
            into=into,
        )
    return gone, kept


def refuse_shared(gone: Person, kept: Person, shared: int | None) -> None:
    """Refuse to merge two people who sat at one match (``shared``, when there is one)."""
    if shared is not None:
        raise InputError(
            "into",
            N_("{name} and {name2} both played in match {shared}: two players"),
            code="people.both_played_match_two",
            name=gone.name,
            name2=kept.name,
            shared=shared,
        )


def checked_remove(people: People, name: str) -> Person:
    """The person whose figures go, or the refusal: they are gone already."""
    person = people.find(name)
    if person.removed:
        raise InputError(
            "name",
            N_("{name}'s figures are already removed"),
            code="people.figures_already_removed",
            name=person.name,
        )
    return person


def refuse_undo(change_id: int, undone: bool | None) -> None:
    """Refuse to undo a change the log does not hold (``undone`` is ``None``) or one undone
    already."""
    if undone is None:
        raise PlayerNotFoundError(
            N_("no change {change_id} in the players' log"),
            code="player.no_change_players_log",
            named_by="change",
            change_id=change_id,
        )
    if undone:
        raise InputError(
            "change",
            N_("change {change_id} is already undone"),
            code="people.change_already_undone",
            change_id=change_id,
        )


def _log(session: Session, group: int | None, action: str, summary: str, detail: Any) -> int:
    entry = PlayerChangeRow(
        group_id=group, at=utcnow(), action=action, summary=summary, detail=detail
    )
    session.add(entry)
    session.flush()
    return entry.id


def _shared_match(session: Session, one: Person, other: Person) -> int | None:
    """A match in which both people played (under any of their names)."""
    a, b = aliased(TallyRow), aliased(TallyRow)
    return session.scalar(
        select(a.match_id)
        .join(b, b.match_id == a.match_id)
        .where(a.key.in_(one.keys), b.key.in_(other.keys))
        .limit(1)
    )


def rename(session: Session, group: int | None, name: str, new: str) -> str:
    """Show the person ``name`` as ``new`` everywhere; ``new`` becomes one of their names.
    Refused when ``new`` is another person's name (merge them instead)."""
    people = people_of(session, group)
    person, taken = checked_rename(people, name, new)
    head = session.get_one(PlayerRow, person.id)  # read with the people: no query
    added = None
    if taken is None:
        alias = PlayerRow(
            name=new, group_id=group, person_id=person.id, last_played_at=head.last_played_at
        )
        session.add(alias)
        session.flush()
        added = alias.id
    detail = {"person": person.id, "was": head.shown_as, "added": added}
    head.shown_as = None if new == head.name else new
    summary = f"Renamed {person.name} → {new}"
    _log(session, group, "rename", summary, detail)
    return summary


def merge(session: Session, group: int | None, name: str, into: str) -> str:
    """Make one person of ``name`` and ``into``: ``name``'s names become ``into``'s.
    Refused for one person, and for two who sat at one match (two people, then)."""
    people = people_of(session, group)
    gone, kept = checked_merge(people, name, into)
    refuse_shared(gone, kept, _shared_match(session, gone, kept))
    moved = [
        {"id": row.id, "person": row.person_id}
        for row in people.rows.values()
        if (row.person_id or row.id) == gone.id
    ]
    for one in moved:
        session.get_one(PlayerRow, one["id"]).person_id = kept.id
    outcomes_moved(session, group)
    summary = f"Merged {gone.name} into {kept.name}"
    _log(session, group, "merge", summary, {"moved": moved, "into": kept.id})
    return summary


def remove(session: Session, group: int | None, name: str) -> str:
    """Hide a person's figures, at their request (their matches stay, and count for the
    others)."""
    person = checked_remove(people_of(session, group), name)
    session.get_one(PlayerRow, person.id).removed_at = utcnow()
    summary = f"Removed the figures of {person.name}"
    _log(session, group, "remove", summary, {"person": person.id})
    return summary


def undo(session: Session, group: int | None, change_id: int) -> str:
    """Undo an entry of the players' log (the latest first is the safe order: an entry
    undone out of order undoes only what it did)."""
    entry = session.scalars(
        select(PlayerChangeRow)
        .where(PlayerChangeRow.id == change_id, of_group(PlayerChangeRow.group_id, group))
        .with_for_update()
    ).one_or_none()
    refuse_undo(change_id, None if entry is None else entry.undone_at is not None)
    assert entry is not None
    detail = entry.detail
    if entry.action == "rename":
        head = session.get_one(PlayerRow, detail["person"])
        head.shown_as = detail["was"]
        added = detail.get("added")
        alias = None if added is None else session.get(PlayerRow, added)
        used = alias is not None and session.scalar(
            select(TallyRow.id).where(
                TallyRow.key == name_key(alias.name), of_group(TallyRow.group_id, group)
            )
        )
        if alias is not None and not used:
            session.delete(alias)
    elif entry.action == "merge":
        for one in detail["moved"]:
            row = session.get(PlayerRow, one["id"])
            if row is not None:
                row.person_id = one["person"]
        outcomes_moved(session, group)
    elif entry.action == "remove":
        session.get_one(PlayerRow, detail["person"]).removed_at = None
    entry.undone_at = utcnow()
    summary = f"Undone: {entry.summary}"
    _log(session, group, "undo", summary, {"undid": entry.id})
    return summary


def log_of(session: Session, group: int | None) -> list[PlayerChange]:
    rows = session.scalars(
        select(PlayerChangeRow)
        .where(of_group(PlayerChangeRow.group_id, group))
        .order_by(PlayerChangeRow.id.desc())
    )
    return [
        PlayerChange(r.id, aware(r.at), r.action, r.summary, r.undone_at is not None) for r in rows
    ]
