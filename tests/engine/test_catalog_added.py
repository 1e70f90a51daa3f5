"""Cards added for names real users type (China-market A800/H800/5090 D, modded 22 GB / 48 GB cards,
old and laptop parts): each resolves from the names people write, whole questions find it, and its
key specs are the sourced values in data/gpus.yaml."""

from __future__ import annotations

import pytest

from engine.catalog import Catalog
from engine.parse import parse

# What people type → the catalog id it must resolve to.
NAMES = [
    # A800: the China-market A100 (NVLink limited to 400 GB/s)
    ("A800", "a800-80gb-sxm"),
    ("a800", "a800-80gb-sxm"),
    ("A800-SXM4-80GB", "a800-80gb-sxm"),
    ("A800 80G", "a800-80gb-sxm"),
    ("A800 80GB", "a800-80gb-sxm"),
    ("NVIDIA A800", "a800-80gb-sxm"),
    ("A800 PCIe", "a800-80gb-pcie"),
    ("A800 PCIe 80GB", "a800-80gb-pcie"),
    ("A800 40G", "a800-40gb-pcie"),
    ("A800 40GB PCIe", "a800-40gb-pcie"),
    # H800: the China-market H100
    ("H800", "h800-sxm"),
    ("H800 SXM5", "h800-sxm"),
    ("H800 80GB", "h800-sxm"),
    ("H800 PCIe", "h800-pcie"),
    # RTX 5090 D and the 24 GB V2
    ("5090D", "rtx-5090-d"),
    ("5090 D", "rtx-5090-d"),
    ("RTX 5090D", "rtx-5090-d"),
    ("5090D 32G", "rtx-5090-d"),
    ("5090D 24G", "rtx-5090-d-v2"),
    ("5090D V2", "rtx-5090-d-v2"),
    ("RTX 5090 D V2", "rtx-5090-d-v2"),
    # modified cards sold in China
    ("2080ti 22g", "rtx-2080-ti-22gb"),
    ("2080ti 魔改22G", "rtx-2080-ti-22gb"),
    ("2080 Ti 22GB", "rtx-2080-ti-22gb"),
    ("4090 48GB", "rtx-4090-48gb"),
    ("4090 48G", "rtx-4090-48gb"),
    ("RTX 4090 48GB", "rtx-4090-48gb"),
    ("4090D 48G", "rtx-4090-d-48gb"),
    ("4090 D 48GB", "rtx-4090-d-48gb"),
    # older and laptop parts
    ("GTX 750 Ti", "gtx-750-ti"),
    ("750ti", "gtx-750-ti"),
    ("GT 650M", "gt-650m"),
    ("GT 650M 1GB", "gt-650m"),
    ("GT 650M 2GB", "gt-650m-2gb"),
    ("Titan X (Pascal)", "titan-x-pascal"),
    ("Titan X Pascal", "titan-x-pascal"),
    ("3050ti", "rtx-3050-ti-laptop"),
    ("3050 Ti Laptop", "rtx-3050-ti-laptop"),
    ("RTX 3050 Ti", "rtx-3050-ti-laptop"),
    ("笔记本 3050ti", "rtx-3050-ti-laptop"),
    # names that already resolved and must keep doing so
    ("Jetson AGX Orin", "jetson-agx-orin-64gb"),
    ("AGX Orin 32GB", "jetson-agx-orin-32gb"),
    ("4070 Ti Super", "rtx-4070-ti-super"),
    ("V100 32G", "v100-32gb"),
    ("2080ti", "rtx-2080-ti"),
    ("2080 Ti 11GB", "rtx-2080-ti"),
    ("4090", "rtx-4090"),
    ("4090 24GB", "rtx-4090"),
    ("4090D", "rtx-4090-d"),
    ("5090", "rtx-5090"),
    ("A100", "a100-80gb-sxm"),
    ("H100", "h100-sxm"),
    ("Titan Xp", "titan-xp"),
    ("GTX Titan X", "titan-x-maxwell"),
]


