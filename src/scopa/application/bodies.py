"""Readers of a request's parsed JSON body that more than one use case needs: each checks one
field and raises an :class:`~scopa.errors.InputError` that names it; and the check that a
move is based on the step its game is at (:func:`check_step`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scopa.errors import InputError, VersionConflictError
from scopa.i18n import N_


def whole_of(
    body: object, key: str, most: int, message: str, code: str, default: object = None
) -> int:
    """``body[key]`` (``default`` where it is missing, as in a body that is not an object)
    if it is a whole number from 0 to ``most``; else refused with ``message`` (marked for
    the catalog where it is written; ``{most}`` in it is ``most``) and ``code``."""
    value = body.get(key, default) if isinstance(body, Mapping) else default
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= most:
        raise InputError(key, message, code=code, most=most)
    return value


def step_of(body: object, most: int, code: str) -> int:
    """The ``step`` a move is based on (a whole number from 0 to ``most``). ``code``: the
    refusal's code, the use case's own."""
    message = N_("the step the move is based on: a whole number 0-{most}")
    return whole_of(body, "step", most, message, code)


def check_step(step: int, at: int, message: str, code: str) -> None:
    """Refuse a move based on ``step`` when the game is at step ``at``: a
    :class:`~scopa.errors.VersionConflictError` with ``message`` (marked for the catalog
    where it is written; ``{step}`` in it is ``at``, ``{step2}`` the step the move saw) and
    ``code``, the use case's own."""
    if step != at:
        raise VersionConflictError(message, code=code, step=at, step2=step)


def object_of(body: Mapping[str, Any], key: str, message: str, code: str) -> dict[Any, Any]:
    """``body[key]`` if it is an object, ``{}`` when it is missing or ``null``; else refused
    with ``message`` (marked for the catalog where it is written) and ``code``."""
    value = body.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise InputError(key, message, code=code)
    return value
