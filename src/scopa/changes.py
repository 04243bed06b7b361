"""What a change of a match does, defined once: the changes a match can go through, one record
each, and the merge policy for a change made against a match that moved on meanwhile.

The records are what the application hands :meth:`~scopa.store.protocol.Matches.change` (the
match, the version the change is based on, and what changes), with the name each has in the
change log (``action``) and what it does to the facts (``after``), which the use cases score
and every store answers with. The phone's worker (:mod:`scopa.web.phone.device`) replays its
outbox through the same records, and :func:`resolve` decides, for a change made
against a match that moved on meanwhile, what to do (docs/offline.md, "Changes from other
phones").

This is the core: it knows a match's state only as :class:`MatchState` (an id, the match and
its removed deals), which the store's :class:`~scopa.store.records.StoredMatch` is.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, ClassVar, Protocol

from scopa.deal import Deal
from scopa.errors import DealNotFoundError, InputError
from scopa.i18n import N_
from scopa.match import Match
from scopa.rules import Settings


class Removed(Protocol):
    """A deal taken out of a match, kept to be restored."""

    @property
    def id(self) -> int: ...
    @property
    def number(self) -> int | None:
        """The number it had (``None``: unknown, it goes back first)."""

    @property
    def deal(self) -> Deal: ...


class MatchState(Protocol):
    """A match as a change finds it: its id, the match and its removed deals."""

    @property
    def id(self) -> int: ...
    @property
    def match(self) -> Match: ...
    @property
    def removed(self) -> Sequence[Removed]: ...


@dataclass(frozen=True, slots=True)
class LocalRemoved:
    """A removed deal as a device keeps it (its id is the server's, or negative: removed on
    this device and not sent yet)."""

    id: int
    number: int | None
    deal: Deal


@dataclass(frozen=True, slots=True)
class LocalState:
    """A match's state as a device keeps it (:class:`MatchState`)."""

    match: Match
    removed: tuple[LocalRemoved, ...] = ()
    id: int = 0


def no_deal(match_id: int, number: int) -> DealNotFoundError:
    """The error for a deal number the match does not have."""
    return DealNotFoundError(
        N_("match {match_id} has no deal {number}"),
        code="deal.match_no_deal",
        match_id=match_id,
        number=number,
    )


def no_removed_deal(match_id: int, removed_id: int) -> DealNotFoundError:
    """The error for a removed deal the match does not have."""
    return DealNotFoundError(
        N_("match {match_id} has no removed deal {removed_id}"),
        code="deal.match_no_removed_deal",
        named_by="removed_id",
        match_id=match_id,
        removed_id=removed_id,
    )


def restored_number(removed: Removed, deal_count: int) -> int:
    """Where a removed deal goes back: the number it had, or last if the match is now
    shorter (of ``deal_count`` deals)."""
    return min(removed.number or 1, deal_count + 1)


@dataclass(frozen=True, slots=True, kw_only=True)
class Change:
    """What every change names: the match, and the version it is based on (``None``:
    whatever is there; another one is refused with
    :class:`~scopa.errors.VersionConflictError`, writing nothing). With ``stamp``, the match
    must also have been last changed at that moment (a state from
    :meth:`~scopa.store.protocol.Matches.peek`: same version, same time)."""

    match_id: int
    version: int | None
    stamp: datetime | None = None
    points: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    """What the change did to the points, worked out by the use case as it makes the change
    (``{"points": {side: n}}``, and ``"points_before"`` for an edit): kept in the log entry's
    detail, so that showing the log never re-reads or re-scores a deal."""


@dataclass(frozen=True, slots=True, kw_only=True)
class AddDeal(Change):
    """Record ``deal`` after the last one."""

    deal: Deal
    action: ClassVar[str] = "add_deal"

    def after(self, stored: MatchState) -> Match:
        """The match as the change leaves it."""
        return stored.match.with_deals((*stored.match.deals, self.deal))


@dataclass(frozen=True, slots=True, kw_only=True)
class ReplaceDeal(Change):
    """Replace deal ``number`` (1-based) with ``deal``."""

    number: int
    deal: Deal
    action: ClassVar[str] = "replace_deal"

    def after(self, stored: MatchState) -> Match:
        """The match as the change leaves it (:class:`~scopa.errors.DealNotFoundError` if
        it has no deal ``number``)."""
        deals = _deals_with(stored, self.number)
        deals[self.number - 1] = self.deal
        return stored.match.with_deals(deals)


