"""Engine and connection setup: one code path, two backends (SQLite via aiosqlite, PostgreSQL via asyncpg).

* ``DATABASE_URL`` unset → SQLite in a file under the data directory (``./var/gpu-advisor.sqlite3``).
* ``sqlite:///path`` → the same, at ``path``.
* ``postgresql://…``, ``postgres://…`` or ``postgresql+<driver>://…`` → ``postgresql+asyncpg://…``.

SQLite runs in WAL mode with a busy timeout and ``synchronous=FULL``; every write transaction
starts with ``BEGIN IMMEDIATE`` so two writers queue on the lock (busy timeout) instead of one
failing with "database is locked" when it upgrades a read to a write. PostgreSQL serialises the
few check-then-insert paths with transaction-scoped advisory locks (:meth:`Database.lock`).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Literal

from sqlalchemy import event, text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import URL, make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

DEFAULT_DATA_DIR = Path("var")
DEFAULT_SQLITE_NAME = "gpu-advisor.sqlite3"
BUSY_TIMEOUT_MS = 30_000
Backend = Literal["sqlite", "postgresql"]


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
        text = "postgresql://" + text[len("postgres://"):]
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
    """An async engine plus the two transaction shapes the repositories use: :meth:`read` and :meth:`write`."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.backend: Backend = "sqlite" if engine.dialect.name == "sqlite" else "postgresql"

    @property
    def is_sqlite(self) -> bool:
        return self.backend == "sqlite"

    @asynccontextmanager
    async def read(self) -> AsyncIterator[AsyncConnection]:
        async with self.engine.connect() as conn, conn.begin():
            yield conn

    @asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncConnection]:
        """A transaction that will write: SQLite takes the write lock up front (BEGIN IMMEDIATE)."""
        async with self.engine.connect() as conn:
            if self.is_sqlite:
                await conn.execution_options(sqlite_begin="BEGIN IMMEDIATE")
            async with conn.begin():
                yield conn

    async def lock(self, conn: AsyncConnection, *key: object) -> None:
        """Serialise transactions on ``key`` until commit (PostgreSQL advisory lock; SQLite already is)."""
        if self.is_sqlite:
            return
        digest = hashlib.blake2b(repr(key).encode(), digest_size=8).digest()
        number = int.from_bytes(digest, "big", signed=True)
        await conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": number})

    def insert(self, table: Any) -> Any:
        """An INSERT that supports ``on_conflict_do_update`` / ``.excluded`` on this backend."""
        return sqlite.insert(table) if self.is_sqlite else postgresql.insert(table)

    async def close(self) -> None:
        await self.engine.dispose()


def create_engine(url: URL, *, schema: str | None = None, echo: bool = False) -> AsyncEngine:
    """An async engine for ``url``; ``schema`` (PostgreSQL only) sets the search_path, e.g. one schema per test."""
    if url.get_backend_name() == "sqlite":
        if schema is not None:
            raise ValueError("schema= is for PostgreSQL only")
        Path(url.database or "").expanduser().parent.mkdir(parents=True, exist_ok=True)
        engine = create_async_engine(url, echo=echo, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000},
                                     pool_size=5, max_overflow=10, pool_timeout=60)
        _sqlite_events(engine)
        return engine
    connect_args: dict[str, Any] = {}
    if schema is not None:
        if not schema.replace("_", "").isalnum():
            raise ValueError(f"schema name must be letters, digits and _, not {schema!r}")
        connect_args["server_settings"] = {"search_path": schema}
    return create_async_engine(url, echo=echo, connect_args=connect_args, pool_pre_ping=True,
                               pool_size=5, max_overflow=10, pool_timeout=60)


def _sqlite_events(engine: AsyncEngine) -> None:
    sync_engine = engine.sync_engine

    @event.listens_for(sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy, not the sqlite3 module, decide when transactions begin (see the "begin" hook).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        for pragma in ("journal_mode=WAL", f"busy_timeout={BUSY_TIMEOUT_MS}", "synchronous=FULL",
                       "foreign_keys=ON"):
            cursor.execute(f"PRAGMA {pragma}")
        cursor.close()

    @event.listens_for(sync_engine, "begin")
    def _on_begin(conn: Any) -> None:
        conn.exec_driver_sql(conn.get_execution_options().get("sqlite_begin", "BEGIN"))
