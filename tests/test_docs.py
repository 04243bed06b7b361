"""The documentation says what the code does (as datasette checks its docs): the transcripts
of README.md and docs/engine.md are run through the ``scopa`` entry point and compared with
what they show; every command, option, setting and API route is documented; every link and
every path the docs name exists."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer.main

from scopa.cli import app as cli_app
from scopa.engine.variants import OPTIONS
from scopa.variants import all_variants, get

ROOT = Path(__file__).resolve().parents[1]
TRANSCRIPTS = ["README.md", "docs/engine.md"]
TOP_DOCS = ["README.md", "CHANGELOG.md", "CONTRIBUTING.md", "SECURITY.md"]
MARK = "@@scopa-transcript@@"


def doc_files() -> list[Path]:
    return [
        *(ROOT / name for name in TOP_DOCS if (ROOT / name).exists()),
        *sorted((ROOT / "docs").glob("*.md")),
    ]


def all_docs() -> str:
    return "\n".join(path.read_text() for path in doc_files())


def transcript(text: str) -> list[tuple[str, list[str]]]:
    """The commands shown with their output (``$ command`` then what it prints), in order.

    A command shown without output is not run; ``  # ...`` after a command and
    ``  (...)`` after an output line are the reader's notes, not part of them.

    >>> transcript("```\\n$ scopa x  # note\\nout   (a note)\\n$ scopa y\\n```")
    [('scopa x', ['out'])]
    """
    found: list[tuple[str, list[str]]] = []
    for block in re.findall(r"^```[a-z]*\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL):
        command: str | None = None
        output: list[str] = []
        for line in [*block.split("\n"), "$ "]:
            if line.startswith("$ "):
                while output and not output[-1]:
                    output.pop()
                if command and output:
                    found.append((command, output))
                command = re.sub(r"\s{2,}#\s.*$", "", line[2:]).strip()
                output = []
            elif command is not None:
                output.append(re.sub(r"\s{2,}\(.*\)$", "", line).rstrip())
    return found


def comparable(lines: list[str]) -> list[str]:
    """A throughput figure changes from run to run: only its unit is compared."""
    return [
        re.sub(r"^[\d,.]+ deals a second$", "N deals a second", line.rstrip()) for line in lines
    ]


@pytest.mark.parametrize("doc", TRANSCRIPTS)
def test_transcripts_print_what_they_show(doc: str, tmp_path: Path) -> None:
    shown = transcript((ROOT / doc).read_text())
    assert shown, f"{doc} shows no transcript"
    script = "".join(
        f"{command} 2>&1\nrc=$?\nprintf '\\n{MARK}\\n'\n(exit $rc)\n" for command, _ in shown
    )
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "SCOPA_DATABASE_URL": f"sqlite:///{tmp_path / 'scopa.db'}",
        "COLUMNS": "100",
    }
    for name in ("FORCE_COLOR", "NO_COLOR", "TERM"):
        env.pop(name, None)
    ran = subprocess.run(
        ["bash", "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    printed = ran.stdout.split(f"\n{MARK}\n")
    assert len(printed) == len(shown) + 1, ran.stdout + ran.stderr
    for (command, expected), actual in zip(shown, printed, strict=False):
        got = actual.rstrip("\n").split("\n")
        assert comparable(got) == comparable(expected), f"{doc}: $ {command}"


def commands(group: Any = None, path: tuple[str, ...] = ()) -> Iterator[tuple[str, Any]]:
    """Every command of ``scopa`` by its full name (``scopa matches new``), with its click
    command."""
    group = typer.main.get_command(cli_app) if group is None else group
    context = typer.Context(group)
    # list_commands and get_command: the top group loads its commands when asked (cli_app)
    for name in group.list_commands(context):
        command = group.get_command(context, name)
        if hasattr(command, "commands"):
            yield from commands(command, (*path, name))
        else:
            yield " ".join(("scopa", *path, name)), command


def test_every_command_is_in_the_readme_table() -> None:
    readme = (ROOT / "README.md").read_text()
    rows = [
        (top, line)
        for line in readme.splitlines()
        if line.startswith("| `scopa ")
        for top in re.findall(r"`(scopa [a-z-]+)", line.split(" | ")[0])
    ]
    missing = []
    for name, _command in commands():
        words = name.split()
        row = next((line for top, line in rows if top == " ".join(words[:2])), None)
        if row is None or (len(words) > 2 and not re.search(rf"(?<![\w-]){words[2]}\b", row)):
            missing.append(name)
    assert missing == []


def test_every_option_is_documented() -> None:
    docs = all_docs()
    missing = [
        f"{name} {option}"
        for name, command in commands()
        for param in command.params
        if type(param).__name__.endswith("Option")
        for option in param.opts
        if option.startswith("--") and option != "--help" and option not in docs
    ]
    assert missing == []


def test_every_setting_is_documented() -> None:
    rules = (ROOT / "docs" / "rules.md").read_text()
    missing = [
        f"{variant.name}: {setting}"
        for variant in all_variants()
        for setting in variant.setting_names
        if f"`{setting}`" not in rules
    ]
    assert missing == []
    readme = (ROOT / "README.md").read_text()
    table = re.findall(r"^\| `([a-z_]+)` \|", readme, flags=re.MULTILINE)
    assert set(get("scopa").setting_names) <= set(table)
    engine = (ROOT / "docs" / "engine.md").read_text()
    assert [option for option in OPTIONS if f"| `{option}` |" not in engine] == []


def test_every_api_route_is_documented(sqlite_url: str) -> None:
    from scopa.store import MatchStore
    from scopa.web import WebSettings, create_app

    store = MatchStore.open(sqlite_url)
    try:
        schema = create_app(store, WebSettings(hosted=True)).openapi()
    finally:
        store.close()

    def plain(text: str) -> str:
        return re.sub(r"\{[^}]*\}", "{}", text)

    docs = plain(all_docs())
    missing = [
        f"{method.upper()} {path}"
        for path, operations in schema["paths"].items()
        for method in operations
        if f"{method.upper()} {plain(path)}" not in docs
    ]
    assert missing == []


PATH_IN_TEXT = re.compile(
    r"(?<![\w/.:-])((?:[\w.-]+/)+[\w.-]+\."
    r"(?:py|pyi|md|js|mjs|json|html|css|sh|toml|c|h|ini|txt|svg|png|webmanifest))(?![\w/])"
)
PATH_BASES = [ROOT, ROOT / "src", ROOT / "src" / "scopa", ROOT / "src" / "scopa" / "web"]


@pytest.mark.parametrize("doc", doc_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_links_and_paths_exist(doc: Path) -> None:
    """A link goes to a file of the checkout; a file path named in the text (from the top, or
    from ``src/``, ``src/scopa/`` or ``src/scopa/web/`` as the docs shorten them) exists."""
    text = doc.read_text()
    broken = [
        target
        for target in re.findall(r"\]\(([^)\s]+)\)", text)
        if not re.match(r"[a-z]+:|#", target) and not (doc.parent / target.split("#")[0]).exists()
    ]
    assert broken == [], "links to nothing"
    unknown = [
        path
        for path in PATH_IN_TEXT.findall(text)
        if not any((base / path).exists() for base in PATH_BASES)
    ]
    assert unknown == [], "paths that do not exist"


def test_the_contracts_are_named_by_their_path() -> None:
    """The project's own copies are docs/formats.md and docs/rules.md: no text names the
    upper-case contract files, which a clone does not have."""
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    named = [
        name
        for name in tracked
        if name.endswith((".py", ".md", ".js", ".html", ".toml", ".sh"))
        and (ROOT / name).exists()
        and re.search(r"(?<![\w/])(FORMATS|RULES)\.md", (ROOT / name).read_text())
    ]
    assert named == []


def layer_table(heading: str) -> dict[str, set[str]]:
    """The table under ``heading`` in docs/architecture.md: each row's first cell and the
    names in its last."""
    text = (ROOT / "docs" / "architecture.md").read_text().split(heading, 1)[1]
    table = re.search(r"(?:^\|.*\n)+", text, flags=re.MULTILINE)
    assert table is not None, f"no table under {heading}"
    rows = [line.split(" | ") for line in table.group(0).splitlines()[2:]]
    return {row[0].strip("| `"): set(re.findall(r"`([a-z]+)`", row[-1])) for row in rows}


def test_the_architecture_page_states_the_import_test() -> None:
    from tests import test_imports

    assert layer_table("## The layers") == test_imports.ALLOWED
    assert layer_table("### Inside the web edge") == test_imports.WEB_ALLOWED
    text = (ROOT / "docs" / "architecture.md").read_text()
    face = re.search(r"through its face \(([^)]*)\)", text.replace("\n  ", " "))
    assert face is not None
    assert set(re.findall(r"`([\w.]+)`", face.group(1))) == test_imports.STORE_FACE


def test_one_version() -> None:
    """The version is written once (``scopa.__version__``): pyproject.toml reads it, the
    entry point prints it, and CHANGELOG.md's newest entry is headed with it."""
    import tomllib

    import scopa

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in project["project"]
    assert "version" in project["project"]["dynamic"]  # readme too: scripts/description.py
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "scopa.__version__"}
    # the newest release is the version; what has come since stands above it, "Unreleased"
    newest = re.search(r"^## (?!Unreleased)(\S+)", (ROOT / "CHANGELOG.md").read_text(), re.M)
    assert newest is not None
    assert newest.group(1) == scopa.__version__
    scopa_command = Path(sys.executable).parent / "scopa"
    printed = subprocess.run([scopa_command, "--version"], capture_output=True, text=True)
    assert (printed.returncode, printed.stdout) == (0, f"scopa {scopa.__version__}\n")


