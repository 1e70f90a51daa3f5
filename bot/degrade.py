"""Degrade, don't fail: getting replies through 429s and 5xx, and counting what degraded.

discord.py retries a REST request itself, but not enough to ride out a rate-limit storm or a
short outage (discord.py 2.7, ``discord/http.py`` and ``discord/webhook/async_.py``):

- bot requests (a chat reply: ``POST /channels/{id}/messages``): a 429 with Discord's ``Via``
  header is retried after its ``retry_after``, 500/502/504/524 after 1, 3, 5, 7 s, five tries in
  all, then it raises; any other 5xx (503) raises at once.
- webhook requests (interaction callbacks and follow-ups): 429 after ``retry_after``, every 5xx
  after 1, 3, 5, 7 s, five tries, then it raises.

:func:`deliver` wraps one send in a bounded retry with back-off on top of that: until a deadline
(an interaction callback's is Discord's 3-second window, a chat reply's or a follow-up's
``REPLY_RETRY_SECONDS``), only for what may pass on its own (429, 5xx, a dropped connection),
never for a 4xx. An answer that still cannot be delivered is counted
(``gpu_advisor_undelivered_total``) and logged once by the caller.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

import aiohttp
import discord
from prometheus_client import CollectorRegistry, Counter, Gauge

T = TypeVar("T")
FIRST_DELAY = 0.25
MAX_DELAY = 4.0


def retry_delay(error: BaseException) -> float | None:
    """How long to wait before trying ``error``'s request again, or None when retrying cannot help."""
    if isinstance(error, discord.RateLimited):  # discord.py gave up on a long Retry-After
        return error.retry_after
    if isinstance(error, discord.HTTPException):
        if error.status == 429 or error.status >= 500:
            return 0.0
        return None
    if isinstance(error, aiohttp.ClientError | OSError | asyncio.TimeoutError):
        return 0.0
    return None


async def deliver(
    send: Callable[[], Awaitable[T]],
    *,
    until: float,
    on_retry: Callable[[BaseException], None] | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> T:
    """``await send()``, tried again after a retryable failure (back-off from 0.25 s doubling to 4 s,
    with jitter, or the server's ``retry_after`` if longer) as long as the next try starts before
    ``until`` (a ``time.monotonic()`` deadline). The last failure is raised."""
    delay = FIRST_DELAY
    while True:
        try:
            return await send()
        except Exception as error:
            hint = retry_delay(error)
            if hint is None:
                raise
            pause = max(hint, delay * random.uniform(0.8, 1.2))
            if clock() + pause >= until:
                raise
            if on_retry is not None:
                on_retry(error)
            await asyncio.sleep(pause)
            delay = min(delay * 2, MAX_DELAY)


async def before(deadline: float, work: Awaitable[T]) -> T:
    """``await work``, cancelled at ``deadline`` (``time.monotonic()``) with ``TimeoutError``: past
    Discord's window an interaction callback can only fail, and discord.py may be sleeping before
    its next 5xx retry (1, 3, 5 s ...).

    The work runs in the caller's task under ``asyncio.timeout`` (one timer handle), not in a task
    of its own: a task per response cost ≈11 µs more per call (18–22 against 7–10 µs in a loop of
    20,000 calls, 2026-12-06; issue #24). A ``TimeoutError`` raised by the work itself passes
    through as it is."""
    timeout = asyncio.timeout(max(0.0, deadline - time.monotonic()))
    try:
        async with timeout:
            return await work
    except TimeoutError:
        if timeout.expired():
            raise TimeoutError("Discord's window for this interaction closed") from None
        raise


def status_of(error: BaseException) -> str:
    """A short label for a log line: the HTTP status and Discord's code, or the error's type."""
    if isinstance(error, discord.HTTPException):
        return f"{error.status}/{error.code}" if error.code else str(error.status)
    return type(error).__name__


class DegradeMetrics:
    """What degraded, on the bot's registry (``/metrics``), beside bot.observability.Metrics."""

    def __init__(self, registry: CollectorRegistry) -> None:
        self.reply_retries = Counter(
            "gpu_advisor_reply_retries",
            "Replies sent again after a 429, a 5xx or a dropped connection",
            ["source"],
            registry=registry,
        )
        self.undelivered = Counter(
            "gpu_advisor_undelivered",
            "Answers that could not be delivered to Discord within their retry budget",
            ["source"],
            registry=registry,
        )
        self.deferred = Counter(
            "gpu_advisor_deferred",
            "Slash commands acknowledged with 'thinking…' because the answer took long",
            registry=registry,
        )
        self.late_answers = Counter(
            "gpu_advisor_late_answers",
            "Answers posted to the channel because Discord had expired the interaction",
            registry=registry,
        )
        self.store_fallbacks = Counter(
            "gpu_advisor_store_fallbacks",
            "Look-ups answered from the last known value or the defaults because the database failed",
            ["lookup"],
            registry=registry,
        )
        self.store_unavailable = Counter(
            "gpu_advisor_store_unavailable",
            "Requests refused because the database was unavailable",
            ["source"],
            registry=registry,
        )
        self.conversations_lost = Counter(
            "gpu_advisor_conversations_lost",
            "Conversation states that could not be saved (the database stayed down)",
            registry=registry,
        )
        self.database_up = Gauge("gpu_advisor_database_up", "1 while the database answers", registry=registry)
        self.database_up.set(1)
        self.database_outages = Counter(
            "gpu_advisor_database_outages", "Times the database became unavailable", registry=registry
        )
        self._fallbacks: dict[str, Counter] = {}

    def fallback(self, lookup: str) -> None:
        child = self._fallbacks.get(lookup)
        if child is None:
            child = self._fallbacks[lookup] = self.store_fallbacks.labels(lookup)
        child.inc()

    def database(self, up: bool, _cause: str = "") -> None:
        """The breaker's transitions (bot.store.db.Breaker.on_change)."""
        self.database_up.set(1 if up else 0)
        if not up:
            self.database_outages.inc()
