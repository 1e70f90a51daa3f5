"""Properties of engine.parse over arbitrary text: it never raises, and what it returns is valid."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.locales import LANGS
from bot.words import render
from engine.parse import parse
from engine.query import ParseResult, Query

# Pieces that make the parser's passes fire, so random text reaches its number and name code.
FRAGMENTS = st.sampled_from(
    [
        "$",
        "€",
        "¥",
        "NT$",
        "-",
        "−",
        "k",
        "万",
        "萬",
        "兩",
        "一",
        "十",
        "块",
        "元",
        "台幣",
        "budget",
        "预算",
        "rtx",
        "3090",
        "4090s",
        "2x",
        "x2",
        "a100",
        "80gb",
        "12G",
        "laptop",
        "ti",
        "super",
        "gb",
        "W",
        "hours a day",
        "每天",
        "小時",
        "%",
        "of the time",
        "used",
        "二手",
        "new only",
        "vs",
        "or",
        "和",
        "llama 3 8b",
        "8x7b",
        "70B",
        "qwen2.5",
        "cloud",
        "psu",
        "tensor cores",
        "卡",
        "張",
        "<@1>",
        "**",
        "\u200b",
        "\u202e",
        "１２００",
        "10^",
        "9" * 30,
        " ",
        ",",
        ".",
        "/h",
        "?",
        "？",
        "小时",
        "/天",
        "个",
        "一" * 25,
        "万" * 25,
        "九千九百",
        "each",
        "apiece",
        "每張",
        "supr",
        "laptp",
        "xtxx",
        "H100s",
        "200",
        "128",
        "*",
        "块",
        "张",
        "장",
        "enough",
        "能跑",
        "full fine-tune",
        "qlora",
        "(405B)",
        "Baichuan2-13B",
        "notebook",
        "Max-Q",
        "A770",
        "32G*2",
        "or 80GB",
        "M2 Max",
        "RAM",
        "5000",
        "v100",
        "rtx8000",
        "4090D",
        "24/7",
    ]
)
TEXT = st.one_of(
    st.text(max_size=300),
    st.lists(st.one_of(FRAGMENTS, st.integers(-(10**30), 10**30).map(str), st.text(max_size=5)), max_size=40).map(
        " ".join
    ),
    st.lists(st.one_of(FRAGMENTS, st.integers(0, 10**6).map(str)), max_size=40).map("".join),
)


def _check(result: ParseResult) -> None:
    assert isinstance(result, ParseResult)
    query = result.query
    Query.model_validate(query.model_dump())
    if query.budget is not None:
        assert query.budget.amount > 0
    assert query.num_gpus is None or query.num_gpus >= 1
    assert all(c >= 1 for c in query.gpu_counts)
    assert len(query.gpu_counts) == len(query.gpus)
    assert len(set(query.gpus)) == len(query.gpus)
    assert query.hours_per_day is None or 0 <= query.hours_per_day <= 24
    assert all(render(note, lang) for note in result.notes for lang in LANGS)
    assert len(query.gpus) <= 4
    # An unsure kind is asked about with its likeliest kinds, the one answered first among them.
    assert ("kind" in result.missing) == bool(result.kind_choices)
    if result.kind_choices:
        assert len(result.kind_choices) >= 2 and query.kind == result.kind_choices[0]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TEXT, st.sampled_from(["USD", "EUR", "TWD", "CNY", "JPY"]))
def test_parse_never_raises_and_returns_a_valid_query(text: str, currency: str) -> None:
    _check(parse(text, default_currency=currency))


@settings(max_examples=100, deadline=None)
@given(st.integers(-(10**40), 10**40), st.sampled_from(["$", "€", "budget ", "预算 ", "¥", "NT$"]))
def test_budgets_are_never_negative_or_absurd(number: int, prefix: str) -> None:
    query = parse(f"{prefix}{number} for a gpu").query
    assert query.budget is None or 0 < query.budget.amount <= 10**10


@settings(max_examples=100, deadline=None)
@given(st.integers(-(10**6), 10**6), st.sampled_from(["x 3090", "x RTX 4090", " GPUs", " 張 4090", " 卡"]))
def test_counts_are_never_below_one(number: int, suffix: str) -> None:
    query = parse(f"{number}{suffix}").query
    assert query.num_gpus is None or 1 <= query.num_gpus <= 4096
