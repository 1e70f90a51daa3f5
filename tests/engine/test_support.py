"""What software runs on a card (engine.support), and the answers that say it: the spec card,
compare, recommend and can-run, in English, 繁體 and 简体."""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal

import pytest

from bot.words import catalog as message_catalog
from bot.words import english, render
from engine.advisor import _card_caveats, advise
from engine.catalog import load_catalog
from engine.datafiles import data_dir, read_yaml
from engine.message import Msg
from engine.money import Money
from engine.parse import parse
from engine.performance import WORKLOADS, estimate
from engine.query import Query
from engine.support import caveats_for, missing_precision, software_caveats, software_notes

LANGS = ("en", "zh-Hant", "zh-Hans")


def _english_run(text: str) -> bool:
    """Three ordinary English words in a row (tests/bot/test_words.py's rule, names aside)."""
    run = 0
    for token in re.split(r"[\s（）()，。；：、——]+", text):
        run = run + 1 if token.isalpha() and token.isascii() and not token.isupper() and len(token) > 1 else 0
        if run >= 3:
            return True
    return False


def _said(answer) -> list[str]:
    return [m.key for m in answer.caveats]


@pytest.mark.parametrize(
    ("gpu", "key", "words"),
    [
        (
            "tesla-k80",
            "support.cuda.dropped",
            ("no current PyTorch CUDA wheels", "CUDA 12 dropped Kepler", "2.0's, for CUDA 11.8"),
        ),
        # the builds named are ones that existed: 0.3.0's CUDA 9.0 wheels for CC 3.0, 1.12's CUDA 10.2 for CC 3.5
        ("gtx-770", "support.cuda.dropped", ("compute capability 3.0", "0.3's, for CUDA 9.0")),
        ("tesla-k40", "support.cuda.dropped", ("compute capability 3.5", "1.12's, for CUDA 10.2")),
        ("gtx-980-ti", "support.cuda.legacy", ("no longer run it", "legacy CUDA 12.6 build", "2.15")),
        ("gtx-1080-ti", "support.cuda.legacy", ("Pascal", "6.1")),
        (
            "rx-6700-xt",
            "support.rocm.community.override",
            ("not on ROCm's official support list", "HSA_OVERRIDE_GFX_VERSION=10.3.0"),
        ),
        ("rx-6800-xt", "support.rocm.community.native", ("gfx1030", "without an override")),
        ("rx-580", "support.rocm.dropped", ("no longer supports", "Vulkan")),
        ("rx-5700-xt", "support.rocm.none", ("never supported",)),
        ("mi50", "support.rocm.dropped.community", ("community builds",)),
        ("rx-7900-xtx", "support.rocm.official", ("on ROCm's support list",)),
        ("apple-m3-max-128gb", "support.apple", ("MPS", "MLX", "no CUDA")),
        ("arc-b580", "support.xpu", ("XPU", "oneAPI")),
        ("jetson-orin-nano-super", "support.jetson.vendor", ("JetPack 6.2",)),
        ("jetson-nano", "support.jetson.dropped", ("JetPack 4.6", "1.10")),
        ("rtx-4090", "support.cuda.current", ("compute capability 8.9",)),
        ("ascend-910b", "support.ascend", ("no CUDA", "torch_npu", "CANN", "vllm-ascend", "MindIE")),
        ("ascend-910b-32gb", "support.ascend", ("Ascend 910B4", "torch_npu")),
        ("ascend-910", "support.ascend.no_vllm", ("torch_npu", "does not list it")),  # vllm-ascend: A2/A3, 310P
        ("jetson-agx-orin-64gb", "support.jetson.vendor", ("JetPack 6.2", "8.7")),
        ("jetson-orin-nx-16gb", "support.jetson.vendor", ("JetPack 6.2",)),
    ],
)
def test_software_notes_say_what_runs(gpu, key, words):
    notes = software_notes(load_catalog().get(gpu))
    assert notes[0].key == key
    text = english(notes[0])
    assert all(w in text for w in words), text


def test_unified_memory_says_the_gpus_share():
    m3 = software_notes(load_catalog().get("apple-m3-max-128gb"))
    assert [m.key for m in m3] == ["support.apple", "support.unified.macos"]
    assert "96 GB of the 128 GB" in english(m3[1]) and "iogpu.wired_limit_mb" in english(m3[1])
    assert "96 GB of the 128 GB" in english(software_notes(load_catalog().get("ryzen-ai-max-395"))[1])
    assert "aarch64" in english(software_notes(load_catalog().get("dgx-spark"))[1])


