"""Every use of discord.py beyond its documented API, in one place, each with its reason and a test.

discord.py's private names can change in any release; keeping them here means an upgrade is
checked in one file, and tests/bot/test_discord_internals.py fails on the first one that moved.
Issue #24 (item 3): a use kept to save CPU must buy ≥ 5 % of the CPU per answer on distinct traffic
(``bench/e2e_bench.py``), measured and written next to it, or go. Each saver can be turned off with
``GPU_ADVISOR_INTERNALS_OFF=skip_own,send_reply`` (discord.py's own way instead), so that what it
buys is measured by ``bench/e2e_bench.py --variant NAME:GPU_ADVISOR_INTERNALS_OFF=...`` beside the
bot with it on, in the same rounds (docs/performance.md, 2026-12-06).

- ``point_at``: REST and gateway base URLs (``Route.BASE``, ``DiscordWebSocket.DEFAULT_GATEWAY``)
  — to run behind a REST proxy or against the local Discord double; discord.py has no setting.
  Kept for what it does, not for CPU.
- ``SkipOwnMessages`` (``skip_own``): see the class for what it buys.
- ``send_reply`` (``send_reply``): see the function for what it buys.
- ``NeverListens``: a public method overridden (see its docstring), not an internal.
- ``free_when_handled``: ``InteractionResponse._parent`` — kept for memory, not CPU (see the function).

Removed 2026-12-06: ``PayloadOnce`` / ``ComponentsOnce`` (``Embed.to_dict`` / ``View.to_components``
overridden to keep an answer's payload for the next send of the same reply): on distinct traffic
each reply is sent once, so they bought nothing there.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

import discord
import yarl
from discord.http import handle_message_parameters
from discord.shard import AutoShardedConnectionState
from discord.utils import MISSING

SAFE = discord.AllowedMentions.none()


def enabled(name: str) -> bool:
    """Whether the CPU saver ``name`` (``skip_own``, ``send_reply``) is on: both are, unless
    ``GPU_ADVISOR_INTERNALS_OFF`` names it (benchmarks: what each buys)."""
    return name not in os.environ.get("GPU_ADVISOR_INTERNALS_OFF", "").split(",")


def point_at(api_base: str, gateway_url: str) -> None:
    """Send REST and gateway traffic where the settings say (Discord, a proxy, or a local double)."""
    discord.http.Route.BASE = api_base.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


class SkipOwnMessages(AutoShardedConnectionState):
    """discord.py's connection state, less one event this bot never uses: Discord sends each message
    the bot posts back to it (MESSAGE_CREATE); nothing here reacts to the bot's own messages.

    Buys (distinct traffic, CPU per answer without it / with it; 24 pairs of segments in three runs
    of ``bench/e2e_bench.py --variant``, 2026-12-06 02:41–03:06 UTC, 2 vCPUs, load 0.2–5.3): **1.06×
    at 100 events/s** (90 % interval 1.00–1.13), 0.98× as fast as possible (0.91–1.10). Kept on the
    figure at the issue's rate; the next measurement that puts it under 1.05× removes it."""

    def parse_message_create(self, data: Any) -> None:
        if self.self_id is None or int(data.get("author", {}).get("id", 0)) != self.self_id:
            super().parse_message_create(data)


def connection_state(bot: discord.AutoShardedClient, **options: Any) -> Any:
    """What ``AutoShardedClient._get_state`` returns: the lighter state above, or discord.py's own
    when ``skip_own`` is turned off."""
    if not enabled("skip_own"):
        return AutoShardedConnectionState(
            dispatch=bot.dispatch, handlers=bot._handlers, hooks=bot._hooks, http=bot.http, **options
        )
    return SkipOwnMessages(dispatch=bot.dispatch, handlers=bot._handlers, hooks=bot._hooks, http=bot.http, **options)


class LighterState:
    """Mixed into the bot's client class (before discord.py's): its connection state is
    :func:`connection_state`'s (``AutoShardedClient._get_state`` overridden)."""

    def _get_state(self, **options: Any) -> Any:
        return connection_state(self, **options)  # type: ignore[arg-type]


_SEND_REPLY = enabled("send_reply")


async def send_reply(
    message: discord.Message,
    content: str | None = None,
    *,
    embed: discord.Embed = MISSING,
    view: discord.ui.View = MISSING,
    allowed_mentions: discord.AllowedMentions = SAFE,
) -> None:
    """Post a reply to ``message`` that pings nobody, not even the author it answers, and skip
    turning Discord's response (the new message, its embed, buttons and a copy of the question)
    into discord.py objects.

    Buys (distinct traffic, CPU per answer without it / with it; the same 24 pairs as
    :class:`SkipOwnMessages`): **1.055× at 100 events/s** (90 % interval 0.98–1.12), 1.015× as fast
    as possible (0.99–1.14) — about 40 % of events are chat replies. Kept on the figure at the
    issue's rate; the next measurement that puts it under 1.05× removes it."""
    if not _SEND_REPLY:
        parts: dict[str, Any] = {"embed": embed} if embed is not MISSING else {}
        if view is not MISSING:
            parts["view"] = view
        await message.reply(content, allowed_mentions=allowed_mentions, mention_author=False, **parts)
        return
    state = message._state
    with handle_message_parameters(
        content=content,
        embed=embed,
        view=view,
        allowed_mentions=allowed_mentions,
        previous_allowed_mentions=state.allowed_mentions,
        message_reference=message.to_message_reference_dict(),
        mention_author=False,
    ) as params:
        await state.http.send_message(message.channel.id, params=params)


class NeverListens(discord.ui.View):
    """A view of registered DynamicItem buttons that never listens: ``is_finished`` (public API,
    overridden) is True from the start, so no send puts it in discord.py's view store — a press is
    routed by its custom_id to a new item, never to this object. Not an internal: kept here beside
    them because it relies on discord.py consulting ``is_finished`` before storing a sent view
    (``View.stop()`` would do the same only where an event loop runs when the view is built)."""

    def is_finished(self) -> bool:
        return True


def free_when_handled(interaction: discord.Interaction, view: discord.ui.View | None = None) -> None:
    """Once the task handling ``interaction`` ends, break the cycle between it and its response
    (``InteractionResponse._parent`` points back at the interaction), if the response went out,
    and empty ``view`` (each button points back at its view): the interaction, with its member,
    message and options, is then freed at once instead of waiting, promoted, for a full collection
    of the garbage collector — which, with a large live heap, comes only once a quarter of that heap
    is waiting (issue #24: ≈4,000 such interactions, ≈34 objects each, waited at 30,000 events;
    RSS after 50,000 users 231.8 → 204.1 MB, docs/performance.md). The response still says it is
    done; answering again still raises ``InteractionResponded``. A response sent with
    ``delete_after`` would not be deleted (discord.py's timer reads the back-reference later): the
    bot sends none (tests/bot/test_discord_internals.py)."""
    task = asyncio.current_task()
    if task is not None:
        task.add_done_callback(lambda _: _free(interaction, view))


def _free(interaction: discord.Interaction, view: discord.ui.View | None) -> None:
    response = getattr(interaction, "_cs_response", None)  # the cached ``interaction.response``, if made
    if response is not None and response.is_done():
        response._parent = None
    if view is not None:
        view.clear_items()
