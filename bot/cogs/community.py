"""/settings and /price: each server's defaults and the prices its members see in shops.

Only members with Manage Server change settings; only members with Manage Messages remove price
reports. Everything else is open to any member, rate-limited and validated by the store.

Every command here is about one server, so each refuses a DM with its own check (``in_a_server``)
as well as telling Discord so (``guild_only``): Discord's setting hides a command in DMs, but an
invocation that arrives anyway (an old client, a command synced before the setting) must not store
a report that belongs to no server, or list and remove other servers' reports. Every word comes from
``data/locales/messages/community.yaml`` in the member's (or the server's) language.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Literal

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.i18n import Lang, t
from bot.interactions import bot_of, command_cooldown, gpu_autocomplete, lang_of, resolve_gpu
from bot.store import GuildSettings, PriceSummary, ScopeSummary
from bot.store.prices import MIN_REPORTERS
from engine.catalog import load_catalog
from engine.message import Msg, msg
from engine.money import exchange_rates

SAFE = discord.AllowedMentions.none()
LIST_LIMIT = 15
WHERE_SHOWN = 60
MESSAGE_MAX = 2000  # Discord's content limit


def _escape(text: str) -> str:
    return discord.utils.escape_markdown(discord.utils.escape_mentions(text))


def _in_a_server(interaction: discord.Interaction) -> bool:
    """The bot's own guild-only check: a DM invocation is refused with ``error.guild_only``
    (``AdvisorTree.on_error`` says it in the member's language) before anything is read or stored."""
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    return True


in_a_server = app_commands.check(_in_a_server)


def settings_lines(current: GuildSettings, lang: Lang) -> list[str]:
    """``/settings``' summary of the server's settings as they now are."""
    language = (
        t(lang, f"community.language.{current.locale}") if current.locale else t(lang, "community.language.member")
    )
    channel = (
        f"<#{current.advice_channel_id}>" if current.advice_channel_id else t(lang, "community.settings.no_channel")
    )
    state = t(lang, "community.settings.on" if current.use_community_prices else "community.settings.off")
    return [
        t(lang, "community.settings.currency", currency=current.currency),
        t(lang, "community.settings.electricity", price=str(current.electricity_per_kwh), currency=current.currency),
        t(lang, "community.settings.language", language=language),
        t(lang, "community.settings.advice_channel", channel=channel),
        t(lang, "community.settings.community_prices", state=state),
    ]


def _dates(scope: ScopeSummary) -> Msg:
    if scope.first is None or scope.last is None or scope.first == scope.last:
        return msg("community.show.dates_one", first=scope.first)
    return msg("community.show.dates", first=scope.first, last=scope.last)


def scope_line(scope: ScopeSummary, lang: Lang) -> str:
    """ "$360 — median of 3 reports in this server (2026-11-02 – 2026-11-30) · 1 outlier left out"."""
    if scope.median is None:
        return t(lang, "community.show.none")
    key = "community.show.median_one" if scope.count == 1 else "community.show.median"
    text = t(lang, key, price=scope.median, count=scope.count, dates=_dates(scope))
    outliers = len(scope.outliers)
    if outliers:
        more = "community.show.outliers_one" if outliers == 1 else "community.show.outliers"
        text += " · " + t(lang, more, count=outliers)
    return text


def catalog_prices(gpu_id: str) -> tuple[Msg, ...]:
    """The prices answers use when no community median applies: new (or launch) and used, dated."""
    from engine.cost import price_quote  # engine.cost (numpy) loads on first use, not at start-up (issue #24)

    out = []
    for condition in ("new", "used"):
        quote = price_quote(gpu_id, condition=condition)
        if quote is not None and (quote.basis == condition or (condition == "new" and quote.basis == "launch")):
            out.append(
                msg(
                    "community.show.catalog_price",
                    condition=msg(f"community.condition.{condition}"),
                    usd=quote.usd,
                    date=quote.date,
                )
            )
    return tuple(out)


def show_embed(summary: PriceSummary, lang: Lang) -> discord.Embed:
    """``/price show``: this server's median beside the catalog price. Other servers' reports are
    neither counted nor shown (community prices are per server, see bot.store.prices)."""
    card = load_catalog().get(summary.gpu_id)
    prices = catalog_prices(summary.gpu_id)
    catalog_line = (
        t(lang, "community.show.catalog_prices", prices=prices) if prices else t(lang, "community.show.catalog_none")
    )
    embed = discord.Embed(title=t(lang, "community.show.title", gpu=card.short_name)[:256], colour=0x76B900)
    if summary.guild is not None:
        embed.add_field(
            name=t(lang, "community.show.this_server"), value=scope_line(summary.guild, lang)[:1024], inline=False
        )
    embed.add_field(name=t(lang, "community.show.catalog"), value=catalog_line[:1024], inline=False)
    embed.set_footer(text=t(lang, "community.show.footer", days=summary.window_days, reporters=MIN_REPORTERS))
    return embed


class Community(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="settings", description=_("This server's defaults (Manage Server)"))
    @app_commands.describe(
        currency="ISO code for budgets and prices, e.g. EUR",
        electricity="price per kWh in that currency",
        language="answer language for everyone here",
        advice_channel="a channel where every message is answered (needs the message-content intent)",
        community_prices="use members' price reports for performance per dollar",
    )
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.checks.has_permissions(manage_guild=True)
    @in_a_server
    async def settings(
        self,
        interaction: discord.Interaction,
        currency: app_commands.Range[str, 3, 3] | None = None,
        electricity: app_commands.Range[float, 0.0, 100.0] | None = None,
        language: Literal["en", "zh-Hant", "zh-Hans"] | None = None,
        advice_channel: discord.TextChannel | None = None,
        community_prices: bool | None = None,
    ) -> None:
        store = bot_of(interaction).store
        assert store is not None and interaction.guild_id is not None  # started; in_a_server
        changes: dict = {}
        if currency is not None:
            changes["currency"] = currency.upper()
        if electricity is not None:
            changes["electricity_per_kwh"] = Decimal(str(electricity))
        if language is not None:
            changes["locale"] = language
        if advice_channel is not None:
            changes["advice_channel_id"] = advice_channel.id
        if community_prices is not None:
            changes["use_community_prices"] = community_prices
        if changes:
            current = await store.settings.set(interaction.guild_id, by=interaction.user.id, **changes)
            bot_of(interaction).forget_settings(interaction.guild_id)
        else:
            current = await store.settings.get(interaction.guild_id)
        lines = settings_lines(current, current.locale or lang_of(interaction))  # a new language shows at once
        await interaction.response.send_message("\n".join(lines), ephemeral=True, allowed_mentions=SAFE)

    price = app_commands.Group(name="price", description="Prices members saw in shops", guild_only=True)

    @price.command(name="report", description="Report a price you saw")
    @app_commands.describe(
        gpu="the GPU",
        amount="the price",
        currency="ISO code (default: this server's)",
        condition="new or used",
        where="shop or listing (optional, ≤ 200 characters)",
    )
    @app_commands.autocomplete(gpu=gpu_autocomplete)
    @app_commands.checks.dynamic_cooldown(command_cooldown)
    @in_a_server
    async def report(
        self,
        interaction: discord.Interaction,
        gpu: str,
        amount: app_commands.Range[float, 0.01, 100_000_000.0],
        condition: Literal["new", "used"],
        currency: app_commands.Range[str, 3, 3] | None = None,
        where: app_commands.Range[str, 0, 1000] = "",
    ) -> None:
        bot = bot_of(interaction)
        lang = lang_of(interaction)
        assert bot.store is not None and interaction.guild_id is not None  # started; in_a_server
        gpu_id = resolve_gpu(gpu, lang)
        guild = await bot.guild_settings(interaction.guild_id)
        code = (currency or guild.currency).upper()
        saved = await bot.store.prices.report(
            interaction.guild_id, interaction.user.id, gpu_id, Decimal(str(amount)), code, condition, where
        )
        bot.forget_prices(interaction.guild_id)
        name = load_catalog().get(gpu_id).short_name
        thanks = t(
            lang,
            "community.report.thanks",
            price=saved.price,
            condition=msg(f"community.condition.{saved.condition}"),
            gpu=name,
            id=saved.id,
        )
        await interaction.response.send_message(thanks, ephemeral=True, allowed_mentions=SAFE)

    @price.command(name="show", description="What members paid for a GPU, beside the catalog price")
    @app_commands.describe(gpu="the GPU", condition="new or used")
    @app_commands.autocomplete(gpu=gpu_autocomplete)
    @app_commands.checks.dynamic_cooldown(command_cooldown)
    @in_a_server
    async def show(
        self, interaction: discord.Interaction, gpu: str, condition: Literal["new", "used"] | None = None
    ) -> None:
        bot = bot_of(interaction)
        lang = lang_of(interaction)
        assert bot.store is not None and interaction.guild_id is not None  # started; in_a_server
        gpu_id = resolve_gpu(gpu, lang)
        guild = await bot.guild_settings(interaction.guild_id)
        summary = await bot.store.prices.price_summary(
            gpu_id, interaction.guild_id, currency=guild.currency, convert=exchange_rates().convert, condition=condition
        )
        await interaction.response.send_message(embed=show_embed(summary, lang), allowed_mentions=SAFE)

    @price.command(name="remove", description="Remove a price report (Manage Messages)")
    @app_commands.describe(report_id="the report's number", reason="why (optional)")
    @app_commands.checks.has_permissions(manage_messages=True)
    @in_a_server
    async def remove(
        self,
        interaction: discord.Interaction,
        report_id: app_commands.Range[int, 1, 2**62],
        reason: app_commands.Range[str, 0, 200] = "",
    ) -> None:
        bot = bot_of(interaction)
        assert bot.store is not None and interaction.guild_id is not None  # started; in_a_server
        removed = await bot.store.prices.remove(
            report_id, moderator_id=interaction.user.id, reason=reason or None, guild_id=interaction.guild_id
        )
        bot.forget_prices(interaction.guild_id)
        catalog = load_catalog()
        name = catalog.get(removed.gpu_id).short_name if removed.gpu_id in catalog.gpus else removed.gpu_id
        words = t(lang_of(interaction), "community.removed", id=removed.id, price=removed.price, gpu=name)
        await interaction.response.send_message(words, ephemeral=True, allowed_mentions=SAFE)

    @price.command(name="list", description="Recent reports for a GPU, with their numbers")
    @app_commands.describe(gpu="the GPU")
    @app_commands.autocomplete(gpu=gpu_autocomplete)
    @app_commands.checks.dynamic_cooldown(command_cooldown)
    @in_a_server
    async def recent(self, interaction: discord.Interaction, gpu: str) -> None:
        bot = bot_of(interaction)
        lang = lang_of(interaction)
        assert bot.store is not None and interaction.guild_id is not None  # started; in_a_server
        gpu_id = resolve_gpu(gpu, lang)
        reports = await bot.store.prices.recent(gpu_id=gpu_id, guild_id=interaction.guild_id, limit=LIST_LIMIT)
        lines = [
            t(
                lang,
                "community.list.line",
                id=r.id,
                price=r.price,
                condition=msg(f"community.condition.{r.condition}"),
                date=r.reported_at.date(),
                where=_escape(r.where[:WHERE_SHOWN]),
            ).rstrip()
            for r in reports
        ] or [t(lang, "community.list.none")]
        await interaction.response.send_message("\n".join(lines)[:MESSAGE_MAX], ephemeral=True, allowed_mentions=SAFE)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Community(bot))