def test_only_limits_become_caveats():
    catalog = load_catalog()
    assert software_caveats(catalog.get("rtx-4090")) == ()
    assert software_caveats(catalog.get("rx-7900-xtx")) == ()
    for gpu in (
        "tesla-k80",
        "gtx-1080-ti",
        "rx-6700-xt",
        "apple-m2-ultra-192gb",
        "arc-a770-16gb",
        "jetson-agx-orin-64gb",
    ):
        assert software_caveats(catalog.get(gpu)), gpu
    said = caveats_for(("rtx-4090", "apple-m3-max-128gb", "apple-m3-max-128gb"), compared=True)
    assert [m.key for m in said] == [
        "support.apple",
        "support.unified.macos",
        "support.not_a_card",
        "support.no_egpu",  # an NVIDIA card weighed against an Apple silicon Mac: one or the other (issue #21 item 7)
    ]


# ---- the answers ------------------------------------------------------------------------------

ASKED = {
    "kepler": "tesla-k80",
    "maxwell": "gtx-980-ti",
    "unsupported ROCm": "rx-6700-xt",
    "apple": "apple-m3-max-128gb",
    "huawei": "ascend-910b",
}
RUNS = {  # what each answer must tell, in every language: the fact a user acts on
    "tesla-k80": {"en": "CUDA 12", "zh-Hant": "CUDA 12", "zh-Hans": "CUDA 12"},
    "gtx-980-ti": {"en": "CUDA 12.6", "zh-Hant": "CUDA 12.6", "zh-Hans": "CUDA 12.6"},
    "rx-6700-xt": {
        "en": "HSA_OVERRIDE_GFX_VERSION=10.3.0",
        "zh-Hant": "HSA_OVERRIDE_GFX_VERSION=10.3.0",
        "zh-Hans": "HSA_OVERRIDE_GFX_VERSION=10.3.0",
    },
    "apple-m3-max-128gb": {"en": "MPS", "zh-Hant": "MPS", "zh-Hans": "MPS"},
    "ascend-910b": {"en": "torch_npu", "zh-Hant": "torch_npu", "zh-Hans": "torch_npu"},
}
WORDS = {  # and in words of that language
    "en": ("PyTorch",),
    "zh-Hant": ("支援", "執行"),
    "zh-Hans": ("支持", "运行"),
}


def _answers(gpu: str):
    return {
        "info": advise(Query(kind="info", gpus=(gpu,))),
        "compare": advise(Query(kind="compare", gpus=(gpu, "rtx-3090"))),
        "can_run": advise(Query(kind="can_run", gpus=(gpu,), model="llama-3.1-8b")),
    }


def _within(message: Msg) -> Iterator[Msg]:
    """The messages said inside ``message`` (its arguments, and the items of a list of sentences)."""
    for value in message.args.values():
        for inner in value if isinstance(value, tuple) else (value,):
            if isinstance(inner, Msg):
                yield inner
                yield from _within(inner)


@pytest.mark.parametrize("case", list(ASKED))
@pytest.mark.parametrize("lang", LANGS)
def test_asking_about_the_card_says_what_software_still_runs_on_it(case, lang):
    gpu = ASKED[case]
    for kind, answer in _answers(gpu).items():
        inside = list(_within(answer.headline))  # a spec card leads with it
        support = [m for m in (*answer.caveats, *inside) if m.key.startswith("support.")]
        assert support, (case, kind)
        text = " ".join(render(m, lang) for m in support)
        assert RUNS[gpu][lang] in text, (case, kind, lang, text)
        assert any(w in text for w in WORDS[lang]), (case, kind, lang, text)
        if lang != "en":
            assert not _english_run(text), (case, kind, lang, text)


def test_a_recommendation_shows_a_limited_card_with_its_caveat():
    catalog = load_catalog()
    caveats = [m.key for m in _card_caveats(catalog.get("gtx-1080-ti"), 1)]
    assert "support.cuda.legacy" in caveats
    amd = [m.key for m in _card_caveats(catalog.get("rx-6700-xt"), 1)]
    assert "support.rocm.community.override" in amd and "advice.caveat.amd" not in amd
    assert [m.key for m in _card_caveats(catalog.get("rtx-4090"), 1) if m.key.startswith("support.")] == []


def test_recommendations_pick_cards_not_laptops_modules_or_whole_computers():
    catalog = load_catalog()
    for gpu in catalog.gpus.values():
        if gpu.platform in ("laptop", "embedded", "unified_memory"):
            assert not gpu.buyable(organization=False) and not gpu.buyable(organization=True), gpu.id
    budgets = (300, 800, 1500, 3000, 10000)
    for usd in budgets:
        for task in ("llm_inference", "kaggle", "llm_finetune"):
            answer = advise(Query(kind="recommend", task=task, budget=Money(amount=Decimal(usd), currency="USD")))
            for option in (*answer.options, *answer.alternatives):
                assert catalog.get(option.gpu_id).platform in ("desktop", "server"), (usd, task, option.gpu_id)


