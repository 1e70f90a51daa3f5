"""A test double of the Discord API (REST v10 + JSON gateway) that the real discord.py can log in to.

One aiohttp application on 127.0.0.1 (random port) serves both the REST routes under ``/api/v10`` and the
gateway websocket under ``/gateway``. Tests drive it from the outside: they inject user messages and
interactions as gateway events, then wait for what the bot sent back over REST. See docs/discord-double.md.

    async with DiscordDouble(guilds=[FakeGuild(name="GPU Lab")]) as double:
        bot = make_bot()                       # a discord.Client / commands.(AutoSharded)Bot
        async with double.run(bot):            # login + READY + GUILD_CREATE, bot.is_ready()
            await double.send_message(double.channel.id, "!ping")
            reply = await double.wait_for_message(double.channel.id)
            assert reply.content == "pong"
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import re
import secrets
import time
import zlib
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import WSMsgType, web

API_VERSION = 10
API_PREFIX = f"/api/v{API_VERSION}"
DISCORD_EPOCH = 1420070400000

# The project's settings (bot/config.py) read these; so does point_discord_py_from_env().
ENV_API = "DISCORD_API_BASE"
ENV_GATEWAY = "DISCORD_GATEWAY_URL"

# Gateway opcodes.
OP_DISPATCH, OP_HEARTBEAT, OP_IDENTIFY, OP_PRESENCE, OP_VOICE = 0, 1, 2, 3, 4
OP_RESUME, OP_RECONNECT, OP_REQUEST_MEMBERS, OP_INVALID_SESSION = 6, 7, 8, 9
OP_HELLO, OP_HEARTBEAT_ACK = 10, 11

# Intents the double looks at.
INTENT_GUILDS = 1 << 0
INTENT_MEMBERS = 1 << 1
INTENT_PRESENCES = 1 << 8
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DM_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15
PRIVILEGED_INTENTS = INTENT_MEMBERS | INTENT_PRESENCES | INTENT_MESSAGE_CONTENT

# Permission bits.
PERM_ADMINISTRATOR = 1 << 3
ALL_PERMISSIONS = (1 << 53) - 1
DEFAULT_MEMBER_PERMISSIONS = (
    (1 << 0)  # create instant invite
    | (1 << 6)  # add reactions
    | (1 << 10)  # view channel
    | (1 << 11)  # send messages
    | (1 << 14)  # embed links
    | (1 << 15)  # attach files
    | (1 << 16)  # read message history
    | (1 << 18)  # use external emojis
    | (1 << 31)  # use application commands
)

# Message flags.
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7

# Interaction types and callback types.
IT_PING, IT_COMMAND, IT_COMPONENT, IT_AUTOCOMPLETE, IT_MODAL = 1, 2, 3, 4, 5
CB_PONG, CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE, CB_UPDATE = 1, 4, 5, 6, 7
CB_AUTOCOMPLETE, CB_MODAL = 8, 9
_ALLOWED_CALLBACKS = {
    IT_PING: {CB_PONG},
    IT_COMMAND: {CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_MODAL, 10, 12},
    IT_COMPONENT: {CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE, CB_UPDATE, CB_MODAL, 10, 12},
    IT_AUTOCOMPLETE: {CB_AUTOCOMPLETE},
    IT_MODAL: {CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE, CB_UPDATE, 10, 12},
}

# Where the middleware keeps the RecordedRequest of the request being handled.
_REC: Any = web.RequestKey("discord_double_rec", object) if hasattr(web, "RequestKey") else "discord_double_rec"

_MENTION_USER = re.compile(r"<@!?(\d+)>")
_MENTION_ROLE = re.compile(r"<@&(\d+)>")
_COMMAND_NAME = re.compile(r"^[-_'\w]{1,32}$")


class DoubleError(Exception):
    """The test asked the double for something Discord would not allow (or the double cannot do)."""


class DoubleTimeout(AssertionError):
    """Nothing matching arrived in time. An AssertionError so pytest shows it as a test failure."""


def _now_iso() -> str:
    return datetime.now(UTC).isoformat()


def _sid(value: Any) -> int:
    """A snowflake from an int, str, or any object with an ``id``."""
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        return int(value)
    if isinstance(value, dict):
        return int(value["id"])
    return int(value.id)


def _perm_value(value: Any) -> int:
    if value is None:
        return 0
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        return int(value)
    return int(value.value)  # discord.Permissions


class _Snowflakes:
    """Strictly increasing snowflakes carrying the current time, like Discord's."""

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        value = ((int(time.time() * 1000) - DISCORD_EPOCH) << 22) | (1 << 17)
        value = max(value, self._last + 1)
        self._last = value
        return value

    def for_shard(self, shard_id: int, shard_count: int) -> int:
        """A fresh guild id that Discord's formula ``(id >> 22) % shard_count`` puts on ``shard_id``."""
        base = self.next()
        ts = base >> 22
        ts += (shard_id - ts) % shard_count
        value = (ts << 22) | (base & ((1 << 22) - 1))
        self._last = max(self._last, value)
        return value


def shard_for(guild_id: int | None, shard_count: int) -> int:
    """Discord's shard formula; DMs go to shard 0."""
    if guild_id is None:
        return 0
    return (guild_id >> 22) % max(shard_count, 1)


# --------------------------------------------------------------------------------------------------------------
# Fake entities
# --------------------------------------------------------------------------------------------------------------


@dataclass
class FakeUser:
    id: int
    username: str
    bot: bool = False
    global_name: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.username,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass
class FakeRole:
    id: int = 0
    name: str = "role"
    permissions: int = 0
    position: int = 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": False,
            "mentionable": True,
            "flags": 0,
        }

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"


@dataclass
class FakeChannel:
    id: int = 0
    name: str = "general"
    type: int = 0  # 0 text, 1 DM, 2 voice, 4 category, 5 news, 11 public thread, 15 forum
    guild_id: int | None = None
    position: int = 0
    topic: str | None = None
    parent_id: int | None = None
    nsfw: bool = False
    recipients: list[FakeUser] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        if self.type == 1:
            return {
                "id": str(self.id),
                "type": 1,
                "last_message_id": None,
                "recipients": [u.to_dict() for u in self.recipients],
            }
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id) if self.guild_id else None,
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "nsfw": self.nsfw,
            "parent_id": str(self.parent_id) if self.parent_id else None,
            "topic": self.topic,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if self.type in (2, 13):
            data.update(bitrate=64000, user_limit=0, rtc_region=None)
        return data

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"


@dataclass
class FakeMember:
    user: FakeUser
    roles: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=_now_iso)

    def to_dict(self, *, with_user: bool = True, permissions: int | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "roles": [str(r) for r in self.roles],
            "nick": self.nick,
            "avatar": None,
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.to_dict()
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclass
class FakeGuild:
    """A guild. ``id=0`` lets the double pick an id on the right shard; channels may be given as names."""

    id: int = 0
    name: str = "Test Guild"
    channels: list[FakeChannel | str] = field(default_factory=lambda: ["general"])
    roles: list[FakeRole] = field(default_factory=list)
    members: dict[int, FakeMember] = field(default_factory=dict)
    owner_id: int | None = None
    preferred_locale: str = "en-US"
    everyone_permissions: int = DEFAULT_MEMBER_PERMISSIONS

    @property
    def text_channels(self) -> list[FakeChannel]:
        return [c for c in self.channels if isinstance(c, FakeChannel) and c.type in (0, 5)]

    @property
    def channel(self) -> FakeChannel:
        """The first text channel."""
        return self.text_channels[0]

    def role(self, name: str) -> FakeRole:
        for role in self.roles:
            if role.name == name:
                return role
        raise KeyError(name)

    def permissions_of(self, user_id: int) -> int:
        member = self.members.get(user_id)
        perms = self.everyone_permissions
        if member is not None:
            for role in self.roles:
                if role.id in member.roles:
                    perms |= role.permissions
        if user_id == self.owner_id or perms & PERM_ADMINISTRATOR:
            return ALL_PERMISSIONS
        return perms

    def to_dict(self, bot_user_id: int) -> dict[str, Any]:
        members = list(self.members.values())
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id) if self.owner_id else None,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.preferred_locale,
            "features": [],
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "max_members": 500000,
            "max_video_channel_users": 25,
            "premium_progress_bar_enabled": False,
            "roles": [r.to_dict() for r in self.roles],
            "emojis": [],
            "stickers": [],
            "joined_at": _now_iso(),
            "large": False,
            "unavailable": False,
            "member_count": len(members),
            "voice_states": [],
            "members": [m.to_dict() for m in members],
            "channels": [c.to_dict() for c in self.channels if isinstance(c, FakeChannel)],
            "threads": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }


# --------------------------------------------------------------------------------------------------------------
# Records
# --------------------------------------------------------------------------------------------------------------


@dataclass
class UploadedFile:
    field: str
    filename: str | None
    content_type: str | None
    data: bytes


@dataclass
class RecordedRequest:
    """One REST request as the double saw it."""

    method: str
    path: str  # relative to /api/v10, e.g. "/channels/123/messages"
    query: dict[str, str]
    headers: dict[str, str]
    json: Any = None
    files: list[UploadedFile] = field(default_factory=list)
    status: int | None = None
    response: Any = None
    injected: bool = False  # answered by fail_next()
    unknown: bool = False  # no route in the double
    at: float = field(default_factory=time.monotonic)

    def __repr__(self) -> str:
        return f"<{self.method} {self.path} -> {self.status}{' (injected)' if self.injected else ''}>"


@dataclass
class Sent:
    """Something the bot sent that shows up to users: a message, an edit, a delete, an interaction callback."""

    seq: int
    kind: str  # "create" | "followup" | "callback" | "edit" | "delete"
    route: str  # e.g. "POST /channels/{channel_id}/messages"
    channel_id: int | None
    message_id: int | None
    payload: dict[str, Any]  # exactly what discord.py sent (payload_json for multipart)
    files: list[UploadedFile] = field(default_factory=list)
    message: dict[str, Any] | None = None  # the message as it looks after this operation
    callback_type: int | None = None
    interaction_id: int | None = None
    at: float = field(default_factory=time.monotonic)

    @property
    def data(self) -> dict[str, Any]:
        """The message-ish body: ``payload["data"]`` for callbacks, the payload itself otherwise."""
        if self.kind == "callback":
            return self.payload.get("data") or {}
        return self.payload

    @property
    def content(self) -> str | None:
        if self.message is not None:
            return self.message.get("content")
        return self.data.get("content")

    @property
    def embeds(self) -> list[dict[str, Any]]:
        if self.message is not None:
            return self.message.get("embeds") or []
        return self.data.get("embeds") or []

    @property
    def components(self) -> list[dict[str, Any]]:
        if self.message is not None:
            return self.message.get("components") or []
        return self.data.get("components") or []

    @property
    def allowed_mentions(self) -> dict[str, Any] | None:
        """As sent; ``None`` when discord.py sent none (Discord then parses every mention)."""
        return self.data.get("allowed_mentions")

    @property
    def flags(self) -> int:
        if self.message is not None:
            return int(self.message.get("flags") or 0)
        return int(self.data.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def choices(self) -> list[dict[str, Any]]:
        """Autocomplete choices (callback type 8)."""
        return self.data.get("choices") or []

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in _walk_components(self.components) if "custom_id" in c]

    @property
    def text(self) -> str:
        """Content plus embed titles/descriptions/fields, for loose assertions."""
        parts = [self.content or ""]
        for embed in self.embeds:
            parts += [embed.get("title") or "", embed.get("description") or ""]
            for f in embed.get("fields") or []:
                parts += [f.get("name") or "", f.get("value") or ""]
            parts.append((embed.get("footer") or {}).get("text") or "")
        return "\n".join(p for p in parts if p)

    @property
    def visible(self) -> bool:
        """True once a user would see a result (not a bare defer)."""
        if self.kind == "callback":
            return self.callback_type in (CB_MESSAGE, CB_UPDATE, CB_AUTOCOMPLETE, CB_MODAL)
        return self.kind in ("create", "followup", "edit")

    def effective_mentions(self, reply_author_id: int | None = None) -> dict[str, Any]:
        """Who Discord would actually ping, applying ``allowed_mentions`` to the content."""
        return effective_mentions(self.content or "", self.allowed_mentions, reply_author_id=reply_author_id)

    def __repr__(self) -> str:
        cb = f" type={self.callback_type}" if self.callback_type is not None else ""
        return f"<Sent #{self.seq} {self.kind}{cb} {self.route} content={self.content!r}>"


