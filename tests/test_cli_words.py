"""The command line in the reader's words: what ``simulate``, ``captures``, the range checks,
the JSON and system errors, the change log, the plurals and ``--lang`` say in Italian and
Spanish, through the real entry point (the QA sweep's findings, one test each)."""

from __future__ import annotations

import json
import socket
import sqlite3
from pathlib import Path

import pytest

from scopa.engine import native, simulate
from tests.conftest import run

EXAMPLES = Path(__file__).parents[1] / "examples"
TWO = str(EXAMPLES / "two-players.json")
ESCOBA = str(EXAMPLES / "escoba.json")


def test_simulate_speaks_italian(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--lang", "it", "simulate", "--deals", "10", "--matches", "1")
    assert code == 0
    for said in (
        "Scopa: ",
        " mani",
        "Per mano",
        "Settebello",
        "Primiera",
        "Mani vinte",
        "Partite vinte",
        "posti: random, random",
        "scope per mano: ",
        "vantaggio di chi gioca per primo: ",
        "mani pari: ",
        "1 partita, ",
        "mani al secondo",
    ):
        assert said in out, said
    for english in ("deals", "per deal", "won", "seats", "sweeps", "advantage", "tied"):
        assert english not in out.lower(), english


def test_simulate_escoba_duplicate_in_spanish(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    code, out, _ = run(
        capsys,
        "--lang",
        "es",
        "simulate",
        "--deals",
        "4",
        "--variant",
        "escoba",
        "--strategy",
        "greedy",
        "--strategy",
        "random",
        "--duplicate",
    )
    assert code == 0
    said = (
        "Escoba: 8 manos",
        "Siete de oros",
        "Setenta",
        "Escobas",
        "greedy: ",
        " puntos por mano",
        "ventaja de greedy sobre random: ",
        "(4 manos comparadas)",
    )
    assert [words for words in said if words not in out] == []
    # Scopa's words and English ones have no place in a Spanish Escoba report
    assert [w for w in ("Settebello", "Primiera", "points", "margin") if w in out] == []


def test_simulate_without_the_kernel_says_so_in_italian(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(native, "AVAILABLE", False)
    monkeypatch.setattr(native, "WHY", "No module named 'scopa.engine.native._kernel'")
    code, _, err = run(capsys, "--lang", "it", "simulate", "--deals", "2", "--engine", "python")
    assert code == 0
    assert "using the pure-Python engine" not in err
    code, _, err = run(capsys, "--lang", "it", "simulate", "--deals", "2")
    assert (
        "il motore nativo non è compilato qui (No module named 'scopa.engine.native._kernel'): "
        "si usa quello in puro Python"
    ) in err


def test_simulate_refuses_too_many_deals_before_any_work(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    code, _, err = run(capsys, "--lang", "it", "simulate", "--deals", "99999999999999999999999")
    assert code == 2
    assert "deve essere al massimo 100000000" in err
    code, _, err = run(capsys, "--lang", "es", "simulate", "--matches", "1000001")
    assert code == 2
    assert "'--matches'" in err
    assert "1000000" in err
    assert "Input should" not in err
    _, out, _ = run(capsys, "simulate", "--help")
    assert "at most 100,000,000" in out


def test_batches_are_not_listed_up_front(monkeypatch: pytest.MonkeyPatch) -> None:
    """A run of 10**20 deals starts on its first batches at once (it used to list every
    batch first: gigabytes, then killed). The batches here refuse to be read far ahead, so
    that the old way fails this test instead of filling the memory."""
    seen: list[int] = []
    handed: list[int] = []
    real = simulate.chunks

    def chunks(total: int, size: int) -> object:
        for start, n in real(total, size):
            handed.append(start)
            assert len(handed) <= 5, "the batches were listed up front"
            yield start, n

    class Enough(Exception):
        pass

    def one_batch(_sim: object, start: int, n: int) -> object:
        seen.append(start)
        if len(seen) == 3:
            raise Enough
        return None

    class Total:
        def merge(self, other: object) -> None:
            pass

    monkeypatch.setattr(simulate, "chunks", chunks)
    with pytest.raises(Enough):
        simulate.run_batches(one_batch, None, 10**20, 1, Total())  # type: ignore[arg-type]
    assert seen == [0, 1, 2]


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["simulate", "--deals", "0"], "Valore non valido per '--deals': deve essere almeno 1"),
        (["simulate", "--seed", "-1"], "Valore non valido per '--seed': deve essere almeno 0"),
        (["simulate", "--workers", "0"], "'--workers': deve essere almeno 1"),
        (["simulate", "--think-ms", "0"], "'--think-ms': deve essere almeno 1"),
        (["simulate", "--matches", "0"], "'--matches': deve essere almeno 1"),
        (["stats", "--group", "0"], "'--group': deve essere almeno 1"),
        (["access", "new", "--hours", "0"], "'--hours': deve essere almeno 0.01"),
        (["serve", "--port", "0"], "'--port': deve essere almeno 1"),
        (["serve", "--port", "70000"], "'--port': deve essere al massimo 65535"),
    ],
)
def test_range_errors_in_italian(
    args: list[str], said: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    code, _, err = run(capsys, "--lang", "it", *args)
    assert code == 2
    assert said in err
    assert "Input should" not in err


def test_range_error_in_spanish(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "--lang", "es", "simulate", "--deals", "0")
    assert code == 2
    assert "Input should" not in err
    assert "'--deals'" in err


def test_no_capture_named_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "--lang", "it", "captures", "7d")[2] == (
        "Sette di denari: nessuna presa, resta in tavola\n"
    )
    assert run(capsys, "--lang", "es", "captures", "Ad", "3c")[2] == (
        "As de oros: no se lleva nada, se queda en la mesa\n"
    )


def test_json_errors_name_the_file_in_the_readers_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    trunc = tmp_path / "trunc.json"
    trunc.write_text('{"players": ["Anna" "Bruno"]')
    code, _, err = run(capsys, "--lang", "it", "sheet", str(trunc))
    assert code == 2
    assert err == f"scopa: {trunc}: JSON non valido: manca una virgola alla riga 1, colonna 21\n"
    unterminated = tmp_path / "unterminated.json"
    unterminated.write_text('{"players": ["Anna", "Bruno"],\n "name": "Dom')
    _, _, err = run(capsys, "sheet", str(unterminated))
    assert err == (
        f"scopa: {unterminated}: not valid JSON: a string that is never closed starts "
        "at line 2 column 10\n"
    )
    _, _, err = run(capsys, "--lang", "es", "sheet", str(unterminated))
    assert "un texto entre comillas sin cerrar empieza en la línea 2, columna 10" in err
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000)
    _, _, err = run(capsys, "--lang", "it", "sheet", str(deep))
    assert err == f"scopa: {deep}: JSON non valido: annidato troppo in profondità\n"
    code, _, err = run(
        capsys, "--lang", "it", "matches", "add-deal", "1", str(trunc), "--db", str(tmp_path / "d")
    )
    assert code == 2
    assert err.startswith(f"scopa: {trunc}: JSON non valido: manca una virgola")


