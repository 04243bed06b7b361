"""Database set-up: the engine for a URL (SQLite tuned for safe concurrent writes, or
PostgreSQL), the Alembic migrations, and one transaction per store operation.

Inside a keyed change (:mod:`scopa.store.keys`, a request with an ``Idempotency-Key``) every
store operation of that request joins the one transaction the key's answer is kept in (the
first in it, the next ones each as a savepoint: an operation that fails undoes only its own
writes, see :class:`Joined`): the change and the key's answer then commit together, or not
at all."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson
from sqlalchemy import Connection, Engine, create_engine, event, inspect, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import StaticPool

from scopa.errors import ScopaError
from scopa.i18n import N_
from scopa.store.paths import default_database_path
from scopa.system_errors import reason

if TYPE_CHECKING:
    from alembic.config import Config
    from alembic.script import ScriptDirectory


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # Autocommit at the driver level; SQLAlchemy's begin emits BEGIN IMMEDIATE below, so
    # writers queue for the lock instead of failing half-way through.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")  # a committed change survives a crash
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


def _sqlite_begin(conn: Any) -> None:
    conn.exec_driver_sql("BEGIN IMMEDIATE")


def dump_json(value: Any) -> str:
    """JSON columns written by orjson (what the stdlib writes, faster); anything orjson does
    not take (a non-string key) by the standard library."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return json.dumps(value)


POOL_SIZE = 10
"""PostgreSQL connections a process keeps open (SQLAlchemy's default is 5; 10 more may be
opened for a burst). A connection opened beyond the kept ones is closed again when it is
handed back, and opening one (a new backend process) costs PostgreSQL and the request that
waits for it milliseconds: at 500 tables, 5 were too few and connections came and went
every second."""


class DatabaseUnusable(ScopaError, RuntimeError):
    """The database a store was asked to open cannot be used (not a database scopa can use,
    a folder, a file that is no database, a server that does not answer): refused before
    anything was created."""

    failure = True


SQLITE_MAGIC = b"SQLite format 3\x00"
"""How every SQLite database file begins (an empty file is a new database too)."""


def is_sqlite_file(path: Path, *, empty: bool = False) -> bool:
    """Whether the file ``path`` begins as every SQLite database does; an empty one counts
    with ``empty`` (SQLite makes it a database). Raises :class:`OSError` when it cannot be
    read."""
    with path.open("rb") as handle:
        head = handle.read(len(SQLITE_MAGIC))
    return head == SQLITE_MAGIC or (empty and not head)


