"""Every store test runs on both backends: SQLite (a file in tmp_path) and PostgreSQL (a fresh schema).

PostgreSQL: ``TEST_DATABASE_URL`` or ``postgresql://postgres@127.0.0.1:5432/test`` (trust auth).
Locally a missing server skips the PostgreSQL half; with ``CI=true`` it fails instead.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import threading
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.store import Store, open_store

PG_URL = os.environ.get("TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test")
IN_CI = os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")
START = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.UTC)


def _raw_pg_url() -> str:
    return PG_URL.replace("postgresql+asyncpg://", "postgresql://")


def _check_postgres() -> str | None:
    """None when PostgreSQL answers, else why not (checked once, on a thread with its own loop)."""
    outcome: list[str | None] = []

    async def probe() -> None:
        conn = await asyncpg.connect(_raw_pg_url(), timeout=5)
        await conn.fetchval("SELECT 1")
        await conn.close()

    def run() -> None:
        try:
            asyncio.run(probe())
            outcome.append(None)
        except Exception as error:
            outcome.append(f"{type(error).__name__}: {error}")

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(30)
    return outcome[0] if outcome else "timed out"


@pytest.fixture(scope="session")
def postgres_problem() -> str | None:
    return _check_postgres()


class Clock:
    """A settable clock for the store: ``clock()`` is now; ``clock.advance(hours=25)`` moves it."""

    def __init__(self, now: dt.datetime = START) -> None:
        self.now = now

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, **delta: float) -> dt.datetime:
        self.now += dt.timedelta(**delta)
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


class Backend:
    """One database for one test; ``open()`` opens a Store on it (several may be open at once)."""

    def __init__(self, name: str, url: str, schema: str | None, clock: Clock) -> None:
        self.name = name
        self.url = url
        self.schema = schema
        self.clock = clock
        self.stores: list[Store] = []

    async def open(self, **options: Any) -> Store:
        options.setdefault("clock", self.clock)
        store = await open_store(self.url, schema=self.schema, **options)
        self.stores.append(store)
        return store

    async def close(self) -> None:
        for store in self.stores:
            await store.close()


@pytest.fixture(params=["sqlite", "postgresql"])
async def backend(
    request: pytest.FixtureRequest, tmp_path: Path, clock: Clock, postgres_problem: str | None
) -> AsyncIterator[Backend]:
    if request.param == "sqlite":
        target = Backend("sqlite", f"sqlite:///{tmp_path / 'store.sqlite3'}", None, clock)
        yield target
        await target.close()
        return
    if postgres_problem is not None:
        message = f"PostgreSQL at {PG_URL} is not available ({postgres_problem})"
        if IN_CI:
            pytest.fail(message + "; CI=true requires it")
        pytest.skip(message)
    schema = f"test_{uuid.uuid4().hex[:16]}"
    admin = await asyncpg.connect(_raw_pg_url())
    try:
        await admin.execute(f'CREATE SCHEMA "{schema}"')
        target = Backend("postgresql", PG_URL, schema, clock)
        try:
            yield target
        finally:
            await target.close()
            await admin.execute(f'DROP SCHEMA "{schema}" CASCADE')
    finally:
        await admin.close()


@pytest.fixture
async def store(backend: Backend) -> Store:
    return await backend.open()
