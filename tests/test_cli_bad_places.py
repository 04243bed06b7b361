"""Bad databases, bad places to write and bad values through the entry point: each refused
with a message that names what was wrong (in the reader's language), a non-zero exit, no
traceback, and no file made or changed."""

from __future__ import annotations

import errno
import io
import math
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from scopa.errors import InputError
from scopa.store import MatchStore, database_url
from tests.conftest import run

EXAMPLES = Path(__file__).parents[1] / "examples"
TWO = EXAMPLES / "two-players.json"


def files(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (by its path inside it) and what it holds (a database
    that is there, by its name: SQLite moves its pages between its files as it likes)."""
    return {
        str(p.relative_to(folder)): b"<dir>"
        if p.is_dir()
        else b"<db>"
        if ".sqlite" in p.name
        else p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if not p.name.endswith(("-wal", "-shm"))
    }


def closed_port() -> int:
    """A port of 127.0.0.1 nothing listens on (taken, then let go)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working folder holding a folder, a match file and a database with a match, and no
    configured database (HOME in it too, so that the default one is never touched)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "home" / "data"))
    monkeypatch.delenv("SCOPA_DATABASE_URL", raising=False)
    monkeypatch.setenv("COLUMNS", "200")
    (tmp_path / "adir").mkdir()
    shutil.copy(TWO, tmp_path / "two-players.json")
    return tmp_path


def with_db(capsys: pytest.CaptureFixture[str], place: Path) -> Path:
    db = place / "db1.sqlite"
    assert (
        run(capsys, "matches", "import", str(place / "two-players.json"), "--db", str(db))[0] == 0
    )
    return db


COMMANDS = (
    ("matches", "list"),
    ("stats",),
    ("access", "list"),
    ("groups", "list"),
    ("players", "log"),
    ("backup", "copy.bak"),
    ("matches", "new", "Anna", "Bruno"),
)


