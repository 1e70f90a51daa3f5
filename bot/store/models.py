"""The tables, as SQLAlchemy Core. The migrations in ``migrations/versions`` create exactly these.

Conventions: Discord ids are BIGINT; times are UTC, stored without a zone (``UTCDateTime`` hands
back aware datetimes); money is an integer count of hundredths of the currency unit, never a
float; NULL in ``guild_settings`` means "the default".
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    DateTime,
    Index,
    Integer,
    MetaData,
    SmallInteger,
    String,
    Table,
    Text,
)
from sqlalchemy.types import TypeDecorator

from bot.store.db import as_utc

NAMING = {
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "pk": "pk_%(table_name)s",
}
metadata = MetaData(naming_convention=NAMING)

# SQLite only auto-increments an INTEGER PRIMARY KEY; PostgreSQL gets BIGSERIAL.
Id = BigInteger().with_variant(Integer(), "sqlite")


class UTCDateTime(TypeDecorator[dt.datetime]):
    """Aware UTC datetimes in, aware UTC datetimes out; stored as naive UTC on both backends."""

    impl = DateTime(timezone=False)
    cache_ok = True

    def process_bind_param(self, value: dt.datetime | None, dialect: Any) -> dt.datetime | None:
        return None if value is None else as_utc(value).replace(tzinfo=None)

    def process_result_value(self, value: dt.datetime | None, dialect: Any) -> dt.datetime | None:
        return None if value is None else as_utc(value)


guild_settings = Table(
    "guild_settings",
    metadata,
    Column("guild_id", BigInteger, primary_key=True, autoincrement=False),
    Column("currency", String(3)),
    Column("electricity_micros", BigInteger),  # price per kWh in `currency`, × 1,000,000
    Column("locale", String(8)),
    Column("advice_channel_id", BigInteger),
    Column("use_community_prices", Boolean),
    Column("updated_at", UTCDateTime, nullable=False),
    Column("updated_by", BigInteger),
)

price_reports = Table(
    "price_reports",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("guild_id", BigInteger),  # the server it was reported in (NULL: an old DM report, counts nowhere)
    Column("user_id", BigInteger, nullable=False),
    Column("gpu_id", String(64), nullable=False),
    Column("amount_hundredths", BigInteger, nullable=False),  # amount × 100, in `currency`
    Column("currency", String(3), nullable=False),
    Column("condition", String(4), nullable=False),
    Column("place", String(200), nullable=False),  # where the price was seen, as typed
    Column("reported_at", UTCDateTime, nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    Column("removed_at", UTCDateTime),
    Column("removed_by", BigInteger),
    Column("removal_reason", String(200)),  # revision 0002
    CheckConstraint("amount_hundredths > 0", name="amount_positive"),
    CheckConstraint("condition IN ('new', 'used')", name="condition"),
    Index("ix_price_reports_gpu_reported", "gpu_id", "reported_at"),
    Index("ix_price_reports_user_gpu_reported", "user_id", "gpu_id", "reported_at"),
    Index("ix_price_reports_guild_gpu_reported", "guild_id", "gpu_id", "reported_at"),  # revision 0002
)

feedback = Table(
    "feedback",
    metadata,
    Column("answer_id", BigInteger, primary_key=True, autoincrement=False),  # the bot's message id
    Column("user_id", BigInteger, primary_key=True, autoincrement=False),
    Column("vote", SmallInteger, nullable=False),
    Column("guild_id", BigInteger),
    Column("channel_id", BigInteger),
    Column("kind", String(16), nullable=False),
    Column("task", String(32)),
    Column("query_json", Text, nullable=False),
    Column("headline", String(500), nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
    CheckConstraint("vote IN (-1, 1)", name="vote"),
    Index("ix_feedback_updated_at", "updated_at"),
)

conversations = Table(
    "conversations",
    metadata,
    Column("user_id", BigInteger, primary_key=True, autoincrement=False),
    Column("channel_id", BigInteger, primary_key=True, autoincrement=False),
    Column("query_json", Text, nullable=False),
    Column("expires_at", UTCDateTime, nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
    Index("ix_conversations_expires_at", "expires_at"),  # revision 0002
)