def test_every_new_card_gets_a_speed_or_says_what_is_unknown():
    """The performance model runs for every card: bandwidth-bound where compute is unknown (Apple,
    Jetson, most AMD consumer cards), with a note saying so."""
    catalog = load_catalog()
    for gpu in catalog.gpus.values():
        for workload in WORKLOADS:
            est = estimate(gpu, workload, catalog)
            assert est.speed > 0, (gpu.id, workload)
            if est.compute_ceiling is None:
                assert any(n.key == "perf.note.compute_unknown" for n in est.notes), gpu.id


def test_can_run_uses_the_gpus_share_of_unified_memory():
    answer = advise(Query(kind="can_run", gpus=("apple-m3-max-128gb",), model="llama-3.1-70b"))
    verdict = answer.can_run.verdicts[0]
    assert verdict.memory_gb == 96 and verdict.gpu_id == "apple-m3-max-128gb"


def test_support_messages_are_complete_and_chinese_is_chinese():
    ours = read_yaml(data_dir() / "locales" / "messages" / "support.yaml")
    words = message_catalog()
    for key in ours:
        for lang in LANGS:
            assert words[key][lang]
        for lang in ("zh-Hant", "zh-Hans"):
            assert not _english_run(re.sub(r"\{[^}]*\}", " ", words[key][lang])), (key, lang)


# ---- Huawei Ascend: an NPU without CUDA (added 2026-12-06) ------------------------------------------------


def test_an_ascend_npu_says_what_runs_and_what_does_not():
    notes = software_notes(load_catalog().get("ascend-910b"))
    assert [m.key for m in notes] == ["support.ascend", "support.ascend.no_cuda"]
    cannot = english(notes[1])
    for words in ("FlashAttention", "bitsandbytes", "CUDA builds of llama.cpp", "CANN backend", "Q4_0"):
        assert words in cannot, cannot
    # a card without CUDA is always a limit worth saying beside other cards
    assert software_caveats(load_catalog().get("ascend-910b")) == notes


@pytest.mark.parametrize("lang", LANGS)
def test_ascend_support_is_said_in_every_language(lang):
    notes = software_notes(load_catalog().get("ascend-910b2"))
    texts = [render(m, lang) for m in notes]
    assert all("Ascend 910B2" in t for t in texts)
    assert "torch_npu" in texts[0] and "CANN" in texts[0] and "vllm-ascend" in texts[0] and "MindIE" in texts[0]
    assert "FlashAttention" in texts[1] and "bitsandbytes" in texts[1] and "Q8_0" in texts[1]
    if lang == "zh-Hans":
        assert "华为昇腾" in texts[0] and "没有 CUDA" in texts[0] and "只支持 CUDA 的库不能用" in texts[1]
    if lang == "zh-Hant":
        assert "華為昇騰" in texts[0] and "沒有 CUDA" in texts[0] and "只支援 CUDA 的函式庫不能用" in texts[1]
    if lang != "en":
        assert not any(_english_run(t) for t in texts), texts


def test_asking_about_an_ascend_card_answers_with_it():
    """Spec card, compare and can-run each carry what runs on the NPU; the spec card leads with it."""
    answers = _answers("ascend-910b")
    led = (answers["info"].headline, *_within(answers["info"].headline))
    assert any(m.key == "support.ascend" for m in led)
    assert "support.ascend.no_cuda" in _said(answers["info"])
    for kind in ("compare", "can_run"):
        assert {"support.ascend", "support.ascend.no_cuda"} <= set(_said(answers[kind])), kind
    verdict = answers["can_run"].can_run.verdicts[0]
    assert verdict.gpu_id == "ascend-910b" and verdict.memory_gb == 64


def _cheap(gpu_id: str):
    import datetime as dt

    from engine.cost import PriceQuote

    return PriceQuote(
        gpu_id=gpu_id, usd=Decimal(150), basis="override", date=dt.date(2026, 9, 30), source="a server's own"
    )


@pytest.mark.parametrize("lang", LANGS)
def test_asking_about_a_jetson_orin_says_jetpack(lang):
    for kind, answer in _answers("jetson-agx-orin-64gb").items():
        support = [m for m in (*answer.caveats, *_within(answer.headline)) if m.key.startswith("support.")]
        assert "support.jetson.vendor" in [m.key for m in support], kind
        text = " ".join(render(m, lang) for m in support)
        assert "JetPack 6.2" in text, (kind, lang, text)
        if kind == "compare":
            assert "support.not_a_card" in [m.key for m in support]
        if lang != "en":
            assert not _english_run(text), (kind, lang, text)


