"""The languages people read: English (``en``), Italian (``it``) and Spanish (``es``).

One gettext catalog, ``scopa/locale/<lang>/LC_MESSAGES/scopa.mo`` (compiled from the ``.po``
files at build time), read with the standard library's :mod:`gettext` only, so the same
catalog serves the server, the command line and the phone's Pyodide worker.

The language in force is a context variable: a request, a command or the worker sets it with
:func:`use` (or :func:`using`), and :func:`_`, :func:`ngettext` and :func:`pgettext` translate
into it. Text is only ever made for people: JSON keys, card codes, setting names and player
names never pass through here.

>>> normal("it-IT"), normal("ES_es.UTF-8"), normal("fr"), normal("C"), normal(None)
('it', 'es', None, 'en', None)
>>> from_accept_language("fr-CH, fr;q=0.9, es;q=0.8, it;q=0.7")
'es'
>>> from_accept_language("it-IT;q=0, en;q=0.1"), from_accept_language(";;q=x,,")
('en', None)
"""

from __future__ import annotations

import gettext as _gettext
import json
import zlib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path

LANGUAGES = ("en", "it", "es")
"""The languages spoken, English first (the language of the code and the fallback)."""
DEFAULT = "en"
NAMES = {"en": "English", "it": "Italiano", "es": "Español"}
"""Each language in its own words (the menu's switch)."""
DOMAIN = "scopa"
LOCALE_DIR = Path(__file__).parent / "locale"
MAX_HEADER = 1000
"""Longer ``Accept-Language`` headers are read only this far."""

PHONE_CATALOG = "phone.json.z"
"""The phone's catalog of a language, ``locale/<lang>/phone.json.z`` (see :class:`Keyed`)."""

_current: ContextVar[str] = ContextVar("scopa_language", default=DEFAULT)


def message_key(context: str | None, message: str) -> str:
    """A message's key in the phone's catalog: a CRC-32 of its context and text, in hex.

    >>> message_key(None, "Deal"), message_key("suit", "coins")
    ('512ae0e9', 'c071a101')
    """
    return format(zlib.crc32(f"{context or ''}\x04{message}".encode()), "08x")


class Keyed(_gettext.NullTranslations):
    """The phone's catalog: only the messages its own modules say, each translation under
    :func:`message_key` of its message instead of the English text (the phone's modules
    hold that text already), as zlib-compressed JSON ``{key: text or [one, many]}``. Built
    by the server for the phone's language (``/offline/catalog/<lang>``), so that the
    languages add a few kilobytes to the phone's download instead of a third."""

    def __init__(self, messages: dict[str, object]) -> None:
        super().__init__()
        self.messages = messages

    @classmethod
    def read(cls, data: bytes) -> Keyed:
        return cls(json.loads(zlib.decompress(data)))

    def _find(self, context: str | None, message: str) -> object:
        return self.messages.get(message_key(context, message))

    def gettext(self, message: str) -> str:
        found = self._find(None, message)
        return found if isinstance(found, str) else message

    def pgettext(self, context: str, message: str) -> str:
        found = self._find(context, message)
        return found if isinstance(found, str) else message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return self.npgettext(None, msgid1, msgid2, n)

    def npgettext(self, context: str | None, msgid1: str, msgid2: str, n: int) -> str:
        # English, Italian and Spanish share one plural rule: one form for 1.
        found = self._find(context, msgid1)
        if isinstance(found, list) and len(found) == 2:
            return str(found[0] if n == 1 else found[1])
        return msgid1 if n == 1 else msgid2


@cache
def translations(language: str) -> _gettext.NullTranslations:
    """The catalog of a language (English, or a missing catalog: the messages as written):
    the compiled ``.mo``, or on the phone its own catalog (:class:`Keyed`)."""
    if language == DEFAULT or language not in LANGUAGES:
        return _gettext.NullTranslations()
    phone = LOCALE_DIR / language / PHONE_CATALOG
    if not _gettext.find(DOMAIN, LOCALE_DIR, [language]) and phone.is_file():
        return Keyed.read(phone.read_bytes())
    return _gettext.translation(DOMAIN, LOCALE_DIR, [language], fallback=True)


