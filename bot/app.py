"""The Discord bot: an ``AutoShardedBot`` subclass, its command tree and error handling.

Sharding works from day one: one process runs every shard by default, or the shards named in
``SHARD_IDS`` of ``SHARD_COUNT``. Only a process with ``SYNC_COMMANDS=true`` syncs commands.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
import traceback
from collections.abc import AsyncIterator
from typing import Any

import discord
from aiohttp import web
from discord import app_commands
from discord.ext import commands

from bot import charts
from bot import discord_internals as internals
from bot.chat import MemoryConversationStore, WriteThroughConversations
from bot.config import Settings
from bot.expiring import Expiring
from bot.i18n import Lang, Translator, from_discord, t
from bot.observability import Metrics, health_app, start_health_server
from bot.store import GuildSettings, Store, advice_context, open_store
from bot.views import DYNAMIC_ITEMS
from bot.words import render
from engine.advisor import AdviceContext
from engine.advisor import warm_up as warm_up_engine
from engine.errors import UserError

log = logging.getLogger("gpu_advisor")
SAFE = discord.AllowedMentions.none()
# The garbage collector's thresholds once the start-up heap is frozen. Python's default (700, 10, 10)
# spent ≈0.13 ms per answer collecting at full load, with 60 ms full collections; these spend ≈0.07 ms
# in ≈5 ms young collections, for 3 MB more RSS (bench/e2e_bench.py segments, GC time measured with
# gc.callbacks; docs/performance.md).
GC_THRESHOLDS = (10_000, 20, 20)
COGS = ("bot.cogs.advice", "bot.cogs.guide", "bot.cogs.chat", "bot.cogs.charts", "bot.cogs.community")


def point_at(settings: Settings) -> None:
    """Send REST and gateway traffic where the settings say (Discord, a proxy, or a local double)."""
    internals.point_at(settings.discord_api_base, settings.discord_gateway_url)


class AdvisorTree(app_commands.CommandTree):
    """Every command error ends here: one clear line for the user, the context in the log."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Refuse new work while shutting down; note when handling started, for the latency metric."""
        interaction.extras["started"] = time.perf_counter()
        chosen = await self.client.guild_lang(interaction.guild_id)  # type: ignore[attr-defined]
        if chosen:
            interaction.extras["lang"] = chosen  # a server-wide answer language overrides each member's
        return not getattr(self.client, "closing", False)

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        lang = interaction.extras.get("lang") or from_discord(interaction.locale)
        original = getattr(error, "original", error)
        if isinstance(error, app_commands.CommandOnCooldown):
            message = t(lang, "error.cooldown", seconds=f"{error.retry_after:.0f}")
        elif isinstance(original, UserError):  # what the user got wrong, in their (or the server's) language
            message = render(original.message, lang)
        elif isinstance(error, app_commands.MissingPermissions):
            need = ", ".join(p.replace("_", " ").title() for p in error.missing_permissions)
            message = t(lang, "error.permission", need=need)
        elif isinstance(error, app_commands.NoPrivateMessage):
            message = t(lang, "error.guild_only")
        elif isinstance(error, app_commands.CheckFailure):
            return  # shutting down: Discord shows its own "did not respond"
        else:
            message = t(lang, "error.generic")
            self.client.metrics.errors.labels("command").inc()  # type: ignore[attr-defined]
            log.error(
                "command failed",
                extra={
                    "command": interaction.command.qualified_name if interaction.command else None,
                    "guild": interaction.guild_id,
                    "error": "".join(traceback.format_exception(original)),
                },
            )
        await reply_ephemeral(interaction, discord.utils.escape_mentions(message))


async def reply_ephemeral(interaction: discord.Interaction, message: str) -> None:
    if interaction.response.is_done():
        await interaction.followup.send(message, ephemeral=True, allowed_mentions=SAFE)
    else:
        await interaction.response.send_message(message, ephemeral=True, allowed_mentions=SAFE)


