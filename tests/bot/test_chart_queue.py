"""Chart renders go through a bounded queue: beyond the limit a polite "busy, try again", never an
unbounded backlog; a cached or already-drawing chart costs no place in it (issue 23, item 9)."""

from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import Iterator

import pytest

from bot import charts
from bot.charts import rendering
from bot.locales import LANGS
from bot.words import render
from engine.errors import UserError
from engine.power import plan


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """Every draw waits until the test opens the gate (and draws nothing real: fast)."""
    opened = threading.Event()
    drawn: list[str] = []

    def slow_draw(spec: charts.ChartSpec) -> bytes:
        opened.wait(10)
        drawn.append(charts.cache_key(spec))
        return b"\x89PNG fake " + charts.cache_key(spec).encode()

    monkeypatch.setattr(rendering, "_draw", slow_draw)
    charts.cache_clear()
    limit = charts.max_waiting()
    opened.drawn = drawn  # type: ignore[attr-defined]
    try:
        yield opened
    finally:
        opened.set()
        charts.set_max_waiting(limit)
        charts.cache_clear()


def spec(count: int) -> charts.ChartSpec:
    return charts.power_spec(plan("rtx-3090", count))


async def until(condition, timeout: float = 5) -> None:
    for _ in range(int(timeout / 0.005)):
        if condition():
            return
        await asyncio.sleep(0.005)
    raise AssertionError("condition not reached")


async def test_beyond_the_limit_a_render_is_refused_politely(gate):
    charts.set_max_waiting(2)
    tasks = [asyncio.create_task(charts.render_spec_async(spec(n))) for n in (1, 2, 3)]  # one drawing, two waiting
    await until(lambda: charts.queue_stats()["pending"] == 3)
    with pytest.raises(charts.ChartsBusy) as refused:
        await charts.render_spec_async(spec(4))
    assert isinstance(refused.value, UserError) and refused.value.key == "chart.busy"
    for lang in LANGS:
        words = render(refused.value.message, lang)
        assert words and "chart.busy" not in words
    assert re.search(r"try again", render(refused.value.message, "en"))
    with pytest.raises(charts.ChartsBusy):  # render_async (the /chart command's path) too
        await charts.render_async("power", plan("rtx-3090", 5))
    assert charts.queue_stats()["refused"] == 2
    gate.set()
    pngs = await asyncio.gather(*tasks)
    assert all(p.startswith(b"\x89PNG") for p in pngs)
    assert charts.queue_stats()["pending"] == 0
    assert (await charts.render_spec_async(spec(4))).startswith(b"\x89PNG")  # room again


async def test_the_same_chart_asked_many_times_is_drawn_once_and_takes_one_place(gate):
    charts.set_max_waiting(1)
    presses = [asyncio.create_task(charts.render_spec_async(spec(2))) for _ in range(50)]
    await until(lambda: charts.queue_stats()["pending"] == 1)
    other = asyncio.create_task(charts.render_spec_async(spec(3)))  # another chart still fits
    await until(lambda: charts.queue_stats()["pending"] == 2)
    gate.set()
    pngs = await asyncio.gather(*presses, other)
    assert len(set(pngs[:50])) == 1 and pngs[50] != pngs[0]
    assert len(gate.drawn) == 2  # type: ignore[attr-defined]


async def test_a_cached_chart_is_served_even_when_the_queue_is_full(gate):
    charts.set_max_waiting(0)
    gate.set()
    cached = await charts.render_spec_async(spec(1))
    gate.clear()
    busy = asyncio.create_task(charts.render_spec_async(spec(2)))
    await until(lambda: charts.queue_stats()["pending"] == 1)
    with pytest.raises(charts.ChartsBusy):
        await charts.render_spec_async(spec(3))
    assert await charts.render_spec_async(spec(1)) is cached
    gate.set()
    await busy


async def test_a_caller_that_gives_up_frees_nothing_early_and_leaks_nothing(gate):
    charts.set_max_waiting(0)
    first = asyncio.create_task(charts.render_spec_async(spec(1)))
    await until(lambda: charts.queue_stats()["pending"] == 1)
    first.cancel()
    with pytest.raises(asyncio.CancelledError):
        await first
    with pytest.raises(charts.ChartsBusy):  # the draw still runs: its place is still taken
        await charts.render_spec_async(spec(2))
    again = asyncio.create_task(charts.render_spec_async(spec(1)))  # the same chart: shared, not refused
    gate.set()
    assert (await again).startswith(b"\x89PNG")
    await until(lambda: charts.queue_stats()["pending"] == 0)
