"""LMDeploy, bitsandbytes and TensorRT-LLM (data/libraries.yaml): each found by the names people type, and its
verdict on a card it takes and one it does not, from the minimum its own documentation states."""

from __future__ import annotations

import pytest

from bot.words import english
from engine import advise
from engine.catalog import load_catalog
from engine.libraries import libraries, library_named, library_verdict
from engine.model_specs import load_model_catalog
from engine.parse import parse
from engine.query import Query

URLS = {
    "lmdeploy": "https://github.com/InternLM/lmdeploy/blob/main/docs/en/get_started/installation.md",
    "bitsandbytes": "https://huggingface.co/docs/bitsandbytes/v0.50.0/installation",
    "tensorrt_llm": "https://nvidia.github.io/TensorRT-LLM/supported-hardware.html",
}


@pytest.mark.parametrize(
    ("text", "library"),
    [
        ("LMDeploy", "lmdeploy"),
        ("lmdeploy", "lmdeploy"),
        ("lm-deploy", "lmdeploy"),
        ("TurboMind", "lmdeploy"),
        ("bitsandbytes", "bitsandbytes"),
        ("bnb", "bitsandbytes"),
        ("TensorRT-LLM", "tensorrt_llm"),
        ("trt-llm", "tensorrt_llm"),
        ("TRTLLM", "tensorrt_llm"),
        ("tensorrt llm", "tensorrt_llm"),
    ],
)
def test_each_new_library_is_found_by_its_names(text: str, library: str) -> None:
    found = library_named(text)
    assert found is not None and found.id == library


def test_the_new_names_name_no_model_and_no_card() -> None:
    gpus, models = load_catalog(), load_model_catalog()
    for library in (libraries()[name] for name in URLS):
        assert len(library.short.encode()) <= 13
        for name in (library.short, *library.aliases):
            assert gpus.resolve(name) is None, name
            assert models.resolve(name) is None, name


@pytest.mark.parametrize(
    ("library", "gpu", "need", "cc", "runs"),
    [
        # LMDeploy: "Volta(sm70): V100", Turing, Ampere, Ada
        ("lmdeploy", "v100-16gb", "7.0", "7.0", True),
        ("lmdeploy", "gtx-1080-ti", "7.0", "6.1", False),
        # bitsandbytes: compute capability 6.0+ (Pascal); Maxwell only from source
        ("bitsandbytes", "gtx-1080", "6.0", "6.1", True),
        ("bitsandbytes", "tesla-m40", "6.0", "5.2", False),
        # TensorRT-LLM: Blackwell, Hopper, Ada, Ampere (A100): 8.0 the floor, Turing below it
        ("tensorrt_llm", "a100-40gb-pcie", "8.0", "8.0", True),
        ("tensorrt_llm", "t4", "8.0", "7.5", False),
    ],
)
def test_each_new_library_judges_a_card_by_its_documented_minimum(
    library: str, gpu: str, need: str, cc: str, runs: bool
) -> None:
    found = library_verdict(library, load_catalog().get(gpu))
    assert found.runs is runs
    first = found.said[0]
    assert first.key == f"support.library.{'yes' if runs else 'no'}.cc"
    assert (first["need"], first["cc"]) == (need, cc)
    if not runs:  # what runs instead follows, in words of its own
        assert found.said[1].key == f"support.library.instead.{library}"
        assert english(found.said[1])


@pytest.mark.parametrize(
    ("library", "gpu", "runs"),
    [
        ("lmdeploy", "rx-7900-xtx", False),  # its docs name no AMD card or target (ROCm build only)
        ("lmdeploy", "apple-m4-16gb", None),  # its installation page says nothing of Macs
        ("bitsandbytes", "rx-7900-xtx", True),  # gfx1100: a pre-built ROCm target
        ("bitsandbytes", "mi300x", True),  # gfx942
        ("bitsandbytes", "arc-a770-16gb", True),  # Intel XPU
        ("bitsandbytes", "apple-m4-16gb", True),  # Apple Silicon
        ("tensorrt_llm", "mi300x", False),
        ("tensorrt_llm", "arc-a770-16gb", False),
        ("tensorrt_llm", "ascend-910b", None),  # not NVIDIA, AMD, Intel or Apple: no verdict
    ],
)
def test_other_vendors_as_each_documentation_lists_them(library: str, gpu: str, runs: bool | None) -> None:
    assert library_verdict(library, load_catalog().get(gpu)).runs is runs


@pytest.mark.parametrize(
    ("short", "library"), [("LMDeploy", "lmdeploy"), ("bitsandbytes", "bitsandbytes"), ("TensorRT-LLM", "tensorrt_llm")]
)
def test_an_answer_cites_the_librarys_own_documentation(short: str, library: str) -> None:
    answer = advise(Query(kind="info", gpus=("t4",), model=short))
    rule = answer.rules[0]
    assert rule.id == f"library.{library}" and URLS[library] in rule.source
    assert URLS[library] in libraries()[library].source
    plain = advise(Query(kind="explain", model=short))
    assert plain.explanation is not None and plain.explanation.topic == library


@pytest.mark.parametrize(
    ("text", "model"),
    [
        # the parser's own list of libraries (engine/parse.py _LIBRARIES) names each, in the spellings people use
        ("does LMDeploy support the V100?", "LMDeploy"),
        ("lmdeploy支持V100吗", "LMDeploy"),
        ("TensorRT-LLM on a T4?", "TensorRT-LLM"),
        ("trt-llm on a T4?", "TensorRT-LLM"),
        ("can I use bitsandbytes on my GTX 1080?", "bitsandbytes"),
        ("bnb on a 1080, does it work?", "bitsandbytes"),
    ],
)
def test_a_question_naming_the_library_carries_it(text: str, model: str) -> None:
    query = parse(text, standalone=True).query
    assert query.model == model
    found = library_named(query.model)
    assert found is not None and found.short.casefold() == model.casefold()


def test_an_ascend_npu_runs_a_library_only_where_its_documentation_says_so() -> None:
    # LMDeploy's installation page builds for Ascend (LMDEPLOY_TARGET_DEVICE); vLLM's own says nothing of it
    # (vllm-ascend is another project), so its verdict on an Ascend card stays "its documentation says nothing"
    ascend = load_catalog().get("ascend-910b2")
    assert library_verdict("lmdeploy", ascend).runs is True
    assert library_verdict("vllm", ascend).runs is None
