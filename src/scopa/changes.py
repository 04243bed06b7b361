"""What a change of a match does, defined once: the changes a match can go through, one record
each, and the merge decision for a change made offline.

The records are what the application hands :meth:`~scopa.store.protocol.Matches.change` (the
match, the version the change is based on, and what changes), with the name each has in the
change log (``action``) and what it does to the facts (``after``), which the use cases score
and every store answers with. The phone's worker (:mod:`scopa.web.phone.device`) replays its
outbox through the same records, and :func:`resolve` decides, for a change the phone made
offline, what to send once the server's match is known (docs/offline.md, "Conflicts").

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
from scopa.errors import DealNotFoundError
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
        return dataclasses.replace(stored.match, name=self.name or None)


MatchChange = AddDeal | ReplaceDeal | DeleteDeal | RestoreDeal | ChangeSettings | Rename
"""Every change of a match but its creation and deletion."""


def _deals_with(stored: MatchState, number: int) -> list[Deal]:
    """The deals of a match that has a deal ``number``."""
    deals = list(stored.match.deals)
    if not 1 <= number <= len(deals):
        raise no_deal(stored.id, number)
    return deals


# --- the merge decision for a change made offline -------------------------------------------


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


def _request(url: str, method: str, body: Mapping[str, Any]) -> dict[str, Any]:
    text = json.dumps(dict(body), ensure_ascii=False, separators=(",", ":"))
    return {"url": url, "method": method, "body": text, "type": "application/json"}


def resolve(entry: Mapping[str, Any], now: Mapping[str, Any]) -> dict[str, Any]:
    """What to send now for a change a device made offline (an outbox ``entry``), given the
    match as the server has it (``now``, the API's answer: ``version`` and ``match``).

    The entry names its change (``kind``: ``add``, ``replace``, ``delete``, ``restore``,
    ``rules``), its ``number``, ``removed_id`` or ``body``, and ``base``: the match as the
    device saw it (``count`` of deals, the ``deal`` it changed, the ``rules``). The answer is
    ``{"request": {url, method, body, type}}`` (sent based on the server's version), ``{"drop":
    why}`` (nothing left to do) or ``{"conflict": {...}}`` (the person decides). Changes that
    touch nothing another device changed merge:

    - a deal added: sent, unless others were added meanwhile (``appended``; ``accept_after``
      adds it after them);
    - a deal edited or deleted: sent to wherever that deal (``base.deal``) is now; if it is
      gone or was edited elsewhere, an edit is a conflict (``edited``) and a deletion is
      dropped; ``force`` sends to the same number;
    - a restore: sent (the server refuses a deal it no longer has);
    - house rules: sent, unless a setting changed here was changed to something else there
      meanwhile (``rules``; ``accept_rules`` overrides).

    The page's outbox (``static/merge.js``) decides the same; a test runs both on the same
    cases.
    """
    base: Mapping[str, Any] = entry.get("base") or {}
    deals: list[Any] = list(now["match"]["deals"])
    api = f"/api/matches/{entry.get('match')}"
    version = now["version"]
    kind = entry.get("kind")
    body: Mapping[str, Any] = entry.get("body") or {}
    if kind == "add":
        count = base.get("count")
        if isinstance(count, int) and len(deals) > count and not entry.get("accept_after"):
            return {"conflict": {"type": "appended", "theirs": deals[count:], "count": len(deals)}}
        return {"request": _request(f"{api}/deals", "POST", {**body, "version": version})}
    if kind in ("replace", "delete"):
        number = int(entry["number"])
        where = number
        if base.get("deal") is not None:
            where = next((i for i, d in enumerate(deals, 1) if same(d, base["deal"])), 0)
        if entry.get("force"):
            where = min(number, len(deals))
        if where <= 0:
            if kind == "delete":
                return {"drop": f"deal {number} was already changed or deleted on another device"}
            theirs = deals[number - 1] if number <= len(deals) else None
            return {"conflict": {"type": "edited", "theirs": theirs, "number": number}}
        url = f"{api}/deals/{where}"
        if kind == "delete":
            return {"request": _request(url, "DELETE", {"version": version})}
        return {"request": _request(url, "PUT", {**body, "version": version})}
    if kind == "restore":
        url = f"{api}/removed/{entry.get('removed_id')}/restore"
        return {"request": _request(url, "POST", {"version": version})}
    if kind == "rules":
        was_rules: Mapping[str, Any] = base.get("rules") or {}
        theirs_rules: Mapping[str, Any] = now["match"]["rules"]
        clash = [
            name
            for name, mine in body.items()
            if not entry.get("accept_rules")
            and name in was_rules
            and not same(was_rules[name], theirs_rules.get(name))
            and not same(theirs_rules.get(name), mine)
        ]
        if clash:
            settings = [
                {"name": name, "mine": body[name], "theirs": theirs_rules.get(name)}
                for name in clash
            ]
            return {"conflict": {"type": "rules", "settings": settings}}
        return {"request": _request(f"{api}/rules", "PATCH", {**body, "version": version})}
    return {"drop": "unknown change"}