@dataclass(frozen=True, slots=True, kw_only=True)
class DeleteDeal(Change):
    """Remove deal ``number``; it is kept and can be restored (:class:`RestoreDeal`)."""

    number: int
    action: ClassVar[str] = "delete_deal"

    def after(self, stored: MatchState) -> Match:
        """The match as the change leaves it (:class:`~scopa.errors.DealNotFoundError` if
        it has no deal ``number``)."""
        deals = _deals_with(stored, self.number)
        del deals[self.number - 1]
        return stored.match.with_deals(deals)


@dataclass(frozen=True, slots=True, kw_only=True)
class RestoreDeal(Change):
    """Put the removed deal ``removed_id`` back at the number it had (or last, if the match
    is shorter now)."""

    removed_id: int
    action: ClassVar[str] = "restore_deal"

    def back(self, stored: MatchState) -> Removed:
        """The removed deal that comes back (:class:`~scopa.errors.DealNotFoundError` if the
        match has no such removed deal)."""
        back = next((r for r in stored.removed if r.id == self.removed_id), None)
        if back is None:
            raise no_removed_deal(stored.id, self.removed_id)
        return back

    def after(self, stored: MatchState) -> Match:
        """The match as the change leaves it (:meth:`back` refuses a removed deal it does
        not have)."""
        back = self.back(stored)
        deals = list(stored.match.deals)
        deals.insert(restored_number(back, len(deals)) - 1, back.deal)
        return stored.match.with_deals(deals)


@dataclass(frozen=True, slots=True, kw_only=True)
class ChangeSettings(Change):
    """Keep new house rules; ``summary`` and ``changes`` (what moved) go in the log."""

    settings: Settings
    summary: str
    changes: dict[str, Any]
    action: ClassVar[str] = "settings"

    def after(self, stored: MatchState) -> Match:
        """The match as the change leaves it (refused if its facts cannot follow: see
        :meth:`Match.with_settings <scopa.match.Match.with_settings>`)."""
        return stored.match.with_settings(self.settings)


@dataclass(frozen=True, slots=True, kw_only=True)
class Rename(Change):
    """Give the match a name (an empty one or ``None``: no name)."""

    name: str | None
    action: ClassVar[str] = "rename"

    def after(self, stored: MatchState) -> Match:
        """The match as the change leaves it."""
        return dataclasses.replace(stored.match, name=self.name or None, made=None)


MatchChange = AddDeal | ReplaceDeal | DeleteDeal | RestoreDeal | ChangeSettings | Rename
"""Every change of a match but its creation and deletion."""


def _deals_with(stored: MatchState, number: int) -> list[Deal]:
    """The deals of a match that has a deal ``number``."""
    deals = list(stored.match.deals)
    if not 1 <= number <= len(deals):
        raise no_deal(stored.id, number)
    return deals


# --- the merge policy: a change made against a match that moved on meanwhile -----------------


def canonical(value: object) -> str:
    """A JSON text of ``value`` with every object's keys sorted: equal values, equal texts
    (``true`` is not ``1``; ``2.0`` is ``2``, as a page script writes it).

    >>> canonical({"b": [1, 2.0, True], "a": None})
    '{"a":null,"b":[1,2,true]}'
    """
    if isinstance(value, list | tuple):
        return "[" + ",".join(map(canonical, value)) + "]"
    if isinstance(value, Mapping):
        items = sorted(value.items(), key=lambda item: str(item[0]))
        return "{" + ",".join(f"{json.dumps(str(k))}:{canonical(v)}" for k, v in items) + "}"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e21:
        value = int(value)
    return json.dumps(value, ensure_ascii=False)


def same(a: object, b: object) -> bool:
    """Whether two JSON values are equal (as :func:`canonical` texts)."""
    return canonical(a) == canonical(b)


_MISSING: Any = object()


def _equal(a: object, b: object) -> bool:
    if a is _MISSING or b is _MISSING:
        return a is b
    return same(a, b)


def merge_fields(
    base: object, mine: object, theirs: object, path: str = ""
) -> tuple[Any, list[str]]:
    """Three-way merge of two edits of one JSON value (``base`` as both devices saw it):
    field by field, a field changed on one side only takes that side's value; a field
    changed on both sides to different values is a clash. Answers the merged value and the
    clashing fields' paths (dotted; empty: no clash, the value is the merge).

    >>> merge_fields({"a": 1, "b": 2}, {"a": 5, "b": 2}, {"a": 1, "b": 7})
    ({'a': 5, 'b': 7}, [])
    >>> merge_fields({"a": 1}, {"a": 5}, {"a": 6})[1]
    ['a']
    """
    if _equal(mine, theirs) or _equal(theirs, base):
        return mine, []
    if _equal(mine, base):
        return theirs, []
    if all(isinstance(v, Mapping) for v in (base, mine, theirs)):
        assert isinstance(base, Mapping)
        assert isinstance(mine, Mapping)
        assert isinstance(theirs, Mapping)
        merged: dict[str, Any] = {}
        clashes: list[str] = []
        for key in sorted({*base, *mine, *theirs}, key=str):
            value, clash = merge_fields(
                base.get(key, _MISSING),
                mine.get(key, _MISSING),
                theirs.get(key, _MISSING),
                f"{path}.{key}" if path else str(key),
            )
            clashes += clash
            if value is not _MISSING:
                merged[key] = value
        return merged, clashes
    return mine, [path]


