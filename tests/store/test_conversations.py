"""Conversation state in the database: same interface as the in-memory store, a TTL, shared by processes."""

from __future__ import annotations

import asyncio
import datetime as dt
import inspect
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

import pytest

from bot.chat import MemoryConversationStore, understand
from bot.store import ConversationStore
from bot.store.conversations import LiveKeys, QueuedConversations
from bot.store.models import conversations
from engine.money import Money
from engine.query import Query


def test_same_interface_as_the_memory_store():
    for name in ("get", "put"):
        ours, theirs = getattr(ConversationStore, name), getattr(MemoryConversationStore, name)
        assert inspect.iscoroutinefunction(ours) and inspect.iscoroutinefunction(theirs)
        assert list(inspect.signature(ours).parameters) == list(inspect.signature(theirs).parameters)


async def test_round_trip_keeps_the_query_and_what_was_stated(store):
    first = understand("which GPU for Kaggle under $500?", None).query
    await store.conversations.put((1, 2), first)
    got = await store.conversations.get((1, 2))
    assert got == first and got.model_fields_set == first.model_fields_set
    # A follow-up through the stored query works as with the in-memory store.
    used = understand("what about used?", got).query
    assert (used.task, used.condition, used.budget) == ("kaggle", "used", first.budget)
    assert await store.conversations.get((1, 3)) is None and await store.conversations.get((2, 2)) is None


async def test_put_replaces_and_restart_keeps_the_thread(backend, store):
    await store.conversations.put((1, 2), Query(kind="recommend", task="nlp"))
    euros = Query(kind="recommend", budget=Money(amount=Decimal("800.50"), currency="EUR"))
    await store.conversations.put((1, 2), euros)
    other_process = await backend.open()
    assert await other_process.conversations.get((1, 2)) == euros


async def test_entries_expire_after_the_ttl_and_are_cleaned_up(backend, clock):
    store = await backend.open(conversation_ttl=600)
    await store.conversations.put((1, 1), Query(kind="power"))
    clock.advance(seconds=599)
    assert await store.conversations.get((1, 1)) == Query(kind="power")
    await store.conversations.put((2, 2), Query(kind="explain"))  # refreshed TTL for (2, 2) only
    clock.advance(seconds=2)
    assert await store.conversations.get((1, 1)) is None
    assert await store.conversations.get((2, 2)) == Query(kind="explain")
    assert await store.conversations.purge_expired() == 1
    clock.advance(minutes=30)
    await store.conversations.put((3, 3), Query(kind="other"))  # an occasional put cleans up
    async with store.db.read() as conn:
        keys = {(r.user_id, r.channel_id) for r in await conn.execute(conversations.select())}
    assert keys == {(3, 3)}


async def test_a_row_that_no_longer_parses_is_ignored(store, clock):
    async with store.db.write() as conn:
        await conn.execute(
            conversations.insert().values(
                user_id=1,
                channel_id=1,
                query_json='{"kind": "gone"}',
                expires_at=clock.now.replace(year=2030),
                updated_at=clock.now,
            )
        )
    assert await store.conversations.get((1, 1)) is None
    await store.conversations.put((1, 1), Query(kind="compare"))
    assert await store.conversations.get((1, 1)) == Query(kind="compare")


class Reads:
    """Counts the reads a QueuedConversations sends to the database store it wraps."""

    def __init__(self, store: ConversationStore) -> None:
        self.store, self.count = store, 0
        self.ttl = store.ttl

    async def get(self, key: tuple[int, int]) -> Query | None:
        self.count += 1
        return await self.store.get(key)

    async def put_many(self, items: Sequence[tuple[tuple[int, int], Query | str]]) -> None:
        await self.store.put_many(items)

    async def live_keys(self, updated_since: dt.datetime | None = None) -> Any:
        return await self.store.live_keys(updated_since)


