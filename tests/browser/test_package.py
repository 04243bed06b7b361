"""The package as someone installs it: the sdist and the wheel built (``python -m build``) from
a clean clone of this checkout, the wheel installed into a fresh virtual environment, its
``scopa serve`` on a free loopback port, and in Chromium the service worker installs and the
sheet records a deal offline. The build and the install are done once per run: the tests
are one xdist group (``scripts/run-tests.sh`` runs with ``--dist loadgroup``), so one process
runs them all. uv makes the build's isolated environments, the fresh environment and the
install (a minute less than venv and pip: it was the suite's longest wait)."""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import BrowserContext, Page, expect

import scopa
from tests.browser.conftest import OFFLINE
from tests.browser.netcut import go_offline
from tests.browser.test_offline import SLOW, new_match, open_and_keep, record_offline, rows
from tests.pg import free_port
from tests.servers import started
from tests.web.workers import first_answer

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.system,
    pytest.mark.xdist_group("package"),
    OFFLINE,
]

ROOT = Path(__file__).resolve().parents[2]
VENDORED = [
    "htmx.min.js",
    "pyodide/pyodide.asm.wasm",
    "pyodide/pyodide.mjs",
    "swagger-ui/swagger-ui.css",
]


@dataclass(frozen=True)
class Built:
    sdist: Path
    wheel: Path
    scopa: Path
    """The ``scopa`` command of the fresh environment the wheel went into."""