@pytest.mark.parametrize(("text", "gpu_id"), NAMES)
def test_names_people_type_resolve(catalog: Catalog, text: str, gpu_id: str) -> None:
    assert catalog.resolve(text) == gpu_id


# Whole questions → the cards the parser reads from them (and the count where one is written).
QUESTIONS = [
    ("8卡A800能微调72B吗", ("a800-80gb-sxm",), 8),
    ("4*A800 训练70B", ("a800-80gb-sxm",), 4),
    ("A800-SXM4-80GB 跑 qwen", ("a800-80gb-sxm",), None),
    ("A800 80G能训练吗", ("a800-80gb-sxm",), None),
    ("H800能跑DeepSeek吗", ("h800-sxm",), None),
    ("我手上有5090D 24G", ("rtx-5090-d-v2",), None),
    ("5090D能跑32B吗", ("rtx-5090-d",), None),
    ("我有两张2080ti 22g", ("rtx-2080-ti-22gb",), 2),
    ("2080ti 22g 跑vLLM", ("rtx-2080-ti-22gb",), None),
    ("2080ti22g跑vllm", ("rtx-2080-ti-22gb",), None),
    ("2080ti能跑vllm吗", ("rtx-2080-ti",), None),
    ("用4090 48GB跑70B", ("rtx-4090-48gb",), None),
    ("4090D 48G 跑 qwen 72B", ("rtx-4090-d-48gb",), None),
    ("3050ti能跑吗", ("rtx-3050-ti-laptop",), None),
    ("750ti能跑yolo吗", ("gtx-750-ti",), None),
    ("GT 650M 能跑 stable diffusion 吗", ("gt-650m",), None),
    ("Titan X Pascal 跑 llama 7B", ("titan-x-pascal",), None),
    ("GTX Titan X 跑 llama 7B", ("titan-x-maxwell",), None),
    ("A800 PCIE 80G 能跑吗", ("a800-80gb-pcie",), None),
    ("H800*8 训练", ("h800-sxm",), 8),
]


@pytest.mark.parametrize(("text", "gpus", "count"), QUESTIONS)
def test_questions_name_the_added_cards(text: str, gpus: tuple[str, ...], count: int | None) -> None:
    query = parse(text).query
    assert query is not None
    assert query.gpus == gpus
    if count is not None:
        assert query.num_gpus == count


def test_modded_word_between_name_and_memory() -> None:
    # "魔改" (modded) between a card and its doubled memory keeps them one name
    assert parse("2080ti 魔改22G跑vLLM").query.gpus == ("rtx-2080-ti-22gb",)
    assert parse("4090 魔改 48G 跑 70B").query.gpus == ("rtx-4090-48gb",)
    assert parse("2080ti 跑vLLM").query.gpus == ("rtx-2080-ti",)


# id → (memory_gb, bandwidth_gbs, tdp_w, form_factor, cuda_cc) as sourced.
SPECS = {
    "a800-40gb-pcie": (40, 1555, 250, "pcie", "8.0"),
    "a800-80gb-pcie": (80, 1935, 300, "pcie", "8.0"),
    "a800-80gb-sxm": (80, 2039, 400, "sxm", "8.0"),
    "h800-pcie": (80, 2000, 350, "pcie", "9.0"),
    "h800-sxm": (80, 3350, 700, "sxm", "9.0"),
    "rtx-5090-d": (32, 1792, 575, "pcie", "12.0"),
    "rtx-5090-d-v2": (24, 1344, 575, "pcie", "12.0"),
    "rtx-2080-ti-22gb": (22, 616, 250, "pcie", "7.5"),
    "rtx-4090-48gb": (48, 1008, 450, "pcie", "8.9"),
    "rtx-4090-d-48gb": (48, 1008, 425, "pcie", "8.9"),
    "gtx-750-ti": (2, 86.4, 60, "pcie", "5.0"),
    "gt-650m": (1, 28.8, 45, "mxm", "3.0"),
    "gt-650m-2gb": (2, 64, 45, "mxm", "3.0"),
    "titan-x-pascal": (12, 480, 250, "pcie", "6.1"),
    "rtx-3050-ti-laptop": (4, 192, 80, "mxm", "8.6"),
}


