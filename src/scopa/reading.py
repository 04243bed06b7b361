"""Small readers of parsed JSON shared by the format modules: each checks one shape and raises
an :class:`~scopa.errors.InputError` that names the place and says what was found."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scopa.errors import InputError, Phrase, describe, join_place
from scopa.i18n import N_


def said(what: str) -> Phrase:
    """What was expected, said in the reader's language (``what`` is marked for the catalog
    where it is written: ``N_("a deal")``, or a :class:`Phrase` with its own parameters)."""
    return what if isinstance(what, Phrase) else Phrase(what)


def _found(where: str, message: str, code: str, what: str, value: object) -> InputError:
    """The refusal of a ``value`` of the wrong shape: ``message`` says what was expected
    (``what``, in a shape) and what was found."""
    return InputError(where, message, code=code, what=said(what), value=describe(value))


def expect_object(value: object, where: str, what: str) -> Mapping[str, Any]:
    """``value`` if it is a JSON object.

    >>> expect_object([], "piles", "the piles by owner")
    Traceback (most recent call last):
    ...
    scopa.errors.InputError: piles: expected the piles by owner (a JSON object), found a list
    """
    if not isinstance(value, Mapping):
        raise _found(
            where,
            N_("expected {what} (a JSON object), found {value}"),
            "format.expected",
            what,
            value,
        )
    return value


def expect_list(value: object, where: str, what: str) -> Sequence[Any]:
    """``value`` if it is a JSON list."""
    if not isinstance(value, list | tuple):
        raise _found(
            where,
            N_("expected {what} (a JSON list), found {value}"),
            "format.expected_2",
            what,
            value,
        )
    return value


def required(
    data: Mapping[str, Any],
    key: str,
    where: str,
    message: str,
    code: str,
    error: type[InputError] = InputError,
    **params: Any,
) -> object:
    """The value of a ``key`` that ``data`` must have; ``message`` (``N_("missing (…)")``,
    with its ``params``), ``code`` and ``error`` refuse it absent, naming its place
    (``where``)."""
    if key not in data:
        raise error(where, message, code=code, **params)
    return data[key]


def expect_string(
    value: object, where: str, message: str, code: str, error: type[InputError] = InputError
) -> str:
    """``value`` if it is a string; else ``message`` (what was expected, and ``{value}``:
    what was found), ``code`` and ``error`` refuse it."""
    if not isinstance(value, str):
        raise error(where, message, code=code, value=describe(value))
    return value


def whole_number(value: object, where: str, what: str, low: int = 0, high: int = 40) -> int:
    """A whole number from ``low`` to ``high`` (``6.0`` reads as 6; ``true`` is no number)."""
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and value.is_integer() and low <= value <= high:
            return int(value)
        raise _found(
            where,
            N_("expected {what} (a whole number), found {value}"),
            "format.expected_3",
            what,
            value,
        )
    if not low <= value <= high:
        raise InputError(
            where,
            N_("{value} is outside {low}-{high} ({what})"),
            code="format.outside",
            value=describe(value),
            low=low,
            high=high,
            what=said(what),
        )
    return value


def digits_only(text: str) -> bool:
    """Whether ``text`` is ASCII digits only, one or more, however many (``"²"`` and
    ``"٣"`` are not: ``str.isdigit`` takes both).

    >>> digits_only("0042"), digits_only("²"), digits_only("1.0"), digits_only("")
    (True, False, False, False)
    """
    return text.isascii() and text.isdigit()


def ascii_digits(text: str, most: int = 20) -> int | None:
    """The whole number ``text`` writes in ASCII digits (at most ``most`` of them), else
    ``None``. The one reader of numbers typed or sent as text: ``str.isdigit`` also takes
    ``"²"`` (which ``int`` refuses) and ``int`` reads ``"٣"`` as 3, so neither is used alone.

    >>> [ascii_digits(text) for text in ("12", "²", "٣", "", "1" * 21)]
    [12, None, None, None, None]
    """
    if 0 < len(text) <= most and digits_only(text):
        return int(text)
    return None


def or_empty(value: object, empty: object) -> object:
    """``null`` (or absent) reads as empty; any other value is checked as it is."""
    return empty if value is None else value


def check_keys(
    data: Mapping[str, Any],
    allowed: Sequence[str],
    where: str,
    what: str,
    message: str = N_("unknown key in {what} (expected {names})"),
    code: str = "format.unknown_key",
    error: type[InputError] = InputError,
) -> None:
    """Refuse a key that is not ``allowed``, naming it and the keys that are (``message``,
    ``code`` and ``error``: the refusal of a place that says more than "unknown key")."""
    for key in data:
        if key not in allowed:
            raise error(
                join_place(where, str(key) or '""'),
                message,
                code=code,
                what=said(what),
                names=", ".join(allowed),
            )


def form_int(text: str, where: str, what: str = "") -> int:
    """A whole number typed into a form field; ``what`` names it in the error (none: the
    form says which field, as the new table form does with its label before the error).

    >>> form_int(" -5 ", "target"), form_int("12", "target", "the points to win")
    (-5, 12)
    >>> form_int("abc", "target")
    Traceback (most recent call last):
    scopa.errors.InputError: target: 'abc' is not a whole number
    """
    text = text.strip()
    named = {"what": said(what)} if what else {}
    if not text:
        enter = N_("enter {what}") if what else N_("enter a whole number")
        raise InputError(where, enter, code="form.enter", **named)
    if ascii_digits(text.removeprefix("-"), 6) is None:  # -5 is whole: a range refuses it
        message = (
            N_("{value} is not a whole number ({what})")
            if what
            else N_("{value} is not a whole number")
        )
        raise InputError(
            where, message, code="form.not_whole_number", value=describe(text), **named
        )
    return int(text)
