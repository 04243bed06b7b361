"""The project's exceptions: one root, each mixed with the builtin a caller expects."""

from __future__ import annotations

from collections.abc import Mapping


class ScopaError(Exception):
    """Root of every error the project raises on purpose."""


class InputError(ScopaError, ValueError):
    """Malformed or invalid input; ``where`` names the place (``deals[2].piles.Bruno``)."""

    def __init__(self, where: str, message: str) -> None:
        self.where = where
        self.message = message
        super().__init__(f"{where}: {message}" if where else message)

    def within(self, prefix: str) -> InputError:
        """The same error, its place seen from an enclosing document."""
        where = join_place(prefix, self.where)
        return type(self)(where, self.message)


class InvalidCardError(InputError):
    """A card or rank that cannot be read."""


class InvalidSettingError(InputError):
    """A house-rule setting outside its domain."""


class InvalidDealError(InputError):
    """Deal facts that do not add up."""


class InvalidMatchError(InputError):
    """A match (players, teams, rules) that is not well formed."""


class UnknownVariantError(InputError):
    """A variant's name that is not one of the variants, or a variant option that is unknown.

    Raised as ``UnknownVariantError(where, message)`` like every :class:`InputError`; a single
    argument is the message alone (no place):

    >>> str(UnknownVariantError("variant", "'x' is not a variant"))
    "variant: 'x' is not a variant"
    >>> str(UnknownVariantError("unknown variant option 'x'"))
    "unknown variant option 'x'"
    """

    def __init__(self, where: str, message: str | None = None) -> None:
        if message is None:
            where, message = "", where
        super().__init__(where, message)


class UnknownStrategyError(ScopaError, ValueError):
    """A player strategy's name that the engine does not know."""


class UserError(ScopaError):
    """A command-line mistake the user can fix (a missing file, a bad option): a message on
    standard error and exit status 2."""


class SettingsChangeRefused(ScopaError, ValueError):
    """A settings change that the recorded facts cannot follow (nothing changed)."""


class IllegalPlayError(ScopaError, ValueError):
    """A play that the rules do not allow in the current state."""


class MatchNotFoundError(ScopaError, LookupError):
    """No stored match has that id."""


class PlayerNotFoundError(ScopaError, LookupError):
    """No player of that name has played here (or their figures were removed)."""


class DealNotFoundError(ScopaError, LookupError):
    """The match has no deal with that number."""


class VersionConflictError(ScopaError, RuntimeError):
    """A change was based on an old version of the match."""


class QuotaExceededError(ScopaError, RuntimeError):
    """A change would take a group over one of its limits (``limit``: ``matches``,
    ``deals`` or ``bytes``); nothing was stored."""

    def __init__(self, limit: str, message: str) -> None:
        self.limit = limit
        super().__init__(message)


def describe(value: object) -> str:
    """How a wrong value is shown in a message: short, and its JSON type.

    >>> describe(None), describe(True), describe("x" * 50)[:8], describe([1])
    ('null', 'true', "'xxxxxxx", 'a list')
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value if len(value) <= 40 else value[:40] + "…")
    if isinstance(value, int):
        text = str(value) if abs(value) < 10**12 else f"{str(value)[:12]}… (a huge number)"
        return text
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, list | tuple):
        return "a list"
    return type(value).__name__


def join_place(prefix: str, where: str) -> str:
    """Join two places: ``join_place("deals[2]", "piles.Anna") == "deals[2].piles.Anna"``.

    >>> join_place("deals[2]", "piles.Anna")
    'deals[2].piles.Anna'
    >>> join_place("deals", "[3]")
    'deals[3]'
    >>> join_place("", "players")
    'players'
    """
    if not prefix:
        return where
    if not where:
        return prefix
    if where.startswith("["):
        return prefix + where
    return f"{prefix}.{where}"
