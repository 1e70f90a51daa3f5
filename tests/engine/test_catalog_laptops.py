"""Laptop GPUs people ask about (RTX 20/30/50 and GTX 10 laptop parts): each has its sourced key specs,
resolves from the names people write, never takes a desktop card's bare name, and whole questions
with a laptop word (English or 笔记本) reach it."""

from __future__ import annotations

import pytest

from engine.catalog import Catalog
from engine.parse import parse

# id → (memory_gb, bandwidth_gbs, tdp_w, cuda_cc) as sourced in data/gpus.yaml.
SPECS = {
    "rtx-2060-laptop": (6, 336, 90, "7.5"),
    "rtx-2070-laptop": (8, 448, 115, "7.5"),
    "rtx-2080-laptop": (8, 448, 150, "7.5"),
    "rtx-3050-laptop": (4, 192, 80, "8.6"),
    "rtx-3070-ti-laptop": (8, 448, 125, "8.6"),
    "rtx-3080-ti-laptop": (16, 512, 150, "8.6"),
    "rtx-5050-laptop": (8, 384, 100, "12.0"),
    "rtx-5060-laptop": (8, 384, 100, "12.0"),
    "gtx-1060-laptop": (6, 192, 80, "6.1"),
}


@pytest.mark.parametrize("gpu_id", sorted(SPECS))
def test_sourced_specs(catalog: Catalog, gpu_id: str) -> None:
    gpu = catalog.get(gpu_id)
    memory, bandwidth, tdp, cc = SPECS[gpu_id]
    assert gpu.memory_gb == memory
    assert gpu.bandwidth_gbs == bandwidth
    assert gpu.tdp_w == tdp
    assert gpu.software.cuda_cc == cc
    assert gpu.form_factor == "mxm"
    assert gpu.gpu_class == "laptop"
    assert gpu.platform == "laptop"
    assert gpu.vendor == "nvidia"
    assert gpu.slot_width is None
    assert gpu.cooling == "laptop"
    assert gpu.sources and all(len(s) > 10 for s in gpu.sources)
    assert gpu.notes is not None and "tdp_w is the top" in gpu.notes


@pytest.mark.parametrize("gpu_id", sorted(SPECS))
def test_laptop_parts_are_not_buyable_cards(catalog: Catalog, gpu_id: str) -> None:
    gpu = catalog.get(gpu_id)
    assert not gpu.buyable(organization=True)
    assert not gpu.buyable(organization=False)


@pytest.mark.parametrize("gpu_id", sorted(SPECS))
def test_bandwidth_matches_bus_and_data_rate(catalog: Catalog, gpu_id: str) -> None:
    gpu = catalog.get(gpu_id)
    assert gpu.memory_bus_bits is not None and gpu.memory_data_rate_gbps is not None
    assert gpu.bandwidth_gbs == gpu.memory_bus_bits * gpu.memory_data_rate_gbps / 8


@pytest.mark.parametrize(
    ("gpu_id", "boost_mhz"),
    [
        ("rtx-2060-laptop", 1200),
        ("rtx-2070-laptop", 1440),
        ("rtx-2080-laptop", 1590),
        ("rtx-3050-laptop", 1740),
        ("rtx-3070-ti-laptop", 1485),
        ("rtx-3080-ti-laptop", 1590),
    ],
)
def test_derived_tensor_figures_at_the_top_boost_clock(catalog: Catalog, gpu_id: str, boost_mhz: int) -> None:
    """SMs x 1024 FLOP/clk x boost (FP16 accumulate); GeForce half-rate FP32 accumulate; INT8 = 2x."""
    gpu = catalog.get(gpu_id)
    assert gpu.sm_count is not None
    fp16acc = gpu.sm_count * 1024 * boost_mhz / 1e6
    assert gpu.fp16_tensor_tflops_fp16acc == pytest.approx(fp16acc, abs=0.06)
    assert gpu.fp16_tensor_tflops == pytest.approx(fp16acc / 2, abs=0.06)
    assert gpu.int8_tensor_tops == pytest.approx(2 * fp16acc, abs=0.06)
    assert gpu.half_rate_fp32_accumulate
    assert gpu.notes is not None and f"{boost_mhz} MHz" in gpu.notes


def test_clock_dependent_figures_left_out_for_blackwell_laptops(catalog: Catalog) -> None:
    for gpu_id in ("rtx-5050-laptop", "rtx-5060-laptop"):
        gpu = catalog.get(gpu_id)
        assert gpu.fp32_tflops is None
        assert gpu.fp16_tensor_tflops is None


