"""Compile the gettext catalogs: each ``src/scopa/locale/<lang>/LC_MESSAGES/scopa.po`` to its
``scopa.mo`` (read by the standard library's :mod:`gettext` on the server, in the command line
and in the phone's Pyodide worker) and to ``scopa/web/static/i18n/<lang>.json`` (the page
scripts' catalog); each ``toolkit.po`` (click's and Typer's own words, extracted from the
installed packages by ``make messages``) to its ``toolkit.mo`` (:mod:`scopa.cli_toolkit`).
Fuzzy and untranslated entries are left out, so they read in English.

``python scripts/catalogs.py [OUT]``: compile in place (``make setup`` does), or into the
package tree under OUT (setup.py's build step does, for the wheel).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "src" / "scopa"


def script_catalog(catalog: object) -> dict[str, object]:
    """The page scripts' part of a catalog: every translated message whose locations
    include a script (``static/*.js``), and every category's word (context ``category``),
    as ``{msgid: msgstr}`` (a plural: a list of forms; a message said in a context,
    ``pgettext("french suit", "clubs")``, under ``"context\x04msgid"`` as gettext keys it)."""
    messages: dict[str, object] = {}
    for message in catalog:  # type: ignore[attr-defined]
        if not message.id or message.fuzzy:
            continue
        # the categories' words too: the server sends a variant's as data (English), and the
        # scripts say them in the page's language (play.js: the points of a deal)
        in_script = any(str(path).endswith(".js") for path, _ in message.locations)
        if not in_script and message.context != "category":
            continue
        prefix = f"{message.context}\x04" if message.context else ""
        if isinstance(message.id, (list, tuple)):
            forms = list(message.string)
            if all(forms):
                messages[prefix + message.id[0]] = forms
        elif message.string:
            messages[prefix + message.id] = message.string
    return messages


def compile_all(out: Path = SOURCE) -> list[Path]:
    """Compile every language's catalog into ``out`` (a ``scopa`` package tree)."""
    written: list[Path] = []
    for po in sorted((SOURCE / "locale").glob("*/LC_MESSAGES/*.po")):
        language = po.parent.parent.name
        with po.open("rb") as handle:
            catalog = read_po(handle, locale=language)
        mo = out / "locale" / language / "LC_MESSAGES" / f"{po.stem}.mo"
        mo.parent.mkdir(parents=True, exist_ok=True)
        with mo.open("wb") as handle:
            write_mo(handle, catalog)
        written.append(mo)
        if po.stem != "scopa":
            continue
        # English, Italian and Spanish share one plural rule (one: n == 1), which the
        # scripts apply themselves.
        script = {"language": language, "messages": script_catalog(catalog)}
        js = out / "web" / "static" / "i18n" / f"{language}.json"
        js.parent.mkdir(parents=True, exist_ok=True)
        js.write_text(json.dumps(script, ensure_ascii=False, sort_keys=True) + "\n")
        written.append(js)
    return written


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else SOURCE
    for path in compile_all(target):
        print(path)