@pytest.mark.parametrize("gpu_id", sorted(SPECS))
def test_sourced_specs(catalog: Catalog, gpu_id: str) -> None:
    gpu = catalog.get(gpu_id)
    memory, bandwidth, tdp, form, cc = SPECS[gpu_id]
    assert gpu.memory_gb == memory
    assert gpu.bandwidth_gbs == bandwidth
    assert gpu.tdp_w == tdp
    assert gpu.form_factor == form
    assert gpu.software.cuda_cc == cc
    assert gpu.vendor == "nvidia"
    assert gpu.sources and all(len(s) > 10 for s in gpu.sources)


@pytest.mark.parametrize(
    ("variant", "stock"),
    [
        ("a800-80gb-sxm", "a100-80gb-sxm"),
        ("a800-80gb-pcie", "a100-80gb-pcie"),
        ("a800-40gb-pcie", "a100-40gb-pcie"),
        ("h800-sxm", "h100-sxm"),
        ("h800-pcie", "h100-pcie"),
    ],
)
def test_china_datacenter_parts_keep_the_stock_memory_and_compute(catalog: Catalog, variant: str, stock: str) -> None:
    """A800/H800 differ from A100/H100 in NVLink (and FP64), not in memory or tensor throughput."""
    a, b = catalog.get(variant), catalog.get(stock)
    assert (a.memory_gb, a.bandwidth_gbs, a.sm_count) == (b.memory_gb, b.bandwidth_gbs, b.sm_count)
    assert a.fp16_tensor_tflops == b.fp16_tensor_tflops
    assert a.architecture == b.architecture
    assert a.nvlink
    assert a.notes is not None
    assert "400 GB/s" in a.notes or "300 GB/s" in a.notes


@pytest.mark.parametrize(
    ("modded", "stock"),
    [("rtx-2080-ti-22gb", "rtx-2080-ti"), ("rtx-4090-48gb", "rtx-4090"), ("rtx-4090-d-48gb", "rtx-4090-d")],
)
def test_modded_cards_double_memory_only(catalog: Catalog, modded: str, stock: str) -> None:
    """Same chip, clocks and bandwidth as the stock card; twice the memory; marked unofficial."""
    m, s = catalog.get(modded), catalog.get(stock)
    assert m.memory_gb == 2 * s.memory_gb
    assert (m.bandwidth_gbs, m.memory_bus_bits, m.memory_data_rate_gbps) == (
        s.bandwidth_gbs,
        s.memory_bus_bits,
        s.memory_data_rate_gbps,
    )
    assert (m.sm_count, m.tensor_cores, m.fp32_tflops, m.fp16_tensor_tflops) == (
        s.sm_count,
        s.tensor_cores,
        s.fp32_tflops,
        s.fp16_tensor_tflops,
    )
    assert m.notes is not None
    assert "Unofficial modification" in m.notes
    assert m.modified and not s.modified
    # Every answer that shows it says so, in every language.
    from engine.support import caveats_for

    assert [c.key for c in caveats_for((modded,))] == ["support.modified"]
    assert "no NVIDIA warranty" in m.notes


def test_5090_d_variants(catalog: Catalog) -> None:
    d, v2, stock = catalog.get("rtx-5090-d"), catalog.get("rtx-5090-d-v2"), catalog.get("rtx-5090")
    assert (d.memory_gb, d.bandwidth_gbs, d.memory_bus_bits) == (stock.memory_gb, stock.bandwidth_gbs, 512)
    assert (v2.memory_gb, v2.memory_bus_bits, v2.memory_data_rate_gbps) == (24, 384, 28)
    assert v2.bandwidth_gbs == v2.memory_bus_bits * v2.memory_data_rate_gbps / 8
    # the capped tensor rates are unpublished: left empty rather than guessed
    assert d.fp16_tensor_tflops is None and v2.fp16_tensor_tflops is None
    assert d.sm_count == v2.sm_count == stock.sm_count == 170


