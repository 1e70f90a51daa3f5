"""The Discord bot: an ``AutoShardedBot`` subclass, its command tree and error handling.

Sharding works from day one: one process runs every shard by default, or the shards named in
``SHARD_IDS`` of ``SHARD_COUNT``. Only a process with ``SYNC_COMMANDS=true`` syncs commands.

Answers never wait on the database (docs/operations.md, "When a dependency is down"): a server's
settings, language and community prices come from a cache; a look-up that takes longer than
``DATABASE_TIMEOUT_SECONDS`` or fails uses the value this process last saw, else the defaults, and
while the database is known to be down (``bot.store.db.Breaker``) it does not wait at all.
Every slash command gets a reply: a "thinking…" acknowledgement when its answer is slow, an error
line when it fails, "restarting" during shutdown.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import time
import traceback
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

import discord
from aiohttp import web
from discord import app_commands
from discord.ext import commands

from bot import charts
from bot import discord_internals as internals
from bot.chat import MemoryConversationStore, WriteThroughConversations
from bot.config import Settings
from bot.degrade import DegradeMetrics
from bot.expiring import Expiring
from bot.i18n import Lang, Translator, from_discord, t
from bot.interactions import acknowledge_now, mark_received, respond, watch_for_slow_answer
from bot.observability import Metrics, health_app, start_health_server, trace_memory_from_env
from bot.store import GuildSettings, Store, advice_context
from bot.store.conversations import QueuedConversations, within
from bot.store.db import Breaker, StoreUnavailable, is_unavailable
from bot.store.store import open_store_when_up
from bot.views import DYNAMIC_ITEMS
from bot.words import catalog as message_catalog
from bot.words import render
from engine.errors import UserError

if TYPE_CHECKING:
    from engine.advisor import AdviceContext

# The engine (parser, advisor) and the composer are not imported here: they load in the warm-up
# after READY (_warm_up), or with an answer that comes before it (start-up, issue #24;
# tests/bot/test_startup_imports.py).

log = logging.getLogger("gpu_advisor")
SAFE = discord.AllowedMentions.none()
# The garbage collector's thresholds once the start-up heap is frozen. Python's default (700, 10, 10)
# spent ≈0.13 ms per answer collecting at full load, with 60 ms full collections; these spend ≈0.07 ms
# in ≈5 ms young collections, for 3 MB more RSS (bench/e2e_bench.py segments, GC time measured with
# gc.callbacks; docs/performance.md).
GC_THRESHOLDS = (10_000, 20, 20)
# Answers worked on at once (built, rendered, being sent); more wait their turn in arrival order.
# A burst of 500 events all in the works at once (each answer with its embed, payload and HTTP
# connection) left ≈13 MB more high water in the process's RSS than 4, 32 or 128 at once (issue #24,
# docs/performance.md); at 100 events/s with a p99 of ≈20 ms two or three are in the works. Not fewer
# than 128: a reply waiting out a channel's rate limit (or retried on 429/5xx) keeps its slot, and
# one busy channel must not hold every slot while other channels' answers wait. The benches'
# GPU_ADVISOR_ANSWERS_AT_ONCE replaces it (0: no limit, as before).
ANSWERS_AT_ONCE = 128
COGS = ("bot.cogs.advice", "bot.cogs.guide", "bot.cogs.chat", "bot.cogs.charts", "bot.cogs.community")
# /healthz must answer within a second: the database check gets this long.
HEALTH_DB_SECONDS = 0.8
# A PostgreSQL statement on a connection that stopped answering fails after this long (asyncpg's
# command_timeout); generous, since start-up migrations run under it too.
STATEMENT_TIMEOUT_SECONDS = 30.0
# Closing: how long each step may take, so that SIGTERM always ends within Docker's 10 s.
CLOSE_STEP_SECONDS = 1.5
T = TypeVar("T")


def point_at(settings: Settings) -> None:
    """Send REST and gateway traffic where the settings say (Discord, a proxy, or a local double)."""
    internals.point_at(settings.discord_api_base, settings.discord_gateway_url)


class AdvisorTree(app_commands.CommandTree):
    """Every command error ends here: one clear line for the user, the context in the log."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Refuse new work while shutting down (saying so); note when handling started, for the
        latency metric; look up the server's language; make sure a slow answer is acknowledged
        in time; and free the interaction once handled (``internals.free_when_handled``). Never
        raises: discord.py does not pass an exception here to :meth:`on_error`, and the user would
        get nothing at all."""
        interaction.extras["started"] = time.perf_counter()
        mark_received(interaction)
        internals.free_when_handled(interaction)
        bot: GpuAdvisorBot = self.client  # type: ignore[assignment]
        autocomplete = interaction.type is discord.InteractionType.autocomplete
        try:
            if bot.closing:
                if not autocomplete:
                    lang = from_discord(interaction.locale)
                    await respond(interaction, {"content": t(lang, "error.restarting")}, ephemeral=True, source="error")
                return False
            if autocomplete:
                return True
            if watch_for_slow_answer(interaction):
                await acknowledge_now(interaction)  # it waited in a backlog: acknowledge before the work
            chosen = await bot.guild_lang(interaction.guild_id)
            if chosen:
                interaction.extras["lang"] = chosen  # a server-wide answer language overrides each member's
        except Exception:  # guild_lang degrades by itself; this is a bug, but the command still runs
            log.exception("interaction check failed", extra={"guild": interaction.guild_id})
        return True

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
            return  # shutting down: interaction_check said so
        elif isinstance(original, StoreUnavailable):
            # /settings, /price with the database down: not a bug, and not the user's fault.
            message = t(lang, "error.store_unavailable")
            self.client.degrade.store_unavailable.labels("command").inc()  # type: ignore[attr-defined]
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
    """A short line only the user sees: retried like an answer, never raising."""
    await respond(interaction, {"content": message, "allowed_mentions": SAFE}, ephemeral=True, source="error")


class GpuAdvisorBot(internals.LighterState, commands.AutoShardedBot):
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
        self._default: AdviceContext | None = None  # see _default_context
        self.metrics = Metrics()
        self.degrade = DegradeMetrics(self.metrics.registry)
        self.breaker = Breaker(on_change=self.degrade.database)
        self._conversation_writes: QueuedConversations | None = None
        self.closing = False
        self.in_flight = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self._answer_slots = _answer_slots()
        self._health: web.AppRunner | None = None
        self._warm = False
        self._warm_task: asyncio.Task[None] | None = None
        self._trace_memory: asyncio.Task[None] | None = None
        self._load_keys: asyncio.Task[None] | None = None
        self._charts_were_in_processes = charts.uses_processes()
        # Commands are synced after READY (see on_ready); wait_until_ready() waits for it too.
        self._commands_synced = asyncio.Event()
        self._sync_task: asyncio.Task[None] | None = None

    @contextlib.asynccontextmanager
    async def answering(self) -> AsyncIterator[None]:
        """Wrap the work of one answer, so a graceful shutdown can wait for it to finish (also while
        it waits for one of the ``ANSWERS_AT_ONCE`` slots)."""
        self.in_flight += 1
        self._idle.clear()
        try:
            async with self._answer_slots:
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
        """Close everything, each step bounded (``CLOSE_STEP_SECONDS``): a database or a Discord that
        stopped answering must not hold the process past its stop timeout."""
        self.closing = True
        if self._health is not None:
            health, self._health = self._health, None
            await _bounded("health server", health.cleanup())
        charts.shutdown()
        charts.use_processes(self._charts_were_in_processes)  # as it was before this bot (tests run several)
        self._commands_synced.set()
        for task in (self._load_keys, self._trace_memory, self._sync_task):
            if task is not None:
                task.cancel()
        if self.store is not None:  # before the gateway closes: nothing may cancel it mid-way
            store, self.store = self.store, None
            if isinstance(self.conversations, WriteThroughConversations):
                await _bounded("conversation flush", self.conversations.flush())
            if self._conversation_writes is not None:
                await _bounded("queued conversations", self._conversation_writes.close())
            await _bounded("database", store.close())
        await _bounded("discord", super().close())

    async def health(self) -> dict[str, bool]:
        """``/healthz``: within a second, whatever is down. The database check is a ping (at most
        ``HEALTH_DB_SECONDS``; at once while the database is known to be down)."""
        shards_up = all(not shard.is_closed() for shard in self.shards.values())
        store = self.store
        return {
            "gateway": self.is_ready() and not self.is_closed() and not self.closing and shards_up,
            "database": store is not None and await store.ping(timeout=HEALTH_DB_SECONDS),
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
        question meets the same context and the advisor's remembered answer. With the database
        down it is built from the last known settings and prices (else the defaults) and not kept,
        so the server's own context is back as soon as the database is."""
        if self.store is None:
            return self._default_context()

        async def build() -> AdviceContext:
            guild, fresh = await self._settings(guild_id)
            overrides: dict = {}
            if guild.use_community_prices:
                overrides, prices_fresh = await self._community_prices(guild_id)
                fresh = fresh and prices_fresh
            context = advice_context(guild, price_overrides=overrides)
            if not fresh:
                raise _Degraded(context)
            return context

        try:
            return await self._contexts.get(guild_id, build)
        except _Degraded as degraded:
            return degraded.context

    def _default_context(self) -> AdviceContext:
        """The context without a database: the bot's default currency and electricity price (built
        at first use, which loads the engine)."""
        if self._default is None:
            from engine.advisor import AdviceContext

            s = self.settings
            self._default = AdviceContext(
                currency=s.default_currency, electricity_usd_per_kwh=s.electricity_usd_per_kwh
            )
        return self._default

    async def guild_settings(self, guild_id: int | None) -> GuildSettings:
        """A server's settings, cached for ``settings_cache_seconds`` (other shards see a change
        within that time; this process at once, see :meth:`forget_settings`). Never waits on the
        database longer than ``DATABASE_TIMEOUT_SECONDS`` and never raises: see :meth:`_lookup`."""
        return (await self._settings(guild_id))[0]

    async def _settings(self, guild_id: int | None) -> tuple[GuildSettings, bool]:
        store = self.store
        if store is None:
            return self._fallback_settings(guild_id), False
        defaults = store.settings.defaults
        return await self._lookup(
            "settings",
            self._guild_settings,
            guild_id,
            lambda: store.settings.get(guild_id),
            lambda: defaults.model_copy(update={"guild_id": guild_id}),
        )

    def _fallback_settings(self, guild_id: int | None) -> GuildSettings:
        s = self.settings
        defaults = GuildSettings.bot_defaults(s.default_currency, s.electricity_usd_per_kwh)
        return defaults.model_copy(update={"guild_id": guild_id})

    async def _lookup(
        self,
        name: str,
        cache: Expiring[T],
        key: int | None,
        load: Callable[[], Awaitable[T]],
        default: Callable[[], T],
    ) -> tuple[T, bool]:
        """``cache.get(key, load)``, degraded: the value and whether it is fresh from the database.

        A load that fails or takes longer than ``DATABASE_TIMEOUT_SECONDS`` gives the value this
        process last saw for ``key``, else ``default()``; the fallback is counted
        (``gpu_advisor_store_fallbacks_total``), the outage logged once (by the breaker). While the
        database is known to be down no one waits: the load runs in the background, as the
        breaker's probe when one is due, and the answer goes out at once."""
        hit = cache.fresh(key)
        if hit is not None:  # the common case, without wait_for's task
            return hit, True
        if self.breaker.up:
            try:
                return await asyncio.wait_for(cache.get(key, load), self.settings.database_timeout_seconds), True
            except TimeoutError as error:
                self.breaker.failed(error)  # too slow for an answer counts as down until a probe says otherwise
            except Exception as error:
                if not is_unavailable(error):  # a bug, not an outage: the answer still goes out
                    log.exception("%s look-up failed", name, extra={"guild": key})
        else:
            cache.refresh(key, load)
        self.degrade.fallback(name)
        last = cache.last(key)
        return (last if last is not None else default()), False

    def forget_settings(self, guild_id: int | None) -> None:
        self._guild_settings.forget(guild_id)
        self._prices.forget(guild_id)
        self._contexts.forget(guild_id)

    async def guild_lang(self, guild_id: int | None) -> Lang | None:
        """The server's chosen answer language, if a moderator set one (never raises)."""
        if self.store is None or guild_id is None:
            return None
        return (await self.guild_settings(guild_id)).locale

    async def _community_prices(self, guild_id: int | None) -> tuple[dict, bool]:
        store = self.store
        if store is None:
            return {}, False
        return await self._lookup(
            "community_prices", self._prices, guild_id, lambda: store.prices.price_overrides(guild_id), dict
        )

    def forget_prices(self, guild_id: int | None) -> None:
        """A report or removal changed this server's medians."""
        self._prices.forget(guild_id)
        self._contexts.forget(guild_id)

    async def setup_hook(self) -> None:
        s = self.settings
        self._trace_memory = trace_memory_from_env(self)
        # Charts are drawn in a worker process (no event-loop stalls, matplotlib out of this process's
        # memory); CHARTS_IN_PROCESS=true draws them in a thread of this process instead.
        self._charts_were_in_processes = charts.uses_processes()
        charts.use_processes(os.environ.get("CHARTS_IN_PROCESS", "").lower() not in ("1", "true", "yes"))
        self.store = await open_store_when_up(
            s.database_url,
            wait=s.database_start_timeout_seconds,
            data_dir=s.data_dir,
            guild_defaults=GuildSettings.bot_defaults(s.default_currency, s.electricity_usd_per_kwh),
            breaker=self.breaker,
            timeout=s.database_connect_timeout_seconds,
            statement_timeout=STATEMENT_TIMEOUT_SECONDS,
        )
        self._conversation_writes = QueuedConversations(
            self.store.conversations,
            read_timeout=s.database_timeout_seconds,
            on_read_failed=lambda: self.degrade.fallback("conversation"),
            on_lost=self.degrade.conversations_lost.inc,
            # GPU_ADVISOR_CONVERSATION_KEYS=off reads every new key, as before (benchmarks: before/after).
            know_keys=os.environ.get("GPU_ADVISOR_CONVERSATION_KEYS", "on") != "off",
        )
        self.conversations = WriteThroughConversations(self._conversation_writes)
        # In the background: until the live keys are known, every new (user, channel) is read as before.
        self._load_keys = asyncio.create_task(self._conversation_writes.load_live_keys(), name="conversation-keys")
        await self.tree.set_translator(Translator())
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        for cog in COGS:
            await self.load_extension(cog)
        if self.settings.health_port:
            app = health_app(self.metrics, self.health, self.refresh_metrics)
            self._health = await start_health_server(app, self.settings.health_host, self.settings.health_port)
        if not self.settings.sync_commands:
            self._commands_synced.set()

    async def on_message(self, message: discord.Message) -> None:
        """No prefix commands: a mention is a question for the chat cog, never a command name."""

    async def on_ready(self) -> None:
        log.info("ready as %s in %d guilds (shards %s)", self.user, len(self.guilds), self.shard_ids)
        if not self._warm:
            self._warm = True
            if self.settings.sync_commands:
                self._sync_task = asyncio.create_task(self._sync_commands(), name="sync-commands")
            self._warm_task = asyncio.create_task(self._warm_up())

    async def wait_until_ready(self) -> None:
        """Ready: the gateway's READY, and the application commands synced (when this process syncs)."""
        await super().wait_until_ready()
        await self._commands_synced.wait()

    async def _sync_commands(self) -> None:
        """Upload the slash commands, after READY rather than before: Discord keeps the commands of the
        last sync, so the bot can answer them meanwhile, and translating every command's name and
        description into each language (the message catalogs) was ≈0.2 s of start-up at 10,000 guilds
        (docs/performance.md)."""
        try:
            synced = await self.tree.sync()
            log.info("synced %d application commands", len(synced))
        except Exception:
            log.exception("syncing application commands failed; the commands of the last sync stay")
        finally:
            self._commands_synced.set()

    async def _warm_up(self) -> None:
        """After READY, off the event loop: load data and the message catalogs, fill caches, and start
        the charts' worker process, which loads matplotlib and the fonts (so the first chart is as fast
        as any other; with CHARTS_IN_PROCESS=true they load here only with CHARTS_WARM_UP=true, ≈55 MB,
        else with the first chart). Then freeze
        what is left: the long-lived heap moves out of the garbage collector's way, so a full
        collection no longer stalls answers for a tenth of a second — and collect young objects
        in bigger, rarer batches (``GC_THRESHOLDS``)."""
        loop = asyncio.get_running_loop()
        work: list[Awaitable[Any]] = [
            loop.run_in_executor(None, warm_up_engine),
            loop.run_in_executor(None, message_catalog),
        ]
        if self.settings.charts_warm_up and not charts.uses_processes():
            work.append(loop.run_in_executor(None, charts.warm_up))  # matplotlib in this process: before the freeze
        results = await asyncio.gather(*work, return_exceptions=True)
        for result in results:
            if isinstance(result, BaseException):
                log.warning(
                    "warming up after READY failed", extra={"error": f"{type(result).__name__}: {result}"[:200]}
                )
        gc.collect()
        gc.freeze()
        gc.set_threshold(*_gc_thresholds())
        if charts.uses_processes():
            # The worker process loads matplotlib and the fonts (≈1 s of CPU at low priority, nothing
            # here), after the freeze: this process's collector must not wait for it.
            start = charts.warm_up if self.settings.charts_warm_up else charts.start_worker
            try:
                await loop.run_in_executor(None, start)
            except Exception as error:
                log.warning(
                    "starting the charts' worker failed", extra={"error": f"{type(error).__name__}: {error}"[:200]}
                )


