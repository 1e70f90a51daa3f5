"""The Query is the whole question: its bounds (one table), its errors (UserError, never a pydantic
dump), and every field reaching ``advise`` — the only door to an answer."""

from __future__ import annotations

import dataclasses
import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
import yaml
from pydantic import BaseModel, ValidationError

from bot.words import english, render
from engine import AdviceContext, advise
from engine.advisor import cycles_answer, spec_card
from engine.catalog import load_catalog
from engine.cloud import break_even
from engine.cost import price_quote
from engine.datafiles import data_dir
from engine.errors import UserError
from engine.explain import explain
from engine.memory import MODES as MEMORY_MODES
from engine.message import Msg
from engine.money import Money
from engine.query import BOUNDS, MODES, TOPICS, Query, user_error

LANGS = ("en", "zh-Hant", "zh-Hans")


def usd(amount: float | int | str) -> Money:
    return Money(amount=Decimal(str(amount)), currency="USD")


# ---- bounds: one table, inside and outside each edge -----------------------------------------

# field → (values accepted, values refused); every entry of BOUNDS has a row, so a new bound gets a test.
EDGES: dict[str, tuple[list[Any], list[Any]]] = {
    "budget": ([usd("0.01"), usd(10**10), Money(amount=10**10, currency="KRW")], [usd(0), usd(-5), usd(10**10 + 1)]),
    "min_memory_gb": ([0.5, 4096], [0, -1, 4096.5]),
    "vram_need_gb": ([0.5, 4096], [0, -1, 4096.5]),
    "cloud_usd_per_month": ([Decimal("0.01"), 10_000_000], [0, -1, Decimal("10000000.01")]),
    "deadline_hours": ([0.5, 87_600], [0, -1, 87_600.5]),
    "hours_per_day": ([0, 3.5, 24], [-0.1, 24.1]),
    "num_gpus": ([1, 4096], [0, 4097]),
    "gpu_counts": ([(1,), (4096, 2)], [(0,), (4097,)]),
    "gpus": (
        [(), ("rtx-3090", "rtx-4090", "a100-80gb-sxm", "h100")],
        [("rtx-3090", "rtx-4090", "rtx-3080-10gb", "rtx-3070", "rtx-3060-12gb")],
    ),
    "model": (["x" * 100, "Llama 3 8B"], ["x" * 101]),
    "topic": (["tensor_cores"], ["x" * 41]),
    "precision": (["bf16"], ["x" * 21]),
    "power_limit_w": ([1, 2000], [0, 2001]),
    "psu_w": ([100, 5000], [99, 5001]),
    "context_tokens": ([128, 10_000_000], [127, 10_000_001]),
    "desktop_usd": ([1, Decimal("2200.50"), 10_000_000], [0.5, 10_000_001]),
    "cloud_usd_per_hour": ([0.01, Decimal("2.14"), 10_000], [0.009, Decimal("10000.01")]),
    "electricity_usd_per_kwh": ([0, Decimal("0.3"), 100], [-0.01, 100.01]),
}


def test_every_bound_has_its_edges_tested():
    assert set(EDGES) == set(BOUNDS)


@pytest.mark.parametrize(("field", "value"), [(f, v) for f, (ok, _) in EDGES.items() for v in ok])
def test_values_inside_a_bound_are_accepted(field, value):
    assert getattr(Query(**{field: value}), field) is not None or value == ()


@pytest.mark.parametrize(("field", "value"), [(f, v) for f, (_, bad) in EDGES.items() for v in bad])
def test_values_outside_a_bound_raise_a_user_error_naming_the_bound(field, value):
    with pytest.raises(UserError) as caught:
        Query(**{field: value})
    error = caught.value
    bound = BOUNDS[field]
    assert error.key == f"error.bound.{field}"
    assert error.values == {"min": bound.low, "max": bound.high}
    for lang in LANGS:
        text = render(error.message, lang)
        assert text and "{" not in text and "error." not in text


def test_bound_messages_say_the_limits_in_words():
    with pytest.raises(UserError) as caught:
        Query(budget=usd(0))
    assert english(caught.value.message) == "A budget must be more than 0 and at most 10,000,000,000."
    with pytest.raises(UserError) as caught:
        Query(context_tokens=64)
    assert english(caught.value.message) == "A context length must be between 128 and 10,000,000 tokens."
    assert "每 GPU 小時 $0.01" in render(user_error_of(cloud_usd_per_hour=0).message, "zh-Hant")


def user_error_of(**fields: Any) -> UserError:
    with pytest.raises(UserError) as caught:
        Query(**fields)
    return caught.value


def test_text_fields_are_stripped_and_blank_is_not_stated():
    assert Query(model="  Llama 3 8B  ").model == "llama-3-8b"  # a known model is read as its id
    assert Query(model="  Falcon-180B  ").model == "Falcon-180B"  # unknown to the catalog: kept as typed
    assert Query(model="   ").model is None
    assert Query(model=" " * 150 + "x").model == "x"


def test_names_are_read_as_catalog_ids():
    assert Query(gpus=("3090", "RTX 4090")).gpus == ("rtx-3090", "rtx-4090")
    assert Query(precision="Q4_K_M").precision == "q4_k_m" and Query(precision="bfloat16").precision == "bf16"


# ---- one error type, with a message key per field ----------------------------------------------


def test_an_unknown_gpu_is_a_user_error_with_the_typed_name():
    error = user_error_of(gpus=("rtx-3090", "zzqx"))
    assert error.key == "error.unknown_gpu" and error.values["name"] == "zzqx"
    assert english(error.message) == "I don't know the GPU “zzqx”."
    close = user_error_of(gpus=("rtx 4090 tii",))
    assert close.values["hint"] is not None and "RTX 4090" in english(close.message)


def test_unknown_precision_topic_and_choices_list_what_is_accepted():
    precision = user_error_of(precision="q9_x")
    assert precision.key == "error.unknown_precision" and "q4_k_m" in english(precision.message)
    topic = user_error_of(topic="quantum")
    assert topic.key == "error.unknown_topic" and "tensor_cores" in english(topic.message)
    mode = user_error_of(mode="training")
    assert mode.key == "error.choice" and "qlora" in english(mode.message) and "、" in render(mode.message, "zh-Hans")
    assert user_error_of(kind="chat").values["field"] == "kind"
    assert user_error_of(edition="2020", tma=True).key == "error.cycles.tma_2020"


