"""Open LLMs added to data/models.yaml (GLM-4.5, Kimi K2, Qwen2.5-Coder, QwQ, Qwen3-Coder, Command R,
DeepSeek-Coder-V2, OLMo 2): each resolves from the names people type, the names that resolved before
still resolve to the same models, the shapes are what the configs say, and whole can-run checks give
the answers the sizes imply."""

from __future__ import annotations

import re

import pytest

from engine.canrun import assess
from engine.model_specs import load_model_catalog
from engine.parse import parse
from engine.query import Query

# What people type → the catalog id it must resolve to.
NAMES = [
    ("GLM-4.5", "glm-4.5"),
    ("glm 4.5", "glm-4.5"),
    ("glm4.5", "glm-4.5"),
    ("zai-org/GLM-4.5", "glm-4.5"),
    ("GLM-4.5-FP8", "glm-4.5"),
    ("glm 355b", "glm-4.5"),
    ("GLM-4.5-Air", "glm-4.5-air"),
    ("glm-4.5-air", "glm-4.5-air"),
    ("glm 4.5 air", "glm-4.5-air"),
    ("glm air", "glm-4.5-air"),
    ("zai-org/GLM-4.5-Air", "glm-4.5-air"),
    ("glm 106b", "glm-4.5-air"),
    ("Kimi K2", "kimi-k2"),
    ("kimi k2", "kimi-k2"),
    ("k2", "kimi-k2"),
    ("Kimi-K2-Instruct", "kimi-k2"),
    ("moonshotai/Kimi-K2-Instruct", "kimi-k2"),
    ("Kimi-K2-Instruct-0905", "kimi-k2"),
    ("Qwen2.5-Coder-32B-Instruct", "qwen2.5-coder-32b"),
    ("qwen2.5 coder 32b", "qwen2.5-coder-32b"),
    ("Qwen/Qwen2.5-Coder-32B-Instruct", "qwen2.5-coder-32b"),
    ("qwen coder 32b", "qwen2.5-coder-32b"),
    ("Qwen2.5-Coder-14B-Instruct", "qwen2.5-coder-14b"),
    ("qwen2.5 coder 14b", "qwen2.5-coder-14b"),
    ("Qwen2.5-Coder-7B-Instruct", "qwen2.5-coder-7b"),
    ("qwen2.5 coder 7b", "qwen2.5-coder-7b"),
    ("QwQ-32B", "qwq-32b"),
    ("qwq", "qwq-32b"),
    ("qwq 32b", "qwq-32b"),
    ("Qwen3-Coder-480B-A35B-Instruct", "qwen3-coder-480b-a35b"),
    ("qwen3 coder 480b", "qwen3-coder-480b-a35b"),
    ("Qwen3-Coder-30B-A3B-Instruct", "qwen3-coder-30b-a3b"),
    ("qwen3 coder 30b", "qwen3-coder-30b-a3b"),
    ("command-r", "command-r"),
    ("Command R", "command-r"),
    ("c4ai-command-r-v01", "command-r"),
    ("command r 35b", "command-r"),
    ("command r plus", "command-r-plus"),
    ("c4ai-command-r-plus", "command-r-plus"),
    ("command r 104b", "command-r-plus"),
    ("deepseek coder v2", "deepseek-coder-v2"),
    ("DeepSeek-Coder-V2-Instruct", "deepseek-coder-v2"),
    ("deepseek-ai/DeepSeek-Coder-V2-Instruct", "deepseek-coder-v2"),
    ("DeepSeek-Coder-V2-Lite-Instruct", "deepseek-coder-v2-lite"),
    ("deepseek coder v2 lite", "deepseek-coder-v2-lite"),
    ("ds coder v2 lite", "deepseek-coder-v2-lite"),
    ("OLMo-2-1124-7B-Instruct", "olmo-2-7b"),
    ("olmo 2 7b", "olmo-2-7b"),
    ("OLMo-2-1124-13B", "olmo-2-13b"),
    ("olmo 2 13b", "olmo-2-13b"),
]
ADDED = sorted({model_id for _, model_id in NAMES})

