"""Classic open LLMs of 2021-2023 added to data/models.yaml (GPT-J 6B, GPT-NeoX 20B, Falcon 7B and 40B,
StarCoder 15B, MPT 7B, TinyLlama 1.1B, OPT 6.7B/13B/30B): each resolves from the names people type, names that resolved
before keep their models, the figures are the ones their configs and model cards give, the parameter
count computed from each shape matches the published count, and worked can-run checks give the answers
the sizes imply."""

from __future__ import annotations

import pytest

from engine.canrun import assess
from engine.memory import GB, estimate
from engine.model_specs import ModelSpec, load_model_catalog
from engine.parse import parse
from engine.query import Query

# What people type → the catalog id it must resolve to.
NAMES = [
    ("gpt-j", "gpt-j-6b"),
    ("gptj", "gpt-j-6b"),
    ("GPT-J", "gpt-j-6b"),
    ("gpt-j-6b", "gpt-j-6b"),
    ("GPT-J 6B", "gpt-j-6b"),
    ("EleutherAI/gpt-j-6B", "gpt-j-6b"),
    ("gptj 6b", "gpt-j-6b"),
    ("gpt-neox-20b", "gpt-neox-20b"),
    ("GPT-NeoX 20B", "gpt-neox-20b"),
    ("EleutherAI/gpt-neox-20b", "gpt-neox-20b"),
    ("neox 20b", "gpt-neox-20b"),
    ("gpt-neox", "gpt-neox-20b"),
    ("GPT-NeoXT-Chat-Base-20B", "gpt-neox-20b"),
    ("togethercomputer/GPT-NeoXT-Chat-Base-20B", "gpt-neox-20b"),
    ("falcon-7b", "falcon-7b"),
    ("Falcon 7B", "falcon-7b"),
    ("tiiuae/falcon-7b", "falcon-7b"),
    ("falcon-7b-instruct", "falcon-7b"),
    ("falcon 40b", "falcon-40b"),
    ("falcon-40b", "falcon-40b"),
    ("tiiuae/falcon-40b-instruct", "falcon-40b"),
    ("Falcon-40B-Instruct", "falcon-40b"),
    ("starcoder", "starcoder-15b"),
    ("StarCoder", "starcoder-15b"),
    ("bigcode/starcoder", "starcoder-15b"),
    ("starcoder 15b", "starcoder-15b"),
    ("StarCoder 15.5B", "starcoder-15b"),
    ("starcoderbase", "starcoder-15b"),
    ("mpt-7b", "mpt-7b"),
    ("MPT 7B", "mpt-7b"),
    ("mosaicml/mpt-7b", "mpt-7b"),
    ("mpt-7b-instruct", "mpt-7b"),
    ("mpt-7b-chat", "mpt-7b"),
    ("tinyllama", "tinyllama-1.1b"),
    ("TinyLlama", "tinyllama-1.1b"),
    ("tinyllama 1.1b", "tinyllama-1.1b"),
    ("TinyLlama-1.1B-Chat-v1.0", "tinyllama-1.1b"),
    ("TinyLlama/TinyLlama-1.1B-Chat-v1.0", "tinyllama-1.1b"),
    ("opt-6.7b", "opt-6.7b"),
    ("facebook/opt-6.7b", "opt-6.7b"),
    ("OPT 6.7B", "opt-6.7b"),
    ("opt-13b", "opt-13b"),
    ("facebook/opt-13b", "opt-13b"),
    ("opt 30b", "opt-30b"),
    ("facebook/opt-30b", "opt-30b"),
]
ADDED = sorted({model_id for _, model_id in NAMES})

# Names that resolved before these entries and must keep their models, and neighbours that are other
# models (Falcon3, StarCoder2, MPT-30B, the StoryWriter's 65k context) and must not become these.
UNCHANGED = [
    ("llama 7b", "llama-2-7b"),
    ("llama 8b", "llama-3.1-8b"),
    ("bloom 7b", "bloom-7b1"),
    ("polyglot 12.8b", "polyglot-ko-12.8b"),
    ("codegen 16b", "codegen-16b"),
    ("180b", "generic-180b"),
    ("mistral 7b", "mistral-7b"),
]
NOT_THESE = [
    "falcon3 7b",
    "falcon 180b",
    "starcoder2 15b",
    "starcoder2 7b",
    "mpt 30b",
    "mpt-7b-storywriter",
    "opt",
    "opt 66b",
    "opt 175b",
]


@pytest.mark.parametrize(("name", "model_id"), NAMES)
def test_added_name_resolves(name: str, model_id: str) -> None:
    assert load_model_catalog().resolve(name) == model_id


