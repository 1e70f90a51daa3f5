"""Embeds and buttons: the asker's language, Discord's limits, state in custom ids."""

from __future__ import annotations

import re

import pytest

from bot.chat import respond, understand
from bot.embeds import TOTAL_MAX, answer_embed
from bot.i18n import from_discord, t
from bot.views import DYNAMIC_ITEMS, answer_view
from bot.words import english, render
from engine.advisor import AdviceContext, advise
from engine.codec import decode
from engine.parse import parse
from engine.query import Query

QUESTIONS = [
    ("which GPU for Kaggle under $500?", "en"),
    ("4090 和 3090 哪个更适合训练模型？", "zh-Hans"),
    ("四張 RTX 4090 需要多大的電源供應器？", "zh-Hant"),
    ("what are tensor cores and why do they matter?", "en"),
    ("Should I rent a cloud GPU or buy a 3090? I train maybe 3 hours a day.", "en"),
    ("recommend a gpu", "en"),
]


def test_discord_locales_map_to_scripts():
    assert (from_discord("zh-TW"), from_discord("zh-CN"), from_discord("en-GB"), from_discord(None)) == (
        "zh-Hant",
        "zh-Hans",
        "en",
        "en",
    )


@pytest.mark.parametrize(("question", "lang"), QUESTIONS)
def test_embeds_fit_discords_limits(question, lang):
    embed = answer_embed(advise(parse(question).query), lang)
    assert len(embed) <= TOTAL_MAX
    assert len(embed.title) <= 256 and len(embed.description or "") <= 4096
    assert len(embed.fields) <= 25
    for field in embed.fields:
        assert len(field.name) <= 256 and len(field.value) <= 1024
        assert field.value.count("```") % 2 == 0  # never a broken code fence


def test_chinese_question_gets_chinese_headline():
    result = parse("4090 和 3090 哪个更适合训练模型？")
    embed = answer_embed(advise(result.query), result.language)
    assert embed.title == t("zh-Hans", "title.compare")
    assert "倍" in embed.description


def test_buttons_carry_their_state_and_match_their_templates():
    answer = advise(parse("which GPU for Kaggle under $500?").query)
    view = answer_view(answer, "en")
    templates = [re.compile(item.__discord_ui_compiled_template__) for item in DYNAMIC_ITEMS]
    ids = [child.custom_id for child in view.children]
    assert len(ids) == 6 and ids[3].startswith("ga:chart:") and ids[4].startswith("ga:vote:up:")
    for custom_id in ids:
        assert len(custom_id) <= 100
        assert any(p.fullmatch(custom_id) for p in templates), custom_id


def test_a_query_too_long_for_a_button_leaves_the_chart_and_vote_buttons_off():
    """A Query with every field at its widest (tests/engine/test_codec.py) encodes past Discord's
    100 for a vote button: the answer keeps its other buttons and is sent, never refused for a custom_id."""
    from engine.codec import encode
    from tests.engine.test_codec import LONGEST, PREFIX

    answer = advise(parse("which GPU for Kaggle under $500?").query)
    wide = LONGEST.model_copy(update={"kind": "recommend", "ran_out": True})
    assert len(encode(wide)) + PREFIX > 100
    ids = [child.custom_id for child in answer_view(answer.model_copy(update={"query": wide}), "en").children]
    assert ids and not any(i.startswith(("ga:chart:", "ga:vote:")) for i in ids) and all(len(i) <= 100 for i in ids)


@pytest.mark.parametrize("question", [q for q, _ in QUESTIONS] + ["4090 vs 2x 3090", "can a 3060 12GB run llama 3 8b?"])
def test_every_button_is_a_registered_dynamic_item_so_views_need_no_store(question):
    """AnswerView tells discord.py it never listens (so it is not kept after a send); that holds
    only while a press can reach every button through the classes the bot registers at start-up."""
    view = answer_view(advise(parse(question).query), "en")
    if view is not None:
        assert view.children and all(isinstance(child, DYNAMIC_ITEMS) for child in view.children)
        assert view.is_finished()


def test_missing_task_offers_choice_buttons():
    view = answer_view(advise(parse("recommend a gpu").query), "zh-Hant")
    assert all(child.custom_id.startswith("ga:fu:task:") for child in view.children)
    assert any(child.item.label == t("zh-Hant", "advice.task.kaggle") for child in view.children)
    embed = answer_embed(advise(parse("recommend a gpu").query), "zh-Hant")
    assert any(f.value == t("zh-Hant", "advice.followup.task") for f in embed.fields)