# Names that resolved before these entries, and must still resolve to the same models.
UNCHANGED = [
    ("qwen 32b", "qwen3-32b"),
    ("qwen 30b", "qwen3-30b-a3b"),
    ("qwen3 30b", "qwen3-30b-a3b"),
    ("Qwen3-30B-A3B", "qwen3-30b-a3b"),
    ("qwen 14b", "qwen3-14b"),
    ("qwen 7b", "qwen2.5-7b"),
    ("qwen 72b", "qwen2.5-72b"),
    ("Qwen2.5-32B-Instruct", "qwen2.5-32b"),
    ("qwen2.5 32b", "qwen2.5-32b"),
    ("Qwen2.5-7B-Instruct", "qwen2.5-7b"),
    ("Qwen2.5-14B-Instruct", "qwen2.5-14b"),
    ("qwen 235b", "qwen3-235b-a22b"),
    ("glm-4-9b-chat", "glm-4-9b"),
    ("glm 9b", "glm-4-9b"),
    ("GLM-4V-9B", "glm-4v-9b"),
    ("deepseek v3", "deepseek-v3"),
    ("deepseek r1", "deepseek-r1"),
    ("r1", "deepseek-r1"),
    ("ds r1 distill 32b", "deepseek-r1-distill-qwen-32b"),
    ("internlm2-chat-20b", "internlm2-20b"),
    ("mixtral 8x7b", "mixtral-8x7b"),
    ("llama 3.1 70b", "llama-3.1-70b"),
]


@pytest.mark.parametrize(("name", "model_id"), NAMES)
def test_added_name_resolves(name, model_id):
    assert load_model_catalog().resolve(name) == model_id


@pytest.mark.parametrize(("name", "model_id"), UNCHANGED)
def test_existing_names_keep_their_models(name, model_id):
    assert load_model_catalog().resolve(name) == model_id


@pytest.mark.parametrize("model_id", ADDED)
def test_added_entry_is_a_sourced_llm(model_id):
    spec = load_model_catalog().get(model_id)
    assert spec.kind == "llm"
    assert re.fullmatch(r"https://huggingface\.co/\S+/config\.json", spec.source)
    assert spec.notes
    assert spec.default_context <= spec.max_context


def test_a_size_less_coder_name_is_a_family_not_a_guess():
    catalog = load_model_catalog()
    assert catalog.resolve("qwen3 coder") is None
    assert catalog.family("qwen3 coder") == ["qwen3-coder-30b-a3b", "qwen3-coder-480b-a35b"]


@pytest.mark.parametrize(
    ("model_id", "shape"),
    [  # (params_b, active_params_b, layers, hidden_size, intermediate_size, experts, experts_per_token)
        ("glm-4.5", (355.0, 32.0, 92, 5120, 1536, 160, 8)),
        ("glm-4.5-air", (106.0, 12.0, 46, 4096, 1408, 128, 8)),
        ("kimi-k2", (1000.0, 32.0, 61, 7168, 2048, 384, 8)),
        ("qwen3-coder-480b-a35b", (480.0, 35.0, 62, 6144, 2560, 160, 8)),
        ("qwen3-coder-30b-a3b", (30.5, 3.3, 48, 2048, 768, 128, 8)),
        ("deepseek-coder-v2", (236.0, 21.0, 60, 5120, 1536, 160, 6)),
        ("deepseek-coder-v2-lite", (16.0, 2.4, 27, 2048, 1408, 64, 6)),
        # the 2025-2026 models (tests/engine/test_models_2026.py has their sources and worked memory)
        ("qwen3.5-35b-a3b", (35.0, 3.0, 40, 2048, 512, 256, 8)),
        ("qwen3.5-122b-a10b", (122.0, 10.0, 48, 3072, 1024, 256, 8)),
        ("qwen3.5-397b-a17b", (397.0, 17.0, 60, 4096, 1024, 512, 10)),
        ("qwen3-next-80b-a3b", (80.0, 3.0, 48, 2048, 512, 512, 10)),
        ("minimax-m2", (230.0, 10.0, 62, 3072, 1536, 256, 8)),
        ("glm-4.6", (355.0, 32.0, 92, 5120, 1536, 160, 8)),
    ],
)
def test_moe_shapes_are_the_configs(model_id: str, shape: tuple[float, ...]) -> None:
    m = load_model_catalog().get(model_id)
    assert (
        m.params_b,
        m.active_params_b,
        m.layers,
        m.hidden_size,
        m.intermediate_size,
        m.experts,
        m.experts_per_token,
    ) == shape