def test_old_parts_software(catalog: Catalog) -> None:
    assert catalog.get("gt-650m").software.pytorch == "dropped"
    assert catalog.get("gt-650m").software.pytorch_last == "0.3"
    assert catalog.get("gt-650m").architecture == "kepler"
    assert catalog.get("gtx-750-ti").software.pytorch == "legacy"
    assert catalog.get("gtx-750-ti").architecture == "maxwell"
    assert catalog.get("titan-x-pascal").architecture == "pascal"
    assert catalog.get("titan-x-pascal").id != catalog.resolve("titan xp")


def test_laptop_parts_are_not_buyable_cards(catalog: Catalog) -> None:
    for gpu_id in ("rtx-3050-ti-laptop", "gt-650m", "gt-650m-2gb"):
        gpu = catalog.get(gpu_id)
        assert gpu.platform == "laptop"
        assert not gpu.buyable(organization=True)


# --- RTX Ada workstation cards, RX 6650 XT, P106-100, T400/T600/T1000 8 GB (added 2026-12-06) ---

ADDED_NAMES = [
    # the Ada workstation cards, never the Turing Quadro of the same number
    ("RTX 5000 Ada", "rtx-5000-ada"),
    ("RTX5000ADA 32G", "rtx-5000-ada"),
    ("RTX 5000 Ada Generation", "rtx-5000-ada"),
    ("NVIDIA RTX 5000 Ada Generation", "rtx-5000-ada"),
    ("5000 Ada", "rtx-5000-ada"),
    ("RTX 4500 Ada", "rtx-4500-ada"),
    ("RTX 4000 Ada", "rtx-4000-ada"),
    ("NVIDIA RTX 4000 Ada Generation", "rtx-4000-ada"),
    ("RTX 4000 SFF Ada", "rtx-4000-sff-ada"),
    ("RTX 4000 SFF", "rtx-4000-sff-ada"),
    ("NVIDIA RTX 4000 SFF Ada Generation", "rtx-4000-sff-ada"),
    ("RTX 2000 Ada", "rtx-2000-ada"),
    ("NVIDIA RTX 2000 Ada Generation", "rtx-2000-ada"),
    # the Turing cards keep their names
    ("Quadro RTX 5000", "quadro-rtx-5000"),
    ("quadro rtx 5000", "quadro-rtx-5000"),
    ("Quadro RTX 4000", "quadro-rtx-4000"),
    # AMD
    ("RX 6650 XT", "rx-6650-xt"),
    ("6650xt", "rx-6650-xt"),
    ("AMD Radeon RX 6650 XT", "rx-6650-xt"),
    ("6600 XT", "rx-6600-xt"),
    # mining and small workstation cards
    ("P106-100", "p106-100"),
    ("p106 100", "p106-100"),
    ("P106", "p106-100"),
    ("T400", "t400"),
    ("T400 4GB", "t400-4gb"),
    ("T600", "t600"),
    ("T1000", "quadro-t1000"),
    ("T1000 8GB", "quadro-t1000-8gb"),
    # the RTX 2060 Super as people write it
    ("rtx 2060s", "rtx-2060-super"),
    ("RTX 2060S", "rtx-2060-super"),
    ("RTX2060S", "rtx-2060-super"),
    ("2060s", "rtx-2060-super"),
    ("2060 super", "rtx-2060-super"),
]


@pytest.mark.parametrize(("text", "gpu_id"), ADDED_NAMES)
def test_added_names_resolve(catalog: Catalog, text: str, gpu_id: str) -> None:
    assert catalog.resolve(text) == gpu_id


@pytest.mark.parametrize(("text", "gpu_id"), ADDED_NAMES)
def test_added_names_parse_alone(text: str, gpu_id: str) -> None:
    query = parse(text, standalone=True).query
    assert query is not None
    assert query.gpus == (gpu_id,)


