"""engine.memory: the guide's floors, and model memory estimates checked against published figures.

Each cross-check names its source and a tolerance. GB means 1e9 bytes, GiB 2^30 bytes.
"""

from __future__ import annotations

import math

import pytest
from pydantic import ValidationError

from bot.words import english, render
from engine.catalog import load_catalog
from engine.memory import (
    GB,
    GIB,
    MemoryEstimate,
    capacity_gb,
    embedding_params,
    estimate,
    fits,
    get_precision,
    gpus_needed,
    kv_bytes,
    lora_params,
    memory_floor,
)
from engine.model_specs import ModelSpec, load_model_catalog


def spec(model_id: str) -> ModelSpec:
    return load_model_catalog().get(model_id)


def gpu(gpu_id: str):
    return load_catalog().get(gpu_id)


# LLaMA-65B as the QLoRA paper used it (Touvron et al. 2023, Table 2; HF config of llama-65b).
LLAMA_65B = ModelSpec(
    id="llama-65b",
    name="LLaMA 65B",
    family="llama",
    kind="llm",
    params_b=65.2,
    layers=80,
    hidden_size=8192,
    intermediate_size=22016,
    attention_heads=64,
    kv_heads=64,
    head_dim=128,
    vocab_size=32000,
    default_context=2048,
    max_context=2048,
    source="arXiv:2302.13971",
)


# --- the guide's floors (unchanged behaviour) ----------------------------------------------------


def test_memory_floor_prefers_2023_then_2020():
    assert memory_floor("llm_inference").gb == 24 and memory_floor("llm_inference").edition == "2023"
    assert memory_floor("kaggle").gb == 8 and memory_floor("kaggle").edition == "2020"
    assert memory_floor("llm_inference", "2020").gb == 11
    assert memory_floor("image_generation", "2020") is None


def test_memory_floor_rule_is_a_message_in_every_language():
    rule = memory_floor("kaggle").rule
    assert english(rule) == "Guide 2020: Kaggle competitions: ≥ 8 GB"
    assert render(rule, "zh-Hans") == "指南 2020：Kaggle 竞赛：≥ 8 GB"
    assert "RTX 3070, has 8 GB" in english(memory_floor("learning").rule)


# --- published cross-checks ---------------------------------------------------------------------


def test_llama3_8b_kv_cache_per_token_is_128_kib():
    # Llama 3 8B config.json: 32 layers, 8 KV heads, head_dim 128 → 2·32·8·128·2 B = 131,072 B. Exact.
    assert spec("llama-3-8b").kv_cache_bytes(1, kv_bytes("fp16")) == 128 * 1024
    est = estimate("llama-3-8b", "inference", "bf16", context=1)
    assert est.gb_of("KV cache") * GB == pytest.approx(131072)


def test_llama2_7b_kv_cache_4k_and_10k_tokens():
    # NVIDIA, "Mastering LLM Techniques: Inference Optimization" (2023): Llama 2 7B, 16-bit, batch 1,
    # 4096 tokens → "~2 GB" (1·4096·2·32·4096·2 B). Tolerance 1 %.
    est = estimate("llama-2-7b", "inference", "fp16", context=4096)
    assert est.gb_of("KV cache") * GB / GIB == pytest.approx(2.0, rel=0.01)
    # 10,000 tokens: 2·32·32·128·2·10,000 B = 5.24 GB (brief: ≈ 5 GB). Tolerance 1 %.
    est = estimate("llama-2-7b", "inference", "fp16", context=10_000)
    assert est.gb_of("KV cache") == pytest.approx(5.24, rel=0.01)


def test_llama31_kv_cache_at_128k_matches_hugging_face():
    # Hugging Face blog "Llama 3.1 - 405B, 70B & 8B" (2024-07-23), KV cache table, FP16, 128k tokens:
    # 8B 15.62 GB, 70B 39.06 GB. Their "GB" are GiB at 128,000 tokens. Tolerance 1 %.
    for model_id, published in (("llama-3.1-8b", 15.62), ("llama-3.1-70b", 39.06)):
        est = estimate(model_id, "inference", "bf16", context=128_000)
        assert est.gb_of("KV cache") * GB / GIB == pytest.approx(published, rel=0.01)


