"""pydantic's own check messages, in the reader's language: the API says them (FastAPI checks
a request with pydantic) and so does the command line (Typer checks an option's range with
pydantic: ``--deals 0``). The English is pydantic's, word for word, so an English reader
reads what they read before.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from scopa import i18n
from scopa.i18n import N_, _, ngettext

VALIDATION = {
    "missing": N_("Field required"),
    "int_type": N_("Input should be a valid integer"),
    "int_parsing": N_("Input should be a valid integer, unable to parse string as an integer"),
    "int_parsing_size": N_("Unable to parse input string as an integer, exceeded maximum size"),
    "int_from_float": N_("Input should be a valid integer, got a number with a fractional part"),
    "float_type": N_("Input should be a valid number"),
    "float_parsing": N_("Input should be a valid number, unable to parse string as a number"),
    "bool_type": N_("Input should be a valid boolean"),
    "bool_parsing": N_("Input should be a valid boolean, unable to interpret input"),
    "string_type": N_("Input should be a valid string"),
    "list_type": N_("Input should be a valid list"),
    "dict_type": N_("Input should be a valid dictionary"),
    "greater_than": N_("Input should be greater than {gt}"),
    "greater_than_equal": N_("Input should be greater than or equal to {ge}"),
    "less_than": N_("Input should be less than {lt}"),
    "less_than_equal": N_("Input should be less than or equal to {le}"),
    "literal_error": N_("Input should be {expected}"),
    "enum": N_("Input should be {expected}"),
    "extra_forbidden": N_("Extra inputs are not permitted"),
    "string_pattern_mismatch": N_("String should match pattern '{pattern}'"),
}
"""FastAPI's (pydantic's) checks of a request, in the reader's language: the English is
pydantic's own, word for word, so an English reader reads what they read before."""


LENGTHS = {"string_too_long": "max_length", "string_too_short": "min_length"}
"""pydantic's checks of a text's length, and where each names the length."""


def _length(kind: str, n: int) -> str:
    if kind == "string_too_long":
        said = ngettext(
            "String should have at most {n} character",
            "String should have at most {n} characters",
            n,
        )
    else:
        said = ngettext(
            "String should have at least {n} character",
            "String should have at least {n} characters",
            n,
        )
    return said.format(n=n)


def validation_message(kind: str, ctx: dict[str, Any], fallback: str) -> str:
    """The message of one failed check of a request, in the language in force.

    >>> validation_message("less_than_equal", {"le": 9}, "?")
    'Input should be less than or equal to 9'
    >>> validation_message("string_too_long", {"max_length": 1}, "?")
    'String should have at most 1 character'
    >>> validation_message("no_such_check", {}, "As it came")
    'As it came'
    """
    try:
        if kind in LENGTHS:
            return _length(kind, int(ctx[LENGTHS[kind]]))
        if kind in ("literal_error", "enum") and i18n.language() != "en":
            ctx = {**ctx, "expected": str(ctx["expected"]).replace(" or ", ", ")}
        if kind in VALIDATION:
            return _(VALIDATION[kind]).format(**ctx)
    except (KeyError, IndexError, TypeError, ValueError):
        pass
    return fallback


LENGTH_SHAPES = (
    ("string_too_long", re.compile(r"String should have at most (\d+) characters?")),
    ("string_too_short", re.compile(r"String should have at least (\d+) characters?")),
)
"""pydantic's checks of a text's length as it says them (the length filled in)."""


@cache
def _shapes() -> tuple[tuple[re.Pattern[str], str], ...]:
    """Each template of :data:`VALIDATION` as a pattern of its English (each ``{name}`` a
    group), the one with the most fixed words first (``{expected}`` matches anything)."""
    templates = sorted(set(VALIDATION.values()), key=lambda t: -len(re.sub(r"\{\w+\}", "", t)))
    shapes = []
    for template in templates:
        parts = re.split(r"\{(\w+)\}", template)
        pattern = "".join(
            re.escape(part) if k % 2 == 0 else f"(?P<{part}>.+?)" for k, part in enumerate(parts)
        )
        shapes.append((re.compile(pattern, re.S), template))
    return tuple(shapes)


def said(english: str) -> str | None:
    """One of pydantic's messages as it came (the values filled in), in the language in
    force: its template matched, translated and filled; ``None`` when it is none of them.

    >>> with i18n.using("it"):
    ...     said("Input should be greater than or equal to 1"), said("Something else")
    ('deve essere almeno 1', None)
    """
    for kind, shape in LENGTH_SHAPES:
        length = shape.fullmatch(english)
        if length:
            return _length(kind, int(length[1]))
    for pattern, template in _shapes():
        found = pattern.fullmatch(english)
        if found:
            return _(template).format(**found.groupdict())
    return None