def _where(entry: Mapping[str, Any], now: Mapping[str, Any]) -> int:
    """Where the deal an edit or a deletion was made on is now (1-based; 0: gone): by its
    identity (``base.deal_id`` among the server's ``deal_ids``), else by its content
    (``base.deal``; the same number first, so that of identical deals the one changed is
    found), else by its number."""
    base: Mapping[str, Any] = entry.get("base") or {}
    deals: list[Any] = list(now["match"]["deals"])
    number = int(entry.get("number") or 0)
    ids = now.get("deal_ids")
    deal_id = base.get("deal_id")
    if isinstance(deal_id, int) and deal_id > 0 and ids:
        return list(ids).index(deal_id) + 1 if deal_id in ids else 0
    if base.get("deal") is not None:
        if 1 <= number <= len(deals) and same(deals[number - 1], base["deal"]):
            return number
        return next((i for i, d in enumerate(deals, 1) if same(d, base["deal"])), 0)
    return number if 1 <= number <= len(deals) else 0


def resolve(entry: Mapping[str, Any], now: Mapping[str, Any]) -> dict[str, Any]:
    """The merge policy, one for every change made against a match that moved on meanwhile
    (on another device, or on this one while it was offline): what to do with a change
    (``entry``), given the match as the server has it (``now``: the API's answer,
    ``version``, ``match`` and ``deal_ids``). The server applies it to the outbox's changes
    and to a page's form that was made stale (:meth:`MatchService.merge
    <scopa.application.MatchService.merge>`); the phone's worker answers it too.

    The entry names its change (``kind``: ``add``, ``replace``, ``delete``, ``restore``,
    ``rules``), its ``number``, ``removed_id`` or ``body``, and ``base``: the match as the
    device saw it (``count`` of deals, the ``deal`` it changed and its ``deal_id``, the
    ``rules``). The answer is ``{"send": {kind, number, removed_id, body}}`` (made on the
    server's version; ``merged``: the fields of another device's edit kept), ``{"drop":
    why}`` (nothing left to do; ``why`` an English message marked for the catalogs, its
    parameters in ``said``) or ``{"conflict": {...}}`` (the person decides, shown both).
    Changes that touch nothing another device changed go through:

    - a deal added: sent, unless others were added meanwhile (``appended``, perhaps the same
      deal recorded twice; ``accept_after`` adds it after them);
    - a deal edited or deleted: sent to wherever that deal is now (found by its identity,
      so identical deals never mix); an edit of a deal edited elsewhere too merges field
      by field, and a field changed on both sides to different values is a clash
      (``edited``, with the ``fields``); a deletion of a deal edited elsewhere is a clash;
      a deletion of a deal already gone is dropped, an edit of one is a clash; ``force``
      keeps this device's change over the other's;
    - a restore: sent (the server refuses a deal it no longer has);
    - house rules: the settings changed here are sent, unless one was changed to something
      else there meanwhile (``rules``; ``accept_rules`` overrides); a setting set to the
      same value on both sides is no clash.
    """
    base: Mapping[str, Any] = entry.get("base") or {}
    deals: list[Any] = list(now["match"]["deals"])
    kind = entry.get("kind")
    body: Any = entry.get("body")
    if kind == "add":
        count = base.get("count")
        if isinstance(count, int) and len(deals) > count and not entry.get("accept_after"):
            return {"conflict": {"type": "appended", "theirs": deals[count:], "count": len(deals)}}
        return {"send": {"kind": "add", "body": body}}
    if kind in ("replace", "delete"):
        number = int(entry.get("number") or 0)
        where = _where(entry, now)
        if where <= 0:
            if kind == "delete":
                said = N_("deal {number} was already deleted on another device")
                return {"drop": said, "said": {"number": number}}
            if not entry.get("force"):
                return {"conflict": {"type": "edited", "theirs": None, "number": number}}
            return {"send": {"kind": "add", "body": body}}  # kept: back as a new deal
        theirs = deals[where - 1]
        was = base.get("deal")
        send: dict[str, Any] = {"kind": kind, "number": where}
        if kind == "replace":
            send["body"] = body
        if was is None or same(theirs, was) or entry.get("force"):
            return {"send": send}
        if kind == "delete":
            return {"conflict": {"type": "edited", "theirs": theirs, "number": where}}
        merged, clashes = merge_fields(was, body, theirs)
        if clashes:
            conflict = {"type": "edited", "theirs": theirs, "number": where, "fields": clashes}
            return {"conflict": conflict}
        return {"send": {**send, "body": merged, "merged": True}}
    if kind == "restore":
        return {"send": {"kind": "restore", "removed_id": entry.get("removed_id")}}
    if kind == "rules":
        was_rules: Mapping[str, Any] = base.get("rules") or {}
        theirs_rules: Mapping[str, Any] = now["match"]["rules"]
        mine_rules = {
            name: value
            for name, value in dict(body or {}).items()
            if name not in was_rules or not same(was_rules[name], value)
        }
        if not mine_rules:
            return {"drop": N_("the house rules are as they were")}
        clash = [
            name
            for name, mine in mine_rules.items()
            if not entry.get("accept_rules")
            and name in was_rules
            and not same(was_rules[name], theirs_rules.get(name))
            and not same(theirs_rules.get(name), mine)
        ]
        if clash:
            settings = [
                {"name": name, "mine": mine_rules[name], "theirs": theirs_rules.get(name)}
                for name in clash
            ]
            return {"conflict": {"type": "rules", "settings": settings}}
        return {"send": {"kind": "rules", "body": mine_rules}}
    return {"drop": N_("unknown change")}