# Questions whose replies the warm-up builds in every language (warm_up_replies).
WARM_UP_REPLIES = (
    "which GPU for Kaggle under $500?",
    "4090 vs 2x 3090",
    "can a 3060 12GB run llama 3 8b?",
    "what can my 3060 run?",
)


def warm_up_engine() -> None:
    """In the warm-up's thread: import the engine and the composer (not imported before READY), then
    load the data and fill the engine's caches (engine.advisor.warm_up), and build a few replies in every
    language (warm_up_replies)."""
    import bot.compose  # noqa: F401  # the composer: the first answer's embed needs it
    from engine.advisor import warm_up

    warm_up()
    warm_up_replies()


def warm_up_replies() -> None:
    """A few replies (embed and buttons) built in every language, here rather than by the first answers:
    the first reply in a language loaded Babel's data for it (a month is worded through Babel) on the
    event loop, 7-22 ms each (issue #24), a stall that every event behind it waited for. Nothing is
    remembered but what the composer's own bounded caches keep (months, rung names, cell widths)."""
    from bot.compose import compose
    from bot.embeds import document_embed
    from bot.locales import LANGS
    from bot.views import answer_view
    from engine.advisor import advise
    from engine.parse import parse

    for text in WARM_UP_REPLIES:
        answer = advise(parse(text).query)
        for lang in LANGS:
            document_embed(compose(answer, lang))
            view = answer_view(answer, lang)
            if view is not None:
                view.clear_items()  # each button points back at its view: freed at once, not by the collector


