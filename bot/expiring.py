"""Per-server values read from the database and kept for a while: settings, community prices and the
engine context built from them.

Two things matter under load. When a value expires while a server is busy, every question in
flight would miss at once and each would ask the database (in bench/e2e_bench.py one max-rate
segment in eight then cost 2.5× the CPU, with 14,707 context switches instead of ~350): so one
load runs per key and the others wait for it. And when the bot itself changes a value
(/settings, a price report), :meth:`Expiring.forget` must win over a load that was already running
with the old data: such a load's result is handed to its waiters but not kept.

When the database is down, a load fails: the caller then uses :meth:`Expiring.last`, the value
this process last saw (however old), before falling back to the defaults (bot/app.py).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Hashable
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class Expiring(Generic[T]):
    """Values per key, loaded on first use and again once ``seconds`` old; one load per key at a time."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._values: dict[Hashable, tuple[float, T]] = {}
        self._loading: dict[Hashable, asyncio.Future[T]] = {}  # the one load per key whose result is kept

    async def get(self, key: Hashable, load: Callable[[], Awaitable[T]]) -> T:
        """The value for ``key``, from ``load()`` when missing or expired (shared with concurrent callers)."""
        hit = self._values.get(key)
        if hit is not None and time.monotonic() - hit[0] < self.seconds:
            return hit[1]
        # One caller cancelled (its interaction timed out, shutdown) must not cancel the others' load.
        return await asyncio.shield(self._start(key, load))

    def fresh(self, key: Hashable) -> T | None:
        """The value for ``key`` if it is loaded and not expired, without loading."""
        hit = self._values.get(key)
        if hit is not None and time.monotonic() - hit[0] < self.seconds:
            return hit[1]
        return None

    def refresh(self, key: Hashable, load: Callable[[], Awaitable[T]]) -> None:
        """Start loading ``key`` in the background unless a load is running (nobody waits for it)."""
        self._start(key, load)

    def _start(self, key: Hashable, load: Callable[[], Awaitable[T]]) -> asyncio.Future[T]:
        pending = self._loading.get(key)
        if pending is None:
            pending = asyncio.ensure_future(self._load(key, load))
            pending.add_done_callback(_retrieved)  # a failed load whose callers all gave up is not an error
            self._loading[key] = pending
        return pending

    async def _load(self, key: Hashable, load: Callable[[], Awaitable[T]]) -> T:
        started = time.monotonic()
        try:
            value = await load()
        finally:
            # forget() unregisters a running load: then its result is stale and must not be kept.
            current = self._loading.get(key) is asyncio.current_task()
            if current:
                del self._loading[key]
        if current:
            self._values[key] = (started, value)
        return value

    def last(self, key: Hashable) -> T | None:
        """The value last loaded for ``key``, however old (None if never): what to use while loads fail."""
        hit = self._values.get(key)
        return hit[1] if hit is not None else None

    def forget(self, key: Hashable) -> None:
        """Drop ``key`` now (this process changed it); the next caller loads it afresh."""
        self._values.pop(key, None)
        self._loading.pop(key, None)


def _retrieved(task: asyncio.Future[Any]) -> None:
    if not task.cancelled():
        task.exception()
