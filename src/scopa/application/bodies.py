"""Readers of a request's parsed JSON body that more than one use case needs: each checks one
field and raises an :class:`~scopa.errors.InputError` that names it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scopa.errors import InputError
from scopa.i18n import N_


def step_of(body: object, most: int, code: str) -> int:
    """The ``step`` a move is based on (a whole number from 0 to ``most``); a body that is
    not an object has none. ``code``: the refusal's code, the use case's own."""
    step = body.get("step") if isinstance(body, Mapping) else None
    if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= most:
        raise InputError(
            "step",
            N_("the step the move is based on: a whole number 0-{max_step}"),
            code=code,
            max_step=most,
        )
    return step


def object_of(body: Mapping[str, Any], key: str, message: str, code: str) -> dict[Any, Any]:
    """``body[key]`` if it is an object, ``{}`` when it is missing or ``null``; else refused
    with ``message`` (marked for the catalog where it is written) and ``code``."""
    value = body.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise InputError(key, message, code=code)
    return value
