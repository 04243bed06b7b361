"""HTTPS in front: Debian's Caddy (``tls internal``, its own CA trusted only by this test,
loopback only, no ACME, admin API off) proxies to ``scopa serve --hosted``; a device joins a
group, records a deal through it over HTTPS, and 70 sheets' event streams pass through
(``flush_interval -1``; more than the default cap per address, which is Caddy's)."""

from __future__ import annotations

import json
import os
import shutil
import ssl
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.pg import free_port
from tests.servers import SCOPA, scopa_serve, started, stop
from tests.web.conftest import anna_deal
from tests.web.sse import EventReader

pytestmark = [
    pytest.mark.slow,
    pytest.mark.system,
    pytest.mark.skipif(
        shutil.which("caddy") is None, reason="caddy is not installed (make system-deps)"
    ),
]

SHEETS = 70
"""Open sheets behind the proxy: more than the default cap of 64 per address (Caddy's)."""
CADDYFILE = """\
{{
\tadmin off
\tgrace_period 2s
\tskip_install_trust
\tlocal_certs
\tdefault_bind 127.0.0.1
\thttp_port {http_port}
\thttps_port {https_port}
\tauto_https disable_redirects
\tstorage file_system {storage}
}}

https://127.0.0.1:{https_port} {{
\ttls internal
\tencode zstd gzip
\treverse_proxy 127.0.0.1:{app_port} {{
\t\tflush_interval -1
\t}}
}}
"""


@pytest.fixture
def proxied(database_url: str, tmp_path: Path) -> Iterator[tuple[str, ssl.SSLContext, str]]:
    app_port, https_port = free_port(), free_port()
    made = subprocess.run(
        [SCOPA, "groups", "create", "Rossi", "--db", database_url],
        capture_output=True,
        text=True,
        check=True,
    )
    code = json.loads(made.stdout)["code"]
    with scopa_serve(
        "--hosted",
        "--port", str(app_port), "--db", database_url, "--max-per-client", str(SHEETS + 16),
        "--proxy", "127.0.0.1",
    ) as (serve, _):  # fmt: skip
        storage = tmp_path / "caddy"
        config = tmp_path / "Caddyfile"
        config.write_text(
            CADDYFILE.format(
                http_port=free_port(), https_port=https_port, storage=storage, app_port=app_port
            )
        )
        env = {
            **os.environ,
            "HOME": str(tmp_path),
            "XDG_DATA_HOME": str(tmp_path / "data"),
            "XDG_CONFIG_HOME": str(tmp_path / "config"),
        }
        with started(
            ["caddy", "run", "--config", str(config), "--adapter", "caddyfile"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        ) as caddy:
            root = storage / "pki" / "authorities" / "local" / "root.crt"
            deadline = time.monotonic() + 120
            base = f"https://127.0.0.1:{https_port}"
            while True:
                assert caddy.poll() is None, stop(caddy)
                assert time.monotonic() < deadline, "caddy did not start"
                if root.exists():
                    trust = ssl.create_default_context(cafile=str(root))
                    try:
                        if httpx.get(f"{base}/api/matches", verify=trust).status_code == 401:
                            break
                    except httpx.HTTPError:
                        pass
                time.sleep(0.2)
            yield base, trust, code
            log = stop(caddy)
        out = stop(serve)
    assert "Traceback" not in out
    print(log)


def test_a_deal_recorded_through_caddy_over_https(
    proxied: tuple[str, ssl.SSLContext, str],
) -> None:
    base, trust, code = proxied
    with httpx.Client(base_url=base, verify=trust, timeout=10) as client:
        joined = client.post("/api/join", json={"code": code})
        assert joined.status_code == 201
        auth = {"Authorization": f"Bearer {joined.json()['token']}"}
        client.headers.update(auth)
        created = client.post("/api/matches", json={"players": ["Anna", "Bruno"]})
        assert created.status_code == 201
        assert "caddy" in created.headers["server"].lower()  # through the proxy
        match_id = created.json()["id"]
        url = f"{base}/api/matches/{match_id}/events"
        readers = [EventReader(url, auth, tls=trust) for _ in range(SHEETS)]
        try:
            for reader in readers:
                assert reader.status == 200
                assert reader.content_type.startswith("text/event-stream")
            recorded = client.post(f"/api/matches/{match_id}/deals", json=anna_deal())
            assert recorded.status_code == 201
            for reader in readers:
                event = reader.next(timeout=60)
                assert event.data == {"id": match_id, "version": 2}
        finally:
            for reader in readers:
                reader.close()
        stored = client.get(f"/api/matches/{match_id}").json()
        assert len(stored["match"]["deals"]) == 1
        assert stored["sheet"]["totals"] == {"Anna": 5, "Bruno": 2}
        page = client.get(f"/matches/{match_id}")
        assert page.status_code == 200
        assert 'data-version="2"' in page.text
        # the recipe's `encode zstd gzip` (README, docs/hosted.md) over what scopa compresses:
        # a page comes compressed, Pyodide with scopa's own gzip copy, the streams above live
        assert page.headers["content-encoding"] in ("zstd", "gzip")
        wasm = client.get("/static/vendor/pyodide/pyodide.asm.wasm")
        assert wasm.headers["content-encoding"] == "gzip"
        assert wasm.content[:4] == b"\0asm"