ADDED_QUESTIONS = [
    ("RTX 5000 Ada vs A6000", ("rtx-5000-ada", "rtx-a6000"), None),
    ("Quadro RTX 5000 vs RTX 5000 Ada", ("quadro-rtx-5000", "rtx-5000-ada"), None),
    ("RTX5000ADA 32G 能跑 70B 吗", ("rtx-5000-ada",), None),
    ("2x RTX 4000 Ada for llama 13b", ("rtx-4000-ada",), 2),
    ("RTX 4000 SFF Ada 能跑 qwen 14b 吗", ("rtx-4000-sff-ada",), None),
    ("rtx 2060s能跑吗", ("rtx-2060-super",), None),
    ("can my RX 6650 XT run stable diffusion", ("rx-6650-xt",), None),
    ("P106-100能跑qwen 7b吗", ("p106-100",), None),
    ("4张P106-100 跑 llama", ("p106-100",), 4),
    ("T400 4GB can run whisper?", ("t400-4gb",), None),
]


@pytest.mark.parametrize(("text", "gpus", "count"), ADDED_QUESTIONS)
def test_questions_name_the_cards_added_in_december(text: str, gpus: tuple[str, ...], count: int | None) -> None:
    query = parse(text, standalone=True).query
    assert query is not None
    assert query.gpus == gpus
    if count is not None:
        assert query.num_gpus == count


# id → (vendor, architecture, memory_gb, bandwidth_gbs, tdp_w, sm_count, fp32_tflops) as sourced.
ADDED_SPECS = {
    "rtx-5000-ada": ("nvidia", "ada", 32, 576, 250, 100, 65.3),
    "rtx-4500-ada": ("nvidia", "ada", 24, 432, 210, 60, 39.6),
    "rtx-4000-ada": ("nvidia", "ada", 20, 360, 130, 48, 26.7),
    "rtx-4000-sff-ada": ("nvidia", "ada", 20, 280, 70, 48, 19.2),
    "rtx-2000-ada": ("nvidia", "ada", 16, 224, 70, 22, 12.0),
    "rx-6650-xt": ("amd", "rdna2", 8, 280, 180, 32, 10.8),
    "p106-100": ("nvidia", "pascal", 6, 192.2, 120, 10, 4.38),
    "t400": ("nvidia", "turing", 2, 80, 30, 6, 1.09),
    "t400-4gb": ("nvidia", "turing", 4, 80, 30, 6, 1.09),
    "t600": ("nvidia", "turing", 4, 160, 40, 10, 1.71),
    "quadro-t1000-8gb": ("nvidia", "turing", 8, 160, 50, 14, 2.5),
}


@pytest.mark.parametrize("gpu_id", sorted(ADDED_SPECS))
def test_added_cards_sourced_specs(catalog: Catalog, gpu_id: str) -> None:
    gpu = catalog.get(gpu_id)
    vendor, arch, memory, bandwidth, tdp, sms, fp32 = ADDED_SPECS[gpu_id]
    assert (gpu.vendor, gpu.architecture) == (vendor, arch)
    assert (gpu.memory_gb, gpu.bandwidth_gbs, gpu.tdp_w, gpu.sm_count) == (memory, bandwidth, tdp, sms)
    assert gpu.fp32_tflops == fp32
    assert gpu.form_factor == "pcie" and gpu.platform == "desktop"
    assert gpu.sources and all(len(s) > 10 for s in gpu.sources)
    assert any("techpowerup.com/gpu-specs/" in s or "nvidia.com" in s for s in gpu.sources)


def test_rtx_5000_ada_is_not_the_turing_quadro(catalog: Catalog) -> None:
    ada, turing = catalog.get("rtx-5000-ada"), catalog.get("quadro-rtx-5000")
    assert (ada.memory_gb, ada.architecture, ada.software.cuda_cc) == (32, "ada", "8.9")
    assert (turing.memory_gb, turing.architecture, turing.software.cuda_cc) == (16, "turing", "7.5")
    assert catalog.resolve("RTX 5000 Ada") != catalog.resolve("Quadro RTX 5000")
    # the datasheet's 1044.4 TFLOPS is sparse FP8: dense FP8 is half, dense FP16 a quarter
    assert ada.fp8_tensor_tflops == pytest.approx(1044.4 / 2, abs=0.05)
    assert ada.fp16_tensor_tflops == pytest.approx(1044.4 / 4, abs=0.05)
    assert not ada.half_rate_fp32_accumulate and ada.fp16_tensor_tflops == ada.fp16_tensor_tflops_fp16acc
    assert not ada.nvlink


