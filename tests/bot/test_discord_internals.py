"""One test per use of discord.py beyond its documented API (bot/discord_internals.py): each
fails on the first discord.py release that moves what it relies on. The end-to-end tests run the
same code against the local Discord double."""

from __future__ import annotations

import ast
import asyncio
import inspect
from pathlib import Path
from types import SimpleNamespace

import discord
import pytest
from discord.shard import AutoShardedConnectionState

from bot import discord_internals as internals

BOT = Path(__file__).resolve().parents[2] / "bot"
# discord.py's private names: used nowhere in bot/ but bot/discord_internals.py (issue #24, item 3).
PRIVATE = {
    "_get_state",
    "handle_message_parameters",
    "_state",
    "AutoShardedConnectionState",
    "Route",
    "_handlers",
    "_cs_response",
    "_parent",
}


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


def test_the_bot_gets_the_lighter_state():
    from bot.app import GpuAdvisorBot

    assert GpuAdvisorBot._get_state is internals.LighterState._get_state


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


def test_the_savers_can_be_turned_off_for_measuring(monkeypatch):
    monkeypatch.setenv("GPU_ADVISOR_INTERNALS_OFF", "skip_own,send_reply")
    assert not internals.enabled("skip_own") and not internals.enabled("send_reply")
    monkeypatch.setenv("GPU_ADVISOR_INTERNALS_OFF", "")
    assert internals.enabled("skip_own") and internals.enabled("send_reply")


@pytest.mark.asyncio
async def test_send_reply_turned_off_is_discord_py_s_reply(monkeypatch):
    monkeypatch.setattr(internals, "_SEND_REPLY", False)
    replies = []

    async def reply(content, **kwargs):
        replies.append((content, kwargs))

    await internals.send_reply(SimpleNamespace(reply=reply), "hi")  # type: ignore[arg-type]
    ((content, kwargs),) = replies
    assert content == "hi" and kwargs == {"allowed_mentions": internals.SAFE, "mention_author": False}


def test_a_view_that_never_listens_is_finished_before_any_loop_runs():
    view = internals.NeverListens(timeout=None)
    view.add_item(discord.ui.Button(label="a", custom_id="ga:x"))
    assert view.is_finished()
    assert view.to_components() == discord.ui.View.to_components(view)


async def test_a_handled_interaction_is_freed_when_its_task_ends():
    """free_when_handled: once the handling task ends, an answered interaction's response no longer
    points back at it (a reference cycle), and the view given is emptied; an unanswered one is left."""
    answered = object.__new__(discord.Interaction)
    response = answered._cs_response = discord.InteractionResponse(answered)
    unanswered = object.__new__(discord.Interaction)
    unanswered._cs_response = discord.InteractionResponse(unanswered)
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="a", custom_id="ga:x"))

    async def handle() -> None:
        internals.free_when_handled(answered, view)
        internals.free_when_handled(unanswered)
        response._response_type = discord.InteractionResponseType.channel_message
        await asyncio.sleep(0)
        assert response._parent is answered and view.children  # nothing changes while it is handled

    await asyncio.create_task(handle())
    await asyncio.sleep(0)  # the task's done callbacks
    assert response._parent is None and response.is_done() and not view.children
    assert unanswered._cs_response._parent is unanswered


def test_no_response_is_sent_with_delete_after():
    """free_when_handled clears the back-reference discord.py's ``delete_after`` timer reads."""
    for path in BOT.rglob("*.py"):
        if path.name != "discord_internals.py":
            assert "delete_after" not in path.read_text(encoding="utf-8"), path


def test_no_private_name_of_discord_py_is_used_outside_this_module():
    for path in BOT.rglob("*.py"):
        if path.name == "discord_internals.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
        names |= {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
        names |= {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)}
        names |= {
            alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("discord")
            for alias in node.names
        }
        assert not names & PRIVATE, (path, names & PRIVATE)
