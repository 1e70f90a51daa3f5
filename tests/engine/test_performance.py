"""The performance model against the guide's figures."""

from __future__ import annotations

import pytest

from bot.words import english, render
from engine.datafiles import data_dir, read_yaml
from engine.message import msg
from engine.performance import (
    debias,
    estimate,
    relative_speed,
    scaling_efficiency,
    theoretical_speedup,
    throughput,
)
from engine.specs import WORKLOADS


def test_bandwidth_ratio_a100_v100_is_1_73(catalog):
    a100, v100 = catalog.get("a100-40gb-sxm"), catalog.get("v100-16gb")
    assert a100.bandwidth_gbs == 1555 and v100.bandwidth_gbs == 900
    assert round(a100.bandwidth_gbs / v100.bandwidth_gbs, 2) == 1.73


def test_theoretical_range_is_1_78_to_1_87():
    result = theoretical_speedup("a100-40gb-sxm", "v100-16gb")
    assert round(result.low, 2) == 1.78
    assert round(result.high, 2) == 1.87
    assert result.low <= result.point <= result.high


def test_model_a100_over_v100_lies_in_the_theoretical_range():
    assert 1.78 <= relative_speed("a100-40gb-sxm", "train16", "v100-16gb") <= 1.87


def test_debiased_mask_rcnn_from_nvidia_readme_inputs():
    # NVIDIA DeepLearningExamples PyTorch/Segmentation/MaskRCNN README (June 2020, AMP, 8 GPUs):
    # 8x A100 161 img/s at batch 8, 8x V100 (DGX-2) 92 img/s at batch 4.
    result = debias(161 / 92, batch_ratio=8 / 4, eight_gpu=True, network="cnn")
    assert round(result.debiased, 2) == 1.47


def test_debias_inverts_the_guides_corrections():
    # The guide's method, applied to a reported figure that carries one batch doubling and the
    # 8-GPU advantage, returns the guide's debiased values (1.43, 1.70) by construction.
    for guide, network in ((1.43, "cnn"), (1.70, "transformer")):
        overhead = 1.05 if network == "cnn" else 1.07
        reported = guide * 1.136 * overhead
        assert round(debias(reported, batch_ratio=2, eight_gpu=True, network=network).debiased, 2) == guide


def test_batch_doubling_is_13_6_percent():
    assert debias(1.136, batch_ratio=2).debiased == pytest.approx(1.0)
    assert debias(1.0, batch_ratio=4).batch_correction == pytest.approx(1.136**2)


def test_rtx_3090_over_2080_ti_near_guide_figures():
    ratio = relative_speed("rtx-3090", "train16", "rtx-2080-ti")
    assert abs(ratio - 1.5) <= 0.1  # transformers
    assert abs(ratio - 1.57) <= 0.05  # convolutional nets


def test_rtx_4090_is_about_a_third_of_h100_for_8bit_inference():
    assert relative_speed("rtx-4090", "infer8", "h100-sxm") == pytest.approx(0.33, abs=0.05)


def test_fp8_doubles_8bit_inference_only_where_hardware_has_it():
    assert relative_speed("rtx-4090", "infer8", "rtx-4090") == 1.0
    ada = estimate_ratio("rtx-4090")
    ampere = estimate_ratio("rtx-3090")
    assert ada == pytest.approx(2.0)
    assert ampere == pytest.approx(1.0)


def estimate_ratio(gpu_id: str) -> float:
    """The guide's 8-bit over its 16-bit inference: the FP8 factor alone. The engine's infer16 speed also
    carries the measured image-generation correction (engine.calibration, docs/models.md §8.4), which says
    nothing about FP8, so the guide's own 16-bit figure is the baseline here."""
    from engine.catalog import load_catalog
    from engine.performance import guide_estimate, speed

    return speed(gpu_id, "infer8") / guide_estimate(load_catalog().get(gpu_id), "infer16").speed


def test_large_l2_and_tma_factors_are_named(catalog):
    names = {english(f.name) for f in estimate(catalog.get("h100-sxm"), "train16").factors}
    assert {"memory bandwidth", "large L2 cache", "TMA"} <= names
    ampere = {english(f.name) for f in estimate(catalog.get("rtx-3090"), "train16").factors}
    assert "large L2 cache" not in ampere and "TMA" not in ampere


def test_gpus_without_tensor_cores_are_compute_bound(catalog):
    result = estimate(catalog.get("gtx-1080-ti"), "train16")
    assert result.bound == "compute"
    assert result.speed < catalog.get("gtx-1080-ti").bandwidth_gbs
    assert any("No Tensor Cores" in english(n) for n in result.notes)


def test_within_an_architecture_speed_follows_bandwidth():
    ratio = relative_speed("rtx-3080-10gb", "train16", "rtx-3090")
    assert ratio == pytest.approx(760 / 936.2, rel=0.01)


def test_eight_gpus_scale_to_7x_like_the_guides_a100_system():
    assert scaling_efficiency(8) * 8 == pytest.approx(7.0)
    assert scaling_efficiency(1) == 1.0
    assert throughput("rtx-3090", "train16", 2) < 2 * throughput("rtx-3090", "train16", 1)


def test_bad_inputs_raise():
    with pytest.raises(ValueError):
        scaling_efficiency(0)
    with pytest.raises(ValueError):
        debias(-1.0)


def model_keys() -> set[str]:
    """The keys of the models' own message catalog."""
    return set(read_yaml(data_dir() / "locales" / "messages" / "models.yaml"))


def _english_run(text: str) -> bool:
    """Three ordinary English words in a row (names in capitals and figures do not count)."""
    run = 0
    for token in text.split():
        run = run + 1 if token.isalpha() and token.isascii() and not token.isupper() else 0
        if run >= 3:
            return True
    return False


def test_speed_estimates_explain_themselves_in_every_language(catalog):
    estimates = [estimate(catalog.get(gpu), workload, catalog) for gpu in catalog.ids() for workload in WORKLOADS]
    unknown = catalog.get("rtx-3090").model_copy(update={"fp16_tensor_tflops": None})  # no card lacks it today
    estimates.append(estimate(unknown, "train16", catalog))
    said = {m for e in estimates for m in (*e.notes, *(f.name for f in e.factors), *(f.basis for f in e.factors))}
    assert {m.key for m in said} == {k for k in model_keys() if k.startswith("perf.")}
    for message in said:
        for lang in ("zh-Hant", "zh-Hans"):
            text = render(message, lang)
            assert message.key not in text and not _english_run(text), (message.key, lang, text)


def test_architecture_bases_say_what_the_data_says(catalog):
    for arch in catalog.architectures.values():
        if any(catalog.get(g).architecture == arch.id and catalog.get(g).has_tensor_cores for g in catalog.ids()):
            assert english(msg(f"perf.basis.shared_memory.{arch.id}")) == arch.shared_memory_gain.basis
            assert english(msg(f"perf.basis.tensor_cores.{arch.id}")) == arch.tensor_core_gain.basis
