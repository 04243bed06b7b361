"""The command line's help in the user's language.

Typer makes each command's help from its function's docstring and each option's from its
``help=`` text. Both are English in the code; :func:`extract` (Babel's extractor for the
``cli*.py`` modules, named in ``babel.cfg``) puts them in the catalog beside the modules'
``_()`` messages, and :func:`translate` puts the catalog's words in a built command tree before
it runs, so ``scopa --help`` under ``LANG=it_IT.UTF-8`` (or with ``--lang it``) is Italian.
click's and Typer's own words (their errors, ``Usage:``, the panels' titles) come from a second
catalog, the ``toolkit`` domain, extracted from the installed packages (:func:`bind_toolkit`).
"""

from __future__ import annotations

import ast
import gettext
import importlib
import inspect
import io
import re
import sys
import types
from collections.abc import Iterator
from functools import cache
from typing import IO, Any

from scopa import checks, i18n
from scopa.i18n import _

DEFERRED = {"rich.markdown": "Markdown", "rich.traceback": "Traceback"}
"""Modules of Rich that Typer's help formatter (``typer.rich_utils``) imports for what this
command's help does not draw (help written in Markdown, an exception's traceback), and the
class it takes from each: :func:`defer_rich_modules` leaves them unloaded."""


def defer_rich_modules() -> None:
    """Leave :data:`DEFERRED` (``markdown_it``, ``pygments`` under them) unloaded until used.

    They were about 60 ms of CPU, a third of ``scopa --help`` (``bench/cli_start.py``). A
    stand-in module holds each name; the first use of its class (made, or asked a method) or
    of any other name of the module loads the real one in its place.
    """
    for module, name in DEFERRED.items():
        if module not in sys.modules:
            sys.modules[module] = _stand_in(module, name)


class _StandIn(types.ModuleType):
    """A module :func:`defer_rich_modules` puts in a real one's place."""


def _stand_in(module: str, name: str) -> _StandIn:
    def real() -> types.ModuleType:
        if isinstance(sys.modules.get(module), _StandIn):
            del sys.modules[module]
        return importlib.import_module(module)

    class Deferred(type):
        def __getattr__(cls, attribute: str) -> Any:  # Traceback.from_exception(...)
            return getattr(getattr(real(), name), attribute)

    class Placeholder(metaclass=Deferred):
        def __new__(cls, *args: Any, **kwargs: Any) -> Any:
            return getattr(real(), name)(*args, **kwargs)

    def attribute(asked: str) -> Any:
        if asked.startswith("__"):  # the import system's questions (__path__, __spec__...)
            raise AttributeError(asked)
        return getattr(real(), asked)

    stand_in = _StandIn(module)
    setattr(stand_in, name, Placeholder)
    stand_in.__getattr__ = attribute  # type: ignore[method-assign]
    return stand_in


TOOLKIT = "toolkit"
"""The gettext domain of the command line toolkit's own words: click's and Typer's ("No such
option", "Missing argument", "Usage:", "Try 'scopa --help' for help.", the help's "Options",
"Commands" and "Error" panels), extracted from the installed packages by ``make messages``
into ``locale/toolkit.pot`` and ``locale/<lang>/LC_MESSAGES/toolkit.po``."""
TOOLKIT_PACKAGES = ("click", "typer")


@cache
def toolkit_translations(language: str) -> gettext.NullTranslations:
    """The toolkit's catalog of a language (English: the words as the packages write them)."""
    if language not in i18n.LANGUAGES[1:]:
        return gettext.NullTranslations()
    return gettext.translation(TOOLKIT, i18n.LOCALE_DIR, [language], fallback=True)


def toolkit_gettext(message: str) -> str:
    """One of click's or Typer's messages in the language in force."""
    return toolkit_translations(i18n.language()).gettext(message)


def toolkit_ngettext(singular: str, plural: str, n: int) -> str:
    return toolkit_translations(i18n.language()).ngettext(singular, plural, n)


