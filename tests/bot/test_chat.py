"""Chat: a follow-up refines the previous question; the terminal answers through the same path."""

from __future__ import annotations

from decimal import Decimal

import pytest

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


def test_a_follow_up_that_says_its_kind_again_still_refines():
    """ "And on vast.ai?" after a rent question: the provider's name says "cloud" as the first question did, so it
    refines it (the SDXL LoRA asked about stays) rather than starting a rent question about nothing."""
    first = understand("which GPU on runpod for training SDXL lora?", None).query
    vast = understand("and on vast.ai?", first).query
    assert (vast.kind, vast.task, vast.mode, vast.provider) == ("cloud_vs_buy", "image_generation", "lora", "vast")
    power = understand("and the PSU for it?", first).query  # another kind: a question of its own
    assert power.kind == "power"


def test_the_card_named_after_a_slow_run_answer_gets_that_runs_speed_on_it():
    """ "Llama 3 8B runs at 1 token/s, why?" is answered with what sets the speed and "which GPU does it run on?";
    "on my 3060" then gets what the 3060 decodes that model at (≈30 tokens/s, which 1 token/s is far from), not a
    report on the 3060 alone; a slow training run gets the card's training speed (its spec card)."""
    slow = understand("llama 3 8b runs very slow on my pc, 1 token/s", None).query
    assert (slow.kind, slow.workload) == ("other", "decode")
    on_card = understand("on my 3060", slow).query
    assert (on_card.kind, on_card.model, on_card.gpus) == ("can_run", "llama-3-8b", ("rtx-3060-12gb",))
    epoch = understand("an epoch takes 10 minutes, why so slow?", None).query
    assert understand("a 3060", epoch).query.kind == "info"
    # a new question about a card is not taken for that answer
    assert understand("can my 3060 run flux dev?", slow).query.model == "flux-1-dev"


def test_a_follow_up_drops_a_carried_precision_its_mode_does_not_run_at():
    """ "…at 8-bit?" then "全量微调呢？": a full fine-tune trains every weight at 16 bits, so the carried INT8 goes
    (the merged question reached the memory model, which raised, and the bot said nothing)."""
    first = understand("can a 3090 run qwen2.5 14b at 8-bit?", None).query
    full = understand("全量微调呢？", first).query
    assert (full.mode, full.precision) == ("full_finetune", None) and full.gpus == first.gpus
    assert Conversations  # the store these turns go through in the bot


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

    answer = respond(understand("rtx 4095 vs 3090", None), AdviceContext())
    assert answer.comparison is None and "rtx 4095" in english(answer.headline)
    assert "RTX 4090" in english(answer.headline)  # did you mean …
    assert answer.follow_up is not None
    # A card of a series not out yet is said so, and the comparison asks again (not "4090 vs 3090").
    future = respond(understand("rtx 9090 vs 4090", None), AdviceContext())
    assert future.comparison is None and "RTX 9090 is not out yet" in english(future.headline)
    assert future.follow_up is not None


def test_parser_notes_reach_the_answer():
    from bot.chat import respond
    from engine.advisor import AdviceContext

    answer = respond(understand("budget: -500 dollars lol which gpu", None), AdviceContext())
    assert any("negative" in english(note) for note in answer.notes)


# ---- the conversation cap (issue 23, item 9) --------------------------------------------------

KAGGLE = understand("which GPU for Kaggle under $500?", None).query
POWER = understand("PSU for 4x 3090?", None).query


def test_conversations_evict_the_least_recently_used_at_the_cap():
    conversations = Conversations(ttl=1_000, max_size=3)
    for user in (1, 2, 3):
        conversations.put((user, 0), KAGGLE, now=user)
    conversations.put((1, 0), POWER, now=4)  # user 1 asks again: now the most recent
    conversations.put((4, 0), KAGGLE, now=5)  # over the cap: user 2, the least recent, goes
    assert conversations.keys() == [(3, 0), (1, 0), (4, 0)]
    assert conversations.get((2, 0), now=5) is None
    assert conversations.get((1, 0), now=5) == POWER
    conversations.put((5, 0), KAGGLE, now=6)
    conversations.put((6, 0), KAGGLE, now=7)
    assert conversations.keys() == [(4, 0), (5, 0), (6, 0)] and len(conversations) == 3


def test_conversations_never_exceed_the_cap_and_drop_expired_threads_on_the_way():
    conversations = Conversations(ttl=10, max_size=100)
    for user in range(50):
        conversations.put((user, 0), KAGGLE, now=0)
    conversations.put((999, 0), KAGGLE, now=11)  # every earlier thread has expired: dropped now, not at the cap
    assert conversations.keys() == [(999, 0)]
    for user in range(1_000):
        conversations.put((user, 1), KAGGLE, now=20 + user / 1_000)
        assert len(conversations) <= 100
    assert conversations.keys()[0] == (900, 1) and conversations.keys()[-1] == (999, 1)


def test_expiry_is_counted_from_the_last_question():
    conversations = Conversations(ttl=10)
    conversations.put((1, 2), KAGGLE, now=0)
    conversations.put((1, 2), POWER, now=8)
    assert conversations.get((1, 2), now=17) == POWER  # 9 s after the second question
    assert conversations.get((1, 2), now=18.5) is None
    assert len(conversations) == 0  # an expired read forgets the thread


