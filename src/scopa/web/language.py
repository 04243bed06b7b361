"""Which language a request is answered in, and the templates' words in it.

The first that names a spoken language (:data:`scopa.i18n.LANGUAGES`): ``?lang=xx``, the
``lang`` cookie (set when a page is opened with ``?lang=xx``: the menu's switch), on a hosted
server the language of the request's group if it has one (``scopa groups create --language``;
put in force by :class:`~scopa.web.access.hosted.HostedMiddleware` once the group is known), the
``Accept-Language`` header (quality values honoured, ``it-IT`` counts as ``it``), English. An
unknown or malformed language is never an error: it falls back. The language is in force for
the whole request (:func:`scopa.i18n.use`), so the templates, the error handlers and the core's
messages all speak it; ``request.scope["scopa.language"]`` names it.

Dates, times and numbers are written in the language's form by Babel.

The cards' display goes the same way (:mod:`scopa.words`): ``?deck=french`` or
``?deck=italian`` (the menu's second switch) is remembered in the ``deck`` cookie, and the
display in force for the request (:func:`scopa.words.use_deck`) draws every card the pages
name: the Play page, the tables, the deal forms, the sheet. ``<html data-deck>`` tells the
page scripts (``static/i18n.js``), which tell the phone's worker. Card codes never change.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qsl

from babel.dates import format_datetime
from babel.numbers import format_decimal, format_percent
from jinja2 import Environment, pass_context
from jinja2.runtime import Context
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from scopa import i18n, variants, words
from scopa.errors import ScopaError
from scopa.made_names import PERSON, Seat
from scopa.names import MAX_NAME

COOKIE = "lang"
DECK_COOKIE = "deck"
SCOPE_KEY = "scopa.language"
YEAR = 365 * 24 * 3600


def _header(scope: Scope, name: bytes) -> str:
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1"))
    return ""


def _query(scope: Scope, name: str) -> str | None:
    """The first value of the query's parameter ``name`` (``None``: not given)."""
    query = scope.get("query_string", b"").decode("latin-1")
    return next((v for k, v in parse_qsl(query, keep_blank_values=True) if k == name), None)


def asked(scope: Scope) -> str | None:
    """The language named by ``?lang=`` (``None``: none, or not one spoken)."""
    return i18n.normal(_query(scope, "lang"))


def _cookie(scope: Scope, name: str) -> str | None:
    cookie = SimpleCookie()
    try:
        cookie.load(_header(scope, b"cookie"))
    except Exception:  # a malformed cookie header names nothing
        return None
    morsel = cookie.get(name)
    return None if morsel is None else morsel.value


def remembered(scope: Scope) -> str | None:
    """The language of the ``lang`` cookie."""
    return i18n.normal(_cookie(scope, COOKIE))


def asked_deck(scope: Scope) -> str | None:
    """The display named by ``?deck=`` (``None``: none, or not one of :data:`words.DECKS`)."""
    return words.normal_deck(_query(scope, "deck"))


def chosen_deck(scope: Scope) -> str:
    """The request's display of the cards: ``?deck=``, the ``deck`` cookie, Italian suits."""
    return asked_deck(scope) or words.normal_deck(_cookie(scope, DECK_COOKIE)) or words.ITALIAN


def negotiate(scope: Scope, group: str | None = None) -> str:
    """The request's language (see the module's docstring); ``group``: the language of the
    request's group, below the reader's own choice and above their browser's."""
    accepted = i18n.from_accept_language(_header(scope, b"accept-language"))
    return i18n.choose(asked(scope), remembered(scope), group, accepted)


class LanguageMiddleware:
    """Puts the request's language in force; a page opened with ``?lang=xx`` remembers it in
    the ``lang`` cookie."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        language = negotiate(scope)
        scope[SCOPE_KEY] = language
        chosen = asked(scope)
        page = not str(scope.get("path", "")).startswith("/api")
        remember = chosen is not None and page
        deck = asked_deck(scope)

        async def send_with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                vary = headers.get("vary")
                headers["Vary"] = f"{vary}, Accept-Language" if vary else "Accept-Language"
                if remember:
                    headers.append(
                        "Set-Cookie",
                        f"{COOKIE}={chosen}; Path=/; Max-Age={YEAR}; SameSite=Lax",
                    )
                if deck is not None and page:
                    headers.append(
                        "Set-Cookie",
                        f"{DECK_COOKIE}={deck}; Path=/; Max-Age={YEAR}; SameSite=Lax",
                    )
            await send(message)

        with i18n.using(language), words.using_deck(chosen_deck(scope)):
            await self.app(scope, receive, send_with_cookie)


def when(moment: datetime) -> str:
    """A stored time as people read it, in the language's short form: ``5/12/24, 6:04 PM``,
    ``12/05/24, 18:04``."""
    return str(format_datetime(moment.astimezone(), "short", locale=i18n.language()))


def number(value: float, digits: int = 2) -> str:
    """A number in the language's form (``2.5``, ``2,5``)."""
    pattern = "#,##0." + "#" * digits if digits else "#,##0"
    return str(format_decimal(value, format=pattern, locale=i18n.language()))


def fixed(value: float, digits: int = 2) -> str:
    """A number with exactly ``digits`` decimals in the language's form (``2.50``,
    ``2,50``)."""
    pattern = "#,##0." + "0" * digits if digits else "#,##0"
    return str(format_decimal(value, format=pattern, locale=i18n.language()))


def percent(value: float) -> str:
    """A share as a whole percentage in the language's form (``47%``, ``47 %``)."""
    return str(format_percent(value, locale=i18n.language()))


