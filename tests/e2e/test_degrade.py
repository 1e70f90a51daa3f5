"""Degrade, don't fail: the real bot against the Discord double while its dependencies fail.

- The database refused (connections reset, the port closed) or black-holed (connections accepted,
  never answered), through a TCP proxy in front of PostgreSQL: chat and slash answers keep coming
  with the last known settings, /healthz says 503 within a second, /settings says the database is
  unavailable, conversation writes wait in a queue, and everything recovers when it is back.
- Discord's REST answering 429 and 5xx to message sends, interaction callbacks and follow-ups: no
  answer is lost within the retry budget; a slow answer is acknowledged with "thinking…"; an
  interaction Discord expired gets its answer in the channel.
- Start-up with a corrupt SQLite file, a bad DATA_DIR, a bad setting or an unreachable PostgreSQL:
  one JSON line with the cause and a hint, and the documented exit code; a PostgreSQL that comes
  up a little late is waited for. SIGTERM while discord.py waits to reconnect to an unreachable
  Discord ends the process in well under Docker's 10 s.

The PostgreSQL tests need a server (``TEST_DATABASE_URL``, default 127.0.0.1:5432, trust auth); they
are skipped without one, and fail without one under CI=true.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import socket
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest

from bot.__main__ import EXIT_CONFIG, EXIT_STORAGE, EXIT_UNREACHABLE
from bot.app import GpuAdvisorBot
from bot.config import Settings
from bot.i18n import t

from .bot_process import bot_env
from .discord_double import CB_DEFERRED_MESSAGE, DiscordDouble, FakeGuild

ROOT = Path(__file__).resolve().parents[2]
PG_URL = os.environ.get("TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test")
ADMIN = discord.Permissions(manage_guild=True)
CALLBACK = r"/interactions/\d+/[^/]+/callback"
FOLLOWUP = r"/webhooks/\d+/[^/]+"
MESSAGES = r"/channels/\d+/messages"


# ---------------------------------------------------------------------------------------------- helpers


class DatabaseProxy:
    """A TCP proxy in front of PostgreSQL that a test switches between "up" (forwards), "refuse"
    (resets every connection and closes its port: connection refused) and "blackhole" (accepts
    connections and holds every byte: nothing ever answers)."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.mode = "up"
        self.port = 0
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()

    async def start(self) -> DatabaseProxy:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", self.port)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.add(writer)
        if self.mode != "up":  # "blackhole": keep it open and say nothing
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            return
        self._writers.add(up_writer)
        await asyncio.gather(self._pump(reader, up_writer), self._pump(up_reader, writer), return_exceptions=True)

    async def _pump(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                while self.mode == "blackhole":
                    await asyncio.sleep(0.05)
                if self.mode != "up":
                    break
                writer.write(data)
                await writer.drain()
        finally:
            writer.transport.abort()

    def _drop_all(self) -> None:
        for writer in list(self._writers):
            writer.transport.abort()
        self._writers.clear()

    async def set(self, mode: str) -> None:
        self.mode = mode
        if mode == "refuse":
            self._drop_all()
            if self._server is not None:
                self._server.close()
                self._server = None
        elif mode == "up":
            self._drop_all()  # connections held by a black hole are dead to their clients by now
            if self._server is None:
                await self.start()

    async def close(self) -> None:
        await self.set("refuse")


@pytest.fixture
async def pg_database() -> AsyncIterator[str]:
    """A fresh PostgreSQL database for this test (dropped afterwards): its URL."""
    asyncpg = pytest.importorskip("asyncpg")
    raw = PG_URL.replace("postgresql+asyncpg://", "postgresql://")
    try:
        admin = await asyncpg.connect(raw, timeout=5)
    except (OSError, asyncpg.PostgresError) as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"PostgreSQL is required in CI: {exc}")
        pytest.skip(f"PostgreSQL not available: {exc}")
    name = f"gpu_advisor_degrade_{uuid.uuid4().hex[:10]}"
    await admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield re.sub(r"/[^/]+$", f"/{name}", raw)
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


