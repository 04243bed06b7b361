"""Benchmark: the CPU time of ``scopa --version`` and ``scopa --help`` (user + system, of the
process and its children), the median of ``--repeat`` runs, beside the bare interpreter's.

Issue 48's target: under 0.15 s each. ``--version`` is answered before the commands are loaded
(scopa.cli); ``--help`` lists them from scopa.cli_app.COMMANDS without loading them, and
Typer and Rich draw it without Rich's Markdown and traceback modules
(scopa.cli_help.defer_rich_modules).

Run: ``.venv/bin/python bench/cli_start.py [--repeat 7] [--quick]``.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

SCOPA = str(Path(sys.executable).parent / "scopa")
TARGET = 0.15


def cpu_of(command: list[str]) -> float:
    """The CPU seconds ``command`` took (its own and its children's)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--quick", action="store_true", help="three runs each")
    args = parser.parse_args()
    repeat = 3 if args.quick else args.repeat
    os.environ.setdefault("COLUMNS", "100")
    runs = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "scopa --version": [SCOPA, "--version"],
        "scopa --help": [SCOPA, "--help"],
    }
    for name, command in runs.items():
        median = statistics.median(cpu_of(command) for _ in range(repeat))
        judged = (
            ""
            if args.quick or name.startswith("python")
            else (" (target <= 0.15 s: " + ("met" if median <= TARGET else "NOT met") + ")")
        )
        print(f"{name}: {median:.3f} s of CPU, median of {repeat}{judged}")


if __name__ == "__main__":
    main()