def test_kv_cache_follows_each_attention_design():
    catalog = load_model_catalog()
    # GLM-4.5-Air: GQA, 8 KV heads of 128 → 2 × 8 × 128 = 2048 values per token per layer, 46 layers.
    assert catalog.get("glm-4.5-air").kv_cache_bytes(1) == 46 * 2048 * 2
    # Kimi K2 and DeepSeek-Coder-V2 use MLA: 512 + 64 = 576 cached values per token per layer.
    for model_id, layers in (("kimi-k2", 61), ("deepseek-coder-v2", 60), ("deepseek-coder-v2-lite", 27)):
        spec = catalog.get(model_id)
        assert spec.uses_mla and spec.kv_cache_bytes(1) == layers * 576 * 2
    # Command R has no GQA (64 KV heads): 40 layers × 2 × 64 × 128 values = 1.25 MiB a token at 16 bits,
    # eight times Command R+'s per-layer width (8 KV heads).
    assert catalog.get("command-r").kv_cache_bytes(1) == 40 * 2 * 64 * 128 * 2 == 1.25 * 2**20
    assert catalog.get("command-r-plus").kv_values_per_token_layer == 2 * 8 * 128
    assert catalog.get("kimi-k2").release_precision == "fp8"


def q(**fields) -> Query:
    return Query(kind="can_run", **fields)


def test_a_32b_dense_coder_fits_a_24gb_card_at_q4_k_m():
    # 32.5B at Q4_K_M (≈4.8 bits a weight) is ≈19.5 GB of weights; with a 4K cache and overheads ≈21 GiB,
    # under 24 GB. Q5_K_M (≈23 GB of weights alone) does not fit, so Q4_K_M is the best rung.
    for model, gpu in (("Qwen2.5-Coder-32B-Instruct", "rtx-4090"), ("QwQ-32B", "rtx-3090")):
        verdict = assess(q(model=model, gpus=(gpu,))).verdicts[0]
        assert verdict.fits and verdict.precision == "q4_k_m"
        assert 19 < verdict.need_gib < 24


def test_glm_45_air_does_not_fit_one_24gb_card_but_fits_an_h100():
    # 106B parameters at Q4_K_M are ≈64 GB of weights (MoE: every expert stays resident), far over 24 GB;
    # even Q3_K_M (≈3.9 bits, ≈52 GB) is twice the card. One 80 GB H100 holds a 5-bit quant.
    report = assess(q(model="GLM-4.5-Air", gpus=("rtx-4090",)))
    assert report.model_id == "glm-4.5-air"
    assert not report.verdicts[0].fits
    h100 = assess(q(model="GLM-4.5-Air", gpus=("h100-sxm",))).verdicts[0]
    assert h100.fits and h100.precision in ("q6_k", "q5_k_m", "q4_k_m")


def test_a_3b_active_moe_fits_a_24gb_card_because_its_30b_weights_do_at_5_bits():
    # Qwen3-Coder-30B-A3B: 30.5B × ≈5.7 bits (Q5_K_M) ≈ 21.7 GB; the 3.3B active only speeds decoding.
    verdict = assess(q(model="qwen3 coder 30b", gpus=("rtx-4090",))).verdicts[0]
    assert verdict.fits and verdict.precision in ("q5_k_m", "q4_k_m")


def test_command_r_without_gqa_misses_a_24gb_card():
    # 35B at Q4_K_M is ≈21 GB of weights, and the full-width KV cache (1.25 MiB a token) adds ≈5 GiB at 4K.
    report = assess(q(model="command r", gpus=("rtx-4090",)))
    assert report.model_id == "command-r" and not report.verdicts[0].fits


