"""Fixtures shared by the test suite: databases (SQLite file and throwaway PostgreSQL)."""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.pg import pg_bin, postgres_cluster

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


def fresh_postgres_database(admin_url: str) -> str:
    """A new, empty database in the test cluster."""
    import psycopg

    name = f"scopa_test_{os.getpid()}_{next(_counter)}"
    plain = admin_url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(plain, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return admin_url.rsplit("/", 1)[0] + f"/{name}"


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database, once as a SQLite file and once on PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'scopa.db'}"
    admin: str = request.getfixturevalue("postgres_admin_url")
    return fresh_postgres_database(admin)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """An empty SQLite database file."""
    return f"sqlite:///{tmp_path / 'scopa.db'}"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The browser tests run last: Playwright's sync API keeps an event loop running in the
    main thread for the rest of the session, and tests that run their own loop
    (``asyncio.run``: the ASGI calls, Textual's pilot) must come before it."""
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)
