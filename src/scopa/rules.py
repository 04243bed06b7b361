"""The house rules of a match (docs/rules.md sections 7 and 9.3): one frozen record.

A match has a variant (``scopa`` by default) and the settings of that variant. Scopa keeps
exactly its six settings; the other variants add theirs (``primiera_mode``, ``ace_sweep``,
``cirulla_points``...). A setting that does not belong to the match's variant keeps its neutral
value (the class default), so it changes nothing; reading one from JSON is refused.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, get_args

from scopa import variants
from scopa.errors import (
    A_LIST,
    InvalidSettingError,
    Phrase,
    UnknownVariantError,
    describe,
    join_place,
)
from scopa.i18n import N_, _, pgettext
from scopa.variants import SCOPA_SETTINGS, TARGET_MAX, TARGET_MIN, VariantDef, variant_name

Napola = Literal["off", "flat", "run"]
Ties = Literal["withhold", "share"]
PrimieraMode = Literal["sum", "sevens"]
Cappotto = Literal["win", "off"]

NAPOLA_VALUES: tuple[str, ...] = get_args(Napola)
TIES_VALUES: tuple[str, ...] = get_args(Ties)
PRIMIERA_MODES: tuple[str, ...] = get_args(PrimieraMode)
CAPPOTTO_VALUES: tuple[str, ...] = get_args(Cappotto)

WHOLE_RANGES: dict[str, tuple[int, int]] = {
    "cirulla_points": (0, 10),
    "decino_points": (0, 10),
    "piccola_cap": (3, 10),
}
CHOICES: dict[str, tuple[str, ...]] = {
    "napola": NAPOLA_VALUES,
    "ties": TIES_VALUES,
    "primiera_mode": PRIMIERA_MODES,
    "cappotto": CAPPOTTO_VALUES,
}
ON_OFF_SETTINGS = ("primiera", "partnerships", "last_capture_sweep", "last_play_sweep", "ace_sweep")


SettingKind = Literal["whole", "on_off", "choice"]


def setting_kind(name: str) -> SettingKind:
    """How a setting is written: a whole number, on/off (a checkbox on a page's form), or one
    of its :data:`CHOICES`. The pages' form reader and the phone's (static/forms.js) follow it.

    >>> setting_kind("target"), setting_kind("ace_sweep"), setting_kind("cappotto")
    ('whole', 'on_off', 'choice')
    """
    if name == "target" or name in WHOLE_RANGES:
        return "whole"
    if name in CHOICES:
        return "choice"
    if name in ON_OFF_SETTINGS:
        return "on_off"
    raise KeyError(name)


@dataclass(frozen=True, slots=True, kw_only=True)
class Settings:
    """The house rules of a match; every field has the rulebook's default for Scopa.

    For another variant start from its defaults: ``Settings.of("cirulla")``.

    >>> Settings()
    Settings(target=11, primiera=True, napola='off', partnerships=False, last_capture_sweep=False, ties='withhold')
    >>> Settings(target=4)
    Traceback (most recent call last):
    ...
    scopa.errors.InvalidSettingError: target: 4 is outside the allowed values (a whole number from 5 to 61)
    >>> Settings.of("escoba")
    Settings(variant='escoba', target=15, primiera=True, primiera_mode='sum', partnerships=False, last_capture_sweep=False, ties='withhold')
    """  # noqa: E501

    variant: str = "scopa"
    """The match's variant (a name in :data:`scopa.variants.VARIANTS`); it decides which
    settings exist."""
    target: int = 11
    """Points that end the game (checked at the end of a deal): a whole number 5-61
    (Cirulla 5-151)."""
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
    primiera_mode: PrimieraMode = "sum"
    """Escoba, Cirulla: ``sum`` (best card per suit) or ``sevens`` (most sevens wins it)."""
    last_play_sweep: bool = False
    """Scopone: a recorded last-play clear scores a sweep."""
    ace_sweep: bool = False
    """Scopa d'Assi: each recorded ace take-all scores a sweep."""
    cirulla_points: int = 3
    """Cirulla: points for each cirulla declared (0 = not played)."""
    decino_points: int = 10
    """Cirulla: points for each decino declared (0 = not played)."""
    piccola_cap: int = 6
    """Cirulla: the most the piccola (the run of coins from the ace) can score, 3-10."""
    cappotto: Cappotto = "win"
    """Cirulla: all ten coins ``win`` the game, or (``off``) only score their categories."""

    def __post_init__(self) -> None:
        variant = self.variant
        defined = variants.VARIANTS.get(variant)
        if defined is None:
            name = variant_name(variant)  # raises the error that says what is wrong
            raise UnknownVariantError(
                "variant",
                N_("{variant!r} is written {name!r}"),
                code="variant.written",
                variant=variant,
                name=name,
            )
        names = defined.setting_names
        for name in ALL_SETTING_NAMES:
            value = getattr(self, name)
            if name in names:
                _check(name, value, name, variant)
            elif value != NEUTRAL[name]:
                raise not_a_setting_of(name, variant, name)

    def __repr__(self) -> str:
        shown = [] if self.variant == "scopa" else [f"variant={self.variant!r}"]
        shown += [f"{name}={getattr(self, name)!r}" for name in self.names]
        return f"Settings({', '.join(shown)})"

    @classmethod
    def of(cls, variant: str = "scopa", **changes: Any) -> Settings:
        """A variant's default settings, with some changed.

        >>> Settings.of("assi").napola, Settings.of("cirulla", target=101).target
        ('run', 101)
        """
        defined = variants.get(variant)
        return cls(
            variant=defined.name,
            **{"target": defined.default_target, **defined.default_rules, **changes},
        )

    @property
    def definition(self) -> VariantDef:
        """The definition of this match's variant."""
        return variants.get(self.variant)

    @property
    def names(self) -> tuple[str, ...]:
        """The settings of this match's variant."""
        return variants.get(self.variant).setting_names

    def to_dict(self) -> dict[str, Any]:
        """The settings as in the match format (``rules``): all the variant's settings."""
        return {name: getattr(self, name) for name in self.names}

    def describe(self) -> str:
        """The house rules in a line, for people.

        >>> Settings(napola="run", partnerships=True).describe()
        'to 11 · primiera on · napola run · partnerships · ties withhold'
        >>> Settings.of("escoba", primiera=False).describe()
        'Escoba · to 15 · setenta off · ties withhold'
        >>> Settings.of("cirulla", primiera_mode="sevens").describe()
        'Cirulla · to 51 · primiera on (most sevens) · ties withhold · cirulla 3 · decino 10 · piccola up to 6 · cappotto wins'
        """  # noqa: E501
        names = self.names
        parts = [] if self.variant == variants.DEFAULT else [self.definition.title]
        parts.append(_("to {points}").format(points=self.target))
        word = self.definition.labels.get("primiera", "Primiera")
        if word == "Primiera":
            primiera = _("primiera on") if self.primiera else _("primiera off")
        else:  # the variant's own word for it (Escoba's setenta)
            said = pgettext("category", word).lower()
            on, off = _("{category} on"), _("{category} off")
            primiera = (on if self.primiera else off).format(category=said)
        if self.primiera and self.primiera_mode == "sevens":
            primiera += " " + _("(most sevens)")
        parts.append(primiera)
        if "napola" in names:
            napola = {"off": _("napola off"), "flat": _("napola flat"), "run": _("napola run")}
            parts.append(napola[self.napola])
        if self.partnerships:
            parts.append(_("partnerships"))
        if self.last_capture_sweep:
            parts.append(_("last capture sweeps"))
        parts.append(_("ties withhold") if self.ties == "withhold" else _("ties share"))
        if self.last_play_sweep:
            parts.append(_("last-play clear sweeps"))
        if self.ace_sweep:
            parts.append(_("ace take-alls sweep"))
        if "cirulla_points" in names:
            parts.append(_("cirulla {points}").format(points=self.cirulla_points))
        if "decino_points" in names:
            parts.append(_("decino {points}").format(points=self.decino_points))
        if "piccola_cap" in names:
            parts.append(_("piccola up to {points}").format(points=self.piccola_cap))
        if "cappotto" in names:
            parts.append(_("cappotto wins") if self.cappotto == "win" else _("no cappotto win"))
        return " · ".join(parts)

    def replace(self, **changes: Any) -> Settings:
        return dataclasses.replace(self, **changes)

    @classmethod
    def parse(
        cls,
        data: object,
        where: str = "rules",
        base: Settings | None = None,
        variant: str | None = None,
    ) -> Settings:
        """Read settings from JSON: any subset; the rest keep ``base`` (a change of a match's
        rules) or the defaults of ``variant`` (Scopa when neither is given).

        Accepts ``true``/``false`` and ``"on"``/``"off"`` for the on/off settings.
        """
        start = base if base is not None else cls.of(variant or "scopa")
        if data is None:
            return start
        if not isinstance(data, Mapping):
            raise InvalidSettingError(
                where,
                N_("expected an object of settings, not {value}"),
                code="setting.expected_object_settings_not",
                value=_kind(data),
            )
        names = start.names
        changes: dict[str, Any] = {}
        for key, value in data.items():
            place = join_place(where, str(key))
            if key == "variant":
                if base is not None:
                    raise InvalidSettingError(
                        "variant",
                        N_("the variant is chosen when the match is created and cannot be changed"),
                        code="setting.variant_chosen_when_match",
                    )
                raise InvalidSettingError(
                    place,
                    N_("the variant is a key of the match, not one of its rules"),
                    code="setting.variant_key_match_not",
                )
            if key not in names:
                if key in ALL_SETTING_NAMES:
                    raise not_a_setting_of(key, start.variant, place)
                raise InvalidSettingError(
                    place,
                    N_("unknown setting (the settings are {names})"),
                    code="setting.unknown_setting",
                    names=", ".join(names),
                )
            changes[key] = _coerce(key, value, place, start.variant)
        return dataclasses.replace(start, **changes)


SETTING_NAMES: tuple[str, ...] = SCOPA_SETTINGS
"""Scopa's six settings (docs/rules.md section 7)."""
ALL_SETTING_NAMES: tuple[str, ...] = tuple(
    f.name for f in dataclasses.fields(Settings) if f.name != "variant"
)
NEUTRAL: dict[str, Any] = {
    f.name: f.default for f in dataclasses.fields(Settings) if f.name != "variant"
}
"""The value of a setting in a variant that does not have it: the class default."""


def whole_from(low: int, high: int) -> Phrase:
    """What a setting of whole numbers allows, as an error says it."""
    return Phrase(N_("a whole number from {low} to {high}"), low=low, high=high)


ON_OR_OFF = Phrase(N_("true or false (on/off)"))
ALLOWED: dict[str, Phrase] = {
    "target": whole_from(TARGET_MIN, TARGET_MAX),
    "primiera": ON_OR_OFF,
    "napola": Phrase(N_("'off', 'flat' or 'run'")),
    "partnerships": ON_OR_OFF,
    "last_capture_sweep": ON_OR_OFF,
    "ties": Phrase(N_("'withhold' or 'share'")),
    "primiera_mode": Phrase(N_("'sum' or 'sevens'")),
    "last_play_sweep": ON_OR_OFF,
    "ace_sweep": ON_OR_OFF,
    **{name: whole_from(low, high) for name, (low, high) in WHOLE_RANGES.items()},
    "cappotto": Phrase(N_("'win' or 'off'")),
}
"""What each setting allows, as an error says it (in the reader's language)."""

_ON_OFF = {"on": True, "off": False, "true": True, "false": False}


def variants_with(setting: str) -> tuple[str, ...]:
    """The variants that have a setting, in the order they are registered."""
    return variants.with_setting(setting)


def _and_list(items: tuple[str, ...]) -> str:
    if len(items) == 1:
        return items[0]
    return Phrase(N_("{items} and {last}"), items=", ".join(items[:-1]), last=items[-1])


def not_a_setting_of(name: str, variant: str, where: str) -> InvalidSettingError:
    """The error for a setting that the match's variant does not have."""
    owners = _and_list(variants_with(name))
    names = ", ".join(variants.get(variant).setting_names)
    return InvalidSettingError(
        where,
        N_("a setting of {owners}, not of {variant} (the settings of {variant} are {names})"),
        code="setting.setting_not",
        owners=owners,
        variant=variant,
        names=names,
    )


def target_range(variant: str) -> tuple[int, int]:
    """The allowed targets of a variant (5-61; Cirulla 5-151)."""
    return variants.get(variant).target_range


_KINDS = {
    bool: Phrase(N_("a boolean")),
    int: Phrase(N_("a number")),
    float: Phrase(N_("a number")),
    str: Phrase(N_("a string")),
    list: A_LIST,
    tuple: A_LIST,
}


def _kind(value: object) -> str:
    if value is None:
        return "null"
    return _KINDS.get(type(value), Phrase(N_("a {kind}"), kind=type(value).__name__))


def _bad(name: str, value: object, where: str, variant: str = "scopa") -> InvalidSettingError:
    allowed = ALLOWED[name]
    if name == "target":
        allowed = whole_from(*target_range(variant))
    shown = describe(value)
    return InvalidSettingError(
        where,
        N_("{shown} is outside the allowed values ({allowed})"),
        code="setting.outside_allowed_values",
        shown=shown,
        allowed=allowed,
    )


def _check(name: str, value: object, where: str, variant: str = "scopa") -> None:
    if name == "target":
        low, high = target_range(variant)
        if type(value) is not int or not low <= value <= high:
            raise _bad(name, value, where, variant)
    elif name in WHOLE_RANGES:
        low, high = WHOLE_RANGES[name]
        if type(value) is not int or not low <= value <= high:
            raise _bad(name, value, where, variant)
    elif name in CHOICES:
        if value not in CHOICES[name]:
            raise _bad(name, value, where, variant)
    elif type(value) is not bool:
        raise _bad(name, value, where, variant)
    elif name == "partnerships" and not value and variants.get(variant).partnerships_forced:
        raise InvalidSettingError(
            where,
            N_("false is not allowed: {variant} is always played in partnerships"),
            code="setting.false_not_allowed_always",
            variant=variant,
        )


def _coerce(name: str, value: object, where: str, variant: str = "scopa") -> object:
    """Turn the JSON spellings into the field's type, or say what is allowed."""
    whole = name == "target" or name in WHOLE_RANGES
    if isinstance(value, str) and not whole:
        value = value.strip().lower()
        if name in ON_OFF_SETTINGS:
            value = _ON_OFF.get(value, value)
    elif name in ("napola", "cappotto") and value is False:
        value = "off"
    elif name == "cappotto" and value is True:
        value = "win"
    elif whole and isinstance(value, float) and value.is_integer():
        value = int(value)
    _check(name, value, where, variant)
    return value
