"""issue 48: ``scopa --help`` lists the commands from :data:`scopa.cli_app.COMMANDS` without
importing their modules; the table stays in step with what each module registers."""

from __future__ import annotations

import importlib
import inspect
import subprocess
import sys

import typer
import typer.main

from scopa.cli_app import COMMANDS

MODULES = [
    "scopa.cli_sheet",
    "scopa.cli_store",
    "scopa.cli_access",
    "scopa.cli_backup",
    "scopa.cli_groups",
    "scopa.cli_engine",
    "scopa.cli_play",
    "scopa.cli_stats",
    "scopa.web.serve.cli",
]
"""The modules in the order the app registered them before it loaded them lazily: Typer lists
the commands in that order (single commands first, then the groups)."""


def registered() -> dict[str, tuple[str, str]]:
    """Every top-level command as the modules named in the table register it, with its help
    (the docstring or ``help=``, as Typer keeps it), in the order Typer lists them."""
    app = typer.Typer()
    app.callback()(lambda: None)
    assert set(MODULES) == {module for module, _ in COMMANDS.values()}
    for module in MODULES:
        importlib.import_module(module).register(app)
    group = typer.main.get_command(app)
    found: dict[str, tuple[str, str]] = {}
    for name in group.list_commands(typer.Context(group)):  # type: ignore[attr-defined]
        command = group.get_command(typer.Context(group), name)  # type: ignore[attr-defined]
        module = command.callback.__module__ if command.callback else COMMANDS[name][0]
        found[name] = (module, inspect.cleandoc(command.help or ""))
    return found


def probe(code: str) -> str:
    """What ``code`` prints, run in a fresh interpreter (the modules it loads are its own)."""
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout


def test_the_table_of_commands_is_what_the_modules_register() -> None:
    assert {name: (module, text) for name, (module, text) in COMMANDS.items()} == registered()
    assert list(COMMANDS) == list(registered())


def test_help_does_not_load_the_commands() -> None:
    code = (
        "import sys; from scopa.cli import main; code = main(['--help']); "
        "print(code, sorted(m for m in sys.modules if m.startswith('scopa.cli_') "
        "or m in ('sqlalchemy', 'scopa.web.serve.cli')))"
    )
    printed = probe(code)
    assert printed.splitlines()[-1] == "0 ['scopa.cli_app', 'scopa.cli_help']"
    assert "simulate" in printed


def test_a_command_s_own_help_loads_only_its_module() -> None:
    code = (
        "import sys; from scopa.cli import main; code = main(['simulate', '--help']); "
        "print(code, sorted(m for m in sys.modules if m.startswith('scopa.cli_')))"
    )
    printed = probe(code)
    assert "--deals" in printed
    loaded = printed.splitlines()[-1]
    assert loaded.startswith("0 [")
    assert "'scopa.cli_engine'" in loaded
    assert "'scopa.cli_store'" not in loaded


def test_help_leaves_markdown_and_tracebacks_unloaded() -> None:
    """Typer's formatter imports rich.markdown and rich.traceback (markdown_it, pygments) for
    what this help never draws: they stay stand-ins, and the help is drawn in full."""
    code = (
        "import sys; from scopa.cli import main; code = main(['--help']); "
        "print(code, sorted(m.split('.')[0] for m in sys.modules "
        "if m.startswith(('markdown_it', 'pygments'))))"
    )
    printed = probe(code)
    assert printed.splitlines()[-1] == "0 []"
    assert "Commands" in printed
    assert "simulate" in printed


def test_a_deferred_module_is_the_real_one_once_used() -> None:
    """Markdown made, a traceback drawn and any other name asked load the real modules."""
    code = """
import io, sys
from scopa.cli_help import defer_rich_modules
defer_rich_modules()
assert 'markdown_it' not in sys.modules
from rich.console import Console
from rich.markdown import Markdown
from rich.traceback import Traceback
out = Console(file=io.StringIO(), width=60)
out.print(Markdown('# Scopa *e* primiera'))
try:
    1 / 0
except ZeroDivisionError as error:
    out.print(Traceback.from_exception(type(error), error, error.__traceback__))
from rich.markdown import Heading
import rich.markdown, rich.traceback
text = out.file.getvalue()
print('Scopa e primiera' in text, 'ZeroDivisionError' in text, Heading.__module__,
      type(rich.markdown).__name__, type(rich.traceback).__name__)
"""
    assert probe(code).split() == ["True", "True", "rich.markdown", "module", "module"]
