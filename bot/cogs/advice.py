"""/recommend, /compare, /breakeven and /power: the guide's models as slash commands."""

from __future__ import annotations

from decimal import Decimal
from typing import Literal

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.interactions import (
    advise,
    bot_of,
    command_cooldown,
    gpu_autocomplete,
    lang_of,
    model_autocomplete,
    resolve_gpu,
    send_answer,
)
from bot.options import (
    BUDGET_MAX,
    BUDGET_MIN,
    CONTEXT_MAX,
    CONTEXT_MIN,
    COUNT_MAX,
    COUNT_MIN,
    DESKTOP_MAX,
    DESKTOP_MIN,
    HOURLY_MAX,
    HOURLY_MIN,
    HOURS_MAX,
    HOURS_MIN,
    KWH_MAX,
    KWH_MIN,
    MEMORY_MAX,
    MEMORY_MIN,
    MODEL_MAX,
    POWER_LIMIT_MAX,
    POWER_LIMIT_MIN,
    PRECISION_MAX,
)
from engine.errors import UserError
from engine.money import Money, exchange_rates
from engine.query import Mode, Query, Task

Workload = Literal["train16", "infer16", "infer8"]


def _budget(amount: float | None, currency: str) -> Money | None:
    """The budget option as Money (its bounds are Query's); an unknown currency is the user's to fix."""
    if amount is None:
        return None
    code = currency.upper()
    if not exchange_rates().supports(code):
        raise UserError("error.currency", code=code[:10])
    return Money(amount=Decimal(str(amount)), currency=code)