@pytest.mark.parametrize(("name", "model_id"), UNCHANGED)
def test_existing_names_keep_their_models(name: str, model_id: str) -> None:
    assert load_model_catalog().resolve(name) == model_id


@pytest.mark.parametrize("name", NOT_THESE)
def test_other_generations_do_not_become_these(name: str) -> None:
    assert load_model_catalog().resolve(name) not in ADDED


def test_falcon_without_a_size_is_a_family_not_a_guess() -> None:
    catalog = load_model_catalog()
    assert catalog.resolve("falcon") is None
    assert catalog.family("falcon") == ["falcon-7b", "falcon-40b"]
    assert catalog.resolve("opt") is None
    assert catalog.family("opt") == ["opt-6.7b", "opt-13b", "opt-30b"]


@pytest.mark.parametrize("model_id", ADDED)
def test_added_entry_is_a_sourced_llm(model_id: str) -> None:
    spec = load_model_catalog().get(model_id)
    assert spec.kind == "llm"
    assert spec.source.startswith("https://huggingface.co/") and " " not in spec.source
    assert spec.notes
    assert spec.default_context == spec.max_context


# (params_b, layers, hidden, intermediate, heads, kv_heads, head_dim, vocab, context), from the configs and
# model cards named in each entry's source and notes.
FIGURES = {
    "gpt-j-6b": (6.05, 28, 4096, 16384, 16, 16, 256, 50400, 2048),
    "gpt-neox-20b": (20.55, 44, 6144, 24576, 64, 64, 96, 50432, 2048),
    "falcon-7b": (6.92, 32, 4544, 18176, 71, 1, 64, 65024, 2048),
    "falcon-40b": (41.3, 60, 8192, 32768, 128, 8, 64, 65024, 2048),
    "starcoder-15b": (15.5, 40, 6144, 24576, 48, 1, 128, 49152, 8192),
    "mpt-7b": (6.65, 32, 4096, 16384, 32, 32, 128, 50432, 2048),
    "tinyllama-1.1b": (1.1, 22, 2048, 5632, 32, 4, 64, 32000, 2048),
    "opt-6.7b": (6.66, 32, 4096, 16384, 32, 32, 128, 50272, 2048),
    "opt-13b": (12.85, 40, 5120, 20480, 40, 40, 128, 50272, 2048),
    "opt-30b": (29.97, 48, 7168, 28672, 56, 56, 128, 50272, 2048),
}


@pytest.mark.parametrize(("model_id", "figures"), FIGURES.items())
def test_figures_are_the_sourced_ones(model_id: str, figures: tuple[float, ...]) -> None:
    m = load_model_catalog().get(model_id)
    assert (
        m.params_b,
        m.layers,
        m.hidden_size,
        m.intermediate_size,
        m.attention_heads,
        m.kv_heads,
        m.head_dim,
        m.vocab_size,
        m.max_context,
    ) == figures
    assert m.attention_heads is not None and m.head_dim is not None
    assert m.attention_heads * m.head_dim == m.hidden_size


def _count(
    m: ModelSpec,
    *,
    gated: bool,
    attn_bias: bool,
    mlp_bias: bool,
    norm_bias: bool,
    norms: int,
    tied: bool,
    lm_bias: bool = False,
    positions: int = 0,
) -> int:
    """Parameters of a decoder-only transformer from its shape: attention (Q, K, V, O), MLP (two matrices,
    three when ``gated``), ``norms`` LayerNorm/RMSNorm vectors of ``hidden`` per block plus the final one
    (weight and bias when ``norm_bias``), token embeddings (twice when the LM head is untied) and learned
    position embeddings."""
    h, i, v = m.hidden_size, m.intermediate_size, m.vocab_size
    assert h and i and v and m.attention_heads and m.kv_heads and m.head_dim and m.layers
    q, kv = m.attention_heads * m.head_dim, m.kv_heads * m.head_dim
    attention = h * (q + 2 * kv) + q * h + ((q + 2 * kv) + h if attn_bias else 0)
    mlp = (3 if gated else 2) * h * i + (i + h if mlp_bias else 0)
    norm = (2 if norm_bias else 1) * h
    per_layer = attention + mlp + norms * norm
    embeddings = v * h * (1 if tied else 2) + (v if lm_bias else 0) + positions * h
    return m.layers * per_layer + norm + embeddings


_BIASED = dict(attn_bias=True, mlp_bias=True, norm_bias=True)
_NO_LINEAR_BIAS = dict(attn_bias=False, mlp_bias=False, norm_bias=True)
_NO_BIAS = dict(attn_bias=False, mlp_bias=False, norm_bias=False)

