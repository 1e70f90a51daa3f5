"""One test per use of discord.py beyond its documented API (bot/discord_internals.py): each
fails on the first discord.py release that moves what it relies on. The end-to-end tests run the
same code against the local Discord double."""

from __future__ import annotations

import inspect
from types import SimpleNamespace

import discord
import pytest
from discord.shard import AutoShardedConnectionState

from bot import discord_internals as internals


def test_point_at_moves_rest_and_gateway(monkeypatch):
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    )
    internals.point_at("http://127.0.0.1:9/api/v10/", "ws://127.0.0.1:9/")
    assert discord.http.Route.BASE == "http://127.0.0.1:9/api/v10"
    assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == "ws://127.0.0.1:9/"
    assert discord.http.Route("GET", "/gateway").url == "http://127.0.0.1:9/api/v10/gateway"


def test_own_messages_are_skipped_and_others_parsed(monkeypatch):
    parsed = []
    monkeypatch.setattr(AutoShardedConnectionState, "parse_message_create", lambda self, data: parsed.append(data))
    monkeypatch.setattr(internals.SkipOwnMessages, "self_id", property(lambda self: 42))
    state = object.__new__(internals.SkipOwnMessages)
    state.parse_message_create({"author": {"id": "42"}})
    state.parse_message_create({"author": {"id": "7"}})
    assert parsed == [{"author": {"id": "7"}}]


def test_the_state_is_built_as_discord_py_builds_its_own():
    source = inspect.getsource(discord.AutoShardedClient._get_state)
    assert all(
        f"{name}=self.{'_' if name in ('handlers', 'hooks') else ''}{name}" in source
        for name in ("dispatch", "handlers", "hooks", "http")
    )


@pytest.mark.asyncio
async def test_send_reply_posts_one_request_that_pings_no_one():
    sent = []

    async def send_message(channel_id, *, params):
        sent.append((channel_id, params.payload))

    state = SimpleNamespace(allowed_mentions=None, http=SimpleNamespace(send_message=send_message))
    message = SimpleNamespace(
        _state=state,
        channel=SimpleNamespace(id=5),
        to_message_reference_dict=lambda: {"message_id": 9, "channel_id": 5},
    )
    await internals.send_reply(message, "hi <@1>", embed=discord.Embed(title="t"))  # type: ignore[arg-type]
    ((channel, payload),) = sent
    assert channel == 5 and payload["content"] == "hi <@1>" and payload["embeds"][0]["title"] == "t"
    assert payload["allowed_mentions"] == {"parse": [], "replied_user": False}
    assert payload["message_reference"]["message_id"] == 9


def test_payloads_are_built_once_and_equal_discord_py_s_own():
    embed = internals.PayloadOnce(title="x", description="y")
    assert embed.to_dict() is embed.to_dict() and embed.to_dict() == discord.Embed.to_dict(embed)
    view = internals.ComponentsOnce(timeout=None)
    view.add_item(discord.ui.Button(label="a", custom_id="ga:x"))
    assert view.is_finished() and view.to_components() is view.to_components()
    assert view.to_components() == discord.ui.View.to_components(view)