def test_anything_else_wrong_is_still_a_user_error_never_a_pydantic_dump():
    assert user_error_of(num_gpus="many").key == "error.bound.num_gpus"  # not a number: say which are accepted
    for fields in ({"nonsense": 1}, {"budget": {"amount": 5, "currency": "dollars"}}, {"organization": "maybe"}):
        error = user_error_of(**fields)
        assert isinstance(error, ValueError) and error.key == "error.invalid"
        for lang in LANGS:
            text = render(error.message, lang)
            assert "pydantic" not in text and "validation error" not in text.lower()


def test_a_validation_error_from_elsewhere_converts_the_same_way():
    """Query.model_validate (a decoder, a stored query) bypasses __init__; user_error turns what it
    raises into the same UserError as the constructor would."""
    with pytest.raises(ValidationError) as caught:
        Query.model_validate({"kind": "power", "num_gpus": 0})
    assert user_error(caught.value).key == "error.bound.num_gpus"
    with pytest.raises(ValidationError) as caught:
        Query.model_validate({"gpus": ["zzqx"]})
    converted = user_error(caught.value)
    assert converted.key == "error.unknown_gpu" and converted.values["name"] == "zzqx"


def test_user_error_carries_a_message():
    error = UserError("error.power.count", max=16)
    assert error.message == Msg(key="error.power.count", args={"max": 16})
    assert str(error) == "error.power.count {'max': 16}" and isinstance(error, ValueError)


# ---- the Query stays a value ----------------------------------------------------------------


def test_queries_are_frozen_hashable_and_merge_with_the_new_fields():
    query = Query(kind="can_run", model="Llama 3 8B", mode="lora", precision="bf16", context_tokens=4096)
    assert hash(query) == hash(
        Query(kind="can_run", model="Llama 3 8B", mode="lora", precision="BF16", context_tokens=4096)
    )
    with pytest.raises(ValidationError):
        query.mode = "qlora"  # type: ignore[misc]
    merged = query.merged(Query(precision="nf4", mode="qlora"))
    assert (merged.model, merged.mode, merged.precision, merged.context_tokens) == ("llama-3-8b", "qlora", "nf4", 4096)


def test_the_can_run_modes_are_the_memory_models_modes():
    assert MODES == MEMORY_MODES


# ---- every field reaches advise ---------------------------------------------------------------


def canrun(**fields: Any):
    return advise(Query(kind="can_run", model="Llama 3 8B", gpus=("rtx-3090",), **fields)).can_run


def test_can_run_mode_precision_and_context_change_the_answer():
    plain = canrun()
    assert plain.mode == "inference"
    quantised = canrun(precision="q4_k_m")
    assert quantised.verdicts[0].precision == "q4_k_m"
    assert quantised.verdicts[0].need_gib < plain.verdicts[0].need_gib
    assert canrun(mode="qlora").mode == "qlora"
    long = canrun(precision="bf16", context_tokens=65_536)
    assert long.context == 65_536 and long.verdicts[0].need_gib > canrun(precision="bf16").verdicts[0].need_gib


def test_break_even_with_the_users_figures_is_the_cloud_models_break_even():
    answer = advise(Query(kind="cloud_vs_buy", desktop_usd=2200, cloud_usd_per_hour=Decimal("2.14"), hours_per_day=3.6))
    assert answer.break_even.days == break_even(2200, Decimal("2.14"), hours_per_day=3.6).days
    assert english(answer.headline) == (
        "A $2,200 desktop beats renting at $2.14/GPU-hour after 293 days (9.6 months), at 3.6 h a day."
    )
    wrapped = advise(Query(kind="cloud_vs_buy", desktop_usd=2200, cloud_usd_per_hour=2.14, hours_per_day=3.6))
    assert wrapped.break_even.days == answer.break_even.days


def test_catalog_priced_and_user_given_break_even_take_one_path():
    priced = advise(Query(kind="cloud_vs_buy", gpus=("rtx-3090",), hours_per_day=3))
    inputs = priced.break_even.inputs
    given = advise(
        Query(
            kind="cloud_vs_buy",
            gpus=("rtx-3090",),
            hours_per_day=3,
            desktop_usd=inputs.desktop_cost_usd,
            cloud_usd_per_hour=inputs.cloud_usd_per_hour,
        )
    )
    assert given.break_even == priced.break_even
    assert priced.price_date is not None and given.price_date is None


def test_a_missing_catalog_price_never_blocks_a_break_even():
    unpriced = next(
        g.id
        for g in load_catalog().gpus.values()
        if g.gpu_class != "datacenter" and g.has_tensor_cores and price_quote(g.id) is None
    )
    own = advise(Query(kind="cloud_vs_buy", gpus=(unpriced,), desktop_usd=1800, hours_per_day=4))
    assert own.break_even is not None and own.break_even.inputs.desktop_cost_usd == 1800
    assert own.break_even.inputs.gpu_power_w == load_catalog().get(unpriced).tdp_w
    neither = advise(Query(kind="cloud_vs_buy", gpus=(unpriced,), hours_per_day=4))
    assert neither.break_even is None and neither.headline.key == "advice.cloud.no_price.instance"
    assert "/GPU-hour" in english(neither.headline) and any(r.id == "cloud.breakeven" for r in neither.rules)
    assert neither.suggestions[0].key == "advice.suggest.desktop_cost"


def test_the_questions_electricity_price_wins_over_the_servers():
    base = Query(kind="cloud_vs_buy", desktop_usd=2000, cloud_usd_per_hour=1, hours_per_day=8)
    server = advise(base, AdviceContext(electricity_usd_per_kwh=Decimal("0.12"))).break_even
    own = advise(base.model_copy(update={"electricity_usd_per_kwh": Decimal("0.40")})).break_even
    assert own.inputs.electricity_usd_per_kwh == Decimal("0.40") and own.days > server.days


def test_no_hours_at_all_is_a_user_error_for_a_break_even():
    with pytest.raises(UserError) as caught:
        advise(Query(kind="cloud_vs_buy", gpus=("rtx-3090",), hours_per_day=0))
    assert caught.value.key == "error.cloud.no_hours"


