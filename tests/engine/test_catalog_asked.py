"""Cards real users asked about that the catalog lacked (added 2026-12-06, ninth session): Intel's Arc Pro B50 and
Arc Pro B70, AMD's Radeon AI PRO R9700, NVIDIA's Tesla P10 and the RTX 3000 Ada Generation Laptop GPU. Each loads
with the figures its sources give, resolves from the names people write, whole questions find it, and names that
already resolved keep their cards ("rtx a3000" is still the Ampere laptop part)."""

from __future__ import annotations

import pytest

from engine.catalog import Catalog
from engine.parse import parse

# id → (vendor, architecture, memory_gb, memory_type, bus bits, bandwidth_gbs, SMs/CUs/Xe cores, matrix units,
#       fp32 TFLOPS, tdp_w, release year)
SPECS = {
    # TechPowerUp, spdup.net, Technical City: 16 GB GDDR6, 128 bit, 224 GB/s, 16 Xe cores, 128 XMX, 10.65 TFLOPS, 70 W
    "arc-pro-b50": ("intel", "xe2-hpg", 16, "GDDR6", 128, 224, 16, 128, 10.65, 70, 2025),
    # zolotukhin.ai, PMZFX's hardware.md: 32 GB GDDR6 ECC, 256 bit, 608 GB/s, 32 Xe cores, 256 XMX, 230 W
    "arc-pro-b70": ("intel", "xe2-hpg", 32, "GDDR6", 256, 608, 32, 256, None, 230, 2026),
    # TechPowerUp (644.6 GB/s, 256 bit, 300 W), ROCm's GPU specs (32 GiB, 64 CUs)
    "radeon-ai-pro-r9700": ("amd", "rdna4", 32, "GDDR6", 256, 644.6, 64, 128, None, 300, 2025),
    # TechPowerUp: GP102, 24 GB GDDR5X, 384 bit, 694.3 GB/s, 30 SMs, 11.47 TFLOPS, 150 W
    "tesla-p10": ("nvidia", "pascal", 24, "GDDR5X", 384, 694.3, 30, 0, 11.47, 150, 2016),
    # TechPowerUp: AD106, 8 GB GDDR6, 128 bit, 256 GB/s, 36 SMs, 144 tensor cores, 15.62 TFLOPS, 115 W
    "rtx-3000-ada-laptop": ("nvidia", "ada", 8, "GDDR6", 128, 256, 36, 144, 15.62, 115, 2023),
}
ADDED = tuple(SPECS)
INTEL = ("arc-pro-b50", "arc-pro-b70")
TECHPOWERUP = ("arc-pro-b50", "radeon-ai-pro-r9700", "tesla-p10", "rtx-3000-ada-laptop")

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
    ("Tesla P10", "tesla-p10"),
    ("p10", "tesla-p10"),
    ("P10 24GB", "tesla-p10"),
    ("RTX 3000 Ada Generation Laptop GPU", "rtx-3000-ada-laptop"),
    ("rtx 3000 ada laptop", "rtx-3000-ada-laptop"),
    ("rtx 3000 ada", "rtx-3000-ada-laptop"),
    ("3000 ada", "rtx-3000-ada-laptop"),
]

QUESTIONS = [
    ("Is the Arc Pro B50 good for running LLMs?", ("arc-pro-b50",)),
    ("b50 16gb for stable diffusion?", ("arc-pro-b50",)),
    ("Intel Arc Pro B70 vs RTX 5090", ("arc-pro-b70", "rtx-5090")),
    ("can a B70 run qwen 32b", ("arc-pro-b70",)),
    ("Is the Radeon AI PRO R9700 good for local LLMs?", ("radeon-ai-pro-r9700",)),
    ("R9700 vs RTX 5090", ("radeon-ai-pro-r9700", "rtx-5090")),
    ("can an r9700 run qwen3 32b", ("radeon-ai-pro-r9700",)),
    ("is a tesla p10 good for llama 13b?", ("tesla-p10",)),
    ("Tesla P10 vs P40", ("tesla-p10", "tesla-p40")),
    ("rtx 3000 ada laptop for stable diffusion", ("rtx-3000-ada-laptop",)),
    ("rtx a3000 laptop vs rtx 3000 ada laptop", ("rtx-a3000-laptop", "rtx-3000-ada-laptop")),
]

# Names that resolved before this session keep their cards.
UNCHANGED = [
    ("B60", "arc-pro-b60"),
    ("B580", "arc-b580"),
    ("arc b570", "arc-b570"),
    ("9070 xt", "rx-9070-xt"),
    ("rx 9070", "rx-9070"),
    ("p40", "tesla-p40"),
    ("p100", "tesla-p100"),
    ("rtx a3000", "rtx-a3000-laptop"),
    ("a3000 laptop", "rtx-a3000-laptop"),
]


@pytest.mark.parametrize("gpu_id", ADDED)
def test_each_card_loads_with_its_sourced_figures(catalog: Catalog, gpu_id: str) -> None:
    gpu = catalog.get(gpu_id)
    vendor, arch, memory, memory_type, bus, bandwidth, units, matrix, fp32, tdp, year = SPECS[gpu_id]
    assert (gpu.vendor, gpu.architecture, gpu.release_year) == (vendor, arch, year)
    assert (gpu.memory_gb, gpu.memory_type, gpu.bandwidth_gbs) == (memory, memory_type, bandwidth)
    assert gpu.memory_bus_bits == bus
    assert (gpu.sm_count, gpu.tensor_cores, gpu.fp32_tflops, gpu.tdp_w) == (units, matrix, fp32, tdp)
    assert catalog.architectures[arch].vendor == vendor
    assert len(gpu.sources) >= 2 and all("(http" in s for s in gpu.sources), gpu_id
    assert gpu.notes
    assert gpu.launch_price is None  # no dated launch price in the sources
    for snapshot in catalog.snapshots.values():
        assert gpu_id not in snapshot.prices, (gpu_id, snapshot.id)


