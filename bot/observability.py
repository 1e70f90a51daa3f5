"""Logs, metrics and health: what an operator needs to run shards on several machines.

- Logs are JSON lines when stderr is not a terminal (a service), text otherwise; they carry guild,
  command and latency, never the token or an interaction token, and no user text by default: with
  ``LOG_EXCERPTS=true`` a chat line carries a 40-character excerpt with mentions, e-mail addresses,
  phone numbers, URLs (beyond their host), Discord invites and long digit runs removed.
- discord.py's own DEBUG lines carry whole gateway payloads (message contents, interaction tokens)
  and REST URLs with interaction tokens: its ``discord.gateway``/``discord.http``/``discord.client``/
  ``discord.webhook`` loggers stay at INFO or above whatever ``LOG_LEVEL`` says, unless
  ``LOG_DISCORD_DEBUG=true`` (for debugging against a test server, never in production); so does
  ``aiosqlite``, whose DEBUG lines carry SQL parameters (a price report's "where").
- ``/metrics`` (Prometheus text) and ``/healthz`` are served by a small aiohttp app, off by default
  and bound to loopback by default (``HEALTH_PORT``, ``HEALTH_HOST``).
"""

from __future__ import annotations

import asyncio
import functools
import gc
import json
import logging
import os
import re
import sys
import time
import tracemalloc
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest

# Discord bot tokens: three base64url parts separated by dots.
# Bounded repeats: an unbounded run would make a long line without a dot quadratic to scan.
_TOKEN = re.compile(r"[A-Za-z0-9_-]{20,100}\.[A-Za-z0-9_-]{4,40}\.[A-Za-z0-9_-]{20,300}")
# Interaction and webhook tokens travel in REST paths (discord.py's 429 warning prints the URL) and in
# gateway payloads ("token": "..."): valid for 15 minutes, enough to answer as the bot.
_PATH_TOKEN = re.compile(r"(/(?:interactions|webhooks)/\d+/)[^/\s?#'\"]+")
_FIELD_TOKEN = re.compile(r"""(["']?token["']?\s*[:=]\s*["']?)[^"',\s}]+""", re.IGNORECASE)
_MENTION = re.compile(r"<[@#][!&]?\d+>|<@&?\d+>|@everyone|@here")
_INVITE = re.compile(
    r"(?:https?://)?(?:www\.)?(?:discord(?:app)?\.com/invite|discord\.gg|dsc\.gg)/[\w-]+", re.IGNORECASE
)
_URL = re.compile(r"\b((?:https?|ftp)://|www\.)([^\s/?#<>\"']+)[^\s<>\"']*", re.IGNORECASE)
_EMAIL = re.compile(r"[\w.%+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63})+")
# Phone numbers: "+1 (555) 123-4567", "0912-345-678", "555.123.4567", "138 0013 8000": digit groups
# with separators, 7+ digits with a leading + or - . ( ) /, or 9+ digits separated by spaces only.
_PHONE_MARKED = re.compile(r"(?:\+\s?|\()?\d(?:[().\-/ ]{0,3}\d){6,}")
_DIGIT = re.compile(r"\d")
_DIGITS = re.compile(r"\d{5,}")
EXCERPT_CHARS = 40
_STANDARD = set(logging.makeLogRecord({}).__dict__) | {"message", "asctime"}
# discord.py's loggers whose DEBUG lines carry payloads, message contents or tokens.
DISCORD_PAYLOAD_LOGGERS = ("discord.gateway", "discord.http", "discord.client", "discord.webhook")
# Others whose DEBUG lines carry user text: aiosqlite logs every call with its SQL parameters (a price
# report's "where", a conversation's query). Kept at INFO or above always.
QUIET_LOGGERS = ("aiosqlite",)
_options = {"excerpts": False, "discord_debug": False}


def redact(text: str) -> str:
    """Remove anything token-shaped from a log line: the bot token, interaction/webhook tokens."""
    text = _TOKEN.sub("[redacted-token]", text)
    text = _PATH_TOKEN.sub(r"\1[redacted-token]", text)
    return _FIELD_TOKEN.sub(r"\1[redacted-token]", text)


