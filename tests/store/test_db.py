"""DATABASE_URL handling and the SQLite connection settings."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest
import sqlalchemy as sa

from bot.store import database_url, open_store
from bot.store.models import conversations
from engine.query import Query


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        (None, "sqlite+aiosqlite:///var/gpu-advisor.sqlite3"),
        ("", "sqlite+aiosqlite:///var/gpu-advisor.sqlite3"),
        ("sqlite:///data/bot.db", "sqlite+aiosqlite:///data/bot.db"),
        ("sqlite+aiosqlite:////abs/bot.db", "sqlite+aiosqlite:////abs/bot.db"),
        ("postgresql://u:secret@db:5432/gpu", "postgresql+asyncpg://u:***@db:5432/gpu"),
        ("postgres://u@db/gpu", "postgresql+asyncpg://u@db/gpu"),
        ("postgresql+psycopg2://u@db/gpu", "postgresql+asyncpg://u@db/gpu"),
        ("postgresql+asyncpg://u@db/gpu?sslmode=require", "postgresql+asyncpg://u@db/gpu?ssl=require"),
    ],
)
def test_database_urls(given, expected):
    assert database_url(given).render_as_string(hide_password=True) == expected


def test_data_dir_and_refusals(tmp_path: Path):
    assert database_url(None, tmp_path).database == str(tmp_path / "gpu-advisor.sqlite3")
    for bad in ("sqlite://", "sqlite:///:memory:", "mysql://u@h/db"):
        with pytest.raises(ValueError, match="DATABASE_URL"):
            database_url(bad)


async def test_sqlite_runs_in_wal_mode_with_a_busy_timeout(tmp_path: Path):
    store = await open_store(f"sqlite:///{tmp_path / 'x.sqlite3'}")
    try:
        async with store.db.read() as conn:
            pragmas = {
                name: (await conn.execute(sa.text(f"PRAGMA {name}"))).scalar()
                for name in ("journal_mode", "busy_timeout", "synchronous", "foreign_keys")
            }
    finally:
        await store.close()
    assert pragmas == {"journal_mode": "wal", "busy_timeout": 30000, "synchronous": 2, "foreign_keys": 1}


async def test_the_default_database_is_a_file_under_the_data_directory(tmp_path: Path):
    store = await open_store(None, data_dir=tmp_path / "nested" / "var")
    try:
        assert store.backend == "sqlite"
        assert (tmp_path / "nested" / "var" / "gpu-advisor.sqlite3").is_file()
    finally:
        await store.close()


async def test_upserts_are_built_once_and_leave_no_cyclic_garbage(store):
    """Votes, conversation batches and settings reuse one statement each: a new INSERT's ``excluded``
    alias was ≈110 objects in cycles per write, left for the garbage collector (issue #24)."""
    statement = store.db.upsert(conversations, ("user_id", "channel_id"), ("query_json",))
    assert store.db.upsert(conversations, ("user_id", "channel_id"), ("query_json",)) is statement
    query = Query(kind="recommend", task="kaggle")
    await store.feedback.vote(1, 2, 1, query, "first")  # every statement built and compiled once
    await store.conversations.put_many([((1, 2), query)])
    await store.settings.set(3, currency="EUR")
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for n in range(20):
            await store.feedback.vote(1, 2, 1 if n % 2 else -1, query, f"vote {n}")
            await store.conversations.put_many([((1, n), query), ((2, n), query)])
            await store.settings.set(3, currency="USD" if n % 2 else "EUR")
        gc.collect()
        aliases = [o for o in gc.garbage if isinstance(o, sa.sql.selectable.Alias)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert aliases == []
    votes = await store.feedback.votes(1)
    assert [(v.vote, v.headline) for v in votes] == [(1, "vote 19")]
    assert (await store.settings.get(3)).currency == "USD"
    assert await store.conversations.get((2, 19)) == query
