"""The calibration layer (engine.calibration): fitted on published measurements, with its figures
reproduced here as the acceptance targets of issue 22 (docs/models.md, "Calibration")."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine import calibration as cal
from engine.catalog import load_catalog
from engine.performance import estimate, relative_speed


def _within(errors: list[float], share: float = 0.25) -> float:
    return float(np.mean([abs(math.exp(e) - 1) <= share for e in errors]))


def test_measurement_files_cite_a_source_for_every_row():
    catalog = load_catalog()
    for row in cal.training_rows():
        assert row.source.startswith("https://github.com/lambdal/deeplearning-benchmark/blob/")
        catalog.get(row.gpu)
    for row in cal.decode_rows():
        assert row.source.startswith("https://"), row
        catalog.get(row.gpu)
        assert row.tg > 0 and row.weight_bytes > 0


def test_training_fit_beats_the_guide_and_meets_the_target():
    """Lambda's measured 16-bit training (30 card-set rows, RTX 3090 = 1): the guide's model misses by
    a median |log error| of 0.12; the calibrated model by ≤ 0.10 (issue 22's target). Leave one
    architecture out keeps the fit honest: it must still beat the guide's median by itself less than
    +0.05 (it predicts an unseen architecture with the mean efficiency of the others)."""
    rows = cal.training_rows()
    before = float(np.median(np.abs(cal.training_errors(rows, None))))
    after = float(np.median(np.abs(cal.training_errors(rows, cal.training_fit()))))
    loao = float(np.median(np.abs(cal.leave_one_architecture_out(rows))))
    assert before == pytest.approx(0.12, abs=0.01)
    assert after <= 0.10 and after < before / 2
    assert loao < before + 0.05


def test_training_corrections_are_said_and_only_where_measured():
    """The issue's misses: the H100 SXM at 4.9× a 3090 (measured ≈ 4.4×), the RTX 4090 at 1.37×
    (≈ 1.61×), the GTX 1080 Ti penalised far too much (0.17× vs 0.27×). The guide's ratio stays the
    public relative_speed (golden numbers); the correction rides on the estimate, with a note."""
    catalog = load_catalog()
    assert cal.calibrated_ratio("h100-sxm") == pytest.approx(4.37, rel=0.15)
    assert cal.calibrated_ratio("rtx-4090") == pytest.approx(1.61, rel=0.12)
    assert cal.calibrated_ratio("gtx-1080-ti") == pytest.approx(0.27, rel=0.2)
    assert relative_speed("h100-sxm", "train16") == pytest.approx(cal.guide_ratio("h100-sxm"))
    measured = estimate(catalog.get("rtx-4090"), "train16", catalog)
    assert measured.measured_correction is not None and measured.measured_correction > 1.1
    assert any(n.key == "perf.note.measured_training" for n in measured.notes)
    for unmeasured in ("rx-7900-xtx", "apple-m2-ultra-192gb", "rtx-5090"):
        est = estimate(catalog.get(unmeasured), "train16", catalog)
        assert est.measured_correction is None and any(n.key == "perf.note.guide_only" for n in est.notes)


def test_decode_fit_meets_the_target_on_fitted_and_held_out_rows():
    """≥ 30 published decode measurements over ≥ 12 GPUs from NVIDIA, AMD and Apple; ≥ 80 % within
    ±25 %, and the held-out rows (never fitted) reported on their own."""
    rows = cal.decode_rows()
    catalog = load_catalog()
    assert len(rows) >= 30
    assert len({r.gpu for r in rows}) >= 12
    assert {catalog.get(r.gpu).vendor for r in rows} >= {"nvidia", "amd", "apple"}
    fit = cal.decode_fit()
    fitted = tuple(r for r in rows if not r.held_out)
    held = tuple(r for r in rows if r.held_out)
    assert _within(cal.decode_errors(fitted, fit)) >= 0.8
    assert _within(cal.decode_errors(rows, fit)) >= 0.8
    assert len(held) >= 5 and _within(cal.decode_errors(held, fit)) >= 0.7


def test_decode_ranges_come_from_the_spread_of_the_measurements():
    fit = cal.decode_fit()
    lo, hi = fit.spread["all"]
    assert lo < 1 < hi
    gpu = load_catalog().get("rtx-3090")
    c = cal.decode_calibration(gpu, "q4_k_m")
    assert c is not None and c.backend == "llama.cpp-cuda" and 0.6 < c.fraction <= 1.0
    # an Intel card runs llama.cpp's Vulkan backend, whose runs are on AMD cards: that group's share, not none
    arc = cal.decode_calibration(load_catalog().get("arc-b580"), "q4_k_m")
    assert arc is not None and arc.backend == "llama.cpp-vulkan"


def test_a_group_measured_at_many_sizes_has_its_own_per_token_cost():
    """On Apple silicon a 7B Q4_0 runs far below the chip's bandwidth while a 70B F16 reads at ≈ 85 % of it
    (M2 Ultra: 94 tokens/s for 3.56 GiB, 4.81 for 128.48 GiB — XiongjieDai/GPU-Benchmarks-on-LLM-Inference): one
    shared 1 ms per token made the Ultra's share 0.47 and its 70B F16 2-3 tokens/s. Groups whose runs span ≥ 8×
    in model bytes get their own cost; the others keep the shared one."""
    fit = cal.decode_fit()
    assert set(fit.group_overhead_s) == {"llama.cpp-metal", "llama.cpp-metal/ultra"}
    assert fit.overhead("llama.cpp-cuda") == fit.overhead_s == pytest.approx(0.001)
    assert 0.003 < fit.overhead("llama.cpp-metal/ultra") < 0.008 and fit.fraction["llama.cpp-metal/ultra"] > 0.8
    big = next(r for r in cal.decode_rows() if r.gpu == "apple-m2-ultra-192gb" and r.file_gib == 128.48)
    (error,) = cal.decode_errors((big,), fit)
    assert abs(error) < math.log(1.1)  # within 10 % of the measured 4.81 tokens/s
    # held out, never fitted: Llama 3 70B Q4_K_M on the M3 Max (7.65 tokens/s measured)
    m3 = next(r for r in cal.decode_rows() if r.gpu == "apple-m3-max-64gb" and r.file_gib == 39.59)
    assert m3.held_out and abs(cal.decode_errors((m3,), fit)[0]) < math.log(1.1)


def test_decode_workload_is_bandwidth_bound_and_ranks_local_llm_use():
    """RTX 5090 over RTX 3090 at batch-1 decode ≈ 1.9× (1,792 vs 936 GB/s; llama.cpp: 300 vs 158 tok/s).
    The ranking metric is bandwidth × the backend's fitted share, without the fixed per-token cost
    (which matters only for small models): a 7B on an RTX 3060 is 20 % faster than that ratio says."""
    assert relative_speed("rtx-5090", "decode") == pytest.approx(300.4 / 158.2, rel=0.05)
    assert relative_speed("rtx-3060-12gb", "decode") == pytest.approx(75.6 / 158.2, rel=0.25)
    catalog = load_catalog()
    est = estimate(catalog.get("apple-m2-ultra-192gb"), "decode", catalog)
    assert est.bound == "bandwidth" and any(n.key == "perf.note.measured_decode" for n in est.notes)


def test_decode_calibrations_are_shared_per_group_and_their_cache_is_bounded():
    """Issue #24: every card-and-precision pair asked about was kept; the calibration is one per group, shared."""
    from engine import calibration

    catalog = load_catalog()
    a = calibration.decode_calibration(catalog.get("rtx-3090"), "q4_k_m")
    b = calibration.decode_calibration(catalog.get("rtx-4060-ti-16gb"), "q8_0")
    assert a is not None and a is b  # both llama.cpp on CUDA
    assert calibration._decode_calibration.cache_info().maxsize == 512
