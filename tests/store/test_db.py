"""DATABASE_URL handling and the SQLite connection settings."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa

from bot.store import database_url, open_store


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