@pytest.mark.parametrize("gpu_id", ["rtx-5000-ada", "rtx-4500-ada", "rtx-4000-ada", "rtx-4000-sff-ada", "rtx-2000-ada"])
def test_ada_workstation_cards_run_full_rate_fp32_accumulate(catalog: Catalog, gpu_id: str) -> None:
    """Professional Ada: FP16 with FP32 accumulate at the FP16-accumulate rate; FP8 twice FP16
    (SMs x 1024 / 2048 FLOP/clk x boost clock)."""
    gpu = catalog.get(gpu_id)
    assert gpu.gpu_class == "workstation"
    assert gpu.software.pytorch == "current" and gpu.software.cuda_cc == "8.9"
    assert gpu.tensor_cores == 4 * gpu.sm_count
    assert gpu.fp16_tensor_tflops == gpu.fp16_tensor_tflops_fp16acc
    assert gpu.fp8_tensor_tflops == pytest.approx(2 * gpu.fp16_tensor_tflops, abs=0.15)
    assert gpu.buyable(organization=False)


def test_added_old_and_small_cards_software(catalog: Catalog) -> None:
    p106 = catalog.get("p106-100")
    assert (p106.software.pytorch, p106.software.cuda_cc, p106.tensor_cores) == ("legacy", "6.1", 0)
    for gpu_id in ("t400", "t400-4gb", "t600", "quadro-t1000-8gb"):
        gpu = catalog.get(gpu_id)
        assert (gpu.software.pytorch, gpu.software.cuda_cc, gpu.tensor_cores) == ("current", "7.5", 0), gpu_id
        assert gpu.power_connector == "none" and gpu.fp16_tensor_tflops is None, gpu_id
    rx = catalog.get("rx-6650-xt")
    assert (rx.software.rocm, rx.software.gfx, rx.software.hsa_override) == ("community", "gfx1032", "10.3.0")
    assert rx.launch_price is not None and rx.launch_price.usd == 399


@pytest.mark.parametrize("gpu_id", sorted(ADDED_SPECS))
def test_added_cards_carry_no_unsourced_price(catalog: Catalog, gpu_id: str) -> None:
    """No price file has a dated figure for these cards: the bot says it has no price."""
    for snapshot in catalog.snapshots.values():
        assert gpu_id not in snapshot.prices, (gpu_id, snapshot.id)


# ---- Huawei Ascend 910B and Jetson Orin (added 2026-12-06) -------------------------------------------------

ASCEND_AND_ORIN_NAMES = [
    # the bare 910B is the 64 GB 910B3 (the middle of the family); its variants by name
    ("910B", "ascend-910b"),
    ("910b", "ascend-910b"),
    ("昇腾910B", "ascend-910b"),
    ("昇騰910B", "ascend-910b"),
    ("Ascend 910B", "ascend-910b"),
    ("华为910B", "ascend-910b"),
    ("華為910B", "ascend-910b"),
    ("NPU 910B", "ascend-910b"),
    ("910B3", "ascend-910b"),
    ("Ascend 910B3", "ascend-910b"),
    ("910B2", "ascend-910b2"),
    ("昇腾910B2", "ascend-910b2"),
    ("910B4", "ascend-910b-32gb"),
    ("昇腾910B4", "ascend-910b-32gb"),
    # Jetson Orin modules, and "Jetson Orin" with the memory only one module has
    ("Jetson AGX Orin", "jetson-agx-orin-64gb"),
    ("AGX Orin 64GB", "jetson-agx-orin-64gb"),
    ("Jetson Orin 64GB", "jetson-agx-orin-64gb"),
    ("AGX Orin 32GB", "jetson-agx-orin-32gb"),
    ("Jetson Orin 32GB", "jetson-agx-orin-32gb"),
    ("Orin NX", "jetson-orin-nx-16gb"),
    ("Jetson Orin 16GB", "jetson-orin-nx-16gb"),
    ("Orin Nano", "jetson-orin-nano-8gb"),
    ("Orin Nano Super", "jetson-orin-nano-super"),
]


