"""``open_store``: connect, migrate to the newest schema, and hand back the repositories."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from sqlalchemy import text

from bot.store.conversations import TTL_SECONDS, ConversationStore
from bot.store.db import (
    Breaker,
    Database,
    create_engine,
    database_url,
    describe,
    redacted,
    startup_problem,
    utcnow,
)
from bot.store.feedback import FeedbackRepository
from bot.store.migrate import upgrade
from bot.store.prices import DAILY_LIMIT, PriceReports
from bot.store.rates import Rates, default_rates
from bot.store.settings import GuildSettings, GuildSettingsRepository

log = logging.getLogger("gpu_advisor.store")


@dataclass
class Store:
    """The bot's storage: one database, four repositories. ``await store.close()`` when done."""

    db: Database
    settings: GuildSettingsRepository
    prices: PriceReports
    feedback: FeedbackRepository
    conversations: ConversationStore

    @property
    def backend(self) -> str:
        return self.db.backend

    async def ping(self, timeout: float | None = None) -> bool:
        """True when the database answers a trivial query within ``timeout`` seconds (for /healthz).

        A ping that runs out of time is left to finish (or fail) on its own rather than waited for:
        cancelling a connection attempt to a black-holed server takes seconds."""

        async def select_one() -> None:
            async with self.db.read() as conn:
                await conn.execute(text("SELECT 1"))

        task = asyncio.ensure_future(select_one())
        try:
            done, _ = await asyncio.wait({task}, timeout=timeout)
        except asyncio.CancelledError:
            task.cancel()
            raise
        if not done:
            task.add_done_callback(_consume)
            return False
        return task.exception() is None  # any failure means "not reachable" to a health check

    async def close(self) -> None:
        await self.db.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()


def _consume(task: asyncio.Future[None]) -> None:
    if not task.cancelled():
        task.exception()


class StartupFailed(Exception):
    """The database could not be opened at start-up. ``kind``: ``"unreachable"`` (still refused or
    silent after the start-up wait) or ``"unusable"`` (waiting will not help); ``hint``: what to do."""

    def __init__(self, kind: str, cause: str, hint: str) -> None:
        super().__init__(f"{kind}: {cause}")
        self.kind, self.cause, self.hint = kind, cause, hint


async def open_store_when_up(
    url: str | None = None,
    *,
    wait: float = 30.0,
    first_retry: float = 0.5,
    max_retry: float = 5.0,
    **options: object,
) -> Store:
    """:func:`open_store`, retried with back-off (0.5 s, doubling up to ``max_retry``) while the
    database is unreachable (refused, silent, "starting up") for up to ``wait`` seconds in all:
    a database started next to the bot (compose, systemd) may come up a little later. Raises
    :class:`StartupFailed` at once for a database that cannot work (see ``db.startup_problem``), or
    once ``wait`` has passed; anything else (a bug) as it is."""
    deadline = time.monotonic() + wait
    delay = first_retry
    attempt = 0
    breaker = options.pop("breaker", None)  # attached once open: start-up has its own retries
    while True:
        attempt += 1
        try:
            store = await open_store(url, **options)  # type: ignore[arg-type]
        except Exception as error:
            problem = startup_problem(error)
            if problem is None:
                raise
            kind, hint = problem
            left = deadline - time.monotonic()
            if kind == "unusable" or left <= 0:
                raise StartupFailed(kind, describe(error), hint) from error
            pause = min(delay, left)
            log.warning(
                "database not reachable yet; retrying",
                extra={"cause": describe(error), "attempt": attempt, "retry_in_s": round(pause, 2)},
            )
            await asyncio.sleep(pause)
            delay = min(delay * 2, max_retry)
        else:
            store.db.breaker = breaker  # type: ignore[assignment]
            return store


def catalog_has(gpu_id: str) -> bool:
    from engine.catalog import load_catalog

    return gpu_id in load_catalog().gpus


async def open_store(
    url: str | None = None,
    *,
    data_dir: str | Path | None = None,
    schema: str | None = None,
    migrate: bool = True,
    guild_defaults: GuildSettings | None = None,
    rates: Rates | None = None,
    conversation_ttl: float = TTL_SECONDS,
    daily_report_limit: int = DAILY_LIMIT,
    known_gpu: Callable[[str], bool] | None = catalog_has,
    clock: Callable[[], dt.datetime] = utcnow,
    breaker: Breaker | None = None,
    timeout: float | None = None,
    statement_timeout: float | None = None,
) -> Store:
    """Open the database named by ``url`` (``Settings.database_url``; None → SQLite under ``data_dir``,
    default ``./var/gpu-advisor.sqlite3``), run the migrations to head, and return the :class:`Store`.

    ``guild_defaults``: what a server that set nothing gets (build it from the bot's Settings).
    ``rates``: exchange rates for validation and summaries (default ``engine.money.exchange_rates()``).
    ``known_gpu``: which GPU ids a price report may name (default: the catalog's). ``clock``: for tests.
    ``breaker``, ``timeout``: fail fast while the database is down, and wait at most ``timeout``
    seconds for a connection (see ``db.Database``); ``statement_timeout``: at most this long per
    statement (PostgreSQL). Without them, SQLAlchemy's defaults (the CLI, migrations).
    """
    sa_url = database_url(url, data_dir)
    engine = create_engine(sa_url, schema=schema, connect_timeout=timeout, command_timeout=statement_timeout)
    db = Database(engine, breaker=breaker, acquire_timeout=timeout)
    try:
        if migrate:
            revision = await upgrade(db)
            log.info("store ready", extra={"database": redacted(sa_url), "revision": revision})
    except BaseException:
        await db.close()
        raise
    rates = rates or default_rates()
    return Store(
        db=db,
        settings=GuildSettingsRepository(db, rates, guild_defaults, clock),
        prices=PriceReports(db, rates, daily_limit=daily_report_limit, known_gpu=known_gpu, clock=clock),
        feedback=FeedbackRepository(db, clock=clock),
        conversations=ConversationStore(db, conversation_ttl, clock=clock),
    )
