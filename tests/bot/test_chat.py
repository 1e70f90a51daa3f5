"""Chat: a follow-up refines the previous question; the terminal answers through the same path."""

from __future__ import annotations

from decimal import Decimal

from bot.chat import Conversations, understand
from bot.terminal import answer_once
from bot.words import english
from engine.advisor import AdviceContext


def test_follow_up_refines_budget_and_condition():
    first = understand("which GPU for Kaggle under $500?", None).query
    used = understand("what about used?", first).query
    assert (used.kind, used.task, used.condition) == ("recommend", "kaggle", "used")
    assert used.budget == first.budget
    euros = understand("and with €800?", used).query
    assert euros.budget.currency == "EUR" and euros.budget.amount == Decimal(800)
    assert euros.condition == "used" and euros.task == "kaggle"


def test_chinese_follow_up():
    first = understand("4090 和 3090 哪个更适合训练模型？", None).query
    again = understand("那二手的呢？", first).query
    assert again.kind == "compare" and again.gpus == first.gpus and again.condition == "used"


def test_a_new_question_starts_over():
    first = understand("which GPU for Kaggle under $500?", None).query
    second = understand("What PSU do I need for 4x RTX 3090?", first).query
    assert second.kind == "power" and second.budget is None


def test_conversations_expire():
    conversations = Conversations(ttl=10)
    first = understand("which GPU for Kaggle under $500?", None).query
    conversations.put((1, 2), first, now=0)
    assert conversations.get((1, 2), now=5) == first
    assert conversations.get((1, 2), now=11) is None
    assert conversations.get((9, 9), now=0) is None


def test_terminal_answer_keeps_the_thread_and_reports_notes():
    conversations = Conversations()
    ctx = AdviceContext(snapshot="2020-09")
    assert "RTX 3070" in answer_once("which GPU for Kaggle under $500?", conversations, ctx)
    assert "your budget buys" in answer_once("what about $2000?", conversations, ctx)  # the budget took effect
    assert "negative" in answer_once("budget: -500 dollars lol which gpu", conversations, ctx)


def test_terminal_answers_a_chinese_question_in_its_script():
    from bot.i18n import t

    ctx = AdviceContext()
    simplified = answer_once("4 张 3090 要多大电源？", Conversations(), ctx)
    assert simplified.startswith(t("zh-Hans", "title.power")) and "插座端约 1778 W" in simplified
    assert "**" not in simplified and "```" not in simplified and "Why:" not in simplified
    traditional = answer_once("預算 1 萬台幣，跑 Kaggle 買哪張顯卡？", Conversations(), ctx)
    assert traditional.startswith(t("zh-Hant", "title.recommend"))
    assert "Why:" in answer_once("PSU for 4x 3090?", Conversations(), ctx)  # English keeps the sourced report


def test_unknown_gpu_in_a_comparison_asks_again():
    from bot.chat import respond
    from engine.advisor import AdviceContext

    answer = respond(understand("rtx 9090 vs 4090", None), AdviceContext())
    assert answer.comparison is None and "rtx 9090" in english(answer.headline)
    assert "RTX 4090" in english(answer.headline)
    assert answer.follow_up is not None


def test_parser_notes_reach_the_answer():
    from bot.chat import respond
    from engine.advisor import AdviceContext

    answer = respond(understand("budget: -500 dollars lol which gpu", None), AdviceContext())
    assert any("negative" in english(note) for note in answer.notes)