@pytest.fixture
async def proxy(pg_database: str) -> AsyncIterator[tuple[DatabaseProxy, str]]:
    """PostgreSQL behind a :class:`DatabaseProxy`, and the database URL through it."""
    match = re.match(r"postgresql://([^@/]*@)?([^:/]+):(\d+)/(.+)$", pg_database)
    assert match, pg_database
    user, host, port, name = match.groups()
    front = await DatabaseProxy(host, int(port)).start()
    try:
        yield front, f"postgresql://{user or ''}127.0.0.1:{front.port}/{name}"
    finally:
        await front.close()


@pytest.fixture
def fast_webhook_retries(fast_http_retries: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """``fast_http_retries`` for interaction callbacks and follow-ups too: discord.py's webhook
    adapter sleeps 1, 3, 5, 7 s between 5xx retries; here 10 ms."""
    import discord.http
    import discord.webhook.async_

    monkeypatch.setattr(discord.webhook.async_, "asyncio", discord.http.asyncio)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def make_bot(**overrides: Any) -> GpuAdvisorBot:
    values = {
        "chat_cooldown_seconds": 0,
        "command_cooldown_seconds": 0,
        "guild_ready_timeout": 0.05,
        "data_dir": Path(tempfile.mkdtemp(prefix="gpu-advisor-degrade-")),
    } | overrides
    return GpuAdvisorBot(Settings(_env_file=None, discord_token="double-token", **values))


def mention(double: DiscordDouble, text: str) -> str:
    return f"<@{double.bot_user.id}> {text}"


async def ask(double: DiscordDouble, text: str, *, author: str = "tester", timeout: float = 5.0) -> Any:
    await double.send_message(double.channel.id, mention(double, text), author=author, mentions=[double.bot_user.id])
    return await double.wait_for_message(double.channel.id, timeout=timeout)


async def healthz(port: int) -> tuple[int, dict[str, bool], float]:
    started = time.monotonic()
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}/healthz") as response:
        body = await response.json()
        return response.status, body, time.monotonic() - started


def user_named(double: DiscordDouble, name: str) -> Any:
    return next(user for user in double.users.values() if user.username == name)


def metric(bot: GpuAdvisorBot, name: str, labels: dict[str, str] | None = None) -> float:
    return bot.metrics.registry.get_sample_value(name, labels or {}) or 0.0


# ---------------------------------------------------------------------------------------------- the database


