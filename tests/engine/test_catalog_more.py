"""Cards added for names people ask about (GT 1030, RTX 2060 12GB, RTX 3050 6GB, Tesla K20/K20X/K40,
MX130/MX230/MX330): each resolves from the names people write, whole questions find it, names that already
resolved keep their ids, and its key specs are the sourced values in data/gpus.yaml."""

from __future__ import annotations

import pytest

from engine.catalog import Catalog
from engine.parse import parse

# What people type → the catalog id it must resolve to.
NAMES = [
    ("GT 1030", "gt-1030"),
    ("gt1030", "gt-1030"),
    ("1030", "gt-1030"),
    ("GeForce GT 1030", "gt-1030"),
    ("GT 1030 2GB", "gt-1030"),
    ("GT 1030 DDR4", "gt-1030-ddr4"),
    ("1030 ddr4", "gt-1030-ddr4"),
    ("RTX 2060 12GB", "rtx-2060-12gb"),
    ("2060 12g", "rtx-2060-12gb"),
    ("2060 12GB", "rtx-2060-12gb"),
    ("RTX 3050 6GB", "rtx-3050-6gb"),
    ("3050 6g", "rtx-3050-6gb"),
    ("3050 6GB", "rtx-3050-6gb"),
    ("Tesla K40", "tesla-k40"),
    ("k40", "tesla-k40"),
    ("K40m", "tesla-k40"),
    ("K40c", "tesla-k40"),
    ("Tesla K20", "tesla-k20"),
    ("k20m", "tesla-k20"),
    ("K20X", "tesla-k20x"),
    ("MX130", "mx130"),
    ("GeForce MX230", "mx230"),
    ("mx330", "mx330"),
    # names that already resolved and must keep doing so
    ("3050", "rtx-3050"),
    ("RTX 3050", "rtx-3050"),
    ("3050 8GB", "rtx-3050"),
    ("3050 laptop", "rtx-3050-laptop"),
    ("3050ti", "rtx-3050-ti-laptop"),
    ("2060", "rtx-2060"),
    ("2060 6GB", "rtx-2060"),
    ("2060 Super", "rtx-2060-super"),
    ("1050", "gtx-1050"),
    ("K80", "tesla-k80"),
    ("H100", "h100-sxm"),
    ("H200", "h200"),
    ("MX150", "mx150"),
    ("MX250", "mx250"),
    ("MX350", "mx350"),
]


@pytest.mark.parametrize(("text", "gpu_id"), NAMES)
def test_names_people_type_resolve(catalog: Catalog, text: str, gpu_id: str) -> None:
    assert catalog.resolve(text) == gpu_id


@pytest.mark.parametrize("text", ["130", "230", "330", "40", "20"])
def test_bare_small_numbers_name_no_card(catalog: Catalog, text: str) -> None:
    assert catalog.resolve(text) is None


# Whole questions → the cards the parser reads from them.
QUESTIONS = [
    ("is a GT 1030 usable for deep learning?", ("gt-1030",)),
    ("GT 1030 DDR4 能跑吗", ("gt-1030-ddr4",)),
    ("3050 6GB 能跑 SD 吗", ("rtx-3050-6gb",)),
    ("my 2060 12GB, can it run llama 3 8b?", ("rtx-2060-12gb",)),
    ("2060 12G 能跑 SD 吗", ("rtx-2060-12gb",)),
    ("can a K40 run llama?", ("tesla-k40",)),
    ("K40能跑llama吗", ("tesla-k40",)),
    ("MX130 laptop for deep learning?", ("mx130",)),
    # the names without the new variants keep their cards
    ("3050能跑SD吗", ("rtx-3050",)),
    ("my 2060, can it run llama 3 8b?", ("rtx-2060",)),
]


@pytest.mark.parametrize(("text", "gpus"), QUESTIONS)
def test_questions_name_the_added_cards(text: str, gpus: tuple[str, ...]) -> None:
    query = parse(text).query
    assert query is not None
    assert query.gpus == gpus