def switch_links(path: str, query: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """The menu's switch: each language with the address of this page in it."""
    from urllib.parse import urlencode

    rest = [(k, v) for k, v in query if k != "lang"]
    return [
        {
            "code": code,
            "name": i18n.NAMES[code],
            "href": f"{path}?{urlencode([*rest, ('lang', code)])}",
        }
        for code in i18n.LANGUAGES
    ]


MENU = (
    ("/", i18n.N_("Matches")),
    ("/matches/new", i18n.N_("New match")),
    ("/players", i18n.N_("Players")),
    ("/import", i18n.N_("Import")),
    ("/play", i18n.N_("Play")),
    ("/tables/new", i18n.N_("Together")),
)
"""The menu's entries: where each goes and its label."""
_MENU_BY_FOLDER = {href.split("/")[1]: href for href, _label in MENU[2:]}
"""The entries past the matches' two by the first folder of their pages' addresses."""


def menu_part(path: str) -> str:
    """The menu entry (its address) of the part of the app the page at ``path`` is in: a
    match's pages, and their shapes for a match started on a phone, are the matches'; ``""``
    for a page of none (the help).

    >>> [menu_part(p) for p in ("/", "/matches/3/deals/new", "/offline/shape/scopa-2-0/sheet",
    ...                         "/matches/new", "/players/Anna", "/tables/AB12", "/help")]
    ['/', '/', '/', '/matches/new', '/players', '/tables/new', '']
    """
    if path == "/matches/new":
        return path
    if path == "/" or path.startswith(("/matches/", "/offline/shape/")):
        return "/"
    return _MENU_BY_FOLDER.get(path.split("/")[1], "")


def menu_links(path: str) -> list[dict[str, Any]]:
    """The menu's entries in the reader's language, the page's own part marked ``current``."""
    here = menu_part(path)
    return [{"href": href, "label": i18n._(label), "current": href == here} for href, label in MENU]


DECK_NAMES = {
    words.ITALIAN: i18n.NP_("deck", "Italian suits"),
    words.FRENCH: i18n.NP_("deck", "French suits"),
}


def deck_links(path: str, query: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """The menu's display switch: each deck with the address of this page shown in it."""
    from urllib.parse import urlencode

    rest = [(k, v) for k, v in query if k != "deck"]
    return [
        {
            "code": code,
            "name": i18n.pgettext("deck", DECK_NAMES[code]),
            "href": f"{path}?{urlencode([*rest, ('deck', code)])}",
        }
        for code in words.DECKS
    ]


@pass_context
def player_filter(context: Context, name: str) -> str:
    """The ``player`` filter: a name of the players' figures as the reader says it, from the
    page's ``seats`` (the names the program gave a seat, :func:`scopa.words.player_name`)."""
    return words.player_name(name, context.get("seats"))


def install(env: Environment) -> None:
    """Jinja2's i18n extension over the language in force (newstyle gettext: ``_()``
    escapes its arguments and formats ``%(name)s``), and the locale's dates and numbers."""
    env.add_extension("jinja2.ext.i18n")
    env.install_gettext_translations(i18n.Current(), newstyle=True)  # type: ignore[attr-defined]
    env.globals["language"] = i18n.language
    env.globals["LANGUAGES"] = i18n.NAMES
    env.globals["language_links"] = switch_links
    env.globals["deck"] = words.deck
    env.globals["deck_links"] = deck_links
    env.globals["menu_links"] = menu_links
    env.filters["when"] = when
    env.filters["number"] = number
    env.filters["fixed"] = fixed
    env.filters["percent"] = percent
    env.globals["card_name"] = words.card_name
    env.globals["suit_name"] = words.suit_name
    env.globals["rank_letter"] = words.rank_letter
    env.globals["suit_symbol"] = words.suit_symbol
    env.globals["grande_cards"] = words.grande_cards
    env.globals["level_name"] = level_name
    env.globals["category_label"] = category_label
    env.globals["points_keys"] = points_keys
    env.globals["max_name"] = MAX_NAME
    env.globals["cards_named"] = words.cards_named
    env.filters["seat"] = seat
    env.filters["player"] = player_filter


@dataclass(frozen=True, slots=True)
class _ViewSeats:
    players: tuple[str, ...]
    seat_kinds: tuple[Seat, ...]


def seat(side: str, where: Any = None) -> str:
    """The ``seat`` filter: a side as the reader says it (:func:`scopa.words.side_name`), the
    seats the program named read from ``where``: a match, its line of the list, or a table's
    view (its ``seats``, each with its ``seat_kind``)."""
    if isinstance(where, Mapping):
        seats = where.get("seats") or ()
        where = _ViewSeats(
            tuple(s["name"] for s in seats),
            tuple(Seat.from_json(s.get("seat_kind") or {"kind": PERSON}) for s in seats),
        )
    return words.side_name(side, where)


def points_keys(variant: str) -> tuple[str, ...]:
    """A variant's points keys, ``total`` last (an unknown variant: Scopa's)."""
    try:
        return variants.get(variant).points_keys
    except ScopaError:
        return variants.get(variants.DEFAULT).points_keys


def category_label(variant: str, key: str) -> str:
    """A points key's label in a variant (Escoba's own words on an Escoba table)."""
    try:
        return variants.get(variant).label(key)
    except ScopaError:  # an unknown variant: Scopa's words
        return variants.get("scopa").label(key)


LEVEL_NAMES = {
    "easy": i18n.NP_("level", "easy"),
    "normal": i18n.NP_("level", "normal"),
    "strong": i18n.NP_("level", "strong"),
}


def level_name(level: str) -> str:
    """The computer's level for people (the level's own name is the setting's value)."""
    known = LEVEL_NAMES.get(level)
    return level if known is None else i18n.pgettext("level", known)