def test_7b_fp16_inference_footprint():
    # EleutherAI, "Transformer Math 101" (2023): inference memory ≈ 1.2 × weights; 7B at fp16 → 16.8 GB.
    # Llama 2 7B at its full 4K context. Tolerance 10 %.
    est = estimate("llama-2-7b", "inference", "fp16")
    assert est.total_gb == pytest.approx(1.2 * 14, rel=0.10)
    assert 15 <= est.total_gb <= 17


def test_qlora_65b_fits_one_48gb_gpu():
    # Dettmers et al. 2023 (QLoRA), abstract: "finetune a 65B parameter model on a single 48GB GPU".
    # Our footprint must fit 48 GiB (RTX A6000) with the default rank-16 adapters, sequence 2048,
    # and gradient checkpointing; tolerance: 70-100 % of the card's 48 GiB (fits, not trivially).
    a6000 = gpu("rtx-a6000")
    est = estimate(LLAMA_65B, "qlora", "nf4")
    assert fits(est, a6000)
    assert 0.7 * 48 < est.per_gpu_gib <= 48
    # Llama 3 70B (big vocabulary kept in BF16) fits too.
    assert fits(estimate("llama-3-70b", "qlora", "nf4"), a6000)
    # The same base in BF16 (plain LoRA) does not.
    assert not fits(estimate(LLAMA_65B, "lora", "bf16"), a6000)


def test_nf4_bits_per_parameter():
    # QLoRA §3 double quantization: 4 bits + 0.127 bits of constants per parameter.
    assert get_precision("nf4").bits == pytest.approx(4.127)


def test_mixtral_memory_from_total_speed_from_active():
    # Jiang et al. 2024 (Mixtral of Experts): 46.7B total, 12.9B active per token.
    mixtral = spec("mixtral-8x7b")
    assert (mixtral.params_b, mixtral.active_params_b) == (46.7, 12.9)
    est = estimate(mixtral, "inference", "bf16", context=1)
    assert est.gb_of("weights") == pytest.approx(46.7 * 2, rel=1e-6)
    from engine.canrun import decode_speed

    dense = mixtral.model_copy(update={"active_params_b": None, "experts": None, "experts_per_token": None})
    moe_speed = decode_speed(mixtral, "h100-sxm", "bf16", context=1)
    dense_speed = decode_speed(dense, "h100-sxm", "bf16", context=1)
    assert moe_speed.bound / dense_speed.bound == pytest.approx(46.7 / 12.9, rel=0.01)


def test_llama3_70b_q4_k_m_file_size():
    # bartowski/Meta-Llama-3-70B-Instruct-GGUF on Hugging Face: Q4_K_M file 42.52 GB. Tolerance 3 %.
    est = estimate("llama-3-70b", "inference", "q4_k_m")
    assert est.gb_of("weights") == pytest.approx(42.52, rel=0.03)


def test_gguf_bits_reproduce_llama_cpp_sizes():
    # llama.cpp quantize.cpp: LLaMA-v1-7B (6.74B) sizes in GiB. Tolerance 1 %.
    for name, gib in (("q2_k", 2.63), ("q3_k_m", 3.07), ("q4_k_m", 3.80), ("q5_k_m", 4.45), ("q6_k", 5.15)):
        size = 6.74e9 * get_precision(name).bits / 8 / GIB
        assert size == pytest.approx(gib, rel=0.01), name


