"""The version a change is based on, as clients send it: an ``If-Match`` header (``3``,
``"3"`` or ``W/"3"``; ``*`` = no check), a ``"version"`` key in a JSON body, or a form field.
"""

from __future__ import annotations

from collections.abc import Mapping

from scopa.errors import InputError
from scopa.formats import describe
from scopa.i18n import N_
from scopa.reading import ascii_digits
from scopa.web.phone.forms import whole

MAX_VERSION = 2**53


def split_version(data: object) -> tuple[object, int | None]:
    """Take an optional ``"version"`` out of a JSON object body; the rest is the document."""
    if not isinstance(data, Mapping) or "version" not in data:
        return data, None
    rest = {k: v for k, v in data.items() if k != "version"}
    return rest, read_version(data["version"], "version")


def read_version(value: object, where: str) -> int | None:
    """A match version: a whole number from 1, or ``null`` for "no check"."""
    if value is None:
        return None
    if isinstance(value, str) and whole(value.strip(), 16):
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_VERSION:
        raise InputError(
            where,
            N_("expected the match's version (a whole number), found {value}"),
            code="version.expected_match_version",
            value=describe(value),
        )
    return value


def parse_if_match(header: str | None) -> int | None:
    """The version in an ``If-Match`` header: ``3``, ``"3"`` or ``W/"3"``; ``*`` = no check."""
    if header is None or header.strip() in ("", "*"):
        return None
    text = header.strip()
    if text.startswith("W/"):
        text = text[2:]
    text = text.strip('"')
    if not whole(text, 16):
        raise InputError(
            "If-Match",
            N_("expected the match's version, found {value}"),
            code="version.expected_match_version_found",
            value=describe(header),
        )
    return read_version(int(text), "If-Match")


def pick_version(header: int | None, body: int | None) -> int | None:
    """The version a change is based on, from the header or the body (they must agree)."""
    if header is not None and body is not None and header != body:
        raise InputError(
            "version",
            N_("If-Match says {header} but the body says {body}"),
            code="version.if_match_says_but",
            header=header,
            body=body,
        )
    return header if header is not None else body


def last_seen(header: str | None, since: str | None) -> int | None:
    """The version an event stream's client has: ``Last-Event-ID`` (a browser reconnecting
    sends the last event's), else ``?since=V``; 422 naming the one that is not a number."""
    if header:
        return version_of(header, "Last-Event-ID")
    return version_of(since, "since")


def version_of(raw: str | None, where: str) -> int | None:
    """A version sent as text (``None`` or blank: none); anything but ASCII digits is 422.

    >>> version_of(" 7 ", "since"), version_of(None, "since")
    (7, None)
    """
    text = (raw or "").strip()
    if not text:
        return None
    found = ascii_digits(text, 11)
    if found is None:
        raise InputError(
            where,
            N_("expected a version (a whole number), found {value}"),
            code="version.expected_version",
            value=describe(text),
        )
    return found
