"""Apple's M5 (added 2026-12-06): the first Apple GPU with matrix units, a Neural Accelerator in each of its
10 GPU cores (``MatrixUnit`` "neural_accelerator", architecture ``apple-m5``), at the three memory sizes Apple
sells (16, 24, 32 GB), 153 GB/s. Apple publishes no TFLOPS for it, so compute figures stay out and speeds come
from memory bandwidth; the entries resolve from what people write, and a can-run answer gives a verdict with
decode speed. The M5 Pro and M5 Max are not in (no sourced power figure or base configurations)."""

from __future__ import annotations

import pytest

import engine
from bot.words import english, render
from engine.catalog import Catalog
from engine.parse import parse
from engine.performance import estimate
from engine.query import Query
from engine.support import caveats_for, precisions, software_notes

M5 = ("apple-m5-16gb", "apple-m5-24gb", "apple-m5-32gb")

NAMES = [
    ("m5", "apple-m5-16gb"),
    ("Apple M5", "apple-m5-16gb"),
    ("macbook pro m5", "apple-m5-16gb"),
    ("M5 16GB", "apple-m5-16gb"),
    ("m5 24gb", "apple-m5-24gb"),
    ("24GB M5", "apple-m5-24gb"),
    ("M5 32GB", "apple-m5-32gb"),
    ("32gb m5", "apple-m5-32gb"),
]

QUESTIONS = [
    ("我是24GB M5", ("apple-m5-24gb",)),
    ("M5 MacBook Pro 32GB", ("apple-m5-32gb",)),
    ("macbook pro m5 能跑 qwen 14b 吗", ("apple-m5-16gb",)),
    ("can my m5 run llama 3 8b", ("apple-m5-16gb",)),
    ("M5 24GB vs M4 Pro 48GB", ("apple-m5-24gb", "apple-m4-pro-48gb")),
]

# Questions about the M4 that were read before keep their chips.
UNCHANGED = [
    ("m4", ("apple-m4-16gb",)),
    ("我是24GB M4", ("apple-m4-24gb",)),
    ("M4 MacBook Pro 32GB", ("apple-m4-32gb",)),
]


@pytest.mark.parametrize("gpu_id", M5)
def test_each_size_loads_with_its_sourced_figures(catalog: Catalog, gpu_id: str) -> None:
    gpu = catalog.get(gpu_id)
    total = int(gpu_id.split("-")[-1].removesuffix("gb"))
    assert (gpu.vendor, gpu.architecture, gpu.release_year) == ("apple", "apple-m5", 2025)
    assert gpu.platform == "unified_memory"
    assert (gpu.unified_memory_gb, gpu.memory_gb) == (total, 0.75 * total)  # macOS's default GPU share
    assert (gpu.bandwidth_gbs, gpu.sm_count, gpu.tensor_cores, gpu.tdp_w) == (153, 10, 10, 70)
    sw = gpu.software
    assert (sw.pytorch, sw.mps, sw.mlx, sw.cuda_cc) == ("current", True, True, None)
    assert gpu.launch_price is None  # a Mac's price is a system price
    # the figures as the sources state them
    assert any("apple.com/newsroom/2025/10/apple-unleashes-m5" in s and "153GB/s" in s for s in gpu.sources)
    assert any("Neural Accelerator in each core" in s and "10-core GPU" in s for s in gpu.sources)
    assert any("16GB, 24GB or 32GB" in s for s in gpu.sources)
    assert any("70W USB-C power adapter" in s for s in gpu.sources)
    assert "70 W power adapter of the 14-inch MacBook Pro with M5" in (gpu.notes or "")
    assert "75 %" in (gpu.notes or "")


@pytest.mark.parametrize("gpu_id", M5)
def test_no_compute_figure_apple_does_not_publish(catalog: Catalog, gpu_id: str) -> None:
    gpu = catalog.get(gpu_id)
    figures = (gpu.fp32_tflops, gpu.fp16_tensor_tflops, gpu.fp16_tensor_tflops_fp16acc, gpu.fp8_tensor_tflops)
    assert figures == (None, None, None, None) and gpu.int8_tensor_tops is None
    assert "publishes no FP32 or matrix TFLOPS" in (gpu.notes or "")