def migration_chain() -> list[str]:
    """The migrations' revisions, oldest first, by each file's ``down_revision``."""
    versions = ROOT / "src/scopa/store/migrations/versions"
    down: dict[str | None, str] = {}
    for path in versions.glob("[0-9]*.py"):
        text = path.read_text()
        revision = re.search(r'^revision = "([^"]+)"', text, re.M)
        before = re.search(r'^down_revision = (?:"([^"]+)"|None)', text, re.M)
        assert revision, f"{path.name}: no revision"
        assert before, f"{path.name}: no down_revision"
        down[before.group(1)] = revision.group(1)
    chain: list[str] = []
    while (chain[-1] if chain else None) in down:
        chain.append(down[chain[-1] if chain else None])
    assert len(chain) == len(down), "the migrations are not one line"
    return chain


def test_the_changelog_names_the_schema_head_and_every_migration() -> None:
    """CHANGELOG's schema section names the head the code migrates to, and lists every
    migration once, in the order they run (it said ``0006_tables`` five migrations on)."""
    from scopa.store.database import head_revision

    text = (ROOT / "CHANGELOG.md").read_text()
    head = re.search(r"### Database schema \(head revision `([^`]+)`\)", text)
    assert head is not None, "CHANGELOG.md has no schema head"
    assert head.group(1) == head_revision() == migration_chain()[-1]
    section = text[head.end() : text.index("\n### ", head.end())]
    listed = re.findall(r"^\| `([0-9][^`]*)` \|", section, re.M)
    assert listed == migration_chain()
