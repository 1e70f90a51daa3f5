"""Conversation state in the database: the last Query per (user, channel), for ``ttl`` seconds.

Same methods as ``bot.chat.MemoryConversationStore`` (async ``get``/``put``), so a restart or
another shard process keeps the thread. Expired rows are ignored on read and deleted now and
then by ``put`` (at most every ``cleanup_every`` seconds per process), or by :meth:`purge_expired`.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable

from pydantic import ValidationError
from sqlalchemy import delete, select

from bot.store.db import Database, as_utc, utcnow
from bot.store.models import conversations
from engine.query import Query

TTL_SECONDS = 30 * 60
CLEANUP_EVERY_SECONDS = 5 * 60
log = logging.getLogger("gpu_advisor.store")


class ConversationStore:
    def __init__(self, db: Database, ttl: float = TTL_SECONDS, *, cleanup_every: float = CLEANUP_EVERY_SECONDS,
                 clock: Callable[[], dt.datetime] = utcnow) -> None:
        self.db = db
        self.ttl = dt.timedelta(seconds=ttl)
        self.cleanup_every = dt.timedelta(seconds=cleanup_every)
        self.clock = clock
        self._last_cleanup: dt.datetime | None = None

    async def get(self, key: tuple[int, int]) -> Query | None:
        user_id, channel_id = key
        now = as_utc(self.clock())
        async with self.db.read() as conn:
            row = (await conn.execute(
                select(conversations.c.query_json).where(
                    conversations.c.user_id == user_id,
                    conversations.c.channel_id == channel_id,
                    conversations.c.expires_at > now,
                )
            )).first()
        if row is None:
            return None
        try:
            return Query.model_validate_json(row.query_json)
        except ValidationError:
            # Written by an older version whose Query no longer validates: forget it, start over.
            log.info("dropping a stored conversation that no longer parses", extra={"user": user_id})
            return None

    async def put(self, key: tuple[int, int], query: Query) -> None:
        await self.put_many([(key, query)])

    async def put_many(self, items: list[tuple[tuple[int, int], Query]]) -> None:
        """Upsert several conversations in one transaction (the bot batches its writes)."""
        if not items:
            return
        now = as_utc(self.clock())
        rows = [
            {
                "user_id": user_id,
                "channel_id": channel_id,
                # exclude_unset keeps which fields the user stated, exactly as the in-memory store does.
                "query_json": query.model_dump_json(exclude_unset=True),
                "expires_at": now + self.ttl,
                "updated_at": now,
            }
            for (user_id, channel_id), query in items
        ]
        insert = self.db.insert(conversations)
        upsert = insert.on_conflict_do_update(
            index_elements=["user_id", "channel_id"],
            set_={k: insert.excluded[k] for k in ("query_json", "expires_at", "updated_at")},
        )
        async with self.db.write() as conn:
            await conn.execute(upsert, rows)
        if self._last_cleanup is None or now - self._last_cleanup >= self.cleanup_every:
            self._last_cleanup = now
            await self.purge_expired()

    async def forget(self, key: tuple[int, int]) -> None:
        async with self.db.write() as conn:
            await conn.execute(delete(conversations).where(conversations.c.user_id == key[0],
                                                           conversations.c.channel_id == key[1]))

    async def purge_expired(self) -> int:
        """Delete expired rows; returns how many."""
        async with self.db.write() as conn:
            result = await conn.execute(delete(conversations).where(conversations.c.expires_at <= as_utc(self.clock())))
        return result.rowcount