def test_power_says_what_it_supports():
    with pytest.raises(UserError) as caught:
        advise(Query(kind="power", gpus=("rtx-3090",), num_gpus=200))
    assert caught.value.key == "error.power.count" and caught.value.values == {"max": 16}
    with pytest.raises(UserError) as caught:
        advise(Query(kind="power", gpus=("rtx-3090",), power_limit_w=500))
    assert caught.value.values == {"gpu": "RTX 3090", "tdp": 350}


def test_a_spec_card_is_a_query():
    card = advise(Query(kind="info", gpus=("3090",)))
    assert card.kind == "info" and card.spec.id == "rtx-3090"
    assert english(card.headline).startswith("RTX 3090: CUDA compute capability 8.6")
    assert spec_card("rtx-3090") is card
    ask = advise(Query(kind="info"))
    assert ask.spec is None and ask.follow_up.field == "gpu"


@pytest.mark.parametrize(
    ("fields", "total"),
    [
        ({}, 235),
        ({"tensor_cores": False}, 504),
        ({"tma": True}, 200),
        ({"edition": "2020", "tensor_cores": True}, 221),
        ({"edition": "2020", "tensor_cores": False}, 392),
    ],
)
def test_the_cycle_example_is_a_query(fields, total):
    answer = advise(Query(kind="cycles", **fields))
    assert answer.kind == "cycles" and answer.cycles.total == total and english(answer.headline) == f"{total} cycles"


def test_the_old_names_are_thin_wrappers_over_advise():
    query = Query(kind="cycles", edition="2023", tensor_cores=True, tma=True)
    assert cycles_answer("2023", True, True) is advise(query)


@pytest.mark.parametrize("topic", [t for t in TOPICS if t not in ("next_generation", "multi_gpu", "memory_bandwidth")])
def test_explanation_headlines_are_the_guides_titles_in_every_language(topic):
    answer = advise(Query(kind="explain", topic=topic))
    item = explain(topic)
    for lang in LANGS:
        assert render(answer.headline, lang) == item.wording(lang).title


def test_several_gpus_that_run_out_of_memory_lead_with_memory_per_card():
    # "only the first card runs out of memory when I raise the batch", "can two 3090s pool to 48 GB?": memory does
    # not add up (and DataParallel gathers on the first card), then the guide's scaling
    for query in (
        Query(kind="explain", topic="multi_gpu", task="computer_vision", ran_out=True),
        Query(kind="explain", topic="multi_gpu", gpus=("rtx-3090",), gpu_counts=(2,), min_memory_gb=48),
    ):
        keys = advise(query).headline.all_keys()
        assert keys[1:3] == ("advice.scaling.memory", "advice.scaling")
        assert "DataParallel gathers every card's outputs on the first one" in english(advise(query).headline)
    assert (
        "advice.scaling.memory" not in advise(Query(kind="explain", topic="multi_gpu", num_gpus=4)).headline.all_keys()
    )


def test_why_one_card_runs_slower_than_another_is_the_expected_ratio_and_what_else_sets_the_pace():
    # "Why is the same code on Kaggle's P100 much faster than on my local 3090?": the guide's model has the 3090 ahead
    # (7.12× for 16-bit training), side by side, no pick (nobody is buying), then what holds a card back
    answer = advise(Query(kind="other", gpus=("tesla-p100", "rtx-3090"), gpu_counts=(1, 1), workload="train16"))
    said = english(answer.headline)
    assert answer.kind == "compare" and answer.comparison is not None and answer.comparison.pick is None
    assert said.startswith("In the guide's model RTX 3090 is 7.12× Tesla P100 PCIe 16GB for 16-bit training.")
    assert "mixed precision" in said and answer.comparison.verdict is None
    decode = advise(Query(kind="other", gpus=("rtx-4090", "v100-32gb"), gpu_counts=(1, 1), workload="decode"))
    assert decode.headline.key == "advice.other.slower_than_expected.decode" and "-ngl" in english(decode.headline)


def test_a_power_answer_for_a_spiky_card_says_what_switching_off_under_load_usually_is():
    # "my used 3090: the PC switches off when I chat with the model": the PSU it needs, and the spikes note; a PSU said
    # and fine keeps its own note, a small card none
    answer = advise(Query(kind="power", gpus=("rtx-3090",)))
    assert [n.key for n in answer.notes] == ["advice.power.spikes.sizing"]
    assert "millisecond power spikes" in english(answer.notes[0])
    assert advise(Query(kind="power", gpus=("rtx-3060-12gb",))).notes == ()
    fine = advise(Query(kind="power", gpus=("rtx-3090",), psu_w=1000))
    assert [n.key for n in fine.notes] == ["advice.power.spikes"]


def test_a_recommendation_for_a_model_the_catalog_cannot_size_says_so_first():
    # "搭建一台服务器跑MOSS，配置建议？": the ranking is for the work in general, and that leads
    answer = advise(Query(kind="recommend", model="MOSS", task="llm_inference"))
    assert answer.headline.all_keys()[:3] == ("sentences", "advice.recommend.unknown_model", "canrun.unknown_model")
    assert english(answer.headline).startswith('I don\'t know the model "MOSS". The ranking is for the work in general')
    # a known model decides the cards itself (no such sentence)
    known = advise(Query(kind="recommend", model="llama-3-8b", task="llm_inference"))
    assert "advice.recommend.unknown_model" not in known.headline.all_keys()


def test_more_cards_than_a_priced_base_system_holds_ranks_one_card_at_a_time_said_so():
    # "作者的8卡…我打算在ImageNet上训练，选用什么显卡合适": no dated base system holds 8 GPUs — the cards one at a time,
    # with a note, not "I can't price an 8-GPU system" alone
    answer = advise(Query(kind="recommend", num_gpus=8, task="computer_vision"))
    assert answer.options and answer.notes[0].key == "advice.recommend.no_base_system.per_card"
    assert "holds 8 GPUs, so the cards are ranked one at a time" in english(answer.notes[0])