# The published counts the computed shapes must meet: the model card's exact figure where it gives one.
PUBLISHED: dict[str, tuple[dict, float]] = {
    # model card: n_parameters 6,053,381,344. GPT-J's Q/K/V/O have no biases, its MLP does; one LayerNorm
    # per block (attention and MLP in parallel); untied LM head with a bias. The shape gives 6,050,882,784,
    # 0.04 % under the card (2,498,560 values the config's shape does not account for).
    "gpt-j-6b": (
        {**_BIASED, "attn_bias": False, "gated": False, "norms": 1, "tied": False, "lm_bias": True},
        6_053_381_344,
    ),
    # model card: n_parameters 20,554,567,680, which the shape gives exactly (biases everywhere, untied head).
    "gpt-neox-20b": ({**_BIASED, "gated": False, "norms": 2, "tied": False}, 20_554_567_680),
    # model card: 7B (Falcon-7B, one LayerNorm per block) and 40B (Falcon-40B, two): no linear biases, LM head
    # tied to the embeddings.
    "falcon-7b": ({**_NO_LINEAR_BIAS, "gated": False, "norms": 1, "tied": True}, 7.0e9),
    "falcon-40b": ({**_NO_LINEAR_BIAS, "gated": False, "norms": 2, "tied": True}, 40.0e9),
    # model card: "15.5B parameter models"; learned positions over 8192 tokens, biases, tied head.
    "starcoder-15b": ({**_BIASED, "gated": False, "norms": 2, "tied": True, "positions": 8192}, 15.5e9),
    # model card: n_parameters 6.7B; no biases at all (its LayerNorms have weights only), tied head.
    "mpt-7b": ({**_NO_BIAS, "gated": False, "norms": 2, "tied": True}, 6.7e9),
    # model card: 1.1B; Llama architecture (SwiGLU, RMSNorm), untied head.
    "tinyllama-1.1b": ({**_NO_BIAS, "gated": True, "norms": 2, "tied": False}, 1.1e9),
    # OPT paper (arXiv:2205.01068) table 1: 6.7B, 13B, 30B; biases, learned positions (a 2050-row table:
    # 2048 tokens and OPT's offset of 2), tied LM head.
    "opt-6.7b": ({**_BIASED, "gated": False, "norms": 2, "tied": True, "positions": 2050}, 6.7e9),
    "opt-13b": ({**_BIASED, "gated": False, "norms": 2, "tied": True, "positions": 2050}, 13.0e9),
    "opt-30b": ({**_BIASED, "gated": False, "norms": 2, "tied": True, "positions": 2050}, 30.0e9),
}


@pytest.mark.parametrize(("model_id", "published"), PUBLISHED.items())
def test_shape_gives_the_published_parameter_count(model_id: str, published: tuple[dict, float]) -> None:
    layout, count = published
    m = load_model_catalog().get(model_id)
    computed = _count(m, **layout)
    # The card's count (rounded ones like "7B" and "40B" within 6 %; exact ones within 0.1 %) …
    tolerance = 0.001 if count % 1e6 else 0.06
    assert computed == pytest.approx(count, rel=tolerance)
    # … and params_b is the computed count, or the card's exact one, to the catalog's two decimals.
    assert m.params_b == pytest.approx(computed / 1e9, abs=0.05)


def test_gpt_neox_shape_gives_the_card_count_exactly() -> None:
    m = load_model_catalog().get("gpt-neox-20b")
    assert _count(m, **PUBLISHED["gpt-neox-20b"][0]) == 20_554_567_680


def test_kv_cache_follows_each_attention_design() -> None:
    catalog = load_model_catalog()
    # Falcon-7B and StarCoder: multi-query, one K/V head → 2 × 1 × head_dim values per token per layer.
    assert catalog.get("falcon-7b").kv_cache_bytes(1) == 32 * 2 * 1 * 64 * 2
    assert catalog.get("starcoder-15b").kv_cache_bytes(1) == 40 * 2 * 1 * 128 * 2
    # Falcon-40B: 8 K/V groups of 64; TinyLlama: GQA with 4 K/V heads of 64.
    assert catalog.get("falcon-40b").kv_cache_bytes(1) == 60 * 2 * 8 * 64 * 2
    assert catalog.get("tinyllama-1.1b").kv_cache_bytes(1) == 22 * 2 * 4 * 64 * 2
    # GPT-J, GPT-NeoX and MPT: full multi-head attention.
    assert catalog.get("gpt-j-6b").kv_cache_bytes(1) == 28 * 2 * 16 * 256 * 2
    assert catalog.get("gpt-neox-20b").kv_cache_bytes(1) == 44 * 2 * 64 * 96 * 2
    assert catalog.get("mpt-7b").kv_cache_bytes(1) == 32 * 2 * 32 * 128 * 2
    assert catalog.get("opt-30b").kv_cache_bytes(1) == 48 * 2 * 56 * 128 * 2


