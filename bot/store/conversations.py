"""Conversation state in the database: the last Query per (user, channel), for ``ttl`` seconds.

Same methods as ``bot.chat.MemoryConversationStore`` (async ``get``/``put``), so a restart or
another shard process keeps the thread. Expired rows are ignored on read and deleted now and
then by ``put`` (at most every ``cleanup_every`` seconds per process), or by :meth:`purge_expired`.

:class:`QueuedConversations` is what the bot writes through to: reads that give up quickly (the
thread then starts afresh), and writes that, when the database is down, wait in a queue and are
retried with back-off; what cannot be written in the end is counted and logged, never dropped
silently. It also knows which keys have a live row (:class:`LiveKeys`), so a (user, channel) that
never asked — most of them, on a busy server — costs no database read at all.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import math
import time
from array import array
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

from pydantic import ValidationError
from sqlalchemy import delete, select

from bot.chat import from_stored, stored_form
from bot.store.db import Database, as_utc, is_unavailable, utcnow
from bot.store.models import conversations
from engine.query import Query

TTL_SECONDS = 30 * 60
CLEANUP_EVERY_SECONDS = 5 * 60
# At most this many conversations wait for the database; beyond it the oldest are given up (counted).
MAX_PENDING = 10_000
log = logging.getLogger("gpu_advisor.store")
# After start-up, the keys written since the first load are read once more this many seconds later:
# a process this one replaces (a restart, a re-shard) writes its last batch while it stops (≤ 10 s).
CATCH_UP_SECONDS = 15.0
T = TypeVar("T")
Key = tuple[int, int]
_HASH_BITS = (1 << 64) - 1


class LiveKeys:
    """Which (user, channel) keys may have a live row in the database, so that a key that was never
    stored costs no read (docs/storage.md, "Conversations and shards").

    Why one process can know this: a channel belongs to one guild, a guild to one shard (DMs: shard
    0), and a shard to one process, so every row of a key is written by the one process that serves
    it. That process loads the live keys once at start-up (:meth:`QueuedConversations.load_live_keys`,
    in the background: until it is done every key "may exist" and is read as before) and adds each
    key it writes.

    Memory is fixed, whatever the number of users (issue #24: a dict of one entry per key written in
    the last time to live held 4.3 MB of small objects after 50,000 users, all pinned among the
    answers' short-lived ones): a table of ``slots`` expiry times (16-bit, in ticks of ``ttl / 30``
    seconds, rounded up), and each key marks three slots picked by its hash with the time its
    row expires, never lowering a later one. A key may exist while all its slots are still live: a
    key that was stored always is (never a thread missed); a key that was not may be too, when other
    keys share its slots — that costs a read that finds nothing (≈3 % of new keys with 50,000 live
    ones in 2**19 slots), and so does a key up to one tick after its row expired. Ticks count modulo
    2**16 (45 days at the default time to live): a slot untouched that long may look live again for
    one time to live, which again costs only reads.
    """

    SLOTS = 1 << 19  # 1 MB
    TICKS_PER_TTL = 30

    def __init__(self, ttl: float, *, clock: Callable[[], float] = time.monotonic, slots: int = SLOTS) -> None:
        if slots & (slots - 1) or slots < 1 << 10:
            raise ValueError("slots must be a power of two, at least 1024")
        self.ttl = ttl
        self.clock = clock
        self.loaded = False
        self._tick = max(ttl / self.TICKS_PER_TTL, 1e-3)
        self._epoch = clock()
        self._span = math.ceil(ttl / self._tick) + 1  # the most ticks a live key can have left
        self._mask = slots - 1
        self._until = array("H", bytes(2 * slots))  # 0: never marked

    def may_exist(self, key: Key) -> bool:
        if not self.loaded:
            return True
        h = hash(key) & _HASH_BITS
        mask, until, span = self._mask, self._until, self._span
        now = int((self.clock() - self._epoch) // self._tick)
        return (
            0 < (until[h & mask] - now) % 65536 <= span
            and 0 < (until[(h >> 21) & mask] - now) % 65536 <= span
            and 0 < (until[(h >> 42) & mask] - now) % 65536 <= span
        )

    def add(self, keys: list[Key]) -> None:
        self._mark(keys, self.ttl)

    def _mark(self, keys: list[Key], seconds: float) -> None:
        at = self.clock() - self._epoch
        now = int(at // self._tick)
        mark = math.ceil((at + seconds) / self._tick)
        left = mark - now
        if left <= 0:
            return
        value, span, mask, until = mark % 65536, self._span, self._mask, self._until
        for key in keys:
            h = hash(key) & _HASH_BITS
            for i in (h & mask, (h >> 21) & mask, (h >> 42) & mask):
                had = (until[i] - now) % 65536
                if had < left or had > span:  # never lower a later expiry that another key set
                    until[i] = value

    def loaded_from(self, rows: list[tuple[Key, float]]) -> None:
        """The keys found in the database, each with the seconds its row has left (held for the time
        to live at most); keys this process wrote meanwhile stay marked."""
        for key, left in rows:
            if left > 0:
                self._mark([key], min(left, self.ttl))
        self.loaded = True


class ConversationStore:
    def __init__(
        self,
        db: Database,
        ttl: float = TTL_SECONDS,
        *,
        cleanup_every: float = CLEANUP_EVERY_SECONDS,
        clock: Callable[[], dt.datetime] = utcnow,
    ) -> None:
        self.db = db
        self.ttl = dt.timedelta(seconds=ttl)
        self.cleanup_every = dt.timedelta(seconds=cleanup_every)
        self.clock = clock
        self._last_cleanup: dt.datetime | None = None

    async def get(self, key: tuple[int, int]) -> Query | None:
        user_id, channel_id = key
        now = as_utc(self.clock())
        async with self.db.read() as conn:
            row = (
                await conn.execute(
                    select(conversations.c.query_json).where(
                        conversations.c.user_id == user_id,
                        conversations.c.channel_id == channel_id,
                        conversations.c.expires_at > now,
                    )
                )
            ).first()
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

    async def put_many(self, items: Sequence[tuple[tuple[int, int], Query | str]]) -> None:
        """Upsert several conversations in one transaction (the bot batches its writes); a query may
        come already written out (:func:`stored_form`, as bot.chat keeps it)."""
        if not items:
            return
        now = as_utc(self.clock())
        rows = [
            {
                "user_id": user_id,
                "channel_id": channel_id,
                "query_json": stored_form(query),
                "expires_at": now + self.ttl,
                "updated_at": now,
            }
            for (user_id, channel_id), query in items
        ]
        upsert = self.db.upsert(conversations, ("user_id", "channel_id"), ("query_json", "expires_at", "updated_at"))
        async with self.db.write() as conn:
            await conn.execute(upsert, rows)
        if self._last_cleanup is None or now - self._last_cleanup >= self.cleanup_every:
            self._last_cleanup = now
            await self.purge_expired()

    async def live_keys(self, updated_since: dt.datetime | None = None) -> tuple[list[tuple[Key, float]], dt.datetime]:
        """The keys of the rows not yet expired (written at or after ``updated_since``, if given), each
        with the seconds it has left, soonest first; and the time of the read, by this store's clock."""
        now = as_utc(self.clock())
        query = select(conversations.c.user_id, conversations.c.channel_id, conversations.c.expires_at).where(
            conversations.c.expires_at > now
        )
        if updated_since is not None:
            query = query.where(conversations.c.updated_at >= as_utc(updated_since))
        async with self.db.read() as conn:
            rows = (await conn.execute(query.order_by(conversations.c.expires_at))).all()
        return [((row[0], row[1]), (as_utc(row[2]) - now).total_seconds()) for row in rows], now

    async def forget(self, key: tuple[int, int]) -> None:
        async with self.db.write() as conn:
            await conn.execute(
                delete(conversations).where(conversations.c.user_id == key[0], conversations.c.channel_id == key[1])
            )

    async def purge_expired(self) -> int:
        """Delete expired rows; returns how many."""
        async with self.db.write() as conn:
            result = await conn.execute(delete(conversations).where(conversations.c.expires_at <= as_utc(self.clock())))
        return result.rowcount


