"""16-bit image-generation inference calibrated on published Stable Diffusion runs (engine.calibration,
data/measurements/diffusion_inference.yaml, docs/models.md §8.4)."""

from __future__ import annotations

import math
import statistics

import pytest

from bot.words import render
from engine import calibration as cal
from engine.catalog import load_catalog
from engine.datafiles import data_dir, read_yaml
from engine.performance import estimate, guide_estimate, relative_speed, speed

# What the fit reproduces, in |log(predicted / measured)| of each card's ratio to its set's reference.
# With the measured cards' own factors (what answers use): every row within 0.12 (≈ ±13 %; OneDiff's batch-1
# RTX 4090 is the largest miss, +12 %, against the same card's 1.92-1.95 elsewhere), median within 0.04.
# With architecture factors alone (what the model explains for unmeasured cards): median within 0.08, at
# least 80 % of the rows within 0.14 (the guide alone: 11 of 28), no row beyond 0.47 (x1.6; the RTX A4000,
# 2080 Ti and 3070 beat their bandwidth; docs/models.md §8.4).
MAX_LOG_ERROR = 0.12
MAX_MEDIAN_LOG_ERROR = 0.04
ARCH_MAX_MEDIAN_LOG_ERROR = 0.08
BAND = 0.14
MIN_SHARE_IN_BAND = 0.8
ARCH_MAX_LOG_ERROR = 0.47


def _sets() -> list[dict]:
    return read_yaml(data_dir() / "measurements" / "diffusion_inference.yaml")["sets"]


def test_rows_resolve_to_catalog_gpus_and_cite_https_sources():
    catalog = load_catalog()
    ids = set(catalog.gpus)
    sets = _sets()
    assert len(sets) >= 3
    for s in sets:
        assert s["source"].startswith("https://"), s["id"]
        assert s["date"] and s["conditions"], s["id"]
        assert s["reference"] in ids, s["id"]
        refs = [r for r in s["rows"] if r["gpu"] == s["reference"]]
        assert len(refs) == 1 and refs[0]["relative"] == 1.0, s["id"]
        for r in s["rows"]:
            assert r["gpu"] in ids, (s["id"], r["gpu"])
            assert r["name"] and r["relative"] > 0, (s["id"], r["gpu"])
            if r.get("it_s") is not None:  # relative is the raw figure over the reference's, to 3 decimals
                ref = refs[0]["it_s"]
                assert r["relative"] == pytest.approx(r["it_s"] / ref, abs=6e-4), (s["id"], r["gpu"])
    assert len(cal.inference_rows()) == sum(len(s["rows"]) for s in sets)


def test_fit_reproduces_the_measured_ratios_within_tolerance():
    fit = cal.inference_fit()
    rows = cal.inference_rows()
    errors = cal.inference_errors(rows, fit)
    assert len(errors) == sum(r.gpu != r.reference for r in rows)
    assert max(map(abs, errors)) <= MAX_LOG_ERROR
    assert statistics.median(map(abs, errors)) <= MAX_MEDIAN_LOG_ERROR
    arch = cal.inference_errors(rows, cal.architecture_only(fit))
    assert max(map(abs, arch)) <= ARCH_MAX_LOG_ERROR
    assert statistics.median(map(abs, arch)) <= ARCH_MAX_MEDIAN_LOG_ERROR
    assert sum(abs(e) <= BAND for e in arch) >= MIN_SHARE_IN_BAND * len(arch)
    guide = cal.inference_errors(rows, None)
    assert statistics.median(map(abs, arch)) < statistics.median(map(abs, guide)) / 2
    assert fit.efficiency["ampere"] == 1.0
    assert set(fit.card_efficiency) == {r.gpu for r in rows}


def test_leave_one_set_out_still_beats_the_guide():
    held_out = cal.leave_one_set_out()
    guide = cal.inference_errors(cal.inference_rows(), None)
    assert statistics.median(map(abs, held_out)) < statistics.median(map(abs, guide))


def test_measured_pairs_come_out_in_the_measured_order():
    """Each measured card at least 10 % faster or slower than its set's reference lands on the same side."""
    for r in cal.inference_rows():
        if r.gpu == r.reference or abs(math.log(r.relative)) < math.log(1.1):
            continue
        assert (cal.calibrated_inference_ratio(r.gpu, r.reference) > 1) == (r.relative > 1), (r.set_id, r.gpu)