def shown_url(url: str) -> str:
    """A database URL as a message shows it: a SQLite file by its path, any other with its
    password hidden, a name that is not UTF-8 with the bytes it cannot say replaced."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        shown = url
    else:
        if parsed.get_backend_name() == "sqlite" and parsed.database:
            shown = parsed.database
        else:
            shown = parsed.render_as_string(hide_password=True)
    return shown.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def check_database(url: str, *, create: bool = True) -> None:
    """Refuse a database that cannot be opened, before anything is created: a URL of a
    database other than SQLite and PostgreSQL (or no URL at all), a SQLite file whose name is
    not UTF-8, that is a folder or not a SQLite database, or that is in a folder that does
    not exist (the default database's folder, in the user's data folder, is made). With
    ``create=False`` (a command that only reads) a SQLite file that does not exist yet is
    refused too, unless it is the default database. Raises :class:`DatabaseUnusable`."""
    database = shown_url(url)
    try:
        parsed = make_url(url)
        backend = parsed.get_backend_name()
    except ArgumentError:
        backend = ""
    if backend not in ("sqlite", "postgresql"):
        raise DatabaseUnusable(
            N_(
                "{database}: not a database scopa can use (a SQLite file, or a sqlite:/// or "
                "postgresql:// URL)"
            ),
            code="database.not_usable",
            database=database,
        )
    if backend != "sqlite" or not parsed.database or parsed.database == ":memory:":
        return
    if parsed.database.startswith("file:"):
        return
    try:
        parsed.database.encode("utf-8")
    except UnicodeEncodeError:
        raise DatabaseUnusable(
            N_("{database}: the file's name is not UTF-8 text; choose another name"),
            code="database.name_not_utf8",
            database=database,
        ) from None
    path = Path(parsed.database).expanduser()
    if path.is_dir():
        raise DatabaseUnusable(
            N_("{database}: is a folder, not a database"),
            code="database.is_folder",
            database=database,
        )
    if path.is_file():
        try:
            foreign = not is_sqlite_file(path, empty=True)
        except OSError as error:
            raise DatabaseUnusable(
                N_("{database}: cannot be read ({strerror})"),
                code="database.cannot_read",
                database=database,
                strerror=reason(error),
            ) from None
        if foreign:
            raise DatabaseUnusable(
                N_("{database}: not a SQLite database"),
                code="database.not_sqlite",
                database=database,
            )
        return
    if path.exists():  # a device, a pipe: not a file SQLite keeps a database in
        raise DatabaseUnusable(
            N_("{database}: not a SQLite database"),
            code="database.not_sqlite",
            database=database,
        )
    default = Path(default_database_path())
    if path == default:  # made where the user's data goes, with its folder (README)
        path.parent.mkdir(parents=True, exist_ok=True)
        return
    if not path.parent.is_dir():
        raise DatabaseUnusable(
            N_("{database}: no such folder ({folder})"),
            code="database.no_such_folder",
            database=database,
            folder=shown_url(f"sqlite:///{path.parent}"),
        )
    if not create:
        raise DatabaseUnusable(
            N_("{source}: no database there yet"),
            code="usage.no_database_there_yet",
            source=database,
        )


def unreachable(url: str, error: BaseException) -> DatabaseUnusable:
    """A database that could not be opened or brought up to date, as the user's error (the
    driver's own words, their first line, as the reason)."""
    cause = getattr(error, "orig", None) or error
    reason = (str(cause).strip().splitlines() or [type(cause).__name__])[0]
    return DatabaseUnusable(
        N_("{database}: cannot open the database ({reason})"),
        code="database.cannot_open",
        database=shown_url(url),
        reason=reason,
    )


def make_engine(url: str) -> Engine:
    """An engine for a database URL; SQLite gets WAL, synchronous commits and a write lock."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        memory = not parsed.database or parsed.database == ":memory:"
        engine = create_engine(
            url,
            connect_args={"check_same_thread": False, "timeout": 10},
            json_serializer=dump_json,
            json_deserializer=orjson.loads,
            # in memory: one connection for every thread (each new one would be an empty
            # database: the server's threads would not see the migrated tables)
            **({"poolclass": StaticPool} if memory else {}),
        )
        event.listen(engine, "connect", _sqlite_pragmas)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    if parsed.get_backend_name() == "postgresql" and parsed.get_driver_name() in ("", "psycopg2"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return create_engine(
        parsed,
        pool_pre_ping=True,
        pool_size=POOL_SIZE,
        json_serializer=dump_json,
        json_deserializer=orjson.loads,
    )


def alembic_config() -> Config:
    """Alembic's configuration for the store's migrations (``src/scopa/store/migrations``).

    A revision's file is named as its revision id (``0004_groups.py``): a new one is made by
    ``alembic.command.revision(alembic_config(), "what it does", rev_id="0007_name")``."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    config.set_main_option("file_template", "%%(rev)s")
    return config


