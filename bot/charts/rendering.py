"""Rendering: the cache of PNGs by spec, and the entry points that keep matplotlib off the event loop.

A spec's JSON is its cache key, so a changed price, GPU, language or count always draws a new
picture and an unchanged one never does. Drawing is blocking CPU work (100-300 ms): async code
uses :func:`render_async` / :func:`render_spec_async`, which run it on this module's own
one-worker pool: a thread by default, or — in the bot, :func:`use_processes` — a separate process.
A thread keeps the interpreter lock for long stretches of matplotlib's C code (event-loop stalls
of 5-55 ms per render were measured, docs/performance.md); a process stalls nothing, and keeps
matplotlib and the fonts (≈55 MB) out of the bot's own memory.

The async entry points are a bounded queue: a cached chart is returned at once, a chart already
being drawn for someone else is shared (a burst of presses on one button draws it once), and
beyond ``max_waiting()`` renders waiting behind the one being drawn a new one is refused with
:class:`ChartsBusy` — a ``UserError`` whose message (``chart.busy``) asks the user to try again in
a moment — instead of queueing without bound (memory and every later chart's wait growing with it).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import pickle
import subprocess
import sys
import threading
from collections import OrderedDict
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any

from bot.charts import drawing
from bot.charts.fonts import _mpl, resolve_fonts
from bot.charts.specs import KINDS, SPEC_BUILDERS, ChartSpec, Kind, memory_spec
from bot.locales import LANGS
from engine.errors import UserError

CHART_VERSION = 1  # part of every cache key: bump when the drawing code changes
CACHE_SIZE = 128  # PNGs are 70-130 kB: at most ~17 MB held
# Renders that may wait behind the one being drawn: at 100-300 ms each the last in line waits ≈ 5 s.
MAX_WAITING = 16


class ChartsBusy(UserError):
    """More charts are waiting to be drawn than :func:`max_waiting` allows: try again in a moment."""

    def __init__(self, waiting: int) -> None:
        super().__init__("chart.busy")
        self.waiting = waiting


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

    def peek(self, key: str) -> bytes | None:
        """Like :meth:`get`, but a miss is not counted (the render that follows counts it)."""
        with self._lock:
            png = self._data.get(key)
            if png is not None:
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
_PROCESSES = {"on": False}


def use_processes(on: bool = True) -> None:
    """Draw in a worker process (the bot) rather than a thread of this process (the default: tests,
    the CLI). A render already running finishes where it started."""
    _PROCESSES["on"] = on


def uses_processes() -> bool:
    return _PROCESSES["on"]


class WorkerFailed(RuntimeError):
    """The charts' worker process failed to draw (its error's text), or died twice in a row."""


class _Worker:
    """The charts' worker process (bot/charts/worker.py): one request at a time, started on first
    use and again if it died. Blocking: called from the charts' thread (or the default pool at
    warm-up), whose wait on the pipe holds no lock the event loop needs."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen[bytes] | None = None
        self.lock = threading.Lock()

    def call(self, request: Any) -> bytes:
        with self.lock:
            for attempt in (1, 2):
                proc = self.proc
                if proc is None or proc.poll() is not None:
                    proc = self.proc = subprocess.Popen(
                        [sys.executable, "-m", "bot.charts.worker"], stdin=subprocess.PIPE, stdout=subprocess.PIPE
                    )
                assert proc.stdin is not None and proc.stdout is not None
                try:
                    data = pickle.dumps(request, protocol=pickle.HIGHEST_PROTOCOL)
                    proc.stdin.write(len(data).to_bytes(4, "big") + data)
                    proc.stdin.flush()
                    status, value = pickle.loads(
                        _read_exactly(proc.stdout, int.from_bytes(_read_exactly(proc.stdout, 4), "big"))
                    )
                except (OSError, EOFError) as error:
                    self._stop_locked()  # it died (killed, out of memory): once more with a new one
                    if attempt == 2:
                        raise WorkerFailed(f"the chart worker died: {type(error).__name__}") from error
                    continue
                if status != "ok":
                    raise WorkerFailed(value)
                return bytes(value)
        raise AssertionError("unreachable")

    @property
    def pid(self) -> int | None:
        proc = self.proc
        return proc.pid if proc is not None and proc.poll() is None else None

    def stop(self) -> None:
        with self.lock:
            self._stop_locked()

    def _stop_locked(self) -> None:
        proc, self.proc = self.proc, None
        if proc is not None and proc.poll() is None:
            # No render is in flight (the lock is held), so the worker has nothing to finish: it is ended
            # at once rather than at end of input, which it reads only after importing matplotlib
            # (0.4 s of every shutdown soon after a start).
            with contextlib.suppress(OSError):
                proc.stdin.close()  # type: ignore[union-attr]
                proc.terminate()
            try:
                proc.wait(timeout=1)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def _read_exactly(stream: Any, size: int) -> bytes:
    data = stream.read(size)
    if len(data) < size:
        raise EOFError("the chart worker closed its output")
    return bytes(data)


_WORKER = _Worker()


def worker_pid() -> int | None:
    """The charts' worker process, if one runs (for its RSS in benchmarks)."""
    return _WORKER.pid