def test_rtx_4060_ti_16gb_against_rtx_3060_12gb_follows_the_data():
    """The guide alone says the RTX 3060 12GB is 1.25x the 4060 Ti 16GB (360 vs 288 GB/s). No collected set
    measures the 4060 Ti; Ada's measured cards (the RTX 4060 against the RTX 3060 12GB in Tom's Hardware's
    review, the RTX 4090 against the RTX 3090 in three sets, the RTX 4070, 4070 Ti and 4080 in the crowd set)
    run well above their bandwidth ratio, and the 4060 Ti gets Ada's fitted factor. The 4060 Ti comes out
    faster because, and only if, the Ada cards the data measured beat the guide by more than the 4060 Ti's
    bandwidth deficit."""
    guide_ratio = (
        guide_estimate(load_catalog().get("rtx-4060-ti-16gb"), "infer16").speed
        / guide_estimate(load_catalog().get("rtx-3060-12gb"), "infer16").speed
    )
    ada = cal.inference_fit().efficiency["ada"]
    assert guide_ratio < 1  # the guide's (wrong) answer
    assert (relative_speed("rtx-4060-ti-16gb", "infer16", "rtx-3060-12gb") > 1) == (ada * guide_ratio > 1)
    assert relative_speed("rtx-4060-ti-16gb", "infer16", "rtx-3060-12gb") > 1
    # the RTX 4060, measured, lands near Tom's Hardware's +6 % / +9 %
    assert relative_speed("rtx-4060", "infer16", "rtx-3060-12gb") == pytest.approx(1.075, rel=0.1)


def test_speed_uses_the_corrected_figure_and_says_so():
    catalog = load_catalog()
    for gpu_id in ("rtx-4090", "rtx-4060-ti-16gb", "rtx-3060-12gb", "t4"):
        est = estimate(catalog.get(gpu_id), "infer16", catalog)
        correction = cal.inference_correction(gpu_id)
        assert correction is not None and est.measured_correction == correction
        assert est.speed == pytest.approx(guide_estimate(catalog.get(gpu_id), "infer16").speed * correction)
        assert speed(gpu_id, "infer16") == pytest.approx(est.speed)
        assert any(n.key == "perf.note.measured_inference" for n in est.notes)
    # the 4090 over the 3090 moves from the guide's 1.37x towards the measured 1.6-1.95x
    assert 1.6 <= relative_speed("rtx-4090", "infer16") <= 1.95


def test_unmeasured_architectures_keep_the_guides_figure():
    catalog = load_catalog()
    for gpu_id in ("apple-m2-ultra-192gb", "rx-7900-xtx", "rtx-5090", "h100-sxm"):
        assert cal.inference_correction(gpu_id) is None, gpu_id
        est = estimate(catalog.get(gpu_id), "infer16", catalog)
        assert est.measured_correction is None
        assert est.speed == guide_estimate(catalog.get(gpu_id), "infer16").speed
        assert any(n.key == "perf.note.guide_only" for n in est.notes)


def test_other_workloads_are_untouched():
    catalog = load_catalog()
    for workload in ("infer8", "train16"):
        for gpu_id in ("rtx-4090", "rtx-3060-12gb"):
            est = estimate(catalog.get(gpu_id), workload, catalog)
            assert est.speed == guide_estimate(catalog.get(gpu_id), workload).speed
            assert not any(n.key == "perf.note.measured_inference" for n in est.notes)


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", "Corrected by measurements"), ("zh-Hant", "已用實測修正"), ("zh-Hans", "已用实测修正")],
)
def test_the_note_reads_in_three_languages(lang, words):
    catalog = load_catalog()
    est = estimate(catalog.get("rtx-4060-ti-16gb"), "infer16", catalog)
    note = next(n for n in est.notes if n.key == "perf.note.measured_inference")
    text = render(note, lang)
    assert words in text and "RTX 3090" in text and f"{est.measured_correction:.2f}" in text
    assert "{" not in text
    factor = next(f for f in est.factors if f.value == est.measured_correction)
    assert "{" not in render(factor.name, lang) and "{" not in render(factor.basis, lang)
    guide_only = next(n for n in estimate(catalog.get("rx-7900-xtx"), "infer16", catalog).notes if "guide" in n.key)
    assert render(guide_only, lang)
