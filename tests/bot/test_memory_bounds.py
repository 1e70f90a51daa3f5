"""Memory per user stays bounded (issue #24): the write-through conversation store keeps only the most
recent threads in memory, and an older one comes back from the database (or from the batch not yet
written); the retained-size diagnostic names what holds memory. No timing is asserted here."""

from __future__ import annotations

import asyncio

from bot.chat import HELD_WITH_DATABASE, WriteThroughConversations, from_stored
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

    async def put_many(self, batch: list[tuple[tuple[int, int], Query | str]]) -> None:
        self.rows.update((key, from_stored(query)) for key, query in batch)


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


def test_written_threads_are_held_in_their_stored_form_and_read_back_whole():
    """Issue #24: a Query is ≈1.5 KB of objects; once its batch is written, memory holds the JSON the
    database got (written out once for both) and a follow-up reads it back, equal and with the same
    fields stated."""

    async def run() -> None:
        backing = Backing()
        store = WriteThroughConversations(backing, batch_seconds=3600)
        stated = Query(kind="recommend", budget=Money(amount=700, currency="EUR"), condition="used")
        await store.put((1, 0), stated)
        assert await store.get((1, 0)) is stated  # not written yet: the object itself
        await store.flush()
        held = store._memory.get((1, 0))
        assert isinstance(held, str) and len(held) < 200
        again = await store.get((1, 0))
        assert again == stated and again is not None and again.model_fields_set == stated.model_fields_set
        assert backing.rows[(1, 0)] == stated and backing.reads == []
        newer = stated.merged(Query(condition="new"))
        await store.put((1, 0), newer)
        await store.flush()
        assert await store.get((1, 0)) == newer

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
    from bot import chat, views
    from engine.memo import ANSWERS_REMEMBERED

    held = views.RENDERED_REMEMBERED
    assert held == min(ANSWERS_REMEMBERED, 32)
    assert held <= views.RECOMMENDATION_EMBEDS_REMEMBERED == min(ANSWERS_REMEMBERED, 128)
    # respond remembers as many answers as there are rendered replies: a repeat it remembers is
    # the same Answer object, which views.rendered looks up by identity.
    assert chat.respond.cache_info().maxsize == chat.RESPONSES_REMEMBERED == held


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


def test_a_forgotten_reply_view_is_freed_at_once_unless_someone_still_holds_it():
    """Issue #24: each button points back at its view, so a view the render cache forgot waited,
    promoted, for a full collection of the garbage collector (≈9 KB each, the largest kind of
    garbage after thousands of events). ``rendered`` now breaks that cycle when it forgets a view
    nobody else holds; a view still held (a send waiting to retry) keeps its buttons."""
    import gc
    import weakref

    from bot import views
    from engine.advisor import advise
    from engine.parse import parse

    async def run() -> None:
        answers = [advise(parse(f"which GPU for Kaggle under ${b}?").query) for b in range(300, 305)]
        held = views.rendered(answers[0], "en")[1]
        forgotten = weakref.ref(views.rendered(answers[1], "en")[1])
        assert held is not None and forgotten() is not None
        buttons = len(held.children)
        gc.disable()
        try:
            for n in range(views.RENDERED_REMEMBERED + 2):
                views.rendered(answers[2 + n % 3].model_copy(), "en")  # a new answer object each time
            assert forgotten() is None  # freed by reference counting, no collection needed
            assert len(held.children) == buttons > 0  # still whole: someone holds it
            assert held.to_components() == discord_components(held)
            sent = weakref.ref(held)
            del held  # its send is done: released at one of the next renders
            for _ in range(3):
                views.rendered(answers[2].model_copy(), "en")
            assert sent() is None and not views._STILL_SENDING
        finally:
            gc.enable()

    def discord_components(view: object) -> list:
        import discord

        return discord.ui.View.to_components(view)  # type: ignore[arg-type]

    asyncio.run(run())


def test_every_button_frees_its_click_once_handled():
    """Issue #24: a click's interaction and the view rebuilt for it are freed when the click is
    handled (bot.discord_internals.free_when_handled), not left to a full garbage collection."""
    from bot import views

    assert all(issubclass(item, views.FreedWhenHandled) for item in views.DYNAMIC_ITEMS)