# id → (memory_gb, bandwidth_gbs, tdp_w, form_factor, cuda_cc) as sourced.
SPECS = {
    "gt-1030": (2, 48, 30, "pcie", "6.1"),
    "gt-1030-ddr4": (2, 16.8, 20, "pcie", "6.1"),
    "rtx-2060-12gb": (12, 336, 184, "pcie", "7.5"),
    "rtx-3050-6gb": (6, 168, 70, "pcie", "8.6"),
    "tesla-k40": (12, 288, 235, "pcie", "3.5"),
    "tesla-k20x": (6, 250, 235, "pcie", "3.5"),
    "tesla-k20": (5, 208, 225, "pcie", "3.5"),
    "mx130": (2, 40.1, 30, "mxm", "5.0"),
    "mx230": (2, 48.06, 10, "mxm", "6.1"),
    "mx330": (2, 56, 25, "mxm", "6.1"),
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


@pytest.mark.parametrize("gpu_id", ["gt-1030", "gt-1030-ddr4", "rtx-2060-12gb", "rtx-3050-6gb"])
def test_desktop_cards(catalog: Catalog, gpu_id: str) -> None:
    gpu = catalog.get(gpu_id)
    assert gpu.platform == "desktop"
    assert gpu.gpu_class == "consumer"
    assert gpu.buyable(organization=False)


def test_bandwidth_is_bus_times_data_rate(catalog: Catalog) -> None:
    for gpu_id in ("gt-1030", "gt-1030-ddr4", "rtx-2060-12gb", "rtx-3050-6gb", "tesla-k40", "mx330"):
        gpu = catalog.get(gpu_id)
        assert gpu.memory_bus_bits is not None and gpu.memory_data_rate_gbps is not None
        assert gpu.bandwidth_gbs == pytest.approx(gpu.memory_bus_bits * gpu.memory_data_rate_gbps / 8, rel=0.01)


def test_variants_differ_from_the_base_cards(catalog: Catalog) -> None:
    # the 2060 12GB has the 2060 Super's SMs on the 2060's bus
    big, base, sup = catalog.get("rtx-2060-12gb"), catalog.get("rtx-2060"), catalog.get("rtx-2060-super")
    assert big.memory_gb == 2 * base.memory_gb
    assert (big.bandwidth_gbs, big.memory_bus_bits) == (base.bandwidth_gbs, base.memory_bus_bits)
    assert big.sm_count == sup.sm_count == 34
    assert big.has_tensor_cores and big.software.pytorch == "current"
    # the 3050 6GB is a cut-down, bus-powered card, slower than the 8 GB desktop one
    small, eight = catalog.get("rtx-3050-6gb"), catalog.get("rtx-3050")
    assert small.bandwidth_gbs < eight.bandwidth_gbs
    assert small.power_connector == "none"
    assert small.has_tensor_cores
    # the DDR4 GT 1030 has about a third of the GDDR5 card's bandwidth
    assert catalog.get("gt-1030-ddr4").bandwidth_gbs < catalog.get("gt-1030").bandwidth_gbs / 2


def test_old_and_small_parts_software(catalog: Catalog) -> None:
    for gpu_id in ("tesla-k40", "tesla-k20", "tesla-k20x"):
        gpu = catalog.get(gpu_id)
        assert gpu.architecture == "kepler"
        assert gpu.software.pytorch == "dropped"
        assert gpu.software.pytorch_last == "1.12"
        assert not gpu.has_tensor_cores
    assert catalog.get("mx130").architecture == "maxwell"
    for gpu_id in ("gt-1030", "gt-1030-ddr4", "mx230", "mx330"):
        assert catalog.get(gpu_id).architecture == "pascal"
        assert catalog.get(gpu_id).software.pytorch == "legacy"
        assert not catalog.get(gpu_id).has_tensor_cores


def test_laptop_parts_are_not_buyable_cards(catalog: Catalog) -> None:
    for gpu_id in ("mx130", "mx230", "mx330"):
        gpu = catalog.get(gpu_id)
        assert gpu.platform == "laptop"
        assert gpu.cooling == "laptop"
        assert not gpu.buyable(organization=True)
