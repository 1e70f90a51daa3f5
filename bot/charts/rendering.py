"""Rendering: the cache of PNGs by spec, and the entry points that keep matplotlib off the event loop.

A spec's JSON is its cache key, so a changed price, GPU, language or count always draws a new
picture and an unchanged one never does. Drawing is blocking CPU work (100-300 ms): async code
uses :func:`render_async` / :func:`render_spec_async`, which run it on this module's own
one-thread pool.
"""

from __future__ import annotations

import asyncio
import hashlib
import threading
from collections import OrderedDict
from concurrent.futures import Executor, ThreadPoolExecutor
from functools import partial
from typing import Any

from bot.charts import drawing
from bot.charts.fonts import _mpl, resolve_fonts
from bot.charts.specs import KINDS, SPEC_BUILDERS, ChartSpec, Kind, memory_spec
from bot.locales import LANGS

CHART_VERSION = 1  # part of every cache key: bump when the drawing code changes
CACHE_SIZE = 128  # PNGs are 70-130 kB: at most ~17 MB held

# ---- cache ------------------------------------------------------------------------------------


def cache_key(spec: ChartSpec) -> str:
    """sha256 of the drawing code's version and the spec's JSON (kind and language included)."""
    return hashlib.sha256(f"{CHART_VERSION}\n{spec.model_dump_json()}".encode()).hexdigest()


class _LRU:
    """A thread-safe LRU of PNGs by key, counting hits, misses and real renders (for tests and monitoring)."""

    def __init__(self, maxsize: int) -> None:
        self.maxsize = maxsize
        self._data: OrderedDict[str, bytes] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = self.misses = self.renders = 0

    def get(self, key: str) -> bytes | None:
        with self._lock:
            png = self._data.get(key)
            if png is None:
                self.misses += 1
                return None
            self._data.move_to_end(key)
            self.hits += 1
            return png

    def put(self, key: str, png: bytes) -> None:
        with self._lock:
            self._data[key] = png
            self._data.move_to_end(key)
            while len(self._data) > self.maxsize:
                self._data.popitem(last=False)

    def count_render(self) -> None:
        with self._lock:
            self.renders += 1

    def clear(self) -> None:
        with self._lock:
            self._data.clear()
            self.hits = self.misses = self.renders = 0

    def __len__(self) -> int:
        return len(self._data)


_CACHE = _LRU(CACHE_SIZE)


def cache_clear() -> None:
    _CACHE.clear()


def cache_stats() -> dict[str, int]:
    """Hits, misses, real renders since the last clear, and PNGs held."""
    return {"hits": _CACHE.hits, "misses": _CACHE.misses, "renders": _CACHE.renders, "size": len(_CACHE)}


# ---- rendering --------------------------------------------------------------------------------

_EXECUTOR: ThreadPoolExecutor | None = None
_EXECUTOR_LOCK = threading.Lock()


def _draw(spec: ChartSpec) -> bytes:
    """Draw ``spec`` (blocking) and count it in :func:`cache_stats`' ``renders``."""
    png = drawing.draw(spec)
    _CACHE.count_render()
    return png


def render_spec(spec: ChartSpec, *, use_cache: bool = True) -> bytes:
    """The spec's PNG: from the cache when the same spec was drawn before. Blocking: call it
    from a worker thread (or use :func:`render_async`), never on the event loop."""
    key = cache_key(spec)
    if use_cache and (png := _CACHE.get(key)) is not None:
        return png
    png = _draw(spec)
    _CACHE.put(key, png)
    return png


def render(kind: Kind, *args: Any, use_cache: bool = True, **kwargs: Any) -> bytes:
    """Build the ``kind`` spec from the arguments of its ``*_spec`` builder and render it (blocking)."""
    try:
        builder = SPEC_BUILDERS[kind]
    except KeyError:
        raise ValueError(f"unknown chart kind {kind!r}; known: {', '.join(KINDS)}") from None
    return render_spec(builder(*args, **kwargs), use_cache=use_cache)


def _executor() -> ThreadPoolExecutor:
    global _EXECUTOR
    with _EXECUTOR_LOCK:
        if _EXECUTOR is None:
            _EXECUTOR = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gpu-advisor-charts")
        return _EXECUTOR


async def render_async(
    kind: Kind,
    *args: Any,
    loop: asyncio.AbstractEventLoop | None = None,
    executor: Executor | None = None,
    **kwargs: Any,
) -> bytes:
    """:func:`render` in an executor, so the event loop never waits on matplotlib.

    By default the work goes to this module's own one-thread pool (renders are serialised anyway,
    and the bot's default pool stays free); pass ``executor`` to use another."""
    loop = loop or asyncio.get_running_loop()
    return await loop.run_in_executor(executor or _executor(), partial(render, kind, *args, **kwargs))


async def render_spec_async(
    spec: ChartSpec, *, loop: asyncio.AbstractEventLoop | None = None, executor: Executor | None = None
) -> bytes:
    """:func:`render_spec` in an executor (see :func:`render_async`)."""
    loop = loop or asyncio.get_running_loop()
    return await loop.run_in_executor(executor or _executor(), render_spec, spec)


def shutdown() -> None:
    """Stop the charts' worker thread (at bot shutdown); a later render_async starts a new one."""
    global _EXECUTOR
    with _EXECUTOR_LOCK:
        if _EXECUTOR is not None:
            _EXECUTOR.shutdown(wait=True)
            _EXECUTOR = None


def warm_up() -> None:
    """Import matplotlib, load the fonts and draw one small chart per language, so that the first
    real chart is as fast as any other (about half a second; run it in the executor at start-up:
    ``await loop.run_in_executor(None, charts.warm_up)``)."""
    with drawing.RENDER_LOCK:
        _mpl()
        for lang in LANGS:
            resolve_fonts("Aa 1 顯存显存", lang)
            _draw(memory_spec([("weights", 1.0)], [("GPU", 2.0)], lang=lang, model="顯存显存"))
