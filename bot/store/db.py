"""Engine and connection setup: one code path, two backends (SQLite via aiosqlite, PostgreSQL via asyncpg).

* ``DATABASE_URL`` unset → SQLite in a file under the data directory (``./var/gpu-advisor.sqlite3``).
* ``sqlite:///path`` → the same, at ``path``.
* ``postgresql://…``, ``postgres://…`` or ``postgresql+<driver>://…`` → ``postgresql+asyncpg://…``.

SQLite runs in WAL mode with a busy timeout and ``synchronous=FULL``; every write transaction
starts with ``BEGIN IMMEDIATE`` so two writers queue on the lock (busy timeout) instead of one
failing with "database is locked" when it upgrades a read to a write. PostgreSQL serialises the
few check-then-insert paths with transaction-scoped advisory locks (:meth:`Database.lock`).

A database that stops answering must not stop the bot (docs/operations.md): with a
:class:`Breaker`, :class:`Database` bounds how long getting a connection may take, and once the
database refused or timed out it fails fast with :class:`StoreUnavailable` instead of making every
caller wait, letting one request through now and then to notice that it is back. The outage and
the recovery are logged once each.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Literal

from sqlalchemy import event, exc, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

DEFAULT_DATA_DIR = Path("var")
DEFAULT_SQLITE_NAME = "gpu-advisor.sqlite3"
BUSY_TIMEOUT_MS = 30_000
WAL_SWITCH_TRIES = 100  # × WAL_SWITCH_PAUSE_S: up to 5 s for another process to finish creating the database
WAL_SWITCH_PAUSE_S = 0.05
Backend = Literal["sqlite", "postgresql"]
log = logging.getLogger("gpu_advisor.store")


class StoreUnavailable(Exception):
    """The database did not answer: refused, timed out, went away, or is known to be down right now
    (the :class:`Breaker` is open). Not the user's fault: callers degrade (defaults, a queue) or say
    "try again later"."""


def _chain(error: BaseException) -> list[BaseException]:
    """``error`` and what it wraps (SQLAlchemy's ``orig``, ``__cause__``, ``__context__``)."""
    seen: list[BaseException] = []
    todo: list[BaseException | None] = [error]
    while todo:
        item = todo.pop()
        if item is None or any(item is s for s in seen) or len(seen) > 10:
            continue
        seen.append(item)
        todo += [getattr(item, "orig", None), item.__cause__, item.__context__]
    return seen


# Local file-system errors are OSErrors too, but waiting does not fix them.
_LOCAL_OS_ERRORS = (PermissionError, FileNotFoundError, FileExistsError, NotADirectoryError, IsADirectoryError)


def _postgres_down_errors() -> tuple[type[BaseException], ...]:
    try:
        import asyncpg  # type: ignore[import-untyped]
    except ImportError:  # pragma: no cover - asyncpg is a dependency
        return ()
    errors = asyncpg.exceptions
    return (
        errors.PostgresConnectionError,  # the connection broke or was refused
        errors.CannotConnectNowError,  # "the database system is starting up"
        errors.AdminShutdownError,  # the server is stopping
        errors.CrashShutdownError,
        errors.TooManyConnectionsError,
        errors.InterfaceError,  # "connection is closed", "another operation is in progress"
    )


def is_unavailable(error: BaseException) -> bool:
    """Whether ``error`` means "the database is not reachable right now" (refused, timed out, the
    connection dropped, the server is starting or stopping) rather than a bug, a bad value or a
    database that can never work (corrupt file, wrong password: see :func:`startup_problem`)."""
    postgres_down = _postgres_down_errors()
    for item in _chain(error):
        if isinstance(item, (StoreUnavailable, TimeoutError, *postgres_down)):
            return True
        if isinstance(item, OSError) and not isinstance(item, _LOCAL_OS_ERRORS):
            return True
        if isinstance(item, exc.DBAPIError) and item.connection_invalidated:
            return True
        if isinstance(item, sqlite3.OperationalError) and any(
            words in str(item).lower() for words in _SQLITE_CANNOT_WRITE
        ):
            return True
    return False


# SQLite refusing to work right now (a full disk, a file made read-only, a lock held past the busy
# timeout): for a running bot an outage like a refused connection.
_SQLITE_CANNOT_WRITE = ("readonly", "read-only", "disk i/o", "disk is full", "unable to open", "locked")


def startup_problem(error: BaseException) -> tuple[str, str] | None:
    """For a database that cannot be opened at start-up: ``(kind, hint)``, where kind is
    ``"unreachable"`` (waiting may help: refused, timed out, starting up) or ``"unusable"`` (it will
    not: a corrupt or read-only SQLite file, a bad DATA_DIR, wrong credentials, an unknown
    database or schema revision). None: not a database problem (a bug)."""
    for item in _chain(error):
        name = type(item).__name__
        text_ = str(item).lower()
        if isinstance(item, _LOCAL_OS_ERRORS):
            return "unusable", (
                "DATA_DIR (or the SQLite path in DATABASE_URL) must be a directory this user can create "
                "and write files in"
            )
        if isinstance(item, sqlite3.DatabaseError | exc.DatabaseError) and (
            "readonly" in text_ or "read-only" in text_ or "unable to open" in text_
        ):
            return "unusable", (
                "the SQLite file or its directory is read-only or cannot be opened; give this user write "
                "access to both (SQLite writes -wal and -shm files next to it)"
            )
        if isinstance(item, sqlite3.DatabaseError | exc.DatabaseError) and (
            "not a database" in text_ or "malformed" in text_ or "corrupt" in text_
        ):
            return "unusable", (
                "the SQLite file is damaged: restore it from a backup (docs/storage.md), or move it aside "
                "to start with an empty database"
            )
        if name in ("InvalidPasswordError", "InvalidAuthorizationSpecificationError"):
            return "unusable", "PostgreSQL refused the user or password in DATABASE_URL"
        if name == "InvalidCatalogNameError":
            return "unusable", "the database named in DATABASE_URL does not exist: create it first"
        if name == "CommandError" and "revision" in text_:
            return "unusable", (
                "the database was migrated by a newer version of the bot: run that version, or downgrade the "
                "database first (docs/storage.md)"
            )
    if is_unavailable(error):
        return "unreachable", (
            "the database refused or did not answer; check that it is running and that DATABASE_URL "
            "names the right host and port"
        )
    if any(isinstance(item, sqlite3.DatabaseError | exc.DatabaseError) for item in _chain(error)):
        return "unusable", "the database failed; see the cause"
    return None


class Breaker:
    """Whether the database is up, as seen by this process, and when to try it again if not.

    Closed (up): every request goes through. After a connection-level failure it opens: requests
    fail fast with :class:`StoreUnavailable` and one request every ``retry`` seconds (0.5 s, doubling
    up to ``max_retry``) goes through as a probe; the first success closes it. ``on_change(up, why)``
    is called on each transition (the bot counts it); the transitions are logged once each.
    """

    def __init__(
        self,
        *,
        min_retry: float = 0.5,
        max_retry: float = 5.0,
        clock: Callable[[], float] = time.monotonic,
        on_change: Callable[[bool, str], None] | None = None,
    ) -> None:
        self.min_retry = min_retry
        self.max_retry = max_retry
        self.clock = clock
        self.on_change = on_change
        self.up = True
        self.down_since: float | None = None
        self.cause = ""
        self._retry = min_retry
        self._next_probe = 0.0
        self._probing = False

    def allow(self) -> bool:
        """May a request go to the database now? (When down: the one probe, once it is due.)"""
        if self.up:
            return True
        if self._probing or self.clock() < self._next_probe:
            return False
        self._probing = True
        return True

    def succeeded(self) -> None:
        self._probing = False
        if self.up:
            return
        down_for = self.clock() - (self.down_since or self.clock())
        self.up, self.down_since, self._retry = True, None, self.min_retry
        log.warning("database reachable again", extra={"outage_seconds": round(down_for, 1)})
        if self.on_change is not None:
            self.on_change(True, "")

    def failed(self, error: BaseException) -> None:
        probe, self._probing = self._probing, False
        now = self.clock()
        if not self.up:
            if probe:  # a failed probe: wait longer before the next (a late failure of an earlier request: no news)
                self._retry = min(self._retry * 2, self.max_retry)
                self._next_probe = now + self._retry
            return
        self.up, self.down_since, self._retry = False, now, self.min_retry
        self._next_probe = now + self._retry
        self.cause = describe(error)
        log.error(
            "database unavailable: answering from cached settings and defaults, queueing writes",
            extra={"cause": self.cause, "hint": "see docs/operations.md, 'When a dependency is down'"},
        )
        if self.on_change is not None:
            self.on_change(False, self.cause)

    def abandoned(self) -> None:
        """A request let through was cancelled before it could tell (its caller gave up): no verdict."""
        self._probing = False


def describe(error: BaseException) -> str:
    """One short line for a log: the innermost error's type and message (no URL, no password)."""
    inner = _chain(error)[-1]
    text_ = str(inner).splitlines()[0] if str(inner) else ""
    return f"{type(inner).__name__}: {text_}"[:200] if text_ else type(inner).__name__


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def as_utc(value: dt.datetime) -> dt.datetime:
    """Aware UTC; a naive datetime is taken to be UTC already."""
    return value.replace(tzinfo=dt.UTC) if value.tzinfo is None else value.astimezone(dt.UTC)


def database_url(url: str | None, data_dir: str | Path | None = None) -> URL:
    """The async SQLAlchemy URL for a ``DATABASE_URL`` setting (see the module docstring)."""
    if not url or not url.strip():
        directory = Path(data_dir) if data_dir is not None else DEFAULT_DATA_DIR
        return URL.create("sqlite+aiosqlite", database=str(directory / DEFAULT_SQLITE_NAME))
    text = url.strip()
    if text.startswith("postgres://"):
        text = "postgresql://" + text[len("postgres://") :]
    parsed = make_url(text)
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        if parsed.database in (None, "", ":memory:") or "mode=memory" in text:
            raise ValueError("DATABASE_URL: an in-memory SQLite database is not supported; name a file")
        return parsed.set(drivername="sqlite+aiosqlite")
    if backend == "postgresql":
        query = dict(parsed.query)
        # libpq's sslmode means asyncpg's ssl (same values: disable, prefer, require, verify-full ...).
        if "sslmode" in query:
            query["ssl"] = query.pop("sslmode")
        return parsed.set(drivername="postgresql+asyncpg", query=query)
    raise ValueError(f"DATABASE_URL: unsupported database {backend!r}; use sqlite:///path or postgresql://…")


def redacted(url: URL) -> str:
    return url.render_as_string(hide_password=True)


class Database:
    """An async engine plus the two transaction shapes the repositories use: :meth:`read` and :meth:`write`.

    With a ``breaker`` (the bot's), getting a connection takes at most ``acquire_timeout`` seconds,
    connection-level failures become :class:`StoreUnavailable` and open the breaker, and while it
    is open requests fail at once. Without one (the CLI, migrations, tests) it behaves as plain
    SQLAlchemy.
    """

    def __init__(
        self, engine: AsyncEngine, *, breaker: Breaker | None = None, acquire_timeout: float | None = None
    ) -> None:
        self.engine = engine
        self.backend: Backend = "sqlite" if engine.dialect.name == "sqlite" else "postgresql"
        self.breaker = breaker
        self.acquire_timeout = acquire_timeout
        self._upserts: dict[tuple[str, tuple[str, ...], tuple[str, ...], bool], Any] = {}

    @property
    def is_sqlite(self) -> bool:
        return self.backend == "sqlite"

    @asynccontextmanager
    async def read(self) -> AsyncIterator[AsyncConnection]:
        async with self._connection() as conn, conn.begin():
            yield conn

    @asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncConnection]:
        """A transaction that will write: SQLite takes the write lock up front (BEGIN IMMEDIATE)."""
        async with self._connection(begin="BEGIN IMMEDIATE" if self.is_sqlite else None) as conn, conn.begin():
            yield conn

    @asynccontextmanager
    async def _connection(self, begin: str | None = None) -> AsyncIterator[AsyncConnection]:
        breaker = self.breaker
        if breaker is None:
            async with self.engine.connect() as conn:
                if begin:
                    await conn.execution_options(sqlite_begin=begin)
                yield conn
            return
        if not breaker.allow():
            raise StoreUnavailable(f"the database is unavailable ({breaker.cause})")
        conn = self.engine.connect()
        try:
            await self._start(conn)
            try:
                if begin:
                    await conn.execution_options(sqlite_begin=begin)
                yield conn
            finally:
                await conn.close()
        except asyncio.CancelledError:
            breaker.abandoned()
            raise
        except Exception as error:
            if is_unavailable(error):
                breaker.failed(error)
                if isinstance(error, StoreUnavailable):
                    raise
                raise StoreUnavailable(describe(error)) from error
            breaker.succeeded()  # it answered (with an error of ours): it is up
            raise
        breaker.succeeded()

    async def _start(self, conn: AsyncConnection) -> None:
        """Check out (or open) a connection, at most ``acquire_timeout`` seconds. On a timeout the
        attempt is cancelled but not waited for: SQLAlchemy closes a cancelled asyncpg connection
        gracefully, which on a black-holed server takes seconds more."""
        if self.acquire_timeout is None:
            await conn.start()
            return
        task = asyncio.ensure_future(conn.start())
        try:
            done, _ = await asyncio.wait({task}, timeout=self.acquire_timeout)
        except asyncio.CancelledError:
            task.cancel()
            raise
        if not done:
            task.cancel()

            def abandoned(attempt: asyncio.Future[Any]) -> None:
                # Connected after all, as the cancellation arrived: give the connection back to the pool.
                if not attempt.cancelled() and attempt.exception() is None:
                    asyncio.ensure_future(conn.close()).add_done_callback(_consume)

            task.add_done_callback(abandoned)
            raise StoreUnavailable(f"no database connection within {self.acquire_timeout:g} s")
        task.result()

    async def lock(self, conn: AsyncConnection, *key: object) -> None:
        """Serialise transactions on ``key`` until commit (PostgreSQL advisory lock; SQLite already is)."""
        if self.is_sqlite:
            return
        digest = hashlib.blake2b(repr(key).encode(), digest_size=8).digest()
        number = int.from_bytes(digest, "big", signed=True)
        await conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": number})

    def insert(self, table: Any) -> Any:
        """An INSERT that supports ``on_conflict_do_update`` / ``.excluded`` on this backend. Each
        dialect is imported here, not with the module: SQLAlchemy's engine has loaded this backend's
        own by now, and a SQLite shard then never imports PostgreSQL's (≈21 ms of start-up, issue #24)."""
        if self.is_sqlite:
            from sqlalchemy.dialects import sqlite

            return sqlite.insert(table)
        from sqlalchemy.dialects import postgresql

        return postgresql.insert(table)

    def upsert(self, table: Any, keys: tuple[str, ...], update: tuple[str, ...], returning: bool = False) -> Any:
        """``INSERT … ON CONFLICT (keys) DO UPDATE`` setting the ``update`` columns to the inserted
        row's values (``returning``: and giving back the row); the rows are the parameters it is
        executed with. Built once per (table, keys, columns) and reused: each new INSERT's
        ``excluded`` is a new alias of the table, ≈110 objects in cycles (its columns and their
        collections) that only the garbage collector's rare full collections freed — one alias per
        vote, ≈3 MB of them waiting at 9,000 distinct users (issue #24, docs/performance.md,
        2026-12-06)."""
        key = (table.name, keys, update, returning)
        statement = self._upserts.get(key)
        if statement is None:
            insert = self.insert(table)
            statement = insert.on_conflict_do_update(
                index_elements=list(keys), set_={column: insert.excluded[column] for column in update}
            )
            if returning:
                statement = statement.returning(*table.c)
            self._upserts[key] = statement
        return statement

    async def close(self) -> None:
        await self.engine.dispose()