@pytest.mark.parametrize(("text", "gpu_id"), ASCEND_AND_ORIN_NAMES)
def test_ascend_and_orin_names_resolve(catalog: Catalog, text: str, gpu_id: str) -> None:
    assert catalog.resolve(text) == gpu_id


def test_a_bare_orin_names_no_module(catalog: Catalog) -> None:
    """ "Orin" alone ("我有一块orin板子") or with 8 GB (an Orin Nano or an Orin NX 8GB) is no one module."""
    assert catalog.resolve("orin") is None
    assert catalog.resolve("Jetson Orin 8GB") is None


# Questions that name the parts, with or without 昇腾/Ascend/华为 before the chip.
ASCEND_AND_ORIN_QUESTIONS = [
    ("910B3 能跑 deepseek 32b 吗", ("ascend-910b",)),
    ("910B4能跑qwen 7b吗", ("ascend-910b-32gb",)),
    ("Jetson AGX Orin能跑Qwen2.5 7B吗", ("jetson-agx-orin-64gb",)),
    ("can AGX Orin 64GB run llama 3 8b", ("jetson-agx-orin-64gb",)),
    ("Orin NX run llama 3 8b", ("jetson-orin-nx-16gb",)),
    ("can Orin Nano run phi-3", ("jetson-orin-nano-8gb",)),
    ("Which NVIDIA GPU works best: RTX 4060 or Jetson Orin 16GB?", ("rtx-4060", "jetson-orin-nx-16gb")),
]


@pytest.mark.parametrize(("text", "gpus"), ASCEND_AND_ORIN_QUESTIONS)
def test_questions_name_the_ascend_and_orin_parts(text: str, gpus: tuple[str, ...]) -> None:
    query = parse(text, standalone=True).query
    assert query is not None
    assert query.gpus == gpus


@pytest.mark.parametrize(
    ("text", "gpus"),
    [
        ("昇腾910B能跑Qwen2.5 72B吗", ("ascend-910b",)),
        ("Ascend 910B vs A100", ("ascend-910b", "a100-80gb-sxm")),
        ("华为910B能跑qwen 72b吗", ("ascend-910b",)),
        ("910B能跑qwen2.5 72b吗", ("ascend-910b",)),
        ("Ascend 910B3", ("ascend-910b",)),
    ],
)
def test_questions_name_the_910b_next_to_ascend(text: str, gpus: tuple[str, ...]) -> None:
    query = parse(text, standalone=True).query
    assert query is not None
    assert query.gpus == gpus


# id → (memory_gb, bandwidth_gbs, FP16 TFLOPS, INT8 TOPS, AI cores, form factor) from Huawei's msmodeling
# Atlas 800 A2 profiles and the HAMi Ascend device plugin (sources in each entry).
ASCEND_SPECS = {
    "ascend-910b2": (64, 1600, 376, 752, 24, "oam"),
    "ascend-910b": (64, 1600, 313, 626, 20, "oam"),
    "ascend-910b-32gb": (32, 800, 280, 560, 20, "pcie"),
}


