"""Whether a library runs on a card (engine/libraries.py): each library's documented requirement against the
card's facts, what runs instead, and how questions reach it (parse carries the library as the model)."""

from __future__ import annotations

import pytest

from bot.words import citation, english
from engine import advise
from engine.catalog import load_catalog
from engine.libraries import libraries, library_named, library_verdict
from engine.parse import parse
from engine.query import Query


def verdict(library: str, gpu: str):
    return library_verdict(library, load_catalog().get(gpu))


@pytest.mark.parametrize(
    ("library", "gpu", "runs"),
    [
        # FlashAttention-2: compute capability 8.0+ (its README: Ampere, Ada, Hopper); ROCm: MI200/MI300 only
        ("flash_attention", "rtx-3090", True),  # 8.6
        ("flash_attention", "rtx-2080-ti", False),  # 7.5: Turing, FlashAttention 1.x only
        ("flash_attention", "v100-16gb", False),  # 7.0
        ("flash_attention", "rx-7900-xtx", False),  # gfx1100: not in the README's ROCm list
        ("flash_attention", "arc-a770-16gb", False),
        # vLLM: compute capability 7.0+; ROCm MI200/MI300/RX 7900/RX 9000; Intel Arc and Data Center GPUs
        ("vllm", "v100-16gb", True),  # 7.0, exactly the floor
        ("vllm", "tesla-p40", False),  # 6.1
        ("vllm", "rx-7900-xtx", True),
        ("vllm", "arc-a770-16gb", True),
        ("vllm", "apple-m4-16gb", None),  # its GPU installation page says nothing of Macs: no verdict
        ("vllm", "ascend-910b", None),  # vllm-ascend is Huawei's port, not vLLM's own build
        # Ollama: compute capability 5.0+; AMD through ROCm or Vulkan; Apple through Metal
        ("ollama", "gtx-970", True),  # 5.2
        ("ollama", "gtx-780-ti", False),  # 3.5
        ("ollama", "apple-m4-16gb", True),
    ],
)
def test_each_library_runs_where_its_documentation_says(library: str, gpu: str, runs: bool | None) -> None:
    assert verdict(library, gpu).runs is runs


def test_a_verdict_says_the_requirement_and_the_cards_own_figure_then_what_runs_instead() -> None:
    no = verdict("flash_attention", "v100-16gb")
    assert english(no.said[0]) == (
        "FlashAttention-2 does not run on Tesla V100 PCIe 16GB: it needs CUDA compute capability 8.0 or higher, "
        "and Tesla V100 PCIe 16GB has 7.0."
    )
    assert no.said[1].key == "support.library.instead.flash_attention"
    assert "scaled_dot_product_attention" in english(no.said[1])
    yes = verdict("vllm", "rtx-3090")
    assert len(yes.said) == 1 and english(yes.said[0]).startswith("vLLM runs on RTX 3090")


def test_every_library_cites_its_own_documentation() -> None:
    for library in libraries().values():
        assert "https://" in library.source
        for lang in ("zh-Hans", "zh-Hant"):  # the citation reads in Chinese too (data/locales/messages/citations.yaml)
            assert citation(library.source, lang) != library.source, (library.id, lang)
        assert library_named(library.short) is library


@pytest.mark.parametrize(
    ("text", "model"),
    [
        ("Can I use FlashAttention on my V100?", "flash-attn"),
        ("2080ti能用flash_attn吗", "flash-attn"),
        ("vLLM支持P40吗", "vLLM"),  # the Chinese runs into the name
        ("Does Ollama support the GTX 970?", "Ollama"),
        # a project we have no figures for gives way to the library that stops the card
        ("FooR1能否支持V100？报错FlashAttention only supports Ampere GPUs or newer", "flash-attn"),
        # a project named after it is no library (cut to what a button holds, the cut shown)
        ("foobar-tts-vllm对显卡的最低要求是多少？", "foobar-tts…"),
        ("can a 4090 run Llama 3 8B with vLLM?", "llama-3-8b"),  # a model the catalog knows stays the model
    ],
)
def test_a_library_named_is_carried_as_the_model(text: str, model: str) -> None:
    assert parse(text, standalone=True).query.model == model


def test_a_spec_card_leads_with_the_librarys_verdict_and_cites_it() -> None:
    answer = advise(Query(kind="info", gpus=("tesla-p40",), model="vLLM"))
    first = answer.headline["items"][0]
    assert first.key == "support.library.no.cc" and first["need"] == "7.0" and first["cc"] == "6.1"
    assert answer.rules[0].id == "library.vllm" and "docs.vllm.ai" in answer.rules[0].source


