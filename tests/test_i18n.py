"""The languages: the catalogs are complete and agree with the sources, the language is chosen
as FORMATS "Languages" says, and the pages speak it."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings

from scopa import i18n, words
from scopa.store import MatchStore
from scopa.web import create_app
from tests.examples import examples
from tests.test_fuzz import broken_matches

ROOT = Path(__file__).parents[1]
LOCALE = ROOT / "src" / "scopa" / "locale"
TEMPLATES = ROOT / "src" / "scopa" / "web" / "templates"
TRANSLATED = ("it", "es")
KEYWORDS = {
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
    "N_": None,
    "NN_": (1, 2),
    "NP_": ((1, "c"), 2),
}


def catalog(language: str) -> Catalog:
    with (LOCALE / language / "LC_MESSAGES" / "scopa.po").open("rb") as handle:
        return read_po(handle, locale=language)


def key(message: object) -> tuple[str | None, str]:
    ident = message.id  # type: ignore[attr-defined]
    first = ident[0] if isinstance(ident, (list, tuple)) else ident
    return message.context, first  # type: ignore[attr-defined]


def extracted() -> set[tuple[str | None, str]]:
    """The messages of the sources as `make messages` extracts them (babel.cfg)."""
    with (ROOT / "babel.cfg").open() as handle:
        method_map, options_map = parse_mapping_cfg(handle)  # type: ignore[no-untyped-call]
    found: set[tuple[str | None, str]] = set()
    for _path, _line, message, _comments, context in extract_from_dir(
        str(ROOT),
        method_map,
        options_map,
        keywords=KEYWORDS,
        directory_filter=lambda d: (
            not any(
                part in ("vendor", "node_modules", "mutants", "build", "dist")
                or part.startswith(".")
                for part in Path(d).parts
            )
        ),
    ):
        first = message[0] if isinstance(message, tuple) else message
        if first:
            found.add((context, first))
    return found


@pytest.fixture(scope="module")
def sources() -> set[tuple[str | None, str]]:
    return extracted()


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_is_translated_and_none_is_fuzzy(language: str) -> None:
    untranslated = []
    for message in catalog(language):
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy or not all(strings):
            untranslated.append(key(message))
    assert untranslated == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_obsolete_entry_is_kept(language: str) -> None:
    """A message dropped from the sources is dropped from the catalog (`make messages` runs
    pybabel update with --ignore-obsolete): kept as an obsolete entry it shadowed a live one
    of the same text, which GNU msgfmt refuses as a duplicate."""
    for domain in ("scopa", "toolkit"):
        with (LOCALE / language / "LC_MESSAGES" / f"{domain}.po").open("rb") as handle:
            assert list(read_po(handle, locale=language).obsolete) == [], domain


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_catalog_holds_exactly_the_messages_of_the_sources(
    language: str, sources: set[tuple[str | None, str]]
) -> None:
    """A string wrapped in the code but missing from a catalog (`make messages` not run), or a
    catalog entry no source uses any more."""
    held = {key(m) for m in catalog(language) if m.id}
    assert sorted(sources - held, key=str) == []
    assert sorted(held - sources, key=str) == []


PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|\{(\w*)\}")


def placeholders(text: str) -> list[str]:
    return sorted(a or b for a, b in PLACEHOLDER.findall(text))


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_translation_has_the_placeholders_of_its_message(language: str) -> None:
    wrong = []
    for message in catalog(language):
        if not message.id:
            continue
        ids = [str(i) for i in (message.id if isinstance(message.id, tuple) else (message.id,))]
        given = message.string if isinstance(message.string, tuple) else (message.string,)
        strings = [str(s) for s in given]
        wanted = placeholders(ids[-1])
        for string in strings:
            # a singular may leave out the count it is the form for ("una mano")
            if set(placeholders(string)) - set(wanted) or (
                placeholders(string) != wanted
                and set(wanted) - set(placeholders(string)) - {"num", "count", "n"}
            ):
                wrong.append((ids[0], string))
    assert wrong == []


TEXT = re.compile(r">([^<>]*)<")
ATTRIBUTE = re.compile(r'\b(aria-label|title|placeholder|alt|data-label|data-confirm)="([^"]*)"')
ALLOWED = {"Scopa", "scopa", "vs", "ABCD", "EFGH", "JKLM"}
"""What a template may write as it is: the brand, "vs" between sides (the same in Italian and
Spanish, as in the match titles), the shape of a group code."""


def bare_words(source: str) -> list[str]:
    """Words in a template's text or in its attributes people read that are not made by the
    catalog (``{{ _("...") }}``) or by the data."""
    text = re.sub(r"\{#.*?#\}", "", source, flags=re.S)
    text = re.sub(r"<script.*?</script>|<style.*?</style>|<svg.*?</svg>", "", text, flags=re.S)
    text = re.sub(r"\{\{.*?\}\}|\{%.*?%\}|&\w+;", "", text, flags=re.S)
    found = []
    for chunk in TEXT.findall(text) + [value for _, value in ATTRIBUTE.findall(text)]:
        found += [w for w in re.findall(r"[A-Za-zÀ-ÿ]{2,}", chunk) if w not in ALLOWED]
    return found


@pytest.mark.parametrize("template", sorted(p.name for p in TEMPLATES.glob("*.html")))
def test_no_template_writes_words_past_the_catalog(template: str) -> None:
    assert bare_words((TEMPLATES / template).read_text()) == []


def test_the_check_finds_a_bare_word() -> None:
    assert bare_words('<p class="x">Hello {{ _("there") }}</p><b title="Hi">{{ n }}</b>') == [
        "Hello",
        "Hi",
    ]


def test_cards_are_named_in_the_game_s_words() -> None:
    with i18n.using("it"):
        assert words.card_name("7d") == "sette di denari"
        assert [words.rank_letter(r) for r in "JHK"] == ["F", "C", "R"]
        assert words.suit_name("b") == "bastoni"
    with i18n.using("es"):
        assert words.card_name("7d") == "siete de oros"
        assert [words.rank_letter(r) for r in "JHK"] == ["S", "C", "R"]
        assert [words.suit_name(s) for s in "dcsb"] == ["oros", "copas", "espadas", "bastos"]
    assert words.card_name("7d") == "7 of coins"
    assert words.card_short("Hc", deck=words.FRENCH) == "Q♥"


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("it-IT,it;q=0.9,en;q=0.8", "it"),
        ("es-ES", "es"),
        ("fr-FR, es;q=0.5, it;q=0.6", "it"),
        ("it;q=0, es;q=0.1", "es"),
        ("de", None),
        ("", None),
        (";q=;;,,=x", None),
        ("it;q=abc", None),
        ("*", None),
    ],
)
def test_accept_language(header: str, expected: str | None) -> None:
    assert i18n.from_accept_language(header) == expected


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"LANG": "it_IT.UTF-8"}, "it"),
        ({"LANGUAGE": "es:en", "LANG": "it_IT.UTF-8"}, "es"),
        ({"LC_ALL": "C", "LANG": "it_IT.UTF-8"}, "en"),
        ({"LC_MESSAGES": "es_ES.UTF-8", "LANG": "en_US.UTF-8"}, "es"),
        ({}, "en"),
    ],
)
def test_the_environment_chooses_as_gettext_does(environ: dict[str, str], expected: str) -> None:
    assert i18n.from_environment(environ) == expected


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    store = MatchStore.open(f"sqlite:///{tmp_path / 'scopa.db'}")
    with TestClient(create_app(store)) as test_client:
        yield test_client
    store.close()


def html_lang(text: str) -> str:
    found = re.search(r'<html lang="([a-z]+)"', text)
    assert found is not None
    return found.group(1)


def test_a_page_follows_accept_language_and_keeps_english_otherwise(client: TestClient) -> None:
    italian = client.get("/", headers={"Accept-Language": "it-IT,it;q=0.9,en;q=0.8"})
    assert html_lang(italian.text) == "it"
    assert "Nuova partita" in italian.text
    assert "Accept-Language" in italian.headers["vary"]
    english = client.get("/")
    assert html_lang(english.text) == "en"
    assert "New match" in english.text


def test_lang_in_the_address_wins_and_the_page_remembers_it(client: TestClient) -> None:
    chosen = client.get("/?lang=es", headers={"Accept-Language": "it"})
    assert html_lang(chosen.text) == "es"
    assert "lang=es" in chosen.headers["set-cookie"]
    later = client.get("/matches/new", headers={"Accept-Language": "it"})
    assert html_lang(later.text) == "es"
    assert "Nueva partida" in later.text


@pytest.mark.parametrize("value", ["xx", "", "it-IT-xyz-", "%ff", "e" * 500])
def test_a_malformed_language_is_never_an_error(client: TestClient, value: str) -> None:
    response = client.get(f"/?lang={value}", headers={"Accept-Language": "q=;,;;"})
    assert response.status_code == 200
    assert html_lang(response.text) in i18n.LANGUAGES


def test_a_bad_cookie_falls_back(client: TestClient) -> None:
    client.cookies.set("lang", "klingon")
    response = client.get("/", headers={"Accept-Language": "es"})
    assert html_lang(response.text) == "es"


def test_the_re_score_explanation_speaks_the_reader_s_language(client: TestClient) -> None:
    from tests.web.bodies import anna_deal

    created = client.post("/api/matches", json={"players": ["Anna", "Bruno"]}).json()
    ident = created["id"]
    client.post(f"/api/matches/{ident}/deals", json=anna_deal())
    form = {"version": "2", "target": "11", "napola": "off", "ties": "withhold"}
    client.post(f"/matches/{ident}/settings?lang=it", data=form)
    page = client.get(f"/matches/{ident}?lang=it").text
    assert re.search(r"Primiera disattivata: Anna \d+ → \d+", page)
    assert "Mano 1 segnata: Anna" in page
    english = client.get(f"/api/matches/{ident}/history").json()
    assert any(e["summary"].startswith("Primiera off: Anna") for e in english)


def test_an_api_error_has_one_code_in_every_language_and_its_text_in_each(
    client: TestClient,
) -> None:
    piles = {"Anna": {"count": 20, "coins": ["X"]}, "Bruno": {"count": 20}}
    body = {"players": ["Anna", "Bruno"], "deals": [{"piles": piles}]}
    answers = {
        language: client.post(f"/api/matches?lang={language}", json=body).json()
        for language in i18n.LANGUAGES
    }
    assert {a["code"] for a in answers.values()} == {answers["en"]["code"]}
    assert {a["where"] for a in answers.values()} == {answers["en"]["where"]}
    assert len({a["error"] for a in answers.values()}) == 3
    assert "'X'" in answers["it"]["error"]
    header = client.get("/api/matches/999", headers={"Accept-Language": "es-ES"}).json()
    assert header == {
        "error": "no hay ninguna partida con id 999",
        "where": "id",
        "code": ("match.no_match_id"),
    }


def test_a_core_error_keeps_its_english_message_and_speaks_the_reader_s_language() -> None:
    from scopa.cards import Card
    from scopa.errors import InvalidCardError

    with i18n.using("it"), pytest.raises(InvalidCardError) as caught:
        Card.parse("Zq", "deals[0].piles.Anna.coins[1]")
    error = caught.value
    assert error.message.startswith("'Zq' is not a card (expected a rank A-7")
    assert error.code == "card.not_card"
    assert error.params == {"value": "'Zq'"}
    with i18n.using("it"):
        assert error.text().startswith("'Zq' non è una carta")
    with i18n.using("es"):
        assert error.text().startswith("'Zq' no es una carta")
    moved = error.within("match")
    assert (moved.where, moved.code, moved.message) == (
        "match.deals[0].piles.Anna.coins[1]",
        error.code,
        error.message,
    )


def test_every_error_raised_on_purpose_has_a_code_and_a_catalog_message() -> None:
    """No `SomeError(where, f"...")` left: every error the project raises names its code."""
    import ast

    found = []
    for path in (ROOT / "src" / "scopa").rglob("*.py"):
        if path.name.startswith("cli") or "store/migrations" in str(path):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id.endswith(("Error", "Refused"))
                and node.func.id not in ("TypeError", "ValueError", "KeyError", "AttributeError")
                and node.func.id not in ("RuntimeError", "AssertionError", "LookupError")
                and node.func.id
                not in ("OSError", "ImportError", "NotImplementedError", "FileNotFoundError")
                and any(isinstance(a, ast.JoinedStr) and " " in ast.unparse(a) for a in node.args)
            ):
                found.append(f"{path.name}:{node.lineno}")
    assert found == []


def scopa_command(*args: str, stdin: str = "", **environ: str) -> tuple[int, str, str]:
    """``scopa ARGS`` as a program, with only ``environ`` for its locale variables."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG"))}
    env.update(environ, COLUMNS="120")
    done = subprocess.run(
        [sys.executable, "-m", "scopa", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    return done.returncode, done.stdout, done.stderr


def test_the_command_line_sheet_follows_lang() -> None:
    example = str(ROOT / "examples" / "escoba.json")
    code, out, _err = scopa_command("sheet", example, LANG="it_IT.UTF-8")
    assert code == 0
    assert "Mano" in out
    assert "Totale" in out
    assert "con setenta" in out  # Escoba's own word
    code, out, _err = scopa_command("--lang", "es", "sheet", example, LANG="it_IT.UTF-8")
    assert "Mano" in out
    assert "en empate nadie puntúa" in out
    code, out, _err = scopa_command("sheet", example, LC_ALL="C", LANG="it_IT.UTF-8")
    assert "Deal" in out
    assert "Total" in out


def test_the_command_line_sheet_says_the_computer_s_seats_in_the_language(
    tmp_path: Path,
) -> None:
    """``scopa sheet`` of a match against the computer: its seats in the reader's words,
    from the file's ``seat_kinds``; a person who calls themselves so, as they typed."""
    from tests.web.bodies import anna_deal

    deal = json.loads(json.dumps(anna_deal()).replace("Anna", "You").replace("Bruno", "Computer"))
    kinds = [{"kind": "you"}, {"kind": "computer"}]
    match = {"players": ["You", "Computer"], "seat_kinds": kinds, "deals": [deal, deal, deal]}
    people = tmp_path / "people.json"
    people.write_text(json.dumps({**match, "seat_kinds": None}), encoding="utf-8")
    code, out, _err = scopa_command("sheet", str(people), LANG="es_ES.UTF-8")
    assert (code, "Ordenador" in out, "Tú" in out) == (0, False, False)
    assert ("You" in out, "Computer" in out) == (True, True)
    path = tmp_path / "computer.json"
    path.write_text(json.dumps(match), encoding="utf-8")
    code, out, _err = scopa_command("sheet", str(path), LANG="it_IT.UTF-8")
    assert code == 0
    assert "Tu" in out
    assert re.search(r"\bYou\b", out) is None
    code, out, _err = scopa_command("sheet", str(path), LANG="es_ES.UTF-8")
    assert "Ordenador" in out
    assert "Computer" not in out
    code, out, _err = scopa_command("sheet", str(path), LC_ALL="C")
    assert "You" in out


def test_a_command_line_error_under_an_italian_locale() -> None:
    body = '{"players": ["Anna", "Bruno"], "deals": [{"piles": {"Anna": {"count": 20, '
    body += '"coins": ["X"]}, "Bruno": {"count": 20}}}]}'
    code, out, err = scopa_command("sheet", "-", stdin=body, LANG="it_IT.UTF-8")
    assert (code, out) == (2, "")
    assert err.startswith("scopa: <stdin>: deals[0].piles.Anna.coins[0]: 'X' non è un valore")
    code, out, err = scopa_command("sheet", "-", stdin=body)
    assert "'X' is not a rank" in err


def test_the_command_line_help_and_tables_follow_the_language(tmp_path: Path) -> None:
    """``--help`` (the commands' docstrings, the options' help, Typer's own words) and the
    stored matches' table speak the environment's language or ``--lang``'s, through the
    entry point."""
    code, out, _err = scopa_command("--help", LANG="it_IT.UTF-8")
    assert code == 0
    for said in ("Uso:", "Opzioni", "Comandi", "Mostra questo messaggio ed esce."):
        assert said in out
    assert "Show the score sheet" not in out
    code, out, _err = scopa_command("--lang", "es", "play", "--help", LANG="it_IT.UTF-8")
    assert "Juega una partida contra el ordenador" in " ".join(out.split())
    assert "El juego: scopa" in out
    db = str(tmp_path / "cli.db")
    scopa_command("matches", "new", "Anna", "Bruno", "--db", db)
    code, out, _err = scopa_command("matches", "list", "--db", db, LANG="es_ES.UTF-8")
    assert code == 0
    for said in ("Partida", "Manos", "Tanteo", "Estado", "en juego"):
        assert said in out, said


STATIC = ROOT / "src" / "scopa" / "web" / "static"
SCRIPT_TOKEN = re.compile(
    r"""("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`)|(/\*.*?\*/|//[^\n]*)""", re.S
)
FUNCTION_WORDS = {
    *("the", "a", "an", "is", "are", "was", "were", "not", "no", "on", "of", "this", "that"),
    *("to", "in", "and", "or", "has", "have", "cannot", "can", "could", "be", "been", "by"),
    *("for", "with", "from", "your", "you", "it", "its", "here", "there", "yet", "already"),
    *("another", "any"),
}
NOT_SHOWN = {
    ("scorer.js", "import sys"),  # Python code the worker runs
    ("scorer.js", "from scopa import i18n"),
    ("scorer.js", "the core could not be loaded ("),  # the worker's own, before any catalog
    ("util.js", "the page has no "),  # a page without an element its script needs: a bug
    ("play_device.js", "the Play page has no #"),
    ("dealform.js", "not the sheet"),  # caught at once: the form falls back to navigating
    ("cards.js", "Fante"),  # the words printed on an Italian card's face, as the pack has them
    ("cards.js", "Cavallo"),
    ("cards.js", "Re"),
}
"""Literals that are English on purpose: code, or a programmer's error (never a player's)."""


def call_before(source: str, at: int) -> str:
    """The name of the call whose arguments hold position ``at`` (``""``: none)."""
    depth = 0
    for k in range(at - 1, -1, -1):
        char = source[k]
        if char in ")]}":
            depth += 1
        elif char in "([{":
            if depth == 0:
                if char != "(":
                    continue  # an object or a list among a call's arguments
                found = re.search(r"([\w$.]+)\s*$", source[:k])
                return found.group(1) if found else ""
            depth -= 1
    return ""


def english_literals(source: str, name: str) -> list[str]:
    """String literals of a page script that read as English words to a person and are not
    an argument of ``_()`` or ``ngettext()`` (selectors, URLs, class names and keys pass)."""
    found = []
    for match in SCRIPT_TOKEN.finditer(source):
        if not match.group(1):
            continue
        text = match.group(1)[1:-1]
        if call_before(source, match.start()) in ("_", "ngettext", "pgettext"):
            continue
        if any(text.startswith(start) for file, start in NOT_SHOWN if file == name):
            continue
        if source[match.end() : match.end() + 1] == ":":
            continue  # an object's key: {"Prefer": ...}
        if re.fullmatch(r"[\w.#\[\]=-]+(\s*,\s*[\w.#\[\]=-]+)+", text):
            continue  # a list of selectors: "a, button, form"
        shown = re.sub(r"<[^>]*>?|\$\{[^}]*\}|\{\w+\}|\w+=\"[^\"]*\"?", " ", text)
        tokens = shown.split()
        plain = re.compile(r"\(?[A-Za-z']+[),.:;!?…]*")
        words = [w.strip("(),.:;!?…") for w in tokens if plain.fullmatch(w)]
        if len(words) >= 2 and any(w.lower() in FUNCTION_WORDS for w in words):
            found.append(text)  # words of a sentence
        elif re.fullmatch(r"\s*[A-Z][a-z]{2,}(\s+[a-z]+)*[.!?…:]?\s*", shown):
            found.append(text)  # a capitalised word or phrase: a label
    return found


@pytest.mark.parametrize("script", sorted(p.name for p in STATIC.glob("*.js")))
def test_no_page_script_shows_an_english_literal(script: str) -> None:
    """Every text a script shows goes through ``_()``/``ngettext()`` (the scripts' catalog):
    a literal that reads as English words fails here."""
    assert english_literals((STATIC / script).read_text(), script) == []


def test_the_script_check_finds_english_and_passes_code() -> None:
    source = """
      el("span", "table-takes", "on the table");   // found
      box.textContent = "Thinking…";                 // found
      x.innerHTML = '<button class="b">Discard this change</button>';  // found
      say(_("it is {n}", {n: "not this"}));           // the catalog's
      document.querySelector("a.deal-link, #seats input[name=player]");
      fetch("/static/i18n/" + lang + ".json"); classList.add("is-rest");
    """
    assert english_literals(source, "x.js") == [
        "on the table",
        "Thinking…",
        '<button class="b">Discard this change</button>',
    ]


def test_the_play_page_names_the_seats_in_the_reader_s_language() -> None:
    """The Play page's table (also what the phone's worker answers) names the computer's
    seats in the reader's words; the match keeps their own names."""
    from scopa.engine.game import Game
    from scopa.web.phone.play_view import table_json

    game = Game("scopone", 4, "1it/20", seed=1)
    with i18n.using("es"):
        data = table_json(game, None, None, ())
    assert [s["name"] for s in data["seats"]] == ["Tú", "Ordenador 1", "Compañero", "Ordenador 2"]
    assert data["score"]["sides"] == ["Tú & Compañero", "Ordenador 1 & Ordenador 2"]
    assert data["names"] == ["You", "Computer 1", "Partner", "Computer 2"]


def test_the_players_pages_write_numbers_the_language_s_way(client: TestClient) -> None:
    from tests.web.bodies import anna_deal

    ident = client.post("/api/matches", json={"players": ["Anna", "Bruno"]}).json()["id"]
    for _ in range(3):
        client.post(f"/api/matches/{ident}/deals", json=anna_deal())
    english = client.get("/players/Anna?lang=en").text
    italian = client.get("/players/Anna?lang=it").text
    spanish = client.get("/players?lang=es").text
    assert re.search(r"<dd>\d+\.\d\d</dd>", english)
    assert re.search(r"<dd>\d+,\d\d</dd>", italian)
    assert not re.search(r"<dd>\d+\.\d\d</dd>", italian)
    assert re.search(r"\d+\xa0%", spanish)  # Spanish writes a space before the sign


@pytest.mark.parametrize(
    ("language", "named", "suits", "faces"),
    [
        ("en", "queen of hearts", ["diamonds", "hearts", "spades", "clubs"], "jack queen king"),
        ("it", "donna di cuori", ["quadri", "cuori", "picche", "fiori"], "fante donna re"),
        (
            "es",
            "reina de corazones",
            ["diamantes", "corazones", "picas", "tréboles"],
            "jota reina rey",
        ),
    ],
)
def test_the_french_suited_display_names_the_cards_as_that_deck_does(
    language: str, named: str, suits: list[str], faces: str
) -> None:
    """The terminal game's mapping (coins ♦, cups ♥, swords ♠, clubs ♣, the horse the queen),
    in each language, and the Italian suits again outside the ``with``."""
    with i18n.using(language):
        italian = words.card_name("Hc")
        with words.using_deck(words.FRENCH):
            assert words.card_name("Hc") == named
            assert [words.suit_name(s) for s in "dcsb"] == suits
            assert " ".join(words.rank_name(r) for r in "JHK") == faces
            assert [words.rank_letter(r) for r in "JHK"] == ["J", "Q", "K"]
            assert [words.suit_symbol(s) for s in "dcsb"] == ["♦", "♥", "♠", "♣"]
            assert words.card_short("7d") == "7♦"
            assert words.card_name("7d", deck=words.ITALIAN) == words.card_name("7d", words.ITALIAN)
        assert words.card_name("Hc") == italian
        assert words.deck() == words.ITALIAN


def test_the_play_page_s_sentences_follow_the_display() -> None:
    """What the server and the phone's worker say of a move (play_view.describe)."""
    from scopa.cards import Card, CardSet
    from scopa.engine.game import Game, Move
    from scopa.engine.records import Play
    from scopa.web.phone.play_view import describe

    match = Game("scopa", 2).match
    move = Move(1, "Computer", Play(Card.parse("Hc"), CardSet.parse("2d 7s")), True)
    with words.using_deck(words.FRENCH):
        assert describe(move, match) == (
            "Computer plays the queen of hearts and takes the 2 of diamonds and the 7 of "
            "spades: sweep!"
        )
        with i18n.using("it"):
            said = describe(move, match)
    assert "donna di cuori" in said
    assert "due di quadri" in said
    assert "sette di picche" in said
    with i18n.using("it"):
        assert "cavallo di coppe" in describe(move, match)


def test_the_menu_s_deck_switch_is_remembered_and_draws_every_card(client: TestClient) -> None:
    from tests.web.bodies import anna_deal

    ident = client.post("/api/matches", json={"players": ["Anna", "Bruno"]}).json()["id"]
    client.post(f"/api/matches/{ident}/deals", json=anna_deal())
    plain = client.get(f"/matches/{ident}/deals/new?mode=cards&lang=it")
    assert 'data-deck="italian"' in plain.text
    assert "cavallo di coppe" in plain.text
    assert "Carte francesi" in plain.text
    assert "lang=it&amp;deck=french" in plain.text
    chosen = client.get(f"/matches/{ident}/deals/new?mode=cards&deck=french")
    assert "deck=french" in chosen.headers["set-cookie"]
    later = client.get(f"/matches/{ident}/deals/new?mode=cards")  # the cookie, the Italian
    assert 'data-deck="french"' in later.text
    assert "donna di cuori" in later.text
    assert "cavallo di coppe" not in later.text
    assert 'Q<span class="suit-sym">♥</span>' in later.text
    sheet = client.get(f"/matches/{ident}/deals/1")
    assert "sette di quadri" in sheet.text  # the settebello, named
    api = client.get(f"/api/matches/{ident}").json()
    assert "deck" not in str(api.keys())
    assert client.get("/api/matches").status_code == 200
    back = client.get("/?deck=italian")
    assert "deck=italian" in back.headers["set-cookie"]
    assert 'data-deck="italian"' in client.get("/").text


@pytest.mark.parametrize("value", ["", "tarot", "%ff", "f" * 300])
def test_an_unknown_deck_is_never_an_error(client: TestClient, value: str) -> None:
    client.cookies.set("deck", "klingon")
    response = client.get(f"/?deck={value}")
    assert response.status_code == 200
    assert 'data-deck="italian"' in response.text
    assert "deck=" not in response.headers.get("set-cookie", "")


def toolkit_catalog(language: str) -> Catalog:
    with (LOCALE / language / "LC_MESSAGES" / "toolkit.po").open("rb") as handle:
        return read_po(handle, locale=language)


def test_the_toolkit_catalog_is_click_s_and_typer_s_own_messages_all_translated() -> None:
    """`make messages` extracts click's and Typer's words from the installed packages: the
    catalogs hold exactly those (a new release's words fail here until extracted and
    translated), each translated with the placeholders of its message."""
    import os

    import click
    import typer
    from babel.messages.extract import extract_from_dir

    installed = {
        message[0] if isinstance(message, tuple) else message
        for package in (click, typer)
        for _p, _l, message, _c, _ctx in extract_from_dir(os.path.dirname(str(package.__file__)))
    } - {""}
    field = re.compile(r"%\((\w+)\)[sd]|\{(\w*)(?:![rs])?\}")
    for language in TRANSLATED:
        held = toolkit_catalog(language)
        assert {key(m)[1] for m in held if m.id} == installed
        for message in held:
            if not message.id:
                continue
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            assert all(strings), message.id
            assert not message.fuzzy, message.id
            for ident, text in zip(ids, strings, strict=True):
                wanted = sorted(field.findall(str(ident)))
                assert sorted(field.findall(str(text))) == wanted, (language, message.id, text)


@pytest.mark.parametrize(
    ("locale", "said"),
    [
        (
            "it_IT.UTF-8",
            (
                "Uso: scopa sheet [OPZIONI]",
                "Prova 'scopa sheet --help' per l'aiuto.",
                "Errore",
                "Non esiste l'opzione '--nope'.",
                "Manca l'argomento 'MATCH.json'.",
                "L'opzione '--level' vuole un argomento.",
            ),
        ),
        (
            "es_ES.UTF-8",
            (
                "Uso: scopa sheet [OPCIONES]",
                "Prueba 'scopa sheet --help' para ver la ayuda.",
                "Error",
                "No existe la opción '--nope'.",
                "Falta el argumento 'MATCH.json'.",
                "La opción '--level' necesita un argumento.",
            ),
        ),
    ],
)
def test_click_s_and_typer_s_own_errors_speak_the_locale(
    locale: str, said: tuple[str, ...]
) -> None:
    """Through the entry point: an unknown option, a missing argument, an option without its
    value (under Italian also ``--lang`` over the locale, and English as Typer writes it
    without one)."""
    text = ""
    for args in (("sheet", "--nope"), ("sheet",), ("play", "--level")):
        code, _out, err = scopa_command(*args, LANG=locale)
        assert code == 2, (args, err)
        text += err
    flat = " ".join(text.replace("│", " ").split())
    for words_ in said:
        assert words_ in flat, (words_, flat)
    assert "No such option" not in flat
    assert "Missing argument" not in flat
    if locale.startswith("it"):
        code, _out, err = scopa_command("--lang", "es", "sheet", "--nope", LANG=locale)
        assert "No existe la opción '--nope'." in err
        code, _out, err = scopa_command("sheet", "--nope")
        assert "No such option: --nope" in err
        assert "Usage: scopa sheet" in err


def test_the_toolkit_s_other_messages_are_read_back_in_the_language() -> None:
    """What Typer's copy of click writes out in English, said from click's messages (in
    process: the same functions the entry point binds)."""
    from scopa import cli_help

    cli_help.bind_toolkit()
    cases = {
        "Got unexpected extra argument(s) (b c)": (
            "Argomenti in più inattesi (b c)",
            "Sobran argumentos inesperados (b c)",
        ),
        "Got unexpected extra argument(s) (b)": (
            "Argomento in più inatteso (b)",
            "Sobra un argumento inesperado (b)",
        ),
        "No such command 'lst'. Did you mean 'list'?": (
            "Non esiste il comando 'lst'. Forse intendevi 'list'?",
            "No existe el comando 'lst'. ¿Quisiste decir 'list'?",
        ),
        "Option '--deals' requires 2 arguments.": (
            "L'opzione '--deals' vuole 2 argomenti.",
            "La opción '--deals' necesita 2 argumentos.",
        ),
        "No such option: --nope (Possible options: --name, --notes)": (
            "Non esiste l'opzione '--nope'. (Forse intendevi uno di: --name, --notes?)",
            "No existe la opción '--nope'. (¿Quisiste decir uno de: --name, --notes?)",
        ),
        "Invalid value for '--deals': Input should be a valid integer, unable to parse string "
        "as an integer": (
            "Valore non valido per '--deals': deve essere un numero intero",
            "Valor no válido para '--deals': debe ser un número entero",
        ),
        "something the toolkit never says": (
            "something the toolkit never says",
            "something the toolkit never says",
        ),
    }
    for english, (italian, spanish) in cases.items():
        with i18n.using("it"):
            assert cli_help.toolkit_text(english) == italian
        with i18n.using("es"):
            assert cli_help.toolkit_text(english) == spanish
        assert cli_help.toolkit_text(english) == english
    usage = {
        "[OPTIONS]": ("[OPZIONI]", "[OPCIONES]"),
        "COMMAND [ARGS]...": ("COMANDO [ARGOMENTI]...", "COMANDO [ARGUMENTOS]..."),
        "MATCH.json": ("MATCH.json", "MATCH.json"),
    }
    for piece, (italian, spanish) in usage.items():
        with i18n.using("it"):
            assert cli_help.usage_piece(piece) == italian
        with i18n.using("es"):
            assert cli_help.usage_piece(piece) == spanish
        assert cli_help.usage_piece(piece) == piece


def test_the_names_the_program_made_read_in_the_reader_s_language(client: TestClient) -> None:
    """Kept as data (``generated_name``: a kind and parameters), worded in the reader's
    language on every page that names the match; ``name`` answers the English wording."""
    made = [
        {"kind": "computer", "variant": "Scopa", "level": "strong"},
        {"kind": "table", "code": "7K2Q", "variant": "Escoba"},
        {"kind": "rematch", "of": "computer", "variant": "Scopone", "level": "easy"},
    ]
    ids = [
        client.post(
            "/api/matches", json={"players": ["Anna", "Bruno"], "generated_name": one}
        ).json()["id"]
        for one in made
    ]
    home = client.get("/?lang=it").text
    for said in ("Contro il computer (Scopa, forte)", "Tavolo 7K2Q (Escoba)"):
        assert said in home
    assert "Contro il computer (Scopone, facile) (rivincita)" in home
    assert "Against the computer" not in home
    sheet = client.get(f"/matches/{ids[1]}?lang=es").text
    assert "Mesa 7K2Q (Escoba)" in sheet
    assert "Table 7K2Q" not in sheet
    stored = client.get(f"/api/matches/{ids[0]}").json()["match"]
    assert stored["name"] == "Against the computer (Scopa, strong)"
    assert stored["generated_name"] == made[0]
    assert "Against the computer (Scopa, strong)" in client.get("/?lang=en").text
    exported = client.get(f"/api/matches/{ids[2]}/export.json").json()
    assert exported["name"] == "Against the computer (Scopone, easy) (rematch)"
    again = client.post("/api/import", json=exported).json()["id"]
    assert (
        "Contro il computer (Scopone, facile) (rivincita)"
        in client.get(f"/matches/{again}?lang=it").text
    )


def test_a_name_a_person_typed_is_shown_as_typed(client: TestClient) -> None:
    """A match a person named like one the program makes keeps its name in every language:
    the text is never read back."""
    typed = ["Table 7K2Q (Escoba)", "Against the computer (Scopa, normal)", "Sunday (rematch)"]
    ids = [
        client.post("/api/matches", json={"players": ["Anna", "Bruno"], "name": name}).json()["id"]
        for name in typed
    ]
    for language in ("it", "es"):
        home = client.get(f"/?lang={language}").text
        assert all(name in home for name in typed)
        assert "Tavolo" not in home
        assert "Mesa" not in home
        assert typed[0] in client.get(f"/matches/{ids[0]}?lang={language}").text
    assert "generated_name" not in client.get(f"/api/matches/{ids[1]}").json()["match"]


def test_a_generated_name_that_is_not_one_is_refused_saying_where(client: TestClient) -> None:
    for made in ({"kind": "nickname"}, {"kind": "table", "code": "7K2Q"}, "Table"):
        body = {"players": ["Anna", "Bruno"], "generated_name": made}
        refused = client.post("/api/matches", json=body, headers={"Accept-Language": "it"})
        assert refused.status_code == 422, refused.text
        assert "generated_name" in refused.text


def test_a_match_against_the_computer_names_its_seats_in_the_reader_s_language(
    client: TestClient,
) -> None:
    """A game against the computer stores its seats as ``You``, ``Computer 1``, ``Partner``...
    (so the API and the files answer them); every page a person reads says them in the
    reader's words: the sheet with its chart and dealer line, the deal form, the TV view, the
    share image, the players' pages."""
    from tests.web.bodies import anna_deal

    seats = ["You", "Computer 1", "Partner", "Computer 2"]
    made = {"kind": "computer", "variant": "Scopone", "level": "easy"}
    kinds = [{"kind": "you"}, {"kind": "computer", "number": 1}, {"kind": "partner"}]
    kinds.append({"kind": "computer", "number": 2})
    body = {"players": seats, "variant": "scopone", "generated_name": made, "seat_kinds": kinds}
    created = client.post("/api/matches", json=body)
    ident = created.json()["id"]
    ours, theirs = "You & Partner", "Computer 1 & Computer 2"
    deal = json.loads(json.dumps(anna_deal()).replace("Anna", ours).replace("Bruno", theirs))
    for _ in range(3):  # 5 points a deal for us: the match is won at the third
        assert client.post(f"/api/matches/{ident}/deals", json=deal).status_code == 201
    stored = client.get(f"/api/matches/{ident}").json()
    assert stored["match"]["players"] == seats
    assert stored["sheet"]["winner"] == ours
    pages = {
        "sheet": f"/matches/{ident}",
        "deal form": f"/matches/{ident}/deals/new",
        "deal": f"/matches/{ident}/deals/1",
        "tv": f"/matches/{ident}/tv",
        "share image": f"/matches/{ident}/share.svg",
        "players": "/players",
        "player": "/players/Partner",
        "home": "/",
    }
    for language, (you, partner, computer) in {
        "it": ("Tu", "Compagno", "Computer 1"),
        "es": ("Tú", "Compañero", "Ordenador 1"),
    }.items():
        for what, path in pages.items():
            page = client.get(path, params={"lang": language})
            assert page.status_code == 200, what
            text = re.sub(r"<[^>]*>", " ", page.text)  # what is read, not the links' addresses
            found = re.search(r"\bYou\b|\bPartner\b", text)
            assert found is None, (language, what, text[found.start() - 80 :])
            if what != "player":
                assert you in text, (language, what)
            if what != "players":  # the ranking lists people, not the computer's seats
                assert partner in text, (language, what)
            if what not in ("players", "player"):  # the pages of a person: the partner's
                assert computer in text, (language, what)
        sheet = client.get(f"/matches/{ident}", params={"lang": language}).text
        assert f"{you} &amp;\xa0{partner}" in sheet or f"{you}\xa0&amp; {partner}" in sheet
    english = re.sub(r"<[^>]*>", " ", client.get(f"/matches/{ident}?lang=en").text)
    assert "You" in english
    assert "Partner" in english


def test_the_deal_form_s_field_errors_speak_the_language() -> None:
    """The tally and card forms' own checks (read on the server and by the phone's worker)."""
    from scopa.web.phone.forms import read_form

    tally = {"mode": ["tally"], "count-0": [""], "count-1": ["x"], "sweeps-0": ["y"]}
    cards = {"mode": ["cards"], "card-Ac": ["0"]}
    said = {
        "en": (
            "enter the number of cards taken",
            "whole number of cards",
            "of sweeps",
            "39 cards are",
        ),
        "it": (
            "scrivi quante carte ha preso",
            "numero intero di carte",
            "di scope",
            "39 carte non sono",
        ),
        "es": (
            "escribe cuántas cartas se llevó",
            "número entero de cartas",
            "de escobas",
            "39 cartas no están",
        ),
    }
    for language, (empty, count, sweeps, pile) in said.items():
        with i18n.using(language):
            form, deal = read_form(tally, ["Anna", "Bruno"])
            assert deal is None
            assert form.errors["count-0"] == empty
            assert count in form.errors["count-1"]
            assert sweeps in form.errors["sweeps-0"]
            form, deal = read_form(cards, ["Anna", "Bruno"])
            assert deal is None
            assert pile in form.errors["cards"], form.errors


ENGLISH_GLUE = {"or", "and", "the", "of", "from", "whole", "number", "expected", "found", "an"}
ENGLISH_GLUE |= {"boolean", "string", "huge", "pile", "owner", "hands"}  # (not a JSON key)
TWO, FOUR = ["Anna", "Bruno"], ["Anna", "Bruno", "Carla", "Dario"]
TALLY = {"Anna": {"count": 20, "coins": ["A", "2", "3", "4", "5"]}, "Bruno": {"count": 20}}
BAD_MATCHES: list[object] = [
    *(
        {"players": FOUR if variant == "scopone" else TWO, "variant": variant, "rules": {name: bad}}
        for name, variant in [
            ("target", "scopa"),
            ("target", "cirulla"),
            ("primiera", "scopa"),
            ("napola", "scopa"),
            ("partnerships", "scopa"),
            ("last_capture_sweep", "scopa"),
            ("ties", "scopa"),
            ("primiera_mode", "escoba"),
            ("last_play_sweep", "scopone"),
            ("ace_sweep", "assi"),
            ("cirulla_points", "cirulla"),
            ("decino_points", "cirulla"),
            ("piccola_cap", "cirulla"),
            ("cappotto", "cirulla"),
        ]
        for bad in ("zzz", 10**15, [1])
    ),
    {"players": ["Anna", "Bruno"], "rules": {"primiera_mode": "sum"}},  # of two variants
    {"players": ["Anna", "Bruno"], "rules": [1]},
    {"players": ["Anna", "Bruno"], "rules": "x"},
    {"players": "Anna"},
    {"players": ["Anna", "Bruno", "Carla", "Dario"], "teams": 1},
    {"players": ["Anna", "Bruno", "Carla", "Dario"], "teams": [1, 2]},
    {"players": TWO, "deals": 1},
    {"players": TWO, "deals": [[]]},
    {"players": TWO, "deals": [{"piles": []}]},
    {"players": TWO, "deals": [{"piles": {"Anna": 1, "Bruno": {}}}]},
    {"players": TWO, "deals": [{"piles": {"Anna": {"cards": 1}, "Bruno": {}}}]},
    {"players": TWO, "deals": [{"piles": {"Anna": {"count": "x"}, "Bruno": {}}}]},
    {"players": TWO, "deals": [{"piles": {"Anna": {"count": 99}, "Bruno": {}}}]},
    {"players": TWO, "deals": [{"piles": {**TALLY, "Anna": {"count": 20, "coins": 1}}}]},
    {"players": TWO, "deals": [{"piles": {**TALLY, "Anna": {"count": 20, "best": 1}}}]},
    {"players": TWO, "deals": [{"piles": TALLY, "sweeps": 1}]},
    {"players": TWO, "deals": [{"piles": TALLY, "sweeps": {"Anna": "x"}}]},
    {"players": TWO, "deals": [{"categories": 1}]},
    {"players": TWO, "variant": "cirulla", "deals": [{"piles": TALLY, "declarations": 1}]},
    {
        "players": TWO,
        "variant": "cirulla",
        "deals": [{"piles": TALLY, "declarations": {"Anna": 1}}],
    },
    {"players": TWO, "variant": "assi", "deals": [{"piles": TALLY, "ace_sweeps": 1}]},
    {"players": TWO, "variant": "assi", "deals": [{"piles": TALLY, "ace_sweeps": {"Anna": "x"}}]},
]


def glue_words(text: str) -> set[str]:
    """The English words between the words of ``text`` that are not values (quoted, JSON)."""
    text = re.sub(r"(?<![A-Za-z])'[^']*'(?![A-Za-z])|\{[^}]*\}|\[[^\]]*\]", " ", text)
    return {w for w in re.findall(r"[A-Za-z]+", text) if w in ENGLISH_GLUE}


@pytest.mark.parametrize("language", ["it", "es"])
def test_an_error_says_what_was_expected_in_the_reader_s_language(language: str) -> None:
    """Not only the message: what it names (the allowed values, what a place should hold,
    the kind of value found) is said in the reader's language too."""
    from scopa.errors import InputError
    from scopa.formats import parse_match

    english = glue_words("expected the players' names (a JSON list), found a boolean or a string")
    assert english == {"expected", "the", "found", "boolean", "or", "string"}
    said: dict[str, str] = {}
    for data in BAD_MATCHES:
        with pytest.raises(InputError) as caught:
            parse_match(data)
        with i18n.using(language):
            said[caught.value.message] = caught.value.text()
    assert len(said) >= len(BAD_MATCHES) * 2 // 3  # the cases are different errors
    leaks = {english: text for english, text in said.items() if glue_words(text)}
    assert leaks == {}


@settings(max_examples=examples(80), deadline=None, suppress_health_check=list(HealthCheck))
@given(doc=broken_matches())
def test_a_broken_match_file_is_refused_in_the_reader_s_words(doc: object) -> None:
    """The same for match files broken anywhere (tests/test_fuzz.py's): each error's text
    in Italian and in Spanish has no English word between its values."""
    from scopa.errors import ScopaError
    from scopa.formats import parse_match

    try:
        parse_match(doc)
    except ScopaError as error:
        for language in ("it", "es"):
            with i18n.using(language):
                text = error.text()
            assert not glue_words(text), (language, text)


def test_a_person_called_like_a_computer_seat_keeps_their_name(client: TestClient) -> None:
    """Issue 50: who sits where is data, never read back from a name: a person who calls
    themselves ``Computer 2`` (or ``You``) is shown as they typed, in every language, on the
    sheet, the deal form, the TV view and the list; the match's JSON says they are people."""
    players = ["Computer 2", "You"]
    created = client.post("/api/matches", json={"players": players})
    ident = created.json()["id"]
    assert "seat_kinds" not in created.json()["match"]
    for path in (f"/matches/{ident}", f"/matches/{ident}/deals/new", f"/matches/{ident}/tv", "/"):
        text = re.sub(r"<[^>]*>", " ", client.get(path, params={"lang": "es"}).text)
        shown = [word in text for word in ("Computer 2", "You", "Ordenador 2", "Tú")]
        assert shown == [True, True, False, False], path
