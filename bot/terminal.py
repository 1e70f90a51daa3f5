"""A conversation in the terminal through the same parser, state and answers as the Discord bot."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from bot.chat import Conversations, from_stored, respond, understand
from bot.locales import Lang
from bot.render import answer_text

if TYPE_CHECKING:  # the engine loads with the first answer: ``python -m bot`` imports this module
    from engine.advisor import AdviceContext
    from engine.answer import Answer

SAMPLE_QUESTION = "which GPU for Kaggle under $500?"
_KEY = (0, 0)  # one user, one channel


def answer_once(text: str, conversations: Conversations, context: AdviceContext) -> str:
    held = conversations.get(_KEY)
    result = understand(text, None if held is None else from_stored(held), context.currency)
    conversations.put(_KEY, result.query)
    return reply_text(respond(result, context), result.language)


def reply_text(answer: Answer, lang: Lang) -> str:
    """An answer for the terminal in the language of the question: the same Document the bot's
    embed shows, with every rule's source."""
    return answer_text(answer, lang)


def run_chat(currency: str = "USD", snapshot: str | None = None) -> None:
    from engine.advisor import AdviceContext

    context = AdviceContext(currency=currency, snapshot=snapshot)
    conversations = Conversations()
    interactive = sys.stdin.isatty()
    if interactive:
        print("Ask about GPUs for deep learning (English or 中文). Empty line or Ctrl-D to quit.")
    for line in sys.stdin:
        text = line.strip()
        if not text:
            break
        print(answer_once(text, conversations, context), end="\n\n", flush=True)
