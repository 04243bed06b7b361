"""Fixtures shared by the test suite: databases (SQLite file and throwaway PostgreSQL)."""

from __future__ import annotations

import functools
import itertools
import os
import re
import runpy
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests import backstop
from tests.examples import examples
from tests.pg import pg_bin, postgres_cluster

if TYPE_CHECKING:
    from scopa.store import MatchStore

from hypothesis import HealthCheck, settings

# Hypothesis checks what a property finds, never how fast the machine is: on a busy CI
# machine its per-example deadline and "input generation is slow" check failed good tests.
# Every property runs half its examples in an everyday run (tests/examples.py), and all of
# them with SCOPA_HYPOTHESIS=thorough.
settings.register_profile(
    "scopa",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    max_examples=examples(100),
)
settings.load_profile("scopa")
if "MUTANT_UNDER_TEST" in os.environ:  # under mutmut (pyproject): fewer examples per property
    settings.register_profile(
        "mutmut", max_examples=25, deadline=None, suppress_health_check=list(HealthCheck)
    )
    settings.load_profile("mutmut")

ZERO_CLOCK = Path(__file__).parent / "zero_clock"
collect_ignore = ["zero_clock"]  # its module patches time.monotonic when imported


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--monotonic-from-zero",
        action="store_true",
        help="run with time.monotonic() starting at 0 in pytest and in every Python process "
        "it starts (as on a machine booted a moment ago)",
    )


def pytest_configure(config: pytest.Config) -> None:
    group_paths(config)
    if not config.pluginmanager.is_registered(backstop):
        config.pluginmanager.register(backstop, "scopa-backstop")
    if config.getoption("--monotonic-from-zero"):
        os.environ["PYTHONPATH"] = os.pathsep.join(
            p for p in (str(ZERO_CLOCK), os.environ.get("PYTHONPATH", "")) if p
        )
        runpy.run_path(str(ZERO_CLOCK / "sitecustomize.py"))  # this process too
    compile_catalogs(config)


def group_paths(config: pytest.Config) -> None:
    """The paths named on the command line put in order of their folders, so that each folder
    is collected once. pytest makes a new node for a folder met again after another one
    (``tests/web/a.py tests/b.py tests/web/c.py``), and the second node does not see that
    folder's ``conftest.py`` fixtures: ``c.py``'s tests failed with "fixture 'client' not
    found". The run's order is the one :func:`pytest_collection_modifyitems` gives anyway."""

    def folders(arg: str) -> tuple[str, ...]:
        return tuple(Path(arg.split("::")[0]).parts)

    config.args[:] = sorted(config.args, key=folders)


def compile_catalogs(config: pytest.Config) -> None:
    """The gettext catalogs compiled (as ``make setup`` does) when a ``.po`` is newer than
    its ``.mo``: once, before any worker starts."""
    if hasattr(config, "workerinput"):
        return
    root = Path(__file__).parents[1]
    for po in (root / "src" / "scopa" / "locale").glob("*/LC_MESSAGES/*.po"):
        mo = po.with_suffix(".mo")
        if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            runpy.run_path(str(root / "scripts" / "catalogs.py"))["compile_all"]()
            break


_counter = itertools.count(1)
BACKENDS = ["sqlite", "postgresql"]


@pytest.fixture(scope="session")
def postgres_admin_url() -> Iterator[str]:
    """A PostgreSQL cluster for the whole run (skipped only where SCOPA_SKIP_POSTGRES=1)."""
    if os.environ.get("SCOPA_SKIP_POSTGRES") == "1":
        pytest.skip("SCOPA_SKIP_POSTGRES=1")
    if pg_bin() is None and os.environ.get("CI"):
        pytest.fail("PostgreSQL is not installed (make system-deps installs it)")
    with postgres_cluster() as url:
        yield url


