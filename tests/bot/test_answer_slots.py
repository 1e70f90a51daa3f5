"""At most ``ANSWERS_AT_ONCE`` answers are worked on at once; the rest wait their turn in arrival
order, and a graceful shutdown waits for them too (issue #24: a burst of answers all in the works
at once was ≈27 MB of high water in RSS)."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

import pytest

from bot import app
from bot.app import GpuAdvisorBot
from bot.config import Settings


def make_bot() -> GpuAdvisorBot:
    data_dir = Path(tempfile.mkdtemp(prefix="gpu-advisor-slots-"))
    return GpuAdvisorBot(Settings(_env_file=None, discord_token="test-token", data_dir=data_dir))


async def test_a_burst_is_answered_a_few_at_a_time_in_arrival_order(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GPU_ADVISOR_ANSWERS_AT_ONCE", raising=False)
    monkeypatch.setattr(app, "ANSWERS_AT_ONCE", 3)
    bot = make_bot()
    release = asyncio.Event()
    working: list[int] = []
    started: list[int] = []
    most = 0

    async def answer(n: int) -> None:
        nonlocal most
        async with bot.answering():
            started.append(n)
            working.append(n)
            most = max(most, len(working))
            await release.wait()
            working.remove(n)

    tasks = [asyncio.create_task(answer(n)) for n in range(10)]
    await asyncio.sleep(0.01)
    assert started == [0, 1, 2]  # the others wait for a slot ...
    assert bot.in_flight == 10  # ... and count as in flight: shutdown waits for them
    release.set()
    await asyncio.gather(*tasks)
    assert most == 3
    assert started == list(range(10))
    assert bot.in_flight == 0


async def test_no_limit_when_the_benches_turn_it_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPU_ADVISOR_ANSWERS_AT_ONCE", "0")
    bot = make_bot()
    release = asyncio.Event()
    started: list[int] = []

    async def answer(n: int) -> None:
        async with bot.answering():
            started.append(n)
            await release.wait()

    tasks = [asyncio.create_task(answer(n)) for n in range(app.ANSWERS_AT_ONCE + 5)]
    await asyncio.sleep(0.01)
    assert len(started) == app.ANSWERS_AT_ONCE + 5
    release.set()
    await asyncio.gather(*tasks)