KINDS = ("add", "replace", "delete", "restore", "rules")
"""The changes :func:`resolve` decides on."""
FLAGS = ("accept_after", "force", "accept_rules")


def _bad_entry(where: str, message: str, **params: Any) -> InputError:
    return InputError(where, message, code="change.entry_invalid", **params)


def read_entry(data: object) -> dict[str, Any]:
    """A change to merge (:func:`resolve`) as a client sends it, checked: its ``kind``, the
    ``number`` of the deal an edit or deletion names, the ``removed_id`` a restore names,
    the ``body`` (a deal, or settings by name), the ``base`` it was made on and the person's
    choices (``accept_after``, ``force``, ``accept_rules``). Anything else is refused with
    :class:`~scopa.errors.InputError` naming the place."""
    if not isinstance(data, Mapping):
        raise _bad_entry("", N_("expected a change (an object with its kind)"))
    unknown = sorted(set(data) - {"kind", "number", "removed_id", "body", "base", *FLAGS})
    if unknown:
        raise _bad_entry(unknown[0], N_("unknown key {key!r}"), key=unknown[0])
    kind = data.get("kind")
    if kind not in KINDS:
        raise _bad_entry("kind", N_("expected one of {kinds}"), kinds=", ".join(KINDS))
    entry: dict[str, Any] = {"kind": kind}
    for key in ("number", "removed_id"):
        value = data.get(key)
        if value is not None:
            if isinstance(value, bool) or not isinstance(value, int) or not 0 < value < 2**31:
                raise _bad_entry(key, N_("expected a whole number from 1"))
            entry[key] = value
    if kind in ("replace", "delete") and "number" not in entry:
        raise _bad_entry("number", N_("expected the number of the deal"))
    if kind == "restore" and "removed_id" not in entry:
        raise _bad_entry("removed_id", N_("expected the removed deal's id"))
    body = data.get("body")
    if kind in ("add", "replace", "rules"):
        if not isinstance(body, Mapping):
            raise _bad_entry("body", N_("expected an object (the deal, or the settings)"))
        entry["body"] = dict(body)
    base = data.get("base") or {}
    if not isinstance(base, Mapping):
        raise _bad_entry("base", N_("expected an object (the match as the device saw it)"))
    kept: dict[str, Any] = {}
    for key, value in base.items():
        if value is None:
            continue
        if key in ("count", "deal_id", "version"):
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**31:
                raise _bad_entry(f"base.{key}", N_("expected a whole number"))
        elif key in ("deal", "rules"):
            if value is not None and not isinstance(value, Mapping):
                raise _bad_entry(f"base.{key}", N_("expected an object"))
        else:
            raise _bad_entry(f"base.{key}", N_("unknown key {key!r}"), key=key)
        kept[key] = value
    entry["base"] = kept
    for flag in FLAGS:
        value = data.get(flag)
        if value is not None and not isinstance(value, bool):
            raise _bad_entry(flag, N_("expected true or false"))
        if value:
            entry[flag] = True
    return entry
