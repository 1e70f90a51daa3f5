"""/info, /cycles and /explain: the catalog and the guide's own explanations."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.interactions import advise, command_cooldown, gpu_autocomplete, lang_of, resolve_gpu, send_answer
from engine.query import TOPICS, Query

Topic = Literal[TOPICS]  # type: ignore[valid-type]


class Guide(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="info", description=_("A GPU's spec card with sources"))
    @app_commands.describe(gpu="the GPU")
    @app_commands.autocomplete(gpu=gpu_autocomplete)
    @app_commands.checks.dynamic_cooldown(command_cooldown)
    async def info(self, interaction: discord.Interaction, gpu: str) -> None:
        lang = lang_of(interaction)
        await send_answer(interaction, advise(Query(kind="info", gpus=(resolve_gpu(gpu, lang),))), lang)

    @app_commands.command(name="cycles", description=_("The guide's worked matrix-multiplication cycle example"))
    @app_commands.describe(edition="guide edition", tensor_cores="use Tensor Cores", tma="overlap loads (TMA)")
    @app_commands.checks.dynamic_cooldown(command_cooldown)
    async def cycles(
        self,
        interaction: discord.Interaction,
        edition: Literal["2023", "2020"] = "2023",
        tensor_cores: bool = True,
        tma: bool = False,
    ) -> None:
        query = Query(kind="cycles", edition=edition, tensor_cores=tensor_cores, tma=tma)
        await send_answer(interaction, advise(query), lang_of(interaction))

    @app_commands.command(name="explain", description=_("The guide's answer on a topic"))
    @app_commands.describe(topic="what to explain")
    @app_commands.checks.dynamic_cooldown(command_cooldown)
    async def explain(self, interaction: discord.Interaction, topic: Topic) -> None:
        answer = advise(Query(kind="explain", topic=topic))
        await send_answer(interaction, answer, lang_of(interaction))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Guide(bot))
