"""``python -m bot``: run the Discord bot, or — with no token — answer in the terminal."""

from __future__ import annotations

import os
import sys

from bot.render import answer_text
from engine.advisor import AdviceContext, advise
from engine.money import Money
from engine.query import Query

NO_TOKEN = (
    "No DISCORD_TOKEN set: create a bot at https://discord.com/developers/applications and put its token in "
    "DISCORD_TOKEN (see the README). Meanwhile the terminal works: `gpu-advisor --help`."
)
SAMPLE = ("which GPU for Kaggle under $500?",
          Query(kind="recommend", task="kaggle", budget=Money(amount=500, currency="USD")))


def main() -> int:
    if os.environ.get("DISCORD_TOKEN"):
        print("The Discord front end is not built yet (issue #6); use `gpu-advisor` in the terminal.", file=sys.stderr)
        return 1
    print(NO_TOKEN, file=sys.stderr)
    question, query = SAMPLE
    print(f"\n> {question}\n\n{answer_text(advise(query, AdviceContext()))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