_ENGLISH: dict[str, str] = {}
"""Typer's words made once, at import (``typer.rich_utils``' constants), as it wrote them."""


def bind_toolkit() -> None:
    """click and Typer speak the language in force from the toolkit's catalog.

    Both wrap their words in the standard library's gettext (``from gettext import gettext
    as _``, ``ngettext``), whose domain and language are the process's: every loaded module
    of theirs that holds those functions is given :func:`toolkit_gettext` and
    :func:`toolkit_ngettext` instead (found, not listed, so a new module or a new release's
    words follow). Typer's words made at import (``typer.rich_utils``' upper-case constants:
    the panels' titles, ``Try ... for help.``) are put again from their English."""
    import typer.rich_utils

    found = {id(gettext.gettext): toolkit_gettext, id(gettext.ngettext): toolkit_ngettext}
    for name, module in list(sys.modules.items()):
        if module is None or name.split(".")[0] not in TOOLKIT_PACKAGES:
            continue
        for attr, value in list(vars(module).items()):
            if callable(value) and id(value) in found:
                setattr(module, attr, found[id(value)])
    if not _ENGLISH:
        _ENGLISH.update(
            (name, value)
            for name, value in vars(typer.rich_utils).items()
            if name.isupper() and isinstance(value, str)
        )
    for name, english in _ENGLISH.items():
        setattr(typer.rich_utils, name, toolkit_gettext(english))
    _speak_errors()


TYPER_SHAPES = (
    (re.compile(r"No such option: (?P<name>\S+)"), "No such option {name!r}."),
    (re.compile(r"Missing argument(?P<rest>( .*)?\.)"), "Missing argument"),
    (re.compile(r"Missing option(?P<rest>( .*)?\.)"), "Missing option"),
    (re.compile(r"Missing parameter(?P<rest>( .*)?\.)"), "Missing parameter"),
)
"""Typer (0.29) runs its own copy of click's parser and errors, with click's messages written
out in English instead of through gettext and a few of them reworded: each rewording, as the
click message it stands for (so that the words come from the toolkit's catalog). The other
messages are click's own, read back by their placeholders (:func:`toolkit_text`)."""
EXTRA = re.compile(r"Got unexpected extra argument\(s\) \((?P<args>.*)\)", re.S)
POSSIBLE = re.compile(r"(?P<head>.*) \(Possible options: (?P<options>.*)\)", re.S)


PYDANTIC = re.compile(r"(Input|String) should |Field required|Extra inputs are not permitted")
"""How pydantic's own check messages begin (translated in the project's catalog for the API)."""


def _pattern(message: str) -> re.Pattern[str]:
    """A click message as a pattern of its English text: each ``{name}`` a group (a
    ``{name!r}`` quoted; a name said twice, the same text)."""
    parts = re.split(r"\{(\w+)(![rs])?\}", message)
    pattern = ""
    seen: set[str] = set()
    for k in range(0, len(parts), 3):
        pattern += re.escape(parts[k])
        if k + 1 < len(parts):
            name = parts[k + 1]
            group = f"(?P={name})" if name in seen else f"(?P<{name}>.+?)"
            seen.add(name)
            pattern += f"'{group}'" if parts[k + 2] == "!r" else group
    return re.compile(pattern, re.S)


@cache
def _patterns(language: str) -> tuple[tuple[re.Pattern[str], str, int], ...]:
    """Every toolkit message of a language with a placeholder, as ``(pattern of its English,
    its translation, the count it stands for)``: a plural's two English forms each (1, 2),
    the longest first. Read from the toolkit's ``.po`` (click's messages, extracted)."""
    from babel.messages.pofile import read_po

    po = i18n.LOCALE_DIR / language / "LC_MESSAGES" / f"{TOOLKIT}.po"
    if not po.is_file():
        return ()
    with po.open("rb") as handle:
        catalog = read_po(handle, locale=language)
    found: list[tuple[str, str, int]] = []
    for entry in catalog:
        if not entry.id or entry.fuzzy or not entry.string:
            continue
        if isinstance(entry.id, (list, tuple)) and isinstance(entry.string, (list, tuple)):
            one, many = str(entry.id[0]), str(entry.id[1])
            found += [(one, str(entry.string[0]), 1), (many, str(entry.string[1]), 2)]
        elif "{" in str(entry.id):
            found.append((str(entry.id), str(entry.string), 1))
    found = [row for row in found if "{" in row[0]]
    found.sort(key=lambda row: len(row[0]), reverse=True)
    return tuple((_pattern(english), said, n) for english, said, n in found)