def test_full_finetune_is_16_bytes_per_param():
    # Rajbhandari et al. 2019 (ZeRO) §3.1: mixed-precision Adam holds 2Ψ + 2Ψ + 12Ψ = 16Ψ bytes;
    # "a 7.5B parameter model ... 120 GB". Exact; 8-bit Adam stores m and v in 1 byte: 6 B/param less.
    seven_half = ModelSpec(
        id="zero-7.5b",
        name="ZeRO 7.5B",
        family="x",
        kind="llm",
        params_b=7.5,
        layers=32,
        hidden_size=4096,
        attention_heads=32,
        kv_heads=32,
        head_dim=128,
        vocab_size=50000,
        default_context=1024,
        max_context=1024,
        source="arXiv:1910.02054",
    )
    est = estimate(seven_half, "full_finetune", "bf16")
    states = est.gb_of("weights") + est.gb_of("gradients") + est.gb_of("optimizer states")
    assert states == pytest.approx(120.0)
    seven = estimate("generic-7b", "full_finetune", "bf16")
    assert sum(seven.gb_of(t) for t in ("weights", "gradients", "optimizer states")) == pytest.approx(112.0)
    eight_bit = estimate("generic-7b", "full_finetune", "bf16", optimizer="adamw_8bit")
    assert seven.gb_of("optimizer states") - eight_bit.gb_of("optimizer states") == pytest.approx(6 * 7.0)
    assert seven.gb_of("activations") > 0


def test_gpt_oss_fits_per_model_card():
    # OpenAI gpt-oss model card (2025-08): MXFP4 experts; 120b "fits into a single 80GB GPU",
    # 20b "runs within 16GB of memory". Full 131,072-token context. Tolerance: fits.
    assert get_precision("mxfp4").bits == pytest.approx(4.25)
    big = estimate("gpt-oss-120b", "inference", "mxfp4", context=131_072)
    assert fits(big, gpu("h100-sxm"))
    small = estimate("gpt-oss-20b", "inference", "mxfp4", context=131_072)
    assert small.per_gpu_gib <= 16


def test_deepseek_v3_mla_kv_cache_is_tiny():
    # DeepSeek-V2 paper (arXiv:2405.04434) Table 1: MLA caches (d_c + d_R)·l = 4.5·d_h·l elements per token
    # against MHA's 2·n_h·d_h·l. V3 config: d_c 512, d_R 64, 128 heads of 128, 61 layers. Exact.
    v3 = spec("deepseek-v3")
    per_token = v3.kv_cache_bytes(1, 2.0)
    assert per_token == 576 * 61 * 2
    mha = 2 * 128 * 128 * 61 * 2
    assert mha / per_token == pytest.approx(56.9, rel=0.01)


def test_llama31_405b_fp16_weights():
    # Hugging Face blog "Llama 3.1 - 405B, 70B & 8B": 405B needs 810 GB in FP16, 405 GB in FP8, 203 GB in INT4.
    # Tolerance 1 % (our count is the safetensors 405.9B).
    for name, published in (("bf16", 810), ("fp8", 405), ("int4", 203)):
        assert estimate("llama-3.1-405b", "inference", name).gb_of("weights") == pytest.approx(published, rel=0.01)


def test_gemma3_sliding_window_kv_savings():
    # Gemma 3 technical report (arXiv:2503.19786) §2, Fig. 5-6: 5 local (1024-token window) layers per
    # global layer bring KV memory from ~60 % overhead to under 15 % at 32K context, i.e. < 1/4 of
    # global-only. Our ratio: (10·32768 + 52·1024) / (62·32768) = 0.19. Tolerance: 0.15-0.25.
    g3 = spec("gemma-3-27b")
    everything_global = g3.model_copy(update={"sliding_window": None, "sliding_window_layers": None})
    ratio = g3.kv_cache_bytes(32768) / everything_global.kv_cache_bytes(32768)
    assert 0.15 < ratio < 0.25


# --- behaviour ----------------------------------------------------------------------------------