@pytest.mark.parametrize("gpu_id", ADDED)
def test_bandwidth_is_bus_times_data_rate(catalog: Catalog, gpu_id: str) -> None:
    gpu = catalog.get(gpu_id)
    assert gpu.memory_bus_bits is not None and gpu.memory_data_rate_gbps is not None
    assert gpu.bandwidth_gbs == pytest.approx(gpu.memory_bus_bits * gpu.memory_data_rate_gbps / 8, rel=0.01)


@pytest.mark.parametrize("gpu_id", TECHPOWERUP)
def test_techpowerup_figures_are_quoted_with_the_page(catalog: Catalog, gpu_id: str) -> None:
    gpu = catalog.get(gpu_id)
    (tpu,) = [s for s in gpu.sources if "techpowerup.com/gpu-specs/" in s]
    assert "TechPowerUp GPU Database" in tpu
    assert f"{gpu.bandwidth_gbs:.1f} GB/s" in tpu, tpu
    assert f"{gpu.memory_gb:g} GB" in tpu and f"{gpu.tdp_w} W" in tpu


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
    assert "AMD's datasheet was not read" in (r9700.notes or "")  # where the bandwidth comes from, said
    p10 = catalog.get("tesla-p10")
    assert any("huataihuang/cloud-atlas" in s and "14.5 Gbps" in s for s in p10.sources)
    assert (p10.slot_width, p10.power_connector, p10.cooling) == (1, "8pin", "passive")
    ada = catalog.get("rtx-3000-ada-laptop")
    assert any("chipversus.com" in s and "4608" in s for s in ada.sources)


@pytest.mark.parametrize("gpu_id", INTEL)
def test_intel_cards_run_pytorch_through_xpu(catalog: Catalog, gpu_id: str) -> None:
    gpu = catalog.get(gpu_id)
    sw = gpu.software
    assert (sw.pytorch, sw.xpu, sw.cuda_cc, sw.rocm) == ("current", True, None, None)
    assert (gpu.gpu_class, gpu.form_factor, gpu.platform) == ("workstation", "pcie", "desktop")


def test_the_r9700_is_the_rx_9070_xts_chip_on_rocm(catalog: Catalog) -> None:
    """Same Navi 48 (gfx1201) as the RX 9070 XT, with twice the memory; official ROCm, PyTorch's ROCm wheels."""
    r9700, xt = catalog.get("radeon-ai-pro-r9700"), catalog.get("rx-9070-xt")
    sw = r9700.software
    assert (sw.pytorch, sw.rocm, sw.gfx, sw.cuda_cc) == ("current", "official", "gfx1201", None)
    assert (r9700.sm_count, r9700.tensor_cores) == (xt.sm_count, xt.tensor_cores)
    assert r9700.bandwidth_gbs == pytest.approx(xt.bandwidth_gbs, rel=0.01)
    assert r9700.memory_gb == 2 * xt.memory_gb
    assert (r9700.gpu_class, r9700.form_factor, r9700.platform) == ("workstation", "pcie", "desktop")


def test_the_p10_is_a_pascal_server_card_on_the_legacy_build(catalog: Catalog) -> None:
    p10, p40 = catalog.get("tesla-p10"), catalog.get("tesla-p40")
    sw = p10.software
    assert (sw.pytorch, sw.cuda_cc, sw.pytorch_last) == ("legacy", "6.1", None)
    assert (p10.gpu_class, p10.platform, p10.memory_gb) == ("datacenter", "server", p40.memory_gb)
    assert p10.bandwidth_gbs > 2 * p40.bandwidth_gbs - 1  # GDDR5X at 14.5 Gbps against the P40's 7.2 Gbps GDDR5
    assert not p10.has_tensor_cores and p10.int8_tensor_tops is None


def test_the_3000_ada_laptop_is_an_ada_laptop_part_not_the_ampere_a3000(catalog: Catalog) -> None:
    ada, a3000 = catalog.get("rtx-3000-ada-laptop"), catalog.get("rtx-a3000-laptop")
    assert (ada.architecture, ada.software.cuda_cc, a3000.architecture) == ("ada", "8.9", "ampere")
    assert (ada.gpu_class, ada.form_factor, ada.platform, ada.cooling) == ("laptop", "mxm", "laptop", "laptop")
    assert not ada.buyable(organization=True)
    # tensor figures derived at TechPowerUp's boost: 36 SMs x 1024 FLOP/clk x 1695 MHz, FP8/INT8 twice that
    assert ada.fp16_tensor_tflops == pytest.approx(36 * 1024 * 1.695e9 / 1e12, abs=0.05)
    assert ada.fp8_tensor_tflops == ada.int8_tensor_tops == 2 * ada.fp16_tensor_tflops
    assert not ada.half_rate_fp32_accumulate
    assert "1695 MHz" in (ada.notes or "") and "derived" in (ada.notes or "")


@pytest.mark.parametrize(("text", "gpu_id"), NAMES + UNCHANGED)
def test_each_resolves_from_the_names_people_write(catalog: Catalog, text: str, gpu_id: str) -> None:
    assert catalog.resolve(text) == gpu_id


@pytest.mark.parametrize(("text", "gpus"), QUESTIONS)
def test_questions_name_the_cards(text: str, gpus: tuple[str, ...]) -> None:
    query = parse(text, standalone=True).query
    assert query is not None and query.gpus == gpus