@pytest.mark.parametrize("fault", ["refuse", "blackhole"])
async def test_a_database_outage_degrades_answers_and_recovers(
    double: DiscordDouble, proxy: tuple[DatabaseProxy, str], fault: str
) -> None:
    front, url = proxy
    port = free_port()
    # No caching: every question reads the server's settings from the database, so each one meets the outage.
    bot = make_bot(database_url=url, health_port=port, settings_cache_seconds=0, community_price_cache_seconds=0)
    async with double.run(bot):
        assert bot.store is not None and bot._conversation_writes is not None
        bot._conversation_writes.max_retry = 0.5  # retry the queue often: the outage here lasts seconds
        await bot.store.settings.set(double.guild.id, locale="zh-Hans")
        assert (await ask(double, "which GPU for Kaggle under $500?")).embeds[0]["title"] == t(
            "zh-Hans", "title.recommend"
        )
        assert (await healthz(port))[0] == 200

        await front.set(fault)
        started = time.monotonic()
        reply = await ask(double, "what about used?")  # a follow-up: the thread is in memory
        assert time.monotonic() - started < 2.0
        # The server's language as last seen, not the defaults (English).
        assert reply.embeds and reply.embeds[0]["title"] == t("zh-Hans", "title.recommend")
        for user in ("u1", "u2", "u3"):  # once the outage is known, no answer waits for the database
            started = time.monotonic()
            assert (await ask(double, "4090 vs 2x 3090?", author=user)).embeds
            assert time.monotonic() - started < 1.0
        slash = await (await double.send_slash("recommend", {"task": "kaggle", "budget": 500.0})).wait_response()
        assert slash.embeds and slash.embeds[0]["title"] == t("zh-Hans", "title.recommend")

        status, body, seconds = await healthz(port)
        assert status == 503 and body["database"] is False and body["gateway"] is True and seconds < 1.0

        refused = await (await double.send_slash("settings", {"currency": "EUR"}, permissions=ADMIN)).wait_response()
        assert refused.ephemeral and refused.content == t("zh-Hans", "error.store_unavailable")
        assert metric(bot, "gpu_advisor_database_up") == 0
        assert metric(bot, "gpu_advisor_store_fallbacks_total", {"lookup": "settings"}) >= 4
        assert metric(bot, "gpu_advisor_store_unavailable_total", {"source": "command"}) == 1
        assert metric(bot, "gpu_advisor_errors_total", {"source": "chat"}) == 0
        for _ in range(60):  # the conversations asked about (written in batches every 2 s) wait in the queue
            if bot._conversation_writes.pending >= 4:
                break
            await asyncio.sleep(0.1)
        assert bot._conversation_writes.pending >= 4

        await front.set("up")
        for _ in range(100):
            if (await healthz(port))[0] == 200:
                break
            await asyncio.sleep(0.1)
        else:
            pytest.fail("/healthz did not recover")
        assert metric(bot, "gpu_advisor_database_up") == 1
        assert (await ask(double, "which GPU for Kaggle under $500?")).embeds[0]["title"] == t(
            "zh-Hans", "title.recommend"
        )
        for _ in range(100):  # the queued conversations reach the database
            if bot._conversation_writes.pending == 0:
                break
            await asyncio.sleep(0.1)
        assert bot._conversation_writes.pending == 0
        user_id = user_named(double, "u3").id
        assert await bot.store.conversations.get((user_id, double.channel.id)) is not None
        assert metric(bot, "gpu_advisor_conversations_lost_total") == 0


async def test_a_database_that_comes_up_late_is_waited_for(
    double: DiscordDouble, proxy: tuple[DatabaseProxy, str]
) -> None:
    front, url = proxy
    await front.set("refuse")

    async def comes_up() -> None:
        await asyncio.sleep(1.5)
        await front.set("up")

    later = asyncio.create_task(comes_up())
    async with double.run(make_bot(database_url=url), ready_timeout=15):
        assert (await ask(double, "which GPU for Kaggle under $500?")).embeds
    await later


async def test_an_error_in_the_interaction_check_still_gets_an_answer(double: DiscordDouble) -> None:
    bot = make_bot()

    async def broken(guild_id: int | None) -> None:
        raise RuntimeError("boom")

    bot.guild_lang = broken  # type: ignore[method-assign]
    async with double.run(bot):
        answer = await (await double.send_slash("recommend", {"task": "kaggle", "budget": 500.0})).wait_response()
        assert answer.embeds


# ---------------------------------------------------------------------------------------------- Discord REST


@pytest.mark.usefixtures("fast_http_retries")
async def test_a_429_storm_and_5xx_on_message_sends_lose_no_answer(double: DiscordDouble) -> None:
    bot = make_bot()
    async with double.run(bot):
        double.fail_next("POST", MESSAGES, 429, count=40, retry_after=0.01)
        users = [f"storm{i}" for i in range(10)]
        for user in users:
            await double.send_message(
                double.channel.id,
                mention(double, "which GPU for Kaggle under $500?"),
                author=user,
                mentions=[double.bot_user.id],
            )
        replies = [await double.wait_for_message(double.channel.id, timeout=10) for _ in users]
        assert all(reply.embeds for reply in replies)
        # discord.py raises at once on a 503, and after five 500s (its sleeps are cut short here).
        double.fail_next("POST", MESSAGES, 503, count=1)
        assert (await ask(double, "4090 vs 3090?")).embeds
        double.fail_next("POST", MESSAGES, 500, count=7)
        assert (await ask(double, "4090 vs 3090?", author="other")).embeds
    assert metric(bot, "gpu_advisor_undelivered_total", {"source": "chat"}) == 0
    assert metric(bot, "gpu_advisor_reply_retries_total", {"source": "chat"}) >= 3
    assert metric(bot, "gpu_advisor_errors_total", {"source": "chat"}) == 0