@pytest.mark.parametrize("gpu_id", sorted(ASCEND_SPECS))
def test_ascend_910b_sourced_specs(catalog: Catalog, gpu_id: str) -> None:
    gpu = catalog.get(gpu_id)
    memory, bandwidth, fp16, int8, cores, form = ASCEND_SPECS[gpu_id]
    assert (gpu.vendor, gpu.architecture, gpu.platform) == ("huawei", "davinci-c220", "server")
    assert (gpu.memory_gb, gpu.bandwidth_gbs, gpu.fp16_tensor_tflops, gpu.int8_tensor_tops) == (
        memory,
        bandwidth,
        fp16,
        int8,
    )
    assert (gpu.sm_count, gpu.tensor_cores, gpu.form_factor) == (cores, cores, form)
    assert gpu.fp8_tensor_tflops is None  # no FP8 on the 910B
    assert any("github.com/Ascend/msmodeling" in s for s in gpu.sources)
    assert any("Project-HAMi/ascend-device-plugin" in s for s in gpu.sources)
    # Huawei publishes no 910B power figure: the entry says whose figure tdp_w is
    assert gpu.tdp_w == 310 and gpu.notes and "no 910B power figure" in gpu.notes
    sw = gpu.software
    assert (sw.pytorch, sw.npu, sw.cuda_cc, sw.rocm) == ("vendor", True, None, None)
    assert gpu.launch_price is None
    for snapshot in catalog.snapshots.values():
        assert gpu_id not in snapshot.prices, (gpu_id, snapshot.id)


def test_ascend_modules_are_no_card_for_a_person(catalog: Catalog) -> None:
    """The 910B2/910B3 are server modules: a lab may rack them, a person puts none in a PC. None is
    priced, so no recommendation ranks them (tests/engine/test_support.py: NVIDIA leads)."""
    for gpu_id in ("ascend-910b2", "ascend-910b"):
        gpu = catalog.get(gpu_id)
        assert not gpu.buyable(organization=False) and gpu.buyable(organization=True), gpu_id
        assert gpu.stacks  # eight to a server: "2x 910B" is a real setup


def test_the_new_vendor_is_appended_last() -> None:
    """engine.codec encodes a choice by its index: "huawei" comes after every vendor a posted button knows."""
    from typing import get_args

    from engine import query, specs

    assert get_args(query.Vendor) == ("nvidia", "amd", "intel", "apple", "huawei")
    assert get_args(specs.Vendor) == get_args(query.Vendor)


# Jetson Orin tensor figures: NVIDIA's sparse INT8 TOPS on the GPU, halved for dense, halved again for FP16.
ORIN_TENSOR = {
    "jetson-agx-orin-64gb": (170, 85, 42.5),
    "jetson-orin-nano-8gb": (40, 20, 10),
    "jetson-orin-nano-super": (67, 33.5, 16.75),
}


@pytest.mark.parametrize("gpu_id", sorted(ORIN_TENSOR))
def test_orin_tensor_figures_follow_the_datasheet_tops(catalog: Catalog, gpu_id: str) -> None:
    gpu = catalog.get(gpu_id)
    sparse_int8, dense_int8, dense_fp16 = ORIN_TENSOR[gpu_id]
    assert gpu.int8_tensor_tops == dense_int8 == sparse_int8 / 2
    assert gpu.fp16_tensor_tflops_fp16acc == dense_fp16 == dense_int8 / 2
    assert gpu.fp16_tensor_tflops is None  # NVIDIA publishes no FP32-accumulate rate for Orin
    assert (gpu.platform, gpu.software.pytorch, gpu.software.jetpack) == ("embedded", "vendor", "6.2")
    assert gpu.launch_price is None  # a developer kit's price is a whole system's


def test_the_agx_orin_32gb_and_orin_nx_keep_their_tensor_figures_unknown(catalog: Catalog) -> None:
    """Their datasheets' TOPS include the DLAs, and the GPU's share is not published: no figure."""
    for gpu_id in ("jetson-agx-orin-32gb", "jetson-orin-nx-16gb"):
        gpu = catalog.get(gpu_id)
        assert gpu.fp16_tensor_tflops is None and gpu.fp16_tensor_tflops_fp16acc is None, gpu_id


def test_an_llm_on_an_ascend_steps_down_through_the_types_its_runtimes_run() -> None:
    # BF16, W8A8 INT8, then llama.cpp CANN's Q4_0 — no k-quants (Q6_K, Q4_K_M), which the CANN backend lacks.
    from engine.canrun import assess
    from engine.query import Query

    report = assess(Query(kind="can_run", model="qwen2.5-72b", gpus=("ascend-910b",)))
    verdict = report.verdicts[0]
    assert verdict.fits and verdict.precision == "q4_0"
