"""The real discord.py 2.x client against the Discord API double, with a tiny bot defined here."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from .discord_double import (
    CB_AUTOCOMPLETE,
    CB_DEFERRED_MESSAGE,
    CB_MESSAGE,
    CB_UPDATE,
    DiscordDouble,
    DoubleError,
    DoubleTimeout,
    FakeGuild,
)


async def eventually(check: Any, timeout: float = 5.0) -> None:
    """Poll ``check()`` until it is truthy (for state on the bot side, which the double cannot see)."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"condition not met within {timeout}s")
        await asyncio.sleep(0.01)


GPUS = ["RTX 4090", "RTX 4080", "RTX 3090", "A100 80GB", "H100 SXM", "L40S"]


class Counter(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=60)
        self.count = 0

    @discord.ui.button(label="+1", style=discord.ButtonStyle.primary, custom_id="counter:inc")
    async def inc(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        self.count += 1
        if self.count >= 2:
            button.disabled = True
        await interaction.response.edit_message(content=f"count={self.count}", view=self)


def make_bot(
    double: DiscordDouble,
    *,
    message_content: bool = True,
    sync_guild: bool = False,
    sharded: bool = False,
    **kwargs: Any,
) -> commands.Bot:
    """A tiny bot: text echo, a few slash commands, a button view. ``bot.seen`` collects what it observed."""
    intents = discord.Intents.default()
    intents.message_content = message_content
    cls = commands.AutoShardedBot if sharded else commands.Bot
    bot = cls(command_prefix="!", intents=intents, guild_ready_timeout=0.05, **kwargs)
    bot.seen = {"messages": [], "errors": [], "resumed": 0}  # type: ignore[attr-defined]

    async def setup_hook() -> None:
        await bot.tree.sync()
        if sync_guild:
            guild = discord.Object(double.guild.id)
            bot.tree.copy_global_to(guild=guild)
            await bot.tree.sync(guild=guild)

    bot.setup_hook = setup_hook  # type: ignore[method-assign]

    @bot.event
    async def on_resumed() -> None:
        bot.seen["resumed"] += 1  # type: ignore[attr-defined]

    @bot.event
    async def on_shard_resumed(shard_id: int) -> None:
        bot.seen["resumed"] += 1  # type: ignore[attr-defined]

    @bot.event
    async def on_message(message: discord.Message) -> None:
        bot.seen["messages"].append(message)  # type: ignore[attr-defined]
        if message.author.bot:
            return
        if message.content.startswith("!echo "):
            await message.reply(message.content[len("!echo ") :], mention_author=False)
        elif message.content == "!shout":
            await message.channel.send(
                f"@everyone look, {message.author.mention} and <@&{message.guild.id}>",
                allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=[message.author]),
            )
        elif message.content == "!fragile":
            try:
                await message.channel.send("made it")
            except discord.HTTPException as exc:
                bot.seen["errors"].append(exc)  # type: ignore[attr-defined]
        elif message.content == "!file":
            await message.channel.send("here", file=discord.File(__import__("io").BytesIO(b"a,b\n1,2\n"), "t.csv"))
        elif message.content == "!dm-me":
            await message.author.send("a private word")
        elif message.content == "!where" and message.guild is not None:
            await message.channel.send(f"shard {message.guild.shard_id}")

    @bot.tree.command(name="ping", description="Replies pong")
    @app_commands.describe(text="What to say back")
    async def ping(interaction: discord.Interaction, text: str = "pong", times: app_commands.Range[int, 1, 3] = 1):
        perms = interaction.permissions
        await interaction.response.send_message(
            f"{text * times} (locale={interaction.locale.value}, manage_guild={perms.manage_guild})"
        )

    @bot.tree.command(name="slow", description="Defers, then follows up")
    async def slow(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await asyncio.sleep(0.05)
        await interaction.followup.send("done thinking")
        await interaction.followup.send("psst", ephemeral=True)
        await interaction.edit_original_response(content="done thinking (edited)")

    async def gpu_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=g, value=g) for g in GPUS if current.lower() in g.lower()][:25]

    @bot.tree.command(name="gpu", description="Look up a GPU")
    @app_commands.autocomplete(model=gpu_autocomplete)
    async def gpu(interaction: discord.Interaction, model: str) -> None:
        await interaction.response.send_message(embed=discord.Embed(title=model, description="fast"))

    @bot.tree.command(name="counter", description="A button counter")
    async def counter(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("count=0", view=Counter())

    cloud = app_commands.Group(name="cloud", description="Cloud GPUs")

    @cloud.command(name="price", description="Cost of renting")
    async def price(interaction: discord.Interaction, hours: float, payer: discord.Member | None = None) -> None:
        who = payer.display_name if payer else interaction.user.display_name
        await interaction.response.send_message(f"{hours:.1f}h billed to {who}")

    bot.tree.add_command(cloud)

    @bot.tree.command(name="purge", description="Admins only")
    @app_commands.default_permissions(manage_guild=True)
    async def purge(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("purged", ephemeral=True)

    return bot


async def test_login_ready_guild_create(double: DiscordDouble) -> None:
    bot = make_bot(double)
    async with double.run(bot):
        session = await double.wait_ready(0)
        assert bot.user is not None and bot.user.id == double.bot_user.id
        assert bot.application_id == double.application_id
        guild = bot.get_guild(double.guild.id)
        assert guild is not None and guild.name == "GPU Lab"
        assert {c.name for c in guild.text_channels} == {"general", "benchmarks"}
        assert guild.me is not None
        identify = double.identifies[0]
        assert identify["intents"] == bot.intents.value
        assert session.has_intent(1 << 15)  # message content was asked for
        conn = double.connections[0]
        assert conn.query["encoding"] == "json" and conn.query["v"] == "10"
        assert conn.query["compress"] == "zlib-stream"  # served compressed, and discord.py inflated it
        assert conn.heartbeats >= 1
        paths = [(r.method, r.path) for r in double.requests]
        assert ("GET", "/users/@me") in paths
        assert ("GET", "/oauth2/applications/@me") in paths
        assert {name for name in double.sync_log[0][1]} >= {"ping", "slow", "gpu", "counter", "purge"}
        assert double.unknown_requests == []


async def test_on_message_echo_reply(double: DiscordDouble) -> None:
    bot = make_bot(double)
    async with double.run(bot):
        user_msg = await double.send_message(double.channel.id, "!echo hello there")
        reply = await double.wait_for_message(double.channel.id)
        assert reply.content == "hello there"
        assert reply.kind == "create"
        assert str(reply.payload["message_reference"]["message_id"]) == user_msg["id"]
        # mention_author=False alone makes discord.py send parse=[everyone, users, roles]: @everyone would ping.
        assert sorted(reply.allowed_mentions["parse"]) == ["everyone", "roles", "users"]
        assert reply.allowed_mentions["replied_user"] is False
        # The bot got its own reply back as MESSAGE_CREATE (like Discord) and ignored it.
        await eventually(lambda: any(m.author.id == double.bot_user.id for m in bot.seen["messages"]))
        with pytest.raises(DoubleTimeout):
            await double.wait_for_message(double.channel.id, timeout=0.2)


async def test_without_message_content_intent_content_is_stripped(double: DiscordDouble) -> None:
    bot = make_bot(double, message_content=False)
    async with double.run(bot):
        await double.send_message(double.channel.id, "!echo nobody hears this")
        await double.send_message(double.channel.id, f"<@{double.bot_user.id}> hi", author="alice")
        await eventually(lambda: len(bot.seen["messages"]) == 2)
        contents = [m.content for m in bot.seen["messages"]]
        assert contents == ["", f"<@{double.bot_user.id}> hi"]
        assert not [s for s in double.sent if s.kind == "create"]


async def test_slash_command_synced_and_invoked(double: DiscordDouble) -> None:
    bot = make_bot(double, sync_guild=True)
    async with double.run(bot):
        assert double.find_command("ping")["options"][0]["name"] == "text"
        assert [scope for scope, _ in double.sync_log] == [None, double.guild.id]
        handle = await double.send_slash("ping", {"text": "hey", "times": 2}, locale="de")
        response = await handle.wait_response()
        assert response.kind == "callback" and response.callback_type == CB_MESSAGE
        assert response.content == "heyhey (locale=de, manage_guild=False)"
        assert handle.original is not None and handle.original["content"] == response.content
        assert handle.payload["data"]["guild_id"] == str(double.guild.id)  # the guild copy was invoked

        # Discord itself enforces choices/ranges, required options and default_member_permissions.
        with pytest.raises(DoubleError, match="max_value"):
            await double.send_slash("ping", {"times": 5})
        with pytest.raises(DoubleError, match="default_member_permissions"):
            await double.send_slash("purge")
        admin = await double.send_slash("purge", permissions=discord.Permissions(manage_guild=True))
        assert (await admin.wait_response()).ephemeral
        with pytest.raises(DoubleError, match="not synced"):
            await double.send_slash("nope")


async def test_deferred_response_then_followups(double: DiscordDouble) -> None:
    bot = make_bot(double)
    async with double.run(bot):
        handle = await double.send_slash("slow")
        callback = await handle.wait_callback()
        assert callback.callback_type == CB_DEFERRED_MESSAGE and not callback.visible
        first = await handle.wait_response()
        assert first.kind == "followup" and first.content == "done thinking"
        # Discord turns the first follow-up after a "thinking" defer into the original response.
        assert first.message_id == handle.original_message_id
        edited = await handle.wait_response(predicate=lambda s: s.kind == "edit")
        assert edited.content == "done thinking (edited)"
        assert handle.original["content"] == "done thinking (edited)"
        assert [f.content for f in handle.followups] == ["done thinking", "psst"]
        assert handle.followups[1].ephemeral and handle.followups[1].message_id != handle.original_message_id


async def test_autocomplete(double: DiscordDouble) -> None:
    bot = make_bot(double)
    async with double.run(bot):
        handle = await double.autocomplete("gpu", {"model": "rtx"}, focused="model")
        result = await handle.wait_response()
        assert result.callback_type == CB_AUTOCOMPLETE
        assert [c["value"] for c in result.choices] == ["RTX 4090", "RTX 4080", "RTX 3090"]
        final = await double.send_slash("gpu", {"model": "RTX 4090"})
        assert (await final.wait_response()).embeds[0]["title"] == "RTX 4090"


async def test_button_press_updates_message(double: DiscordDouble) -> None:
    bot = make_bot(double)
    async with double.run(bot):
        handle = await double.send_slash("counter")
        panel = await handle.wait_response()
        assert panel.content == "count=0" and panel.custom_ids == ["counter:inc"]
        for expected in (1, 2):
            press = await double.press_button(panel.message_id, "counter:inc")
            update = await press.wait_response()
            assert update.callback_type == CB_UPDATE
            assert update.content == f"count={expected}"
        assert double.messages[panel.message_id]["content"] == "count=2"
        with pytest.raises(DoubleError, match="disabled"):
            await double.press_button(panel.message_id, "counter:inc")


async def test_gateway_drop_then_resume(double: DiscordDouble) -> None:
    bot = make_bot(double)
    async with double.run(bot):
        await double.drop_gateway(0, code=4000)
        # Sent while the shard is down: buffered and replayed on RESUME, as Discord does.
        await double.send_message(double.channel.id, "!echo after drop")
        session = await double.wait_resumed(0)
        assert (await double.wait_for_message(double.channel.id)).content == "after drop"
        assert session.conn is not None and session.conn.path == "/gateway-resume"  # resume_gateway_url used

        await double.drop_gateway(0, code=None)  # abrupt: no close frame
        await double.wait_resumed(0)
        await double.send_message(double.channel.id, "!echo still here")
        assert (await double.wait_for_message(double.channel.id)).content == "still here"
        assert len(double.identifies) == 1 and session.resumes == 2
        await eventually(lambda: bot.seen["resumed"] >= 2)


async def test_rate_limited_send_is_retried(double: DiscordDouble) -> None:
    bot = make_bot(double)
    async with double.run(bot):
        double.fail_next("POST", r"/channels/\d+/messages", 429, retry_after=0.3)
        await double.send_message(double.channel.id, "!echo patience")
        reply = await double.wait_for_message(double.channel.id, timeout=5)
        assert reply.content == "patience"
        posts = double.requests_to("POST", r"/channels/\d+/messages")
        assert [r.status for r in posts] == [429, 200]
        assert posts[0].response["retry_after"] == 0.3 and posts[0].response["global"] is False
        assert posts[1].at - posts[0].at >= 0.29


async def test_server_error_once_is_retried(double: DiscordDouble) -> None:
    bot = make_bot(double)
    async with double.run(bot):
        double.fail_next("POST", r"/channels/\d+/messages", 500)
        started = time.monotonic()
        await double.send_message(double.channel.id, "!fragile")
        reply = await double.wait_for_message(double.channel.id, timeout=5)
        assert reply.content == "made it"
        assert time.monotonic() - started >= 0.9  # discord.py waits 1 + 2*try seconds before retrying a 5xx
        assert [r.status for r in double.requests_to("POST", r"/channels/\d+/messages")] == [500, 200]
        assert bot.seen["errors"] == []


async def test_server_error_exhausts_retries(double: DiscordDouble, fast_http_retries: None) -> None:
    bot = make_bot(double)
    async with double.run(bot):
        double.fail_next("POST", r"/channels/\d+/messages", 500, count=5)
        await double.send_message(double.channel.id, "!fragile")
        await double.wait_for_request("POST", r"/channels/\d+/messages", count=5)
        await eventually(lambda: bot.seen["errors"])
        (error,) = bot.seen["errors"]
        assert isinstance(error, discord.DiscordServerError) and error.status == 500
        assert len(double.requests_to("POST", r"/channels/\d+/messages")) == 5
        assert [s for s in double.sent if s.kind == "create"] == []


async def test_allowed_mentions_recorded(double: DiscordDouble) -> None:
    bot = make_bot(double)
    async with double.run(bot):
        alice = double.add_user("alice")
        await double.send_message(double.channel.id, "!shout", author=alice)
        sent = await double.wait_for_message(double.channel.id)
        # As discord.py serialises it: ids as ints, replied_user defaulting to True.
        assert sent.allowed_mentions == {"parse": [], "users": [alice.id], "replied_user": True}
        pinged = sent.effective_mentions()
        assert pinged == {"users": {alice.id}, "roles": set(), "everyone": False, "replied_user": False}


async def test_attachment_upload_is_recorded(double: DiscordDouble) -> None:
    bot = make_bot(double)
    async with double.run(bot):
        await double.send_message(double.channel.id, "!file")
        sent = await double.wait_for_message(double.channel.id)
        assert sent.content == "here"
        assert [(f.filename, f.data) for f in sent.files] == [("t.csv", b"a,b\n1,2\n")]
        assert sent.message["attachments"][0]["filename"] == "t.csv"


async def test_several_shards_and_client_processes() -> None:
    guilds = [FakeGuild(name="even"), FakeGuild(name="odd")]
    async with DiscordDouble(guilds=guilds, shard_count=2) as double:
        even, odd = (g.id for g in guilds)
        assert [(g >> 22) % 2 for g in (even, odd)] == [0, 1]

        # One AutoShardedBot owning both shards: GET /gateway/bot tells it to use 2.
        bot = make_bot(double, sharded=True)
        async with double.run(bot):
            await double.wait_ready(0)
            await double.wait_ready(1)
            assert bot.shard_count == 2 and {g.shard_id for g in bot.guilds} == {0, 1}
            await double.send_message(guilds[1].channel.id, "!where")
            assert (await double.wait_for_message(guilds[1].channel.id)).content == "shard 1"
            await double.drop_gateway(1)
            await double.wait_resumed(1)

        # Two clients, one shard each (what two processes would do), on the same double.
        first = make_bot(double, sharded=True, shard_ids=[0], shard_count=2)
        second = make_bot(double, sharded=True, shard_ids=[1], shard_count=2)
        async with double.run(first), double.run(second):
            assert [g.name for g in first.guilds] == ["even"] and [g.name for g in second.guilds] == ["odd"]
            await double.send_message(guilds[0].channel.id, "!where")
            await double.send_message(guilds[1].channel.id, "!where")
            assert (await double.wait_for_message(guilds[0].channel.id)).content == "shard 0"
            assert (await double.wait_for_message(guilds[1].channel.id)).content == "shard 1"
            assert all(m.guild.name == "even" for m in first.seen["messages"])


async def test_unknown_routes_and_invalid_bodies_fail_loudly(double: DiscordDouble) -> None:
    bot = make_bot(double)
    async with double.run(bot):
        with pytest.raises(discord.NotFound):
            await bot.http.request(discord.http.Route("GET", "/stickers/{sticker_id}", sticker_id=1))
        assert [r.path for r in double.unknown_requests] == ["/stickers/1"]
        channel = bot.get_channel(double.channel.id)
        with pytest.raises(discord.HTTPException) as info:
            await channel.send("x" * 2001)
        assert info.value.status == 400 and info.value.code == 50035


async def test_subcommand_member_option_and_dm(double: DiscordDouble) -> None:
    bot = make_bot(double)
    async with double.run(bot):
        bob = double.add_user("bob")
        handle = await double.send_slash("cloud price", {"hours": 2.5, "payer": bob})
        assert (await handle.wait_response()).content == "2.5h billed to bob"
        await double.send_dm("!dm-me", author=bob)
        dm = await double.wait_for_message(double.dm_channel(bob).id)
        assert dm.content == "a private word"
        assert ("POST", "/users/@me/channels") in [(r.method, r.path) for r in double.requests]


CHILD_BOT = r"""
import importlib.util, sys
spec = importlib.util.spec_from_file_location("discord_double", sys.argv[1])
double_module = importlib.util.module_from_spec(spec)
sys.modules["discord_double"] = double_module
spec.loader.exec_module(double_module)
assert double_module.point_discord_py_from_env()

import discord

intents = discord.Intents.default()
intents.message_content = True
client = discord.AutoShardedClient(intents=intents, shard_ids=[1], shard_count=2, guild_ready_timeout=0.05)

async def no_identify_wait(shard_id, *, initial=False):
    return None

client.before_identify_hook = no_identify_wait

@client.event
async def on_message(message):
    if not message.author.bot:
        await message.channel.send(f"child saw {message.content}")

client.run("child-token", log_handler=None)
"""


async def test_bot_in_another_process_owns_a_shard() -> None:
    guilds = [FakeGuild(name="even"), FakeGuild(name="odd")]
    async with DiscordDouble(guilds=guilds, shard_count=2) as double:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            CHILD_BOT,
            str(Path(__file__).with_name("discord_double.py")),
            env={**os.environ, **double.env},
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        try:
            bot = make_bot(double, sharded=True, shard_ids=[0], shard_count=2)
            async with double.run(bot):
                await double.wait_ready(1, timeout=20)
                await double.send_message(guilds[1].channel.id, "hello child")
                await double.send_message(guilds[0].channel.id, "!where")
                child_reply = await double.wait_for_message(guilds[1].channel.id, timeout=10)
                assert child_reply.content == "child saw hello child"
                assert (await double.wait_for_message(guilds[0].channel.id)).content == "shard 0"
                tokens = sorted(i["token"] for i in double.identifies)
                assert tokens == ["child-token", "double-token"]
        finally:
            if proc.returncode is None:
                proc.terminate()
            _, stderr = await proc.communicate()
        assert b"Traceback" not in stderr, stderr.decode()
