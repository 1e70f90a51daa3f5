"""What every slash command shares: GPU autocomplete, name resolution, cooldowns, sending answers.

Sending (:func:`respond`) is where an answer survives Discord's trouble: the first reply is the
interaction callback, which Discord accepts for 3 seconds after the interaction; it is retried on
429/5xx within that window. A command whose answer is slow is acknowledged with "thinking…" after
``DEFER_AFTER_SECONDS`` (:func:`watch_for_slow_answer`), and its answer then goes as a follow-up,
retried for ``REPLY_RETRY_SECONDS``. If Discord expired the interaction anyway, a public answer is
posted to the channel instead. What still cannot be delivered is counted
(``gpu_advisor_undelivered_total``) and logged once.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.degrade import before, deliver, retry_delay, status_of
from bot.i18n import Lang, from_discord, t
from bot.views import answer_message
from engine.catalog import load_catalog, normalize_name
from engine.model_specs import load_model_catalog
from engine.query import unknown_gpu

if TYPE_CHECKING:
    from bot.app import GpuAdvisorBot
    from engine.advisor import AdviceContext
    from engine.answer import Answer
    from engine.query import Query

SAFE = discord.AllowedMentions.none()
log = logging.getLogger("gpu_advisor.answers")
MAX_CHOICES = 25  # Discord's autocomplete limit
# Discord accepts an interaction's first response this many seconds after sending it; a try that
# would start within the last CALLBACK_MARGIN of that is not made.
CALLBACK_SECONDS = 3.0
CALLBACK_MARGIN = 0.25
UNKNOWN_INTERACTION = 10062  # Discord: the interaction expired (or never existed)
ALREADY_ACKNOWLEDGED = 40060
# Commands whose every reply goes through respond()/send_answer(), so a "thinking…" acknowledgement
# sent for them by watch_for_slow_answer() cannot collide with a direct interaction.response call.
DEFERRABLE_MODULES = frozenset({"bot.cogs.advice", "bot.cogs.guide", "bot.cogs.chat"})


def advise(query: Query, context: AdviceContext | None = None) -> Answer:
    """``engine.advisor.advise`` for the commands: the engine is imported at the first answer (or by
    the warm-up after READY), not when the cogs load before READY (start-up, issue #24)."""
    from engine.advisor import advise as engine_advise

    return engine_advise(query, context)


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
        raise unknown_gpu(text, discord.utils.escape_markdown(discord.utils.escape_mentions(text[:60])))
    return gpu_id


async def send_answer(interaction: discord.Interaction, answer: Answer, lang: Lang) -> None:
    bot = bot_of(interaction)
    async with bot.answering():
        delivered = await respond(interaction, answer_message(answer, lang), source="command")
    if not delivered:
        return
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


def mark_received(interaction: discord.Interaction) -> float:
    """When this process got the interaction (``time.monotonic()``): its 3-second window starts about then."""
    received: float = interaction.extras.setdefault("received", time.monotonic())
    return received


def _reply_lock(interaction: discord.Interaction) -> asyncio.Lock:
    """One reply at a time per interaction: the "thinking…" acknowledgement never races an answer."""
    lock: asyncio.Lock = interaction.extras.setdefault("reply_lock", asyncio.Lock())
    return lock


def age_of(interaction: discord.Interaction) -> float:
    """Seconds since Discord created the interaction (its id is a snowflake carrying the time), never
    negative. Under a backlog an interaction can wait in this process for a second or more before
    its handler runs, and Discord's 3-second window runs from its creation, not from then."""
    return max(0.0, (discord.utils.utcnow() - interaction.created_at).total_seconds())


def _deferrable(interaction: discord.Interaction) -> bool:
    if interaction.type is not discord.InteractionType.application_command:
        return False
    command = interaction.command
    return command is not None and getattr(command, "module", None) in DEFERRABLE_MODULES


def watch_for_slow_answer(interaction: discord.Interaction) -> bool:
    """If the answer to this slash command is not on its way ``DEFER_AFTER_SECONDS`` after Discord
    created the interaction, acknowledge it with "thinking…", so that Discord's 3-second window
    cannot close on it; the answer then follows within 15 minutes. Only for commands in
    :data:`DEFERRABLE_MODULES`. Returns True when that time has already passed (the interaction
    waited in a backlog): the caller should then acknowledge it at once (:func:`acknowledge_now`),
    before the answer's work. A host clock ahead of Discord's only makes the acknowledgement earlier."""
    if not _deferrable(interaction):
        return False
    bot = bot_of(interaction)
    mark_received(interaction)
    delay = bot.settings.defer_after_seconds - age_of(interaction)
    if delay <= 0:
        return True
    # Cancelled once the answer went out (respond()): a timer that still fired after every answer
    # cost a callback, and before the check below a task, per slash command (issue #24).
    interaction.extras["defer_timer"] = asyncio.get_running_loop().call_later(delay, _defer_soon, interaction)
    return False


def _defer_soon(interaction: discord.Interaction) -> None:
    if not interaction.response.is_done():  # else answered: nothing to acknowledge
        interaction.extras["defer_task"] = asyncio.ensure_future(_defer_if_slow(interaction))


def _stop_watching(interaction: discord.Interaction) -> None:
    """The first response went out: the "thinking…" timer of watch_for_slow_answer has nothing left to do."""
    timer = interaction.extras.pop("defer_timer", None)
    if timer is not None:
        timer.cancel()


async def acknowledge_now(interaction: discord.Interaction) -> None:
    """ "thinking…" now, for an interaction that waited too long to be answered within its window."""
    await _defer_if_slow(interaction)


async def _defer_if_slow(interaction: discord.Interaction) -> None:
    lock = _reply_lock(interaction)
    if interaction.response.is_done() or lock.locked():  # answered, or the answer is being sent
        return
    async with lock:
        if interaction.response.is_done():
            return
        bot = bot_of(interaction)
        try:
            await before(
                mark_received(interaction) + CALLBACK_SECONDS + CALLBACK_MARGIN,
                deliver(lambda: interaction.response.defer(thinking=True), until=_callback_deadline(interaction)),
            )
        except Exception as error:  # respond() will try the callback itself, and say if it fails
            log.warning(
                "could not acknowledge a slow command", extra={"status": status_of(error), **_where(interaction)}
            )
            return
        bot.degrade.deferred.inc()


def _callback_deadline(interaction: discord.Interaction) -> float:
    return mark_received(interaction) + CALLBACK_SECONDS - CALLBACK_MARGIN


def _where(interaction: discord.Interaction) -> dict[str, Any]:
    return {
        "guild": interaction.guild_id,
        "command": interaction.command.qualified_name if interaction.command else None,
    }


async def respond(
    interaction: discord.Interaction, message: dict[str, Any], *, ephemeral: bool = False, source: str = "command"
) -> bool:
    """Send ``message`` (``send_message`` keywords) as this interaction's reply: the response if none
    was sent yet (retried until Discord's window closes), else a follow-up (retried for
    ``REPLY_RETRY_SECONDS``). A public answer whose interaction Discord expired is posted to the
    channel instead. Returns whether it was delivered; never raises (but for cancellation): an
    answer that cannot be delivered is counted and logged once."""
    bot = bot_of(interaction)
    message = {"allowed_mentions": SAFE, **message}

    def retried(error: BaseException) -> None:
        bot.degrade.reply_retries.labels(source).inc()

    async with _reply_lock(interaction):
        first = not interaction.response.is_done()
        try:
            if first:  # past the window every try fails: stop then, even in discord.py's own retry sleep
                await before(
                    mark_received(interaction) + CALLBACK_SECONDS + CALLBACK_MARGIN,
                    deliver(
                        lambda: interaction.response.send_message(**message, ephemeral=ephemeral),
                        until=_callback_deadline(interaction),
                        on_retry=retried,
                    ),
                )
                _stop_watching(interaction)
            else:
                await deliver(
                    lambda: interaction.followup.send(**message, ephemeral=ephemeral),
                    until=time.monotonic() + bot.settings.reply_retry_seconds,
                    on_retry=retried,
                )
            return True
        except Exception as error:
            failure: Exception = error
        if isinstance(failure, discord.HTTPException) and failure.code == ALREADY_ACKNOWLEDGED:
            return True  # an earlier try did reach Discord, only its answer to us was lost
        expired = isinstance(failure, discord.NotFound) and failure.code == UNKNOWN_INTERACTION
        late = first and not ephemeral and (expired or retry_delay(failure) is not None)
        if late and await _post_late(interaction, message, source, retried):
            return True
    bot.degrade.undelivered.labels(source).inc()
    log.error(
        "answer not delivered",
        extra={"source": source, "status": status_of(failure), "first_response": first, **_where(interaction)},
    )
    return False


async def _post_late(interaction: discord.Interaction, message: dict[str, Any], source: str, retried: Any) -> bool:
    """Discord expired the interaction before its answer got through: post the (public) answer to
    the channel, saying whose question it answers (no ping)."""
    bot = bot_of(interaction)
    channel: Any = interaction.channel
    if channel is None or not hasattr(channel, "send"):
        if interaction.channel_id is None:
            return False
        channel = bot.get_partial_messageable(interaction.channel_id)
    lang = lang_of(interaction)
    command = interaction.command.qualified_name if interaction.command else "?"
    note = t(lang, "answer.late", user=interaction.user.mention, command=command)
    content = f"{note}\n{message['content']}" if message.get("content") else note
    kwargs = {**message, "content": content[:2000], "allowed_mentions": SAFE}
    try:
        await deliver(
            lambda: channel.send(**kwargs),
            until=time.monotonic() + bot.settings.reply_retry_seconds,
            on_retry=retried,
        )
    except Exception as error:
        log.warning("could not post a late answer", extra={"status": status_of(error), **_where(interaction)})
        return False
    bot.degrade.late_answers.inc()
    log.warning("interaction expired; answer posted to the channel", extra={"source": source, **_where(interaction)})
    return True
