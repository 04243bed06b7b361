"""``scopa serve --certfile --keyfile`` serves HTTPS (phones run the offline sheet only over
HTTPS or on localhost), through the command's entry point."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.pg import free_port
from tests.servers import started
from tests.web.workers import first_answer

pytestmark = [
    pytest.mark.system,
    pytest.mark.skipif(shutil.which("openssl") is None, reason="needs openssl"),
]


def self_signed(folder: Path) -> tuple[Path, Path]:
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=127.0.0.1", "-keyout", str(key), "-out", str(cert)],
        check=True,
        capture_output=True,
    )  # fmt: skip
    return cert, key


def scopa(*args: str) -> list[str]:
    return [sys.executable, "-m", "scopa", *args]


def test_serve_https(tmp_path: Path) -> None:
    cert, key = self_signed(tmp_path)
    port = free_port()
    db = f"sqlite:///{tmp_path / 'sheet.db'}"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")}
    command = scopa("serve", "--port", str(port), "--db", db, "--certfile", str(cert))
    with started(
        [*command, "--keyfile", str(key)], env=env, stdout=subprocess.PIPE, text=True
    ) as server:
        assert server.stdout is not None
        first = server.stdout.readline()
        assert f"https://127.0.0.1:{port}/" in first
        manifest = f"https://127.0.0.1:{port}/manifest.webmanifest"
        answer = first_answer(lambda: httpx.get(manifest, verify=False, timeout=60), 120)
        assert answer.status_code == 200
        assert answer.json()["display"] == "standalone"
        with pytest.raises(httpx.TransportError):  # plain HTTP is not spoken there
            httpx.get(f"http://127.0.0.1:{port}/", timeout=60)


def test_a_certificate_needs_its_key(tmp_path: Path) -> None:
    cert, _ = self_signed(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")}
    done = subprocess.run(
        scopa("serve", "--certfile", str(cert)), env=env, capture_output=True, text=True
    )
    assert done.returncode == 2
    assert "HTTPS needs both --certfile and --keyfile" in done.stderr
