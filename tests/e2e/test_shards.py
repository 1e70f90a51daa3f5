"""Two shard processes of the real bot against one PostgreSQL: each answers its own guilds, and
both write to the one database (community prices stay per server: one server's reports never show in
another's). Needs PostgreSQL (127.0.0.1:5432, trust auth); under CI (CI=true) a missing PostgreSQL is
a failure, not a skip."""

from __future__ import annotations

import asyncio
import os
import re
import sys
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest

from .bot_process import bot_env
from .discord_double import DiscordDouble, FakeGuild

ROOT = Path(__file__).resolve().parents[2]
ADMIN_URL = os.environ.get("TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test")


@pytest.fixture
async def database() -> AsyncIterator[str]:
    """A fresh PostgreSQL database for this test, dropped afterwards."""
    asyncpg = pytest.importorskip("asyncpg")
    try:
        admin = await asyncpg.connect(ADMIN_URL.replace("postgresql+asyncpg://", "postgresql://"), timeout=5)
    except (OSError, asyncpg.PostgresError) as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"PostgreSQL is required in CI: {exc}")
        pytest.skip(f"PostgreSQL not available: {exc}")
    name = f"gpu_advisor_shards_{uuid.uuid4().hex[:10]}"
    await admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield re.sub(r"/[^/]+$", f"/{name}", ADMIN_URL)
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


async def start_shard(double: DiscordDouble, shard: int, database_url: str, tmp: Path) -> asyncio.subprocess.Process:
    env = bot_env(
        double,
        DISCORD_TOKEN=f"shard-{shard}-token",
        DATABASE_URL=database_url,
        SHARD_COUNT="2",
        SHARD_IDS=str(shard),
        SYNC_COMMANDS="true" if shard == 0 else "false",
        COMMUNITY_PRICE_CACHE_SECONDS="0",
        LOG_JSON="true",
        DATA_DIR=str(tmp),
    )
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


def sender(double: DiscordDouble, channel_id: int) -> str:
    """Which process sent the last message to ``channel_id``, by the token it authenticated with."""
    posts = [r for r in double.requests if r.method == "POST" and r.path == f"/channels/{channel_id}/messages"]
    return posts[-1].headers.get("Authorization", "")


async def test_two_shard_processes_share_one_database(database: str, tmp_path: Path) -> None:
    even, odd = FakeGuild(name="even"), FakeGuild(name="odd")
    async with DiscordDouble(guilds=[even, odd], shard_count=2, interaction_timeout=None) as double:
        procs = [await start_shard(double, shard, database, tmp_path) for shard in (0, 1)]
        try:
            await double.wait_ready(0, timeout=60)
            await double.wait_ready(1, timeout=60)
            for _ in range(600):  # shard 0 syncs the commands once its client is ready
                if double.find_command("price") is not None:
                    break
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.5)
            assert sorted(i["token"] for i in double.identifies) == ["shard-0-token", "shard-1-token"]

            for guild in (even, odd):
                await double.send_message(
                    guild.channel.id,
                    f"<@{double.bot_user.id}> PSU for 4x 3090?",
                    guild_id=guild.id,
                    mentions=[double.bot_user.id],
                )
                assert (await double.wait_for_message(guild.channel.id, timeout=20)).embeds
            assert sender(double, even.channel.id).endswith("shard-0-token")
            assert sender(double, odd.channel.id).endswith("shard-1-token")

            admin = discord.Permissions(manage_guild=True)
            for guild in (even, odd):
                settings = await double.send_slash(
                    "settings", {"community_prices": True}, guild_id=guild.id, permissions=admin
                )
                await settings.wait_response(timeout=20)
            for i, user in enumerate(("u1", "u2", "u3")):  # reported in one server, through shard 0
                handle = await double.send_slash(
                    "price report",
                    {"gpu": "rtx-3090", "amount": 350.0 + 10 * i, "condition": "used", "currency": "USD"},
                    guild_id=even.id,
                    user=user,
                )
                assert "recorded" in (await handle.wait_response(timeout=20)).content
            handle = await double.send_slash(
                "price report",
                {"gpu": "rtx-3090", "amount": 900.0, "condition": "used", "currency": "USD"},
                guild_id=odd.id,
                user="u4",
            )
            assert "recorded" in (await handle.wait_response(timeout=20)).content  # through shard 1
            shown = await (await double.send_slash("price show", {"gpu": "rtx-3090"}, guild_id=odd.id)).wait_response(
                timeout=20
            )
            fields = {f["name"]: f["value"] for f in shown.embeds[0]["fields"]}
            assert "$900" in fields["This server"] and "$360" not in str(fields)  # per server: even's stay even's
            from bot.store import open_store

            store = await open_store(database)  # both processes wrote to the one database
            try:
                assert (await store.prices.price_overrides(even.id))["rtx-3090"].usd == 360
                assert {r.guild_id for r in await store.prices.recent(gpu_id="rtx-3090")} == {even.id, odd.id}
            finally:
                await store.close()
        finally:
            for proc in procs:
                if proc.returncode is None:
                    proc.terminate()
            errors = [(await proc.communicate())[1].decode() for proc in procs]
        assert [await_code for await_code in (p.returncode for p in procs)] == [0, 0]  # graceful SIGTERM
        assert not any("Traceback" in e for e in errors), errors