def _answer_slots() -> asyncio.Semaphore | contextlib.nullcontext[None]:
    """``ANSWERS_AT_ONCE`` slots, or ``GPU_ADVISOR_ANSWERS_AT_ONCE`` (for benchmarks; 0: no limit)."""
    at_once = int(os.environ.get("GPU_ADVISOR_ANSWERS_AT_ONCE", ANSWERS_AT_ONCE))
    return asyncio.Semaphore(at_once) if at_once > 0 else contextlib.nullcontext()


def _gc_thresholds() -> tuple[int, ...]:
    """``GC_THRESHOLDS``, or ``GPU_ADVISOR_GC_THRESHOLDS="a,b,c"`` (for benchmarks)."""
    text = os.environ.get("GPU_ADVISOR_GC_THRESHOLDS")
    return tuple(int(part) for part in text.split(",")) if text else GC_THRESHOLDS


class _Degraded(Exception):
    """A context built from fallbacks: handed to the callers of this load, but not cached."""

    def __init__(self, context: AdviceContext) -> None:
        super().__init__("degraded context")
        self.context = context


async def _bounded(what: str, work: Awaitable[Any]) -> None:
    """One step of closing, given up after ``CLOSE_STEP_SECONDS`` (logged, never raised)."""
    try:
        await within(CLOSE_STEP_SECONDS, work)
    except Exception as error:
        log.warning("closing: %s did not finish", what, extra={"error": f"{type(error).__name__}: {error}"[:200]})
