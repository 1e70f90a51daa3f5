"""bot.expiring: one database load per server at a time, and the bot's own changes win."""

from __future__ import annotations

import asyncio

import pytest

from bot.expiring import Expiring


class Source:
    """A slow loader that counts its calls and returns what ``value`` held when it started (a read)."""

    def __init__(self, value: str = "v1", delay: float = 0.02) -> None:
        self.value, self.delay, self.calls = value, delay, 0
        self.fail = False

    async def load(self) -> str:
        self.calls += 1
        value, fail = self.value, self.fail
        await asyncio.sleep(self.delay)
        if fail:
            raise ConnectionError("database down")
        return value


async def test_concurrent_misses_share_one_load() -> None:
    cache: Expiring[str] = Expiring(30)
    source = Source()
    values = await asyncio.gather(*(cache.get(1, source.load) for _ in range(200)))
    assert values == ["v1"] * 200 and source.calls == 1
    assert await cache.get(1, source.load) == "v1" and source.calls == 1  # kept
    assert await cache.get(2, source.load) == "v1" and source.calls == 2  # per key


async def test_expired_values_are_loaded_again() -> None:
    cache: Expiring[str] = Expiring(0.05)
    source = Source(delay=0)
    await cache.get(1, source.load)
    source.value = "v2"
    assert await cache.get(1, source.load) == "v1"
    await asyncio.sleep(0.06)
    assert await cache.get(1, source.load) == "v2" and source.calls == 2


async def test_forget_wins_over_a_load_that_started_before_the_change() -> None:
    cache: Expiring[str] = Expiring(30)
    source = Source()
    early = asyncio.ensure_future(cache.get(1, source.load))
    await asyncio.sleep(0.005)  # the load is running with the old data ...
    source.value = "v2"  # ... when the bot changes the setting
    cache.forget(1)
    assert await early == "v1"  # its caller still gets an answer
    assert await cache.get(1, source.load) == "v2"  # but the stale value was not kept
    assert source.calls == 2


async def test_a_cancelled_caller_does_not_cancel_the_others_load() -> None:
    cache: Expiring[str] = Expiring(30)
    source = Source()
    first = asyncio.ensure_future(cache.get(1, source.load))
    second = asyncio.ensure_future(cache.get(1, source.load))
    await asyncio.sleep(0.005)
    first.cancel()
    assert await second == "v1" and source.calls == 1
    with pytest.raises(asyncio.CancelledError):
        await first


async def test_a_failed_load_reaches_every_caller_and_the_next_call_tries_again() -> None:
    cache: Expiring[str] = Expiring(30)
    source = Source()
    source.fail = True
    results = await asyncio.gather(*(cache.get(1, source.load) for _ in range(5)), return_exceptions=True)
    assert all(isinstance(r, ConnectionError) for r in results) and source.calls == 1
    source.fail = False
    assert await cache.get(1, source.load) == "v1" and source.calls == 2
