"""Fixtures for end-to-end tests against the Discord API double."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from .discord_double import DiscordDouble, FakeGuild


@pytest.fixture
async def double() -> AsyncIterator[DiscordDouble]:
    """A running double with one guild ("GPU Lab", channel #general); discord.py points at it while it runs."""
    async with DiscordDouble(guilds=[FakeGuild(name="GPU Lab", channels=["general", "benchmarks"])]) as d:
        yield d


@pytest.fixture
def fast_http_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cap the sleeps inside discord.http (5xx back-off is 1 + 2*try seconds, 25 s for five tries) at 10 ms.

    discord.http does ``import asyncio`` and calls ``asyncio.sleep``; swapping the module it sees for a proxy
    changes nothing else.
    """
    import discord.http

    real_sleep = asyncio.sleep

    class _FastSleepAsyncio:
        def __getattr__(self, name: str) -> Any:
            return getattr(asyncio, name)

        @staticmethod
        async def sleep(delay: float, result: Any = None) -> Any:
            return await real_sleep(min(delay, 0.01), result)

    monkeypatch.setattr(discord.http, "asyncio", _FastSleepAsyncio())
