"""The baseline for bench/e2e_bench.py: the least a discord.py bot can do for the same events —
reply to a mention with a fixed line, answer a /ping slash command and a click with it. Same library, same double,
same intents and allowed_mentions as GPU Advisor, no engine.

``--rich`` replies with one real GPU Advisor answer instead (its embed and six buttons, rendered
once at start): what carrying an answer of that shape through discord.py costs, with no work behind it."""

from __future__ import annotations

import asyncio
import logging
import os
import sys

import discord
import yarl
from discord import app_commands


class EchoBot(discord.AutoShardedClient):
    def __init__(self, reply: dict) -> None:
        intents = discord.Intents.none()
        intents.guilds = intents.guild_messages = intents.dm_messages = True
        super().__init__(
            intents=intents,
            allowed_mentions=discord.AllowedMentions.none(),
            guild_ready_timeout=0.05,
            chunk_guilds_at_startup=False,
            member_cache_flags=discord.MemberCacheFlags.none(),
            max_messages=None,
        )
        self.tree = app_commands.CommandTree(self)

        @self.tree.command(name="ping", description="pong")
        async def ping(interaction: discord.Interaction, text: str = "pong") -> None:
            await interaction.response.send_message(**(reply or {"content": text}))

        self.reply = reply or {"content": "echo"}

    async def setup_hook(self) -> None:
        await self.tree.sync()

    async def on_ready(self) -> None:
        logging.getLogger("echo").warning("ready as %s", self.user)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A click (component interaction): answered like a command, with the same reply."""
        if interaction.type is discord.InteractionType.component:
            await interaction.response.send_message(**self.reply)

    async def on_message(self, message: discord.Message) -> None:
        if not message.author.bot and self.user in message.mentions:
            await message.reply(**self.reply, mention_author=False)


def rich_reply() -> dict:
    """A recommendation's reply as GPU Advisor sends it (embed, buttons, no pings)."""
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from bot.views import answer_message
    from engine.advisor import advise
    from engine.parse import parse

    return answer_message(advise(parse("which GPU for Kaggle under $500?").query), "en")


def main() -> None:
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="%(message)s")
    discord.http.Route.BASE = os.environ["DISCORD_API_BASE"]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["DISCORD_GATEWAY_URL"])
    asyncio.run(EchoBot(rich_reply() if "--rich" in sys.argv else {}).start(os.environ["DISCORD_TOKEN"]))


if __name__ == "__main__":
    main()