def effective_mentions(
    content: str, allowed: dict[str, Any] | None, *, reply_author_id: int | None = None
) -> dict[str, Any]:
    users = {int(m) for m in _MENTION_USER.findall(content)}
    roles = {int(m) for m in _MENTION_ROLE.findall(content)}
    everyone = "@everyone" in content or "@here" in content
    if allowed is None:
        return {"users": users, "roles": roles, "everyone": everyone, "replied_user": reply_author_id is not None}
    parse = set(allowed.get("parse") or [])
    allowed_users = {int(u) for u in allowed.get("users") or []}
    allowed_roles = {int(r) for r in allowed.get("roles") or []}
    return {
        "users": {u for u in users if "users" in parse or u in allowed_users},
        "roles": {r for r in roles if "roles" in parse or r in allowed_roles},
        "everyone": everyone and "everyone" in parse,
        "replied_user": reply_author_id is not None and bool(allowed.get("replied_user", False)),
    }


def _walk_components(components: Iterable[dict[str, Any]]) -> Iterable[dict[str, Any]]:
    for comp in components or []:
        yield comp
        yield from _walk_components(comp.get("components") or [])
        if isinstance(comp.get("accessory"), dict):
            yield comp["accessory"]
        if isinstance(comp.get("component"), dict):
            yield from _walk_components([comp["component"]])


class InteractionHandle:
    """An interaction the double dispatched; collects the bot's callback, follow-ups and edits."""

    def __init__(self, double: DiscordDouble, payload: dict[str, Any], source_message_id: int | None) -> None:
        self.double = double
        self.payload = payload
        self.id = int(payload["id"])
        self.token: str = payload["token"]
        self.type: int = payload["type"]
        self.guild_id = int(payload["guild_id"]) if payload.get("guild_id") else None
        self.channel_id = int(payload["channel_id"])
        self.created = time.monotonic()
        self.source_message_id = source_message_id  # component interactions: the message the button is on
        self.original_message_id: int | None = None
        self.followup_ids: list[int] = []
        self.responses: list[Sent] = []

    @property
    def callback(self) -> Sent | None:
        return next((s for s in self.responses if s.kind == "callback"), None)

    @property
    def original(self) -> dict[str, Any] | None:
        """The original response message as it looks now (after edits)."""
        if self.original_message_id is None:
            return None
        return self.double.messages.get(self.original_message_id)

    @property
    def followups(self) -> list[Sent]:
        return [s for s in self.responses if s.kind == "followup"]

    async def wait_callback(self, timeout: float = 5.0) -> Sent:
        return await self.double._wait_for(lambda: self.callback, timeout, f"a callback to interaction {self.id}")

    async def wait_response(self, timeout: float = 5.0, predicate: Callable[[Sent], bool] | None = None) -> Sent:
        """The first response a user would see (a bare defer is skipped), or the first one matching ``predicate``.

        Responses are the callback, follow-ups, and edits/deletes of the original or follow-ups, in order.
        """

        def find() -> Sent | None:
            for sent in self.responses:
                if predicate(sent) if predicate is not None else sent.visible:
                    self.double._consumed.add(sent.seq)  # so wait_for_message() will not return it again
                    return sent
            return None

        return await self.double._wait_for(find, timeout, f"a response to interaction {self.id} ({self.describe()})")

    def describe(self) -> str:
        data = self.payload.get("data") or {}
        return str(data.get("name") or data.get("custom_id") or self.type)

    def __repr__(self) -> str:
        return f"<InteractionHandle {self.id} type={self.type} {self.describe()!r} responses={self.responses}>"


@dataclass
class _Fault:
    method: str
    pattern: re.Pattern[str]
    status: int
    remaining: int
    retry_after: float
    is_global: bool
    body: Any


@dataclass
class _Delay:
    method: str
    pattern: re.Pattern[str]
    seconds: float
    remaining: int


# --------------------------------------------------------------------------------------------------------------
# Gateway
# --------------------------------------------------------------------------------------------------------------


class GatewayConnection:
    def __init__(self, double: DiscordDouble, request: web.Request, ws: web.WebSocketResponse) -> None:
        self.double = double
        self.request = request
        self.ws = ws
        self.path = request.path
        self.query = dict(request.query)
        self.compress = self.query.get("compress")
        self._zlib = zlib.compressobj() if self.compress == "zlib-stream" else None
        self._lock = asyncio.Lock()
        self.session: GatewaySession | None = None
        self.heartbeats = 0
        self.received: list[dict[str, Any]] = []
        self.opened = time.monotonic()
        self.close_code: int | None = None

    async def send(self, payload: dict[str, Any]) -> None:
        text = json.dumps(payload, separators=(",", ":"))
        async with self._lock:
            if self._zlib is not None:
                data = self._zlib.compress(text.encode()) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
                await self.ws.send_bytes(data)
            else:
                # zstd-stream is not implemented; discord.py reads TEXT frames uncompressed whatever it asked for.
                await self.ws.send_str(text)

    @property
    def closed(self) -> bool:
        return self.ws.closed


class GatewaySession:
    """A gateway session (one per IDENTIFY); survives dropped connections so the client can RESUME."""

    def __init__(self, double: DiscordDouble, identify: dict[str, Any], conn: GatewayConnection) -> None:
        self.double = double
        self.session_id = secrets.token_hex(16)
        self.identify = identify
        shard = identify.get("shard") or [0, 1]
        self.shard_id, self.shard_count = int(shard[0]), int(shard[1])
        self.intents = int(identify.get("intents") or 0)
        self.token = identify.get("token")
        self.seq = 0
        self.events: list[dict[str, Any]] = []
        self.conn: GatewayConnection | None = conn
        self.connections: list[GatewayConnection] = [conn]
        self.invalid = False
        self.ready_sent = False
        self.resumes = 0
        self.drops = 0
        self.presence_updates: list[dict[str, Any]] = []

    @property
    def connected(self) -> bool:
        return self.conn is not None and not self.conn.closed

    def has_intent(self, bit: int) -> bool:
        return bool(self.intents & bit)

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        self.seq += 1
        payload = {"op": OP_DISPATCH, "t": event, "s": self.seq, "d": data}
        self.events.append(payload)
        await self._send_live(payload)

    async def _send_live(self, payload: dict[str, Any]) -> None:
        conn = self.conn
        if conn is None or conn.closed:
            return  # kept in self.events, replayed on RESUME
        try:
            await conn.send(payload)
        except (ConnectionError, RuntimeError):
            self.conn = None

    def __repr__(self) -> str:
        state = "live" if self.connected else ("invalid" if self.invalid else "disconnected")
        return (
            f"<GatewaySession shard={self.shard_id}/{self.shard_count} seq={self.seq} {state} resumes={self.resumes}>"
        )


# --------------------------------------------------------------------------------------------------------------
# The double
# --------------------------------------------------------------------------------------------------------------


def point_discord_py_at(api_base: str, gateway_url: str) -> Callable[[], None]:
    """Set ``Route.BASE`` and ``DiscordWebSocket.DEFAULT_GATEWAY`` (process-wide); returns an undo function."""
    import discord.gateway
    import discord.http
    import yarl

    old_base = discord.http.Route.BASE
    old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)

    def restore() -> None:
        discord.http.Route.BASE = old_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway

    return restore


def point_discord_py_from_env() -> bool:
    """For a bot in another process: honour DISCORD_API_BASE / DISCORD_GATEWAY_URL if set."""
    api, gateway = os.environ.get(ENV_API), os.environ.get(ENV_GATEWAY)
    if not api or not gateway:
        return False
    point_discord_py_at(api, gateway)
    return True


