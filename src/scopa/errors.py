"""The project's exceptions: one root, each mixed with the builtin a caller expects.

Every error carries a stable ``code`` (a dotted identifier, the same in every language:
``card.not_rank``) and the ``params`` its message is made from, beside the place (``where``)
for input errors. The message is a template (``"{value} is not a rank (…)"``, marked for the
catalog); ``str(error)`` and ``error.message`` are it in English, as they always were, and
:meth:`ScopaError.text` is it in the language in force (:mod:`scopa.i18n`).

>>> error = InputError("deals[0]", "{value} is not a card", code="card.not_card", value="'X'")
>>> error.message, error.code, error.params
("'X' is not a card", 'card.not_card', {'value': "'X'"})
>>> from scopa.i18n import using
>>> with using("it"):
...     InvalidCardError("x", "{value} is not a rank (expected A-7, J, H, K or an alias: 1, 8/F/S, 9/Q/C, 10/R)", value="'Z'").text()
"'Z' non è un valore (si aspetta A-7, F, C, R o un alias: 1, 8/J/S, 9/Q/H, 10/K)"
"""  # noqa: E501

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Self

from scopa.i18n import N_, Plural, _


def _fill(template: str, params: Mapping[str, Any]) -> str:
    if not params:
        return template
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):  # a translation that lost a placeholder
        return template


def _english(template: str, params: Mapping[str, Any]) -> str:
    """A template's English form: a :class:`~scopa.i18n.Plural`'s chosen by its count."""
    return template.english(params) if isinstance(template, Plural) else template


def _translated(template: str, params: Mapping[str, Any]) -> str:
    """A template in the language in force (a plural's form chosen by its count there)."""
    return template.said(params) if isinstance(template, Plural) else _(template)


class Phrase(str):
    """A message's parameter that is words itself (what was expected, the allowed values):
    English as a string, said in the reader's language where the message is
    (:meth:`ScopaError.text`). Its template is marked for the catalog where it is written.

    >>> from scopa.i18n import using
    >>> allowed = Phrase("a whole number from {low} to {high}", low=5, high=61)
    >>> allowed == "a whole number from 5 to 61", allowed.params
    (True, {'low': 5, 'high': 61})
    >>> with using("it"):
    ...     allowed.text()
    'un numero intero da 5 a 61'
    """

    template: str
    params: dict[str, Any]

    def __new__(cls, template: str, **params: Any) -> Self:
        phrase = super().__new__(cls, _fill(template, params))
        phrase.template = template
        phrase.params = params
        return phrase

    def text(self) -> str:
        """The words in the language in force."""
        return _fill(_(self.template), {k: _said(v) for k, v in self.params.items()})


AN_OBJECT = Phrase(N_("an object"))
A_LIST = Phrase(N_("a list"))
"""What :func:`describe` writes for a value with no short form."""


def _said(value: Any) -> Any:
    """A message's parameter as the reader reads it: an error it wraps in their language
    (with its place), a :class:`Phrase` translated, anything else as it is."""
    if isinstance(value, Phrase):
        return value.text()
    if isinstance(value, ScopaError):
        where = getattr(value, "where", "")
        return f"{where}: {value.text()}" if where else value.text()
    return value


class ScopaError(Exception):
    """Root of every error the project raises on purpose: a message template, its
    parameters and a stable code (the class's ``default_code`` unless given)."""

    default_code = "error"

    def __init__(self, message: object = "", *, code: str | None = None, **params: Any) -> None:
        self.template = message if isinstance(message, Plural) else str(message)
        self.params: dict[str, Any] = params
        self.code: str = code or self.default_code
        super().__init__(_fill(_english(self.template, params), params))

    def text(self) -> str:
        """The message in the language in force."""
        params = {k: _said(v) for k, v in self.params.items()}
        return (
            _fill(_translated(self.template, self.params), params) if self.template else str(self)
        )


class InputError(ScopaError, ValueError):
    """Malformed or invalid input; ``where`` names the place (``deals[2].piles.Bruno``)."""

    default_code = "input"

    def __init__(self, where: str, message: str, *, code: str | None = None, **params: Any) -> None:
        self.where = where
        self.template = message
        self.params = params
        self.code = code or self.default_code
        self.message = _fill(_english(message, params), params)
        Exception.__init__(self, f"{where}: {self.message}" if where else self.message)

    def within(self, prefix: str) -> InputError:
        """The same error, its place seen from an enclosing document."""
        where = join_place(prefix, self.where)
        return type(self)(where, self.template, code=self.code, **self.params)

    def text(self) -> str:
        """The message (without the place) in the language in force."""
        return ScopaError.text(self)


class InvalidCardError(InputError):
    """A card or rank that cannot be read."""

    default_code = "card"


class InvalidSettingError(InputError):
    """A house-rule setting outside its domain."""

    default_code = "setting"


class InvalidDealError(InputError):
    """Deal facts that do not add up."""

    default_code = "deal"


class InvalidMatchError(InputError):
    """A match (players, teams, rules) that is not well formed."""

    default_code = "match"


