"""Memory per user stays bounded (issue #24): the write-through conversation store keeps only the most
recent threads in memory, and an older one comes back from the database (or from the batch not yet
written); the retained-size diagnostic names what holds memory. No timing is asserted here."""

from __future__ import annotations

import asyncio

from bot.chat import HELD_WITH_DATABASE, WriteThroughConversations
from bot.observability import retained_sizes
from engine.money import Money
from engine.query import Query


def budget(amount: int) -> Query:
    return Query(kind="recommend", task="kaggle", budget=Money(amount=amount, currency="USD"))


def amount(query: Query | None) -> int:
    assert query is not None and query.budget is not None
    return int(query.budget.amount)


class Backing:
    """The database side of the store: every batch written, and the reads that reached it."""

    def __init__(self) -> None:
        self.rows: dict[tuple[int, int], Query] = {}
        self.reads: list[tuple[int, int]] = []

    async def get(self, key: tuple[int, int]) -> Query | None:
        self.reads.append(key)
        return self.rows.get(key)

    async def put_many(self, batch: list[tuple[tuple[int, int], Query]]) -> None:
        self.rows.update(batch)


def test_memory_holds_the_most_recent_threads_and_the_database_the_rest():
    async def run() -> None:
        backing = Backing()
        store = WriteThroughConversations(backing, batch_seconds=3600, held=3)
        for user in range(5):
            await store.put((user, 0), budget(user + 1))
        assert len(store._memory) == 3  # the two oldest left memory at once: O(1) each
        # Not yet written: found in the pending batch, without a read.
        assert amount(await store.get((0, 0))) == 1 and backing.reads == []
        await store.flush()
        assert amount(backing.rows[(0, 0)]) == 1 and amount(backing.rows[(4, 0)]) == 5
        # Written and no longer in memory: read back once, then held again.
        assert amount(await store.get((1, 0))) == 2
        assert backing.reads == [(1, 0)]
        assert amount(await store.get((4, 0))) == 5 and backing.reads == [(1, 0)]

    asyncio.run(run())


def test_the_default_holds_a_few_thousand_threads():
    store = WriteThroughConversations(Backing())
    assert store._memory.max_size == HELD_WITH_DATABASE == 2_048


def test_retained_sizes_name_what_holds_memory():
    class Client:
        def __init__(self) -> None:
            self.held = [str(i) * 50 for i in range(1000)]
            self.small = 1

    sizes = retained_sizes(Client(), prefixes=())
    objects, size = sizes["client.held"]
    assert objects == 1001 and size > 50_000  # the list and its strings, counted once
    assert all(isinstance(name, str) for name in sizes)


def test_rendered_replies_are_fewer_than_the_engines_answers():
    from bot import views
    from engine.memo import ANSWERS_REMEMBERED

    held = views.RENDERED_REMEMBERED
    assert held == min(ANSWERS_REMEMBERED, 128)


def test_the_remembered_memory_estimates_hold_a_few_megabytes_when_full():
    """Issue #24: 8,192 remembered estimates held 61–71 MB in the bot; at most ESTIMATES_REMEMBERED
    (≈7–14 KB each, by the mix) now: 14.2 MB for 1,024 estimates of two-GPU set-ups, less for these."""
    from engine import memory
    from engine.model_specs import load_model_catalog

    memory._estimate.cache_clear()
    models = load_model_catalog()
    spec = models.get(models.ids()[0])
    for context in range(1, memory.ESTIMATES_REMEMBERED + 200):
        memory.estimate(spec, "inference", "bf16", context=context)
    assert memory._estimate.cache_info().currsize == memory.ESTIMATES_REMEMBERED
    _objects, size = retained_sizes(prefixes=("engine",), top=1000)["engine.memory._estimate()"]
    assert 1_000_000 < size < 16_000_000
    memory._estimate.cache_clear()