def _draw(spec: ChartSpec) -> bytes:
    """Draw ``spec`` (blocking: in the worker process when :func:`uses_processes`, else here) and
    count it in :func:`cache_stats`' ``renders``."""
    png = _WORKER.call(spec) if _PROCESSES["on"] else drawing.draw(spec)
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


class _Queue:
    """The renders submitted from async code and not finished yet, and the one future per spec key
    that every asker of that spec awaits. Used from the event loop's thread only."""

    def __init__(self, max_waiting: int) -> None:
        self.max_waiting = max_waiting
        self.pending = 0  # distinct renders submitted and not finished: one drawing, the rest waiting
        self.refused = 0
        self.in_flight: dict[str, asyncio.Future[bytes]] = {}


_QUEUE = _Queue(MAX_WAITING)


def max_waiting() -> int:
    return _QUEUE.max_waiting


def set_max_waiting(n: int) -> None:
    """How many renders may wait behind the one being drawn before :class:`ChartsBusy` (≥ 0)."""
    _QUEUE.max_waiting = max(0, int(n))


def queue_stats() -> dict[str, int]:
    """Renders pending (drawing and waiting), the limit on waiting ones, and refusals so far."""
    return {"pending": _QUEUE.pending, "max_waiting": _QUEUE.max_waiting, "refused": _QUEUE.refused}


async def render_async(
    kind: Kind,
    *args: Any,
    loop: asyncio.AbstractEventLoop | None = None,
    executor: Executor | None = None,
    **kwargs: Any,
) -> bytes:
    """:func:`render` in an executor, so the event loop never waits on matplotlib.

    By default the work goes to this module's own one-thread pool (renders are serialised anyway,
    and the bot's default pool stays free); pass ``executor`` to use another. The spec is built
    here (the builders are quick arithmetic on engine results), then drawn as
    :func:`render_spec_async` draws it: cached, shared, or refused with :class:`ChartsBusy`."""
    try:
        builder = SPEC_BUILDERS[kind]
    except KeyError:
        raise ValueError(f"unknown chart kind {kind!r}; known: {', '.join(KINDS)}") from None
    return await render_spec_async(builder(*args, **kwargs), loop=loop, executor=executor)


async def render_spec_async(
    spec: ChartSpec, *, loop: asyncio.AbstractEventLoop | None = None, executor: Executor | None = None
) -> bytes:
    """:func:`render_spec` in an executor (see :func:`render_async`), through the bounded queue:
    a cached PNG at once; the same spec already being drawn is awaited, not drawn twice; a new
    render beyond :func:`max_waiting` waiting ones raises :class:`ChartsBusy`."""
    loop = loop or asyncio.get_running_loop()
    key = cache_key(spec)
    png = _CACHE.peek(key)
    if png is not None:
        return png
    queue = _QUEUE
    shared = queue.in_flight.get(key)
    if shared is not None and shared.get_loop() is loop:
        return await asyncio.shield(shared)
    if queue.pending > queue.max_waiting:  # one drawing, max_waiting behind it: no room
        queue.refused += 1
        raise ChartsBusy(queue.pending - 1)
    queue.pending += 1
    future = loop.run_in_executor(executor or _executor(), render_spec, spec)
    queue.in_flight[key] = future

    def done(finished: asyncio.Future[bytes]) -> None:
        queue.pending -= 1
        if not finished.cancelled():
            finished.exception()  # retrieved: an asker that went away leaves no "never retrieved" warning
        if queue.in_flight.get(key) is future:
            del queue.in_flight[key]

    future.add_done_callback(done)
    return await asyncio.shield(future)


def shutdown() -> None:
    """Stop the charts' worker thread and process (at bot shutdown); a later render starts new ones.
    The queue starts afresh: a render that was in flight reports to the old one (its event loop may
    be closed by then, and its place would otherwise stay taken)."""
    global _EXECUTOR, _QUEUE
    _QUEUE = _Queue(_QUEUE.max_waiting)
    with _EXECUTOR_LOCK:
        if _EXECUTOR is not None:
            _EXECUTOR.shutdown(wait=True)
            _EXECUTOR = None
    _WORKER.stop()


def start_worker() -> None:
    """Start the worker process and warm it (matplotlib, fonts, one chart per language), if charts
    are drawn there; else nothing. Blocking: run it in an executor."""
    if _PROCESSES["on"]:
        _WORKER.call("warm")


def warm_up() -> None:
    """Import matplotlib, load the fonts and draw one small chart per language, so that the first
    real chart is as fast as any other (about half a second; run it in the executor at start-up:
    ``await loop.run_in_executor(None, charts.warm_up)``). When charts are drawn in the worker
    process (:func:`use_processes`), this starts the worker and warms it instead: nothing loads here."""
    if _PROCESSES["on"]:
        _WORKER.call("warm")
        return
    _warm_here()


def _warm_here() -> None:
    with drawing.RENDER_LOCK:
        _mpl()
        for lang in LANGS:
            resolve_fonts("Aa 1 顯存显存", lang)
            _draw(memory_spec([("weights", 1.0)], [("GPU", 2.0)], lang=lang, model="顯存显存"))
