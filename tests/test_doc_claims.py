"""The figures the documentation states are the code's (issue 50): each claim below is a
sentence of README.md or docs/ with the numbers in it, read from the text and compared with
the constant the code uses. A claim whose sentence is reworded fails here until its pattern
follows it, so a figure cannot drift out of the test by being rewritten either (as
tests/test_docs.py does for commands, options and settings, and the changelog's schema head)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from scopa import formats, names
from scopa.application import tables
from scopa.cli_common import Exit
from scopa.engine.ai import PHONE_LEVELS, parse_level
from scopa.store import games
from scopa.web.pages import tv
from scopa.web.serve import cli as serve_cli
from scopa.web.serve import server

ROOT = Path(__file__).resolve().parents[1]
DEFAULTS = server.Limits()
"""The server's limits when no option changes them."""
PHONE = (PHONE_LEVELS["normal"].iterations or 0, PHONE_LEVELS["strong"].iterations or 0)
"""The phone's levels: iterations a move at ``normal`` and ``strong``."""
SHEET_TEMPLATE = ROOT / "src" / "scopa" / "web" / "templates" / "_sheet.html"


def sheet_poll_seconds() -> int:
    """The seconds between the open sheet's polls, as its template asks htmx for them."""
    found = re.search(r'hx-trigger="every (\d+)s"', SHEET_TEMPLATE.read_text(encoding="utf-8"))
    assert found, "the sheet's template no longer polls"
    return int(found.group(1))


@dataclass(frozen=True)
class Claim:
    doc: str
    pattern: str
    """A regular expression over the document with its whitespace folded to single spaces;
    each group a figure as written (a comma between thousands allowed)."""
    figures: tuple[float, ...]
    """What the code says each group is."""


CLAIMS = [
    Claim("README.md", r"turn clock \((\d+) s by default", (tables.DEFAULT_CLOCK,)),
    Claim(
        "docs/tables.md",
        r"\(the turn clock, (\d+) by default; 0: no clock\)",
        (tables.DEFAULT_CLOCK,),
    ),
    Claim(
        "docs/tables.md",
        r"`clock`: seconds for each play, 0-([\d,]+), default (\d+), 0: none",
        (tables.MAX_CLOCK, tables.DEFAULT_CLOCK),
    ),
    Claim("docs/formats.md", r"names \(at most (\d+) characters, no control", (names.MAX_NAME,)),
    Claim(
        "docs/formats.md",
        r"`name`: optional, a text of at most (\d+) characters",
        (formats.MAX_MATCH_NAME,),
    ),
    Claim(
        "README.md",
        r"request's headers within (\d+) seconds \(or its body within (\d+)\)",
        (DEFAULTS.header_timeout, DEFAULTS.body_timeout),
    ),
    Claim(
        "README.md",
        r"reads none of an answer for (\d+) seconds",
        (DEFAULTS.send_timeout,),
    ),
    Claim(
        "README.md",
        r"one address holds at most (\d+) connections",
        (DEFAULTS.per_client,),
    ),
    Claim(
        "README.md",
        r"beside ([\d,]+) descriptors \(([\d,]+) under a limit of ([\d,]+)\)",
        (server.RESERVED_FILES, 1024 - server.RESERVED_FILES, 1024),
    ),
    Claim(
        "README.md",
        r"by default it listens on this computer only \(127\.0\.0\.1:(\d+)\)",
        (serve_cli.DEFAULT_PORT,),
    ),
    Claim("docs/ai.md", r"keeps at most (\d+) unused seeds per group", (games.OPEN_SEEDS,)),
    Claim(
        "README.md", r"reloads itself every (\d+) seconds without JavaScript", (tv.REFRESH_SECONDS,)
    ),
    Claim("README.md", r"picks up changes within (\d+) seconds", (sheet_poll_seconds(),)),
    Claim(
        "README.md",
        r"The exit status: (\d) done; (\d) the command could not do .*?; (\d) a usage error",
        (Exit.OK, Exit.FAILURE, Exit.BAD_INPUT),
    ),
    Claim(
        "README.md",
        r"message naming the place on standard error, exit status (\d),",
        (Exit.BAD_INPUT,),
    ),
    Claim(
        "README.md",
        r"for a number of iterations instead of a time: ([\d,]+) and ([\d,]+) a move",
        PHONE,
    ),
    Claim(
        "docs/ai.md",
        r"\(`PHONE_LEVELS`, `scopa\.engine\.ai\.levels`\): ([\d,]+) for `normal` and ([\d,]+) "
        r"for `strong`",
        PHONE,
    ),
    Claim(
        "docs/ai.md",
        r"\| `normal` \| 5 ms with the kernel; on the phone ([\d,]+) iterations of the same tree;"
        r".*?\| `strong` \| 200 ms with the kernel; on the phone ([\d,]+) iterations;",
        PHONE,
    ),
    Claim(
        "docs/ai.md",
        r"\| `strong` \(`ai:(\d+)it\+tree\+playouts`\) "
        r"\| `normal` \(`ai:(\d+)it\+tree\+playouts`\)",
        (PHONE[1], PHONE[0]),
    ),
    Claim(
        "docs/ai.md",
        r"grow the server's tree there, for ([\d,]+) and ([\d,]+) iterations a move",
        PHONE,
    ),
]


def folded(doc: str) -> str:
    return " ".join((ROOT / doc).read_text(encoding="utf-8").split())


@pytest.mark.parametrize("claim", CLAIMS, ids=lambda claim: f"{claim.doc}:{claim.pattern[:30]}")
def test_the_docs_state_the_codes_figures(claim: Claim) -> None:
    found = re.search(claim.pattern, folded(claim.doc))
    assert found, f"{claim.doc} no longer says {claim.pattern!r}: follow its new wording here"
    stated = tuple(float(group.replace(",", "")) for group in found.groups())
    assert stated == tuple(float(figure) for figure in claim.figures), claim.pattern


def test_the_phone_levels_the_docs_measure_are_the_phones() -> None:
    """``ai:500it+tree+playouts`` (the level table's strategy, docs/ai.md) is the phone's
    ``normal`` exactly, and the same for ``strong``: what was measured is what plays."""
    for name, iterations in zip(("normal", "strong"), PHONE, strict=True):
        assert parse_level(f"{iterations}it+tree+playouts") == PHONE_LEVELS[name]


def test_the_command_line_and_the_server_allow_as_many_connections_per_address() -> None:
    """``scopa serve --max-per-client`` defaults to the server's own default (the command
    line does not import the server, which loads uvicorn, to say it)."""
    assert DEFAULTS.per_client == serve_cli.PER_CLIENT


def test_a_claim_that_differs_from_the_code_fails() -> None:
    wrong = Claim("README.md", r"turn clock \((\d+) s by default", (tables.DEFAULT_CLOCK + 1,))
    with pytest.raises(AssertionError):
        test_the_docs_state_the_codes_figures(wrong)
