"""Logs, metrics and health: what an operator needs to run shards on several machines.

- Logs are JSON lines when stderr is not a terminal (a service), text otherwise; they carry guild,
  command and latency, never the token, and never message contents beyond a short redacted excerpt.
- ``/metrics`` (Prometheus text) and ``/healthz`` are served by a small aiohttp app, off by default
  and bound to loopback by default (``HEALTH_PORT``, ``HEALTH_HOST``).
"""

from __future__ import annotations

import json
import logging
import re
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest

# Discord bot tokens: three base64url parts separated by dots.
_TOKEN = re.compile(r"[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}")
_MENTION = re.compile(r"<[@#][!&]?\d+>|@everyone|@here")
_DIGITS = re.compile(r"\d{5,}")
EXCERPT_CHARS = 40
_STANDARD = set(logging.makeLogRecord({}).__dict__) | {"message", "asctime"}


def redact(text: str) -> str:
    """Remove anything token-shaped from a log line."""
    return _TOKEN.sub("[redacted-token]", text)


def excerpt(text: str) -> str:
    """A short, de-identified excerpt of user text for logs: no mentions, no long numbers."""
    short = _DIGITS.sub("#", _MENTION.sub("@…", text))[:EXCERPT_CHARS]
    return short + ("…" if len(text) > EXCERPT_CHARS else "")


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        payload: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "message": redact(record.getMessage()),
        }
        for key, value in record.__dict__.items():
            if key not in _STANDARD and not key.startswith("_"):
                payload[key] = redact(value) if isinstance(value, str) else value
        if record.exc_info:
            payload["exception"] = redact(self.formatException(record.exc_info))
        return json.dumps(payload, default=str, ensure_ascii=False)


class RedactingFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))


def setup_logging(level: str = "INFO", as_json: bool | None = None) -> None:
    """JSON when not attached to a terminal (or when asked), readable text otherwise."""
    use_json = (not sys.stderr.isatty()) if as_json is None else as_json
    handler = logging.StreamHandler()
    handler.setFormatter(
        JsonFormatter() if use_json else RedactingFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    )
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)


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