class Ticks:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_live_keys_expire_with_their_rows():
    ticks = Ticks()
    keys = LiveKeys(ttl=60, clock=ticks)
    assert keys.may_exist((1, 1))  # nothing loaded yet: every key may exist
    keys.loaded_from([((9, 9), 10.0), ((8, 8), 90.0)])  # a row of 90 s left is held for the ttl at most
    assert keys.may_exist((9, 9)) and keys.may_exist((8, 8)) and not keys.may_exist((1, 1))
    keys.add([(1, 1)])
    ticks.now += 30
    keys.add([(2, 2), (1, 1)])  # (1, 1) again: its row lives 60 s from now
    assert not keys.may_exist((9, 9))  # its row expired 20 s ago
    ticks.now += 45
    assert keys.may_exist((1, 1)) and keys.may_exist((2, 2)) and not keys.may_exist((8, 8))
    ticks.now += 16  # one tick (ttl / 30) after the rows of (1, 1) and (2, 2) expired
    assert not keys.may_exist((1, 1)) and not keys.may_exist((2, 2))


def test_live_keys_never_miss_a_stored_key_and_seldom_read_one_never_stored():
    """Issue #24: a fixed table instead of an entry per key; a key stored within its time to live is
    always found, whichever keys share its slots, and a shorter row never shortens a longer one."""
    ticks = Ticks()
    keys = LiveKeys(ttl=1800, clock=ticks, slots=1 << 16)
    keys.loaded_from([((u, 1), 1800.0) for u in range(2_000)])
    keys.loaded_from([((u, 1), 5.0) for u in range(2_000)])  # the same keys, shorter: still 1800 s
    stored = [(u, 2) for u in range(5_000)]
    for start in range(0, len(stored), 500):
        keys.add(stored[start : start + 500])
        last = ticks.now
        ticks.now += 60
    assert all(keys.may_exist(key) for key in stored)  # all written within the last 30 min
    ticks.now = last + 1800 - 1
    assert all(keys.may_exist(key) for key in stored[-500:])  # the last batch, 1 s before its rows expire
    never = [(u, 3) for u in range(10_000)]
    assert sum(keys.may_exist(key) for key in never) < 200  # ≈ the share of slots still live, cubed
    ticks.now = last + 1800 + 60  # one tick (ttl / 30) after the last rows expired
    assert not any(keys.may_exist(key) for key in stored) and not any(keys.may_exist(k) for k in never)


def test_live_keys_hold_a_fixed_table():
    keys = LiveKeys(ttl=1800)
    assert len(keys._until) * keys._until.itemsize == 1 << 20  # 1 MB, whatever the number of users
    with pytest.raises(ValueError):
        LiveKeys(ttl=60, slots=1000)


async def test_a_key_never_stored_costs_no_read(backend, store):
    # A row from before a restart (another process wrote it): known once the keys are loaded.
    await store.conversations.put((1, 1), Query(kind="power"))
    reads = Reads((await backend.open()).conversations)
    queue = QueuedConversations(reads)  # type: ignore[arg-type]
    assert await queue.get((7, 7)) is None and reads.count == 1  # not loaded yet: read, as before
    await queue.load_live_keys(catch_up=None)
    assert queue.keys is not None and queue.keys.loaded
    assert await queue.get((7, 7)) is None and await queue.get((1, 2)) is None
    assert reads.count == 1 and queue.skipped_reads == 2
    assert await queue.get((1, 1)) == Query(kind="power") and reads.count == 2
    await queue.put_many([((5, 5), Query(kind="explain"))])
    assert await queue.get((5, 5)) == Query(kind="explain") and reads.count == 3
    await queue.close()


async def test_keys_written_while_starting_are_caught_up(backend, store, clock):
    reads = Reads((await backend.open()).conversations)
    queue = QueuedConversations(reads)  # type: ignore[arg-type]
    loading = asyncio.create_task(queue.load_live_keys(catch_up=0.2))
    for _ in range(100):
        if queue.keys is not None and queue.keys.loaded:
            break
        await asyncio.sleep(0.01)
    # The process this one replaces flushes its last batch after the load.
    clock.advance(seconds=1)
    await store.conversations.put((3, 4), Query(kind="power"))
    await loading
    assert await queue.get((3, 4)) == Query(kind="power") and reads.count == 1
    await queue.close()


async def test_expired_rows_are_not_loaded(backend, clock):
    store = await backend.open(conversation_ttl=600)
    await store.conversations.put((1, 1), Query(kind="power"))
    clock.advance(seconds=500)
    await store.conversations.put((2, 2), Query(kind="power"))
    clock.advance(seconds=200)
    rows, _ = await store.conversations.live_keys()
    assert [(key, round(left)) for key, left in rows] == [((2, 2), 400)]