def test_the_m5_has_neural_accelerators_and_the_m4_none(catalog: Catalog) -> None:
    m5, m4 = catalog.architectures["apple-m5"], catalog.architectures["apple-m4"]
    assert (m5.features.matrix_unit, m5.features.tensor_core_generation) == ("neural_accelerator", 1)
    # Apple names no precisions for them: nothing beyond FP16 is claimed
    assert (m5.features.int8, m5.features.bf16, m5.features.fp8, m5.features.tf32) == (False, False, False, False)
    assert (m5.tensor_core_gain.value, m5.shared_memory_gain.value) == (1.0, 1.0)
    assert any("Neural Accelerator in each core" in s for s in m5.sources)
    assert any("macOS 26.2" in s for s in m5.software_sources)
    assert m4.features.matrix_unit == "none" and not catalog.get("apple-m4-24gb").has_tensor_cores
    gpu = catalog.get("apple-m5-24gb")
    assert gpu.has_tensor_cores and precisions(gpu, m5) == ("fp16",)


def test_the_spec_card_says_what_the_accelerators_are_in_every_language(catalog: Catalog) -> None:
    notes = software_notes(catalog.get("apple-m5-24gb"))
    assert [n.key for n in notes] == ["support.apple", "support.apple.neural_accelerators", "support.unified.macos"]
    said = english(notes[1])
    assert "Apple M5 GPU" in said and "10 GPU cores has a Neural Accelerator" in said
    assert "macOS 26.2" in said and "no TFLOPS" in said
    assert "神經加速器" in render(notes[1], "zh-Hant") and "神经加速器" in render(notes[1], "zh-Hans")
    assert "support.apple.neural_accelerators" not in {n.key for n in software_notes(catalog.get("apple-m4-24gb"))}


def test_several_m5_sizes_say_the_accelerators_once() -> None:
    keys = [c.key for c in caveats_for(M5)]
    assert keys.count("support.apple.neural_accelerators") == 1
    assert keys.count("support.apple.several") == 1


def test_speed_estimates_come_from_bandwidth(catalog: Catalog) -> None:
    gpu = catalog.get("apple-m5-24gb")
    train = estimate(gpu, "train16")
    assert train.bound == "bandwidth" and train.compute_ceiling is None
    names = {english(f.name) for f in train.factors}
    assert "memory bandwidth" in names
    said = [english(n) for n in train.notes]
    assert not any("No Tensor Cores" in s for s in said)
    assert any("Apple publishes no throughput" in english(f.basis) for f in train.factors)
    decode = estimate(gpu, "decode")
    assert decode.speed < gpu.bandwidth_gbs
    m4 = estimate(catalog.get("apple-m4-24gb"), "decode")
    assert decode.speed > m4.speed  # 153 GB/s against 120


@pytest.mark.parametrize(("text", "gpu_id"), NAMES)
def test_each_resolves_from_the_names_people_write(catalog: Catalog, text: str, gpu_id: str) -> None:
    assert catalog.resolve(text) == gpu_id


@pytest.mark.parametrize(("text", "gpus"), QUESTIONS + UNCHANGED)
def test_questions_name_the_chips(text: str, gpus: tuple[str, ...]) -> None:
    query = parse(text, standalone=True).query
    assert query is not None and query.gpus == gpus


def test_a_can_run_answer_gives_a_verdict_with_decode_speed() -> None:
    answer = engine.advise(Query(kind="can_run", model="llama-3-8b", gpus=("apple-m5-24gb",)))
    assert answer.can_run is not None
    (verdict,) = answer.can_run.verdicts
    assert verdict.gpu_id == "apple-m5-24gb" and verdict.memory_gb == 18
    assert verdict.fits and verdict.decode is not None and verdict.decode.low > 0
    assert verdict.decode.bound <= 153 / 16  # bandwidth over FP16 weights of ~16 GB
    keys = {c.key for c in answer.caveats}
    assert {"support.apple", "support.apple.neural_accelerators", "support.unified.macos"} <= keys
    assert "canrun.note.no_tensor_cores" not in {n.key for n in verdict.notes}