def test_terms_carry_their_assumptions():
    est = estimate("llama-3.1-8b", "inference", "q4_k_m")
    assert isinstance(est, MemoryEstimate)
    assert [t.name for t in est.terms] == ["weights", "KV cache", "activations", "runtime overhead"]
    assert all(t.basis for t in est.terms)
    assert "GQA" in english(est.term("KV cache").basis)
    assert est.total_gb == pytest.approx(sum(t.gb for t in est.terms))
    assert est.context == 8192  # default context capped at 8K
    with pytest.raises(ValidationError):
        est.batch = 2  # frozen


def test_model_names_resolve_and_unknown_names_fail_with_suggestions():
    assert estimate("Llama-3.1-8B-Instruct").model_id == "llama-3.1-8b"
    with pytest.raises(ValueError, match="did you mean"):
        estimate("mixtral")


def test_precision_names_and_errors():
    assert get_precision("Q4_K_M").name == "q4_k_m"
    assert get_precision("gptq").bits == pytest.approx(4.25)
    with pytest.raises(ValueError):
        get_precision("q9_z")
    with pytest.raises(ValueError):
        estimate("llama-3.1-8b", "full_finetune", "q4_k_m")
    with pytest.raises(ValueError):
        estimate("llama-3.1-8b", "qlora", "bf16")
    with pytest.raises(ValueError):
        estimate("llama-3.1-8b", "lora", "nf4")


def test_kv_cache_quantization_shrinks_kv_only():
    base = estimate("llama-3.1-8b", "inference", "bf16", context=32768)
    q8 = estimate("llama-3.1-8b", "inference", "bf16", context=32768, kv_precision="q8_0")
    q4 = estimate("llama-3.1-8b", "inference", "bf16", context=32768, kv_precision="q4_0")
    assert q8.gb_of("KV cache") == pytest.approx(base.gb_of("KV cache") * 8.5 / 16)
    assert q4.gb_of("KV cache") == pytest.approx(base.gb_of("KV cache") * 4.5 / 16)
    assert q8.gb_of("weights") == base.gb_of("weights")


def test_batch_scales_kv_cache():
    one = estimate("llama-3.1-8b", "inference", "bf16", batch=1)
    four = estimate("llama-3.1-8b", "inference", "bf16", batch=4)
    assert four.gb_of("KV cache") == pytest.approx(4 * one.gb_of("KV cache"))


def test_tensor_parallel_splits_weights_and_kv_and_repeats_overhead():
    one = estimate("llama-3.1-70b", "inference", "bf16")
    two = estimate("llama-3.1-70b", "inference", "bf16", gpus=2)
    assert two.term("weights").per_gpu_gb == pytest.approx(one.gb_of("weights") / 2)
    assert two.term("KV cache").per_gpu_gb == pytest.approx(one.gb_of("KV cache") / 2)
    assert two.gb_of("runtime overhead") == pytest.approx(2 * one.gb_of("runtime overhead"))
    assert two.per_gpu_gb > one.per_gpu_gb / 2  # never pooled: overhead on every card


def test_kv_heads_are_replicated_beyond_their_count():
    # 8 KV heads over 16 GPUs: each GPU still holds one whole head (1/8 of the cache).
    one = estimate("llama-3.1-405b", "inference", "bf16")
    sixteen = estimate("llama-3.1-405b", "inference", "bf16", gpus=16)
    assert sixteen.term("KV cache").per_gpu_gb == pytest.approx(one.gb_of("KV cache") / 8)


def test_mla_latent_is_replicated_under_tensor_parallel():
    one = estimate("deepseek-v3", "inference", "fp8")
    eight = estimate("deepseek-v3", "inference", "fp8", gpus=8)
    assert eight.term("KV cache").per_gpu_gb == pytest.approx(one.gb_of("KV cache"))
    assert "replicated" in english(eight.term("KV cache").basis)


def test_pipeline_split_takes_whole_layers():
    est = estimate("llama-3.1-70b", "inference", "bf16", gpus=3, split="pipeline")
    full = estimate("llama-3.1-70b", "inference", "bf16")
    assert est.term("weights").per_gpu_gb == pytest.approx(full.gb_of("weights") * 27 / 80)


