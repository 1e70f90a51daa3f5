"""``python -m bot``: run the Discord bot, or — with no token — answer in the terminal.

Exit codes (docs/operations.md, "Exit codes"): 0 stopped (SIGTERM/SIGINT) or terminal chat done;
1 an unexpected error (a bug); 2 a setting is invalid; 3 the database cannot be used (a corrupt
or read-only SQLite file, a bad DATA_DIR, wrong credentials, an unknown database or revision);
4 a dependency is unreachable (the database after ``DATABASE_START_TIMEOUT_SECONDS`` of retries,
or Discord at login); 5 Discord refused the bot (a bad token, privileged intents not enabled).
A failure to start is one log line (JSON for a service) with the cause and a hint, no traceback.

SIGTERM ends the process within ``SHUTDOWN_GRACE_SECONDS`` + 1.5 s in every state: while answers
are in flight, while the database is retried at start-up, while discord.py waits to reconnect to
an unreachable Discord (its back-off alone can be a minute). A stop that overruns that is cut short.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import os
import signal
import sys
import threading
import time

import aiohttp
import discord
from pydantic import ValidationError

from bot.allocator import limit_arenas
from bot.chat import Conversations
from bot.config import Settings
from bot.observability import setup_logging
from bot.terminal import SAMPLE_QUESTION, answer_once, run_chat

NO_TOKEN = (
    "No DISCORD_TOKEN set: create an application at https://discord.com/developers/applications, add a bot, and "
    "put its token in DISCORD_TOKEN or .env (see README). Meanwhile, `gpu-advisor chat` talks in the terminal."
)
EXIT_OK = 0
EXIT_BUG = 1
EXIT_CONFIG = 2
EXIT_STORAGE = 3
EXIT_UNREACHABLE = 4
EXIT_REFUSED = 5
# After SIGTERM: the grace for answers in flight, then this long to close everything; past that
# the process exits anyway (Docker sends SIGKILL 10 s after SIGTERM, systemd after TimeoutStopSec).
CLOSE_SECONDS = 1.5
# Until READY: the garbage collector's thresholds while the bot imports and discord.py builds every
# guild (10,000 GUILD_CREATE). Python's default (700, 10, 10) spent ≈0.39 s of a 2.2-s start in 620
# collections; these ≈0.07–0.11 s in 3–4 (gc.callbacks, startup_bench.py, 2026-12-03). bot.app sets
# its own thresholds after READY, once the start-up heap is frozen.
START_GC_THRESHOLDS = (100_000, 50, 1_000)
log = logging.getLogger("gpu_advisor")


class CannotStart(Exception):
    """Why the bot cannot start: an exit code, the cause and what to do about it."""

    def __init__(self, code: int, cause: str, hint: str) -> None:
        super().__init__(cause)
        self.code, self.cause, self.hint = code, cause, hint


async def run_bot(settings: Settings) -> int:
    """Run until SIGTERM/SIGINT (exit 0) or a failure to start (:class:`CannotStart`)."""
    gc.set_threshold(*START_GC_THRESHOLDS)  # bot.app's warm-up after READY sets the running ones
    from bot.app import GpuAdvisorBot, point_at

    point_at(settings)
    bot = GpuAdvisorBot(settings)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    assert settings.discord_token is not None  # main() runs the terminal chat without one
    runner = asyncio.create_task(bot.start(settings.discord_token.get_secret_value()), name="bot")
    stopping = asyncio.create_task(stop.wait(), name="stop-signal")
    try:
        await asyncio.wait({runner, stopping}, return_when=asyncio.FIRST_COMPLETED)
        if stop.is_set():
            return await _stop(bot, runner, settings)
        stopping.cancel()
        try:
            runner.result()
        except Exception as error:
            await _close_quietly(bot)
            raise _cannot_start(error) from error
        await _close_quietly(bot)
        return EXIT_OK
    finally:
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(sig)


async def _stop(bot: object, runner: asyncio.Task[None], settings: Settings) -> int:
    """SIGTERM: refuse new work, let answers in flight finish (up to the grace), close, and stop
    discord.py's own task, which may be sleeping in a reconnect back-off or retrying a connection."""
    deadline = time.monotonic() + settings.shutdown_grace_seconds + CLOSE_SECONDS
    _exit_anyway_after(deadline - time.monotonic() + 0.3)
    log.info("stopping", extra={"grace_seconds": settings.shutdown_grace_seconds})
    with contextlib.suppress(Exception, asyncio.CancelledError):
        await asyncio.wait_for(bot.shutdown(), timeout=max(0.1, deadline - time.monotonic()))  # type: ignore[attr-defined]
    if not runner.done():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait({runner}, timeout=max(0.05, min(0.5, deadline - time.monotonic())))
    if not runner.done():
        runner.cancel()
        await asyncio.wait({runner}, timeout=max(0.05, deadline - time.monotonic()))
    if runner.done() and not runner.cancelled():
        runner.exception()  # closing mid-connect may end it with an error: expected, not a failure
    log.info("stopped")
    return EXIT_OK


