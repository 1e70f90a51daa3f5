"""What every slash command shares: GPU autocomplete, name resolution, cooldowns, sending answers."""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.i18n import Lang, from_discord
from bot.render import unknown_gpu_msg
from bot.views import answer_message
from engine.answer import Answer
from engine.catalog import load_catalog, normalize_name
from engine.errors import UserError
from engine.model_specs import load_model_catalog

if TYPE_CHECKING:
    from bot.app import GpuAdvisorBot

SAFE = discord.AllowedMentions.none()
log = logging.getLogger("gpu_advisor.answers")
MAX_CHOICES = 25  # Discord's autocomplete limit


def lang_of(interaction: discord.Interaction) -> Lang:
    """The server's chosen language if it set one (see AdvisorTree.interaction_check), else the member's."""
    return interaction.extras.get("lang") or from_discord(interaction.locale)


def bot_of(interaction: discord.Interaction) -> GpuAdvisorBot:
    return interaction.client  # type: ignore[return-value]


def command_cooldown(interaction: discord.Interaction) -> app_commands.Cooldown | None:
    seconds = bot_of(interaction).settings.command_cooldown_seconds
    return app_commands.Cooldown(1, seconds) if seconds > 0 else None


async def gpu_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Catalog cards whose id or name contains what was typed, shortest names first."""
    catalog = load_catalog()
    key = normalize_name(current)
    matches = [
        g for g in catalog.gpus.values() if not key or key in normalize_name(g.name) or key in g.id.replace("-", "")
    ]
    matches.sort(key=lambda g: (not normalize_name(g.name).endswith(key), len(g.name)))
    return [app_commands.Choice(name=g.short_name[:100], value=g.id) for g in matches[:MAX_CHOICES]]


async def model_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Models from the model catalog whose name or id contains what was typed."""
    catalog = load_model_catalog()
    key = normalize_name(current)
    specs = [catalog.get(i) for i in catalog.ids()]
    matches = [m for m in specs if not key or key in normalize_name(m.name) or key in m.id.replace("-", "")]
    matches.sort(key=lambda m: len(m.name))
    return [app_commands.Choice(name=m.name[:100], value=m.name[:100]) for m in matches[:MAX_CHOICES]]


def resolve_gpu(text: str, lang: Lang) -> str:
    """A catalog id, or a UserError the user reads in their language (with "did you mean")."""
    catalog = load_catalog()
    gpu_id = text if text in catalog.gpus else catalog.resolve(text)
    if gpu_id is None:
        shown = discord.utils.escape_markdown(discord.utils.escape_mentions(text[:60]))
        message = unknown_gpu_msg(text, shown)
        raise UserError(message.key, **message.args)
    return gpu_id


async def send_answer(interaction: discord.Interaction, answer: Answer, lang: Lang) -> None:
    bot = bot_of(interaction)
    async with bot.answering():
        await _send(interaction, answer, lang)
    started = interaction.extras.get("started")
    latency = time.perf_counter() - started if started is not None else None
    bot.metrics.answered("command", answer.kind, latency)
    log.info(
        "answered",
        extra={
            "source": "command",
            "guild": interaction.guild_id,
            "shard": _shard(interaction),
            "command": interaction.command.qualified_name if interaction.command else None,
            "kind": answer.kind,
            "latency_ms": round(latency * 1000, 1) if latency else None,
        },
    )


def _shard(interaction: discord.Interaction) -> int | None:
    return interaction.guild.shard_id if interaction.guild else None


async def _send(interaction: discord.Interaction, answer: Answer, lang: Lang) -> None:
    message = answer_message(answer, lang)
    if interaction.response.is_done():
        await interaction.followup.send(**message)
    else:
        await interaction.response.send_message(**message)
