"""Conversation state in the database: same interface as the in-memory store, a TTL, shared by processes."""

from __future__ import annotations

import inspect
from decimal import Decimal

from bot.chat import MemoryConversationStore, understand
from bot.store import ConversationStore
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