def test_buying_the_data_centre_cards_named_is_weighed_against_renting_as_many():
    # "buy an 8x A100 80GB server or rent a p4d, 10 h a day?": eight A100s bought (the 80GB PCIe's price for the
    # SXM card, the cards alone: builds.yaml's bases hold four) against eight rented — not one 4090 desktop
    answer = advise(Query(kind="cloud_vs_buy", gpus=("a100-80gb-sxm",), gpu_counts=(8,), hours_per_day=10))
    said = english(answer.headline)
    assert said.startswith("Buying 8× A100 80GB PCIe for $100,800 (the cards alone, without the server; $12,600 a card")
    assert "RTX 4090" not in said and answer.break_even is not None
    assert answer.break_even.inputs.desktop_cost_usd == 8 * 12600
    four = advise(Query(kind="cloud_vs_buy", gpus=("a100-80gb-sxm",), gpu_counts=(4,), hours_per_day=12))
    assert "advice.cloud.headline.setup" in four.headline.all_keys()  # with a 4-GPU base system
    # no hours said: what renting costs leads, weighed against the guide's desktop as before
    offers = advise(Query(kind="cloud_vs_buy", gpus=("a100-80gb-sxm",), gpu_counts=(8,)))
    assert "advice.cloud.headline.setup" not in offers.headline.all_keys()


# "推理和微调LlaMA2-70B…4个80G A100可以进行推理和微调嘛": the run asked, and fine-tuning beside it
RUN_AND_TUNE = Query(
    kind="can_run", model="llama-2-70b", gpus=("a100-80gb-sxm",), gpu_counts=(4,), task="llm_finetune", mode="inference"
)


def test_running_and_fine_tuning_asked_together_get_both_verdicts():
    # BF16 inference at 33.5 GB a card, then LoRA at 39.7 GB
    query = RUN_AND_TUNE
    said = english(advise(query).headline)
    assert said.index("33.5 GB per GPU of 80 GB") < said.index("To fine-tune it: Yes, at LoRA (BF16 base)")
    assert "advice.canrun.also_tuned" not in advise(query.model_copy(update={"mode": None})).headline.all_keys()


def test_pooling_asked_with_a_model_says_it_splits_over_the_cards_and_whether_it_fits():
    # "两块4090的显存能否合并使用？加载Vicuna-13B…": memory does not pool, but the LLM splits by layers — 13B at BF16
    # is 14.6 GB on each of the two cards — then the guide's scaling for the pair
    query = Query(
        kind="explain", topic="multi_gpu", gpus=("rtx-4090",), gpu_counts=(2,), num_gpus=2, model="vicuna-13b"
    )
    headline = advise(query).headline
    assert headline.all_keys()[1] == "advice.scaling.split_model"
    assert "Memory does not pool into one bigger card" in english(headline)
    assert "14.6 GB per GPU of 24 GB" in english(headline)
    # an image model is never split (engine.canrun): no such sentence for it
    sdxl = query.model_copy(update={"model": "sdxl"})
    assert "advice.scaling.split_model" not in advise(sdxl).headline.all_keys()


def test_several_gpus_lead_with_the_guides_scaling_for_the_setup_asked_about():
    """ "4 cards train slower than one — why?": the guide's model for N cards against one leads (the 1→8 A100 = 7×
    scaling: 4× = 4 × (7/8)^(2/3) = 3.66×), the side-by-side table beside it; one user's LLM decode over a layer
    split is no faster than one card; the guide's title stays as the rule."""
    four = advise(Query(kind="explain", topic="multi_gpu", gpus=("a100-80gb-sxm",), num_gpus=4))
    assert four.headline.key == "advice.scaling" and four.rules[0].text.key == "advice.explain.multi_gpu"
    assert four.headline["ratio"] == pytest.approx(4 * (7 / 8) ** (2 / 3)) == pytest.approx(3.66, abs=0.005)
    assert four.comparison.counts == (1, 4) and four.comparison.workload == "train16"
    assert four.comparison.verdict is None  # an explanation, not a pick between the user's setups
    assert english(four.headline).startswith("In the guide's model 4× A100 80GB SXM4 run 16-bit training at 3.66×")
    chat = advise(Query(kind="explain", topic="multi_gpu", task="llm_inference", gpus=("rtx-3090",), gpu_counts=(2,)))
    assert chat.headline.key == "advice.scaling.decode" and chat.comparison.workload == "decode"
    decode = next(r for r in chat.comparison.rows if r.workload == "decode")
    assert decode.speeds == pytest.approx((1.0, 1.0))
    assert advise(Query(kind="explain", topic="multi_gpu", num_gpus=64)).comparison.counts == (1, 8)


def test_a_rig_of_two_kinds_of_card_trains_at_the_pace_of_the_slowest():
    """ "Can I use a 3060 and a 3090 together for training?": data-parallel training steps both cards together, so
    the rig trains like 2× RTX 3060 12GB — 0.74× one RTX 3090 in the guide's model, slower than the 3090 alone — with
    12 GB per card the limit (the guide: mixed GPU types work, the slowest sets the pace)."""
    mixed = advise(Query(kind="explain", topic="multi_gpu", gpus=("rtx-3060-12gb", "rtx-3090"), gpu_counts=(1, 1)))
    assert mixed.headline.key == "advice.scaling.mixed_slower" and mixed.headline["gb"] == 12
    assert mixed.comparison.gpu_ids == ("rtx-3090", "rtx-3060-12gb") and mixed.comparison.counts == (1, 2)
    train = next(r for r in mixed.comparison.rows if r.workload == "train16")
    two_3060 = advise(
        Query(kind="compare", gpus=("rtx-3090", "rtx-3060-12gb"), gpu_counts=(1, 2), mode="full_finetune")
    )
    assert (
        mixed.headline["ratio"]
        == train.speeds[1]
        == next(r for r in two_3060.comparison.rows if r.workload == "train16").speeds[1]
    )
    assert round(mixed.headline["ratio"], 2) == 0.74
    assert english(mixed.headline).startswith(
        "RTX 3060 12GB and RTX 3090 work together for training, but data-parallel training moves every card in step"
    )
    assert "slower than the RTX 3090 alone" in english(mixed.headline)
    # a 4090 with a 3090: the rig trains like 2× RTX 3090, faster than the 4090 alone
    faster = advise(Query(kind="explain", topic="multi_gpu", gpus=("rtx-4090", "rtx-3090"), gpu_counts=(1, 1)))
    assert faster.headline.key == "advice.scaling.mixed_faster" and faster.headline["ratio"] > 1
    # several cards named with counts, or three kinds: as often alternatives as a rig ("two 4080s or a 4090?")
    assert (
        advise(Query(kind="explain", topic="multi_gpu", gpus=("rtx-4080", "rtx-4090"), gpu_counts=(2, 1))).headline.key
        == "advice.scaling"
    )
    # one user's chat over two kinds of card is a layer split, not lockstep training: memory adds, speed does not
    chat = advise(Query(kind="explain", topic="multi_gpu", task="llm_inference", gpus=("rtx-4090", "rtx-3090")))
    assert chat.headline.key == "advice.scaling.mixed_decode" and chat.headline["ratio"] < 1