class DiscordDouble:
    """The Discord API double. Use as ``async with DiscordDouble(...) as double``."""

    def __init__(
        self,
        guilds: Iterable[FakeGuild | int | str] | None = None,
        *,
        shard_count: int = 1,
        bot_name: str = "GPU Advisor",
        application_id: int | None = None,
        token: str | None = None,
        heartbeat_interval_ms: int = 41250,
        allowed_privileged_intents: int = PRIVILEGED_INTENTS,
        enforce_content_intent: bool = True,
        echo_bot_messages: bool = True,
        interaction_timeout: float | None = 3.0,
        patch_discord: bool = True,
    ) -> None:
        self.ids = _Snowflakes()
        self.shard_count = shard_count
        self.token = token
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.allowed_privileged_intents = allowed_privileged_intents
        self.enforce_content_intent = enforce_content_intent
        self.echo_bot_messages = echo_bot_messages
        self.interaction_timeout = interaction_timeout
        self.patch_discord = patch_discord

        self.application_id = application_id or self.ids.next()
        self.bot_user = FakeUser(self.application_id, bot_name, bot=True)
        self.owner = FakeUser(self.ids.next(), "owner")
        self.default_user = FakeUser(self.ids.next(), "tester", global_name="Tester")
        self.users: dict[int, FakeUser] = {u.id: u for u in (self.bot_user, self.owner, self.default_user)}

        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        for index, spec in enumerate(list(guilds) if guilds is not None else [FakeGuild()]):
            self.add_guild(spec, _index=index)

        # Observable state.
        self.requests: list[RecordedRequest] = []
        self.sent: list[Sent] = []
        self.messages: dict[int, dict[str, Any]] = {}
        self.edits: dict[int, list[dict[str, Any]]] = {}
        self.deleted: set[int] = set()
        self.interactions: dict[int, InteractionHandle] = {}
        self.commands: dict[int | None, list[dict[str, Any]]] = {}  # None = global
        self.sync_log: list[tuple[int | None, list[str]]] = []
        self.sessions: list[GatewaySession] = []
        self.connections: list[GatewayConnection] = []
        self.identifies: list[dict[str, Any]] = []
        self.reactions: list[tuple[int, int, str]] = []
        self.typing: list[int] = []
        self.files: dict[int, tuple[str, bytes, str | None]] = {}

        self._faults: list[_Fault] = []
        self._delays: list[_Delay] = []
        self._consumed: set[int] = set()
        self._seq = itertools.count(1)
        self._tick = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self._site: web.TCPSite | None = None
        self._restore: Callable[[], None] | None = None
        self.port: int | None = None

    # ------------------------------------------------------------------ setup / lifecycle

    def add_guild(self, spec: FakeGuild | int | str, *, _index: int | None = None) -> FakeGuild:
        if isinstance(spec, FakeGuild):
            guild = spec
        elif isinstance(spec, int):
            guild = FakeGuild(id=spec)
        else:
            guild = FakeGuild(name=spec)
        index = len(self.guilds) if _index is None else _index
        if not guild.id:
            guild.id = self.ids.for_shard(index % self.shard_count, self.shard_count)
        if guild.owner_id is None:
            guild.owner_id = self.owner.id
        if not any(r.id == guild.id for r in guild.roles):
            guild.roles.insert(
                0, FakeRole(id=guild.id, name="@everyone", permissions=guild.everyone_permissions, position=0)
            )
        for role in guild.roles:
            if not role.id:
                role.id = self.ids.next()
        channels: list[FakeChannel | str] = []
        for position, chan in enumerate(guild.channels):
            if isinstance(chan, str):
                chan = FakeChannel(name=chan)
            if not chan.id:
                chan.id = self.ids.next()
            chan.guild_id = guild.id
            chan.position = chan.position or position
            channels.append(chan)
            self.channels[chan.id] = chan
        guild.channels = channels
        for user in (self.bot_user, self.owner, self.default_user):
            guild.members.setdefault(user.id, FakeMember(user))
        for member in guild.members.values():
            self.users.setdefault(member.user.id, member.user)
        self.guilds[guild.id] = guild
        return guild

    def add_user(
        self,
        username: str,
        *,
        guild_id: int | None = None,
        roles: Iterable[FakeRole | int] = (),
        bot: bool = False,
    ) -> FakeUser:
        """A new user, made a member of ``guild_id`` (default: every guild)."""
        user = FakeUser(self.ids.next(), username, bot=bot)
        self.users[user.id] = user
        for guild in self.guilds.values():
            if guild_id is None or guild.id == guild_id:
                guild.members[user.id] = FakeMember(user, roles=[_sid(r) for r in roles])
        return user

    def add_role(self, guild_id: int, name: str, permissions: Any = 0) -> FakeRole:
        guild = self.guilds[guild_id]
        role = FakeRole(self.ids.next(), name, _perm_value(permissions), position=len(guild.roles))
        guild.roles.append(role)
        return role

    @property
    def guild(self) -> FakeGuild:
        """The first guild."""
        return next(iter(self.guilds.values()))

    @property
    def channel(self) -> FakeChannel:
        """The first text channel of the first guild."""
        return self.guild.channel

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.base_url}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    @property
    def resume_gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway-resume"

    @property
    def env(self) -> dict[str, str]:
        """Environment for a bot in another process (see ``point_discord_py_from_env``)."""
        return {ENV_API: self.api_base, ENV_GATEWAY: self.gateway_url}

    async def start(self) -> DiscordDouble:
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        self._add_routes(app)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.5)
        await self._runner.setup()
        self._site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await self._site.start()
        server = self._site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        if self.patch_discord:
            self.configure_client()
        return self

    def configure_client(self) -> None:
        """Point discord.py (this process) at the double. Undone by ``stop()``."""
        restore = point_discord_py_at(self.api_base, self.gateway_url)
        if self._restore is None:
            self._restore = restore

    async def stop(self) -> None:
        for conn in list(self.connections):
            if not conn.closed:
                with contextlib.suppress(Exception):
                    await conn.ws.close(code=1001, message=b"double stopping")
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._restore is not None:
            self._restore()
            self._restore = None

    async def __aenter__(self) -> DiscordDouble:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @contextlib.asynccontextmanager
    async def run(
        self,
        client: Any,
        token: str | None = None,
        *,
        ready_timeout: float = 10.0,
        fast: bool = True,
    ) -> AsyncIterator[Any]:
        """Start ``client`` against the double, wait until discord.py says it is ready, close it afterwards.

        ``fast`` shortens discord.py's startup sleeps: ``guild_ready_timeout`` (2 s) and the 5 s
        ``before_identify_hook`` between shards.
        """
        if fast:
            state = client._connection
            state.guild_ready_timeout = min(state.guild_ready_timeout, 0.05)

            async def _no_identify_wait(shard_id: int | None, *, initial: bool = False) -> None:
                return None

            client.before_identify_hook = _no_identify_wait
        task = asyncio.create_task(client.start(token or self.token or "double-token"), name="double-client")
        ready = asyncio.create_task(client.wait_until_ready())
        try:
            done, _ = await asyncio.wait({task, ready}, timeout=ready_timeout, return_when=asyncio.FIRST_COMPLETED)
            if task in done:
                task.result()  # raises whatever stopped the client
                raise DoubleError("client.start() returned before the client was ready")
            if ready not in done:
                raise DoubleTimeout(f"client not ready after {ready_timeout}s; sessions={self.sessions}")
            yield client
        finally:
            ready.cancel()
            await client.close()
            try:
                await asyncio.wait_for(task, 5)
            except (asyncio.CancelledError, TimeoutError):
                task.cancel()
            except Exception:
                pass

    # ------------------------------------------------------------------ waiting

    def _notify(self) -> None:
        tick, self._tick = self._tick, asyncio.Event()
        tick.set()

    async def _wait_for(self, find: Callable[[], Any], timeout: float, what: str) -> Any:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            found = find()
            if found is not None:
                return found
            remaining = deadline - loop.time()
            if remaining <= 0:
                recent = self.sent[-5:]
                unknown = [r for r in self.requests if r.unknown][-5:]
                raise DoubleTimeout(
                    f"timed out after {timeout}s waiting for {what}; last bot output: {recent}; "
                    f"unknown routes: {unknown}; sessions: {self.sessions}"
                )
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._tick.wait(), remaining)

    def _live_sessions(self, shard_id: int | None = None) -> list[GatewaySession]:
        return [s for s in self.sessions if not s.invalid and (shard_id is None or s.shard_id == shard_id)]

    async def wait_ready(self, shard_id: int = 0, timeout: float = 10.0) -> GatewaySession:
        """Until a session for ``shard_id`` got READY and its GUILD_CREATEs (the client may still be settling)."""

        def find() -> GatewaySession | None:
            return next((s for s in self._live_sessions(shard_id) if s.ready_sent and s.connected), None)

        return await self._wait_for(find, timeout, f"READY on shard {shard_id}")

    async def wait_resumed(self, shard_id: int = 0, timeout: float = 10.0) -> GatewaySession:
        """Until the session of ``shard_id`` has RESUMED after its last drop."""

        def find() -> GatewaySession | None:
            return next(
                (s for s in self._live_sessions(shard_id) if s.drops and s.resumes >= s.drops and s.connected), None
            )

        return await self._wait_for(find, timeout, f"RESUME on shard {shard_id}")

    async def wait_for_message(
        self,
        channel_id: int | None = None,
        predicate: Callable[[Sent], bool] | None = None,
        timeout: float = 5.0,
    ) -> Sent:
        """The oldest bot-created message (channel send, interaction reply, follow-up) not returned before."""

        def find() -> Sent | None:
            for sent in self.sent:
                if sent.seq in self._consumed or sent.message is None:
                    continue
                if sent.kind not in ("create", "followup") and not (
                    sent.kind == "callback" and sent.callback_type == CB_MESSAGE
                ):
                    continue
                if channel_id is not None and sent.channel_id != channel_id:
                    continue
                if predicate is not None and not predicate(sent):
                    continue
                self._consumed.add(sent.seq)
                return sent
            return None

        return await self._wait_for(find, timeout, f"a bot message in channel {channel_id}")

    async def wait_for_edit(
        self, message_id: int, predicate: Callable[[Sent], bool] | None = None, timeout: float = 5.0
    ) -> Sent:
        def find() -> Sent | None:
            for sent in self.sent:
                is_edit = sent.kind == "edit" or sent.callback_type == CB_UPDATE
                if sent.message_id == message_id and is_edit and (predicate is None or predicate(sent)):
                    return sent
            return None

        return await self._wait_for(find, timeout, f"an edit of message {message_id}")

    async def wait_for_request(
        self, method: str, path_regex: str, timeout: float = 5.0, count: int = 1
    ) -> list[RecordedRequest]:
        def find() -> list[RecordedRequest] | None:
            hits = self.requests_to(method, path_regex)
            done = [r for r in hits if r.status is not None]
            return done if len(done) >= count else None

        return await self._wait_for(find, timeout, f"{count}x {method} {path_regex}")

    def requests_to(self, method: str, path_regex: str) -> list[RecordedRequest]:
        pattern = re.compile(path_regex)
        return [r for r in self.requests if r.method == method.upper() and pattern.fullmatch(r.path)]

    @property
    def unknown_requests(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.unknown]

    # ------------------------------------------------------------------ fault injection

    def fail_next(
        self,
        method: str,
        path_regex: str,
        status: int = 429,
        count: int = 1,
        *,
        retry_after: float = 0.1,
        is_global: bool = False,
        body: Any = None,
    ) -> None:
        """The next ``count`` requests matching ``method`` and ``path_regex`` (fullmatch on the path after
        /api/v10) answer ``status``. A 429 carries ``Retry-After``/``retry_after``/``global`` and ``Via``."""
        self._faults.append(_Fault(method.upper(), re.compile(path_regex), status, count, retry_after, is_global, body))

    def delay_next(self, method: str, path_regex: str, seconds: float, count: int = 1) -> None:
        """The next ``count`` requests matching ``method`` and ``path_regex`` are handled ``seconds``
        late, as if they had been slow to reach Discord: an interaction callback that arrives past
        the 3 s window then gets 404 10062, like on Discord. Faults (``fail_next``) apply after the delay."""
        self._delays.append(_Delay(method.upper(), re.compile(path_regex), seconds, count))

    def _take_delay(self, method: str, path: str) -> float:
        for delay in self._delays:
            if delay.remaining > 0 and delay.method in (method, "*") and delay.pattern.fullmatch(path):
                delay.remaining -= 1
                return delay.seconds
        return 0.0

    def _take_fault(self, method: str, path: str) -> _Fault | None:
        for fault in self._faults:
            if fault.remaining > 0 and fault.method in (method, "*") and fault.pattern.fullmatch(path):
                fault.remaining -= 1
                return fault
        return None

    @staticmethod
    def _fault_response(fault: _Fault) -> tuple[web.Response, Any]:
        if fault.status == 429:
            body = fault.body or {
                "message": "You are being rate limited.",
                "retry_after": fault.retry_after,
                "global": fault.is_global,
                "code": 0,
            }
            headers = {
                "Retry-After": str(max(1, int(fault.retry_after + 0.999))),
                "X-RateLimit-Scope": "global" if fault.is_global else "user",
                "Via": "1.1 google",  # discord.py treats a 429 without Via as a Cloudflare ban
            }
            if fault.is_global:
                headers["X-RateLimit-Global"] = "true"
            return _json_response(body, 429, headers), body
        body = fault.body or {"message": f"{fault.status}: injected failure", "code": 0}
        return _json_response(body, fault.status), body

    # ------------------------------------------------------------------ gateway-side helpers

    async def _dispatch(
        self, event: str, data: dict[str, Any], *, guild_id: int | None, strict: bool = True
    ) -> list[GatewaySession]:
        delivered = []
        for session in self._live_sessions():
            if shard_for(guild_id, session.shard_count) != session.shard_id:
                continue
            if not self._intent_allows(session, event, guild_id):
                continue
            await session.dispatch(event, self._shape_for(session, event, data, guild_id))
            delivered.append(session)
        if strict and not any(True for s in self._live_sessions() if shard_for(guild_id, s.shard_count) == s.shard_id):
            raise DoubleError(f"no gateway session for the shard of guild {guild_id}; is the client running?")
        self._notify()
        return delivered

    def _intent_allows(self, session: GatewaySession, event: str, guild_id: int | None) -> bool:
        if event.startswith("MESSAGE_"):
            return session.has_intent(INTENT_GUILD_MESSAGES if guild_id else INTENT_DM_MESSAGES)
        return True

    def _shape_for(
        self, session: GatewaySession, event: str, data: dict[str, Any], guild_id: int | None
    ) -> dict[str, Any]:
        """Strip message content as Discord does when MESSAGE_CONTENT is missing."""
        if not (
            self.enforce_content_intent
            and event in ("MESSAGE_CREATE", "MESSAGE_UPDATE")
            and guild_id is not None
            and not session.has_intent(INTENT_MESSAGE_CONTENT)
        ):
            return data
        author = (data.get("author") or {}).get("id")
        mentioned = any(str(m.get("id")) == str(self.bot_user.id) for m in data.get("mentions") or [])
        if author == str(self.bot_user.id) or mentioned:
            return data
        stripped = dict(data)
        stripped.update(content="", embeds=[], attachments=[], components=[])
        stripped.pop("poll", None)
        return stripped

    # ------------------------------------------------------------------ test-driven events

    def _user(self, who: Any) -> FakeUser:
        if who is None:
            return self.default_user
        if isinstance(who, FakeUser):
            self.users.setdefault(who.id, who)
            return who
        if isinstance(who, str) and not who.isdigit():
            for user in self.users.values():
                if user.username == who:
                    return user
            return self.add_user(who)
        uid = _sid(who)
        if uid not in self.users:
            raise DoubleError(f"unknown user {uid}; use double.add_user()")
        return self.users[uid]

    def _guild_of_channel(self, channel_id: int) -> int | None:
        chan = self.channels.get(channel_id)
        return chan.guild_id if chan else None

    def dm_channel(self, user: Any) -> FakeChannel:
        """The DM channel between the bot and ``user`` (created on first use)."""
        user = self._user(user)
        for chan in self.channels.values():
            if chan.type == 1 and any(r.id == user.id for r in chan.recipients):
                return chan
        chan = FakeChannel(id=self.ids.next(), name="", type=1, recipients=[user])
        self.channels[chan.id] = chan
        return chan

    def _member_payload(self, guild: FakeGuild, user: FakeUser, *, with_user: bool, permissions: int | None = None):
        member = guild.members.get(user.id)
        if member is None:
            member = guild.members[user.id] = FakeMember(user)
        return member.to_dict(with_user=with_user, permissions=permissions)

    async def send_message(
        self,
        channel_id: int | FakeChannel,
        content: str = "",
        *,
        author: Any = None,
        mentions: Iterable[Any] = (),
        mention_roles: Iterable[Any] = (),
        guild_id: int | None = None,
        embeds: list[dict[str, Any]] | None = None,
        attachments: Iterable[tuple[str, bytes]] = (),
        reference: int | None = None,
    ) -> dict[str, Any]:
        """A user posts a message: dispatches MESSAGE_CREATE to the right shard, returns the message payload."""
        channel_id = _sid(channel_id)
        if guild_id is None:
            guild_id = self._guild_of_channel(channel_id)
        if channel_id not in self.channels:
            raise DoubleError(f"unknown channel {channel_id}")
        user = self._user(author)
        mention_ids = [_sid(m) for m in mentions] + [int(m) for m in _MENTION_USER.findall(content)]
        role_ids = [_sid(r) for r in mention_roles] + [int(r) for r in _MENTION_ROLE.findall(content)]
        guild = self.guilds.get(guild_id) if guild_id else None
        mention_payloads = []
        for uid in dict.fromkeys(mention_ids):
            mentioned = self._user(uid)
            entry = mentioned.to_dict()
            if guild is not None:
                entry["member"] = self._member_payload(guild, mentioned, with_user=False)
            mention_payloads.append(entry)
        message_id = self.ids.next()
        files = []
        for filename, data in attachments:
            att_id = self.ids.next()
            self.files[att_id] = (filename, data, None)
            files.append(self._attachment_payload(att_id, filename, len(data), None))
        msg: dict[str, Any] = {
            "id": str(message_id),
            "type": 19 if reference else 0,
            "channel_id": str(channel_id),
            "author": user.to_dict(),
            "content": content,
            "timestamp": _now_iso(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": "@everyone" in content or "@here" in content,
            "mentions": mention_payloads,
            "mention_roles": [str(r) for r in dict.fromkeys(role_ids)],
            "attachments": files,
            "embeds": embeds or [],
            "pinned": False,
            "flags": 0,
            "components": [],
        }
        if reference:
            msg["message_reference"] = {"message_id": str(reference), "channel_id": str(channel_id), "type": 0}
            if reference in self.messages:
                msg["referenced_message"] = self.messages[reference]
        if guild is not None:
            msg["guild_id"] = str(guild.id)
            msg["member"] = self._member_payload(guild, user, with_user=False)
        self.messages[message_id] = msg
        await self._dispatch("MESSAGE_CREATE", msg, guild_id=guild_id)
        return msg

    async def send_dm(self, content: str, *, author: Any = None) -> dict[str, Any]:
        chan = self.dm_channel(author)
        return await self.send_message(chan.id, content, author=chan.recipients[0])

    def _interaction_base(
        self,
        itype: int,
        *,
        user: Any,
        channel_id: int | None,
        guild_id: int | None,
        permissions: Any,
        locale: str,
    ) -> dict[str, Any]:
        user_obj = self._user(user)
        if channel_id is None:
            channel_id = self.guilds[guild_id].channel.id if guild_id else self.channel.id
        channel_id = _sid(channel_id)
        if guild_id is None:
            guild_id = self._guild_of_channel(channel_id)
        chan = self.channels.get(channel_id) or FakeChannel(id=channel_id, guild_id=guild_id)
        payload: dict[str, Any] = {
            "id": str(self.ids.next()),
            "application_id": str(self.application_id),
            "type": itype,
            "token": "itok_" + secrets.token_urlsafe(24),
            "version": 1,
            "channel_id": str(channel_id),
            "locale": locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": 8 * 1024 * 1024,
        }
        if guild_id:
            guild = self.guilds[guild_id]
            perms = guild.permissions_of(user_obj.id) if permissions is None else _perm_value(permissions)
            chan_payload = chan.to_dict()
            chan_payload["permissions"] = str(perms)
            payload.update(
                guild_id=str(guild_id),
                guild={"id": str(guild_id), "locale": guild.preferred_locale, "features": []},
                guild_locale=guild.preferred_locale,
                channel=chan_payload,
                member=self._member_payload(guild, user_obj, with_user=True, permissions=perms),
                app_permissions=str(guild.permissions_of(self.bot_user.id)),
                authorizing_integration_owners={"0": str(guild_id)},
                context=0,
            )
        else:
            payload.update(
                channel=chan.to_dict(),
                user=user_obj.to_dict(),
                app_permissions=str(DEFAULT_MEMBER_PERMISSIONS),
                authorizing_integration_owners={"0": str(self.application_id)},
                context=1,
            )
        return payload

    async def _dispatch_interaction(
        self, payload: dict[str, Any], source_message_id: int | None = None
    ) -> InteractionHandle:
        handle = InteractionHandle(self, payload, source_message_id)
        if source_message_id is not None:
            handle.original_message_id = source_message_id
        self.interactions[handle.id] = handle
        gid = int(payload["guild_id"]) if payload.get("guild_id") else None
        await self._dispatch("INTERACTION_CREATE", payload, guild_id=gid)
        return handle

    def find_command(self, name: str, guild_id: int | None = None) -> dict[str, Any] | None:
        """A synced command by top-level name: the guild's commands first, then global ones."""
        for scope in ([guild_id] if guild_id else []) + [None]:
            for cmd in self.commands.get(scope, []):
                if cmd["name"] == name and cmd.get("type", 1) == 1:
                    return cmd
        return None

    def _command_data(
        self,
        name: str,
        options: dict[str, Any] | list[dict[str, Any]] | None,
        guild_id: int | None,
        *,
        focused: str | None,
        require_synced: bool,
    ) -> dict[str, Any]:
        words = name.split()
        cmd = self.find_command(words[0], guild_id)
        if cmd is None and require_synced:
            synced = {scope: [c["name"] for c in cmds] for scope, cmds in self.commands.items()}
            raise DoubleError(f"command {words[0]!r} was not synced to the double (synced: {synced})")
        data: dict[str, Any] = {
            "id": cmd["id"] if cmd else str(self.ids.next()),
            "name": words[0],
            "type": 1,
        }
        if cmd and cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        schema = cmd.get("options", []) if cmd else None
        resolved: dict[str, dict[str, Any]] = {}
        container = data
        for word in words[1:]:
            sub_schema = None
            if schema is not None:
                sub_schema = next((o for o in schema if o["name"] == word and o["type"] in (1, 2)), None)
                if sub_schema is None:
                    raise DoubleError(f"{name!r}: no subcommand {word!r}")
            sub_type = sub_schema["type"] if sub_schema else (2 if word != words[-1] else 1)
            node: dict[str, Any] = {"name": word, "type": sub_type, "options": []}
            container.setdefault("options", []).append(node)
            container = node
            schema = sub_schema.get("options", []) if sub_schema else None
        if isinstance(options, list):
            container["options"] = options
        else:
            container["options"] = self._build_options(
                name, schema, options or {}, guild_id, focused=focused, resolved=resolved
            )
        if not container["options"]:
            container.pop("options")
        if resolved:
            data["resolved"] = resolved
        return data

    def _build_options(
        self,
        name: str,
        schema: list[dict[str, Any]] | None,
        values: dict[str, Any],
        guild_id: int | None,
        *,
        focused: str | None,
        resolved: dict[str, dict[str, Any]],
    ) -> list[dict[str, Any]]:
        out = []
        by_name = {o["name"]: o for o in schema or []}
        for opt_name, value in values.items():
            opt = by_name.get(opt_name)
            if schema is not None and opt is None:
                raise DoubleError(f"{name!r} has no option {opt_name!r} (options: {list(by_name)})")
            otype = opt["type"] if opt else _infer_option_type(value)
            if opt_name == focused:
                out.append({"name": opt_name, "type": otype, "value": str(value), "focused": True})
                continue
            value = self._convert_option(name, opt, otype, value, guild_id, resolved)
            out.append({"name": opt_name, "type": otype, "value": value})
        if focused is None and schema is not None:
            missing = [o["name"] for o in schema if o.get("required") and o["name"] not in values]
            if missing:
                raise DoubleError(f"{name!r}: Discord would not send without required options {missing}")
        if focused is not None and focused not in values:
            out.append({"name": focused, "type": by_name.get(focused, {}).get("type", 3), "value": "", "focused": True})
        return out

    def _convert_option(
        self,
        name: str,
        opt: dict[str, Any] | None,
        otype: int,
        value: Any,
        guild_id: int | None,
        resolved: dict[str, dict[str, Any]],
    ) -> Any:
        label = f"{name!r} option {opt['name'] if opt else '?'!r}"
        if otype == 3:
            value = str(value)
            if opt and "min_length" in opt and len(value) < opt["min_length"]:
                raise DoubleError(f"{label}: shorter than min_length")
            if opt and "max_length" in opt and len(value) > opt["max_length"]:
                raise DoubleError(f"{label}: longer than max_length")
        elif otype in (4, 10):
            value = int(value) if otype == 4 else float(value)
            if opt and opt.get("min_value") is not None and value < opt["min_value"]:
                raise DoubleError(f"{label}: below min_value")
            if opt and opt.get("max_value") is not None and value > opt["max_value"]:
                raise DoubleError(f"{label}: above max_value")
        elif otype == 5:
            value = bool(value)
        elif otype in (6, 9) and (otype == 6 or not isinstance(value, FakeRole)):
            user = self._user(value)
            resolved.setdefault("users", {})[str(user.id)] = user.to_dict()
            if guild_id:
                guild = self.guilds[guild_id]
                resolved.setdefault("members", {})[str(user.id)] = self._member_payload(
                    guild, user, with_user=False, permissions=guild.permissions_of(user.id)
                )
            value = str(user.id)
        elif otype in (8, 9):
            rid = _sid(value)
            role = next((r for g in self.guilds.values() for r in g.roles if r.id == rid), None)
            if role is None:
                raise DoubleError(f"{label}: unknown role {rid}")
            resolved.setdefault("roles", {})[str(rid)] = role.to_dict()
            value = str(rid)
        elif otype == 7:
            chan = self.channels.get(_sid(value))
            if chan is None:
                raise DoubleError(f"{label}: unknown channel {value}")
            entry = chan.to_dict()
            entry["permissions"] = str(ALL_PERMISSIONS)
            resolved.setdefault("channels", {})[str(chan.id)] = entry
            value = str(chan.id)
        elif otype == 11:
            filename, data = value
            att_id = self.ids.next()
            self.files[att_id] = (filename, data, None)
            resolved.setdefault("attachments", {})[str(att_id)] = self._attachment_payload(
                att_id, filename, len(data), None
            )
            value = str(att_id)
        if opt and opt.get("choices") and value not in [c["value"] for c in opt["choices"]]:
            raise DoubleError(f"{label}: {value!r} is not one of the choices")
        return value

    async def send_slash(
        self,
        name: str,
        options: dict[str, Any] | list[dict[str, Any]] | None = None,
        *,
        user: Any = None,
        guild_id: int | None = None,
        channel_id: int | None = None,
        permissions: Any = None,
        locale: str = "en-US",
        require_synced: bool = True,
    ) -> InteractionHandle:
        """A user runs ``/name`` (``"group sub"`` for subcommands); dispatches INTERACTION_CREATE (type 2).

        ``options`` is ``{name: value}`` (types come from the synced command; users/roles/channels may be given
        as Fake* objects or ids, attachments as ``(filename, bytes)``) or a raw Discord option list.
        ``permissions`` (int or discord.Permissions) overrides the member's computed permissions.
        """
        if guild_id is None and channel_id is None:
            guild_id = self.guild.id
        if guild_id is None and channel_id is not None:
            guild_id = self._guild_of_channel(_sid(channel_id))
        payload = self._interaction_base(
            IT_COMMAND, user=user, channel_id=channel_id, guild_id=guild_id, permissions=permissions, locale=locale
        )
        data = self._command_data(name, options, guild_id, focused=None, require_synced=require_synced)
        self._check_command_permissions(name, guild_id, payload)
        payload["data"] = data
        return await self._dispatch_interaction(payload)

    def _check_command_permissions(self, name: str, guild_id: int | None, payload: dict[str, Any]) -> None:
        cmd = self.find_command(name.split()[0], guild_id)
        if cmd is None or cmd.get("default_member_permissions") in (None, ""):
            return
        if guild_id is None:
            return
        needed = int(cmd["default_member_permissions"])
        have = int(payload["member"]["permissions"])
        if have & PERM_ADMINISTRATOR:
            return
        if needed & have != needed:
            raise DoubleError(
                f"/{name} needs default_member_permissions={needed}; the user has {have}: Discord would hide it"
            )

    async def autocomplete(
        self,
        name: str,
        options: dict[str, Any] | None = None,
        *,
        focused: str,
        user: Any = None,
        guild_id: int | None = None,
        channel_id: int | None = None,
        permissions: Any = None,
        locale: str = "en-US",
        require_synced: bool = True,
    ) -> InteractionHandle:
        """A user types into option ``focused`` of ``/name``; INTERACTION_CREATE type 4. Answer: callback type 8."""
        if guild_id is None and channel_id is None:
            guild_id = self.guild.id
        payload = self._interaction_base(
            IT_AUTOCOMPLETE, user=user, channel_id=channel_id, guild_id=guild_id, permissions=permissions, locale=locale
        )
        payload["data"] = self._command_data(name, options, guild_id, focused=focused, require_synced=require_synced)
        return await self._dispatch_interaction(payload)

    async def press_button(
        self,
        message: Any,
        custom_id: str,
        *,
        values: list[str] | None = None,
        user: Any = None,
        permissions: Any = None,
        locale: str = "en-US",
    ) -> InteractionHandle:
        """A user clicks a button (or picks ``values`` in a select) on a message the bot sent; type 3."""
        if isinstance(message, Sent):
            message_id = message.message_id
        elif isinstance(message, dict):
            message_id = int(message["id"])
        else:
            message_id = _sid(message)
        msg = self.messages.get(message_id) if message_id is not None else None
        if msg is None:
            raise DoubleError(f"unknown message {message_id}")
        comp = next((c for c in _walk_components(msg.get("components") or []) if c.get("custom_id") == custom_id), None)
        if comp is None:
            have = [c.get("custom_id") for c in _walk_components(msg.get("components") or [])]
            raise DoubleError(f"message {message_id} has no component {custom_id!r} (has {have})")
        if comp.get("disabled"):
            raise DoubleError(f"component {custom_id!r} is disabled; a user cannot press it")
        channel_id = int(msg["channel_id"])
        payload = self._interaction_base(
            IT_COMPONENT,
            user=user,
            channel_id=channel_id,
            guild_id=self._guild_of_channel(channel_id),
            permissions=permissions,
            locale=locale,
        )
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": comp["type"]}
        if comp["type"] != 2:
            data["values"] = values or []
        payload["data"] = data
        payload["message"] = msg
        return await self._dispatch_interaction(payload, source_message_id=message_id)

    async def submit_modal(
        self, custom_id: str, fields: dict[str, str], *, user: Any = None, channel_id: int | None = None
    ) -> InteractionHandle:
        """A user submits a modal (type 5) with text inputs ``{custom_id: value}``."""
        guild_id = self._guild_of_channel(_sid(channel_id)) if channel_id else self.guild.id
        payload = self._interaction_base(
            IT_MODAL, user=user, channel_id=channel_id, guild_id=guild_id, permissions=None, locale="en-US"
        )
        payload["data"] = {
            "custom_id": custom_id,
            "components": [
                {"type": 1, "components": [{"type": 4, "custom_id": k, "value": v}]} for k, v in fields.items()
            ],
        }
        return await self._dispatch_interaction(payload)

    async def dispatch_raw(self, event: str, data: dict[str, Any], *, guild_id: int | None = None) -> None:
        """Any other gateway event, as-is."""
        await self._dispatch(event, data, guild_id=guild_id)

    # ------------------------------------------------------------------ connection control

    async def drop_gateway(self, shard_id: int = 0, code: int | None = 4000) -> None:
        """Close the shard's websocket. ``code=4000`` (or any resumable code) makes discord.py RESUME;
        ``code=None`` aborts the TCP connection without a close frame (a 1006)."""
        sessions = [s for s in self._live_sessions(shard_id) if s.connected]
        if not sessions:
            raise DoubleError(f"no connected session on shard {shard_id}")
        for session in sessions:
            conn = session.conn
            assert conn is not None
            session.drops += 1
            session.conn = None
            if code is None:
                transport = conn.request.transport
                if transport is not None:
                    transport.abort()
            else:
                await conn.ws.close(code=code, message=b"dropped by the double")

    async def send_reconnect(self, shard_id: int = 0) -> None:
        """Opcode 7 RECONNECT: discord.py closes and RESUMEs."""
        for session in self._live_sessions(shard_id):
            session.drops += 1
            await session._send_live({"op": OP_RECONNECT, "d": None})

    async def invalidate_session(self, shard_id: int = 0, resumable: bool = False) -> None:
        """Opcode 9 INVALID_SESSION; with ``resumable=False`` discord.py IDENTIFYs anew."""
        for session in self._live_sessions(shard_id):
            if not resumable:
                session.invalid = True
            await session._send_live({"op": OP_INVALID_SESSION, "d": resumable})

    # ------------------------------------------------------------------ HTTP plumbing

    def _add_routes(self, app: web.Application) -> None:
        r = app.router
        r.add_get("/gateway", self._h_gateway)
        r.add_get("/gateway-resume", self._h_gateway)
        r.add_get("/attachments/{id}/{filename}", self._h_attachment)
        api: list[tuple[str, str, Callable[..., Any]]] = [
            ("GET", "/gateway", self._h_gateway_info),
            ("GET", "/gateway/bot", self._h_gateway_bot),
            ("GET", "/users/@me", self._h_me),
            ("GET", "/users/{user_id}", self._h_user),
            ("POST", "/users/@me/channels", self._h_create_dm),
            ("GET", "/oauth2/applications/@me", self._h_application),
            ("GET", "/applications/@me", self._h_application),
            ("GET", "/applications/{app_id}/commands", self._h_commands_get),
            ("PUT", "/applications/{app_id}/commands", self._h_commands_put),
            ("POST", "/applications/{app_id}/commands", self._h_command_post),
            ("GET", "/applications/{app_id}/commands/{cmd_id}", self._h_command_get),
            ("PATCH", "/applications/{app_id}/commands/{cmd_id}", self._h_command_patch),
            ("DELETE", "/applications/{app_id}/commands/{cmd_id}", self._h_command_delete),
            ("GET", "/applications/{app_id}/guilds/{guild_id}/commands", self._h_commands_get),
            ("PUT", "/applications/{app_id}/guilds/{guild_id}/commands", self._h_commands_put),
            ("POST", "/applications/{app_id}/guilds/{guild_id}/commands", self._h_command_post),
            ("GET", "/applications/{app_id}/guilds/{guild_id}/commands/{cmd_id}", self._h_command_get),
            ("PATCH", "/applications/{app_id}/guilds/{guild_id}/commands/{cmd_id}", self._h_command_patch),
            ("DELETE", "/applications/{app_id}/guilds/{guild_id}/commands/{cmd_id}", self._h_command_delete),
            ("GET", "/guilds/{guild_id}", self._h_guild),
            ("GET", "/guilds/{guild_id}/channels", self._h_guild_channels),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self._h_member),
            ("GET", "/channels/{channel_id}", self._h_channel),
            ("GET", "/channels/{channel_id}/messages", self._h_messages_list),
            ("POST", "/channels/{channel_id}/messages", self._h_message_create),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self._h_message_get),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self._h_message_edit),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self._h_message_delete),
            ("POST", "/channels/{channel_id}/typing", self._h_typing),
            ("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", self._h_reaction),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", self._h_reaction),
            ("POST", "/interactions/{interaction_id}/{token}/callback", self._h_callback),
            ("POST", "/webhooks/{app_id}/{token}", self._h_followup),
            ("GET", "/webhooks/{app_id}/{token}/messages/@original", self._h_webhook_message),
            ("PATCH", "/webhooks/{app_id}/{token}/messages/@original", self._h_webhook_message),
            ("DELETE", "/webhooks/{app_id}/{token}/messages/@original", self._h_webhook_message),
            ("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", self._h_webhook_message),
            ("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", self._h_webhook_message),
            ("DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}", self._h_webhook_message),
        ]
        for method, path, handler in api:
            r.add_route(method, API_PREFIX + path, handler)
        r.add_route("*", "/{tail:.*}", self._h_unknown)

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Callable[..., Any]) -> web.StreamResponse:
        if not request.path.startswith(API_PREFIX + "/"):
            return await handler(request)
        rec = RecordedRequest(
            method=request.method,
            path=request.path[len(API_PREFIX) :],
            query=dict(request.query),
            headers=dict(request.headers),
        )
        await self._read_body(request, rec)
        request[_REC] = rec
        self.requests.append(rec)
        delay = self._take_delay(rec.method, rec.path)
        if delay:
            await asyncio.sleep(delay)
        try:
            fault = self._take_fault(rec.method, rec.path)
            if fault is not None:
                rec.injected = True
                response, rec.response = self._fault_response(fault)
            else:
                response = self._check_auth(request, rec) or await handler(request)
            rec.status = response.status
            return response
        finally:
            self._notify()

    async def _read_body(self, request: web.Request, rec: RecordedRequest) -> None:
        if not request.can_read_body:
            return
        ctype = request.headers.get("Content-Type", "")
        if ctype.startswith("multipart/"):
            reader = await request.multipart()
            while True:
                part = await reader.next()
                if part is None:
                    break
                data = await part.read()  # type: ignore[union-attr]
                if part.name == "payload_json":
                    rec.json = json.loads(data)
                else:
                    rec.files.append(
                        UploadedFile(part.name or "", part.filename, part.headers.get("Content-Type"), bytes(data))
                    )
            return
        raw = await request.read()
        if raw:
            try:
                rec.json = json.loads(raw)
            except ValueError:
                rec.json = raw.decode(errors="replace")

    def _check_auth(self, request: web.Request, rec: RecordedRequest) -> web.Response | None:
        if rec.path.startswith(("/interactions/", "/webhooks/")):
            return None  # authenticated by the token in the URL
        auth = request.headers.get("Authorization", "")
        if not auth.startswith("Bot ") or (self.token is not None and auth[4:] != self.token):
            return _error(401, 0, "401: Unauthorized")
        return None

    def _respond(self, request: web.Request, data: Any, status: int = 200) -> web.Response:
        request[_REC].response = data
        return _json_response(data, status)

    async def _h_unknown(self, request: web.Request) -> web.Response:
        rec = request.get(_REC)
        if rec is not None:
            rec.unknown = True
        return _error(404, 0, f"404: Not Found (the Discord double has no route for {request.method} {request.path})")

    async def _h_attachment(self, request: web.Request) -> web.Response:
        entry = self.files.get(int(request.match_info["id"]))
        if entry is None:
            return web.Response(status=404)
        return web.Response(body=entry[1], content_type=entry[2] or "application/octet-stream")

    async def _h_gateway_info(self, request: web.Request) -> web.Response:
        return self._respond(request, {"url": self.gateway_url})

    async def _h_gateway_bot(self, request: web.Request) -> web.Response:
        remaining = max(0, 1000 - len(self.identifies))
        return self._respond(
            request,
            {
                "url": self.gateway_url,
                "shards": self.shard_count,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": remaining,
                    "reset_after": 14_400_000,
                    "max_concurrency": 1,
                },
            },
        )

    async def _h_me(self, request: web.Request) -> web.Response:
        data = self.bot_user.to_dict()
        data.update(verified=True, mfa_enabled=False, email=None, locale="en-US")
        return self._respond(request, data)

    async def _h_user(self, request: web.Request) -> web.Response:
        user = self.users.get(int(request.match_info["user_id"]))
        if user is None:
            return _error(404, 10013, "Unknown User")
        return self._respond(request, user.to_dict())

    async def _h_create_dm(self, request: web.Request) -> web.Response:
        body = request[_REC].json or {}
        chan = self.dm_channel(int(body["recipient_id"]))
        return self._respond(request, chan.to_dict())

    async def _h_application(self, request: web.Request) -> web.Response:
        return self._respond(
            request,
            {
                "id": str(self.application_id),
                "name": self.bot_user.username,
                "icon": None,
                "description": "Discord double application",
                "summary": "",
                "type": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "flags": 0,
                "owner": self.owner.to_dict(),
                "team": None,
                "bot": self.bot_user.to_dict(),
                "interactions_endpoint_url": None,
                "redirect_uris": [],
                "tags": [],
                "approximate_guild_count": len(self.guilds),
            },
        )

    # ---- application commands

    def _scope(self, request: web.Request) -> int | None:
        gid = request.match_info.get("guild_id")
        return int(gid) if gid else None

    def _check_app(self, request: web.Request) -> web.Response | None:
        if int(request.match_info["app_id"]) != self.application_id:
            return _error(403, 50001, "Missing Access (application id does not match the bot)")
        return None

    def _store_command(self, scope: int | None, cmd: dict[str, Any], existing: dict[str, Any] | None) -> dict[str, Any]:
        stored = {
            "type": 1,
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "dm_permission": True,
            "nsfw": False,
            "contexts": None,
            "integration_types": [0],
            **cmd,
        }
        stored["id"] = existing["id"] if existing else str(self.ids.next())
        stored["application_id"] = str(self.application_id)
        stored["version"] = str(self.ids.next())
        if scope is not None:
            stored["guild_id"] = str(scope)
        else:
            stored.pop("guild_id", None)
        return stored

    async def _h_commands_get(self, request: web.Request) -> web.Response:
        return self._check_app(request) or self._respond(request, self.commands.get(self._scope(request), []))

    async def _h_commands_put(self, request: web.Request) -> web.Response:
        if (err := self._check_app(request)) is not None:
            return err
        scope = self._scope(request)
        if scope is not None and scope not in self.guilds:
            return _error(403, 50001, "Missing Access")
        body = request[_REC].json or []
        errors: dict[str, Any] = {}
        for index, cmd in enumerate(body):
            _validate_command(cmd, f"{index}", errors)
        names = [(c.get("name"), c.get("type", 1)) for c in body]
        if len(names) != len(set(names)):
            errors.setdefault("_errors", []).append({"code": "APPLICATION_COMMANDS_DUPLICATE_NAME", "message": "dup"})
        if errors:
            return _form_error(errors)
        old = {(c["name"], c.get("type", 1)): c for c in self.commands.get(scope, [])}
        stored = [self._store_command(scope, c, old.get((c["name"], c.get("type", 1)))) for c in body]
        self.commands[scope] = stored
        self.sync_log.append((scope, [c["name"] for c in stored]))
        return self._respond(request, stored)

    async def _h_command_post(self, request: web.Request) -> web.Response:
        if (err := self._check_app(request)) is not None:
            return err
        scope = self._scope(request)
        cmd = request[_REC].json or {}
        errors: dict[str, Any] = {}
        _validate_command(cmd, "", errors)
        if errors:
            return _form_error(errors)
        cmds = self.commands.setdefault(scope, [])
        existing = next((c for c in cmds if c["name"] == cmd["name"] and c["type"] == cmd.get("type", 1)), None)
        stored = self._store_command(scope, cmd, existing)
        if existing:
            cmds[cmds.index(existing)] = stored
        else:
            cmds.append(stored)
        return self._respond(request, stored, 200 if existing else 201)

    def _find_cmd(self, request: web.Request) -> dict[str, Any] | None:
        cid = request.match_info["cmd_id"]
        return next((c for c in self.commands.get(self._scope(request), []) if c["id"] == cid), None)

    async def _h_command_get(self, request: web.Request) -> web.Response:
        cmd = self._find_cmd(request)
        return self._respond(request, cmd) if cmd else _error(404, 10063, "Unknown application command")

    async def _h_command_patch(self, request: web.Request) -> web.Response:
        cmd = self._find_cmd(request)
        if cmd is None:
            return _error(404, 10063, "Unknown application command")
        cmd.update(request[_REC].json or {})
        return self._respond(request, cmd)

    async def _h_command_delete(self, request: web.Request) -> web.Response:
        cmd = self._find_cmd(request)
        if cmd is None:
            return _error(404, 10063, "Unknown application command")
        self.commands[self._scope(request)].remove(cmd)
        return web.Response(status=204)

    # ---- guilds, channels

    async def _h_guild(self, request: web.Request) -> web.Response:
        guild = self.guilds.get(int(request.match_info["guild_id"]))
        if guild is None:
            return _error(404, 10004, "Unknown Guild")
        data = guild.to_dict(self.bot_user.id)
        for key in ("channels", "members", "threads", "voice_states", "presences"):
            data.pop(key, None)
        return self._respond(request, data)

    async def _h_guild_channels(self, request: web.Request) -> web.Response:
        guild = self.guilds.get(int(request.match_info["guild_id"]))
        if guild is None:
            return _error(404, 10004, "Unknown Guild")
        return self._respond(request, [c.to_dict() for c in guild.channels if isinstance(c, FakeChannel)])

    async def _h_member(self, request: web.Request) -> web.Response:
        guild = self.guilds.get(int(request.match_info["guild_id"]))
        member = guild.members.get(int(request.match_info["user_id"])) if guild else None
        if member is None:
            return _error(404, 10007, "Unknown Member")
        return self._respond(request, member.to_dict())

    async def _h_channel(self, request: web.Request) -> web.Response:
        chan = self.channels.get(int(request.match_info["channel_id"]))
        if chan is None:
            return _error(404, 10003, "Unknown Channel")
        return self._respond(request, chan.to_dict())

    async def _h_typing(self, request: web.Request) -> web.Response:
        self.typing.append(int(request.match_info["channel_id"]))
        return web.Response(status=204)

    async def _h_reaction(self, request: web.Request) -> web.Response:
        mid = int(request.match_info["message_id"])
        if mid not in self.messages:
            return _error(404, 10008, "Unknown Message")
        sign = 1 if request.method == "PUT" else -1
        self.reactions.append((sign, mid, request.match_info["emoji"]))
        return web.Response(status=204)

    # ---- messages

    def _attachment_payload(self, att_id: int, filename: str, size: int, ctype: str | None) -> dict[str, Any]:
        url = f"{self.base_url}/attachments/{att_id}/{filename}"
        data = {"id": str(att_id), "filename": filename, "size": size, "url": url, "proxy_url": url}
        if ctype:
            data["content_type"] = ctype
        return data

    def _attachments_from(self, payload: dict[str, Any], files: list[UploadedFile]) -> list[dict[str, Any]]:
        out = []
        for index, upload in enumerate(files):
            att_id = self.ids.next()
            name = upload.filename or f"file{index}"
            self.files[att_id] = (name, upload.data, upload.content_type)
            att = self._attachment_payload(att_id, name, len(upload.data), upload.content_type)
            meta = next((a for a in payload.get("attachments") or [] if str(a.get("id")) == str(index)), None)
            if meta and meta.get("description"):
                att["description"] = meta["description"]
            out.append(att)
        return out

    def _new_bot_message(
        self,
        channel_id: int,
        payload: dict[str, Any],
        files: list[UploadedFile],
        *,
        interaction: InteractionHandle | None = None,
        extra_flags: int = 0,
    ) -> dict[str, Any]:
        message_id = self.ids.next()
        guild_id = self._guild_of_channel(channel_id)
        content = payload.get("content") or ""
        mentions = effective_mentions(content, payload.get("allowed_mentions"))
        msg: dict[str, Any] = {
            "id": str(message_id),
            "type": 0,
            "channel_id": str(channel_id),
            "author": self.bot_user.to_dict(),
            "content": content,
            "timestamp": _now_iso(),
            "edited_timestamp": None,
            "tts": bool(payload.get("tts")),
            "mention_everyone": mentions["everyone"],
            "mentions": [self.users[u].to_dict() for u in mentions["users"] if u in self.users],
            "mention_roles": [str(r) for r in mentions["roles"]],
            "attachments": self._attachments_from(payload, files),
            "embeds": payload.get("embeds") or [],
            "components": payload.get("components") or [],
            "pinned": False,
            "flags": int(payload.get("flags") or 0) | extra_flags,
        }
        if guild_id:
            msg["guild_id"] = str(guild_id)
        if payload.get("message_reference"):
            ref = payload["message_reference"]
            msg["type"] = 19
            msg["message_reference"] = ref
            referenced = self.messages.get(int(ref["message_id"]))
            if referenced is not None:
                msg["referenced_message"] = referenced
        if payload.get("poll"):
            msg["poll"] = payload["poll"]
        if interaction is not None:
            user = interaction.payload.get("member", {}).get("user") or interaction.payload.get("user")
            msg["webhook_id"] = str(self.application_id)
            msg["application_id"] = str(self.application_id)
            msg["type"] = 20 if interaction.type == IT_COMMAND else 0
            msg["interaction_metadata"] = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": user,
                "authorizing_integration_owners": interaction.payload.get("authorizing_integration_owners", {}),
            }
        self.messages[message_id] = msg
        return msg

    def _apply_edit(self, msg: dict[str, Any], payload: dict[str, Any], files: list[UploadedFile]) -> None:
        self.edits.setdefault(int(msg["id"]), []).append(payload)
        for key in ("content", "embeds", "components", "poll"):
            if key in payload:
                msg[key] = payload[key] if payload[key] is not None else ([] if key != "content" else "")
        if "flags" in payload and payload["flags"] is not None:
            msg["flags"] = (int(msg.get("flags") or 0) & FLAG_EPHEMERAL) | int(payload["flags"])
        msg["flags"] = int(msg.get("flags") or 0) & ~FLAG_LOADING
        if "attachments" in payload or files:
            keep_ids = {str(a.get("id")) for a in payload.get("attachments") or []}
            kept = [a for a in msg.get("attachments") or [] if a["id"] in keep_ids]
            msg["attachments"] = kept + self._attachments_from(payload, files)
        msg["edited_timestamp"] = _now_iso()

    def _record(self, sent: Sent, interaction: InteractionHandle | None = None) -> Sent:
        self.sent.append(sent)
        if interaction is not None:
            interaction.responses.append(sent)
        self._notify()
        return sent

    async def _echo(self, event: str, msg: dict[str, Any]) -> None:
        if not self.echo_bot_messages or int(msg.get("flags") or 0) & FLAG_EPHEMERAL:
            return
        gid = int(msg["guild_id"]) if msg.get("guild_id") else None
        if event == "MESSAGE_DELETE":
            data = {"id": msg["id"], "channel_id": msg["channel_id"]}
            if gid:
                data["guild_id"] = str(gid)
            await self._dispatch(event, data, guild_id=gid, strict=False)
        else:
            await self._dispatch(event, msg, guild_id=gid, strict=False)

    async def _h_messages_list(self, request: web.Request) -> web.Response:
        cid = request.match_info["channel_id"]
        limit = int(request.query.get("limit", 50))
        msgs = [m for mid, m in sorted(self.messages.items(), reverse=True) if m["channel_id"] == cid]
        return self._respond(request, msgs[:limit])

    async def _h_message_create(self, request: web.Request) -> web.Response:
        rec: RecordedRequest = request[_REC]
        channel_id = int(request.match_info["channel_id"])
        if channel_id not in self.channels:
            return _error(404, 10003, "Unknown Channel")
        payload = rec.json or {}
        errors = _validate_message(payload, rec.files, require_content=True)
        if errors:
            return _form_error(errors)
        msg = self._new_bot_message(channel_id, payload, rec.files)
        self._record(
            Sent(
                next(self._seq),
                "create",
                "POST /channels/{channel_id}/messages",
                channel_id,
                int(msg["id"]),
                payload,
                rec.files,
                message=dict(msg),
            )
        )
        await self._echo("MESSAGE_CREATE", msg)
        return self._respond(request, msg)

    async def _h_message_get(self, request: web.Request) -> web.Response:
        msg = self.messages.get(int(request.match_info["message_id"]))
        if msg is None or msg["channel_id"] != request.match_info["channel_id"]:
            return _error(404, 10008, "Unknown Message")
        return self._respond(request, msg)

    async def _h_message_edit(self, request: web.Request) -> web.Response:
        rec: RecordedRequest = request[_REC]
        mid = int(request.match_info["message_id"])
        msg = self.messages.get(mid)
        if msg is None or msg["channel_id"] != request.match_info["channel_id"]:
            return _error(404, 10008, "Unknown Message")
        if msg["author"]["id"] != str(self.bot_user.id):
            return _error(403, 50005, "Cannot edit a message authored by another user")
        payload = rec.json or {}
        errors = _validate_message(payload, rec.files, require_content=False)
        if errors:
            return _form_error(errors)
        self._apply_edit(msg, payload, rec.files)
        self._record(
            Sent(
                next(self._seq),
                "edit",
                "PATCH /channels/{channel_id}/messages/{message_id}",
                int(msg["channel_id"]),
                mid,
                payload,
                rec.files,
                message=dict(msg),
            )
        )
        await self._echo("MESSAGE_UPDATE", msg)
        return self._respond(request, msg)

    async def _h_message_delete(self, request: web.Request) -> web.Response:
        mid = int(request.match_info["message_id"])
        msg = self.messages.get(mid)
        if msg is None or msg["channel_id"] != request.match_info["channel_id"]:
            return _error(404, 10008, "Unknown Message")
        del self.messages[mid]
        self.deleted.add(mid)
        self._record(
            Sent(
                next(self._seq),
                "delete",
                "DELETE /channels/{channel_id}/messages/{message_id}",
                int(msg["channel_id"]),
                mid,
                {},
                message=None,
            )
        )
        await self._echo("MESSAGE_DELETE", msg)
        return web.Response(status=204)

    # ---- interactions

    async def _h_callback(self, request: web.Request) -> web.Response:
        rec: RecordedRequest = request[_REC]
        handle = self.interactions.get(int(request.match_info["interaction_id"]))
        if handle is None or handle.token != request.match_info["token"]:
            return _error(404, 10062, "Unknown interaction")
        if handle.callback is not None:
            return _error(400, 40060, "Interaction has already been acknowledged.")
        if self.interaction_timeout is not None and time.monotonic() - handle.created > self.interaction_timeout:
            return _error(404, 10062, "Unknown interaction (not acknowledged within the 3 second window)")
        body = rec.json or {}
        ctype = body.get("type")
        data = body.get("data") or {}
        if ctype not in _ALLOWED_CALLBACKS.get(handle.type, set()):
            return _form_error({"type": _err("INTERACTION_RESPONSE_TYPE_INVALID", f"type {ctype} for {handle.type}")})
        message: dict[str, Any] | None = None
        if ctype == CB_MESSAGE:
            errors = _validate_message(data, rec.files, require_content=True)
            if errors:
                return _form_error({"data": errors})
            message = self._new_bot_message(handle.channel_id, data, rec.files, interaction=handle)
            handle.original_message_id = int(message["id"])
        elif ctype == CB_DEFERRED_MESSAGE:
            message = self._new_bot_message(
                handle.channel_id, {"flags": data.get("flags")}, [], interaction=handle, extra_flags=FLAG_LOADING
            )
            handle.original_message_id = int(message["id"])
        elif ctype in (CB_UPDATE, CB_DEFERRED_UPDATE):
            if handle.source_message_id is None or handle.source_message_id not in self.messages:
                return _error(400, 50035, "No message to update")
            message = self.messages[handle.source_message_id]
            if ctype == CB_UPDATE:
                errors = _validate_message(data, rec.files, require_content=False)
                if errors:
                    return _form_error({"data": errors})
                self._apply_edit(message, data, rec.files)
        elif ctype == CB_AUTOCOMPLETE:
            errors = _validate_choices(data.get("choices"))
            if errors:
                return _form_error({"data": errors})
        elif ctype == CB_MODAL and not (data.get("custom_id") and data.get("title") and data.get("components")):
            return _form_error({"data": _err("BASE_TYPE_REQUIRED", "modal needs custom_id, title, components")})
        sent = Sent(
            next(self._seq),
            "callback",
            "POST /interactions/{interaction_id}/{token}/callback",
            handle.channel_id,
            int(message["id"]) if message else None,
            body,
            rec.files,
            message=dict(message) if message and ctype != CB_DEFERRED_UPDATE else None,
            callback_type=ctype,
            interaction_id=handle.id,
        )
        self._record(sent, handle)
        if message is not None and ctype == CB_MESSAGE:
            await self._echo("MESSAGE_CREATE", message)
        elif message is not None and ctype == CB_UPDATE:
            await self._echo("MESSAGE_UPDATE", message)
        response: dict[str, Any] = {
            "interaction": {
                "id": str(handle.id),
                "type": handle.type,
                "response_message_loading": ctype == CB_DEFERRED_MESSAGE,
                "response_message_ephemeral": bool(int(data.get("flags") or 0) & FLAG_EPHEMERAL),
            }
        }
        if message is not None:
            response["interaction"]["response_message_id"] = message["id"]
            if ctype != CB_DEFERRED_UPDATE:
                response["resource"] = {"type": ctype, "message": message}
        return self._respond(request, response)

    def _handle_for_webhook(self, request: web.Request) -> InteractionHandle | None:
        if int(request.match_info["app_id"]) != self.application_id:
            return None
        token = request.match_info["token"]
        return next((h for h in self.interactions.values() if h.token == token), None)

    async def _h_followup(self, request: web.Request) -> web.Response:
        rec: RecordedRequest = request[_REC]
        handle = self._handle_for_webhook(request)
        if handle is None or handle.callback is None:
            return _error(404, 10015, "Unknown Webhook")
        payload = rec.json or {}
        errors = _validate_message(payload, rec.files, require_content=True)
        if errors:
            return _form_error(errors)
        original = handle.original
        if (
            handle.callback.callback_type == CB_DEFERRED_MESSAGE
            and original is not None
            and int(original.get("flags") or 0) & FLAG_LOADING
        ):
            # Discord: the first follow-up after a deferred "thinking" response replaces the loading message.
            msg = original
            self._apply_edit(msg, {k: v for k, v in payload.items() if k != "flags"}, rec.files)
            event = "MESSAGE_UPDATE"
        else:
            msg = self._new_bot_message(handle.channel_id, payload, rec.files, interaction=handle)
            handle.followup_ids.append(int(msg["id"]))
            event = "MESSAGE_CREATE"
        self._record(
            Sent(
                next(self._seq),
                "followup",
                "POST /webhooks/{application_id}/{token}",
                handle.channel_id,
                int(msg["id"]),
                payload,
                rec.files,
                message=dict(msg),
                interaction_id=handle.id,
            ),
            handle,
        )
        await self._echo(event, msg)
        if request.query.get("wait") in ("0", "false", "False"):
            return web.Response(status=204)
        return self._respond(request, msg)

    async def _h_webhook_message(self, request: web.Request) -> web.Response:
        rec: RecordedRequest = request[_REC]
        handle = self._handle_for_webhook(request)
        if handle is None:
            return _error(404, 10015, "Unknown Webhook")
        raw_id = request.match_info.get("message_id")
        if raw_id is None:
            mid = handle.original_message_id
        else:
            mid = int(raw_id)
            if mid not in handle.followup_ids and mid != handle.original_message_id:
                mid = None
        msg = self.messages.get(mid) if mid is not None else None
        if msg is None:
            return _error(404, 10008, "Unknown Message")
        which = "@original" if raw_id is None else "{message_id}"
        route = f"{request.method} /webhooks/{{application_id}}/{{token}}/messages/{which}"
        if request.method == "GET":
            return self._respond(request, msg)
        if request.method == "DELETE":
            del self.messages[mid]  # type: ignore[arg-type]
            self.deleted.add(mid)  # type: ignore[arg-type]
            self._record(
                Sent(next(self._seq), "delete", route, handle.channel_id, mid, {}, interaction_id=handle.id), handle
            )
            await self._echo("MESSAGE_DELETE", msg)
            return web.Response(status=204)
        payload = rec.json or {}
        errors = _validate_message(payload, rec.files, require_content=False)
        if errors:
            return _form_error(errors)
        self._apply_edit(msg, payload, rec.files)
        self._record(
            Sent(
                next(self._seq),
                "edit",
                route,
                handle.channel_id,
                mid,
                payload,
                rec.files,
                message=dict(msg),
                interaction_id=handle.id,
            ),
            handle,
        )
        await self._echo("MESSAGE_UPDATE", msg)
        return self._respond(request, msg)

    # ------------------------------------------------------------------ gateway websocket

    async def _h_gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        conn = GatewayConnection(self, request, ws)
        self.connections.append(conn)
        if conn.query.get("encoding", "json") != "json":
            await ws.close(code=4002, message=b"the double speaks JSON only")
            return ws
        await conn.send({"op": OP_HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
        try:
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    if msg.type is WSMsgType.BINARY:
                        await ws.close(code=4002, message=b"binary frames are not supported")
                    continue
                try:
                    payload = json.loads(msg.data)
                except ValueError:
                    await ws.close(code=4002, message=b"decode error")
                    break
                conn.received.append(payload)
                await self._on_gateway_payload(conn, payload)
                self._notify()
        finally:
            conn.close_code = ws.close_code
            session = conn.session
            if session is not None and session.conn is conn:
                session.conn = None
            self._notify()
        return ws

    async def _on_gateway_payload(self, conn: GatewayConnection, payload: dict[str, Any]) -> None:
        op = payload.get("op")
        data = payload.get("d")
        if op == OP_HEARTBEAT:
            conn.heartbeats += 1
            await conn.send({"op": OP_HEARTBEAT_ACK})
        elif op == OP_IDENTIFY:
            await self._identify(conn, data or {})
        elif op == OP_RESUME:
            await self._resume(conn, data or {})
        elif conn.session is None:
            await conn.ws.close(code=4003, message=b"not authenticated")
        elif op == OP_PRESENCE:
            conn.session.presence_updates.append(data)
        elif op == OP_REQUEST_MEMBERS:
            await self._members_chunk(conn.session, data or {})
        elif op == OP_VOICE:
            pass
        else:
            await conn.ws.close(code=4001, message=b"unknown opcode")

    async def _identify(self, conn: GatewayConnection, data: dict[str, Any]) -> None:
        if conn.session is not None:
            await conn.ws.close(code=4005, message=b"already authenticated")
            return
        if self.token is not None and data.get("token") != self.token:
            await conn.ws.close(code=4004, message=b"authentication failed")
            return
        if "intents" not in data:
            await conn.ws.close(code=4013, message=b"intents required")
            return
        shard = data.get("shard") or [0, 1]
        if not (0 <= int(shard[0]) < int(shard[1])):
            await conn.ws.close(code=4010, message=b"invalid shard")
            return
        if int(data["intents"]) & PRIVILEGED_INTENTS & ~self.allowed_privileged_intents:
            await conn.ws.close(code=4014, message=b"disallowed intents")
            return
        self.identifies.append(data)
        session = GatewaySession(self, data, conn)
        for old in self._live_sessions(session.shard_id):
            if old.token == session.token and old.shard_count == session.shard_count:
                old.invalid = True  # superseded by a fresh IDENTIFY
        conn.session = session
        self.sessions.append(session)
        guilds = [g for g in self.guilds.values() if shard_for(g.id, session.shard_count) == session.shard_id]
        await session.dispatch(
            "READY",
            {
                "v": API_VERSION,
                "user": self.bot_user.to_dict(),
                "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
                "session_id": session.session_id,
                "session_type": "normal",
                "resume_gateway_url": self.resume_gateway_url,
                "shard": [session.shard_id, session.shard_count],
                "application": {"id": str(self.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "guild_join_requests": [],
                "geo_ordered_rtc_regions": [],
                "user_settings": {},
                "_trace": ["discord-double"],
            },
        )
        for guild in guilds:
            await session.dispatch("GUILD_CREATE", guild.to_dict(self.bot_user.id))
        session.ready_sent = True

    async def _resume(self, conn: GatewayConnection, data: dict[str, Any]) -> None:
        session = next((s for s in self.sessions if s.session_id == data.get("session_id")), None)
        if session is None or session.invalid or session.token != data.get("token"):
            await conn.send({"op": OP_INVALID_SESSION, "d": False})
            return
        old = session.conn
        if old is not None and old is not conn and not old.closed:
            with contextlib.suppress(Exception):
                await old.ws.close(code=4000)
        conn.session = session
        session.conn = conn
        session.connections.append(conn)
        last = data.get("seq") or 0
        for event in [e for e in session.events if e["s"] > last]:
            await conn.send(event)
        session.resumes += 1
        await session.dispatch("RESUMED", {"_trace": ["discord-double"]})

    async def _members_chunk(self, session: GatewaySession, data: dict[str, Any]) -> None:
        gid = int(data.get("guild_id") or 0)
        guild = self.guilds.get(gid)
        members = list(guild.members.values()) if guild else []
        if data.get("user_ids"):
            wanted = {int(u) for u in data["user_ids"]}
            members = [m for m in members if m.user.id in wanted]
        elif data.get("query"):
            members = [m for m in members if m.user.username.startswith(data["query"])]
        chunk = {
            "guild_id": str(gid),
            "members": [m.to_dict() for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        await session.dispatch("GUILD_MEMBERS_CHUNK", chunk)


# --------------------------------------------------------------------------------------------------------------
# Responses and validation
# --------------------------------------------------------------------------------------------------------------


def _json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    # discord.py parses JSON only when Content-Type is exactly "application/json" (no charset).
    all_headers = {"Content-Type": "application/json"}
    all_headers.update(headers or {})
    return web.Response(body=json.dumps(data).encode(), status=status, headers=all_headers)


def _error(status: int, code: int, message: str) -> web.Response:
    return _json_response({"message": message, "code": code}, status)


def _err(code: str, message: str) -> dict[str, Any]:
    return {"_errors": [{"code": code, "message": message}]}


def _form_error(errors: dict[str, Any]) -> web.Response:
    return _json_response({"message": "Invalid Form Body", "code": 50035, "errors": errors}, 400)


def _put(errors: dict[str, Any], path: str, code: str, message: str) -> None:
    node = errors
    for part in [p for p in path.split(".") if p]:
        node = node.setdefault(part, {})
    node.setdefault("_errors", []).append({"code": code, "message": message})


def _too_long(errors: dict[str, Any], path: str, value: Any, limit: int) -> None:
    if isinstance(value, str) and len(value) > limit:
        _put(errors, path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def _validate_message(payload: dict[str, Any], files: list[UploadedFile], *, require_content: bool) -> dict[str, Any]:
    """Discord's main limits on message bodies; a 400 Invalid Form Body lists what broke."""
    errors: dict[str, Any] = {}
    content = payload.get("content")
    _too_long(errors, "content", content, 2000)
    embeds = payload.get("embeds") or []
    if len(embeds) > 10:
        _put(errors, "embeds", "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
    total = 0
    for i, embed in enumerate(embeds):
        base = f"embeds.{i}"
        _too_long(errors, f"{base}.title", embed.get("title"), 256)
        _too_long(errors, f"{base}.description", embed.get("description"), 4096)
        _too_long(errors, f"{base}.footer.text", (embed.get("footer") or {}).get("text"), 2048)
        _too_long(errors, f"{base}.author.name", (embed.get("author") or {}).get("name"), 256)
        fields = embed.get("fields") or []
        if len(fields) > 25:
            _put(errors, f"{base}.fields", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        for j, f in enumerate(fields):
            if not f.get("name") or not f.get("value"):
                _put(errors, f"{base}.fields.{j}", "BASE_TYPE_REQUIRED", "This field is required")
            _too_long(errors, f"{base}.fields.{j}.name", f.get("name"), 256)
            _too_long(errors, f"{base}.fields.{j}.value", f.get("value"), 1024)
            total += len(f.get("name") or "") + len(f.get("value") or "")
        total += sum(
            len(x or "")
            for x in (
                embed.get("title"),
                embed.get("description"),
                (embed.get("footer") or {}).get("text"),
                (embed.get("author") or {}).get("name"),
            )
        )
    if total > 6000:
        _put(errors, "embeds", "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")
    components = payload.get("components") or []
    v2 = bool(int(payload.get("flags") or 0) & (1 << 15))
    if not v2:
        if len(components) > 5:
            _put(errors, "components", "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
        for i, row in enumerate(components):
            children = row.get("components") or []
            if row.get("type") != 1:
                _put(errors, f"components.{i}", "UNION_TYPE_CHOICES", "top-level components must be action rows")
            if len(children) > 5 or not children:
                _put(errors, f"components.{i}.components", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
    for comp in _walk_components(components):
        _too_long(errors, "components.custom_id", comp.get("custom_id"), 100)
        _too_long(errors, "components.label", comp.get("label"), 80)
        if comp.get("type") == 2 and comp.get("style") != 5 and comp.get("style") != 6 and not comp.get("custom_id"):
            _put(errors, "components.custom_id", "BASE_TYPE_REQUIRED", "buttons need a custom_id")
        if len(comp.get("options") or []) > 25:
            _put(errors, "components.options", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    ids = [c["custom_id"] for c in _walk_components(components) if c.get("custom_id")]
    if len(ids) != len(set(ids)):
        _put(errors, "components", "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")
    if require_content and not (
        content or embeds or components or files or payload.get("sticker_ids") or payload.get("poll")
    ):
        _put(errors, "content", "BASE_TYPE_REQUIRED", "Cannot send an empty message")
    return errors


def _validate_choices(choices: Any) -> dict[str, Any]:
    errors: dict[str, Any] = {}
    if choices is None:
        return errors
    if len(choices) > 25:
        _put(errors, "choices", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    for i, choice in enumerate(choices):
        name = choice.get("name")
        if not name or len(name) > 100:
            _put(errors, f"choices.{i}.name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        if isinstance(choice.get("value"), str) and len(choice["value"]) > 100:
            _put(errors, f"choices.{i}.value", "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
    return errors


def _validate_command(cmd: dict[str, Any], path: str, errors: dict[str, Any]) -> None:
    prefix = f"{path}." if path else ""
    name = cmd.get("name") or ""
    ctype = cmd.get("type", 1)
    if ctype == 1:
        if not _COMMAND_NAME.match(name) or name != name.lower():
            _put(errors, f"{prefix}name", "APPLICATION_COMMAND_INVALID_NAME", f"Command name is invalid: {name!r}")
        desc = cmd.get("description") or ""
        if not 1 <= len(desc) <= 100:
            _put(errors, f"{prefix}description", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
    elif not 1 <= len(name) <= 32:
        _put(errors, f"{prefix}name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 32 in length.")
    _validate_options(cmd.get("options") or [], f"{prefix}options", errors)


def _validate_options(options: list[dict[str, Any]], path: str, errors: dict[str, Any]) -> None:
    if len(options) > 25:
        _put(errors, path, "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    seen_optional = False
    for i, opt in enumerate(options):
        name = opt.get("name") or ""
        if not _COMMAND_NAME.match(name) or name != name.lower():
            _put(errors, f"{path}.{i}.name", "APPLICATION_COMMAND_INVALID_NAME", f"Option name is invalid: {name!r}")
        if not 1 <= len(opt.get("description") or "") <= 100:
            _put(errors, f"{path}.{i}.description", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        if opt.get("type") in (1, 2):
            _validate_options(opt.get("options") or [], f"{path}.{i}.options", errors)
            continue
        if opt.get("required"):
            if seen_optional:
                _put(
                    errors,
                    f"{path}.{i}",
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    "Required options must be placed before non-required options",
                )
        else:
            seen_optional = True
        if len(opt.get("choices") or []) > 25:
            _put(errors, f"{path}.{i}.choices", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        if opt.get("choices") and opt.get("autocomplete"):
            _put(errors, f"{path}.{i}.autocomplete", "AUTOCOMPLETE_AND_CHOICES", "choices and autocomplete clash")


def _infer_option_type(value: Any) -> int:
    if isinstance(value, bool):
        return 5
    if isinstance(value, int):
        return 4
    if isinstance(value, float):
        return 10
    if isinstance(value, FakeUser):
        return 6
    if isinstance(value, FakeChannel):
        return 7
    if isinstance(value, FakeRole):
        return 8
    if isinstance(value, tuple):
        return 11
    return 3
