"""``python -m bot``: run the Discord bot, or — with no token — answer in the terminal."""

from __future__ import annotations

import os
import sys

from bot.chat import Conversations
from bot.terminal import SAMPLE_QUESTION, answer_once, run_chat
from engine.advisor import AdviceContext

NO_TOKEN = (
    "No DISCORD_TOKEN set: create a bot at https://discord.com/developers/applications and put its token in "
    "DISCORD_TOKEN (see the README). Meanwhile, `gpu-advisor chat` talks in the terminal."
)


def main() -> int:
    if os.environ.get("DISCORD_TOKEN"):
        print("The Discord front end is not built yet (issue #6); use `gpu-advisor chat`.", file=sys.stderr)
        return 1
    print(NO_TOKEN, file=sys.stderr)
    print(f"\n> {SAMPLE_QUESTION}\n\n{answer_once(SAMPLE_QUESTION, Conversations(), AdviceContext())}\n")
    if sys.stdin.isatty():
        run_chat()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
