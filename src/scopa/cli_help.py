"""The command line's help in the user's language.

Typer makes each command's help from its function's docstring and each option's from its
``help=`` text. Both are English in the code; :func:`extract` (Babel's extractor for the
``cli*.py`` modules, named in ``babel.cfg``) puts them in the catalog beside the modules'
``_()`` messages, and :func:`translate` puts the catalog's words in a built command tree before
it runs, so ``scopa --help`` under ``LANG=it_IT.UTF-8`` (or with ``--lang it``) is Italian.
"""

from __future__ import annotations

import ast
import inspect
import io
from collections.abc import Iterator
from typing import IO, Any

from scopa.i18n import N_, _

TYPER_WORDS = {
    "ARGUMENTS_PANEL_TITLE": N_("Arguments"),
    "OPTIONS_PANEL_TITLE": N_("Options"),
    "COMMANDS_PANEL_TITLE": N_("Commands"),
    "ERRORS_PANEL_TITLE": N_("Error"),
    "ABORTED_TEXT": N_("Aborted."),
    "DEFAULT_STRING": N_("[default: {}]"),
    "REQUIRED_LONG_STRING": N_("[required]"),
    "RICH_HELP": N_("Try [blue]'{command_path} {help_option}'[/] for help."),
}
"""Typer's own words on a help page (its module's constants), as the catalog has them."""
HELP_OPTION = N_("Show this message and exit.")
USAGE = N_("Usage:")


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
    """The command tree's help texts in the language in force (and Typer's words)."""
    import typer.rich_utils

    for name, message in TYPER_WORDS.items():
        setattr(typer.rich_utils, name, _(message))
    for found in _walk(command):
        _speak_usage_and_help_option(found)
        if found.help:
            found.help = _(inspect.cleandoc(found.help))
        for param in found.params:
            text = getattr(param, "help", None)
            if text:
                param.help = _filled(_(text))
    return command


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


def _speak_usage_and_help_option(command: Any) -> None:
    """``Usage:`` and ``--help``'s own help, which Typer makes when it shows the help."""
    made = command.get_help_option

    def get_help_option(ctx: Any) -> Any:
        option = made(ctx)
        if option is not None:
            option.help = _(HELP_OPTION)
        return option

    def format_usage(ctx: Any, formatter: Any) -> None:
        pieces = command.collect_usage_pieces(ctx)
        formatter.write_usage(ctx.command_path, " ".join(pieces), prefix=_(USAGE) + " ")

    command.get_help_option = get_help_option
    command.format_usage = format_usage


def _walk(command: Any) -> Iterator[Any]:
    """A command and every command under it (Typer's own click: a group has ``commands``)."""
    yield command
    for sub in (getattr(command, "commands", None) or {}).values():
        yield from _walk(sub)