class GpuAdvisorBot(commands.AutoShardedBot):
    def __init__(self, settings: Settings) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        intents.guild_messages = True
        intents.dm_messages = True
        intents.message_content = settings.message_content
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            tree_cls=AdvisorTree,
            intents=intents,
            allowed_mentions=SAFE,
            shard_count=settings.shard_count,
            shard_ids=settings.shard_ids,  # type: ignore[arg-type]  # None: every shard (discord.py's default)
            guild_ready_timeout=settings.guild_ready_timeout,
            chunk_guilds_at_startup=False,
            member_cache_flags=discord.MemberCacheFlags.none(),
            max_messages=None,
        )
        self.settings = settings
        self.conversations: MemoryConversationStore | WriteThroughConversations = MemoryConversationStore()
        self.store: Store | None = None
        self._prices: Expiring[dict] = Expiring(settings.community_price_cache_seconds)
        self._guild_settings: Expiring[GuildSettings] = Expiring(settings.settings_cache_seconds)
        self._contexts: Expiring[AdviceContext] = Expiring(settings.settings_cache_seconds)
        self._default_context = AdviceContext(
            currency=settings.default_currency, electricity_usd_per_kwh=settings.electricity_usd_per_kwh
        )
        self.metrics = Metrics()
        self.closing = False
        self.in_flight = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self._health: web.AppRunner | None = None
        self._warm = False
        self._warm_task: asyncio.Task[None] | None = None

    def _get_state(self, **options: Any) -> internals.SkipOwnMessages:  # type: ignore[override]
        return internals.connection_state(self, **options)

    @contextlib.asynccontextmanager
    async def answering(self) -> AsyncIterator[None]:
        """Wrap the work of one answer, so a graceful shutdown can wait for it to finish."""
        self.in_flight += 1
        self._idle.clear()
        try:
            yield
        finally:
            self.in_flight -= 1
            if self.in_flight == 0:
                self._idle.set()

    async def shutdown(self) -> None:
        """SIGTERM: stop taking events, let in-flight answers finish (up to the grace time), close."""
        self.closing = True
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._idle.wait(), timeout=self.settings.shutdown_grace_seconds)
        await self.close()

    async def close(self) -> None:
        self.closing = True
        if self._health is not None:
            await self._health.cleanup()
            self._health = None
        charts.shutdown()
        if self.store is not None:  # before the gateway closes: nothing may cancel it mid-way
            store, self.store = self.store, None
            if isinstance(self.conversations, WriteThroughConversations):
                await self.conversations.flush()
            await store.close()
        await super().close()

    async def health(self) -> dict[str, bool]:
        return {
            "gateway": self.is_ready() and not self.is_closed() and not self.closing,
            "database": self.store is not None and await self.store.ping(),
        }

    def refresh_metrics(self) -> None:
        for shard_id, shard in self.shards.items():
            if shard.latency == shard.latency:  # not NaN before the first heartbeat
                self.metrics.gateway_latency.labels(str(shard_id)).set(shard.latency)
        counts: dict[int, int] = {}
        for guild in self.guilds:
            counts[guild.shard_id] = counts.get(guild.shard_id, 0) + 1
        for shard_id in self.shards:
            self.metrics.guilds.labels(str(shard_id)).set(counts.get(shard_id, 0))

    async def context_for(self, guild_id: int | None) -> AdviceContext:
        """The engine's context for a server: its currency, electricity price and, when the server
        turned them on, community price medians. Cached as long as its settings are, so a repeated
        question meets the same context and the advisor's remembered answer."""
        if self.store is None:
            return self._default_context

        async def build() -> AdviceContext:
            guild = await self.guild_settings(guild_id)
            overrides = await self._community_prices(guild_id) if guild.use_community_prices else {}
            return advice_context(guild, price_overrides=overrides)

        return await self._contexts.get(guild_id, build)

    async def guild_settings(self, guild_id: int | None) -> GuildSettings:
        """A server's settings, cached for ``settings_cache_seconds`` (other shards see a change
        within that time; this process at once, see :meth:`forget_settings`)."""
        store = self.store
        assert store is not None, "callers check bot.store first"
        return await self._guild_settings.get(guild_id, lambda: store.settings.get(guild_id))

    def forget_settings(self, guild_id: int | None) -> None:
        self._guild_settings.forget(guild_id)
        self._prices.forget(guild_id)
        self._contexts.forget(guild_id)

    async def guild_lang(self, guild_id: int | None) -> Lang | None:
        """The server's chosen answer language, if a moderator set one."""
        if self.store is None or guild_id is None:
            return None
        return (await self.guild_settings(guild_id)).locale

    async def _community_prices(self, guild_id: int | None) -> dict:
        store = self.store
        assert store is not None, "callers check bot.store first"
        return await self._prices.get(guild_id, lambda: store.prices.price_overrides(guild_id))

    def forget_prices(self, guild_id: int | None) -> None:
        """A report or removal changed this server's medians."""
        self._prices.forget(guild_id)
        self._contexts.forget(guild_id)

    async def setup_hook(self) -> None:
        s = self.settings
        self.store = await open_store(
            s.database_url,
            data_dir=s.data_dir,
            guild_defaults=GuildSettings.bot_defaults(s.default_currency, s.electricity_usd_per_kwh),
        )
        self.conversations = WriteThroughConversations(self.store.conversations)
        await self.tree.set_translator(Translator())
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        for cog in COGS:
            await self.load_extension(cog)
        if self.settings.health_port:
            app = health_app(self.metrics, self.health, self.refresh_metrics)
            self._health = await start_health_server(app, self.settings.health_host, self.settings.health_port)
        if self.settings.sync_commands:
            synced = await self.tree.sync()
            log.info("synced %d application commands", len(synced))

    async def on_message(self, message: discord.Message) -> None:
        """No prefix commands: a mention is a question for the chat cog, never a command name."""

    async def on_ready(self) -> None:
        log.info("ready as %s in %d guilds (shards %s)", self.user, len(self.guilds), self.shard_ids)
        if not self._warm:
            self._warm = True
            self._warm_task = asyncio.create_task(self._warm_up())

    async def _warm_up(self) -> None:
        """After READY, off the event loop: load data, fill caches and, with CHARTS_WARM_UP=true, load
        matplotlib and fonts (≈55 MB; otherwise they load with the first chart). Then freeze
        what is left: the long-lived heap moves out of the garbage collector's way, so a full
        collection no longer stalls answers for a tenth of a second — and collect young objects
        in bigger, rarer batches (``GC_THRESHOLDS``)."""
        loop = asyncio.get_running_loop()
        work = [loop.run_in_executor(None, warm_up_engine)]
        if self.settings.charts_warm_up:
            work.append(loop.run_in_executor(None, charts.warm_up))
        await asyncio.gather(*work)
        gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