def toolkit_text(english: str) -> str:
    """A message that click or Typer made in English, in the language in force: one of
    :data:`TYPER_SHAPES`, or one of click's messages with its placeholders read back and put
    into its translation (sentence by sentence when the whole is not one); else the
    project's own catalog (pydantic's checks, which Typer's parsing says, are the API's)."""
    if i18n.language() == i18n.DEFAULT or not english:
        return english
    said = _one_text(english)
    if said is not None:
        return said
    sentences = re.split(r"(?<=[.?!]) ", english)
    if len(sentences) > 1:
        return " ".join(_one_text(part) or part for part in sentences)
    if PYDANTIC.match(english):  # one of pydantic's checks, which Typer's parsing says
        # the API says them too: the project's catalog has their templates ("... {ge}"),
        # matched here against the message as it came, the value read back and filled in
        return checks.said(english) or _(english)
    return english


def _one_text(english: str) -> str | None:
    offered = POSSIBLE.fullmatch(english)
    if offered:
        options = [o.strip() for o in offered["options"].split(",")]
        said = toolkit_ngettext(
            "Did you mean {possibility}?", "(Did you mean one of: {possibilities}?)", len(options)
        )
        return f"{toolkit_text(offered['head'])} " + said.format(
            possibility=options[0], possibilities=", ".join(options)
        )
    extra = EXTRA.fullmatch(english)
    if extra:
        count = len(extra["args"].split())
        return toolkit_ngettext(
            "Got unexpected extra argument ({args})",
            "Got unexpected extra arguments ({args})",
            count,
        ).format(args=extra["args"])
    for shape, message in TYPER_SHAPES:
        found = shape.fullmatch(english)
        if found:
            values = found.groupdict()
            if "rest" in values:
                return toolkit_gettext(message) + values["rest"]
            return toolkit_gettext(message).format(**values)
    for pattern, translation, _count in _patterns(i18n.language()):
        found = pattern.fullmatch(english)
        if found:
            values = {key: toolkit_text(value) for key, value in found.groupdict().items()}
            try:
                return translation.format(**values)
            except (KeyError, IndexError, ValueError):
                return None
    return None


def _speak_errors() -> None:
    """The messages of Typer's own errors (its copy of click's exceptions) said through
    :func:`toolkit_text` (English: as Typer writes them)."""
    import typer.exceptions
    from typer._click import exceptions

    classes = [*vars(exceptions).values(), *vars(typer.exceptions).values()]
    for value in classes:
        if not (isinstance(value, type) and issubclass(value, BaseException)):
            continue
        made = vars(value).get("format_message")
        if made is None or getattr(made, "speaks", False):
            continue

        def format_message(self: Any, made: Any = made) -> str:
            return toolkit_text(made(self))

        format_message.speaks = True  # type: ignore[attr-defined]
        value.format_message = format_message  # type: ignore[attr-defined]


def _command_names(tree: ast.Module) -> set[str]:
    """Functions registered as commands by a call: ``app.command("play")(play_command)``."""
    names = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Call)
            and isinstance(node.func.func, ast.Attribute)
            and node.func.func.attr in ("command", "callback")
        ):
            names |= {arg.id for arg in node.args if isinstance(arg, ast.Name)}
    return names


def _is_command(node: ast.FunctionDef, registered: set[str]) -> bool:
    if node.name in registered:
        return True
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if isinstance(target, ast.Attribute) and target.attr in ("command", "callback"):
            return True
    return False


