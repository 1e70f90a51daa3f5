"""Alembic, run programmatically from the packaged ``bot/store/migrations`` (no alembic.ini).

:func:`upgrade` runs inside one transaction on an async connection (``connection.run_sync``), so it
is the same code for SQLite and PostgreSQL. Two processes starting at once do not race: SQLite's
``BEGIN IMMEDIATE`` and a PostgreSQL advisory lock let one migrate while the other waits.

    python -m bot.store upgrade [DATABASE_URL] [--revision REV]
    python -m bot.store downgrade [DATABASE_URL] --revision REV
    python -m bot.store current [DATABASE_URL]
    python -m bot.store history
    python -m bot.store revision -m "add a column"      # a new file in migrations/versions
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Connection, text

from bot.store.db import Database, create_engine, database_url

if TYPE_CHECKING:
    from alembic.config import Config

# Alembic is imported only when a database is not at the newest revision yet (or for the CLI):
# importing it took 0.09–0.29 s of every start (python -X importtime; docs/performance.md).
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
# Revision files are numbered (``python -m bot.store revision`` writes the next number as the id).
_NUMBERED = re.compile(r"^(\d{4})_\w+\.py$")
# Any fixed 64-bit number: the advisory lock that serialises migrations on PostgreSQL.
MIGRATION_LOCK = 0x6770_7561_6476_0001


def alembic_config(connection: Connection | None = None) -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("path_separator", "os")
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head() -> str:
    from alembic.script import ScriptDirectory

    heads = ScriptDirectory.from_config(alembic_config()).get_heads()
    if len(heads) != 1:
        raise RuntimeError(f"the store's migrations must have one head, found {heads}")
    return heads[0]


def newest_on_disk() -> str:
    """The highest-numbered revision file's id: the head, read without alembic (tests/bot/
    test_startup_imports.py checks that it is alembic's one head)."""
    numbers = [m[1] for f in (MIGRATIONS / "versions").iterdir() if (m := _NUMBERED.match(f.name))]
    return max(numbers)


async def at_newest(db: Database) -> str | None:
    """The database's revision when it is already the newest, else None (no table yet, an older
    revision, or it could not be read): one plain read, no alembic."""
    newest = newest_on_disk()
    try:
        async with db.read() as conn:
            found = (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalars().all()
    except Exception as error:  # no alembic_version table yet: a new database, migrated below
        if "alembic_version" in str(error):
            return None
        raise  # unreachable, corrupt, refused: reported as before (bot.store.db.startup_problem)
    return newest if found == [newest] else None


async def upgrade(db: Database, revision: str = "head") -> str | None:
    """Migrate to ``revision`` (default: the newest); returns the revision the database is at afterwards.
    A database already at the newest revision costs one read, without importing alembic."""
    if revision == "head" and (newest := await at_newest(db)) is not None:
        return newest
    from alembic import command

    async with db.write() as conn:
        if not db.is_sqlite:
            await conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        await conn.run_sync(lambda sync: command.upgrade(alembic_config(sync), revision))
        return await conn.run_sync(_current)


async def downgrade(db: Database, revision: str) -> str | None:
    """Migrate back to ``revision`` (e.g. before rolling the bot back to an older version)."""
    from alembic import command

    async with db.write() as conn:
        if not db.is_sqlite:
            await conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        await conn.run_sync(lambda sync: command.downgrade(alembic_config(sync), revision))
        return await conn.run_sync(_current)


async def current(db: Database) -> str | None:
    async with db.read() as conn:
        return await conn.run_sync(_current)


def _current(connection: Connection) -> str | None:
    from alembic.runtime.migration import MigrationContext

    return MigrationContext.configure(connection).get_current_revision()


async def _main_async(args: argparse.Namespace) -> None:
    url = database_url(args.url or os.environ.get("DATABASE_URL"))
    db = Database(create_engine(url))
    try:
        if args.command == "upgrade":
            print(await upgrade(db, args.revision))
        elif args.command == "downgrade":
            print(await downgrade(db, args.revision))
        else:
            print(await current(db))
    finally:
        await db.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bot.store", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    up = sub.add_parser("upgrade", help="migrate a database (default: DATABASE_URL, else the SQLite file)")
    up.add_argument("url", nargs="?")
    up.add_argument("--revision", default="head")
    down = sub.add_parser("downgrade", help="migrate a database back to --revision")
    down.add_argument("url", nargs="?")
    down.add_argument("--revision", required=True)
    cur = sub.add_parser("current", help="print the revision a database is at")
    cur.add_argument("url", nargs="?")
    sub.add_parser("history", help="list the revisions")
    rev = sub.add_parser("revision", help="write a new, empty revision file")
    rev.add_argument("-m", "--message", required=True)
    args = parser.parse_args(argv)
    from alembic import command

    if args.command == "history":
        command.history(alembic_config())
    elif args.command == "revision":
        number = int(head()) + 1
        command.revision(alembic_config(), message=args.message, rev_id=f"{number:04d}")
    else:
        asyncio.run(_main_async(args))