def test_the_default_cap_is_ten_thousand():
    from bot.chat import MAX_CONVERSATIONS

    conversations = Conversations()
    for user in range(MAX_CONVERSATIONS + 500):
        conversations.put((user, 0), KAGGLE, now=0)
    assert len(conversations) == MAX_CONVERSATIONS == 10_000
    assert conversations.keys()[0] == (500, 0)


def test_an_unsure_reading_is_answered_and_offers_the_other_readings_as_buttons():
    """When the reader is unsure of the kind ("kind" in missing), the bot answers its best reading
    and asks once, with buttons, whether another was meant; a press re-asks as that kind."""
    import re

    from bot.chat import respond
    from bot.views import DYNAMIC_ITEMS, FollowUpButton, answer_view
    from engine.advisor import AdviceContext
    from engine.query import ParseResult, Query

    unsure = ParseResult(
        query=Query(kind="cloud_vs_buy", gpus=("rtx-3090",)),
        missing=("kind",),
        kind_choices=("cloud_vs_buy", "can_run"),
    )
    answer = respond(unsure, AdviceContext())
    assert answer.kind == "cloud_vs_buy" and answer.follow_up.field == "kind"
    assert [value for value, _ in answer.follow_up.choices] == ["can_run"]
    (button,) = answer_view(answer, "zh-Hans").children
    assert isinstance(button, FollowUpButton) and button.item.label == "跑得动吗？"
    assert any(re.fullmatch(item.__discord_ui_compiled_template__, button.custom_id) for item in DYNAMIC_ITEMS)
    sure = respond(unsure.model_copy(update={"missing": (), "kind_choices": ()}), AdviceContext())
    assert sure.follow_up is None


def test_a_first_message_that_reads_like_a_follow_up_is_answered_as_a_question():
    # "…是否能微调呢" ends like a follow-up ("那4090呢？"). As the first message of a conversation it is
    # read as a question of its own (a can-run about the user's card), not refused; after a question it
    # still refines that question.
    first = understand("4060Ti 16G 是否能微调呢", None)
    assert first.query.kind == "can_run" and first.query.gpus == ("rtx-4060-ti-16gb",)
    previous = understand("预算5000元买什么显卡跑大模型", None).query
    again = understand("那4090呢？", previous)
    assert again.query.kind == previous.kind and again.query.gpus == ("rtx-4090",)


def test_a_project_it_cannot_size_is_named_with_each_sizes_need_and_asked_for_its_size():
    # "运行FooTalker这个模型需要多大的显存": the name is said back (not "which model?"), a table gives what each
    # common size needs, and the follow-up asks for the parameter count; then "7B" answers from that size.
    conversations, ctx = Conversations(), AdviceContext()
    first = answer_once("运行FooTalker这个模型需要多大的显存呀", conversations, ctx)
    assert "我不认识模型“FooTalker”" in first and "你想跑哪个模型" not in first
    assert "模型大小" in first and "7B        16.0      6.9" in first
    assert "FooTalker 有多少参数" in first
    sized = answer_once("7B", conversations, ctx)
    assert "16.0 GB" in sized and "FooTalker" not in sized


def test_saying_amd_after_a_recommendation_opts_into_radeons_for_the_same_question():
    # The answer says "say 'AMD' if you would take a Radeon": "AMD" then keeps the question and adds the vendor.
    conversations, ctx = Conversations(), AdviceContext()
    answer_once("which GPU for local LLMs under $800?", conversations, ctx)
    opted = answer_once("AMD", conversations, ctx)
    assert opted.startswith("GPU recommendation") and "RX 7900 XTX (24 GB)" in opted
    conversations = Conversations()
    answer_once("预算5000元跑大模型买什么显卡", conversations, ctx)
    assert "RX 7900 XT（20 GB）" in answer_once("A卡也行", conversations, ctx)


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("一张4090部署FooLM占了20g，两张4090每张都各占20g，为啥不平摊？", "parse.note.reserved"),
        ("I have two 3090s but only the first GPU is used by FooTalk, why?", "parse.note.one_gpu"),
        ("GTX 1660 Ti 6GB够FooTTS的显存要求，但是切到cpu去了，为什么？", "parse.note.cpu_fallback"),
        ("我用4张卡来GRPO训练FooVL-26B，结果一直在第一张卡上占用很多显存导致OOM", "parse.note.first_card"),
    ],
)
def test_what_explains_what_the_user_saw_leads_the_answer(text, key):
    """Memory seen taken, one GPU of several used: the explanation is the answer, so it leads the headline (and is
    not said again among the notes)."""
    from bot.chat import respond
    from engine.advisor import AdviceContext

    answer = respond(understand(text, None), AdviceContext())
    assert answer.headline.key == "sentences" and answer.headline["items"][0].key == key
    assert key not in [n.key for n in answer.notes]


def test_the_guides_answer_on_several_gpus_says_the_first_card_once():
    """ "Only the first card runs out of memory" asked of several GPUs, no model: the guide's answer on several GPUs
    leads with memory per card and DataParallel, so the parser's note on the first card is not said again."""
    from bot.chat import respond
    from engine.advisor import AdviceContext

    answer = respond(understand("用4张卡训练FooVL，第一张卡上占用很多显存导致OOM，其他卡是空的", None), AdviceContext())
    keys = set(answer.headline.all_keys()) | {k for n in answer.notes for k in n.all_keys()}
    assert "advice.scaling.memory" in keys and "parse.note.first_card" not in keys
