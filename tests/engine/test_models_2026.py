"""Open-weight models of 2025-2026 added to data/models.yaml (Qwen3.5, Qwen3-Next, MiniMax-M2, GLM-4.6/4.7,
Phi-4-mini, FLUX.2 [dev], FLUX.1 Kontext [dev], Z-Image-Turbo; DeepSeek V3.1, the Qwen3 2507 updates,
Magistral Small and Qwen-Image-Edit as aliases of the shapes they share): the names people type resolve,
names that resolved before keep their models, the models left out stay unresolved rather than becoming a
neighbour, and each entry's memory is the figure computed by hand from its config below.

The hybrids (Qwen3.5, Qwen3-Next) use ``linear_attention_layers``: their Gated DeltaNet layers keep a
fixed-size state, not a KV cache, so only the full-attention layers' cache grows with the context."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from bot.words import english
from engine.canrun import assess
from engine.memory import GB, estimate
from engine.model_specs import ModelSpec, load_model_catalog
from engine.parse import parse
from engine.query import Query

# What people type → the catalog id it must resolve to.
NAMES = [
    ("Qwen3.5-27B", "qwen3.5-27b"),
    ("qwen3.5 27b", "qwen3.5-27b"),
    ("qwen 3.5 27b", "qwen3.5-27b"),
    ("Qwen/Qwen3.5-27B", "qwen3.5-27b"),
    ("Qwen3.6-27B", "qwen3.5-27b"),
    ("qwen 27b", "qwen3.5-27b"),
    ("Qwen3.5-35B-A3B", "qwen3.5-35b-a3b"),
    ("qwen3.5 35b", "qwen3.5-35b-a3b"),
    ("Qwen3.6-35B-A3B", "qwen3.5-35b-a3b"),
    ("qwen 35b", "qwen3.5-35b-a3b"),
    ("Qwen3.5-122B-A10B", "qwen3.5-122b-a10b"),
    ("qwen3.5 122b", "qwen3.5-122b-a10b"),
    ("Qwen3.5-397B-A17B", "qwen3.5-397b-a17b"),
    ("qwen3.5 397b", "qwen3.5-397b-a17b"),
    ("Qwen3-Next-80B-A3B-Instruct", "qwen3-next-80b-a3b"),
    ("Qwen/Qwen3-Next-80B-A3B-Thinking", "qwen3-next-80b-a3b"),
    ("qwen3 next", "qwen3-next-80b-a3b"),
    ("qwen3 next 80b", "qwen3-next-80b-a3b"),
    ("MiniMax-M2", "minimax-m2"),
    ("minimax m2", "minimax-m2"),
    ("MiniMaxAI/MiniMax-M2", "minimax-m2"),
    ("MiniMax-M2.1", "minimax-m2"),
    ("minimax m2.5", "minimax-m2"),
    ("GLM-4.6", "glm-4.6"),
    ("glm 4.6", "glm-4.6"),
    ("zai-org/GLM-4.6", "glm-4.6"),
    ("GLM-4.7", "glm-4.6"),
    ("glm 4.7", "glm-4.6"),
    ("Phi-4-mini-instruct", "phi-4-mini"),
    ("phi 4 mini", "phi-4-mini"),
    ("phi4 mini", "phi-4-mini"),
    ("FLUX.2 [dev]", "flux-2-dev"),
    ("FLUX.2-dev", "flux-2-dev"),
    ("flux 2 dev", "flux-2-dev"),
    ("flux 2", "flux-2-dev"),
    ("FLUX.1 Kontext [dev]", "flux-1-kontext-dev"),
    ("FLUX.1-Kontext-dev", "flux-1-kontext-dev"),
    ("flux kontext", "flux-1-kontext-dev"),
    ("Z-Image-Turbo", "z-image-turbo"),
    ("z image turbo", "z-image-turbo"),
    ("Tongyi-MAI/Z-Image-Turbo", "z-image-turbo"),
    # aliases on the shapes they share
    ("DeepSeek-V3.1", "deepseek-v3"),
    ("deepseek v3.1", "deepseek-v3"),
    ("ds v3.1", "deepseek-v3"),
    ("DeepSeek-V3.1-Terminus", "deepseek-v3"),
    ("Qwen3-30B-A3B-Instruct-2507", "qwen3-30b-a3b"),
    ("Qwen3-235B-A22B-Thinking-2507", "qwen3-235b-a22b"),
    ("Qwen3-4B-Instruct-2507", "qwen3-4b"),
    ("Magistral-Small-2506", "mistral-small-3.1-24b"),
    ("magistral small", "mistral-small-3.1-24b"),
    ("Qwen-Image-Edit", "qwen-image"),
    ("qwen image edit", "qwen-image"),
]
ADDED = (
    "qwen3.5-27b",
    "qwen3.5-35b-a3b",
    "qwen3.5-122b-a10b",
    "qwen3.5-397b-a17b",
    "qwen3-next-80b-a3b",
    "minimax-m2",
    "glm-4.6",
    "phi-4-mini",
    "flux-2-dev",
    "flux-1-kontext-dev",
    "z-image-turbo",
)

# Names that resolved before, and must still resolve to the same models.
UNCHANGED = [
    ("deepseek v3", "deepseek-v3"),
    ("glm 4.5", "glm-4.5"),
    ("glm 355b", "glm-4.5"),
    ("qwen 4b", "qwen3-4b"),
    ("qwen 30b", "qwen3-30b-a3b"),
    ("qwen 32b", "qwen3-32b"),
    ("qwen3 30b", "qwen3-30b-a3b"),
    ("flux", "flux-1-dev"),
    ("flux dev", "flux-1-dev"),
    ("qwen image", "qwen-image"),
    ("mistral small", "mistral-small-3.1-24b"),
    ("phi 3.8b", "phi-3-mini"),
    ("kimi k2", "kimi-k2"),
]

# Models left out (docs/data.md says why): none of these may resolve to a neighbour.
LEFT_OUT = [
    "DeepSeek V4 Flash",
    "deepseek v4 flash",
    "DeepSeek-V4-Pro",
    "ds v4",
    "DeepSeek-V3.2",
    "deepseek v3.2",
    "kimi k2.5",
    "Kimi-K2-Thinking",
    "GLM-5",
    "glm 4.7 flash",
    "qwen3 27b",
    "qwen3.5 9b",
    "gemma 3n",
    "HunyuanImage 3.0",
]


@pytest.mark.parametrize(("name", "model_id"), NAMES)
def test_name_resolves(name, model_id):
    assert load_model_catalog().resolve(name) == model_id


@pytest.mark.parametrize(("name", "model_id"), UNCHANGED)
def test_existing_names_keep_their_models(name, model_id):
    assert load_model_catalog().resolve(name) == model_id


@pytest.mark.parametrize("name", LEFT_OUT)
def test_a_model_left_out_is_not_guessed(name):
    assert load_model_catalog().resolve(name) is None


@pytest.mark.parametrize("model_id", ADDED)
def test_added_entry_is_sourced(model_id):
    spec = load_model_catalog().get(model_id)
    assert spec.source.startswith("https://huggingface.co/")
    assert spec.notes


def test_a_size_less_qwen35_is_its_family():
    catalog = load_model_catalog()
    assert catalog.resolve("qwen3.5") is None
    assert catalog.family("qwen3.5") == ["qwen3.5-27b", "qwen3.5-35b-a3b", "qwen3.5-122b-a10b", "qwen3.5-397b-a17b"]


# ---- the hybrids: only full-attention layers keep a KV cache --------------------------------------------


def test_qwen35_27b_keeps_a_cache_in_its_16_full_attention_layers_only():
    # config: 64 layers, full_attention_interval 4 → 16 full-attention + 48 Gated DeltaNet layers;
    # 4 KV heads × head_dim 256 → 2 × 4 × 256 = 2048 values per token per full layer.
    # Per token at 16 bits: 16 × 2048 × 2 B = 65,536 B (64 KiB), a quarter of 64 layers × 2048 × 2 = 262,144 B.
    spec = load_model_catalog().get("qwen3.5-27b")
    assert (spec.layers, spec.linear_layers, spec.global_layers) == (64, 48, 16)
    assert spec.kv_cache_bytes(1) == 16 * 2 * 4 * 256 * 2 == 65_536
    # At the default 8,192 tokens: 65,536 × 8,192 = 536,870,912 B ≈ 0.537 GB; weights at BF16: 27e9 × 2 = 54.0 GB.
    est = estimate("qwen3.5-27b", precision="bf16", context=8192)
    assert est.gb_of("KV cache") == pytest.approx(536_870_912 / GB)
    assert est.gb_of("weights") == pytest.approx(54.0)
    basis = english(est.term("KV cache").basis)
    assert "48 linear-attention (Gated DeltaNet) layers keep no KV cache" in basis


@pytest.mark.parametrize(
    ("model_id", "full_layers", "kv_heads", "per_token"),
    [
        # Qwen3.5-35B-A3B: 40 layers → 10 full; 2 KV heads × 256 → 10 × 2 × 2 × 256 × 2 B = 20,480 B
        ("qwen3.5-35b-a3b", 10, 2, 20_480),
        # Qwen3.5-122B-A10B: 48 layers → 12 full → 12 × 1024 × 2 B = 24,576 B
        ("qwen3.5-122b-a10b", 12, 2, 24_576),
        # Qwen3.5-397B-A17B: 60 layers → 15 full → 15 × 1024 × 2 B = 30,720 B
        ("qwen3.5-397b-a17b", 15, 2, 30_720),
        # Qwen3-Next-80B-A3B: 48 layers → 12 full → 12 × 1024 × 2 B = 24,576 B
        ("qwen3-next-80b-a3b", 12, 2, 24_576),
    ],
)
def test_moe_hybrid_kv_cache_per_token(model_id, full_layers, kv_heads, per_token):
    spec = load_model_catalog().get(model_id)
    assert spec.global_layers == full_layers == spec.layers // 4
    assert spec.kv_cache_bytes(1) == full_layers * 2 * kv_heads * 256 * 2 == per_token


def test_qwen35_35b_a3b_full_native_context():
    # 262,144 tokens × 20,480 B = 5,368,709,120 B ≈ 5.37 GB of KV cache; 35e9 × 2 B = 70 GB of BF16 weights.
    est = estimate("qwen3.5-35b-a3b", precision="bf16", context=262_144)
    assert est.gb_of("KV cache") == pytest.approx(5_368_709_120 / GB)
    assert est.gb_of("weights") == pytest.approx(70.0)
    assert not est.notes  # within max_context


def test_linear_attention_layers_must_leave_a_full_attention_layer():
    base = dict(
        id="x",
        name="X",
        family="x",
        kind="llm",
        params_b=1.0,
        layers=4,
        hidden_size=64,
        attention_heads=4,
        kv_heads=2,
        head_dim=16,
        vocab_size=100,
        default_context=1024,
        max_context=1024,
        source="https://example.org",
    )
    assert ModelSpec(**base, linear_attention_layers=3).global_layers == 1
    with pytest.raises(ValidationError, match="leave no full-attention layer"):
        ModelSpec(**base, linear_attention_layers=4)
    with pytest.raises(ValidationError, match="leave no full-attention layer"):
        ModelSpec(**base, sliding_window=8, sliding_window_layers=2, linear_attention_layers=2)


# ---- the dense-attention models --------------------------------------------------------------------------


def test_minimax_m2_ships_in_fp8_with_a_full_attention_cache():
    # config: 62 layers, all full attention, 8 KV heads × 128 → 62 × 2 × 8 × 128 × 2 B = 253,952 B a token.
    # Weights as released (FP8): 230e9 × 1 B = 230 GB; KV at 8,192 tokens: 253,952 × 8,192 = 2,080,374,784 B.
    spec = load_model_catalog().get("minimax-m2")
    assert spec.release_precision == "fp8" and not spec.linear_layers
    assert spec.kv_cache_bytes(1) == 62 * 2 * 8 * 128 * 2 == 253_952
    est = estimate("minimax-m2", precision="fp8", context=8192)
    assert est.gb_of("weights") == pytest.approx(230.0)
    assert est.gb_of("KV cache") == pytest.approx(2_080_374_784 / GB)


def test_glm_46_is_glm_45_with_a_200k_context():
    catalog = load_model_catalog()
    new, old = catalog.get("glm-4.6"), catalog.get("glm-4.5")
    assert new.kv_values_per_token_layer == old.kv_values_per_token_layer == 2 * 8 * 128
    assert (new.max_context, old.max_context) == (202_752, 131_072)
    # The whole 202,752-token context: 92 layers × 2048 values × 2 B = 376,832 B a token → 76.4 GB.
    assert new.kv_cache_bytes(202_752) == 92 * 2048 * 2 * 202_752 == 76_403_441_664


def test_phi_4_mini_uses_gqa():
    # 32 layers × 2 × 8 KV heads × 128 × 2 B = 131,072 B a token (Phi-3 Mini, full MHA: 32 × 2 × 32 × 96 × 2 =
    # 393,216 B). BF16 weights: 3.8e9 × 2 = 7.6 GB.
    catalog = load_model_catalog()
    assert catalog.get("phi-4-mini").kv_cache_bytes(1) == 131_072
    assert catalog.get("phi-3-mini").kv_cache_bytes(1) == 393_216
    assert estimate("phi-4-mini", precision="bf16").gb_of("weights") == pytest.approx(7.6)


@pytest.mark.parametrize(
    ("model_id", "params_b"), [("flux-2-dev", 32.0), ("flux-1-kontext-dev", 12.0), ("z-image-turbo", 6.0)]
)
def test_diffusion_weights_are_the_model_card_counts(model_id, params_b):
    # Weights at BF16 = params × 2 B; a diffusion model has no KV cache, only the 3 GB activation allowance.
    est = estimate(model_id, precision="bf16")
    assert est.gb_of("weights") == pytest.approx(params_b * 2)
    assert est.gb_of("KV cache") == 0.0
    assert est.gb_of("activations") == pytest.approx(3.0)


# ---- whole can-run checks --------------------------------------------------------------------------------


def q(**fields) -> Query:
    return Query(kind="can_run", **fields)


def test_qwen35_27b_fits_a_24gb_card_at_q6_k():
    # 27B at Q6_K (6.5625 bits): 27e9 × 6.5625 / 8 = 22.15 GB = 20.6 GiB of weights; the 16 full-attention
    # layers' cache at 8K is 0.54 GB (0.5 GiB), activations 0.06 GB, runtime 1 GB (0.93 GiB): ≈22.1 GiB of 24.
    # Q8_0 (8.5 bits: 28.7 GB of weights alone) does not fit, so Q6_K is the best rung.
    verdict = assess(q(model="qwen3.5 27b", gpus=("rtx-4090",))).verdicts[0]
    assert verdict.fits and verdict.precision == "q6_k"
    assert 21.9 < verdict.need_gib < 22.3


def test_minimax_m2_needs_more_than_one_80gb_card():
    # 230B: even Q2_K (3.35 bits) is ≈96 GB of weights.
    report = assess(q(model="minimax m2", gpus=("h100-sxm",)))
    assert report.model_id == "minimax-m2" and not report.verdicts[0].fits


@pytest.mark.parametrize("name", ["DeepSeek V4", "Kimi K2.5", "GLM-5", "DeepSeek-V3.2"])
def test_a_version_we_lack_of_a_known_model_is_not_weighed_as_a_7b(name):
    # DeepSeek V4 Flash has 284B parameters: a 7B stand-in's "yes" would be wrong. A version or variant of a
    # model we know is said to be unknown, with the close names, and the card's reach; "Time-LLM" (no close
    # name) is still weighed as a 7B (tests/engine/test_canrun.py).
    report = assess(q(model=name, gpus=("rtx-4090",), task="llm_inference"))
    keys = report.headline.all_keys()
    assert report.model_id is None and report.suggestions
    assert "canrun.unknown.as_7b" not in keys and report.lean is None
    project = assess(q(model="Time-LLM", gpus=("rtx-4090",), task="llm_inference"))
    assert "canrun.unknown.as_7b" in project.headline.all_keys()


# ---- the parser finds the new names in a question --------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "model", "gpus"),
    [
        ("can 2 x H100 run MiniMax M2?", "minimax-m2", ("h100-sxm",)),  # "M2" is the model's, not an Apple chip
        ("can my 4090 run minimax-m2?", "minimax-m2", ("rtx-4090",)),
        ("can my 4090 run MiniMax-M2.5?", "minimax-m2", ("rtx-4090",)),
        ("can my M2 run llama 3 8b", "llama-3-8b", ("apple-m2-8gb",)),  # still the chip
        ("can my 4090 run FLUX.2 dev?", "flux-2-dev", ("rtx-4090",)),  # not FLUX.1 [dev]
        ("can my 4090 run FLUX.1 Kontext [dev]?", "flux-1-kontext-dev", ("rtx-4090",)),
        ("can my 4090 run flux kontext?", "flux-1-kontext-dev", ("rtx-4090",)),
        ("can my 4090 run FLUX.1 [dev]?", "flux-1-dev", ("rtx-4090",)),
        ("can my 3090 run z image turbo", "z-image-turbo", ("rtx-3090",)),
        ("can my 4090 run qwen3 next?", "qwen3-next-80b-a3b", ("rtx-4090",)),
        ("can my 4090 run magistral small", "mistral-small-3.1-24b", ("rtx-4090",)),
        ("can my 4090 run deepseek v3.1?", "deepseek-v3", ("rtx-4090",)),
        ("will glm 4.7 run on 4x 3090", "glm-4.6", ("rtx-3090",)),
        ("can my 4090 run kimi k2.5?", "kimi k2.5", ("rtx-4090",)),  # unknown as typed, not Kimi K2
    ],
)
def test_the_parser_reads_the_new_names(text, model, gpus):
    query = parse(text).query
    assert query is not None and query.model == model and query.gpus == gpus


@pytest.mark.parametrize(
    ("name", "model_id"),
    [
        # Ollama's deepseek-r1 tags (https://ollama.com/library/deepseek-r1): 1.5b-70b are the distills, 671b is R1
        ("deepseek-r1:32b", "deepseek-r1-distill-qwen-32b"),
        ("deepseek 32b", "deepseek-r1-distill-qwen-32b"),
        ("deepseek r1 70b", "deepseek-r1-distill-llama-70b"),
        ("deepseek 8b", "deepseek-r1-distill-llama-8b"),
        ("deepseek 671b", "deepseek-r1"),
        ("满血版deepseek", "deepseek-r1"),  # "the full-strength DeepSeek": the 671B model, not a distill
    ],
)
def test_deepseek_by_its_ollama_tag_or_size_is_the_model_that_tag_pulls(name: str, model_id: str) -> None:
    assert load_model_catalog().resolve(name) == model_id
