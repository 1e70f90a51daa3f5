"""Migrations: an old database with data in it upgrades to head and stays usable; the models match."""

from __future__ import annotations

import asyncio
import datetime as dt
from decimal import Decimal

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from bot.store.migrate import current, downgrade, head, upgrade
from bot.store.models import metadata
from engine.query import Query

T = sa.bindparam("t", type_=sa.DateTime())
E = sa.bindparam("e", type_=sa.DateTime())
B = sa.bindparam("b", type_=sa.Boolean())


def _columns(conn: sa.Connection, table: str) -> set[str]:
    return {c["name"] for c in sa.inspect(conn).get_columns(table)}


def _indexes(conn: sa.Connection, table: str) -> set[str]:
    return {i["name"] for i in sa.inspect(conn).get_indexes(table)}


async def test_upgrade_an_old_database_with_data_in_it(backend, clock):
    old = await backend.open(migrate=False)
    assert await current(old.db) is None
    assert await upgrade(old.db, "0001") == "0001"
    when = (clock.now - dt.timedelta(days=3)).replace(tzinfo=None)
    expires = (clock.now + dt.timedelta(minutes=10)).replace(tzinfo=None)
    async with old.db.write() as conn:
        assert "removal_reason" not in await conn.run_sync(_columns, "price_reports")
        # Written the way revision-0001 code would have: plain SQL, the columns of that day.
        insert = sa.text(
            "INSERT INTO price_reports (guild_id, user_id, gpu_id, amount_hundredths, currency, condition, place,"
            " reported_at, created_at) VALUES (:g, :u, 'rtx-3090', :a, :c, 'used', :p, :t, :t)"
        ).bindparams(T)
        for u, a, c in [(1, 65000, "USD"), (2, 70000, "USD"), (3, 60997, "EUR"), (4, 11153100, "JPY")]:
            await conn.execute(insert, {"g": 10, "u": u, "a": a, "c": c, "p": f"shop {u}", "t": when})
        await conn.execute(
            sa.text(
                "INSERT INTO guild_settings (guild_id, currency, electricity_micros, locale, use_community_prices,"
                " updated_at) VALUES (10, 'EUR', 300000, 'zh-Hans', :b, :t)"
            ).bindparams(T, B),
            {"b": True, "t": when},
        )
        await conn.execute(
            sa.text(
                "INSERT INTO feedback (answer_id, user_id, vote, kind, task, query_json, headline, created_at,"
                " updated_at) VALUES (555, 1, -1, 'recommend', 'nlp', :q, 'old headline', :t, :t)"
            ).bindparams(T),
            {"q": Query(kind="recommend", task="nlp").model_dump_json(exclude_unset=True), "t": when},
        )
        await conn.execute(
            sa.text(
                "INSERT INTO conversations (user_id, channel_id, query_json, expires_at, updated_at)"
                " VALUES (1, 2, :q, :e, :t)"
            ).bindparams(T, E),
            {"q": Query(kind="power", num_gpus=4).model_dump_json(exclude_unset=True), "e": expires, "t": when},
        )

    new = await backend.open()  # open_store migrates to head
    assert await current(new.db) == head() == "0002"
    async with new.db.read() as conn:
        assert "removal_reason" in await conn.run_sync(_columns, "price_reports")
        assert "ix_price_reports_guild_gpu_reported" in await conn.run_sync(_indexes, "price_reports")
        assert "ix_conversations_expires_at" in await conn.run_sync(_indexes, "conversations")

    settings = await new.settings.get(10)
    assert (settings.currency, settings.electricity_per_kwh, settings.locale) == ("EUR", Decimal("0.3"), "zh-Hans")
    assert settings.use_community_prices is True
    reports = await new.prices.recent(guild_id=10)
    assert [r.price.amount for r in reversed(reports)] == [
        Decimal(650),
        Decimal(700),
        Decimal("609.97"),
        Decimal(111531),
    ]
    summary = await new.prices.price_summary("rtx-3090", 10)
    assert summary.guild.count == 4 and summary.guild.median.amount == Decimal(700)
    removed = await new.prices.remove(reports[-1].id, moderator_id=9, reason="test")  # the new column works
    assert removed.removal_reason == "test"
    await new.prices.report(10, 100, "rtx-3090", "640", "USD", "used", "new code")
    assert (await new.feedback.report()).most_down_voted[0].headline == "old headline"
    await new.feedback.vote(555, 1, 1, Query(kind="recommend", task="nlp"), "old headline")
    assert (await new.feedback.report()).up == 1
    assert await new.conversations.get((1, 2)) == Query(kind="power", num_gpus=4)


async def test_models_match_the_migrations(store):
    def diff(conn: sa.Connection) -> list:
        return compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), metadata)

    async with store.db.read() as conn:
        assert await conn.run_sync(diff) == []


async def test_reopening_and_concurrent_start_up_migrate_once(backend):
    first, second = await asyncio.gather(backend.open(), backend.open())
    third = await backend.open()
    for s in (first, second, third):
        assert await current(s.db) == head()
    async with third.db.read() as conn:
        versions = (await conn.execute(sa.text("SELECT version_num FROM alembic_version"))).all()
    assert versions == [(head(),)]


async def test_downgrade_to_the_first_revision_and_back_keeps_the_data(backend, store):
    saved = await store.prices.report(10, 1, "rtx-3090", "700", "USD", "used", "shop")
    await store.prices.remove(saved.id, moderator_id=2, reason="dupe")
    assert await downgrade(store.db, "0001") == "0001"
    async with store.db.read() as conn:
        assert "removal_reason" not in await conn.run_sync(_columns, "price_reports")
    assert await upgrade(store.db) == head()
    again = await store.prices.get(saved.id)
    assert again.removed_by == 2 and again.removal_reason is None and again.price.amount == 700