class UnknownVariantError(InputError):
    """A variant's name that is not one of the variants, or a variant option that is unknown.

    Raised as ``UnknownVariantError(where, message)`` like every :class:`InputError`; a single
    argument is the message alone (no place):

    >>> str(UnknownVariantError("variant", "'x' is not a variant"))
    "variant: 'x' is not a variant"
    >>> str(UnknownVariantError("unknown variant option 'x'"))
    "unknown variant option 'x'"
    """

    default_code = "variant"

    def __init__(
        self, where: str, message: str | None = None, *, code: str | None = None, **params: Any
    ) -> None:
        if message is None:
            where, message = "", where
        super().__init__(where, message, code=code, **params)


class UnknownStrategyError(ScopaError, ValueError):
    """A player strategy's name that the engine does not know."""

    default_code = "strategy"


class UserError(ScopaError):
    """A command-line mistake the user can fix (a bad option, input that is not valid): a
    message on standard error and exit status 2."""

    default_code = "usage"


class UserFailure(UserError):
    """A command that was used rightly but could not do what it was asked (a file that
    exists already, a restore refused): a message on standard error and exit status 1."""

    failure = True


class UserNotFound(UserFailure, LookupError):
    """What the command names is not there (a file, an access code, a group): a message on
    standard error and exit status 1, as every "not found"."""


class DatabaseDamagedError(ScopaError, RuntimeError):
    """A stored match whose facts no longer read as a match (changed outside the program)."""

    default_code = "store.damaged"


class SettingsChangeRefused(ScopaError, ValueError):
    """A settings change that the recorded facts cannot follow (nothing changed)."""

    default_code = "rules.refused"


class IllegalPlayError(ScopaError, ValueError):
    """A play that the rules do not allow in the current state."""

    default_code = "play.illegal"


class NotFoundError(ScopaError, LookupError):
    """What a request names is not there; ``named_by`` is the place of the request that
    named it, which a 404 answers with (the class's ``default_named_by`` unless given: a
    removed deal is named by ``removed_id``, not by a deal's ``number``)."""

    default_named_by = "id"

    def __init__(
        self,
        message: object = "",
        *,
        named_by: str | None = None,
        code: str | None = None,
        **params: Any,
    ) -> None:
        self.named_by = named_by or self.default_named_by
        super().__init__(message, code=code, **params)


class MatchNotFoundError(NotFoundError):
    """No stored match has that id."""

    default_code = "match.not_found"


class PlayerNotFoundError(NotFoundError):
    """No player of that name has played here (or their figures were removed)."""

    default_code = "player.not_found"
    default_named_by = "name"


class DealNotFoundError(NotFoundError):
    """The match has no deal with that number."""

    default_code = "deal.not_found"
    default_named_by = "number"


class VersionConflictError(ScopaError, RuntimeError):
    """A change was based on an old version of the match."""

    default_code = "version.conflict"


class QuotaExceededError(ScopaError, RuntimeError):
    """A change would take a group over one of its limits (``limit``: ``matches``,
    ``deals`` or ``bytes``); nothing was stored."""

    default_code = "quota"

    def __init__(self, limit: str, message: str, *, code: str | None = None, **params: Any) -> None:
        self.limit = limit
        super().__init__(message, code=code or f"quota.{limit}", **params)


def one_of(
    where: str,
    value: object,
    allowed: Iterable[object],
    *,
    code: str,
    error: type[InputError] = InputError,
) -> InputError:
    """The refusal of a ``value`` that is not one of those ``allowed``: one sentence (one
    catalog entry) for every such refusal, the values quoted as they are typed.

    >>> str(one_of("reward", "money", ("points", "match"), code="env.not_one"))
    "reward: 'money' is not one of 'points', 'match'"
    """
    return error(
        where,
        N_("{value} is not one of {allowed}"),
        code=code,
        value=describe(value),
        allowed=", ".join(repr(item) for item in allowed),
    )


def too_long(
    where: str,
    text: str,
    most: int,
    *,
    code: str = "match.characters_most",
    error: type[InputError] = InvalidMatchError,
) -> InputError:
    """The refusal of a name ``text`` longer than ``most`` characters (a player's, a
    match's, a group's): one sentence for every such limit.

    >>> str(too_long("name", "Anna", 3))
    "name: 'Anna' is 4 characters; at most 3"
    """
    return error(
        where,
        N_("{value} is {count} characters; at most {most}"),
        code=code,
        value=describe(text),
        count=len(text),
        most=most,
    )


def either(items: Sequence[object]) -> str:
    """Choices as a reader says them: ``4``, ``2 or 3``, ``2, 3, 4, 5 or 6`` (the "or" in
    the reader's language where it stands in a message).

    >>> from scopa.i18n import using
    >>> with using("it"):
    ...     either([2, 3, 4]).text()
    '2, 3 o 4'
    """
    if len(items) == 1:
        return str(items[0])
    first = ", ".join(str(item) for item in items[:-1])
    return Phrase(N_("{first} or {last}"), first=first, last=str(items[-1]))


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
        if abs(value) < 10**12:
            return str(value)
        return Phrase(N_("{digits}… (a huge number)"), digits=str(value)[:12])
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, Mapping):
        return AN_OBJECT
    if isinstance(value, list | tuple):
        return A_LIST
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