def test_user_text_is_never_echoed_with_live_mentions():
    result = parse("@everyone <@&123> <@456> which gpu for kaggle under $500")
    embed = answer_embed(advise(result.query), "en")
    text = str(embed.to_dict())
    assert "@everyone" not in text and "<@&123>" not in text and "<@456>" not in text


@pytest.mark.parametrize(
    "question",
    [
        "which GPU for Kaggle under $500?",
        "4090 vs 2x 3090",
        "PSU for 4x 3090 at 300W",
        "rent or buy a 3090? 3 hours a day",
        "can a 3060 12GB run llama 3 8b",
        "lab, train LLMs, under €3000, 8 h/day",
    ],
)
def test_chart_buttons_rebuild_the_same_answer(question):
    """The chart button carries the whole question: pressing it answers exactly the same again."""
    from bot.views import LANG_CODES, ChartButton

    answer = advise(parse(question).query)
    chart = next(c for c in answer_view(answer, "zh-Hant").children if isinstance(c, ChartButton))
    match = re.fullmatch(ChartButton.__discord_ui_compiled_template__, chart.custom_id)
    again = advise(decode(match["query"]))
    assert again == answer and LANG_CODES[match["lang"]] == "zh-Hant" and len(chart.custom_id) <= 100


@pytest.mark.parametrize(("lang", "expected"), [("zh-Hans", "插座端约 1778 W"), ("zh-Hant", "插座端約 1778 W")])
def test_chinese_power_answers_carry_the_engines_figures_in_chinese(lang, expected):
    answer = advise(parse("4 张 3090 要多大电源？").query)
    embed = str(answer_embed(answer, lang).to_dict())
    assert expected in embed and "at the wall" not in embed
    assert "RTX 3090 是 3 槽" in embed and "won't fit" not in embed
    limit = next(c for c in answer.caveats if english(c).startswith("Power-limiting"))
    assert render(limit, lang).startswith("每")
    assert all(render(c, lang) != english(c) for c in answer.caveats)  # every caveat of a power answer, in Chinese


def test_chinese_answers_translate_known_caveats_and_tips():
    result = parse("4090 和 2x 3090 哪个更适合训练模型？")
    embed = answer_embed(advise(result.query), result.language)
    text = str(embed.to_dict())
    assert "显存不会合并" in text and "Memory does not pool" not in text


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
def test_explanations_come_in_chinese_with_the_engines_figures(lang):
    from engine.explain import explain
    from engine.query import TOPICS

    for topic in TOPICS:
        words = explain(topic).wording(lang)
        assert words.title and "{" not in words.text
    cycles = explain("tensor_cores").wording(lang)
    assert "504" in cycles.text and "235" in cycles.text
    embed = answer_embed(advise(parse("张量核心是什么？为什么对深度学习这么重要？").query), lang)
    assert embed.description.startswith(f"**{explain('tensor_cores').wording(lang).title}**")
    why = next(f.value for f in embed.fields if f.name == t(lang, "field.why"))
    assert why == f"• {explain('tensor_cores').wording(lang).title}"  # not the English title


def test_a_reply_is_rendered_once_per_answer_object_and_language(monkeypatch):
    from bot import views

    answer = advise(parse("which GPU for Kaggle under $500?").query)
    embed, view = views.rendered(answer, "en")
    assert views.rendered(answer, "en") == (embed, view)  # the same objects, not a second rendering
    assert views.rendered(answer, "zh-Hant")[0] is not embed
    twin = answer.model_copy()  # equal but another object: its buttons are built anew, its embed shared
    twin_embed, twin_view = views.rendered(twin, "en")
    assert twin_embed is embed and twin_view is not view
    assert twin_view.to_components() == view.to_components()
    message = views.answer_message(answer, "en")
    assert message["embed"] is embed and message["view"] is view and message["allowed_mentions"].users is False

    monkeypatch.setattr(views, "RENDERED_REMEMBERED", 2)
    for budget in (510, 520, 530):
        views.rendered(advise(parse(f"which GPU for Kaggle under ${budget}?").query), "en")
    assert len(views._RENDERED) == 2  # the oldest are forgotten
    first, second, third = (advise(parse(f"which GPU for Kaggle under ${b}?").query) for b in (610, 620, 630))
    kept = views.rendered(first, "en")
    views.rendered(second, "en")
    assert views.rendered(first, "en") == kept  # used again: now the newest
    views.rendered(third, "en")
    assert (id(first), "en") in views._RENDERED and (id(second), "en") not in views._RENDERED