@functools.cache
def _scripts() -> ScriptDirectory:
    """The migrations' scripts, read once a process (every store opened after the first
    finds them in memory: a test suite, or a server with many groups, opens hundreds)."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config())


@functools.cache
def head_revision() -> str:
    """The newest migration's revision, from the files' names alone: each file is named as its
    revision, the newest with the highest number (``tests/store/test_migrations.py`` holds
    that to Alembic's head). A schema already there is known without Alembic: importing it and
    reading the migrations was a quarter of a second of every command's and server's start."""
    versions = Path(__file__).parent / "migrations" / "versions"
    return max(path.stem for path in versions.glob("[0-9]*.py"))


def schema_revision(connection: Connection) -> str | None:
    """The revision the database's schema is at (None: no schema, or not one revision)."""
    if not inspect(connection).has_table("alembic_version"):
        return None
    rows = connection.execute(text("SELECT version_num FROM alembic_version")).all()
    return str(rows[0][0]) if len(rows) == 1 else None


def migrate(engine: Engine) -> None:
    """Bring the schema up to date (Alembic ``upgrade head``); a schema already at the head
    costs two queries."""
    with engine.connect() as connection:
        if schema_revision(connection) == head_revision():
            return

    from alembic.runtime.environment import EnvironmentContext

    scripts = _scripts()
    with engine.begin() as connection:

        def upgrade(revision: Any, context: Any) -> Any:  # as alembic's command.upgrade
            return scripts._upgrade_revs("head", revision)

        config = alembic_config()
        config.attributes["connection"] = connection
        with EnvironmentContext(config, scripts, fn=upgrade, destination_rev="head"):
            scripts.run_env()  # env.py: the one place the migrations are configured


def driver_rows(session: Session, sql: str, values: Mapping[str, Any]) -> list[tuple[Any, ...]]:
    """The rows of one statement (one that returns rows) run in the session's transaction
    by the driver itself, as plain tuples: PostgreSQL's hot path (a deal recorded), where
    SQLAlchemy's own handling of a statement costs more than the driver's and the round trip
    together (about 55 µs a statement against 45 µs on the development machine). ``sql`` is
    in the driver's style (``%(name)s``). An error is raised as from any other statement
    (:class:`~sqlalchemy.exc.DBAPIError`, the driver's error inside)."""
    connection = session.connection()
    driver = connection.dialect.loaded_dbapi
    raw: Any = connection.connection.driver_connection
    try:
        rows: list[tuple[Any, ...]] = raw.execute(sql, values).fetchall()
    except driver.Error as error:
        wrapped = DBAPIError.instance(sql, values, error, driver.Error, dialect=connection.dialect)
        raise wrapped from error
    return rows


class Joined:
    """The one transaction a request's store operations join (a keyed change): its
    session, and what to do once it has committed (nothing if it is rolled back).

    The transaction begins with the first operation, which runs in it with no savepoint
    (two round trips less: most keyed requests make one). If it fails, the transaction is
    rolled back: it had written nothing else. The operations after the first run in
    savepoints, each undoing only its own writes."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.after: list[Callable[[], None]] = []
        self.fresh = True

    def undo(self) -> None:
        """After the first operation failed: roll it back."""
        self.session.rollback()
        self.after.clear()


JOINED: ContextVar[tuple[Database, Joined] | None] = ContextVar("scopa_joined", default=None)
"""The transaction this request's store operations join, if any (set per request)."""


class Database:
    """An engine and its sessions: each store operation is one transaction (or a savepoint
    of the request's keyed transaction, see :data:`JOINED`)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    def session(self) -> Session:
        """A new session (its transaction is the caller's to begin and end)."""
        return self._sessions()

    def joined(self) -> Joined | None:
        found = JOINED.get()
        return found[1] if found is not None and found[0] is self else None

    def after_commit(self, then: Callable[[], None]) -> None:
        """Run ``then`` once what was just written is committed: now, or when the request's
        keyed transaction commits (never, if it is rolled back)."""
        joined = self.joined()
        if joined is None:
            then()
        else:
            joined.after.append(then)

    @property
    def url(self) -> str:
        """The database's URL with any password hidden (safe to print)."""
        return self.engine.url.render_as_string(hide_password=True)

    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def connection(self) -> Iterator[Connection]:
        """One store operation's transaction as a Core connection, with no ORM session (the
        tables' hot path): the request's keyed transaction if there is one, as
        :meth:`transaction` joins it."""
        if self.joined() is not None:
            with self.transaction() as session:
                yield session.connection()
            return
        with self.engine.begin() as connection:
            yield connection

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        joined = self.joined()
        if joined is not None and joined.fresh:
            joined.fresh = False
            try:
                yield joined.session
            except BaseException:
                joined.undo()
                raise
            return
        if joined is not None:
            with joined.session.begin_nested():
                yield joined.session
            return
        with self._sessions() as session, session.begin():
            yield session


def aware(moment: datetime | None) -> datetime:
    """SQLite hands back naive datetimes; they were written in UTC."""
    assert moment is not None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


def valid_id(value: int) -> bool:
    """Whether an id or number can be looked up (the columns hold 64-bit integers)."""
    return isinstance(value, int) and 0 < value < 2**31  # PostgreSQL integer ids


def of_group(column: Any, group: int | None) -> Any:
    """The condition that a row's ``group_id`` ``column`` is ``group``'s (``None``: the rows
    of no group, the one table of a server that is not hosted: SQL's ``IS NULL``)."""
    return column.is_(None) if group is None else column == group
