"""``python -m bot``: run the Discord bot, or — with no token — answer in the terminal."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys

from bot.chat import Conversations
from bot.config import Settings
from bot.observability import setup_logging
from bot.terminal import SAMPLE_QUESTION, answer_once, run_chat
from engine.advisor import AdviceContext

NO_TOKEN = (
    "No DISCORD_TOKEN set: create an application at https://discord.com/developers/applications, add a bot, and "
    "put its token in DISCORD_TOKEN or .env (see README). Meanwhile, `gpu-advisor chat` talks in the terminal."
)


async def run_bot(settings: Settings) -> None:
    from bot.app import GpuAdvisorBot, point_at

    point_at(settings)
    bot = GpuAdvisorBot(settings)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, lambda: asyncio.ensure_future(bot.shutdown()))
    async with bot:
        assert settings.discord_token is not None  # main() runs the terminal chat without one
        await bot.start(settings.discord_token.get_secret_value())


def main() -> int:
    settings = Settings()
    setup_logging(settings.log_level, settings.log_json)
    if settings.discord_token is None:
        print(NO_TOKEN, file=sys.stderr)
        print(f"\n> {SAMPLE_QUESTION}\n\n{answer_once(SAMPLE_QUESTION, Conversations(), AdviceContext())}\n")
        if sys.stdin.isatty():
            run_chat(currency=settings.default_currency)
        return 0
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run_bot(settings))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