def test_training_resnet50_on_named_cards_says_the_imagenet_epoch_time():
    """ "How long to train ResNet-50 on a 4090?": Lambda measured that network on the card, 1,301 images/s, so one
    ImageNet epoch (1,281,167 images) is 1,281,167 / 1,301 / 60 = 16.4 min and 90 epochs 24.6 h; two 3090s at
    801-905 images/s each with the guide's 2-card scaling; a card it did not measure gets the 3090's rate scaled."""

    def said(answer, key):
        (found,) = [m for m in answer.headline.nested() if m.key == key]
        return found

    four = advise(Query(kind="can_run", model="resnet-50", mode="full_finetune", gpus=("rtx-4090",)))
    one = said(four, "advice.canrun.imagenet_time.one")
    assert round(one["low"], 1) == round(1_281_167 / 1301 / 60, 1) == 16.4
    assert round(one["total_low"], 1) == 24.6 and one["epochs"] == 90
    assert "one ImageNet epoch of ResNet-50 takes about 16 min and the usual 90 epochs 25 h" in english(four.headline)
    two = advise(Query(kind="can_run", model="resnet-50", mode="full_finetune", gpus=("rtx-3090",), gpu_counts=(2,)))
    pair = said(two, "advice.canrun.imagenet_time")
    assert 11 < pair["low"] < pair["high"] < 14.5  # 2 × 801-905 images/s × the guide's 2-card scaling
    # another model's training keeps the general advice on timing one epoch
    other = advise(Query(kind="can_run", model="yolov8", mode="full_finetune", gpus=("rtx-4090",)))
    assert "advice.canrun.train_time" in other.headline.all_keys()


def test_should_i_wait_leads_with_a_verdict_and_keeps_the_guides_title_in_the_rule():
    """'Wait for the next generation?' is answered (engine/waiting.py); the guide's title stays as the rule."""
    answer = advise(Query(kind="explain", topic="next_generation"))
    assert answer.headline.key.startswith("advice.wait.headline.")
    assert answer.rules[0].text.key == "advice.explain.next_generation"


# ---- every message this part of the engine says renders in every language -------------------


def _messages(value: Any) -> list[Msg]:
    if isinstance(value, Msg):
        return [value]
    if isinstance(value, BaseModel):
        return [m for name in type(value).model_fields for m in _messages(getattr(value, name))]
    if dataclasses.is_dataclass(value):  # a slotted record (a memory term, a speed factor)
        return [m for field in dataclasses.fields(value) for m in _messages(getattr(value, field.name))]
    if isinstance(value, tuple | list):
        return [m for item in value for m in _messages(item)]
    if isinstance(value, dict):
        return [m for item in value.values() for m in _messages(item)]
    return []


def _rented_with_spot() -> tuple[str, ...]:
    """A card the cloud data offers as spot, if any (its offers say "from $… as spot")."""
    clouds = load_catalog().clouds.values()
    return tuple(sorted({c.gpu for c in clouds if c.spot_usd_per_hour and not c.historical}))[:1]