def test_a_database_that_cannot_be_used_is_refused_before_anything_is_made(
    place: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = {
        "bogus://x": "bogus://x: non è un database che scopa sa usare (un file SQLite, o un URL "
        "sqlite:/// o postgresql://)",
        "http://x": "http://x: non è un database che scopa sa usare",
        "mysql://u@localhost/x": "mysql://u@localhost/x: non è un database che scopa sa usare",
        "adir": f"{place / 'adir'}: è una cartella, non un database",
        "two-players.json": f"{place / 'two-players.json'}: non è un database SQLite",
        "\udcff.db": f"{place / chr(0xFFFD)}.db: il nome del file non è testo UTF-8",
    }
    before = files(place)
    for value, said in bad.items():
        for command in COMMANDS:
            code, out, err = run(capsys, "--lang", "it", *command, "--db", value)
            assert (code, out) == (1, ""), (command, value, err)
            assert "Traceback" not in err
            assert err.startswith("scopa: "), err
            if said:
                assert said in err, (command, value, err)
    assert files(place) == before


def test_a_server_that_does_not_answer_is_said_by_its_address(
    place: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"postgresql://nobody:secret@127.0.0.1:{closed_port()}/x"
    shown = url.replace("secret", "***")
    for command in COMMANDS:
        code, out, err = run(capsys, "--lang", "es", *command, "--db", url)
        if command[0] == "backup":
            assert code == 2
            assert "pg_dump" in err
            continue
        assert (code, out) == (1, ""), (command, err)
        assert err.startswith(f"scopa: {shown}: no se puede abrir la base de datos ("), err
        assert "secret" not in err
    assert not (place / "home").exists()


def test_a_folder_not_there_or_an_empty_db_is_refused(
    place: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = files(place)
    missing = place / "nonexist" / "dir" / "x.sqlite"
    for command in COMMANDS:
        code, out, err = run(capsys, *command, "--db", str(missing))
        assert (code, out) == (1, "")
        assert err == f"scopa: {missing}: no such folder ({missing.parent})\n"
        code, out, err = run(capsys, "--lang", "es", *command, "--db", "")
        assert (code, out) == (2, "")
        assert err == (
            "scopa: --db: está vacío; indica un archivo SQLite o la URL de una base de datos\n"
        )
    # a command that only reads is refused a file that is not there (a mistyped name)
    code, out, err = run(capsys, "--lang", "it", "matches", "list", "--db", "new.sqlite")
    assert (code, out) == (1, "")
    assert err == f"scopa: {place / 'new.sqlite'}: lì non c'è ancora un database\n"
    assert files(place) == before
    # one that writes makes it, in a folder that is there
    assert run(capsys, "matches", "new", "Anna", "Bruno", "--db", "new.sqlite")[:2] == (0, "1\n")
    assert (place / "new.sqlite").is_file()


def test_an_access_code_lasts_at_most_a_year(
    place: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = with_db(capsys, place)
    before = files(place)
    for hours in ("1e30", "inf", "nan", "100000000", "8761"):
        code, out, err = run(
            capsys, "--lang", "es", "access", "new", "--hours", hours, "--db", str(db)
        )
        assert (code, out) == (2, ""), hours
        assert "Valor no válido para '--hours'" in err
        assert "debe ser como mucho 8760" in err or hours == "nan", err
        assert "Traceback" not in err
    code, out, err = run(capsys, "serve", "--lan", "--code-hours", "1e30", "--db", str(db))
    assert (code, out) == (2, "")
    assert "Invalid value for '--code-hours'" in err
    assert "less than or equal to 8760" in err
    assert files(place) == before
    store = MatchStore.open(database_url(str(db)))
    try:
        for bad in (1e30, math.inf, math.nan, 0.0, -1.0, 8761.0):
            with pytest.raises(InputError, match="outside the allowed values"):
                store.new_access_code("x", hours=bad)
        assert store.access_codes() == []
        store.new_access_code("x", hours=8760.0)
    finally:
        store.close()


def test_a_backup_into_a_folder_not_there_is_refused(
    place: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = with_db(capsys, place)
    before = files(place)
    for destination, folder in (
        (place / "nonexist" / "x.bak", place / "nonexist"),
        (place / "two-players.json" / "x.bak", place / "two-players.json"),
    ):
        code, out, err = run(capsys, "--lang", "it", "backup", str(destination), "--db", str(db))
        assert (code, out) == (1, "")
        assert err == f"scopa: {destination}: la cartella {folder} non esiste\n"
    assert files(place) == before


def test_a_restore_into_a_file_that_is_no_database_or_a_folder_is_refused(
    place: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = with_db(capsys, place)
    assert run(capsys, "backup", "b1.bak", "--db", str(db))[0] == 0
    before = files(place)
    for force in ((), ("--force",)):
        code, out, err = run(
            capsys, "--lang", "es", "restore", "b1.bak", "--db", "two-players.json", *force
        )
        assert (code, out) == (1, "")
        assert err == f"scopa: {place / 'two-players.json'}: no es una base de datos SQLite\n"
        code, out, err = run(capsys, "restore", "b1.bak", "--db", "adir", *force)
        assert (code, out) == (1, "")
        assert err == f"scopa: {place / 'adir'}: is a folder, not a database\n"
    assert files(place) == before


def test_an_empty_file_is_taken_as_a_new_database(
    place: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """SQLite makes an empty file a database: the check lets it through (a file with other
    bytes is refused, above), and a match can be stored in it."""
    empty = place / "empty.sqlite"
    empty.touch()
    assert run(capsys, "matches", "list", "--db", str(empty))[:2] == (0, "No matches yet.\n")
    imported = run(capsys, "matches", "import", "two-players.json", "--db", str(empty))
    assert imported[:2] == (0, "1\n")


def test_a_certificate_that_does_not_load_is_refused_before_serving(
    place: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = files(place)
    code, out, err = run(
        capsys,
        "--lang",
        "it",
        "serve",
        "--certfile",
        "two-players.json",
        "--keyfile",
        "two-players.json",
        "--port",
        "8631",
        "--db",
        str(place / "s.sqlite"),
    )
    assert (code, out) == (2, "")
    assert err.startswith(
        "scopa: two-players.json e two-players.json: non sono un certificato e la sua chiave "
        "privata in PEM, senza passphrase ("
    ), err
    assert "Traceback" not in err
    assert files(place) == before


class Full(io.StringIO):
    """Standard output on a full disk, or a pipe whose reader has gone."""

    def __init__(self, number: int, fd: int) -> None:
        super().__init__()
        self.number = number
        self.fd = fd

    def fileno(self) -> int:  # a file of the test's own: Rich and scopa silence it
        return self.fd

    def write(self, text: str) -> int:
        raise OSError(self.number, os.strerror(self.number))


@pytest.mark.parametrize("args", [("score", str(TWO)), ("simulate", "--deals", "3")])
def test_a_full_disk_is_said_and_a_closed_pipe_ends_quietly(
    args: tuple[str, ...],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with open(tmp_path / "out", "w") as out:
        monkeypatch.setattr(sys, "stdout", Full(errno.ENOSPC, out.fileno()))
        code, _, err = run(capsys, "--lang", "it", *args)
        assert (code, err) == (1, "scopa: non riesco a scrivere il risultato: il disco è pieno\n")
        monkeypatch.setattr(sys, "stdout", Full(errno.EPIPE, out.fileno()))
        code, _, err = run(capsys, *args)
        assert (code, err) == (1, "")


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
def test_the_real_entry_point_on_a_full_disk() -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [str(Path(sys.executable).parent / "scopa"), "--lang", "es", "score", str(TWO)],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    assert (done.returncode, done.stderr) == (
        1,
        "scopa: no se puede escribir la salida: el disco está lleno\n",
    )


def test_a_group_that_is_not_there_is_refused_by_its_id(
    place: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(with_db(capsys, place))
    before = files(place)
    assert run(capsys, "--lang", "it", "stats", "--group", "5", "--db", db) == (
        1,
        "",
        "scopa: 5: nessun gruppo con questo id (vedi `scopa groups list`)\n",
    )
    assert run(capsys, "--lang", "es", "stats", "Anna", "--group", "99", "--db", db) == (
        1,
        "",
        "scopa: 99: ningún grupo con ese id (mira `scopa groups list`)\n",
    )
    assert run(capsys, "groups", "devices", "99", "--db", db) == (
        1,
        "",
        "scopa: 99: no group with that id (see `scopa groups list`)\n",
    )
    assert run(capsys, "players", "log", "--group", "3", "--db", db)[0] == 1
    assert files(place) == before
