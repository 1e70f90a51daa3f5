"""Buttons under answers. Each keeps its state in its ``custom_id`` (``DynamicItem``), so a button
still works after a restart or on another shard process: nothing is looked up in memory except
the presser's conversation, and a lost conversation only means the choice starts a new question.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.embeds import answer_embed, why_embed
from bot.i18n import Lang, t
from engine.advisor import advise
from engine.answer import Answer
from engine.catalog import load_catalog
from engine.money import Money
from engine.performance import estimate, relative_speed
from engine.query import Query

if TYPE_CHECKING:
    from bot.app import GpuAdvisorBot

ID = r"[a-z0-9.-]{1,40}"
LANG = r"(?P<lang>en|zh-Hant|zh-Hans)"
WORKLOAD = r"(?P<workload>train16|infer16|infer8)"
SAFE = discord.AllowedMentions.none()


def _bot(interaction: discord.Interaction) -> GpuAdvisorBot:
    return interaction.client  # type: ignore[return-value]


async def _show(interaction: discord.Interaction, answer: Answer, lang: Lang) -> None:
    """Answer in place: the message the button sits under is replaced by the new answer."""
    await interaction.response.edit_message(embed=answer_embed(answer, lang), view=answer_view(answer, lang))


class CompareButton(
    discord.ui.DynamicItem[discord.ui.Button], template=rf"ga:cmp:(?P<a>{ID}):(?P<b>{ID}):{WORKLOAD}:{LANG}"
):
    def __init__(self, a: str, b: str, workload: str, lang: Lang) -> None:
        self.a, self.b, self.workload, self.lang = a, b, workload, lang
        super().__init__(discord.ui.Button(label=t(lang, "button.compare_top"), style=discord.ButtonStyle.primary,
                                           custom_id=f"ga:cmp:{a}:{b}:{workload}:{lang}"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> Any:
        return cls(match["a"], match["b"], match["workload"], match["lang"])  # type: ignore[arg-type]

    async def callback(self, interaction: discord.Interaction) -> None:
        query = Query(kind="compare", gpus=(self.a, self.b), gpu_counts=(1, 1), workload=self.workload)
        await _show(interaction, advise(query, _bot(interaction).context_for(interaction.guild_id)), self.lang)


class CloudButton(discord.ui.DynamicItem[discord.ui.Button], template=rf"ga:cloud:(?P<gpu>{ID}):{LANG}"):
    def __init__(self, gpu: str, lang: Lang) -> None:
        self.gpu, self.lang = gpu, lang
        super().__init__(discord.ui.Button(label=t(lang, "button.cloud"), style=discord.ButtonStyle.secondary,
                                           custom_id=f"ga:cloud:{gpu}:{lang}"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> Any:
        return cls(match["gpu"], match["lang"])  # type: ignore[arg-type]

    async def callback(self, interaction: discord.Interaction) -> None:
        query = Query(kind="cloud_vs_buy", gpus=(self.gpu,))
        await _show(interaction, advise(query, _bot(interaction).context_for(interaction.guild_id)), self.lang)


class WhyButton(discord.ui.DynamicItem[discord.ui.Button], template=rf"ga:why:(?P<gpu>{ID}):{WORKLOAD}:{LANG}"):
    def __init__(self, gpu: str, workload: str, lang: Lang) -> None:
        self.gpu, self.workload, self.lang = gpu, workload, lang
        super().__init__(discord.ui.Button(label=t(lang, "button.why"), style=discord.ButtonStyle.secondary,
                                           custom_id=f"ga:why:{gpu}:{workload}:{lang}"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> Any:
        return cls(match["gpu"], match["workload"], match["lang"])  # type: ignore[arg-type]

    async def callback(self, interaction: discord.Interaction) -> None:
        gpu = load_catalog().get(self.gpu)
        result = estimate(gpu, self.workload)  # type: ignore[arg-type]
        embed = why_embed(result, relative_speed(self.gpu, self.workload), self.lang)  # type: ignore[arg-type]
        await interaction.response.send_message(embed=embed, ephemeral=True, allowed_mentions=SAFE)


class FollowUpButton(discord.ui.DynamicItem[discord.ui.Button],
                     template=rf"ga:fu:(?P<field>task|budget):(?P<value>[a-z0-9_]{{1,20}}):{LANG}"):
    """One answer to the bot's follow-up question; refines the presser's last question."""

    def __init__(self, field: str, value: str, label: str, lang: Lang) -> None:
        self.field, self.value, self.lang = field, value, lang
        super().__init__(discord.ui.Button(label=label[:80], style=discord.ButtonStyle.secondary,
                                           custom_id=f"ga:fu:{field}:{value}:{lang}"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> Any:
        return cls(match["field"], match["value"], item.label or match["value"], match["lang"])  # type: ignore[arg-type]

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = _bot(interaction)
        key = (interaction.user.id, interaction.channel_id or 0)
        previous = await bot.conversations.get(key) or Query(kind="recommend")
        if self.field == "task":
            update = Query(task=self.value)  # type: ignore[arg-type]
        else:
            currency = previous.budget.currency if previous.budget else bot.context_for(interaction.guild_id).currency
            update = Query(budget=Money(amount=int(self.value), currency=currency))
        query = previous.merged(update)
        await bot.conversations.put(key, query)
        await _show(interaction, advise(query, bot.context_for(interaction.guild_id)), self.lang)


def answer_view(answer: Answer, lang: Lang) -> discord.ui.View | None:
    """The buttons that help next: follow-up choices, or compare / cloud / why under a pick."""
    view = discord.ui.View(timeout=None)
    if answer.follow_up and answer.follow_up.field in ("task", "budget"):
        for value, label in answer.follow_up.choices[:10]:
            shown = t(lang, f"task.{value}") if answer.follow_up.field == "task" else label
            view.add_item(FollowUpButton(answer.follow_up.field, value, shown, lang))
        return view
    if answer.options:
        top = answer.options[0]
        if len(answer.options) >= 2:
            view.add_item(CompareButton(top.gpu_id, answer.options[1].gpu_id, top.workload, lang))
        view.add_item(CloudButton(top.gpu_id, lang))
        view.add_item(WhyButton(top.gpu_id, top.workload, lang))
        return view
    if answer.comparison:
        c = answer.comparison
        view.add_item(WhyButton(c.gpu_ids[0], c.workload, lang))
        return view
    return None


DYNAMIC_ITEMS = (CompareButton, CloudButton, WhyButton, FollowUpButton)