@pytest.mark.parametrize("organization", [False, True])
@pytest.mark.parametrize("task", ["llm_inference", "llm_finetune", "kaggle"])
def test_a_huawei_or_jetson_part_never_leads_a_recommendation(organization, task):
    """Even at a community price far below every NVIDIA card, an Ascend NPU is shown after NVIDIA's pick
    with its caveats (like AMD and Intel: NVIDIA first unless the user opts into a vendor), and a
    Jetson module is never offered (not a card to buy)."""
    from engine.advisor import AdviceContext

    catalog = load_catalog()
    priced = ("ascend-910b", "ascend-910b2", "ascend-910b-32gb", "jetson-agx-orin-64gb", "jetson-orin-nano-super")
    ctx = AdviceContext(price_overrides={g: _cheap(g) for g in priced})
    for usd in (1500, 20000):
        query = Query(
            kind="recommend",
            task=task,
            budget=Money(amount=Decimal(usd), currency="USD"),
            organization=organization,
        )
        answer = advise(query, ctx)
        assert answer.options, (task, usd)
        assert catalog.get(answer.options[0].gpu_id).vendor == "nvidia", (task, usd, answer.options[0].gpu_id)
        for option in (*answer.options, *answer.alternatives):
            assert catalog.get(option.gpu_id).platform != "embedded", (task, usd, option.gpu_id)
            if catalog.get(option.gpu_id).vendor == "huawei":
                assert "support.ascend" in [m.key for m in option.caveats], option.gpu_id
                assert "advice.caveat.nvidia_first" in _said(answer)


def test_several_macs_share_one_software_caveat_and_one_memory_share_line():
    # "Can my MacBook run it?" answered for three Macs: what runs on an Apple GPU once, and macOS's default
    # GPU share of each Mac in one sentence (12 of 16 GB, 36 of 48 GB, 96 of 128 GB)
    said = caveats_for(("apple-m4-16gb", "apple-m4-pro-48gb", "apple-m4-max-128gb"))
    keys = [c.key for c in said]
    assert keys.count("support.apple.several") == 1 and "support.apple" not in keys
    (shares,) = [c for c in said if c.key == "support.unified.macos.several"]
    assert [(m.args["gb"], m.args["total"]) for m in shares.args["each"]] == [(12, 16), (36, 48), (96, 128)]
    one = caveats_for(("apple-m4-16gb",))  # one Mac: its own lines, as before
    assert [c.key for c in one] == ["support.apple", "support.unified.macos"]


def test_two_macs_of_one_size_give_their_share_once_and_one_whole_computer_line():
    # "M1 Max 64 GB or M2 Max 64 GB?": "about 48 GB of 64 GB" once, not "48 GB of 64 GB and 48 GB of 64 GB", and
    # "… are each part of a whole computer" once for both
    said = caveats_for(("apple-m1-max-64gb", "apple-m2-max-64gb"))
    (shares,) = [c for c in said if c.key == "support.unified.macos.several"]
    assert [(m.args["gb"], m.args["total"]) for m in shares.args["each"]] == [(48, 64)]
    answer = advise(Query(kind="compare", gpus=("apple-m1-max-64gb", "apple-m2-max-64gb"), model="llama-2-70b"))
    keys = [k for m in answer.caveats for k in m.all_keys()]
    assert keys.count("support.not_a_card.several") == 1 and "support.not_a_card" not in keys
    said_text = " ".join(english(m) for m in answer.caveats)
    assert "Apple M1 Max (64 GB) and Apple M2 Max (64 GB) are each part of a whole computer" in said_text


@pytest.mark.parametrize(
    ("gpu", "sm"),
    [("rtx-5080", "120"), ("rtx-5060-laptop", "120"), ("b200", "100")],
)
def test_a_blackwell_card_says_the_first_pytorch_that_runs_it(gpu, sm):
    notes = software_notes(load_catalog().get(gpu))
    first = next(m for m in notes if m.key == "support.cuda.first_build")
    text = english(first)
    assert f"sm_{sm}" in text and "PyTorch 2.7" in text and "CUDA 12.8" in text and "cu128" in text, text
    assert "https://pytorch.org/blog/pytorch-2-7/" in text  # the release that added Blackwell
    assert f"sm_{sm} is not compatible" in text and f"sm_{sm} 与当前安装的 PyTorch 不兼容" in render(first, "zh-Hans")