def _answers() -> list:
    def q(**fields: Any) -> Query:
        return Query(**fields)

    old, cheap_3090 = AdviceContext(snapshot="2023-01"), AdviceContext(snapshot="2020-09")
    override = price_quote("rtx-3090", snapshot="2023-01").model_copy(update={"usd": Decimal(300), "basis": "override"})
    unpriced = next(
        g.id
        for g in load_catalog().gpus.values()
        if g.gpu_class != "datacenter" and g.has_tensor_cores and price_quote(g.id) is None
    )
    asked = [
        (q(kind="recommend"), None),
        (q(kind="info", gpus=("v100-32gb",), precision="bf16"), None),  # a precision its architecture lacks
        (q(kind="compare", task="nlp", gpus=("gtx-1080-ti", "rtx-2080")), None),  # below the floor: speed picks
        (q(kind="recommend", task="kaggle"), None),
        # "the fastest GPU for deep learning?", no budget: the fastest a person buys, the best value beside it
        (q(kind="recommend", objective="fastest"), None),
        (q(kind="recommend", objective="fastest", vendor="amd"), None),
        # a provider named with no offer of the card asked about: every provider's, said so
        (q(kind="cloud_vs_buy", gpus=("rtx-4090",), provider="vast", hours_per_day=4), None),
        (q(kind="recommend", task="kaggle", budget=usd(500), hours_per_day=1, cloud_interest=True), None),
        (q(kind="recommend", task="kaggle", budget=usd(1500)), old),
        (
            q(kind="recommend", task="kaggle", budget=usd(1500), condition="new"),
            AdviceContext(snapshot="2023-01", price_overrides={"rtx-3090": override}),
        ),
        (q(kind="recommend", task="llm_inference", num_gpus=2, condition="used"), None),
        (q(kind="recommend", task="llm_finetune", budget=Money(amount=1500, currency="EUR")), None),
        (q(kind="recommend", task="image_generation", budget=usd(1700)), old),
        (q(kind="recommend", task="llm_pretrain", organization=True), None),
        (q(kind="recommend", organization=True, min_memory_gb=80), None),
        (q(kind="recommend", gpus=("rtx-2060",), task="image_generation", objective="upgrade"), None),  # under floor
        (q(kind="recommend", gpus=("rtx-3090",), task="llm_inference", objective="upgrade"), None),  # meets it
        (q(kind="recommend", gpus=("rtx-5090",), objective="upgrade", budget=usd(3000)), None),  # none in budget
        (q(kind="recommend", gpus=("b200",), objective="upgrade"), None),  # nothing on sale is a step up
        (q(kind="recommend", budget=usd(150), condition="used"), cheap_3090),
        (q(kind="recommend", budget=usd(30)), None),
        (q(kind="recommend", task="llm_finetune", budget=usd(50)), None),
        (q(kind="recommend", min_memory_gb=4096), None),
        (q(kind="can_run", min_memory_gb=16, vram_need_gb=24), None),  # "requires 24 GB: 16 GB?"
        # "I spend $300 a month on RunPod, buy instead?": the spend against a desktop that does the work
        (q(kind="cloud_vs_buy", cloud_usd_per_month=Decimal(300), cloud_interest=True), None),
        (q(kind="cloud_vs_buy", cloud_usd_per_month=Decimal(300), gpus=("rtx-3090",)), None),
        (
            q(
                kind="cloud_vs_buy",
                cloud_usd_per_month=Decimal(300),
                desktop_usd=Decimal(2000),
                cloud_usd_per_hour=Decimal(2),
            ),
            None,
        ),
        (q(kind="compare", gpus=("rtx-4060-ti-8gb", "rtx-4060-ti-16gb")), None),  # level: the memory decides
        (q(kind="power", topic="cooling"), None),  # "显卡温度90度正常吗": the guide's remedies for heat, no card
        # "8× 4090 server, good idea?": more cards than any priced base system holds — the build itself
        (q(kind="recommend", gpus=("rtx-4090",), gpu_counts=(8,), num_gpus=8), None),
        # "a university lab, $20k": the best-value multi-GPU machine outruns the fastest single card
        (q(kind="recommend", task="research", budget=usd(20000), organization=True), None),
        (q(kind="recommend", gpus=(unpriced,), gpu_counts=(8,), num_gpus=8), None),
        # "a 3090 and a 3060 together for LLM chat?": more memory, not more speed
        (q(kind="explain", topic="multi_gpu", task="llm_inference", gpus=("rtx-3090", "rtx-3060-12gb")), None),
        (q(kind="explain", topic="multi_gpu", gpus=("rtx-4090",), gpu_counts=(2,), model="vicuna-13b"), None),
        (q(kind="cloud_vs_buy", gpus=("a100-80gb-sxm",), gpu_counts=(8,), hours_per_day=10), None),
        (q(kind="other", gpus=("tesla-p100", "rtx-3090"), gpu_counts=(1, 1), workload="train16"), None),
        (q(kind="recommend", num_gpus=8, task="computer_vision"), None),
        (q(kind="recommend", model="MOSS", task="llm_inference"), None),
        (q(kind="recommend", num_gpus=8, budget=usd(20000)), None),  # a budget for 8: no base system to price it in
        (q(kind="other", gpus=("rtx-4090", "v100-32gb"), gpu_counts=(1, 1), workload="decode"), None),
        (q(kind="cloud_vs_buy", gpus=("a100-80gb-sxm",), gpu_counts=(4,), hours_per_day=12), None),
        (q(kind="cloud_vs_buy", provider="aws", gpus=("a100-40gb-sxm", "rtx-4090"), hours_per_day=1), None),
        (RUN_AND_TUNE, None),
        (q(kind="recommend", task="llm_pretrain", num_gpus=16), None),
        (q(kind="compare"), None),
        (q(kind="explain", topic="next_generation"), None),
        (q(kind="recommend", task="llm_inference", budget=usd(1150)), None),  # no NVIDIA 24 GB card that cheap
        (q(kind="cloud_vs_buy", model="llama-3-70b", cloud_interest=True), None),  # rent for a named model
        (q(kind="can_run", task="computer_vision", mode="full_finetune"), None),  # how big a card to train a CNN
        (q(kind="power", gpus=("rtx-4090",), psu_w=650), None),  # is my PSU enough?
        (q(kind="power"), None),  # no card named: the guide's rules, and which card
        (q(kind="power", gpus=("rtx-4090",), electricity_usd_per_kwh=0.3), None),  # what does running it cost?
        (q(kind="power", gpus=("rtx-3090", "rtx-4090")), None),  # each card's PSU
        (q(kind="power", gpus=("rtx-4090",), topic="cooling"), None),  # "runs at 85 °C, OK?"
        (q(kind="power", gpus=("gtx-1660-super", "rtx-3090"), psu_w=450), None),  # my PSU for each option
        (q(kind="explain", topic="next_generation", gpus=("rtx-3090",), condition="used"), None),
        (q(kind="explain", topic="next_generation", gpus=("rtx-5090",)), None),
        (q(kind="compare", gpus=("rtx-4090", "rtx-3090"), gpu_counts=(1, 2)), old),
        (q(kind="compare", gpus=(unpriced, "rtx-3090")), None),
        (q(kind="compare", gpus=("rtx-4090", "rtx-3090")), old),
        (q(kind="compare", gpus=("rtx-a5000", "rtx-3090", "rtx-4070-ti"), gpu_counts=(1, 1, 2)), None),
        (q(kind="compare", task="llm_inference", gpus=("rtx-3060-12gb", "rtx-4070-ti-super"), gpu_counts=(2, 1)), None),
        (q(kind="compare", gpus=("rtx-4090", "rtx-3090"), gpu_counts=(1, 2), model="llama 3.3 70b"), None),
        (q(kind="compare", gpus=("rtx-3060-12gb", "rtx-3090", "rtx-4090"), gpu_counts=(1, 2, 2), model="70B"), None),
        (q(kind="compare", gpus=("rtx-3060-12gb", "rtx-4060-ti-16gb"), model="llama 3.3 70b"), None),
        (q(kind="recommend", gpus=("rtx-3090",), condition="used"), None),  # is a used 3090 worth it?
        (q(kind="recommend", gpus=("rtx-4060-ti-16gb",)), None),
        (q(kind="cloud_vs_buy", gpus=("a100-80gb-sxm", "h100-sxm")), None),  # which of two cloud cards
        (q(kind="cloud_vs_buy", gpus=("rtx-a6000",)), None),  # its spot undercuts its cheapest on-demand hour
        (q(kind="recommend", gpus=("tesla-p40",)), None),  # is an unpriced card worth it?
        (q(kind="recommend", gpus=("rtx-pro-6000",)), None),  # … one no priced card has the memory of
        (q(kind="recommend", gpus=("rtx-3090",), budget=usd(700)), None),  # a price quoted: below the market
        (q(kind="recommend", gpus=("rtx-3060-12gb",), budget=usd(900)), None),  # … above it, ranked
        (q(kind="recommend", gpus=("tesla-p40",), budget=usd(200)), None),  # … with no market price on file
        (q(kind="recommend", task="image_generation", vendor="amd"), None),  # the best AMD card per dollar
        (q(kind="recommend", task="image_generation", vendor="amd", budget=usd(600)), None),  # … the fastest
        (q(kind="recommend", task="llm_inference", vendor="amd", objective="cheapest"), None),  # … the cheapest
        (q(kind="recommend", vendor="intel", budget=usd(400), objective="best_value"), None),  # within a budget
        (q(kind="recommend", task="kaggle", budget=usd(2000), objective="best_value"), None),  # NVIDIA's, budget
        (q(kind="compare", gpus=("rtx-4070-ti-super", "rtx-3090"), budget=usd(800)), None),  # one over the budget
        (q(kind="compare", gpus=("rtx-4090", "rtx-3090"), budget=usd(500)), None),  # both over it
        *((q(kind="cloud_vs_buy", gpus=(g,)), None) for g in _rented_with_spot()),  # a card's offers, spot too
        (q(kind="recommend", task="llm_inference", budget=Money(amount=Decimal(5000), currency="CNY")), None),
        (q(kind="recommend", task="llm_inference", budget=Money(amount=Decimal(200), currency="USD")), None),
        (
            q(kind="recommend", task="llm_inference", vendor="amd", budget=Money(amount=Decimal(300), currency="USD")),
            None,
        ),
        (
            q(
                kind="recommend",
                task="llm_inference",
                min_memory_gb=24,
                budget=Money(amount=Decimal(5000), currency="CNY"),
            ),
            None,
        ),
        (
            q(kind="compare", task="llm_finetune", gpus=("rtx-a5000", "rtx-3090", "rtx-4070-ti"), gpu_counts=(1, 1, 2)),
            None,
        ),
        (q(kind="compare", task="llm_finetune", gpus=("rtx-3060-12gb", "rtx-3070")), None),
        (q(kind="recommend", task="kaggle", budget=usd(2000), objective="fastest"), old),
        (q(kind="recommend", task="kaggle", budget=usd(2000), objective="cheapest"), old),
        (q(kind="recommend", task="kaggle", budget=usd(2000), objective="best_value", vendor="amd"), None),
        (q(kind="cloud_vs_buy", gpus=("rtx-3090",), hours_per_day=3), None),
        (q(kind="cloud_vs_buy", gpus=("rtx-3090",), hours_per_day=0.5, cloud_usd_per_hour=Decimal("0.05")), None),
        (q(kind="cloud_vs_buy", desktop_usd=2000), None),  # the card $2,000 buys, against renting as fast a card
        (q(kind="cloud_vs_buy", desktop_usd=500), None),  # less than a base system: no card named, an A100's price
        (q(kind="cloud_vs_buy", task="llm_finetune"), None),  # which cloud GPU to rent
        (q(kind="cloud_vs_buy", gpus=("v100-16gb", "t4")), None),  # a platform's cards without prices on file
        (q(kind="cloud_vs_buy", desktop_usd=2000, cloud_usd_per_hour=2, hours_per_day=8), None),
        (q(kind="cloud_vs_buy", gpus=(unpriced,), hours_per_day=4), None),
        (q(kind="cloud_vs_buy", gpus=(unpriced,), cloud_usd_per_hour=1, hours_per_day=4), None),
        (q(kind="power"), None),
        (q(kind="power", gpus=("rtx-3090",), num_gpus=4, hours_per_day=8), None),
        (q(kind="power", gpus=("rtx-3090",), num_gpus=2, power_limit_w=300), None),
        (q(kind="power", gpus=("rtx-3090",), power_limit_w=350), None),  # its own limit: full speed, said so
        (q(kind="other", workload="decode"), None),  # "an LLM gives 1 token/s, why?": what slows decoding
        (q(kind="recommend", min_memory_gb=48), None),  # no 48 GB card at a current price: older, and split for an LLM
        # an 8-GPU server's offer named by its cards ("8× A100 on AWS"), its break-even past a card's five years
        (q(kind="cloud_vs_buy", provider="aws", gpus=("a100-40gb-sxm",), num_gpus=8, hours_per_day=1), None),
        (q(kind="can_run"), None),
        (q(kind="can_run", model="GET3D", mode="full_finetune", gpus=("rtx-4090",)), None),  # its training speed
        (q(kind="info", model="Qwen2-7B", gpus=("rtx-3090",)), None),  # what it decodes that LLM at
        (q(kind="info", model="llama 3.3 70b", gpus=("rtx-4090",), precision="q4_k_m"), None),  # … offloaded
        (q(kind="can_run", model="SDXL", gpus=("rtx-3060-12gb",)), None),  # how fast it makes images
        (q(kind="can_run", model="llama 3.1 8b", gpus=("apple-m4-16gb", "apple-m4-pro-48gb")), None),  # two Macs
        (q(kind="recommend", task="learning", budget=usd(300)), None),  # an Arc card in the table
        (q(kind="can_run", model="SadTalker"), None),  # a name it cannot size: asked for its size
        (q(kind="info"), None),
        (q(kind="info", gpus=("rtx-4090",)), None),
        (q(kind="info", gpus=("rtx-4090",), task="image_generation"), None),  # its speed for the work named
        (q(kind="cycles"), None),
        (q(kind="other"), None),
        *((q(kind="explain", topic=topic), None) for topic in TOPICS),
        (q(kind="explain", topic="multi_gpu", task="llm_inference", gpus=("rtx-3090",), gpu_counts=(2,)), None),
        (q(kind="explain", topic="multi_gpu", ran_out=True), None),  # memory per card leads
        # an image model on a card: its memory terms have no KV cache (the rule says so)
        (q(kind="can_run", model="sdxl", gpus=("rtx-3060-12gb",)), None),
        # ResNet-50's training time: one measured rate (RTX 4090), two (RTX 3090), estimated (RTX 5090)
        (q(kind="can_run", model="resnet-50", mode="full_finetune", gpus=("rtx-4090", "rtx-3090", "rtx-5090")), None),
        # two kinds of card in one rig: slower than the faster card alone, or faster
        (q(kind="explain", topic="multi_gpu", gpus=("rtx-3060-12gb", "rtx-3090"), gpu_counts=(1, 1)), None),
        (q(kind="explain", topic="multi_gpu", gpus=("rtx-4090", "rtx-3090"), gpu_counts=(1, 1)), None),
        (q(kind="other", gpus=("rtx-4090",), mode="lora", task="image_generation"), None),  # "slow, why?": run time
        (q(kind="other", workload="train16"), None),  # "an epoch takes 10 min, why so slow?", no card: what sets it
        (q(kind="info", gpus=("rtx-3090",), model="llama-2-7b", mode="lora"), None),
        (q(kind="cloud_vs_buy", gpus=("rtx-4090",), gpu_counts=(4,)), None),
        (q(kind="cloud_vs_buy", model="llama-3-8b", mode="lora", cloud_interest=True), None),  # a run's price
        # a stated need only a Radeon meets within the budget: it leads, and why
        (q(kind="recommend", task="llm_inference", min_memory_gb=24, budget=usd(1150)), None),
        (q(kind="power", gpus=("rtx-4090",), psu_w=850), None),
        (q(kind="compare", gpus=("gtx-1080-ti", "rtx-3090")), None),
        (q(kind="compare", gpus=("rtx-4090", "rtx-4090-d"), mode="full_finetune"), None),  # level, both priced
        (q(kind="compare", gpus=("apple-m1-max-64gb", "apple-m2-max-64gb"), model="llama-2-70b"), None),  # level
        (
            q(kind="recommend", model="generic-7b", mode="qlora", budget=Money(amount=Decimal(1500), currency="EUR")),
            None,
        ),
        # a library named with a card (engine/libraries.py): each verdict, what runs instead, the explanation
        (q(kind="info", gpus=("v100-16gb",), model="flash-attn"), None),
        (q(kind="can_run", gpus=("tesla-p40", "rtx-3090"), model="vLLM"), None),
        (q(kind="info", gpus=("gtx-780-ti",), model="Ollama"), None),
        (q(kind="can_run", gpus=("tesla-k80",), model="llama.cpp"), None),  # below its CUDA builds: Vulkan, CPU
        (q(kind="compare", gpus=("rx-7900-xtx", "arc-a770-16gb"), model="flash-attn"), None),
        (q(kind="info", gpus=("rx-7900-xtx",), model="vLLM"), None),
        (q(kind="explain", gpus=("apple-m4-16gb",), model="vLLM"), None),
        *(
            (q(kind="explain", model=name), None)
            for name in ("flash-attn", "vLLM", "Ollama", "llama.cpp", "LMDeploy", "bitsandbytes", "TensorRT-LLM")
        ),
    ]
    return [advise(query, ctx) for query, ctx in asked]