def _phone(match: re.Match[str]) -> str:
    found = match.group(0)
    digits = len(_DIGIT.findall(found))
    marked = found.lstrip().startswith(("+", "(")) or any(ch in found for ch in "-.()/")
    return "[phone]" if digits >= (7 if marked else 9) else found


def scrub(text: str) -> str:
    """``text`` with what identifies people removed: Discord invites, URLs past their host, e-mail
    addresses, phone numbers, mentions, @everyone/@here and runs of 5+ digits (ids, card numbers)."""
    text = _INVITE.sub("[invite]", text)
    text = _URL.sub(
        lambda m: f"{m.group(1)}{m.group(2)}/…" if len(m.group(0)) > len(m.group(1) + m.group(2)) else m.group(0), text
    )
    text = _EMAIL.sub("[email]", text)
    text = _PHONE_MARKED.sub(_phone, text)
    text = _MENTION.sub("@…", text)
    return _DIGITS.sub("#", text)


def excerpt(text: str, *, enabled: bool | None = None) -> str | None:
    """A short, de-identified excerpt of user text for a log line, or None — the default: logs
    carry no user text unless the operator opted in (``LOG_EXCERPTS=true``, see :func:`setup_logging`).

    The text is scrubbed before it is cut, so a cut never leaves half of an address behind."""
    if not (_options["excerpts"] if enabled is None else enabled):
        return None
    clean = scrub(redact(text[: EXCERPT_CHARS * 10]))
    short = clean[:EXCERPT_CHARS]
    return short + ("…" if len(clean) > EXCERPT_CHARS else "")


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        payload: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "message": redact(record.getMessage()),
        }
        for key, value in record.__dict__.items():
            if key not in _STANDARD and not key.startswith("_") and not (key == "excerpt" and value is None):
                payload[key] = redact(value) if isinstance(value, str) else value
        if record.exc_info:
            payload["exception"] = redact(self.formatException(record.exc_info))
        return json.dumps(payload, default=str, ensure_ascii=False)


class RedactingFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))


class QuietDiscord(logging.Filter):
    """Drops discord.py's DEBUG records of its payload loggers (``DISCORD_PAYLOAD_LOGGERS``): a second
    guard behind their levels, for a logger someone set to DEBUG after start-up."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.INFO:
            return True
        quiet = QUIET_LOGGERS if _options["discord_debug"] else (*DISCORD_PAYLOAD_LOGGERS, *QUIET_LOGGERS)
        return not any(record.name == n or record.name.startswith(n + ".") for n in quiet)


def setup_logging(
    level: str | int = "INFO", as_json: bool | None = None, *, excerpts: bool = False, discord_debug: bool = False
) -> None:
    """JSON when not attached to a terminal (or when asked), readable text otherwise.

    ``excerpts`` (``LOG_EXCERPTS``): chat lines carry a scrubbed 40-character excerpt (default: no user
    text). ``discord_debug`` (``LOG_DISCORD_DEBUG``): let discord.py's payload loggers follow ``level``
    down to DEBUG; otherwise they stay at INFO or above, since their DEBUG lines hold message contents
    and interaction tokens."""
    _options["excerpts"], _options["discord_debug"] = excerpts, discord_debug
    use_json = (not sys.stderr.isatty()) if as_json is None else as_json
    handler = logging.StreamHandler()
    handler.setFormatter(
        JsonFormatter() if use_json else RedactingFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    )
    handler.addFilter(QuietDiscord())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    floor = max(root.level, logging.INFO)
    for name in DISCORD_PAYLOAD_LOGGERS:
        logging.getLogger(name).setLevel(root.level if discord_debug else floor)
    for name in QUIET_LOGGERS:
        logging.getLogger(name).setLevel(floor)


class Metrics:
    """The bot's counters, one registry per process (each shard process serves its own)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.answers = Counter(
            "gpu_advisor_answers", "Answers sent, by source and kind", ["source", "kind"], registry=self.registry
        )
        self.errors = Counter(
            "gpu_advisor_errors", "Failures shown to a user as an error line", ["source"], registry=self.registry
        )
        self.latency = Histogram(
            "gpu_advisor_answer_seconds",
            "Time from event to reply sent",
            ["source"],
            registry=self.registry,
            buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5),
        )
        self.gateway_latency = Gauge(
            "gpu_advisor_gateway_latency_seconds", "Heartbeat latency per shard", ["shard"], registry=self.registry
        )
        self.guilds = Gauge("gpu_advisor_guilds", "Guilds per shard", ["shard"], registry=self.registry)
        self._answered: dict[tuple[str, str], tuple[Any, Any]] = {}

    def answered(self, source: str, kind: str, seconds: float | None) -> None:
        """Count one answer and its latency. The labelled children are looked up once per
        (source, kind): prometheus_client's ``labels()`` was a visible share of an answer's CPU."""
        children = self._answered.get((source, kind))
        if children is None:
            children = self._answered[(source, kind)] = (self.answers.labels(source, kind), self.latency.labels(source))
        children[0].inc()
        if seconds is not None:
            children[1].observe(seconds)

    def render(self) -> bytes:
        return generate_latest(self.registry)