def help_texts(source: str) -> Iterator[tuple[int, str]]:
    """The commands' docstrings and the constant ``help=`` texts of a module's source."""
    tree = ast.parse(source)
    registered = _command_names(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and _is_command(node, registered):
            doc = ast.get_docstring(node, clean=True)
            if doc:
                yield node.lineno, doc
        elif isinstance(node, ast.Call):
            for keyword in node.keywords:
                value = keyword.value
                if (
                    keyword.arg == "help"
                    and isinstance(value, ast.Constant)
                    and isinstance(value.value, str)
                ):
                    yield value.lineno, value.value


def extract(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, Any, Any, Any]]:
    """Babel's extractor for the command line: the ``_()`` messages as Python's extractor
    finds them, and the help texts (:func:`help_texts`)."""
    from babel.messages.extract import extract_python

    data = fileobj.read()
    yield from extract_python(io.BytesIO(data), keywords, comment_tags, options)
    for line, text in help_texts(data.decode("utf-8")):
        yield line, None, text, []


def translate(command: Any) -> Any:
    """The command tree's help texts in the language in force (and click's and Typer's own
    words, :func:`bind_toolkit`)."""
    bind_toolkit()
    for found in _walk(command):
        _speak_usage_and_help_option(found)
        if found.help:
            found.help = unwrapped(_(inspect.cleandoc(found.help)))
        for param in found.params:
            text = getattr(param, "help", None)
            if text:
                param.help = _filled(_(text))
    return command


def unwrapped(text: str) -> str:
    """A docstring's lines joined into its paragraphs (Rich keeps a single line break, so the
    English help broke where the source did); a list's items and indented lines stay apart.

    >>> unwrapped("Store a file. `--variant` names\\nthe variant.\\n\\n- one\\n- two")
    'Store a file. `--variant` names the variant.\\n\\n- one\\n- two'
    """
    return re.sub(r"(?<=\S)\n(?=[^\s\-*\d])", " ", text)


def _filled(text: str) -> str:
    """A help text with the registries' names put in: ``{variants}`` (the sheet's variants),
    ``{engine_variants}`` (those the engine plays), so that a variant registered once shows
    in every command's help."""
    if "{" not in text:
        return text
    from scopa import variants
    from scopa.engine.variants import VARIANTS

    names = {"variants": variants.names(), "engine_variants": list(VARIANTS)}
    for key, found in names.items():
        text = text.replace("{" + key + "}", ", ".join(found))
    return text


def usage_piece(piece: str) -> str:
    """A piece of the usage line in the language in force: click's ``[OPTIONS]`` and a
    group's ``COMMAND [ARGS]...``, which click writes as they are; anything else as it is."""
    if piece == "[OPTIONS]":
        return _("[OPTIONS]")
    if piece == "COMMAND [ARGS]...":
        return _("COMMAND [ARGS]...")
    return piece


def _speak_usage_and_help_option(command: Any) -> None:
    """``Usage:`` and ``--help``'s own help, which Typer's copy of click writes in English:
    click's own messages, from the toolkit's catalog."""
    made = command.get_help_option

    def get_help_option(ctx: Any) -> Any:
        option = made(ctx)
        if option is not None:
            option.help = toolkit_gettext("Show this message and exit.")
        return option

    def format_usage(ctx: Any, formatter: Any) -> None:
        pieces = [usage_piece(piece) for piece in command.collect_usage_pieces(ctx)]
        prefix = toolkit_gettext("Usage:") + " "
        formatter.write_usage(ctx.command_path, " ".join(pieces), prefix=prefix)

    command.get_help_option = get_help_option
    command.format_usage = format_usage


def _walk(command: Any) -> Iterator[Any]:
    """A command and every command under it (Typer's own click: a group has ``commands``)."""
    yield command
    for sub in (getattr(command, "commands", None) or {}).values():
        yield from _walk(sub)
