"""Cards real users asked about that the catalog lacked (added 2026-12-06, ninth session): Intel's Arc Pro B50
and Arc Pro B70 and AMD's Radeon AI PRO R9700 workstation cards. Each loads with the figures its sources give,
resolves from the names people write, whole questions find it, and names that already resolved keep their cards."""

from __future__ import annotations

import pytest

from engine.catalog import Catalog
from engine.parse import parse

# id → (vendor, architecture, memory_gb, memory_type, bus bits, bandwidth_gbs, Xe cores, XMX engines, fp32, tdp_w, year)
SPECS = {
    # spdup.net / Technical City: 16 GB GDDR6, 128 bit, 224 GB/s, 16 Xe cores, 128 XMX, 10.65 TFLOPS, 70 W, 2025
    "arc-pro-b50": ("intel", "xe2-hpg", 16, "GDDR6", 128, 224, 16, 128, 10.65, 70, 2025),
    # zolotukhin.ai / PMZFX's hardware.md: 32 GB GDDR6 ECC, 256 bit, 608 GB/s, 32 Xe cores, 256 XMX, 230 W, 2026
    "arc-pro-b70": ("intel", "xe2-hpg", 32, "GDDR6", 256, 608, 32, 256, None, 230, 2026),
    # ROCm's GPU specs (32 GiB, 64 CUs), whichllm's bandwidth table (640 GB/s), Hugging Face's list (300 W), 2025
    "radeon-ai-pro-r9700": ("amd", "rdna4", 32, "GDDR6", None, 640, 64, 128, None, 300, 2025),
}
INTEL = ("arc-pro-b50", "arc-pro-b70")
ADDED = tuple(SPECS)

NAMES = [
    ("Arc Pro B50", "arc-pro-b50"),
    ("arc pro b50", "arc-pro-b50"),
    ("B50", "arc-pro-b50"),
    ("Intel Arc Pro B50", "arc-pro-b50"),
    ("Arc Pro B70", "arc-pro-b70"),
    ("pro b70", "arc-pro-b70"),
    ("B70", "arc-pro-b70"),
    ("b70 32gb", "arc-pro-b70"),
    ("Radeon AI PRO R9700", "radeon-ai-pro-r9700"),
    ("AI PRO R9700", "radeon-ai-pro-r9700"),
    ("r9700", "radeon-ai-pro-r9700"),
    ("R9700 32GB", "radeon-ai-pro-r9700"),
]

QUESTIONS = [
    ("Is the Arc Pro B50 good for running LLMs?", ("arc-pro-b50",)),
    ("b50 16gb for stable diffusion?", ("arc-pro-b50",)),
    ("Intel Arc Pro B70 vs RTX 5090", ("arc-pro-b70", "rtx-5090")),
    ("can a B70 run qwen 32b", ("arc-pro-b70",)),
    ("Is the Radeon AI PRO R9700 good for local LLMs?", ("radeon-ai-pro-r9700",)),
    ("R9700 vs RTX 5090", ("radeon-ai-pro-r9700", "rtx-5090")),
    ("can an r9700 run qwen3 32b", ("radeon-ai-pro-r9700",)),
]

# Names that resolved before this session keep their cards.
UNCHANGED = [
    ("B60", "arc-pro-b60"),
    ("B580", "arc-b580"),
    ("arc b570", "arc-b570"),
    ("9070 xt", "rx-9070-xt"),
    ("rx 9070", "rx-9070"),
]


@pytest.mark.parametrize("gpu_id", ADDED)
def test_each_card_loads_with_its_sourced_figures(catalog: Catalog, gpu_id: str) -> None:
    gpu = catalog.get(gpu_id)
    vendor, arch, memory, memory_type, bus, bandwidth, cores, engines, fp32, tdp, year = SPECS[gpu_id]
    assert (gpu.vendor, gpu.architecture, gpu.release_year) == (vendor, arch, year)
    assert (gpu.memory_gb, gpu.memory_type, gpu.bandwidth_gbs) == (memory, memory_type, bandwidth)
    assert gpu.memory_bus_bits == bus
    assert (gpu.sm_count, gpu.tensor_cores, gpu.fp32_tflops, gpu.tdp_w) == (cores, engines, fp32, tdp)
    assert catalog.architectures[arch].vendor == vendor
    assert len(gpu.sources) >= 3 and all("http" in s for s in gpu.sources), gpu_id
    assert gpu.notes
    assert gpu.launch_price is None  # no dated launch price in the sources
    for snapshot in catalog.snapshots.values():
        assert gpu_id not in snapshot.prices, (gpu_id, snapshot.id)