@pytest.mark.usefixtures("fast_webhook_retries")
async def test_429s_and_5xx_on_interaction_callbacks_lose_no_answer(double: DiscordDouble) -> None:
    bot = make_bot()
    async with double.run(bot):
        double.fail_next("POST", CALLBACK, 503, count=1)
        answer = await (await double.send_slash("recommend", {"task": "kaggle", "budget": 500.0})).wait_response()
        assert answer.embeds
        double.fail_next("POST", CALLBACK, 429, count=12, retry_after=0.01)  # more than discord.py's five tries
        answer = await (await double.send_slash("info", {"gpu": "rtx-4090"})).wait_response()
        assert answer.embeds
        double.fail_next("POST", CALLBACK, 502, count=7)
        answer = await (await double.send_slash("info", {"gpu": "rtx-3090"})).wait_response()
        assert answer.embeds
    assert metric(bot, "gpu_advisor_undelivered_total", {"source": "command"}) == 0
    assert metric(bot, "gpu_advisor_reply_retries_total", {"source": "command"}) >= 2


@pytest.mark.usefixtures("fast_webhook_retries")
async def test_a_slow_answer_is_acknowledged_then_followed_up_through_5xx(
    double: DiscordDouble, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = make_bot()
    context_for = bot.context_for

    async def slow(guild_id: int | None) -> Any:
        await asyncio.sleep(3.2)  # past Discord's 3 s window: without "thinking…" at 1.5 s the interaction expires
        return await context_for(guild_id)

    monkeypatch.setattr(bot, "context_for", slow)
    async with double.run(bot):
        double.fail_next("POST", FOLLOWUP, 503, count=7)  # more than discord.py's five tries
        handle = await double.send_slash("recommend", {"task": "kaggle", "budget": 500.0})
        answer = await handle.wait_response(timeout=10)
        assert handle.callback is not None and handle.callback.callback_type == CB_DEFERRED_MESSAGE
        assert answer.embeds and answer.embeds[0]["title"] == "GPU recommendation"
    assert metric(bot, "gpu_advisor_deferred_total") == 1
    assert metric(bot, "gpu_advisor_undelivered_total", {"source": "command"}) == 0


@pytest.mark.parametrize("trouble", ["slow", "5xx"])
async def test_an_interaction_discord_expired_gets_its_answer_in_the_channel(
    double: DiscordDouble, trouble: str
) -> None:
    bot = make_bot()
    async with double.run(bot):
        if trouble == "slow":
            double.delay_next("POST", CALLBACK, 3.1)  # reaches "Discord" after its 3 s window: 404 10062
        else:
            double.fail_next("POST", CALLBACK, 502, count=3)  # discord.py waits 1 s, then 3 s: past the window
        handle = await double.send_slash("recommend", {"task": "kaggle", "budget": 500.0}, user="late")
        posted = await double.wait_for_message(double.channel.id, timeout=10)
        assert handle.callback is None
        assert posted.embeds and "/recommend" in (posted.content or "")
        assert str(user_named(double, "late").id) in (posted.content or "")  # names the user ...
        assert posted.effective_mentions()["users"] == set()  # ... and pings nobody
    assert metric(bot, "gpu_advisor_late_answers_total") == 1
    assert metric(bot, "gpu_advisor_undelivered_total", {"source": "command"}) == 0


# ---------------------------------------------------------------------------------------------- the process


async def _start(double: DiscordDouble, tmp: Path, **settings: str) -> asyncio.subprocess.Process:
    env = bot_env(double, **{"DATA_DIR": str(tmp), "LOG_JSON": "true", **settings})
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=ROOT,
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )


def _json_lines(stderr: str) -> list[dict[str, Any]]:
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert all(line.startswith("{") for line in lines), stderr  # no traceback, no stray text
    return [json.loads(line) for line in lines]


