"""Issue 9, finding 2: `scopa restore --force` is refused while a server has the database
open, and the cache never serves a state that a rewound database no longer holds."""

from __future__ import annotations

import sqlite3
import subprocess
from pathlib import Path

import httpx
import pytest

from scopa.changes import AddDeal
from scopa.formats import parse_deal, parse_match
from scopa.store import MatchStore
from scopa.store.models import utcnow
from tests.pg import free_port
from tests.servers import SCOPA, serve_command, started
from tests.waiting import until
from tests.web.conftest import anna_deal, bruno_deal
from tests.web.workers import first_answer


def scopa(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([SCOPA, *args], capture_output=True, text=True, timeout=240)


@pytest.mark.slow
@pytest.mark.system
def test_restore_refused_while_a_server_has_the_database(tmp_path: Path) -> None:
    db, backup = tmp_path / "scopa.db", tmp_path / "backup.db"
    port = free_port()
    with (
        started(
            serve_command("--port", str(port), "--db", str(db)),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
        ),
        httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as client,
    ):
        players = {"players": ["Anna", "Bruno"]}
        created = first_answer(lambda: client.post("/api/matches", json=players))
        match_id = created.json()["id"]
        assert scopa("backup", str(backup), "--db", str(db)).returncode == 0
        client.post(f"/api/matches/{match_id}/deals", json=anna_deal())
        refused = scopa("restore", "--force", str(backup), "--db", str(db))
        assert refused.returncode != 0
        assert "restore refused" in refused.stderr
        assert "scopa serve" in refused.stderr
        sheet = client.get(f"/api/matches/{match_id}").json()
        assert sheet["version"] == 2
        assert len(sheet["match"]["deals"]) == 1
    restored = scopa("restore", "--force", str(backup), "--db", str(db))
    assert restored.returncode == 0, restored.stderr
    store = MatchStore.open(f"sqlite:///{db}")
    try:
        assert store.get(match_id).version == 1
    finally:
        store.close()


def test_a_rewound_version_never_hits_the_cache(tmp_path: Path) -> None:
    db, backup = tmp_path / "scopa.db", tmp_path / "backup.db"
    url = f"sqlite:///{db}"
    first = MatchStore.open(url)
    try:
        match = parse_match({"players": ["Anna", "Bruno"]})
        stored = first.create(match=match)
        with sqlite3.connect(db) as src, sqlite3.connect(backup) as dest:
            src.backup(dest)
        first.change(AddDeal(match_id=stored.id, deal=parse_deal(anna_deal(), match), version=1))
        assert len(first.get(stored.id).match.deals) == 1  # version 2 cached: Anna's deal
        written = first.get(stored.id).updated_at
        until(lambda: utcnow() > written, "the clock to pass the last write")
        # A writer that ignores the lock (an older scopa, a file copied in by hand)
        # rewinds the file; another process then makes a different version 2.
        with sqlite3.connect(backup) as src, sqlite3.connect(db) as dest:
            src.backup(dest)
        second = MatchStore.open(url)
        try:
            second.change(
                AddDeal(match_id=stored.id, deal=parse_deal(bruno_deal(), match), version=1)
            )
        finally:
            second.close()
        again = first.get(stored.id)
        assert again.version == 2
        assert again.match.deals[0].last_capture == "Anna"  # Bruno's deal, not the cached one
    finally:
        first.close()


def test_restore_through_a_symbolic_link_is_refused_while_open(tmp_path: Path) -> None:
    """The lock is the database file's, not the name's: a restore naming the served file
    through a symbolic link is refused like one naming it directly (issue 25, finding 7)."""
    db, backup, link = tmp_path / "scopa.db", tmp_path / "backup.db", tmp_path / "link.db"
    store = MatchStore.open(f"sqlite:///{db}")
    try:
        store.create(match=parse_match({"players": ["Anna", "Bruno"]}))
        assert scopa("backup", str(backup), "--db", str(db)).returncode == 0
        link.symlink_to(db)
        refused = scopa("restore", "--force", str(backup), "--db", str(link))
        assert refused.returncode != 0
        assert "restore refused" in refused.stderr
        assert len(store.all()) == 1
    finally:
        store.close()


def test_restore_refuses_a_database_file_with_other_hard_links(tmp_path: Path) -> None:
    """Issue 49, N3: a hard link names the served file under another name, whose lock file
    is another one: the restore cannot tell the file is open, so it refuses any database file
    with more than one name (the symbolic link case shares the lock)."""
    db, backup, link = tmp_path / "scopa.db", tmp_path / "backup.db", tmp_path / "other.db"
    store = MatchStore.open(f"sqlite:///{db}")
    try:
        store.create(match=parse_match({"players": ["Anna", "Bruno"]}))
    finally:
        store.close()
    assert scopa("backup", str(backup), "--db", str(db)).returncode == 0
    store = MatchStore.open(f"sqlite:///{db}")
    try:
        store.create(match=parse_match({"players": ["Carla", "Dario"]}))
    finally:
        store.close()
    link.hardlink_to(db)
    before = db.read_bytes()
    for target in (link, db):
        refused = scopa("restore", "--force", str(backup), "--db", str(target))
        assert refused.returncode != 0, refused.stdout
        assert "hard link" in refused.stderr, refused.stderr
        assert str(target) in refused.stderr
        assert db.read_bytes() == before
    link.unlink()
    assert scopa("restore", "--force", str(backup), "--db", str(db)).returncode == 0