@pytest.mark.parametrize("gpu_id", INTEL)
def test_bandwidth_is_bus_times_data_rate(catalog: Catalog, gpu_id: str) -> None:
    gpu = catalog.get(gpu_id)
    assert gpu.memory_bus_bits is not None and gpu.memory_data_rate_gbps is not None
    assert gpu.bandwidth_gbs == pytest.approx(gpu.memory_bus_bits * gpu.memory_data_rate_gbps / 8, rel=0.01)


def test_the_sources_behind_the_headline_figures(catalog: Catalog) -> None:
    b50 = catalog.get("arc-pro-b50")
    assert any("224.0 GB/s" in s and "128 bit" in s for s in b50.sources)
    assert any("16 GB GDDR6" in s and "70 W" in s and "128 XMX" in s for s in b50.sources)
    assert any("10.65 TFLOPS" in s for s in b50.sources)
    assert (b50.power_connector, b50.slot_width, b50.pcie_gen) == ("none", 2, 5)
    b70 = catalog.get("arc-pro-b70")
    assert any("32 GB ECC GDDR6" in s and "608 GB/s" in s and "230 W" in s for s in b70.sources)
    assert any("PMZFX/intel-arc-pro-b70-benchmarks" in s and "608 GB/s" in s for s in b70.sources)
    assert "367 INT8 TOPS" in (b70.notes or "") and "$1,299" in (b70.notes or "")
    r9700 = catalog.get("radeon-ai-pro-r9700")
    assert any("rocm.docs.amd.com" in s and "32 GiB" in s and "64 compute units" in s for s in r9700.sources)
    assert any("whichllm" in s and "640.0" in s for s in r9700.sources)
    assert any("95.7 TFLOPS" in s and "datasheet" in s for s in r9700.sources)
    assert any("300W" in s for s in r9700.sources)
    assert "not read from AMD's datasheet" in (r9700.notes or "")  # where the bandwidth comes from, said


@pytest.mark.parametrize("gpu_id", INTEL)
def test_intel_cards_run_pytorch_through_xpu(catalog: Catalog, gpu_id: str) -> None:
    gpu = catalog.get(gpu_id)
    sw = gpu.software
    assert (sw.pytorch, sw.xpu, sw.cuda_cc, sw.rocm) == ("current", True, None, None)
    assert (gpu.gpu_class, gpu.form_factor, gpu.platform) == ("workstation", "pcie", "desktop")


@pytest.mark.parametrize(("text", "gpu_id"), NAMES + UNCHANGED)
def test_each_resolves_from_the_names_people_write(catalog: Catalog, text: str, gpu_id: str) -> None:
    assert catalog.resolve(text) == gpu_id


@pytest.mark.parametrize(("text", "gpus"), QUESTIONS)
def test_questions_name_the_cards(text: str, gpus: tuple[str, ...]) -> None:
    query = parse(text, standalone=True).query
    assert query is not None and query.gpus == gpus


def test_the_r9700_is_the_rx_9070_xts_chip_on_rocm(catalog: Catalog) -> None:
    """Same Navi 48 (gfx1201) as the RX 9070 XT, with twice the memory; official ROCm, PyTorch's ROCm wheels."""
    r9700, xt = catalog.get("radeon-ai-pro-r9700"), catalog.get("rx-9070-xt")
    sw = r9700.software
    assert (sw.pytorch, sw.rocm, sw.gfx, sw.cuda_cc) == ("current", "official", "gfx1201", None)
    assert (r9700.sm_count, r9700.tensor_cores, r9700.bandwidth_gbs) == (xt.sm_count, xt.tensor_cores, xt.bandwidth_gbs)
    assert r9700.memory_gb == 2 * xt.memory_gb
    assert (r9700.gpu_class, r9700.form_factor, r9700.platform) == ("workstation", "pcie", "desktop")