class Advice(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="recommend", description=_("Which GPU to buy for a task and budget"))
    @app_commands.describe(
        task="what you'll mainly do",
        budget="most you'll spend on GPUs",
        currency="ISO code",
        memory="minimum GPU memory in GB",
        count="number of GPUs",
        condition="new or used",
        hours_per_day="hours of use a day",
    )
    @app_commands.checks.dynamic_cooldown(command_cooldown)
    async def recommend(
        self,
        interaction: discord.Interaction,
        task: Task | None = None,
        budget: app_commands.Range[float, BUDGET_MIN, BUDGET_MAX] | None = None,
        currency: str | None = None,
        memory: app_commands.Range[float, MEMORY_MIN, MEMORY_MAX] | None = None,
        count: app_commands.Range[int, COUNT_MIN, COUNT_MAX] | None = None,
        condition: Literal["new", "used"] | None = None,
        hours_per_day: app_commands.Range[float, HOURS_MIN, HOURS_MAX] | None = None,
    ) -> None:
        context = await bot_of(interaction).context_for(interaction.guild_id)
        fields: dict = {"kind": "recommend"}
        for name, value in (
            ("task", task),
            ("min_memory_gb", memory),
            ("num_gpus", count),
            ("condition", condition),
            ("hours_per_day", hours_per_day),
            ("budget", _budget(budget, currency or context.currency)),
        ):
            if value is not None:
                fields[name] = value
        query = Query(**fields)
        await send_answer(interaction, advise(query, context), lang_of(interaction))

    @app_commands.command(name="compare", description=_("Compare two GPUs (counts allowed: 2x 3090)"))
    @app_commands.describe(
        gpu_a="first GPU",
        gpu_b="second GPU",
        count_a="how many of the first",
        count_b="how many of the second",
        workload="what to compare on",
    )
    @app_commands.autocomplete(gpu_a=gpu_autocomplete, gpu_b=gpu_autocomplete)
    @app_commands.checks.dynamic_cooldown(command_cooldown)
    async def compare(
        self,
        interaction: discord.Interaction,
        gpu_a: str,
        gpu_b: str,
        count_a: app_commands.Range[int, COUNT_MIN, COUNT_MAX] = 1,
        count_b: app_commands.Range[int, COUNT_MIN, COUNT_MAX] = 1,
        workload: Workload | None = None,
    ) -> None:
        lang = lang_of(interaction)
        fields: dict = {
            "kind": "compare",
            "gpus": (resolve_gpu(gpu_a, lang), resolve_gpu(gpu_b, lang)),
            "gpu_counts": (count_a, count_b),
        }
        if workload:
            fields["workload"] = workload
        answer = advise(Query(**fields), await bot_of(interaction).context_for(interaction.guild_id))
        await send_answer(interaction, answer, lang)

    @app_commands.command(name="breakeven", description=_("Days until a desktop beats renting a cloud GPU"))
    @app_commands.describe(
        gpu="the desktop's GPU (priced from the catalog)",
        hours_per_day="hours of use a day",
        desktop_cost="desktop price in USD instead of the catalog's",
        hourly="cloud price per GPU-hour in USD",
        electricity="USD per kWh",
    )
    @app_commands.autocomplete(gpu=gpu_autocomplete)
    @app_commands.checks.dynamic_cooldown(command_cooldown)
    async def breakeven(
        self,
        interaction: discord.Interaction,
        gpu: str | None = None,
        hours_per_day: app_commands.Range[float, HOURS_MIN, HOURS_MAX] = 3.6,
        desktop_cost: app_commands.Range[float, DESKTOP_MIN, DESKTOP_MAX] | None = None,
        hourly: app_commands.Range[float, HOURLY_MIN, HOURLY_MAX] | None = None,
        electricity: app_commands.Range[float, KWH_MIN, KWH_MAX] | None = None,
    ) -> None:
        lang = lang_of(interaction)
        fields: dict = {"kind": "cloud_vs_buy", "hours_per_day": hours_per_day}
        if gpu:
            fields["gpus"] = (resolve_gpu(gpu, lang),)
        for name, value in (
            ("desktop_usd", desktop_cost),
            ("cloud_usd_per_hour", hourly),
            ("electricity_usd_per_kwh", electricity),
        ):
            if value is not None:
                fields[name] = Decimal(str(value))
        context = await bot_of(interaction).context_for(interaction.guild_id)
        await send_answer(interaction, advise(Query(**fields), context), lang)

    @app_commands.command(name="canrun", description=_("Can a model run on a GPU, how fast, and what fits"))
    @app_commands.describe(
        model="e.g. Llama 3 8B, Qwen2.5 14B, 70B",
        gpu="the GPU (empty: cheapest that fit)",
        count="how many of that GPU",
        mode="inference, fine-tuning or pretraining",
        precision="e.g. bf16, fp8, int8, q4_k_m, nf4 (empty: best that fits)",
        context="context length in tokens",
    )
    @app_commands.autocomplete(model=model_autocomplete, gpu=gpu_autocomplete)
    @app_commands.checks.dynamic_cooldown(command_cooldown)
    async def canrun(
        self,
        interaction: discord.Interaction,
        model: app_commands.Range[str, 1, MODEL_MAX],
        gpu: str | None = None,
        count: app_commands.Range[int, COUNT_MIN, COUNT_MAX] = 1,
        mode: Mode | None = None,
        precision: app_commands.Range[str, 1, PRECISION_MAX] | None = None,
        context: app_commands.Range[int, CONTEXT_MIN, CONTEXT_MAX] | None = None,
    ) -> None:
        lang = lang_of(interaction)
        fields: dict = {"kind": "can_run", "model": model}
        if gpu:
            fields["gpus"] = (resolve_gpu(gpu, lang),)
            fields["gpu_counts"] = (count,)
        elif count > 1:
            fields["num_gpus"] = count
        for name, value in (("mode", mode), ("precision", precision), ("context_tokens", context)):
            if value is not None:
                fields[name] = value
        answer = advise(Query(**fields), await bot_of(interaction).context_for(interaction.guild_id))
        await send_answer(interaction, answer, lang)

    @app_commands.command(name="power", description=_("PSU size, power limit, slots and cooling"))
    @app_commands.describe(gpu="the GPU", count="how many", power_limit="watts per GPU")
    @app_commands.autocomplete(gpu=gpu_autocomplete)
    @app_commands.checks.dynamic_cooldown(command_cooldown)
    async def power(
        self,
        interaction: discord.Interaction,
        gpu: str,
        count: app_commands.Range[int, 1, 16] = 1,
        power_limit: app_commands.Range[int, POWER_LIMIT_MIN, POWER_LIMIT_MAX] | None = None,
    ) -> None:
        lang = lang_of(interaction)
        fields: dict = {"kind": "power", "gpus": (resolve_gpu(gpu, lang),), "num_gpus": count}
        if power_limit is not None:
            fields["power_limit_w"] = power_limit
        answer = advise(Query(**fields), await bot_of(interaction).context_for(interaction.guild_id))
        await send_answer(interaction, answer, lang)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Advice(bot))