# What people type → the laptop id.
LAPTOP_NAMES = [
    ("2060 laptop", "rtx-2060-laptop"),
    ("RTX 2060 Mobile", "rtx-2060-laptop"),
    ("2060m", "rtx-2060-laptop"),
    ("笔记本 2060", "rtx-2060-laptop"),
    ("2070 laptop", "rtx-2070-laptop"),
    ("RTX 2070 Laptop GPU", "rtx-2070-laptop"),
    ("2070 笔记本", "rtx-2070-laptop"),
    ("2080 mobile", "rtx-2080-laptop"),
    ("rtx 2080m", "rtx-2080-laptop"),
    ("3050 laptop", "rtx-3050-laptop"),
    ("RTX 3050 Laptop GPU", "rtx-3050-laptop"),
    ("笔记本 3050", "rtx-3050-laptop"),
    ("3070 Ti laptop", "rtx-3070-ti-laptop"),
    ("3070ti mobile", "rtx-3070-ti-laptop"),
    ("3080 Ti Laptop", "rtx-3080-ti-laptop"),
    ("RTX 3080 Ti Laptop GPU", "rtx-3080-ti-laptop"),
    ("5050 laptop", "rtx-5050-laptop"),
    ("RTX 5050 Laptop GPU", "rtx-5050-laptop"),
    ("5060 laptop", "rtx-5060-laptop"),
    ("RTX 5060 laptop 8GB", "rtx-5060-laptop"),
    ("5060 移动版", "rtx-5060-laptop"),
    ("1060 laptop", "gtx-1060-laptop"),
    ("GTX 1060 Mobile", "gtx-1060-laptop"),
    # the laptop parts already in the catalog keep their names
    ("3070 laptop", "rtx-3070-laptop"),
    ("3080 laptop", "rtx-3080-laptop"),
    ("3050 Ti laptop", "rtx-3050-ti-laptop"),
    ("1660 Ti 笔记本", "gtx-1660-ti-laptop"),
]

# Bare names stay the desktop card.
DESKTOP_NAMES = [
    ("2060", "rtx-2060"),
    ("RTX 2070", "rtx-2070"),
    ("2070", "rtx-2070"),
    ("2080", "rtx-2080"),
    ("3050", "rtx-3050"),
    ("RTX 3050", "rtx-3050"),
    ("3070 Ti", "rtx-3070-ti"),
    ("3080 Ti", "rtx-3080-ti"),
    ("5060", "rtx-5060"),
    ("1060", "gtx-1060-6gb"),
    ("1060 6GB", "gtx-1060-6gb"),
]


@pytest.mark.parametrize(("text", "gpu_id"), LAPTOP_NAMES)
def test_laptop_names_resolve_to_the_laptop_part(catalog: Catalog, text: str, gpu_id: str) -> None:
    assert catalog.resolve(text) == gpu_id


@pytest.mark.parametrize(("text", "gpu_id"), DESKTOP_NAMES)
def test_bare_names_stay_the_desktop_card(catalog: Catalog, text: str, gpu_id: str) -> None:
    assert catalog.resolve(text) == gpu_id


# Whole questions → the cards the parser reads from them.
QUESTIONS = [
    ("I have a laptop with an RTX 2070, can it train YOLO?", ("rtx-2070-laptop",)),
    ("can a 2070 train YOLO?", ("rtx-2070",)),
    ("我的笔记本是2060，能训练yolo吗", ("rtx-2060-laptop",)),
    ("笔记本 3050 能跑 qwen 7B 吗", ("rtx-3050-laptop",)),
    ("3050 4GB 能跑 SD 吗", ("rtx-3050-laptop",)),
    ("RTX 5060 laptop 8GB", ("rtx-5060-laptop",)),
    ("can my 5060 laptop run llama 8B?", ("rtx-5060-laptop",)),
    ("can a 5060 run llama 8B?", ("rtx-5060",)),
    ("RTX 3080 Ti laptop 16GB, can I fine-tune llama 8B?", ("rtx-3080-ti-laptop",)),
    ("can a 3080 ti run llama 8B?", ("rtx-3080-ti",)),
    ("my gaming laptop has a GTX 1060, can it run stable diffusion?", ("gtx-1060-laptop",)),
    ("RTX 2080 Max-Q, any hope for 7B?", ("rtx-2080-laptop",)),
    ("5050 laptop run qwen 7b?", ("rtx-5050-laptop",)),
    ("1660 Ti 笔记本", ("gtx-1660-ti-laptop",)),
]


@pytest.mark.parametrize(("text", "gpus"), QUESTIONS)
def test_questions_reach_the_laptop_parts(text: str, gpus: tuple[str, ...]) -> None:
    query = parse(text).query
    assert query is not None
    assert query.gpus == gpus
