"""GPU Advisor (or the echo bot) in a process of its own against a double: the environment that
tests/e2e/test_process.py, test_shards.py and the bench scripts start it with."""

from __future__ import annotations

import os

from .discord_double import DiscordDouble


def bot_env(double: DiscordDouble, **settings: str) -> dict[str, str]:
    """This process's environment, the double's addresses, a token and settings that keep tests
    fast and answers unthrottled (no cooldowns, a short wait for guilds), then ``settings``."""
    return {
        **os.environ,
        **double.env,
        "DISCORD_TOKEN": "double-token",
        "GUILD_READY_TIMEOUT": "0.05",
        "CHAT_COOLDOWN_SECONDS": "0",
        "COMMAND_COOLDOWN_SECONDS": "0",
        **settings,
    }
