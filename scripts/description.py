"""The package's long description: README.md as an index page can show it.

An index (PyPI, a private one) shows the description away from the repository, where a
picture or a link by relative path (``docs/screenshots/sheet-phone.png``, ``docs/rules.md``)
leads nowhere, and the project has no public address to make them absolute. So pictures are
left out and a relative link becomes its text with the path after it, in code, for whoever has
the source; links to an address (``https://...``) and the fenced code blocks stay as they are.
setup.py reads it when it builds the sdist and the wheel (their ``Description``).

    >>> description("See [the rules](docs/rules.md#cirulla) and [TLS](https://letsencrypt.org).")
    'See the rules (`docs/rules.md`) and [TLS](https://letsencrypt.org).'
    >>> description("More in [docs/ai.md](docs/ai.md).")
    'More in `docs/ai.md`.'
    >>> description("Before\\n![A phone](docs/shot.png)\\nAfter [up](#install)\\n")
    'Before\\nAfter up\\n'
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ADDRESS = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)
"""A link with a scheme (``https:``, ``mailto:``): it works from anywhere."""
IMAGE = re.compile(r"!\[([^\]]*)\]\(([^)\s]+)\)")
LINK = re.compile(r"(?<!!)\[([^\]]+)\]\(([^)\s]+)\)")


def _image(found: re.Match[str]) -> str:
    return found.group(0) if ADDRESS.match(found.group(2)) else ""


def _link(found: re.Match[str]) -> str:
    text, target = found.group(1), found.group(2)
    if ADDRESS.match(target):
        return found.group(0)
    path = target.partition("#")[0]
    if not path:
        return text
    return f"`{path}`" if text.strip("`") == path else f"{text} (`{path}`)"


def description(readme: str) -> str:
    """``readme`` (Markdown) with its relative pictures left out and its relative links
    turned into text; a line that held only pictures goes."""
    lines: list[str] = []
    fenced = False
    for line in readme.splitlines(keepends=True):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        if fenced or line.lstrip().startswith("```"):
            lines.append(line)
            continue
        kept = IMAGE.sub(_image, line)
        if line.strip() and not kept.strip():
            continue
        lines.append(LINK.sub(_link, kept))
    return "".join(lines)


if __name__ == "__main__":
    sys.stdout.write(description(Path(sys.argv[1] if sys.argv[1:] else "README.md").read_text()))