def test_kimi_k2_needs_a_whole_8_gpu_node():
    # 1T parameters: even Q4_K_M is ≈600 GB, more than 4 × 80 GB; 8 × H100 (640 GB) holds it.
    four = assess(q(model="kimi k2", gpus=("h100-sxm",), gpu_counts=(4,))).verdicts[0]
    eight = assess(q(model="kimi k2", gpus=("h100-sxm",), gpu_counts=(8,))).verdicts[0]
    assert not four.fits and eight.fits


# Whole questions the reader already brings to these models (others need parser words, see the report).
QUESTIONS = [
    ("can my 4090 run GLM-4.5-Air?", "glm-4.5-air"),
    ("can a 3090 run glm 4.5", "glm-4.5"),
    ("can a 4090 run Kimi-K2-Instruct", "kimi-k2"),
    ("can a 4090 run Qwen2.5-Coder-32B-Instruct?", "qwen2.5-coder-32b"),
    ("can my 3090 run qwen2.5 coder 32b", "qwen2.5-coder-32b"),
    ("can my 3090 run qwq", "qwq-32b"),
    ("can my 4090 run qwen3 coder 30b", "qwen3-coder-30b-a3b"),
    ("can a 3090 run command-r", "command-r"),
    ("can my 4090 run DeepSeek-Coder-V2-Lite-Instruct?", "deepseek-coder-v2-lite"),
    ("can a 4090 run olmo 2 13b", "olmo-2-13b"),
]


@pytest.mark.parametrize(("text", "model_id"), QUESTIONS)
def test_questions_reach_the_added_models(text, model_id):
    query = parse(text).query
    assert query is not None and query.kind == "can_run" and query.model == model_id


@pytest.mark.parametrize(
    ("name", "model_id"),
    [
        ("GPT-2", "gpt2-124m"),
        ("gpt2", "gpt2-124m"),
        ("nanoGPT", "gpt2-124m"),
        ("gpt2-medium", "gpt2-medium"),
        ("GPT-2 Large", "gpt2-large"),
        ("gpt2-xl", "gpt2-xl"),
    ],
)
def test_gpt2_sizes_resolve(name: str, model_id: str) -> None:
    assert load_model_catalog().resolve(name) == model_id


def test_nanogpt_from_scratch_fits_an_8gb_card() -> None:
    """GPT-2 124M pretrained in BF16 mixed precision: 16 B a parameter (2 GB) and small activations — well
    inside 8 GB, where the LLM floor of the guide would have said no."""
    query = parse("I want to train a small GPT from scratch (nanoGPT) — is an RTX 4060 8GB enough?").query
    assert (query.model, query.mode) == ("gpt2-124m", "pretrain")
    (verdict,) = assess(query).verdicts
    assert verdict.fits and verdict.estimate.per_gpu_gb < 4
    # optimizer states: 0.124B × 12 B (fp32 master copy, Adam m and v) = 1.488 GB
    states = next(t for t in verdict.estimate.terms if t.name == "optimizer states")
    assert states.gb == pytest.approx(0.124 * 12)


@pytest.mark.parametrize(
    ("text", "model_id"),
    [
        ("Would a Tesla T4 be enough to fine-tune BERT base?", "bert-base"),
        ("is a T4 enough for bert?", "bert-base"),
        ("train ResNet-50 on ImageNet with a 3090, how long?", "resnet-50"),
        ("ViT-B/16 fine-tuning on a 4060 ok?", "vit-b-16"),
        ("vit large training on 3090", "vit-l-16"),
    ],
)
def test_encoders_and_vision_backbones_are_found_in_questions(text: str, model_id: str) -> None:
    # named in a question (not only as a catalog name): their own figures, not an LLM fine-tune's list
    query = parse(text).query
    assert query.model == model_id
    (verdict,) = assess(query).verdicts
    assert verdict.fits and verdict.estimate.per_gpu_gb < 8