def test_system_errors_in_the_readers_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    loop = tmp_path / "loop"
    loop.symlink_to(tmp_path / "other")
    (tmp_path / "other").symlink_to(loop)
    code, _, err = run(capsys, "--lang", "it", "sheet", str(loop))
    assert (code, err) == (
        2,
        f"scopa: {loop}: non si può leggere (troppi collegamenti simbolici)\n",
    )
    a_file = tmp_path / "file"
    a_file.write_text("{}")
    _, _, err = run(capsys, "--lang", "es", "sheet", str(a_file / "x.json"))
    assert "no se puede leer (una parte de la ruta no es una carpeta)" in err
    _, _, err = run(capsys, "--lang", "it", "sheet", str(tmp_path / ("a" * 300)))
    assert "(il nome è troppo lungo)" in err
    not_db = tmp_path / "two-players.json"
    not_db.write_text(Path(TWO).read_text())
    code, _, err = run(
        capsys, "--lang", "es", "restore", str(not_db), "--db", str(tmp_path / "x.db")
    )
    assert (code, err) == (2, f"scopa: {not_db}: no es una base de datos SQLite\n")


def test_serve_on_a_port_in_use_says_why_in_italian(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, _, err = run(
            capsys,
            "--lang",
            "it",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--db",
            str(tmp_path / "s.db"),
        )
    assert code != 0
    assert f"non riesco a mettermi in ascolto su 127.0.0.1:{port}: " in err
    assert "l'indirizzo è già in uso" in err
    assert "Errno" not in err
    assert "Address already in use" not in err


def test_history_in_the_readers_words(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "matches", "import", TWO)
    run(capsys, "matches", "rules", "1", "napola=run", "primiera=off")
    run(capsys, "matches", "rename", "1", "")
    _, out, _ = run(capsys, "--lang", "it", "matches", "history", "1")
    assert "Partita importata: Anna, Bruno, 4 mani" in out
    assert "Primiera disattivata" in out
    assert "Nome tolto" in out
    assert "imported" not in out
    assert "removed" not in out
    _, out, _ = run(capsys, "--lang", "es", "matches", "history", "1")
    assert "Nombre quitado" in out
    _, out, _ = run(capsys, "--lang", "it", "matches", "history", "1", "--json")
    assert json.loads(out)[0]["summary"].startswith("Match imported: Anna, Bruno")


def test_spanish_and_italian_rank_letters_read(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "--lang", "es", "captures", "Sd", "5c", "3s") == (0, "5c 3s\n", "")
    assert run(capsys, "captures", "Ss", "Jd", "--json") == (0, '[\n  [\n    "Jd"\n  ]\n]\n', "")
    assert run(capsys, "captures", "Fc", "Jd", "--json")[1] == '[\n  [\n    "Jd"\n  ]\n]\n'
    assert run(capsys, "captures", "Cc", "Hd", "--json")[1] == '[\n  [\n    "Hd"\n  ]\n]\n'
    code, _, err = run(capsys, "--lang", "es", "captures", "Xd")
    assert code == 2
    assert "se espera un valor A-7, S, C, R" in err


def test_stats_of_a_variant_in_its_words(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "matches", "import", ESCOBA)
    _, out, _ = run(capsys, "--lang", "es", "stats", "Mateo", "--variant", "escoba")
    assert "Siete de oros" in out
    assert "Setenta" in out
    assert "Settebello" not in out
    assert "Primiera" not in out
    assert "Mateo: 1 partida, ganadas 0 de 0 terminadas; 2 manos, " in out


def test_groups_qr_hint_in_italian(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(
        capsys, "--lang", "it", "groups", "create", "Club", "--qr", "--db", str(tmp_path / "g")
    )
    assert code == 0
    assert "(aggiungi --url https://il.tuo.server per mettere tutto il link nel codice QR)" in err
    assert "add --url" not in err


def test_undo_refusal_names_no_field(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "matches", "import", TWO)
    run(capsys, "players", "rename", "Bruno", "Bruna")
    assert run(capsys, "players", "undo", "1")[0] == 0
    code, _, err = run(capsys, "--lang", "it", "players", "undo", "1")
    assert (code, err) == (2, "scopa: la modifica 1 è già stata annullata\n")


def test_plurals(db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "matches", "new", "Anna")[2] == (
        "scopa: players: 1 player; a match has 2 to 6\n"
    )
    assert "1 giocatore; una partita" in run(capsys, "--lang", "it", "matches", "new", "Anna")[2]
    assert "1 jugador; una partida" in run(capsys, "--lang", "es", "matches", "new", "Anna")[2]
    seven = run(capsys, "--lang", "it", "matches", "new", *"ABCDEFG")[2]
    assert seven == "scopa: players: 7 giocatori; una partita ne ha da 2 a 6\n"
    run(capsys, "matches", "import", TWO)
    copy = tmp_path / "copy.db"
    _, out, _ = run(capsys, "--lang", "it", "backup", str(copy))
    assert out.endswith("(1 partita)\n")
    _, _, err = run(capsys, "--lang", "it", "restore", str(copy))
    assert "contiene 1 partita; aggiungi --force" in err
    _, out, _ = run(capsys, "--lang", "es", "restore", str(copy), "--force")
    assert out.endswith("(1 partida)\n")
    with sqlite3.connect(copy) as conn:
        assert conn.execute("SELECT count(*) FROM matches").fetchone() == (1,)


def test_unknown_language_refused(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    code, out, err = run(capsys, "--lang", "xx", "captures", "7d", "7s")
    assert (code, out, err) == (2, "", "scopa: idioma desconocido 'xx' (en, it, es)\n")
    monkeypatch.setenv("LANG", "C")
    assert run(capsys, "--lang", "xx", "captures", "7d")[2] == (
        "scopa: unknown language 'xx' (en, it, es)\n"
    )
    assert run(capsys, "--lang", "it", "captures", "7d", "7s")[0] == 0