@pytest.mark.parametrize("gpu", ["rtx-4090", "h100-sxm", "dgx-spark"])
def test_older_cards_and_gb10_carry_no_first_build_note(gpu):
    """Ada and Hopper run on every current build; GB10's 12.1 is not among PyTorch 2.7's targets."""
    assert "support.cuda.first_build" not in [m.key for m in software_notes(load_catalog().get(gpu))]


@pytest.mark.parametrize(
    ("query", "said"),
    [
        (Query(kind="can_run", gpus=("rtx-5070-ti",), task="image_generation"), True),  # "ComfyUI on a 5070 Ti?"
        (Query(kind="can_run", gpus=("rtx-5090",), model="sdxl"), True),
        (Query(kind="can_run", gpus=("rtx-5090",), model="llama 3.1 70b", task="llm_inference"), False),  # llama.cpp
        (Query(kind="can_run", gpus=("rtx-4070-ti",), task="image_generation"), False),  # Ada: every current build
    ],
)
def test_a_can_run_answer_on_a_blackwell_card_carries_its_first_pytorch(query, said):
    caveats = [m.key for m in advise(query).caveats]
    assert ("support.cuda.first_build" in caveats) is said, caveats


@pytest.mark.parametrize(
    ("gpu_id", "precision", "key"),
    [
        ("v100-32gb", "bf16", "support.no_bf16"),  # Volta: no BF16 ("V100 不支持BF16？")
        ("t4", "bf16", "support.no_bf16"),  # Turing
        ("a100-40gb-pcie", "bf16", None),  # Ampere has it
        ("rtx-3090", "fp8", "support.no_fp8"),  # FP8 Tensor Cores came with Ada and Hopper
        ("rtx-4090", "fp8", None),
        ("h100-sxm", "fp8", None),
        ("v100-32gb", "fp16", None),  # every card runs FP16
        ("rx-7900-xtx", "fp8", None),  # another vendor's precisions are not NVIDIA's story
    ],
)
def test_a_precision_the_cards_architecture_lacks_is_said(gpu_id: str, precision: str, key: str | None) -> None:
    said = missing_precision(load_catalog().get(gpu_id), precision)
    assert (said.key if said else None) == key


def test_asked_about_bf16_on_a_v100_the_answer_leads_with_fp16_instead() -> None:
    # "Tesla V100 不支持BF16（报错…计算能力8.0以上）": the spec card leads with why and what to run instead,
    # citing vLLM's own check; a can-run answer at BF16 on a T4 carries it as a caveat
    info = advise(Query(kind="info", gpus=("v100-32gb",), precision="bf16"))
    first = info.headline.args["items"][0]
    assert first.key == "support.no_bf16" and "--dtype half" in english(first)
    assert "support.precision" in [r.id for r in info.rules]
    assert "没有 BF16" in render(first, "zh-Hans")
    run = advise(Query(kind="can_run", gpus=("t4",), model="llama-3-8b", precision="bf16"))
    assert run.caveats[0].key == "support.no_bf16"
    ampere = advise(Query(kind="can_run", gpus=("a100-40gb-pcie",), model="llama-3-8b", precision="bf16"))
    assert "support.no_bf16" not in [c.key for c in ampere.caveats]


def test_training_in_bf16_on_a_card_without_it_is_answered_first_and_run_in_fp16() -> None:
    # "V100 32G能用bf16训练吗？": no model to weigh, so the missing BF16 is the answer's first sentence (the parser
    # keeps BF16 for a training question; other precisions a training mode sets itself)
    query = parse("V100 32G能用bf16训练吗？").query
    assert (query.mode, query.precision) == ("full_finetune", "bf16")
    lead = advise(query).headline.args["items"][0]
    assert lead.key == "support.no_bf16" and "没有 BF16" in render(lead, "zh-Hans")
    assert parse("QLoRA Llama 3 8B in bf16 on a 3090?").query.precision is None  # QLoRA's base is its own NF4
    # "LoRA of Llama 3 8B in BF16 on a T4": the T4 runs it in FP16 at the same size, said once, with QLoRA as its way in
    run = advise(Query(kind="can_run", gpus=("t4",), model="llama-3-8b", mode="lora", precision="bf16"))
    verdict = run.can_run.verdicts[0]
    assert (verdict.fits, round(verdict.need_gib, 1)) == (False, 19.2)
    text = english(run.headline)
    assert "LoRA (FP16 base)" in text and "BF16 base" not in text
    assert text.count("9.7 GB") == 1  # "At QLoRA (4-bit NF4 base) it fits: 9.7 GB of 16 GB.", not again
