"""``open_store``: connect, migrate to the newest schema, and hand back the repositories."""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from sqlalchemy import text

from bot.store.conversations import TTL_SECONDS, ConversationStore
from bot.store.db import Database, create_engine, database_url, redacted, utcnow
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

    async def ping(self) -> bool:
        """True when the database answers a trivial query (for /healthz)."""
        try:
            async with self.db.read() as conn:
                await conn.execute(text("SELECT 1"))
        except Exception:  # any failure means "not reachable" to a health check
            return False
        return True

    async def close(self) -> None:
        await self.db.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.close()


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
) -> Store:
    """Open the database named by ``url`` (``Settings.database_url``; None → SQLite under ``data_dir``,
    default ``./var/gpu-advisor.sqlite3``), run the migrations to head, and return the :class:`Store`.

    ``guild_defaults``: what a server that set nothing gets (build it from the bot's Settings).
    ``rates``: exchange rates for validation and summaries (default ``engine.money.exchange_rates()``).
    ``known_gpu``: which GPU ids a price report may name (default: the catalog's). ``clock``: for tests.
    """
    sa_url = database_url(url, data_dir)
    db = Database(create_engine(sa_url, schema=schema))
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
