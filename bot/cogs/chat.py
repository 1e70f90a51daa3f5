"""/ask, mentions and DMs: questions in plain words, answered like a conversation.

A follow-up from the same user in the same channel refines the previous question. Reading every
message in an advice channel needs the privileged message-content intent (MESSAGE_CONTENT=true
and, for verified bots, Discord's approval); mentions and DMs work without it.

A reply is retried on 429/5xx for ``REPLY_RETRY_SECONDS`` (bot.degrade.deliver); a reply that
still cannot be sent is counted (``gpu_advisor_undelivered_total{source="chat"}``) and logged once.
"""

from __future__ import annotations

import logging
import re
import time
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands
from discord.utils import MISSING

from bot.chat import respond, understand
from bot.degrade import deliver, status_of
from bot.discord_internals import send_reply
from bot.i18n import Lang, t
from bot.interactions import command_cooldown, send_answer
from bot.observability import excerpt
from bot.views import answer_message

if TYPE_CHECKING:  # the engine loads after READY (the warm-up) or with the first question (issue #24)
    from engine.answer import Answer

log = logging.getLogger("gpu_advisor.chat")
SAFE = discord.AllowedMentions.none()
MENTION = re.compile(r"<@!?\d+>")


async def reply(
    message: discord.Message,
    content: str | None = None,
    *,
    embed: discord.Embed = MISSING,
    view: discord.ui.View = MISSING,
    allowed_mentions: discord.AllowedMentions = SAFE,
) -> None:
    """Post a reply to ``message`` (the keywords are ``answer_message``'s) that pings nobody, not
    even the author it answers (see bot.discord_internals.send_reply)."""
    await send_reply(message, content, embed=embed, view=view, allowed_mentions=allowed_mentions)


class Chat(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        seconds = bot.settings.chat_cooldown_seconds  # type: ignore[attr-defined]
        self.cooldowns = commands.CooldownMapping.from_cooldown(1, seconds, commands.BucketType.user)
        self.warned: set[int] = set()

    async def _deliver(self, message: discord.Message, guild_id: int | None, **kwargs: Any) -> bool:
        """``reply(message, **kwargs)``, retried on 429/5xx for ``REPLY_RETRY_SECONDS``; False (counted
        and logged once) when it could not be delivered. Never raises but for cancellation."""
        bot = self.bot
        metrics = bot.degrade  # type: ignore[attr-defined]
        try:
            await deliver(
                lambda: reply(message, **kwargs),
                until=time.monotonic() + bot.settings.reply_retry_seconds,  # type: ignore[attr-defined]
                on_retry=lambda error: metrics.reply_retries.labels("chat").inc(),
            )
        except Exception as error:
            metrics.undelivered.labels("chat").inc()
            log.error("answer not delivered", extra={"source": "chat", "guild": guild_id, "status": status_of(error)})
            return False
        return True

    async def answer(self, text: str, user_id: int, channel_id: int, guild_id: int | None) -> tuple[Answer, Lang]:
        """Parse (refining this user's last question in this channel) and advise."""
        bot = self.bot
        key = (user_id, channel_id)
        context = await bot.context_for(guild_id)  # type: ignore[attr-defined]
        result = understand(text, await bot.conversations.get(key), context.currency)  # type: ignore[attr-defined]
        await bot.conversations.put(key, result.query)  # type: ignore[attr-defined]
        answer = respond(result, context)
        return answer, await bot.guild_lang(guild_id) or result.language  # type: ignore[attr-defined]

    @app_commands.command(name="ask", description=_("Ask anything about buying a GPU"))
    @app_commands.describe(question="your question, in English or Chinese")
    @app_commands.checks.dynamic_cooldown(command_cooldown)
    async def ask(self, interaction: discord.Interaction, question: app_commands.Range[str, 1, 2000]) -> None:
        answer, lang = await self.answer(
            question, interaction.user.id, interaction.channel_id or 0, interaction.guild_id
        )
        await send_answer(interaction, answer, lang)

    async def _addressed(self, message: discord.Message) -> bool:
        """DMs, mentions, and — with the message-content intent — the server's advice channels."""
        bot = self.bot
        if message.guild is None:
            return True
        if bot.user is not None and bot.user in message.mentions:
            return True
        settings = bot.settings  # type: ignore[attr-defined]
        if not settings.message_content:
            return False
        if message.channel.id in settings.advice_channel_ids:
            return True
        if bot.store is None:  # type: ignore[attr-defined]
            return False
        # Every message of the server passes here: the cached settings, not a database query each.
        return (await bot.guild_settings(message.guild.id)).advice_channel_id == message.channel.id  # type: ignore[attr-defined]

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        bot = self.bot
        if message.author.bot or getattr(bot, "closing", False) or not await self._addressed(message):
            return
        text = MENTION.sub(" ", message.content).strip()
        bucket = self.cooldowns.get_bucket(message)
        retry = bucket.update_rate_limit() if bucket else None
        lang: Lang = "en"
        guild_id = message.guild.id if message.guild else None
        if retry:
            if message.author.id not in self.warned:  # say it once, don't spam the channel
                self.warned.add(message.author.id)
                await self._deliver(message, guild_id, content=t(lang, "error.cooldown", seconds=f"{retry:.0f}"))
            return
        self.warned.discard(message.author.id)
        if not text:
            await self._deliver(message, guild_id, content=t(lang, "empty.question"))
            return
        from engine.parse import LIMIT as PARSE_LIMIT

        started = time.perf_counter()
        async with bot.answering():  # type: ignore[attr-defined]
            try:
                answer, lang = await self.answer(text[:PARSE_LIMIT], message.author.id, message.channel.id, guild_id)
            except Exception:
                bot.metrics.errors.labels("chat").inc()  # type: ignore[attr-defined]
                log.exception("chat answer failed", extra={"guild": guild_id, "excerpt": excerpt(text)})
                await self._deliver(message, guild_id, content=t(lang, "error.generic"))
                return
            if not await self._deliver(message, guild_id, **answer_message(answer, lang)):
                return
        latency = time.perf_counter() - started
        bot.metrics.answered("chat", answer.kind, latency)  # type: ignore[attr-defined]
        if log.isEnabledFor(logging.INFO):  # the excerpt is work; skip it when the record would be dropped
            log.info(
                "answered",
                extra={
                    "source": "chat",
                    "guild": guild_id,
                    "kind": answer.kind,
                    "lang": lang,
                    "latency_ms": round(latency * 1000, 1),
                    "excerpt": excerpt(text),
                },
            )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Chat(bot))