def test_gpus_needed_never_pools():
    h100 = gpu("h100-sxm")
    # 405B at BF16 is ~812 GB: more than 10 × 80 GiB, so tensor parallel (powers of two) needs 16.
    assert gpus_needed("llama-3.1-405b", h100, "inference", "bf16") == 16
    pipeline = gpus_needed("llama-3.1-405b", h100, "inference", "bf16", split="pipeline")
    assert pipeline is not None and 10 <= pipeline < 16  # 13 of 126 layers per card
    assert gpus_needed("llama-3.1-8b", h100, "inference", "bf16") == 1
    assert gpus_needed("llama-3.1-405b", "rtx-3060-12gb", "inference", "bf16", max_gpus=8) is None


def test_gradient_checkpointing_cuts_activations():
    on = estimate("llama-3.1-8b", "full_finetune", "bf16", context=4096, batch=4)
    off = estimate("llama-3.1-8b", "full_finetune", "bf16", context=4096, batch=4, gradient_checkpointing=False)
    assert off.gb_of("activations") > 5 * on.gb_of("activations") / 2
    # Korthikanti et al. 2022: 34·h bytes per token per layer without recomputation (FlashAttention drops 5as).
    h, layers, tokens = 4096, 32, 4096 * 4
    logits = tokens * 128256 * 8
    assert off.gb_of("activations") * GB == pytest.approx(tokens * layers * 34 * h + logits)


def test_lora_params_from_shapes():
    # Llama 3.1 8B, rank 16, all linear layers: per layer 16·[(4096+4096)·2 + (4096+1024)·2 + (4096+14336)·2
    # + (14336+4096)] = 16·(16384 + 10240 + 36864 + 18432) = 1,310,720; × 32 layers = 41.9M.
    assert lora_params(spec("llama-3.1-8b"), 16, "all-linear") == 41_943_040
    assert lora_params(spec("llama-3.1-8b"), 8, "qv") == 32 * 8 * ((4096 + 4096) + (4096 + 1024))
    est = estimate("llama-3.1-8b", "lora", "bf16")
    assert est.gb_of("LoRA adapters") == pytest.approx(41_943_040 * 4 / GB)
    assert est.gb_of("adapter optimizer states") == pytest.approx(41_943_040 * 8 / GB)


def test_qlora_keeps_embeddings_in_bf16():
    model = spec("llama-3-70b")
    est = estimate(model, "qlora", "nf4")
    emb = embedding_params(model)
    expected = (model.params_b * 1e9 - emb) * 4.127 / 8 + emb * 2
    assert est.gb_of("weights") * GB == pytest.approx(expected)
    assert est.gb_of("dequantization buffer") > 0


def test_non_llm_models_get_an_allowance_and_no_kv_cache():
    est = estimate("sdxl", "inference", "fp16")
    assert est.term("KV cache") is None
    assert est.gb_of("activations") == pytest.approx(3.0)
    assert est.notes


def test_capacity_is_binary_gigabytes():
    assert capacity_gb(gpu("rtx-4090")) == pytest.approx(24 * GIB / GB)


def test_fsdp_shards_lora_adapters_like_the_base_weights():
    """FSDP + QLoRA: over 2 GPUs each holds half the adapters, their gradients and optimizer states
    (they were counted whole on every card); a pipeline holds its layers' share."""
    one = estimate("llama-3.3-70b", "qlora", "nf4")
    two = estimate("llama-3.3-70b", "qlora", "nf4", gpus=2)
    for name in ("LoRA adapters", "adapter gradients", "adapter optimizer states"):
        assert two.gb_of(name) == pytest.approx(one.gb_of(name))  # the whole is the same
        per_gpu = next(t.per_gpu_gb for t in two.terms if t.name == name)
        assert per_gpu == pytest.approx(one.gb_of(name) / 2)
    piped = estimate("llama-3.3-70b", "qlora", "nf4", gpus=3, split="pipeline")
    share = math.ceil(80 / 3) / 80  # Llama 3.3 70B has 80 layers
    adapters = next(t for t in piped.terms if t.name == "LoRA adapters")
    assert adapters.per_gpu_gb == pytest.approx(one.gb_of("LoRA adapters") * share)