def _errors() -> list[UserError]:
    wrong: list[dict[str, Any]] = [
        *({field: bad[0]} for field, (_, bad) in EDGES.items()),
        {"gpus": ("zzqx",)},
        {"gpus": ("rtx 4090 tii",)},
        {"precision": "q9_x"},
        {"topic": "quantum"},
        {"mode": "training"},
        {"edition": "2020", "tma": True},
        {"mode": "full_finetune", "precision": "fp8"},
        {"nonsense": 1},
    ]
    out = [user_error_of(**fields) for fields in wrong]
    for query in (
        Query(kind="power", gpus=("rtx-3090",), num_gpus=17),
        Query(kind="power", gpus=("rtx-3090",), power_limit_w=400),
        Query(kind="cloud_vs_buy", hours_per_day=0),
    ):
        with pytest.raises(UserError) as caught:
            advise(query)
        out.append(caught.value)
    return out


def _catalog_keys() -> set[str]:
    return set(yaml.safe_load((data_dir() / "locales" / "messages" / "advice.yaml").read_text(encoding="utf-8")))


# Reached only when a price snapshot holds no price at all: with no budget and no memory floor every priced
# card fits, so "no priced GPU fits that budget" needs an empty market. A launch MSRP is never ranked, so no
# Answer's own messages carry its basis: the composer says it beside a compared or rented card's price.
UNREACHABLE = {"advice.recommend.no_fit.any", "price.basis.launch"}