def fresh_postgres_database(admin_url: str, template: str | None = None) -> str:
    """A new database in the test cluster: empty, or a copy of ``template``."""
    import psycopg

    name = f"scopa_test_{os.getpid()}_{next(_counter)}"
    plain = admin_url.replace("postgresql+psycopg://", "postgresql://")
    copy = f' TEMPLATE "{template}"' if template else ""
    with psycopg.connect(plain, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"{copy}')
    return admin_url.rsplit("/", 1)[0] + f"/{name}"


def drop_postgres_database(admin_url: str, url: str) -> None:
    """Drop a test's database once it is done (its connections too): a run creates hundreds,
    and a cluster that kept them all took half a minute to remove at the end."""
    import psycopg

    name = url.rsplit("/", 1)[1]
    plain = admin_url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(plain, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file with the store's schema, made once a process (each test copies it:
    running the migrations for every test cost a tenth of a second each)."""
    from scopa.store import MatchStore

    path = tmp_path_factory.mktemp("migrated") / "scopa.db"
    MatchStore.open(f"sqlite:///{path}").close()
    return path


@pytest.fixture(scope="session")
def migrated_postgres(postgres_admin_url: str) -> str:
    """The name of a PostgreSQL database with the store's schema, made once a process, that
    each test's database is created from (``CREATE DATABASE … TEMPLATE``)."""
    from scopa.store import MatchStore

    url = fresh_postgres_database(postgres_admin_url)
    MatchStore.open(url).close()
    return url.rsplit("/", 1)[1]


def new_database(request: pytest.FixtureRequest, tmp_path: Path, migrated: bool) -> Iterator[str]:
    """A new database for one test (``request.param``: the backend), with the store's schema
    or empty; a PostgreSQL one is dropped after the test."""
    if request.param == "sqlite":
        path = tmp_path / "scopa.db"
        if migrated:
            shutil.copyfile(request.getfixturevalue("migrated_sqlite"), path)
        yield f"sqlite:///{path}"
        return
    admin: str = request.getfixturevalue("postgres_admin_url")
    template = request.getfixturevalue("migrated_postgres") if migrated else None
    url = fresh_postgres_database(admin, template)
    yield url
    drop_postgres_database(admin, url)


@pytest.fixture(autouse=True)
def english_after_each_test() -> Iterator[None]:
    """The language a test chose stays with that test: the command line's ``--lang``, run in
    this process, sets it for the rest of the context (as it should in a process of its
    own), and the next test on the same worker would have read Italian."""
    from scopa import i18n

    with i18n.using(i18n.DEFAULT):
        yield


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A new database with the store's schema and nothing in it, once as a SQLite file and
    once on PostgreSQL."""
    yield from new_database(request, tmp_path, migrated=True)


@pytest.fixture(params=BACKENDS)
def empty_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database (no schema: for the migrations from an older one), once as a
    SQLite file and once on PostgreSQL."""
    yield from new_database(request, tmp_path, migrated=False)


@pytest.fixture
def store(database_url: str) -> Iterator[MatchStore]:
    """The SQL store on :func:`database_url` (a SQLite file, then PostgreSQL)."""
    from scopa.store import MatchStore

    opened = MatchStore.open(database_url)
    yield opened
    opened.close()


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The database of the commands run by :func:`run` (``$SCOPA_DATABASE_URL``): a new
    SQLite file; tables printed 200 columns wide."""
    path = tmp_path / "scopa.db"
    monkeypatch.setenv("SCOPA_DATABASE_URL", str(path))
    monkeypatch.setenv("COLUMNS", "200")
    return path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``scopa ARGS...`` through the entry point: exit status, standard output and error."""
    from scopa.cli import main

    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """An empty SQLite database file."""
    return f"sqlite:///{tmp_path / 'scopa.db'}"


def pytest_runtest_setup(item: pytest.Item) -> None:
    """In a worker of ``--dist loadgroup``, a test of an xdist group fails unless its id
    carries the group's name (``…@package``), which the scheduler needs to send the group to
    one process. pytest-xdist 3.8 names it by setting a field that pytest 9.2 no longer reads
    (pytest-xdist#1386): the group was handed out test by test, and the package tests built
    the wheel in every process (a minute and a half of the suite's time)."""
    if not (hasattr(item.config, "workerinput") and item.config.getvalue("loadgroup")):
        return
    for mark in item.iter_markers("xdist_group"):
        name = mark.args[0] if mark.args else mark.kwargs.get("name", "default")
        if not item.nodeid.endswith(f"@{name}"):
            pytest.fail(
                f"its xdist group {name!r} is not in its id, so --dist loadgroup does not keep "
                "the group in one process (pytest-xdist#1386; pyproject.toml pins pytest "
                "below 9.2)",
                pytrace=False,
            )


@functools.cache
def marked_system(path: Path) -> bool:
    """Whether the file says ``mark.system`` (as ``scripts/run-tests.sh`` finds the files of
    the system tier)."""
    return re.search(r"mark\.system\b", path.read_text()) is not None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The browser tests run last: Playwright's sync API keeps an event loop running in the
    main thread for the rest of the session, and tests that run their own loop
    (``asyncio.run``: the ASGI calls, Textual's pilot) must come before it.

    Within each part the tests marked ``slow`` come first, so that the processes end
    together: ``scripts/run-tests.sh`` hands the tests out in this order (``--dist loadgroup
    --no-loadscope-reorder``), and the last ones handed out are short."""
    for item in items:  # every test under tests/browser is one, marked or not
        if item.nodeid.startswith("tests/browser/") and not item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.browser)
        if item.get_closest_marker("system") and not marked_system(item.path):
            raise pytest.UsageError(
                f"{item.nodeid} is a system test but its file does not say mark.system, which "
                "scripts/run-tests.sh looks for to give the file to the system tier"
            )
    items.sort(
        key=lambda item: (
            item.get_closest_marker("browser") is not None,
            item.get_closest_marker("slow") is None,
        )
    )