# --- FSDP / ZeRO-3 training and FSDP CPU offload (issue #21 item 8) --------------------------------


def test_fsdp_qlora_llama2_70b_on_two_3090s_term_by_term():
    """QLoRA of Llama 2 70B (69.0B params, 80 layers, h 8192, i 28672, 8 KV heads, vocab 32,000) at 2,048
    tokens, batch 1, rank 16 all-linear, sharded over 2 GPUs with FSDP. Worked out by hand:

    embedding + head (BF16)  2 · 32,000 · 8,192 = 0.524288e9 params
    weights   (69.0e9 − 0.524288e9) · 4.127/8 + 0.524288e9 · 2 = 35.32491e9 + 1.048576e9 = 36.37349e9 B; /2 = 18.187 GB
    adapters  per layer 16·[(8192+8192)·2 + (8192+1024)·2 + (8192+28672)·3] = 2,588,672; ·80 = 207,093,760
              fp32 weights 4 B and grads 4 B: 0.828 GB each, /2 = 0.414; AdamW 8 B: 1.657 GB, /2 = 0.828
    activations 2,048 · (80 · 2 · 8,192 + 34 · 8,192) + 2,048 · 32,000 · 8 = 3.2548e9 + 0.5243e9 = 3.779 GB
    dequantization buffer  8,192 · 28,672 · 2 B = 0.470 GB
    gathered layers  one layer = 35.32491e9 / 80 = 0.44156 GB; 2 layers · (1 − 1/2) = 0.442 GB
    runtime  1.0 GB
    total  18.187 + 0.414 + 0.414 + 0.828 + 3.779 + 0.470 + 0.442 + 1.0 = 25.534 GB = 23.78 GiB (of 24 GiB)
    """
    est = estimate("llama-2-70b", "qlora", "nf4", gpus=2, context=2048)
    per_gpu = {t.name: t.per_gpu_gb for t in est.terms}
    assert per_gpu["weights"] == pytest.approx(18.187, abs=0.001)
    assert per_gpu["LoRA adapters"] == pytest.approx(0.414, abs=0.001)
    assert per_gpu["adapter optimizer states"] == pytest.approx(0.828, abs=0.001)
    assert per_gpu["activations"] == pytest.approx(3.779, abs=0.001)  # each GPU runs its own micro-batch
    assert per_gpu["dequantization buffer"] == pytest.approx(0.470, abs=0.001)
    assert per_gpu["gathered layers"] == pytest.approx(0.442, abs=0.001)
    assert est.per_gpu_gb == pytest.approx(25.534, abs=0.002)
    assert est.per_gpu_gib == pytest.approx(23.78, abs=0.01)
    assert "FSDP" in english(est.term("weights").basis)  # sharded, not "tensor parallel"