HealthCheck = Callable[[], Awaitable[dict[str, bool]]]


def health_app(metrics: Metrics, check: HealthCheck, refresh: Callable[[], None]) -> web.Application:
    """``/healthz``: 200 when every check passes, else 503, with the checks as JSON; ``/metrics``."""

    async def healthz(request: web.Request) -> web.Response:
        checks = await check()
        return web.json_response(checks, status=200 if all(checks.values()) else 503)

    async def metrics_view(request: web.Request) -> web.Response:
        refresh()
        return web.Response(body=metrics.render(), headers={"Content-Type": CONTENT_TYPE_LATEST})

    app = web.Application()
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/metrics", metrics_view)
    return app


async def start_health_server(app: web.Application, host: str, port: int) -> web.AppRunner:
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    return runner


async def trace_memory(directory: str, every: float = 60.0, frames: int = 0, client: object = None) -> None:
    """Diagnostics, off by default: with ``TRACEMALLOC_DIR`` set, the bot writes every ``every``
    seconds (``TRACEMALLOC_EVERY``) the count and shallow size of the live objects the garbage
    collector tracks, by type (``objects-<n>.json``: cheap), and with ``TRACEMALLOC_FRAMES`` > 0 a
    tracemalloc snapshot that deep (``snapshot-<n>.pickle``; tracing costs many times the CPU) — to
    find what grows with users (docs/performance.md). Never in production."""
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    if frames:
        tracemalloc.start(frames)
    n = 0
    while True:
        await asyncio.sleep(every)
        n += 1
        counts: dict[str, list[int]] = {}
        for obj in gc.get_objects():
            name = f"{type(obj).__module__}.{type(obj).__qualname__}"
            entry = counts.setdefault(name, [0, 0])
            entry[0] += 1
            entry[1] += sys.getsizeof(obj)
        top = sorted(counts.items(), key=lambda item: -item[1][1])[:60]
        caches = {}
        for name, function in _remembering_functions():
            info = function.cache_info()
            if info.currsize > 100:
                caches[name] = [info.currsize, info.maxsize, info.hits, info.misses]
        held = {name: _holders(name) for name in os.environ.get("TRACEMALLOC_HOLDERS", "").split(",") if name}
        retained = retained_sizes(client) if os.environ.get("TRACEMALLOC_RETAINED") else {}
        (folder / f"objects-{n:03d}.json").write_text(
            json.dumps(
                {"time": time.time(), "types": top, "caches": caches, "holders": held, "retained": retained},
                default=str,
            )
        )
        if frames:
            tracemalloc.take_snapshot().dump(str(folder / f"snapshot-{n:03d}.pickle"))


_ROOTS_PREFIXES = ("bot", "engine", "discord")


def _remembering_functions(prefixes: tuple[str, ...] = _ROOTS_PREFIXES) -> list[tuple[str, Any]]:
    """The module-level ``lru_cache`` functions of the modules under ``prefixes``, by name: found
    through the modules, since the warm-up's ``gc.freeze`` hides them from ``gc.get_objects``."""
    found = []
    for name, module in list(sys.modules.items()):
        if module is not None and name.split(".", 1)[0] in prefixes:
            for attr, value in list(vars(module).items()):
                if isinstance(value, functools._lru_cache_wrapper) and value.__module__ == name:
                    found.append((f"{name}.{attr}", value))
    return found


