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
from engine.performance import WORKLOADS, estimate
from engine.query import Query
from engine.support import caveats_for, software_caveats, software_notes

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
        ("tesla-k80", "support.cuda.dropped", ("no current PyTorch CUDA wheels", "CUDA 12 dropped Kepler", "2.0")),
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
        "canrun.note.no_egpu",  # an NVIDIA card beside an Apple silicon Mac: no CUDA there (issue #21 item 7)
    ]


# ---- the answers ------------------------------------------------------------------------------

ASKED = {
    "kepler": "tesla-k80",
    "maxwell": "gtx-980-ti",
    "unsupported ROCm": "rx-6700-xt",
    "apple": "apple-m3-max-128gb",
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
