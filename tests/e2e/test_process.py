"""The bot as operators run it: `python -m bot` in its own process, stopped with SIGTERM."""

from __future__ import annotations

import asyncio
import json
import signal
import sys
import time
from pathlib import Path

from .bot_process import bot_env
from .discord_double import DiscordDouble, FakeGuild

ROOT = Path(__file__).resolve().parents[2]


async def test_sigterm_finishes_in_flight_answers_and_exits_0_within_10s(tmp_path: Path) -> None:
    guild = FakeGuild(name="ops")
    async with DiscordDouble(guilds=[guild], interaction_timeout=None) as double:
        env = bot_env(double, DISCORD_TOKEN="ops-token", DATA_DIR=str(tmp_path), LOG_JSON="true", HEALTH_PORT="18793")
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            cwd=ROOT,
            env=env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        try:
            await double.wait_ready(0, timeout=60)
            for _ in range(600):
                if double.find_command("recommend") is not None:
                    break
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.3)
            reader, writer = await asyncio.open_connection("127.0.0.1", 18793)
            writer.write(b"GET /healthz HTTP/1.0\r\n\r\n")
            health = (await reader.read()).decode()
            writer.close()
            assert " 200 " in health.splitlines()[0] and '"database": true' in health

            # The reply's first POST is rate-limited for 1 s, so the answer is surely in flight at SIGTERM.
            double.fail_next("POST", r"/channels/\d+/messages", 429, retry_after=1.0)
            await double.send_message(
                guild.channel.id,
                f"<@{double.bot_user.id}> which GPU for Kaggle under $500?",
                mentions=[double.bot_user.id],
            )
            await double.wait_for_request("POST", r"/channels/\d+/messages", count=1, timeout=10)
            proc.send_signal(signal.SIGTERM)
            started = time.monotonic()
            reply = await double.wait_for_message(guild.channel.id, timeout=10)  # the in-flight answer
            assert reply.embeds
            await asyncio.wait_for(proc.wait(), timeout=10)
            assert proc.returncode == 0 and time.monotonic() - started < 10
        finally:
            if proc.returncode is None:
                proc.kill()
            stderr = (await proc.communicate())[1].decode()
        lines = [json.loads(line) for line in stderr.splitlines() if line.startswith("{")]
        assert lines and not [entry for entry in lines if entry["level"] in ("ERROR", "CRITICAL")], stderr
        assert "ops-token" not in stderr  # the token never reaches the logs
        answered = [entry for entry in lines if entry["message"] == "answered"]
        assert answered and answered[0]["guild"] == guild.id and answered[0]["latency_ms"] > 0
        assert answered[0].get("excerpt") is None  # no user text in the logs unless LOG_EXCERPTS=true
        messages = [entry["message"] for entry in lines]
        assert messages.index("stopping") < messages.index("answered") and messages[-1] == "stopped"
