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
