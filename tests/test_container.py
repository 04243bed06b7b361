"""The container image (issue 48): the Dockerfile built with podman and run: non-root, the
native kernel in (and built to WebAssembly for the phones), ``/healthz`` ready, the offline
files in and sent compressed. Needs root podman; where Docker Hub is out of reach the base
image is made from Debian's mirror (scripts/container-base.sh, debootstrap; or name one in
$SCOPA_CONTAINER_BASE). Skipped, saying why, where podman cannot run."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import time
import zipfile
from pathlib import Path

import httpx
import pytest

from tests.pg import free_port

pytestmark = [pytest.mark.system, pytest.mark.slow, pytest.mark.timeout(3600)]

ROOT = Path(__file__).resolve().parents[1]
IMAGE = "localhost/scopa-test:latest"
BASE = os.environ.get("SCOPA_CONTAINER_BASE", "localhost/scopa-base:bookworm")


def podman(*args: str, timeout: float = 120, check: bool = True) -> str:
    done = subprocess.run(
        ["podman", *args], capture_output=True, text=True, timeout=timeout, check=False
    )
    if check and done.returncode != 0:
        raise AssertionError(f"podman {' '.join(args)}: {done.stderr[-2000:]}")
    return done.stdout


@pytest.fixture(scope="module")
def image() -> list[str]:
    """The image built (:data:`IMAGE`); the options podman runs containers with here."""
    if shutil.which("podman") is None:
        pytest.skip("podman is not installed (scripts/system-deps.sh installs it)")
    if subprocess.run(["podman", "info"], capture_output=True, check=False).returncode != 0:
        pytest.skip("podman cannot run here (podman info fails)")
    if subprocess.run(["podman", "image", "exists", BASE], check=False).returncode != 0:
        if shutil.which("debootstrap") is None or os.geteuid() != 0:
            pytest.skip(f"no base image {BASE}, and no root debootstrap to make one")
        subprocess.run([str(ROOT / "scripts" / "container-base.sh"), BASE], check=True)
    flags = runnable_flags()
    podman("build", *flags, "--format=docker", "--network=host", f"--build-arg=BASE={BASE}",
           "-t", IMAGE, str(ROOT), timeout=3000)  # fmt: skip
    return flags


def runnable_flags() -> list[str]:
    """The options with which podman starts a container here: none where it can as it is;
    in a VM whose root may not raise its limits (no CAP_SYS_RESOURCE) and whose cgroups crun
    refuses (hybrid mode), runc with the open files and processes limits set below the
    machine's (podman's defaults are above them). Skips, saying why, when neither works."""
    import resource

    # well below the machine's (half of them was still refused here; these are plenty)
    nofile = min(resource.getrlimit(resource.RLIMIT_NOFILE)[1], 8192)
    nproc = min(resource.getrlimit(resource.RLIMIT_NPROC)[1], 4096)
    tried = [[], ["--runtime", "runc", f"--ulimit=nofile={nofile}:{nofile}",
                  f"--ulimit=nproc={nproc}:{nproc}"]]  # fmt: skip
    said = ""
    for flags in tried:
        probe = subprocess.run(
            ["podman", "run", *flags, "--rm", "--network=host", BASE, "true"],
            capture_output=True,
            text=True,
            check=False,
        )
        if probe.returncode == 0:
            return flags
        said = probe.stderr.strip()[-300:]
    pytest.skip(f"podman cannot run a container here: {said}")


def test_the_image_runs_the_sheet_as_a_user_with_the_kernel(image: list[str]) -> None:
    size = int(podman("image", "inspect", "--format", "{{.Size}}", IMAGE).strip())
    print(f"image size: {size / 1e6:.0f} MB")
    assert size < 600e6
    port = free_port()
    name = f"scopa-test-{port}"
    # The image's entry point (scopa) with the sheet on this machine's loopback only: the
    # host's network, a free port (the default command listens on 0.0.0.0:8000, --hosted).
    health_url = f"SCOPA_HEALTH_URL=http://127.0.0.1:{port}/healthz"
    podman("run", *image, "-d", "--rm", "--network=host", "-e", health_url, "--name", name, IMAGE,
           "serve", "--host", "127.0.0.1", "--port", str(port))  # fmt: skip
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 120
        while True:
            try:
                health = httpx.get(base + "/healthz")
                break
            except httpx.TransportError:
                if time.monotonic() > deadline:
                    raise AssertionError(podman("logs", name, check=False)) from None
                time.sleep(0.2)
        assert health.status_code == 200
        assert health.json()["status"] == "ok"
        assert podman("exec", name, "id", "-u").strip() == "10001"
        kernel = podman("exec", name, "python3", "-c", "import scopa.engine.native._kernel")
        assert kernel == ""
        assert podman("healthcheck", "run", name, check=False) == ""  # the image's own check
        made = httpx.post(base + "/api/matches", json={"players": ["Anna", "Bruno"]})
        assert made.status_code == 201
        # the phone's scorer with the kernel built to WebAssembly, for play with no signal
        core = zipfile.ZipFile(io.BytesIO(httpx.get(base + "/offline/core.zip").content))
        assert core.read("scopa/engine/native/kernel.wasm")[:4] == b"\0asm"
        wasm = httpx.get(base + "/static/vendor/pyodide/pyodide.asm.wasm")
        assert wasm.headers["content-encoding"] == "gzip"
        assert wasm.content[:4] == b"\0asm"
        listed = podman("exec", name, "scopa", "matches", "list")
        assert "Anna" in listed
    finally:
        podman("rm", "-f", name, check=False)


def dockerfile_command() -> list[str]:
    """The image's ENTRYPOINT and CMD, as the Dockerfile writes them (JSON arrays)."""
    import json

    found: dict[str, list[str]] = {}
    for line in (ROOT / "Dockerfile").read_text().splitlines():
        word, _, rest = line.partition(" ")
        if word in ("ENTRYPOINT", "CMD"):
            found[word] = json.loads(rest)
    return found["ENTRYPOINT"] + found["CMD"]


def test_the_images_command_serves_hosted_with_a_health_check(tmp_path: Path) -> None:
    """The container's entry point and command run as they are, without the container (where
    podman cannot run containers: see docs/hosted.md), on a free port instead of 8000."""
    from tests.servers import SCOPA, started

    command = dockerfile_command()
    assert command == ["scopa", "serve", "--host", "0.0.0.0", "--port", "8000", "--hosted"]
    port = free_port()
    command = [SCOPA, *command[1:5], str(port), *command[6:]]
    env = {**os.environ, "SCOPA_DATABASE_URL": f"sqlite:///{tmp_path / 'scopa.db'}"}
    with started(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL):
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 120
        while True:
            try:
                health = httpx.get(base + "/healthz")
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
        assert (health.status_code, health.json()["status"]) == (200, "ok")
        assert httpx.get(base + "/api/matches").status_code == 401  # hosted: a token needed
