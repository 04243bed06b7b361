"""The ``scopa`` entry point: thin commands that parse, call the core (or the application
layer for stored matches) and print (:mod:`scopa.cli_app`).

``scopa --version`` is answered here, before the commands are loaded (they import the whole
toolkit: 0.4 s of CPU); ``scopa --help`` lists them without loading them
(:mod:`scopa.cli_app`). Exit status: 0 done, 1 a failure (not found, refused, the database in
use or damaged, the port in use), 2 a usage error (an unknown option, a missing argument, input
that is not valid).
"""

from __future__ import annotations

import os
import sys
from typing import Any


def asked_language(args: list[str]) -> str | None:
    """The value of ``--lang`` among the arguments, read before the commands are built so
    that their help speaks it."""
    for k, arg in enumerate(args):
        if arg == "--lang" and k + 1 < len(args):
            return args[k + 1]
        if arg.startswith("--lang="):
            return arg.partition("=")[2]
        if arg == "--":
            break
    return None


def only_version(args: list[str]) -> bool:
    """Whether the arguments ask for the version and nothing else (``--lang`` aside).

    >>> only_version(["--version"]), only_version(["--lang", "it", "--version"])
    (True, True)
    >>> only_version(["--version", "score"]), only_version(["score", "--version"])
    (False, False)
    """
    rest = list(args)
    if rest[:1] == ["--lang"]:
        rest = rest[2:]
    elif rest[:1] and rest[0].startswith("--lang="):
        rest = rest[1:]
    return rest == ["--version"]


def main(argv: list[str] | None = None) -> int:
    """The ``scopa`` command: runs a command and returns its exit status."""
    args = sys.argv[1:] if argv is None else list(argv)
    if only_version(args):
        from scopa import __version__

        print(f"scopa {__version__}")
        return 0
    from scopa import i18n

    i18n.use(i18n.choose(asked_language(args), i18n.from_environment(os.environ)))
    from scopa.cli_app import run

    return run(args)


def __getattr__(name: str) -> Any:
    """``scopa.cli.app`` (the Typer app), loaded when asked for."""
    if name == "app":
        from scopa.cli_app import app

        return app
    raise AttributeError(name)


if __name__ == "__main__":
    sys.exit(main())
