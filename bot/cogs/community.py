"""/settings and /price: each server's defaults and the prices its members see in shops.

Only members with Manage Server change settings; only members with Manage Messages remove price
reports. Everything else is open to any member, rate-limited and validated by the store.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Literal

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.interactions import bot_of, command_cooldown, gpu_autocomplete, lang_of, resolve_gpu
from engine.catalog import load_catalog
from engine.money import exchange_rates

SAFE = discord.AllowedMentions.none()


def _escape(text: str) -> str:
    return discord.utils.escape_markdown(discord.utils.escape_mentions(text))


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
        lines = [
            f"Currency: {current.currency}",
            f"Electricity: {current.electricity_per_kwh} {current.currency}/kWh",
            f"Language: {current.locale or 'each member’s Discord language'}",
            f"Advice channel: {f'<#{current.advice_channel_id}>' if current.advice_channel_id else 'none'}",
            f"Community prices: {'on' if current.use_community_prices else 'off'}",
        ]
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
        gpu_id = resolve_gpu(gpu, lang_of(interaction))
        guild = await bot.store.settings.get(interaction.guild_id)
        code = (currency or guild.currency).upper()
        saved = await bot.store.prices.report(
            interaction.guild_id, interaction.user.id, gpu_id, Decimal(str(amount)), code, condition, where
        )
        bot.forget_prices(interaction.guild_id)
        name = load_catalog().get(gpu_id).short_name
        await interaction.response.send_message(
            f"Thanks — recorded {saved.price.format()} ({condition}) for the {name} as report #{saved.id}.",
            ephemeral=True,
            allowed_mentions=SAFE,
        )

    @price.command(name="show", description="What members paid for a GPU, beside the catalog price")
    @app_commands.describe(gpu="the GPU", condition="new or used")
    @app_commands.autocomplete(gpu=gpu_autocomplete)
    @app_commands.checks.dynamic_cooldown(command_cooldown)
    async def show(
        self, interaction: discord.Interaction, gpu: str, condition: Literal["new", "used"] | None = None
    ) -> None:
        bot = bot_of(interaction)
        gpu_id = resolve_gpu(gpu, lang_of(interaction))
        guild = await bot.store.settings.get(interaction.guild_id)
        summary = await bot.store.prices.price_summary(
            gpu_id, interaction.guild_id, currency=guild.currency, convert=exchange_rates().convert, condition=condition
        )
        card = load_catalog().get(gpu_id)
        catalog = load_catalog().price_entry(gpu_id)
        snap = load_catalog().snapshot()
        catalog_line = (
            f"Catalog ({snap.date:%Y-%m-%d}): "
            + ", ".join(f"{k} ${v:,.0f}" for k, v in (("new", catalog.new), ("used", catalog.used)) if v is not None)
            if catalog
            else "Catalog: no price"
        )
        embed = discord.Embed(title=f"{card.short_name}: community prices", colour=0x76B900)
        for scope in (summary.guild, summary.everywhere):
            if scope is None:
                continue
            label = "This server" if scope.scope == "guild" else "All servers"
            value = f"{scope.median.format()} — {scope.describe()}" if scope.median else scope.describe()
            embed.add_field(name=label, value=value[:1024], inline=False)
        embed.add_field(name="Catalog", value=catalog_line[:1024], inline=False)
        embed.set_footer(text=f"Last {summary.window_days} days · one report per member · outliers (MAD) left out")
        await interaction.response.send_message(embed=embed, allowed_mentions=SAFE)

    @price.command(name="remove", description="Remove a price report (Manage Messages)")
    @app_commands.describe(report_id="the report's number", reason="why (optional)")
    @app_commands.checks.has_permissions(manage_messages=True)
    async def remove(
        self,
        interaction: discord.Interaction,
        report_id: app_commands.Range[int, 1, 2**62],
        reason: app_commands.Range[str, 0, 200] = "",
    ) -> None:
        bot = bot_of(interaction)
        removed = await bot.store.prices.remove(
            report_id, moderator_id=interaction.user.id, reason=reason or None, guild_id=interaction.guild_id
        )
        bot.forget_prices(interaction.guild_id)
        await interaction.response.send_message(
            f"Removed report #{removed.id} ({removed.price.format()} for {removed.gpu_id}).",
            ephemeral=True,
            allowed_mentions=SAFE,
        )

    @price.command(name="list", description="Recent reports for a GPU, with their numbers")
    @app_commands.describe(gpu="the GPU")
    @app_commands.autocomplete(gpu=gpu_autocomplete)
    async def recent(self, interaction: discord.Interaction, gpu: str) -> None:
        bot = bot_of(interaction)
        gpu_id = resolve_gpu(gpu, lang_of(interaction))
        reports = await bot.store.prices.recent(gpu_id=gpu_id, guild_id=interaction.guild_id, limit=15)
        lines = [
            f"#{r.id} {r.price.format()} {r.condition} {r.reported_at:%Y-%m-%d} {_escape(r.where)[:60]}"
            for r in reports
        ] or ["No reports yet."]
        await interaction.response.send_message("\n".join(lines)[:2000], ephemeral=True, allowed_mentions=SAFE)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Community(bot))
