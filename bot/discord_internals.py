"""Every use of discord.py beyond its documented API, in one place, each with its reason and a test.

discord.py's private names can change in any release; keeping them here means an upgrade is
checked in one file, and tests/bot/test_discord_internals.py fails on the first one that moved.
Each entry says what it buys (figures from bench/e2e_bench.py profiles, docs/performance.md):

- ``point_at``: REST and gateway base URLs (``Route.BASE``, ``DiscordWebSocket.DEFAULT_GATEWAY``)
  — to run behind a REST proxy or against the local Discord double; discord.py has no setting.
- ``SkipOwnMessages``: the connection state drops MESSAGE_CREATE for the bot's own posts — ≈5 %
  of CPU per answer (each answer's echo was parsed into a Message nothing reads).
- ``send_reply``: a chat reply sent through discord.py's request builder
  (``handle_message_parameters``, ``Message._state``) without parsing Discord's response — ≈9 %
  of CPU per chat answer.
- ``PayloadOnce`` / ``ComponentsOnce``: an answer's embed and buttons build their payload once,
  for every repeat of the question (public methods overridden, but relying on discord.py calling
  them once per send).
"""

from __future__ import annotations

from typing import Any

import discord
import yarl
from discord.http import handle_message_parameters
from discord.shard import AutoShardedConnectionState
from discord.utils import MISSING

SAFE = discord.AllowedMentions.none()


def point_at(api_base: str, gateway_url: str) -> None:
    """Send REST and gateway traffic where the settings say (Discord, a proxy, or a local double)."""
    discord.http.Route.BASE = api_base.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


class SkipOwnMessages(AutoShardedConnectionState):
    """discord.py's connection state, less one event this bot never uses: Discord sends each message
    the bot posts back to it (MESSAGE_CREATE); nothing here reacts to the bot's own messages."""

    def parse_message_create(self, data: Any) -> None:
        if self.self_id is None or int(data.get("author", {}).get("id", 0)) != self.self_id:
            super().parse_message_create(data)


def connection_state(bot: discord.AutoShardedClient, **options: Any) -> SkipOwnMessages:
    """What ``AutoShardedClient._get_state`` returns, as the lighter state above."""
    return SkipOwnMessages(dispatch=bot.dispatch, handlers=bot._handlers, hooks=bot._hooks, http=bot.http, **options)


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
    into discord.py objects."""
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


class PayloadOnce(discord.Embed):
    """An embed whose payload is built on its first send and kept: nothing changes an answer's
    embed once it is rendered, and a repeated question sends the same one again."""

    _payload: Any

    def to_dict(self) -> Any:
        try:
            return self._payload
        except AttributeError:
            self._payload = payload = super().to_dict()
            return payload


class ComponentsOnce(discord.ui.View):
    """A view of registered DynamicItem buttons that never listens (``is_finished``: then no send
    puts it in discord.py's view store) and builds its components payload once."""

    _payload: list[dict[str, Any]]

    def is_finished(self) -> bool:
        return True

    def to_components(self) -> list[dict[str, Any]]:
        try:
            return self._payload
        except AttributeError:
            self._payload = payload = super().to_components()
            return payload