def normal(tag: object) -> str | None:
    """A language tag (``it``, ``it-IT``, ``it_IT.UTF-8``) as one of :data:`LANGUAGES`,
    ``C``/``POSIX`` as English, anything else ``None``."""
    if not isinstance(tag, str):
        return None
    text = tag.strip()
    if text in ("C", "POSIX") or text.startswith(("C.", "POSIX.")):
        return DEFAULT
    head = text.replace("_", "-").split("-")[0].split(".")[0].split("@")[0].lower()
    return head if head in LANGUAGES else None


def from_accept_language(header: object) -> str | None:
    """The language an ``Accept-Language`` header prefers most among :data:`LANGUAGES`
    (quality values honoured, ``q=0`` refused, ties in the header's order), else ``None``.
    A malformed header or part is passed over, never an error."""
    if not isinstance(header, str):
        return None
    best: tuple[float, int, str] | None = None
    for position, part in enumerate(header[:MAX_HEADER].split(",")):
        tag, _, params = part.partition(";")
        language = normal(tag) if tag.strip() not in ("C", "POSIX") else None
        if language is None:
            continue
        quality = 1.0
        for param in params.split(";"):
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    quality = float(value.strip())
                except ValueError:
                    quality = -1.0
        if not 0 < quality <= 1:
            continue
        if best is None or (-quality, position) < (-best[0], best[1]):
            best = (quality, position, language)
    return None if best is None else best[2]


def from_environment(environ: Mapping[str, str]) -> str:
    """The language a gettext program would speak: ``LANGUAGE`` (a ``:`` list, its first
    spoken language), then the first set of ``LC_ALL``, ``LC_MESSAGES`` and ``LANG``.

    >>> from_environment({"LANGUAGE": "fr:es", "LANG": "it_IT.UTF-8"})
    'es'
    >>> from_environment({"LC_ALL": "", "LANG": "it_IT.UTF-8"}), from_environment({})
    ('it', 'en')
    """
    for tag in environ.get("LANGUAGE", "").split(":"):
        language = normal(tag)
        if language is not None and tag.strip() not in ("C", "POSIX"):
            return language
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            return normal(value) or DEFAULT
    return DEFAULT


def choose(*candidates: object) -> str:
    """The first candidate that names a spoken language, else English."""
    for candidate in candidates:
        language = normal(candidate)
        if language is not None:
            return language
    return DEFAULT


def language() -> str:
    """The language in force."""
    return _current.get()


def use(language: object) -> None:
    """Speak this language from now on in this context (unknown: English)."""
    _current.set(choose(language))


@contextmanager
def using(language: object) -> Iterator[str]:
    """Speak this language inside the ``with`` block."""
    token = _current.set(choose(language))
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def _(message: str) -> str:
    """``message`` in the language in force."""
    return translations(_current.get()).gettext(message)


gettext = _


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n``, in the language in force."""
    return translations(_current.get()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in a context (``pgettext("suit", "coins")``), in the language in force."""
    return translations(_current.get()).pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    return translations(_current.get()).npgettext(context, singular, plural, n)


def N_(message: str) -> str:
    """Mark a message for the catalog without translating it here (it is translated when
    shown: an error's message template, a table of labels)."""
    return message


class Plural(str):
    """A message with its plural, marked for the catalog (:func:`NN_`) and said later: the
    form is chosen by one of the message's parameters (``by``) when it is said, in the
    language in force. As a string it is the English singular (the catalog's key)."""

    many: str
    by: str

    def __new__(cls, one: str, many: str, by: str) -> Plural:
        plural = super().__new__(cls, one)
        plural.many = many
        plural.by = by
        return plural

    def english(self, params: Mapping[str, object]) -> str:
        """The English form for these parameters."""
        return str(self) if params.get(self.by) == 1 else self.many

    def said(self, params: Mapping[str, object]) -> str:
        """The form for these parameters, in the language in force."""
        count = params.get(self.by)
        return ngettext(str(self), self.many, count if isinstance(count, int) else 2)


def NN_(one: str, many: str, by: str) -> Plural:
    """Mark a message and its plural for the catalog (said later with :func:`ngettext`), the
    form chosen by the parameter ``by``: ``NN_("{count} player", "{count} players", "count")``."""
    return Plural(one, many, by)


def NP_(context: str, message: str) -> str:
    """Mark a message with its context (translated later with :func:`pgettext`)."""
    return message


class Current:
    """Translations that follow the language in force: what Jinja2's i18n extension is given
    (``install_gettext_translations(Current(), newstyle=True)``)."""

    def gettext(self, message: str) -> str:
        return _(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        return pgettext(context, message)

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return npgettext(context, singular, plural, n)