def test_gpt_neox_20b_memory_worked_by_hand() -> None:
    # BF16 weights: 20.55e9 × 2 B = 41.1 GB. KV cache at its 2,048-token context: 44 layers × 2 × 64 heads ×
    # 96 × 2 B = 1,081,344 B a token → 2,214,592,512 B ≈ 2.21 GB.
    est = estimate("gpt-neox-20b", precision="bf16", context=2048)
    assert est.gb_of("weights") == pytest.approx(41.1)
    assert est.gb_of("KV cache") == pytest.approx(2_214_592_512 / GB)


def q(**fields) -> Query:
    return Query(kind="can_run", **fields)


def test_gpt_neox_20b_fits_one_a100_80gb_at_bf16() -> None:
    # ≈41.1 GB of weights (38.3 GiB) + 2.2 GB of cache + runtime: ≈41 GiB of 80 GB.
    report = assess(q(model="gpt-neox-20b", gpus=("a100-80gb-sxm",)))
    verdict = report.verdicts[0]
    assert report.model_id == "gpt-neox-20b"
    assert verdict.fits and verdict.precision == "bf16"
    assert 38.3 < verdict.need_gib < 45


def test_falcon_40b_needs_two_a100_40gb_for_bf16() -> None:
    # 41.3B × 2 B = 82.6 GB of BF16 weights: split over two 40 GB cards (tensor parallel) it fits; one card
    # has to drop below 16 bits.
    two = assess(q(model="falcon 40b", gpus=("a100-40gb-sxm",), gpu_counts=(2,))).verdicts[0]
    one = assess(q(model="falcon 40b", gpus=("a100-40gb-sxm",), gpu_counts=(1,))).verdicts[0]
    assert two.fits and two.precision == "bf16"
    assert one.precision != "bf16"


def test_tinyllama_fits_a_4gb_pascal_card_at_fp16() -> None:
    # 1.1B × 2 B = 2.2 GB of FP16 weights (Pascal has no BF16) + a small GQA cache: ≈3 GiB of 4 GB.
    verdict = assess(q(model="tinyllama", gpus=("gtx-1050-ti",))).verdicts[0]
    assert verdict.fits and verdict.precision == "fp16"
    assert 2.0 < verdict.need_gib < 4.0


def test_gpt_j_lora_fits_a_3090() -> None:
    # LoRA on BF16 weights: 6.05B × 2 B = 12.1 GB (11.3 GiB) + adapters, their optimizer and activations.
    verdict = assess(q(model="gpt-j", gpus=("rtx-3090",), task="llm_finetune")).verdicts[0]
    assert verdict.fits and 11.3 < verdict.need_gib < 24


def test_opt_30b_fits_one_a100_80gb_at_bf16() -> None:
    # 29.97B × 2 B = 59.9 GB (55.8 GiB) of BF16 weights + a full multi-head cache at 2,048 tokens (1.4 GB).
    verdict = assess(q(model="opt-30b", gpus=("a100-80gb-sxm",))).verdicts[0]
    assert verdict.fits and verdict.precision == "bf16"
    assert 55.8 < verdict.need_gib < 65


# Whole questions the reader already brings to these models. TinyLlama, MPT, OPT and GPT-NeoXT-Chat are
# not here: the parser's family words (data/locales/parse.yaml) do not list them yet, so their questions
# fall back to a generic size or no model.
QUESTIONS = [
    ("Can I fine-tune GPT-J on a 3090?", "gpt-j-6b"),
    ("falcon 40b on 2x A100 40GB?", "falcon-40b"),
    ("can falcon-7b run on a 3060?", "falcon-7b"),
    ("starcoder 15b on a 4090?", "starcoder-15b"),
    ("gpt-neox-20b on a single A100 80GB?", "gpt-neox-20b"),
]


@pytest.mark.parametrize(("text", "model_id"), QUESTIONS)
def test_questions_reach_the_added_models(text: str, model_id: str) -> None:
    query = parse(text).query
    assert query is not None and query.kind == "can_run" and query.model == model_id


@pytest.mark.parametrize(
    ("text", "model"),
    [
        # the parser's LLM family words name them in a question (data/locales/parse.yaml llm_families)
        ("tinyllama能在1050ti上跑吗", "tinyllama-1.1b"),
        ("mpt-7b on a 3060?", "mpt-7b"),
        ("GPT-NeoXT-Chat-Base-20B on a 3090?", "gpt-neox-20b"),
    ],
)
def test_a_question_names_the_classic_model(text: str, model: str) -> None:
    from engine.parse import parse

    assert parse(text, standalone=True).query.model == model