def test_every_advice_message_renders_in_every_language():
    said = [m for answer in _answers() for m in _messages(answer)] + [e.message for e in _errors()]
    ours = _catalog_keys()
    nested = {message: message.all_keys() for message in said}  # each message's key and those inside it
    reached = {key for keys in nested.values() for key in keys}
    assert ours - UNREACHABLE <= reached, sorted(ours - UNREACHABLE - reached)
    for message, keys in nested.items():
        if not set(keys) & ours:
            continue  # another module's words (canrun, memory, power): their tests render them
        for lang in LANGS:
            text = render(message, lang)
            assert text and "{" not in text.replace("{value}", "") and "advice." not in text, (message.key, lang)
            if lang != "en":
                assert not any(key in text for key in keys), (message.key, lang)


def test_dates_in_headlines_render_per_language():
    query = Query(kind="recommend", task="kaggle", budget=usd(1500), objective="best_value")
    answer = advise(query, AdviceContext(snapshot="2023-01"))
    date = answer.headline["date"]
    assert isinstance(date, dt.date) and date == answer.options[0].price.date
    assert f"{date:%b %Y}" in english(answer.headline)
    assert f"{date.year}年{date.month}月" in render(answer.headline, "zh-Hant")


def test_a_slow_run_on_one_card_gets_its_speed_and_what_sets_a_runs_time():
    # "SDXL LoRA is extremely slow on my 4090, why?": the spec card's training speed, then what a run's time
    # depends on (a question asked of speed, kind "other"); a plain spec card leaves that line out
    slow = advise(Query(kind="other", gpus=("rtx-4090",), mode="lora", task="image_generation"))
    assert slow.kind == "info" and "advice.canrun.train_time" in slow.headline.all_keys()
    plain = advise(Query(kind="info", gpus=("rtx-4090",), mode="lora", task="image_generation"))
    assert "advice.canrun.train_time" not in plain.headline.all_keys()


def test_memory_bandwidth_asked_about_puts_memory_first():
    """ "More VRAM or a faster GPU for LLMs?", "显存大还是速度快重要": the guide's order — the memory the work needs,
    then bandwidth for speed — leads the guide's text on bandwidth."""
    answer = advise(Query(kind="explain", topic="memory_bandwidth", task="llm_inference"))
    assert answer.headline.key == "advice.explain.memory_first" and answer.explanation.topic == "memory_bandwidth"
    for lang in LANGS:
        assert render(answer.headline, lang)
