"""engine.canrun: verdicts per GPU, the quality ladder, alternatives, and speed sanity checks."""

from __future__ import annotations

import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

from engine.canrun import (
    DECODE_EFFICIENCY,
    CanRunReport,
    assess,
    cheapest_setups,
    decode_speed,
    ladder,
    prefill_speed,
    training_time,
)
from engine.catalog import load_catalog
from engine.model_specs import load_model_catalog
from engine.money import Money
from engine.query import Query


def q(**fields) -> Query:
    return Query(kind="can_run", **fields)


def spec(model_id: str):
    return load_model_catalog().get(model_id)


# --- speed sanity checks ------------------------------------------------------------------------


def test_decode_llama2_7b_fp16_on_4090():
    # RTX 4090: 1008 GB/s (NVIDIA Ada whitepaper); Llama 2 7B fp16 = 13.48 GB read per token →
    # 74.8 tokens/s upper bound. Our range is that bound × 60-80 %; llama.cpp's published CUDA
    # results for 7B F16 on a 4090 (~55-60 t/s, tg128) fall inside it. Tolerance: the stated range.
    speed = decode_speed("llama-2-7b", "rtx-4090", "fp16", context=1)
    assert speed.bound == pytest.approx(1008 / 13.48, rel=0.005)
    assert speed.low == pytest.approx(speed.bound * DECODE_EFFICIENCY[0], rel=0.01)
    assert speed.high == pytest.approx(speed.bound * DECODE_EFFICIENCY[1], rel=0.01)
    assert speed.low < 57 < speed.high


def test_decode_slows_with_context_and_splits_over_tensor_parallel():
    short = decode_speed("llama-3.1-8b", "rtx-4090", "bf16", context=1)
    long = decode_speed("llama-3.1-8b", "rtx-4090", "bf16", context=131072)
    assert long.high < short.high
    one = decode_speed("llama-3.1-70b", "h100-sxm", "bf16")
    two = decode_speed("llama-3.1-70b", "h100-sxm", "bf16", gpus=2)
    piped = decode_speed("llama-3.1-70b", "h100-sxm", "bf16", gpus=2, split="pipeline")
    assert one.high < two.high < 2 * one.high  # all-reduces cost something
    assert piped.high == pytest.approx(one.high)  # a layer split takes turns


def test_decode_none_without_kv_cache():
    assert decode_speed("sdxl", "rtx-4090", "fp16") is None


def test_prefill_uses_the_precisions_tensor_cores():
    fp16 = prefill_speed("llama-3.1-8b", "h100-sxm", "bf16")
    fp8 = prefill_speed("llama-3.1-8b", "h100-sxm", "fp8")
    assert fp8.bound == pytest.approx(2 * fp16.bound, rel=0.05)
    # A100 has no FP8: FP8 weights run through FP16 Tensor Cores.
    a100_16 = prefill_speed("llama-3.1-8b", "a100-80gb-sxm", "bf16")
    a100_8 = prefill_speed("llama-3.1-8b", "a100-80gb-sxm", "fp8")
    assert a100_8.bound == pytest.approx(a100_16.bound)


def test_training_time_llama2_7b_pretraining():
    # Touvron et al. 2023 (Llama 2), Table 2: 7B pre-training took 184,320 A100-80GB GPU-hours for 2T tokens.
    # 6·N·D (+2·N·D recompute) at 312 TFLOPS × 45-65 % → 148k-213k hours. Tolerance: inside the range.
    # (Without recomputation, 6·N·D alone implies 39 % utilisation, just under the guide's 45 %.)
    time = training_time("llama-2-7b", "a100-80gb-sxm", 2e12, mode="pretrain")
    assert time.hours_low < 184_320 < time.hours_high


def test_lora_training_costs_less_than_full():
    full = training_time("llama-3.1-8b", "rtx-4090", 1e8, mode="full_finetune")
    lora = training_time("llama-3.1-8b", "rtx-4090", 1e8, mode="lora")
    assert lora.flops == pytest.approx(full.flops * 6 / 8)


# --- the ladder ---------------------------------------------------------------------------------


def test_ladder_order_and_eight_bit_kind():
    catalog = load_catalog()
    llm = spec("llama-3.1-8b")
    rungs = [p for _, p in ladder(llm, "inference", catalog.get("rtx-4090"))]
    assert rungs == ["bf16", "fp8", "q6_k", "q5_k_m", "q4_k_m", "q3_k_m"]
    assert [p for _, p in ladder(llm, "inference", catalog.get("rtx-3090"))][1] == "int8"
    assert ladder(llm, "lora") == [("lora", "bf16"), ("qlora", "nf4")]


def test_ladder_starts_at_release_precision():
    fp8_model = spec("deepseek-v3").model_copy(update={"release_precision": "fp8"})
    rungs = [p for _, p in ladder(fp8_model, "inference")]
    assert rungs[0] == "fp8" and "bf16" not in rungs
    mx = spec("gpt-oss-120b").model_copy(update={"release_precision": "mxfp4"})
    assert [p for _, p in ladder(mx, "inference")] == ["mxfp4", "q3_k_m"]


# --- verdicts -----------------------------------------------------------------------------------