async def within(seconds: float | None, work: Awaitable[T]) -> T:
    """``await work``, but raise ``TimeoutError`` after ``seconds`` without waiting for the
    cancelled work to wind down (closing a connection to a silent server takes seconds more)."""
    task = asyncio.ensure_future(work)
    try:
        done, _ = await asyncio.wait({task}, timeout=seconds)
    except asyncio.CancelledError:
        task.cancel()
        raise
    if not done:
        task.cancel()
        task.add_done_callback(_consume)
        raise TimeoutError(f"no answer from the database within {seconds:g} s")
    return task.result()


def _consume(task: asyncio.Future[Any]) -> None:
    if not task.cancelled():
        task.exception()


class QueuedConversations:
    """The database side of the bot's conversation state, for when the database is slow or down.

    - ``get`` gives up after ``read_timeout`` seconds (or at once while the database is known to
      be down) and answers "no conversation": the question is then answered on its own.
    - ``put_many`` never raises: a batch that cannot be written waits in a queue (newest query per
      (user, channel)) and a background task retries it with back-off (``first_retry`` doubling to
      ``max_retry`` seconds). A queued conversation older than ``give_up_after`` (its time to
      live) or beyond ``max_pending`` is given up; :meth:`close` makes one last attempt. Whatever is
      given up is passed to ``on_lost(count)`` and logged: never dropped silently.
    """

    def __init__(
        self,
        store: ConversationStore,
        *,
        read_timeout: float | None = 0.75,
        write_timeout: float | None = 5.0,
        first_retry: float = 1.0,
        max_retry: float = 10.0,
        give_up_after: float = TTL_SECONDS,
        max_pending: int = MAX_PENDING,
        on_read_failed: Callable[[], None] | None = None,
        on_lost: Callable[[int], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
        know_keys: bool = True,
    ) -> None:
        self.store = store
        # None: read every key (know_keys=False, or a store without a time to live).
        ttl = store.ttl.total_seconds() if isinstance(store, ConversationStore) else TTL_SECONDS
        self.keys: LiveKeys | None = LiveKeys(ttl, clock=clock) if know_keys else None
        self.skipped_reads = 0
        self.read_timeout = read_timeout
        self.write_timeout = write_timeout
        self.first_retry = first_retry
        self.max_retry = max_retry
        self.give_up_after = give_up_after
        self.max_pending = max_pending
        self.on_read_failed = on_read_failed
        self.on_lost = on_lost
        self.clock = clock
        self._pending: dict[Key, tuple[float, Query | str]] = {}  # (first failure, newest query), oldest first
        self._retrier: asyncio.Task[None] | None = None
        self._overflow = 0

    @property
    def pending(self) -> int:
        """Conversations waiting for the database."""
        return len(self._pending)

    async def get(self, key: Key) -> Query | None:
        queued = self._pending.get(key)
        if queued is not None:
            return from_stored(queued[1])
        if self.keys is not None and not self.keys.may_exist(key):
            self.skipped_reads += 1
            return None
        try:
            return await within(self.read_timeout, self.store.get(key))
        except Exception as error:
            if self.on_read_failed is not None:
                self.on_read_failed()
            if not is_unavailable(error):
                log.exception("reading a conversation failed", extra={"user": key[0]})
            return None

    async def load_live_keys(self, catch_up: float | None = CATCH_UP_SECONDS) -> None:
        """Learn which keys have a live row (see :class:`LiveKeys`); until this is done every key is
        read from the database. ``catch_up`` seconds later, the rows written since are read once more
        (those of a process this one replaced, flushing as it stopped). A database that is down now
        leaves the keys unknown (every key is read, as before) and is tried again later."""
        keys = self.keys
        if keys is None or keys.loaded:
            return
        delay = self.first_retry
        while True:
            try:
                rows, read_at = await within(self.write_timeout, self.store.live_keys())
                break
            except Exception as error:
                if not is_unavailable(error):
                    log.exception("loading the live conversation keys failed")
                    return
                await asyncio.sleep(delay)
                delay = min(delay * 2, self.max_retry)
        keys.loaded_from(rows)
        log.info("live conversation keys loaded", extra={"conversations": len(rows)})
        if not catch_up:
            return
        await asyncio.sleep(catch_up)
        try:
            since = read_at - dt.timedelta(seconds=CATCH_UP_SECONDS)
            later, _ = await within(self.write_timeout, self.store.live_keys(updated_since=since))
        except Exception as error:
            if not is_unavailable(error):
                log.exception("catching up on live conversation keys failed")
            keys.loaded = False  # unknown again: every key is read, never a thread missed
            return
        keys.add([key for key, _ in later])

    async def put_many(self, items: Sequence[tuple[Key, Query | str]]) -> None:
        if not items:
            return
        if self.keys is not None:
            self.keys.add([key for key, _ in items])
        if self._pending:  # the database is (or was just) down: join the queue, keep the order
            self._queue(items)
            self._retry_soon()
            return
        try:
            await within(self.write_timeout, self.store.put_many(items))
        except Exception as error:
            if not is_unavailable(error):
                log.exception("writing conversations failed", extra={"conversations": len(items)})
            self._queue(items)
            self._retry_soon()

    def _queue(self, items: Sequence[tuple[Key, Query | str]]) -> None:
        now = self.clock()
        for key, query in items:
            first = self._pending.pop(key, (now, query))[0]
            self._pending[key] = (first, query)
        while len(self._pending) > self.max_pending:
            del self._pending[next(iter(self._pending))]
            self._overflow += 1

    def _retry_soon(self) -> None:
        if self._retrier is None or self._retrier.done():
            self._retrier = asyncio.create_task(self._retry(), name="conversation-writes")

    async def _retry(self) -> None:
        delay = self.first_retry
        while self._pending:
            await asyncio.sleep(delay)
            self._give_up_stale()
            if await self._write_pending():
                return
            delay = min(delay * 2, self.max_retry)

    async def _write_pending(self) -> bool:
        """One attempt at everything queued; True when the queue is empty afterwards."""
        batch = [(key, query) for key, (_, query) in self._pending.items()]
        if not batch:
            return True
        try:
            await within(self.write_timeout, self.store.put_many(batch))
        except Exception as error:
            if not is_unavailable(error):
                log.exception("writing queued conversations failed", extra={"conversations": len(batch)})
            return False
        for key, query in batch:  # keep what changed while the batch was being written
            if key in self._pending and self._pending[key][1] is query:
                del self._pending[key]
        log.info("queued conversations written", extra={"conversations": len(batch)})
        return not self._pending

    def _give_up_stale(self) -> None:
        cutoff = self.clock() - self.give_up_after
        stale = [key for key, (first, _) in self._pending.items() if first <= cutoff]
        for key in stale:
            del self._pending[key]
        lost, self._overflow = len(stale) + self._overflow, 0
        if lost:
            self._lost(lost, "expired while the database was unavailable")

    def _lost(self, count: int, why: str) -> None:
        log.error("conversations not saved", extra={"conversations": count, "reason": why})
        if self.on_lost is not None:
            self.on_lost(count)

    async def close(self) -> None:
        """Stop retrying; one last attempt at what is queued, and count what is still left as lost."""
        if self._retrier is not None and not self._retrier.done():
            self._retrier.cancel()
            await asyncio.gather(self._retrier, return_exceptions=True)
        self._give_up_stale()
        if self._pending and not await self._write_pending():
            lost, self._pending = len(self._pending), {}
            self._lost(lost, "the database was unavailable at shutdown")
        if self._overflow:
            self._lost(self._overflow, "too many conversations waiting for the database")
            self._overflow = 0
