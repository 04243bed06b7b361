"""A throwaway PostgreSQL cluster for the tests: Debian's initdb + pg_ctl on a free port.

As root the cluster runs as the ``postgres`` user (PostgreSQL refuses to run as root).

Its files go to a tmpfs (``/dev/shm``) where it has room: every test makes a database from the
template and drops it (about 300 files each time), and on ext4 creating those files after so
many deletions cost the kernel a quarter of a second a database, ten times what it costs in
memory, and more as the run went on (ext4's inode allocator steps over recently deleted inodes).
The cluster already runs with ``fsync=off``: its files never had to survive the machine.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager


def pg_bin() -> str | None:
    """The folder of Debian's PostgreSQL server programs, newest version first."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), reverse=True)
    if found:
        return os.path.dirname(found[0])
    initdb = shutil.which("initdb")
    return os.path.dirname(initdb) if initdb else None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


SHM = "/dev/shm"
SHM_ROOM = 2 * 1024**3
"""Free space a tmpfs needs for the cluster to go there (a container's default /dev/shm is
64 MB: the cluster then stays in the temporary folder)."""


def cluster_parent() -> str | None:
    """The folder the cluster's files go in: ``/dev/shm`` when it is a writable folder with
    room, else ``None`` (the temporary folder)."""
    try:
        room = os.statvfs(SHM)
    except OSError:
        return None
    if not os.access(SHM, os.W_OK) or room.f_bavail * room.f_frsize < SHM_ROOM:
        return None
    return SHM


def _as_owner(command: list[str]) -> list[str]:
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *command]
    return command


@contextmanager
def postgres_cluster() -> Iterator[str]:
    """Start a cluster on 127.0.0.1, yield its URL, stop it and remove its files."""
    bindir = pg_bin()
    if bindir is None:
        raise RuntimeError("PostgreSQL server programs not found (apt-get install postgresql)")
    parent = cluster_parent()
    root = tempfile.mkdtemp(prefix="scopa-pg-", dir=parent)
    data = os.path.join(root, "data")
    if os.geteuid() == 0:
        shutil.chown(root, "postgres", "postgres")
        os.chmod(root, 0o755)
    port = free_port()
    subprocess.run(
        _as_owner(
            [
                f"{bindir}/initdb",
                "-D",
                data,
                "-U",
                "scopa",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-sync",
            ]
        ),
        check=True,
        capture_output=True,
    )
    options = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off"
    if parent is not None:  # in memory: the write-ahead log kept small (each database ~5 MB)
        options += " -c max_wal_size=128MB -c min_wal_size=32MB"
    subprocess.run(
        _as_owner(
            [f"{bindir}/pg_ctl", "-D", data, "-o", options, "-l", f"{root}/log", "-w", "start"]
        ),
        check=True,
        capture_output=True,
    )
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        subprocess.run(
            _as_owner(
                [f"{bindir}/createdb", "-h", "127.0.0.1", "-p", str(port), "-U", "scopa", "scopa"]
            ),
            check=True,
            capture_output=True,
        )
        yield f"postgresql+psycopg://scopa@127.0.0.1:{port}/scopa"
    finally:
        subprocess.run(
            _as_owner([f"{bindir}/pg_ctl", "-D", data, "-m", "immediate", "-w", "stop"]),
            capture_output=True,
        )
        shutil.rmtree(root, ignore_errors=True)