def test_can_run_with_a_library_says_it_per_card_and_leans_no_only_when_no_card_runs_it() -> None:
    both = advise(Query(kind="can_run", gpus=("gtx-1080-ti", "rtx-3090"), model="vLLM"))
    keys = both.headline.all_keys()
    assert keys.count("support.library.no.cc") == 1 and keys.count("support.library.yes.cc") == 1
    assert both.can_run.model_text is None  # the library is no model: what each card runs follows
    assert both.can_run.lean is not False
    old = advise(Query(kind="can_run", gpus=("v100-16gb",), model="flash-attn"))
    assert old.can_run.lean is False


def test_a_library_every_named_card_runs_goes_unsaid_beside_several_cards() -> None:
    # "I run Ollama on a 3060: a 5060 Ti 16GB or a 3090 next?": Ollama runs on all three, nothing to say of it
    answer = advise(Query(kind="can_run", gpus=("rtx-3060-12gb", "rtx-5060-ti-16gb", "rtx-3090"), model="Ollama"))
    assert not [k for k in answer.headline.all_keys() if k.startswith("support.library")]
    one = advise(Query(kind="can_run", gpus=("t4",), model="vLLM"))  # one card asked about: its verdict
    assert "support.library.yes.cc" in one.headline.all_keys()


def test_asked_whether_a_library_supports_old_cards_each_gets_its_verdict() -> None:
    # "Does Ollama support the AMD RX580 or RX480?": a question of support on each card, not a comparison; ROCm has
    # dropped both (gfx803), so Ollama runs on them through Vulkan, and that is said of each
    text = "Does Ollama support the AMD RX580 or RX480 graphics card? Where can I get a ROCm driver for it?"
    query = parse(text).query
    assert (query.kind, query.gpus, query.model) == ("can_run", ("rx-580", "rx-480"), "Ollama")
    answer = advise(query)
    said = [k for k in answer.headline.all_keys() if k.startswith("support.library")]
    assert said == ["support.library.yes.vulkan", "support.library.yes.vulkan"]
    # a card ROCm supports is ROCm's: its documentation lists it
    assert library_verdict("ollama", load_catalog().get("rx-7900-xtx")).said[0].key == "support.library.yes.vendor"


def test_explaining_a_library_gives_its_requirement_and_with_a_card_the_verdict_first() -> None:
    plain = advise(Query(kind="explain", model="vLLM"))
    assert plain.explanation.topic == "vllm" and plain.headline.key == "advice.explain.vllm"
    mac = advise(Query(kind="explain", model="vLLM", gpus=("apple-m4-16gb",)))
    assert mac.headline.all_keys()[1] == "support.library.unlisted.vendor"


@pytest.mark.parametrize("text", ["flash-attn?", "ollama支持哪些显卡？", "which GPUs does vLLM support?"])
def test_a_library_asked_about_with_no_card_gets_what_it_needs_of_a_gpu(text: str) -> None:
    result = parse(text, standalone=True)
    answer = advise(result.query)
    assert answer.kind == "explain" and answer.explanation is not None
    assert answer.explanation.topic in ("flash_attention", "ollama", "vllm")


@pytest.mark.parametrize(
    ("gpu", "runs"),
    [
        ("gtx-1080-ti", True),  # 6.1 ≥ 5.0, ggml-cuda's lowest target
        ("tesla-k80", False),  # 3.7: below its CUDA 12 builds (Vulkan or the CPU build instead)
        ("mi50", True),  # gfx906: HIP or Vulkan
        ("arc-a770-16gb", True),  # SYCL or Vulkan
    ],
)
def test_llama_cpp_runs_on_nearly_every_gpu(gpu, runs):
    found = verdict("llama_cpp", gpu)
    assert found.runs is runs
    if not runs:
        assert "Vulkan" in english(found.said[-1])


@pytest.mark.parametrize(
    "text",
    ["My AMD MI50 (gfx906): does your llama.cpp fork support ROCm?", "is llama-cpp-python supported on a P40?"],
)
def test_llama_cpp_named_is_the_engine_not_the_llama_family(text):
    query = parse(text).query
    assert query.model == "llama.cpp", query
    assert library_named(query.model).id == "llama_cpp"