def _exit_anyway_after(seconds: float) -> None:
    """A last resort if closing hangs somewhere that ignores cancellation (a thread): exit 0 anyway."""

    def cut_short() -> None:
        log.error("stop took too long; exiting without finishing it", extra={"after_seconds": round(seconds, 1)})
        logging.shutdown()
        os._exit(EXIT_OK)

    timer = threading.Timer(seconds, cut_short)
    timer.daemon = True
    timer.start()


async def _close_quietly(bot: object) -> None:
    with contextlib.suppress(Exception):
        await asyncio.wait_for(bot.close(), timeout=CLOSE_SECONDS * 2)  # type: ignore[attr-defined]


def _cannot_start(error: BaseException) -> CannotStart | BaseException:
    """The exit code, cause and hint for an error that ended the bot before or while it started."""
    from bot.store.store import StartupFailed

    if isinstance(error, StartupFailed):
        if error.kind == "unreachable":
            return CannotStart(EXIT_UNREACHABLE, f"database unreachable: {error.cause}", error.hint)
        return CannotStart(EXIT_STORAGE, f"database unusable: {error.cause}", error.hint)
    if isinstance(error, ValueError) and str(error).startswith("DATABASE_URL"):
        return CannotStart(EXIT_CONFIG, str(error), "fix DATABASE_URL (docs/storage.md lists the forms)")
    if isinstance(error, discord.LoginFailure):
        return CannotStart(EXIT_REFUSED, "Discord refused the token", "reset the token and set DISCORD_TOKEN (README)")
    if isinstance(error, discord.PrivilegedIntentsRequired):
        return CannotStart(
            EXIT_REFUSED,
            "Discord refused the privileged message-content intent",
            "enable it in the Developer Portal (Bot → Privileged Gateway Intents) or set MESSAGE_CONTENT=false",
        )
    if isinstance(error, aiohttp.ClientError | OSError | TimeoutError | discord.DiscordServerError):
        return CannotStart(
            EXIT_UNREACHABLE,
            f"Discord unreachable: {type(error).__name__}: {error}"[:300],
            "check the network, DISCORD_API_BASE and DISCORD_GATEWAY_URL; the supervisor restarts the bot",
        )
    return error


def _say_cannot_start(problem: CannotStart) -> None:
    log.critical(
        "cannot start: %s",
        problem.cause,
        extra={"cause": problem.cause, "hint": problem.hint, "exit_code": problem.code},
    )


def _settings_or_exit() -> Settings | int:
    """The settings, or — for an invalid one — one line naming it, before logging is set up."""
    try:
        return Settings()
    except ValidationError as error:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']).upper() or 'settings'}: {e['msg']}" for e in error.errors()
        )
        cause = f"invalid setting: {problems}"[:500]
        hint = "fix the environment variable or .env line (.env.example lists every setting)"
        as_json = os.environ.get("LOG_JSON", "").strip().lower()
        if as_json in ("1", "true", "yes") or (as_json not in ("0", "false", "no") and not sys.stderr.isatty()):
            line = {
                "level": "CRITICAL",
                "logger": "gpu_advisor",
                "message": f"cannot start: {cause}",
                "cause": cause,
                "hint": hint,
                "exit_code": EXIT_CONFIG,
            }
            print(json.dumps(line, ensure_ascii=False), file=sys.stderr)
        else:
            print(f"cannot start: {cause} ({hint})", file=sys.stderr)
        return EXIT_CONFIG


def main() -> int:
    settings = _settings_or_exit()
    if isinstance(settings, int):
        return settings
    setup_logging(
        settings.log_level,
        settings.log_json,
        excerpts=settings.log_excerpts,
        discord_debug=settings.log_discord_debug,
    )
    if settings.discord_token is None:
        from engine.advisor import AdviceContext  # the engine: not imported before the bot's READY

        print(NO_TOKEN, file=sys.stderr)
        print(f"\n> {SAMPLE_QUESTION}\n\n{answer_once(SAMPLE_QUESTION, Conversations(), AdviceContext())}\n")
        if sys.stdin.isatty():
            run_chat(currency=settings.default_currency)
        return EXIT_OK
    limit_arenas()  # before any thread allocates (bot.allocator)
    try:
        return asyncio.run(run_bot(settings))
    except KeyboardInterrupt:
        return EXIT_OK
    except CannotStart as problem:
        _say_cannot_start(problem)
        return problem.code
    except Exception:
        log.critical("stopped by an unexpected error", exc_info=True)
        return EXIT_BUG


if __name__ == "__main__":
    raise SystemExit(main())
