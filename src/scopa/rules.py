"""The six house-rule settings of the score sheet (RULES.md section 7): one frozen record."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, get_args

from scopa.errors import InvalidSettingError, describe, join_place

Napola = Literal["off", "flat", "run"]
Ties = Literal["withhold", "share"]

TARGET_MIN = 5
TARGET_MAX = 61
NAPOLA_VALUES: tuple[str, ...] = get_args(Napola)
TIES_VALUES: tuple[str, ...] = get_args(Ties)


@dataclass(frozen=True, slots=True, kw_only=True)
class Settings:
    """The house rules of a match; every field has the rulebook's default.

    >>> Settings()
    Settings(target=11, primiera=True, napola='off', partnerships=False, last_capture_sweep=False, ties='withhold')
    >>> Settings(target=4)
    Traceback (most recent call last):
    ...
    scopa.errors.InvalidSettingError: target: 4 is outside the allowed values (a whole number from 5 to 61)
    """  # noqa: E501

    target: int = 11
    """Points that end the game (checked at the end of a deal): a whole number 5-61."""
    primiera: bool = True
    """Whether the primiera point is played."""
    napola: Napola = "off"
    """Ace-2-3 of coins: ``off``, ``flat`` (3 points) or ``run`` (1 per card of the run)."""
    partnerships: bool = False
    """Two teams with pooled piles (4 or 6 players, seats alternating unless teams are given)."""
    last_capture_sweep: bool = False
    """Taking the cards left on the table at the end counts as one more sweep."""
    ties: Ties = "withhold"
    """A tie at the top of cards, coins or primiera: ``withhold`` (nobody) or ``share``."""

    def __post_init__(self) -> None:
        for name, value in self.to_dict().items():
            _check(name, value, name)

    def to_dict(self) -> dict[str, Any]:
        """The settings as in the match format (``rules``)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def describe(self) -> str:
        """The house rules in a line, for people.

        >>> Settings(napola="run", partnerships=True).describe()
        'to 11 · primiera on · napola run · partnerships · ties withhold'
        """
        parts = [f"to {self.target}", f"primiera {'on' if self.primiera else 'off'}"]
        parts.append(f"napola {self.napola}")
        if self.partnerships:
            parts.append("partnerships")
        if self.last_capture_sweep:
            parts.append("last capture sweeps")
        parts.append(f"ties {self.ties}")
        return " · ".join(parts)

    def replace(self, **changes: Any) -> Settings:
        return dataclasses.replace(self, **changes)

    @classmethod
    def parse(cls, data: object, where: str = "rules", base: Settings | None = None) -> Settings:
        """Read settings from JSON: any subset; the rest keep ``base`` (or the defaults).

        Accepts ``true``/``false`` and ``"on"``/``"off"`` for the on/off settings.
        """
        if data is None:
            return base or cls()
        if not isinstance(data, Mapping):
            raise InvalidSettingError(where, f"expected an object of settings, not {_kind(data)}")
        changes: dict[str, Any] = {}
        for key, value in data.items():
            place = join_place(where, str(key))
            if key not in SETTING_NAMES:
                raise InvalidSettingError(
                    place, f"unknown setting (the settings are {', '.join(SETTING_NAMES)})"
                )
            changes[key] = _coerce(key, value, place)
        return dataclasses.replace(base or cls(), **changes)


SETTING_NAMES: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Settings))

ALLOWED: dict[str, str] = {
    "target": f"a whole number from {TARGET_MIN} to {TARGET_MAX}",
    "primiera": "true or false (on/off)",
    "napola": "'off', 'flat' or 'run'",
    "partnerships": "true or false (on/off)",
    "last_capture_sweep": "true or false (on/off)",
    "ties": "'withhold' or 'share'",
}

_ON_OFF = {"on": True, "off": False, "true": True, "false": False}


def _kind(value: object) -> str:
    if value is None:
        return "null"
    return {bool: "a boolean", int: "a number", float: "a number", str: "a string"}.get(
        type(value), f"a {type(value).__name__}"
    )


def _bad(name: str, value: object, where: str) -> InvalidSettingError:
    shown = describe(value)
    return InvalidSettingError(where, f"{shown} is outside the allowed values ({ALLOWED[name]})")


def _check(name: str, value: object, where: str) -> None:
    if name == "target":
        if type(value) is not int or not TARGET_MIN <= value <= TARGET_MAX:
            raise _bad(name, value, where)
    elif name == "napola":
        if value not in NAPOLA_VALUES:
            raise _bad(name, value, where)
    elif name == "ties":
        if value not in TIES_VALUES:
            raise _bad(name, value, where)
    elif type(value) is not bool:
        raise _bad(name, value, where)


def _coerce(name: str, value: object, where: str) -> object:
    """Turn the JSON spellings into the field's type, or say what is allowed."""
    if isinstance(value, str) and name != "target":
        value = value.strip().lower()
        if name in ("primiera", "partnerships", "last_capture_sweep"):
            value = _ON_OFF.get(value, value)
    elif name == "napola" and value is False:
        value = "off"
    elif name == "target" and isinstance(value, float) and value.is_integer():
        value = int(value)
    _check(name, value, where)
    return value