def test_70b_on_two_4090s_fits_at_4_bit_not_pooled():
    report = assess(q(model="llama 3.1 70b", gpus=("rtx-4090",), gpu_counts=(2,), task="llm_inference"))
    assert isinstance(report, CanRunReport)
    assert report.model_id == "llama-3.1-70b"
    (verdict,) = report.verdicts
    assert verdict.count == 2 and verdict.fits
    assert verdict.precision == "q4_k_m"
    assert verdict.need_gib <= 24
    assert verdict.decode is not None and verdict.decode.low < verdict.decode.high
    assert "Q4_K_M" in verdict.verdict and "per GPU" in verdict.verdict
    assert any("not pooled" in n for n in verdict.notes)
    # One card alone holds nothing near it.
    single = assess(q(model="llama 3.1 70b", gpus=("rtx-4090",)))
    assert not single.verdicts[0].fits
    assert single.alternatives


def test_8b_on_a_3090_fits_at_bf16_with_speed():
    report = assess(q(model="llama 3.1 8b", gpus=("rtx-3090",)))
    verdict = report.verdicts[0]
    assert verdict.fits and verdict.precision == "bf16"
    assert report.alternatives == ()
    assert report.headline.startswith("RTX 3090: Yes, at BF16")


def test_num_gpus_applies_to_a_single_named_gpu():
    report = assess(q(model="70B", gpus=("rtx-3090",), num_gpus=2))
    assert report.verdicts[0].count == 2


def test_mixed_gpus_are_checked_one_by_one():
    report = assess(q(model="llama 3.1 70b", gpus=("rtx-3090", "rtx-4090"), gpu_counts=(1, 1)))
    assert [v.count for v in report.verdicts] == [1, 1]
    assert any("not pooled" in n for n in report.notes)


def test_memory_only_question():
    report = assess(q(model="llama 3 8b", min_memory_gb=8))
    assert report.verdicts == ()
    memory = report.memory_verdict
    assert memory is not None and memory.fits
    assert memory.precision in ("q6_k", "q5_k_m", "q4_k_m")
    assert memory.need_gib <= 8


def test_bare_size_resolves_to_generic_model():
    report = assess(q(model="70B", gpus=("rtx-3090",), gpu_counts=(2,)))
    assert report.model_id == "generic-70b"
    scaled = assess(q(model="33B", min_memory_gb=24, task="llm_finetune"))
    assert scaled.model_id == "generic-33b"
    assert scaled.model.params_b == 33
    assert scaled.mode == "lora"
    assert scaled.memory_verdict.fits and scaled.memory_verdict.mode == "qlora"


def test_unresolved_model_gets_suggestions():
    report = assess(q(model="mixtral", gpus=("rtx-3090",)))
    assert report.unresolved == "mixtral"
    assert "mixtral-8x7b" in report.suggestions
    assert "mixtral" in report.headline


def test_finetune_defaults_to_lora_and_mentions_qlora():
    report = assess(q(model="mistral 7b", task="llm_finetune", gpus=("rtx-3090",)))
    assert report.mode == "lora" and report.alternative_mode == "qlora"
    assert report.verdicts[0].fits and report.verdicts[0].mode == "lora"
    assert report.verdicts[0].training is not None
    assert any("QLoRA" in n for n in report.notes)
    small = assess(q(model="mistral 7b", task="llm_finetune", gpus=("rtx-3060-12gb",)))
    assert small.verdicts[0].mode == "qlora" and small.verdicts[0].fits


def test_small_non_llm_finetune_is_full():
    report = assess(q(model="bert large", task="llm_finetune", gpus=("rtx-4060-laptop",)))
    assert report.mode == "full_finetune"
    assert report.verdicts[0].fits
    assert any("Laptop" in n for n in report.verdicts[0].notes)


def test_pretraining_70b_on_four_a100s_does_not_fit():
    report = assess(q(model="70B", task="llm_pretrain", gpus=("a100-80gb-sxm",), gpu_counts=(4,)))
    verdict = report.verdicts[0]
    assert report.mode == "pretrain" and not verdict.fits
    assert verdict.needed == (("pretrain", "bf16", 16),)
    assert "16×" in verdict.verdict


def test_no_model_uses_the_guides_floor():
    report = assess(q(task="kaggle", gpus=("gtx-1060-6gb",)))
    assert report.floor is not None and report.floor.gb == 8
    assert "below" in report.headline
    assert assess(q()).headline.startswith("Which model")


def test_alternatives_skip_laptops_and_respect_budget():
    report = assess(q(model="llama 3.1 70b", budget=Money(amount=Decimal(2000), currency="USD")))
    assert report.alternatives
    catalog = load_catalog()
    for alt in report.alternatives:
        assert catalog.get(alt.gpu_id).gpu_class != "laptop"
        assert alt.gpus_usd <= 2000
        assert alt.need_gib <= alt.memory_gb
    assert report.price_date is not None
    cheap = cheapest_setups(spec("llama-3.1-8b"), "inference", "bf16", snapshot="2023-01")
    assert cheap and cheap == sorted(cheap, key=lambda a: a.gpus_usd)


def test_sxm_only_for_organisations():
    for alt in assess(q(model="deepseek r1")).alternatives:
        assert load_catalog().get(alt.gpu_id).form_factor == "pcie"


def test_moe_note_and_speed():
    report = assess(q(model="mixtral 8x7b", gpus=("h100-pcie",)))
    assert any("MoE" in n for n in report.notes)


def test_canrun_does_not_import_the_advisor():
    code = "import sys, engine.canrun; print('engine.advisor' in sys.modules or 'engine.answer' in sys.modules)"
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root)
    assert out.stdout.strip() == "False"
