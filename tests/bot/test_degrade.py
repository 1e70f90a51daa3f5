"""Degrade, don't fail, piece by piece: the database breaker, bounded connections, the queue of
conversation writes, reply retries, start-up error classification and exit codes. The whole bot
under the same faults is in tests/e2e/test_degrade.py."""

from __future__ import annotations

import asyncio
import logging
import socket
import sqlite3
import time
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace

import discord
import pytest
from sqlalchemy import text

from bot.__main__ import EXIT_CONFIG, EXIT_REFUSED, EXIT_STORAGE, EXIT_UNREACHABLE, _cannot_start
from bot.degrade import before, deliver, retry_delay
from bot.expiring import Expiring
from bot.store.conversations import QueuedConversations
from bot.store.db import (
    Breaker,
    Database,
    StoreUnavailable,
    create_engine,
    database_url,
    is_unavailable,
    startup_problem,
)
from bot.store.store import StartupFailed, open_store, open_store_when_up
from engine.query import Query


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
async def black_hole() -> AsyncIterator[int]:
    """A port that accepts connections and never answers."""
    held: list[asyncio.StreamWriter] = []

    async def hold(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        held.append(writer)

    server = await asyncio.start_server(hold, "127.0.0.1", 0)
    yield server.sockets[0].getsockname()[1]
    for writer in held:
        writer.transport.abort()
    server.close()


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


# ---------------------------------------------------------------------------------------------- the breaker


def test_the_breaker_opens_once_probes_with_back_off_and_closes(caplog: pytest.LogCaptureFixture) -> None:
    clock, changes = Clock(), []
    breaker = Breaker(min_retry=0.5, max_retry=2.0, clock=clock, on_change=lambda up, why: changes.append(up))
    assert breaker.allow()
    with caplog.at_level(logging.WARNING, logger="gpu_advisor.store"):
        breaker.failed(ConnectionRefusedError(111, "refused"))
        breaker.failed(ConnectionRefusedError(111, "refused"))  # the same outage: not logged again
    assert not breaker.up and changes == [False]
    assert [r.getMessage() for r in caplog.records].count(
        "database unavailable: answering from cached settings and defaults, queueing writes"
    ) == 1
    assert not breaker.allow()  # fail fast ...
    clock.now += 0.5
    assert breaker.allow() and not breaker.allow()  # ... until one probe is due, and only one
    breaker.failed(TimeoutError())
    clock.now += 0.9
    assert not breaker.allow()  # the next probe waits longer (1 s)
    clock.now += 0.2
    assert breaker.allow()
    breaker.abandoned()  # a probe whose caller gave up decides nothing ...
    assert breaker.allow()  # ... and does not block the next one
    breaker.succeeded()
    assert breaker.up and breaker.allow() and changes == [False, True]


async def test_a_refused_database_fails_fast_once_the_breaker_is_open() -> None:
    attempts = 0

    async def reset(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal attempts
        attempts += 1
        writer.transport.abort()

    server = await asyncio.start_server(reset, "127.0.0.1", 0)
    breaker = Breaker(min_retry=0.2)
    url = database_url(f"postgresql://postgres@127.0.0.1:{server.sockets[0].getsockname()[1]}/x")
    db = Database(create_engine(url, connect_timeout=1), breaker=breaker, acquire_timeout=1)
    try:
        with pytest.raises(StoreUnavailable):
            async with db.read() as conn:
                await conn.execute(text("SELECT 1"))
        assert not breaker.up and attempts == 1
        with pytest.raises(StoreUnavailable, match="unavailable"):
            async with db.read():
                pass
        assert attempts == 1  # the open breaker answered without trying
        await asyncio.sleep(0.25)
        with pytest.raises(StoreUnavailable):  # the probe tries (and fails) again
            async with db.read():
                pass
        assert attempts == 2
    finally:
        await db.close()
        server.close()


async def test_a_black_holed_database_is_given_up_on_within_the_acquire_timeout(black_hole: int) -> None:
    breaker = Breaker()
    url = database_url(f"postgresql://postgres@127.0.0.1:{black_hole}/x")
    db = Database(create_engine(url, connect_timeout=30), breaker=breaker, acquire_timeout=0.3)
    try:
        started = time.monotonic()
        with pytest.raises(StoreUnavailable, match=r"0\.3 s"):
            async with db.read():
                pass
        assert time.monotonic() - started < 10 and not breaker.up  # gave up: did not wait out the 30 s connect
    finally:
        await db.close()


async def test_errors_that_are_not_outages_leave_the_breaker_closed(tmp_path: Path) -> None:
    store = await open_store(data_dir=tmp_path, breaker=Breaker(), timeout=1)
    try:
        with pytest.raises(Exception, match="no such table"):
            async with store.db.read() as conn:
                await conn.execute(text("SELECT * FROM missing_table"))
        assert store.db.breaker is not None and store.db.breaker.up
        assert await store.ping(timeout=1)
    finally:
        await store.close()


# ---------------------------------------------------------------------------------------------- conversations


class FlakyConversations:
    """A ConversationStore stand-in that fails while ``down``."""

    def __init__(self) -> None:
        self.down = False
        self.slow = 0.0
        self.rows: dict[tuple[int, int], Query] = {}
        self.writes = 0

    async def get(self, key: tuple[int, int]) -> Query | None:
        await asyncio.sleep(self.slow)
        if self.down:
            raise StoreUnavailable("down")
        return self.rows.get(key)

    async def put_many(self, items: list[tuple[tuple[int, int], Query]]) -> None:
        self.writes += 1
        if self.down:
            raise StoreUnavailable("down")
        self.rows.update(items)


async def test_conversation_writes_wait_for_the_database_and_the_newest_wins() -> None:
    backing = FlakyConversations()
    lost: list[int] = []
    queue = QueuedConversations(backing, first_retry=0.02, max_retry=0.05, on_lost=lost.append)  # type: ignore[arg-type]
    backing.down = True
    await queue.put_many([((1, 1), Query(kind="recommend")), ((2, 1), Query(kind="info", gpus=("rtx-4090",)))])
    await queue.put_many([((1, 1), Query(kind="compare", gpus=("rtx-4090", "rtx-3090")))])
    assert queue.pending == 2 and backing.rows == {}
    assert (await queue.get((1, 1))).kind == "compare"  # type: ignore[union-attr]  # the queued query is read back
    backing.down = False
    for _ in range(50):
        if queue.pending == 0:
            break
        await asyncio.sleep(0.02)
    assert queue.pending == 0 and backing.rows[(1, 1)].kind == "compare" and backing.rows[(2, 1)].kind == "info"
    assert lost == []
    await queue.close()


async def test_conversations_that_cannot_be_written_are_counted_and_logged(caplog: pytest.LogCaptureFixture) -> None:
    backing = FlakyConversations()
    lost: list[int] = []
    clock = Clock()
    queue = QueuedConversations(
        backing,  # type: ignore[arg-type]
        first_retry=60,
        give_up_after=30,
        max_pending=2,
        on_lost=lost.append,
        clock=clock,
    )
    backing.down = True
    await queue.put_many([((1, 1), Query(kind="recommend"))])
    clock.now += 31  # older than its time to live: given up
    await queue.put_many([((u, 1), Query(kind="recommend")) for u in (2, 3, 4)])  # one more than the queue holds
    with caplog.at_level(logging.ERROR, logger="gpu_advisor.store"):
        await queue.close()  # the last attempt fails too
    assert sum(lost) == 4 and queue.pending == 0
    assert {r.getMessage() for r in caplog.records} == {"conversations not saved"}


async def test_a_conversation_read_gives_up_quickly() -> None:
    backing = FlakyConversations()
    backing.slow = 5.0
    failed: list[bool] = []
    queue = QueuedConversations(backing, read_timeout=0.1, on_read_failed=lambda: failed.append(True))  # type: ignore[arg-type]
    started = time.monotonic()
    assert await queue.get((1, 1)) is None
    assert time.monotonic() - started < 2.5 and failed == [True]  # did not wait the 5 s read


# ---------------------------------------------------------------------------------------------- replies


def http_error(status: int, code: int = 0, cls: type[discord.HTTPException] = discord.HTTPException) -> Exception:
    return cls(SimpleNamespace(status=status, reason="injected"), {"code": code, "message": "injected"})  # type: ignore[arg-type]


def test_only_what_may_pass_on_its_own_is_retried() -> None:
    assert retry_delay(http_error(429)) == 0.0
    assert retry_delay(http_error(503, cls=discord.DiscordServerError)) == 0.0
    assert retry_delay(discord.RateLimited(2.5)) == 2.5
    assert retry_delay(ConnectionResetError()) == 0.0
    assert retry_delay(http_error(403, cls=discord.Forbidden)) is None
    assert retry_delay(http_error(404, 10062, cls=discord.NotFound)) is None
    assert retry_delay(ValueError("a bug")) is None


async def test_deliver_retries_until_it_works_or_the_deadline() -> None:
    failures = [http_error(429), http_error(503, cls=discord.DiscordServerError)]
    retried: list[BaseException] = []

    async def send() -> str:
        if failures:
            raise failures.pop(0)
        return "sent"

    assert await deliver(send, until=time.monotonic() + 5, on_retry=retried.append) == "sent"
    assert len(retried) == 2

    async def always_503() -> str:
        raise http_error(503, cls=discord.DiscordServerError)

    started = time.monotonic()
    with pytest.raises(discord.DiscordServerError):
        await deliver(always_503, until=time.monotonic() + 0.6)
    assert time.monotonic() - started < 3  # stopped retrying at the deadline (it would retry for ever)

    async def forbidden() -> str:
        raise http_error(403, cls=discord.Forbidden)

    retried.clear()
    with pytest.raises(discord.Forbidden):
        await deliver(forbidden, until=time.monotonic() + 5, on_retry=retried.append)
    assert retried == []


async def test_before_gives_up_at_the_deadline() -> None:
    started = time.monotonic()
    with pytest.raises(TimeoutError):
        await before(time.monotonic() + 0.1, asyncio.sleep(10))
    assert time.monotonic() - started < 5  # did not wait the 10 s
    assert await before(time.monotonic() + 1, asyncio.sleep(0, "done")) == "done"


# ---------------------------------------------------------------------------------------------- caches


async def test_expiring_keeps_the_last_value_for_when_loads_fail() -> None:
    cache: Expiring[str] = Expiring(0.01)
    calls = 0

    async def ok() -> str:
        return "v1"

    async def fail() -> str:
        nonlocal calls
        calls += 1
        raise ConnectionRefusedError(111, "refused")

    assert await cache.get(1, ok) == "v1"
    await asyncio.sleep(0.02)
    assert cache.fresh(1) is None and cache.last(1) == "v1"
    with pytest.raises(ConnectionRefusedError):
        await cache.get(1, fail)
    cache.refresh(1, fail)  # in the background; nobody awaits it, and it is not an unretrieved error
    await asyncio.sleep(0.01)
    assert calls == 2 and cache.last(1) == "v1" and cache.last(2) is None


# ---------------------------------------------------------------------------------------------- start-up


async def test_start_up_problems_are_told_apart(tmp_path: Path) -> None:
    corrupt = tmp_path / "corrupt"
    corrupt.mkdir()
    (corrupt / "gpu-advisor.sqlite3").write_bytes(b"garbage" * 1000)
    with pytest.raises(StartupFailed) as failed:
        await open_store_when_up(None, data_dir=corrupt, wait=5)
    assert failed.value.kind == "unusable" and "damaged" in failed.value.hint

    (tmp_path / "a-file").write_text("x")
    with pytest.raises(StartupFailed) as failed:
        await open_store_when_up(None, data_dir=tmp_path / "a-file" / "below", wait=5)
    assert failed.value.kind == "unusable" and "DATA_DIR" in failed.value.hint

    started = time.monotonic()
    with pytest.raises(StartupFailed) as failed:
        await open_store_when_up(f"postgresql://postgres@127.0.0.1:{closed_port()}/x", wait=0.6, first_retry=0.1)
    assert failed.value.kind == "unreachable" and 0.5 < time.monotonic() - started < 10  # retried, then gave up


def test_a_read_only_sqlite_file_is_unusable_at_start_and_an_outage_at_run_time(tmp_path: Path) -> None:
    path = tmp_path / "ro.sqlite3"
    sqlite3.connect(path).execute("CREATE TABLE t (x)").connection.commit()
    with pytest.raises(sqlite3.OperationalError) as error:
        sqlite3.connect(f"file:{path}?mode=ro", uri=True).execute("INSERT INTO t VALUES (1)")
    assert startup_problem(error.value) == ("unusable", startup_problem(error.value)[1])  # type: ignore[index]
    assert "read-only" in startup_problem(error.value)[1]  # type: ignore[index]
    assert is_unavailable(error.value)  # a running bot degrades instead of failing


def test_exit_codes_name_the_cause() -> None:
    assert _cannot_start(StartupFailed("unusable", "corrupt", "restore")).code == EXIT_STORAGE  # type: ignore[union-attr]
    assert _cannot_start(StartupFailed("unreachable", "refused", "start it")).code == EXIT_UNREACHABLE  # type: ignore[union-attr]
    assert _cannot_start(ValueError("DATABASE_URL: unsupported database 'mysql'")).code == EXIT_CONFIG  # type: ignore[union-attr]
    assert _cannot_start(discord.LoginFailure("bad token")).code == EXIT_REFUSED  # type: ignore[union-attr]
    assert _cannot_start(ConnectionRefusedError(111, "refused")).code == EXIT_UNREACHABLE  # type: ignore[union-attr]
    bug = KeyError("x")
    assert _cannot_start(bug) is bug