def test_fsdp_cpu_offload_puts_the_70b_states_in_system_ram():
    """Answer.AI's FSDP + QLoRA setup for a 70B model on two 24 GB cards: CPU offload keeps the sharded
    4-bit weights, adapters and their optimizer states in RAM; the GPUs hold two gathered layers, the
    activations, the dequantization buffer and the runtime. Llama 3.3 70B (70.6B, vocab 128,256) at 2,048:

    embedding + head 2 · 128,256 · 8,192 = 2.101346e9 params; one 4-bit layer (70.6e9 − 2.101346e9) · 4.127/8 / 80
      = 0.44169 GB → gathered 2 · 0.44169 = 0.883 GB
    activations 2,048 · (80·2·8,192 + 34·8,192) + 2,048 · 128,256 · 8 = 3.2548e9 + 2.1013e9 = 5.356 GB
    per GPU 0.883 + 5.356 + 0.470 + 1.0 = 7.709 GB = 7.18 GiB
    RAM: weights 68.4987e9 · 0.515875 + 2.101346e9 · 2 = 35.3368e9 + 4.2027e9 = 39.5395 GB,
      adapters 0.828 + 0.828 + 1.657 = 3.314 GB → 42.85 GB
    Without offload the same run needs 28.69 GB per GPU (26.7 GiB): more than a 24 GB card.
    """
    offloaded = estimate("llama-3.3-70b", "qlora", "nf4", gpus=2, context=2048, offload=True)
    assert offloaded.per_gpu_gb == pytest.approx(7.709, abs=0.003)
    assert offloaded.ram_gb == pytest.approx(42.85, abs=0.01)
    assert offloaded.term("weights").per_gpu_gb == 0 and offloaded.term("weights").gb == pytest.approx(39.54, abs=0.01)
    assert offloaded.term("gathered layers").per_gpu_gb == pytest.approx(0.883, abs=0.001)
    assert fits(offloaded, gpu("rtx-3090"))
    sharded = estimate("llama-3.3-70b", "qlora", "nf4", gpus=2, context=2048)
    assert sharded.per_gpu_gib == pytest.approx(26.72, abs=0.01) and not fits(sharded, gpu("rtx-3090"))
    with pytest.raises(ValueError):
        estimate("llama-3.3-70b", "inference", "q4_k_m", offload=True)


def _answer_ai_rows() -> list[dict]:
    from engine.datafiles import data_dir, read_yaml

    return read_yaml(data_dir() / "measurements" / "multi_gpu.yaml")["fsdp_qlora"]


@pytest.mark.parametrize("row", _answer_ai_rows(), ids=lambda r: f"{r['model']}-b{r['batch']}-{r['context']}")
def test_fsdp_qlora_memory_against_answer_ais_measurements(row):
    """Answer.AI's peak *reserved* memory per GPU (data/measurements/multi_gpu.yaml) includes PyTorch's
    cached free blocks, so it sits above what the tensors need: our estimate must not exceed it (the
    over-count that called FSDP+QLoRA 70B on 2× 24 GB impossible), and stays within 40 % under it.
    Ours (rank 64, train.py's default): 7B 4.42 / 5.36 / 9.12 / 16.64 / 16.26 GiB against 4.98 / 5.21 /
    11.22 / 20.97 / 22.38; 70B with CPU offload at batch 2: 9.23 GiB against 14.92. The 7B at batch 1
    and 2,048 tokens is the one above (+3 %): there the runtime allowance (1 GB) exceeds what PyTorch
    reports, which leaves out the CUDA context."""
    est = estimate(
        row["model"],
        "qlora",
        "nf4",
        gpus=row["gpus"],
        batch=row["batch"],
        context=row["context"],
        lora_rank=64,
        offload=row["cpu_offload"],
    )
    assert 0.6 * row["peak_gib"] <= est.per_gpu_gib <= 1.05 * row["peak_gib"]
    if "cpu_ram_gb" in row:  # "roughly 55GB of CPU RAM for model loading and FSDP CPU offloading"
        assert est.ram_gb < row["cpu_ram_gb"]


def test_apple_silicon_overhead_is_no_cuda_context():
    """On a Mac the runtime term is Metal's (llama.cpp Metal buffers, MLX/MPS allocator), not a CUDA
    context; the allowance is the same 1 GB, said to be one."""
    mac = estimate("llama-3.1-8b", "inference", "q4_k_m", runtime="metal").term("runtime overhead")
    assert mac.basis.key == "memory.basis.overhead_metal"
    assert "CUDA context (" not in english(mac.basis) and "Metal" in english(mac.basis)
    assert mac.per_gpu_gb == pytest.approx(1.0)
    other = estimate("llama-3.1-8b", "inference", "q4_k_m", runtime="other").term("runtime overhead")
    assert "ROCm" in english(other.basis)