def _start_up_cases(tmp: Path) -> dict[str, tuple[dict[str, str], int]]:
    corrupt = tmp / "corrupt"
    corrupt.mkdir()
    (corrupt / "gpu-advisor.sqlite3").write_bytes(b"not a database " * 500)
    a_file = tmp / "a-file"
    a_file.write_text("not a directory")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        closed = sock.getsockname()[1]
    return {
        "corrupt SQLite file": ({"DATA_DIR": str(corrupt)}, EXIT_STORAGE),
        "DATA_DIR is a file": ({"DATA_DIR": str(a_file)}, EXIT_STORAGE),
        "PostgreSQL refusing": (
            {"DATABASE_URL": f"postgresql://postgres@127.0.0.1:{closed}/x", "DATABASE_START_TIMEOUT_SECONDS": "1"},
            EXIT_UNREACHABLE,
        ),
        "invalid setting": ({"SHUTDOWN_GRACE_SECONDS": "soon"}, EXIT_CONFIG),
    }


async def test_start_up_failures_are_one_json_line_and_an_exit_code(tmp_path: Path) -> None:
    async with DiscordDouble(guilds=[FakeGuild(name="ops")]) as double:
        cases = _start_up_cases(tmp_path)
        logs = {}
        for name, (env, _) in cases.items():  # one at a time: on a small machine that is faster
            proc = await _start(double, tmp_path, **env)
            stderr = (await asyncio.wait_for(proc.communicate(), timeout=30))[1].decode()
            assert proc.returncode == cases[name][1], (name, stderr)
            logs[name] = _json_lines(stderr)
            critical = [line for line in logs[name] if line["level"] == "CRITICAL"]
            assert len(critical) == 1, (name, stderr)
            assert critical[0]["cause"] and critical[0]["hint"] and critical[0]["exit_code"] == proc.returncode
            assert "double-token" not in stderr
    # Unreachable: retried with back-off for DATABASE_START_TIMEOUT_SECONDS first; unusable: no retry.
    assert [line["message"] for line in logs["PostgreSQL refusing"]].count("database not reachable yet; retrying") >= 2
    assert not any("retrying" in line["message"] for line in logs["corrupt SQLite file"])
    assert "damaged" in next(line["hint"] for line in logs["corrupt SQLite file"] if line["level"] == "CRITICAL")


async def _black_hole(port: int) -> asyncio.Server:
    """Accept connections on ``port`` and never answer (Discord unreachable: packets dropped)."""

    async def hold(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(Exception):
            await reader.read()
        writer.transport.abort()

    return await asyncio.start_server(hold, "127.0.0.1", port, reuse_address=True)


@pytest.mark.parametrize("discord_is", ["refusing", "black-holed"])
async def test_sigterm_while_discord_is_unreachable_exits_well_within_the_grace(
    tmp_path: Path, discord_is: str
) -> None:
    """The stop does not wait for discord.py's reconnect (a back-off, or a 60 s connect into a black
    hole): it ends by itself, logging "stopped", long before the last-resort cut at grace + 1.5 s.
    The grace is set long (30 s) so that "by itself" is told apart from "cut short" without timing
    the stop closely: a slow CI machine may take a few seconds to close, never 20."""
    double = await DiscordDouble(guilds=[FakeGuild(name="ops")], patch_discord=False).start()
    hole: asyncio.Server | None = None
    proc = await _start(double, tmp_path, SHUTDOWN_GRACE_SECONDS="30")
    try:
        await double.wait_ready(0, timeout=30)
        port = double.port
        assert port is not None
        await double.stop()  # the gateway closes; discord.py tries to resume, fails, and backs off
        if discord_is == "black-holed":
            hole = await _black_hole(port)
        await asyncio.sleep(2.5)  # well into reconnecting (refused: back-off sleeps; black hole: a 60 s connect)
        assert proc.returncode is None
        proc.send_signal(signal.SIGTERM)
        await asyncio.wait_for(proc.wait(), timeout=20)
        assert proc.returncode == 0
    finally:
        if proc.returncode is None:
            proc.kill()
        stderr = (await proc.communicate())[1].decode()
        if hole is not None:
            hole.close()
        await double.stop()
    messages = [line["message"] for line in _json_lines(stderr)]
    assert "stopped" in messages
    assert not any(message.startswith("stop took too long") for message in messages)