def test_a_rendered_reply_builds_its_payload_right():
    import discord

    from bot import views

    embed, view = views.rendered(advise(parse("which GPU for Kaggle under $700?").query), "en")
    assert type(embed) is discord.Embed and type(view).to_components is discord.ui.View.to_components
    assert embed.to_dict() == discord.Embed.to_dict(embed)  # what discord.py itself would send
    assert view.to_components() == discord.ui.View.to_components(view)
    assert next(c["custom_id"] for row in view.to_components() for c in row["components"]).startswith("ga:cmp:")


def test_recommendations_that_read_the_same_share_one_embed():
    from bot import views

    first = advise(parse("which GPU for Kaggle under $9,000?").query)
    second = advise(parse("which GPU for Kaggle under $9,001?").query)  # the same price interval
    assert first is not second and first.options == second.options
    assert views.rendered(first, "en")[0] is views.rendered(second, "en")[0]
    assert views.rendered(first, "en")[1] is not views.rendered(second, "en")[1]  # buttons carry the budget
    assert views.rendered(first, "zh-Hans")[0] is not views.rendered(first, "en")[0]
    cheaper = advise(parse("which GPU for Kaggle under $350?").query)
    assert views.rendered(cheaper, "en")[0] is not views.rendered(first, "en")[0]


def test_a_recommendation_embed_reads_the_question_only_for_whether_it_had_a_budget():
    """What lets views share it: an embed rendered for the same answer under any other question
    with a budget is the same embed (if this fails, the sharing key in views must grow)."""
    from engine.money import Money

    answer = advise(parse("which GPU for Kaggle under $9,000?").query)
    others = [
        Query(
            kind="recommend",
            task="llm_inference",
            budget=Money(amount=1, currency="EUR"),
            condition="used",
            num_gpus=2,
            min_memory_gb=48,
            hours_per_day=1,
            gpus=("rtx-4090",),
            model="llama 3 70b",
        ),
        Query(kind="recommend", budget=Money(amount=123456, currency="TWD"), organization=True),
    ]
    for lang in ("en", "zh-Hant"):
        expected = answer_embed(answer, lang).to_dict()
        for query in others:
            assert answer_embed(answer.model_copy(update={"query": query}), lang).to_dict() == expected


@pytest.mark.parametrize(
    "question",
    [
        "which GPU under $20?",
        "recommend a gpu",
        "best gpu for kaggle, used, 2 cards",
        "8x H100 server for pretraining, what to buy?",
        "预算 3000 块 跑大模型",
    ],
)
def test_every_kind_of_recommendation_renders_through_the_shared_embeds(question):
    from bot import views

    answer = advise(parse(question).query)
    embed, _ = views.rendered(answer, "en")
    assert answer.kind == "recommend" and embed.to_dict() == answer_embed(answer, "en").to_dict()


def test_a_recommendation_with_community_prices_renders_and_shares_nothing_with_the_plain_one():
    from decimal import Decimal

    from bot import views
    from engine.advisor import AdviceContext
    from engine.cost import price_quote

    query = parse("which GPU for Kaggle under $1,500?").query
    cheap = price_quote("rtx-3090").model_copy(
        update={"usd": Decimal(300), "basis": "override", "source": "community median of 3 reports"}
    )
    local = advise(query, AdviceContext(price_overrides={"rtx-3090": cheap}))
    plain = advise(query)
    assert views.rendered(local, "en")[0] is not views.rendered(plain, "en")[0]
    assert "$300" in views.rendered(local, "en")[0].to_dict()["fields"][0]["value"]


ENGLISH_SENTENCE = re.compile(r"[A-Za-z]+,? [A-Za-z]+,? [A-Za-z]+,? [A-Za-z]+ [A-Za-z]+")


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
@pytest.mark.parametrize(
    "question",
    [
        "4x 3090 PSU?",
        "best gpu for stable diffusion under $300",
        "which gpu under $100",
        "8x 3090 for a lab",
        "rent or buy a 3090 at 8 hours a day",
        "每天用 1 小时，4090 租还是买",
        "compare 4090 vs 2x 3090",
        "rtx 3060 12gb vs rtx 3080 for kaggle",
        "gpu for a startup training llms",
        "explain tensor cores",
    ],
)
def test_chinese_answers_have_no_english_sentences(question, lang):
    """Everything a Chinese reader reads in prose is Chinese: the headline, caveats, reasons and
    tips. Tables, GPU names, figures and the sources quoted after "來源/来源" may stay as they are."""
    embed = answer_embed(respond(understand(question, None, "USD"), AdviceContext()), lang).to_dict()
    prose = [embed["description"], *(f["value"] for f in embed.get("fields", []) if "```" not in f["value"])]
    lines = [line.split("来源")[0].split("來源")[0] for text in prose for line in text.split("\n")]
    assert not [line for line in lines if ENGLISH_SENTENCE.search(line)]