def run(*command: str | Path, cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        [str(part) for part in command], cwd=cwd, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, f"{command}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    from uv import find_uv_bin  # a dev dependency: a checkout set up before it lacks only this

    work = tmp_path_factory.mktemp("package")
    clone = work / "clone"
    # --shared: the clone borrows this repository's objects instead of copying them (its
    # working tree is checked out afresh all the same).
    run("git", "clone", "--quiet", "--shared", ROOT, clone, cwd=work)
    assert not (clone / "src/scopa/web/static/vendor").exists()  # ignored by git: not in a clone
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["SCOPA_PURE_WHEEL"] = "1"  # as `make dist`: the wheel for every platform
    # The sdist, then the wheel built from it, each in its own isolated environment.
    build = (sys.executable, "-m", "build", "--installer", "uv", "--outdir", work / "dist")
    run(*build, clone, cwd=work, env=env)
    sdist = next((work / "dist").glob("scopa-*.tar.gz"))
    wheel = next((work / "dist").glob("scopa-*.whl"))
    venv = work / "venv"
    run(find_uv_bin(), "venv", "--quiet", "--python", sys.executable, venv, cwd=work, env=env)
    install = ("pip", "install", "--quiet", "--python", venv / "bin/python", wheel)
    run(find_uv_bin(), *install, cwd=work, env=env)
    return Built(sdist, wheel, venv / "bin/scopa")


def test_the_wheel_is_pure_python_for_every_platform(built: Built) -> None:
    """issue 48: the wheel is ``py3-none-any``, without the native kernel (the pure engine
    runs; the sdist builds the kernel where a compiler is present)."""
    assert built.wheel.name == f"scopa-{scopa.__version__}-py3-none-any.whl"
    with zipfile.ZipFile(built.wheel) as wheel:
        names = wheel.namelist()
        tags = wheel.read(f"scopa-{scopa.__version__}.dist-info/WHEEL").decode()
    assert "Root-Is-Purelib: true" in tags
    assert [line for line in tags.splitlines() if line.startswith("Tag:")] == ["Tag: py3-none-any"]
    assert not [name for name in names if name.endswith((".so", ".pyd"))]
    with tarfile.open(built.sdist) as sdist:
        kept = {Path(name).name for name in sdist.getnames()}
    assert {"_kernel.c", "plays.h"} <= kept  # the sdist still carries the kernel's sources


def install_sdist(built: Built, work: Path, **extra: str) -> tuple[Path, dict[str, str]]:
    """The sdist installed into a fresh environment (``extra``: more environment variables):
    its ``bin`` directory and the environment."""
    from uv import find_uv_bin

    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(extra)
    venv = work / "venv"
    run(find_uv_bin(), "venv", "--quiet", "--python", sys.executable, venv, cwd=work, env=env)
    install = ("pip", "install", "--quiet", "--no-cache", "--python", venv / "bin/python")
    run(find_uv_bin(), *install, built.sdist, cwd=work, env=env)
    return venv / "bin", env


KERNEL_PROBE = (
    "import scopa.engine.native as n; print(n.AVAILABLE, n.REASON.startswith('the native'))"
)
"""Prints whether the kernel is built, and whether a reason is given for its absence."""


def test_the_sdist_builds_the_kernel_where_a_compiler_is_present(
    built: Built, tmp_path: Path
) -> None:
    bin_dir, env = install_sdist(built, tmp_path)
    assert run(bin_dir / "python", "-c", KERNEL_PROBE, cwd=tmp_path, env=env) == "True False\n"


def test_the_sdist_installs_without_a_compiler(built: Built, tmp_path: Path) -> None:
    """Installing from the sdist where the C compiler fails (``CC=false``): the install goes
    on, the kernel is missing and says why, and the pure engine plays."""
    bin_dir, env = install_sdist(built, tmp_path, CC="false")
    assert run(bin_dir / "python", "-c", KERNEL_PROBE, cwd=tmp_path, env=env) == "False True\n"
    played = run(bin_dir / "scopa", "simulate", "--deals", "5", cwd=tmp_path, env=env)
    assert "deals a second" in played


INSTALLED_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
"""The installed commands' environment: they keep the bytecode they compile (uv installs
none), so the server does not compile its modules again after ``scopa --version``."""


def test_the_sdist_and_the_wheel_carry_the_offline_sheet_and_the_license(built: Built) -> None:
    version = scopa.__version__
    assert built.sdist.name == f"scopa-{version}.tar.gz"
    with tarfile.open(built.sdist) as sdist:
        names = set(sdist.getnames())
    top = f"scopa-{version}"
    assert f"{top}/LICENSE" in names
    assert {f"{top}/src/scopa/web/static/vendor/{name}" for name in VENDORED} <= names
    with zipfile.ZipFile(built.wheel) as wheel:
        names = set(wheel.namelist())
        license_text = wheel.read(f"scopa-{version}.dist-info/licenses/LICENSE").decode()
        metadata = wheel.read(f"scopa-{version}.dist-info/METADATA").decode()
    assert license_text.startswith("MIT License")
    assert "License-Expression: MIT" in metadata
    assert {f"scopa/web/static/vendor/{name}" for name in VENDORED} <= names
    # issue 48: the gzip copies the server sends, the example matches, the classifiers
    assert "scopa/web/static/vendor/pyodide/pyodide.asm.wasm.gz" in names
    examples = {p.name for p in (ROOT / "examples").glob("*.json")}
    assert {f"scopa/examples/{name}" for name in examples} <= names
    assert "Classifier: Topic :: Games/Entertainment" in metadata


def test_the_installed_command_says_its_version(built: Built, tmp_path: Path) -> None:
    version = run(built.scopa, "--version", cwd=tmp_path, env=INSTALLED_ENV)
    assert version == f"scopa {scopa.__version__}\n"
    where = run(
        built.scopa.parent / "python",
        "-c",
        "import scopa; print(scopa.__file__)",
        cwd=tmp_path,
        env=INSTALLED_ENV,
    )
    assert where.startswith(str(built.scopa.parents[1]))  # the wheel's copy, not the checkout


@pytest.fixture(scope="session")
def installed_server(built: Built, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The installed wheel's ``scopa serve`` on a free loopback port."""
    work = tmp_path_factory.mktemp("serve")
    port = free_port()
    with started(
        [str(built.scopa), "serve", "--port", str(port), "--db", str(work / "sheet.db")],
        cwd=work,
        env=INSTALLED_ENV,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    ) as process:
        base = f"http://127.0.0.1:{port}"
        first_answer(lambda: httpx.get(f"{base}/api/matches"), 120, lambda: process.poll() is None)
        yield base


def test_the_installed_server_serves_the_vendored_files(installed_server: str) -> None:
    for name in VENDORED:
        answer = httpx.get(f"{installed_server}/static/vendor/{name}")
        assert answer.status_code == 200, name
        assert len(answer.content) > 1000, name


def test_the_installed_sheet_works_offline(
    installed_server: str, context: BrowserContext, page: Page
) -> None:
    match_id = new_match(installed_server)
    open_and_keep(page, installed_server, match_id)  # the service worker installed, all kept
    go_offline(context)
    record_offline(page, installed_server, match_id, winner=0)
    expect(rows(page)).to_have_count(1, timeout=SLOW)
    expect(page.locator("#offline-bar")).to_contain_text("1 change waits to be sent")
