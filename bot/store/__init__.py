"""Persistence: guild settings, community price reports, answer feedback, conversation state.

SQLite (default, a file under ``./var``) or PostgreSQL (``DATABASE_URL=postgresql://…``), one code
path; Alembic migrations run at start-up. See docs/storage.md.

    store = await open_store(settings.database_url)
    guild = await store.settings.get(guild_id)
    await store.prices.report(guild_id, user_id, "rtx-3090", Decimal("700"), "EUR", "used", "eBay")
    summary = await store.prices.price_summary("rtx-3090", guild_id)
    await store.close()
"""

from bot.store.context import advice_context
from bot.store.conversations import ConversationStore
from bot.store.db import Database, database_url
from bot.store.errors import InvalidValue, LimitReached, NotFound, StoreError
from bot.store.feedback import (
    FeedbackAnswer,
    FeedbackReport,
    FeedbackRepository,
    FeedbackRow,
    Vote,
    format_feedback_report,
)
from bot.store.prices import ExcludedReport, PriceReport, PriceReports, PriceSummary, ScopeSummary, summarize
from bot.store.settings import GuildSettings, GuildSettingsRepository
from bot.store.store import Store, open_store

__all__ = [
    "ConversationStore",
    "Database",
    "ExcludedReport",
    "FeedbackAnswer",
    "FeedbackReport",
    "FeedbackRepository",
    "FeedbackRow",
    "GuildSettings",
    "GuildSettingsRepository",
    "InvalidValue",
    "LimitReached",
    "NotFound",
    "PriceReport",
    "PriceReports",
    "PriceSummary",
    "ScopeSummary",
    "Store",
    "StoreError",
    "Vote",
    "advice_context",
    "database_url",
    "format_feedback_report",
    "open_store",
    "summarize",
]