def retained_sizes(
    client: object = None, prefixes: tuple[str, ...] = _ROOTS_PREFIXES, top: int = 40
) -> dict[str, list[int]]:
    """Diagnostics (``TRACEMALLOC_RETAINED``): for each global of the modules under ``prefixes`` (a
    remembering function's cache, a module-level dict) and each attribute of ``client`` (the bot)
    and of its connection state, the objects reachable from it that nothing counted before reached, and their bytes
    (``sys.getsizeof``, strings included): [objects, bytes], the largest ``top``. Modules, classes
    and functions stop the walk, so a root counts what it holds, not the code it points at. The
    roots are walked largest-first in two passes, so a shared object counts for the root that
    holds most. Seconds of CPU for a large heap: never in production."""
    import types

    stop = (types.ModuleType, type, types.FunctionType, types.BuiltinFunctionType, types.CodeType, types.FrameType)
    roots: dict[str, object] = {}
    for name, module in list(sys.modules.items()):
        if module is None or name.split(".", 1)[0] not in prefixes:
            continue
        for attr, value in list(vars(module).items()):
            if isinstance(value, (types.ModuleType, type, str, int, float, bool)) or value is None:
                continue
            if isinstance(value, functools._lru_cache_wrapper):
                roots[f"{name}.{attr}()"] = value
            elif not isinstance(value, types.FunctionType):
                roots[f"{name}.{attr}"] = value
    import discord

    if client is not None:  # the bot itself is frozen (gc.freeze), out of gc.get_objects()
        for attr, value in vars(client).items():
            roots[f"client.{attr}"] = value
        state = getattr(client, "_connection", None)
        if state is not None:
            for attr, value in vars(state).items():
                roots[f"client._connection.{attr}"] = value

    def walk(root: object, seen: set[int]) -> list[int]:
        count = size = 0
        stack = list(gc.get_referents(root)) if isinstance(root, functools._lru_cache_wrapper) else [root]
        while stack:
            obj = stack.pop()
            if id(obj) in seen or isinstance(obj, (*stop, discord.Client)):
                continue
            seen.add(id(obj))
            count += 1
            size += sys.getsizeof(obj)
            stack.extend(gc.get_referents(obj))
        return [count, size]

    first = {name: walk(root, set()) for name, root in roots.items()}
    order = sorted(roots, key=lambda name: -first[name][1])
    seen: set[int] = set()
    sizes = {name: walk(roots[name], seen) for name in order}
    return dict(sorted(sizes.items(), key=lambda kv: -kv[1][1])[:top])


def _holders(type_name: str, samples: int = 5, depth: int = 5) -> list[list[str]]:
    """For a few live objects of ``type_name`` (module.qualname), the chain of what refers to them:
    the type of each referrer, ``depth`` levels up (diagnostics only; loops, no closures, so that
    this function's own lists and cells stay out of the answer)."""
    found = []
    for obj in gc.get_objects():
        kind = type(obj)
        if f"{kind.__module__}.{kind.__qualname__}" == type_name:
            found.append(obj)
    picked = found[:: max(1, len(found) // samples)][:samples]
    del found
    ours = {id(picked)}
    chains = []
    for obj in picked:
        chain: list[str] = []
        current = obj
        for _ in range(depth):
            referrers = gc.get_referrers(current)
            ours.add(id(referrers))
            others = []
            for r in referrers:
                if id(r) not in ours and type(r).__name__ != "frame":
                    others.append(r)
            ours.add(id(others))
            if not others:
                break
            described = []
            for r in others[:6]:
                text = f"{type(r).__module__}.{type(r).__qualname__}"
                if isinstance(r, dict):
                    keys = []
                    for k, v in r.items():
                        if v is current:
                            keys.append(str(k)[:40])
                    text += f" keys={keys[:3]}"
                described.append(text)
            chain.append(" | ".join(described))
            current = others[0]
        chains.append(chain)
    return chains


def trace_memory_from_env(client: object = None) -> asyncio.Task[None] | None:
    """:func:`trace_memory` as a task when ``TRACEMALLOC_DIR`` is set, else None."""
    directory = os.environ.get("TRACEMALLOC_DIR")
    if not directory:
        return None
    every = float(os.environ.get("TRACEMALLOC_EVERY", "60"))
    frames = int(os.environ.get("TRACEMALLOC_FRAMES", "0"))
    return asyncio.create_task(trace_memory(directory, every, frames, client), name="trace-memory")
