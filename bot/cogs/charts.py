"""/chart: the guide's charts for a chosen set of cards, a budget, a build or a model."""

from __future__ import annotations

import io
from decimal import Decimal
from typing import Literal

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot import charts
from bot.interactions import (
    advise,
    bot_of,
    command_cooldown,
    gpu_autocomplete,
    lang_of,
    model_autocomplete,
    resolve_gpu,
)
from bot.options import BUDGET_MAX, BUDGET_MIN, HOURS_MAX, HOURS_MIN, MODEL_MAX
from bot.views import SAFE, send_chart
from engine.errors import UserError
from engine.money import Money
from engine.query import Query, Task

ChartKind = Literal["performance", "value", "breakeven", "power", "memory"]
MAX_GPUS = 8


class Charts(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="chart", description=_("Draw one of the guide's charts"))
    @app_commands.describe(
        kind="which chart",
        gpus="cards, comma-separated (performance)",
        gpu="one card",
        task="what you'll do (value)",
        budget="USD for the GPUs (value)",
        count="how many GPUs",
        hours_per_day="hours of use a day (breakeven)",
        model="e.g. Llama 3 8B (memory)",
    )
    @app_commands.autocomplete(gpu=gpu_autocomplete, model=model_autocomplete)
    @app_commands.checks.dynamic_cooldown(command_cooldown)
    async def chart(
        self,
        interaction: discord.Interaction,
        kind: ChartKind,
        gpus: app_commands.Range[str, 1, 200] | None = None,
        gpu: str | None = None,
        task: Task | None = None,
        budget: app_commands.Range[float, BUDGET_MIN, BUDGET_MAX] | None = None,
        count: app_commands.Range[int, 1, 16] = 1,
        hours_per_day: app_commands.Range[float, HOURS_MIN, HOURS_MAX] = 3.6,
        model: app_commands.Range[str, 1, MODEL_MAX] | None = None,
    ) -> None:
        lang = lang_of(interaction)
        context = await bot_of(interaction).context_for(interaction.guild_id)
        if kind == "performance":
            names = [n.strip() for n in (gpus or gpu or "rtx 4090, rtx 3090, rtx 4070 ti").split(",") if n.strip()]
            ids = [resolve_gpu(n, lang) for n in names[:MAX_GPUS]]
            await interaction.response.defer(thinking=True)
            png = await charts.render_async("performance", ids, lang=lang)
            await interaction.followup.send(file=discord.File(io.BytesIO(png), "chart.png"), allowed_mentions=SAFE)
            return
        if kind == "value":
            fields: dict = {"kind": "recommend"}
            if task:
                fields["task"] = task
            if budget is not None:
                fields["budget"] = Money(amount=Decimal(str(budget)), currency="USD")
            query = Query(**fields)
        elif kind == "memory":
            if not model:
                raise UserError("error.chart.model")
            card = resolve_gpu(gpu or "rtx 4090", lang)
            query = Query(kind="can_run", model=model, gpus=(card,), gpu_counts=(count,))
        else:
            card = resolve_gpu(gpu or "rtx 3090", lang)
            query = (
                Query(kind="cloud_vs_buy", gpus=(card,), hours_per_day=hours_per_day)
                if kind == "breakeven"
                else Query(kind="power", gpus=(card,), num_gpus=count)
            )
        await send_chart(interaction, advise(query, context), lang)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Charts(bot))