def _consume(task: asyncio.Future[Any]) -> None:
    """Retrieve an abandoned attempt's outcome, so asyncio does not log it as never retrieved."""
    if not task.cancelled():
        task.exception()


def create_engine(
    url: URL,
    *,
    schema: str | None = None,
    echo: bool = False,
    connect_timeout: float | None = None,
    command_timeout: float | None = None,
) -> AsyncEngine:
    """An async engine for ``url``; ``schema`` (PostgreSQL only) sets the search_path, e.g. one schema per test.

    ``connect_timeout`` and ``command_timeout`` (PostgreSQL; seconds) bound opening a connection
    (asyncpg's default is 60 s) and each statement (default: unbounded)."""
    if url.get_backend_name() == "sqlite":
        if schema is not None:
            raise ValueError("schema= is for PostgreSQL only")
        Path(url.database or "").expanduser().parent.mkdir(parents=True, exist_ok=True)
        engine = create_async_engine(
            url,
            echo=echo,
            connect_args={"timeout": BUSY_TIMEOUT_MS / 1000},
            pool_size=5,
            max_overflow=10,
            pool_timeout=60,
        )
        _sqlite_events(engine)
        return engine
    connect_args: dict[str, Any] = {}
    if connect_timeout is not None:
        connect_args["timeout"] = connect_timeout
    if command_timeout is not None:
        connect_args["command_timeout"] = command_timeout
    if schema is not None:
        if not schema.replace("_", "").isalnum():
            raise ValueError(f"schema name must be letters, digits and _, not {schema!r}")
        connect_args["server_settings"] = {"search_path": schema}
    return create_async_engine(
        url, echo=echo, connect_args=connect_args, pool_pre_ping=True, pool_size=5, max_overflow=10, pool_timeout=60
    )


def _sqlite_events(engine: AsyncEngine) -> None:
    sync_engine = engine.sync_engine

    @event.listens_for(sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy, not the sqlite3 module, decide when transactions begin (see the "begin" hook).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        # The busy timeout first, so what follows waits for other connections' locks. Switching a new database to WAL
        # can still answer "locked" at once while another process opening it at the same moment holds the file
        # (SQLite does not call the busy handler there): tried again, briefly, as the busy timeout would have.
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        for attempt in range(WAL_SWITCH_TRIES):
            try:
                cursor.execute("PRAGMA journal_mode=WAL")
                break
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or attempt == WAL_SWITCH_TRIES - 1:
                    raise
                time.sleep(WAL_SWITCH_PAUSE_S)
        for pragma in ("synchronous=FULL", "foreign_keys=ON"):
            cursor.execute(f"PRAGMA {pragma}")
        cursor.close()

    @event.listens_for(sync_engine, "begin")
    def _on_begin(conn: Any) -> None:
        conn.exec_driver_sql(conn.get_execution_options().get("sqlite_begin", "BEGIN"))
