"""Every front end asks through the same Query: the terminal's flags, a chat question and a
button give the same answer to the same question."""

from __future__ import annotations

import json

from bot.chat import respond, understand
from bot.cli import main
from engine.advisor import AdviceContext


def _json(capsys, *argv: str) -> dict:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_breakeven_flags_and_a_chat_question_give_the_same_days(capsys):
    """`breakeven --gpu 3090 --hours 3` and "rent or buy a 3090, 3 hours a day" are one question
    (they answered 352 and 1,622 days before the CLI went through Query)."""
    flags = _json(capsys, "breakeven", "--gpu", "3090", "--hours", "3")
    asked = respond(understand("rent or buy a 3090, 3 hours a day", None, "USD"), AdviceContext())
    assert flags["break_even"]["days"] == asked.break_even.days
    assert flags["query"]["gpus"] == list(asked.query.gpus) and flags["query"]["hours_per_day"] == 3


def test_canrun_flags_reach_the_answer(capsys):
    """--mode/--precision/--context are Query fields: the answer checks exactly that."""
    answer = _json(capsys, "canrun", "llama", "3", "8b", "--gpu", "3090", "--mode", "qlora", "--context", "4096")
    verdict = answer["can_run"]["verdicts"][0]
    assert answer["query"]["mode"] == "qlora" and verdict["mode"] == "qlora"
    assert verdict["estimate"]["context"] == 4096
