"""Low-end and old cards added for names people ask about (GT 710, GT 730, GT 640M, GTX 660M, RX 6500 XT):
each resolves from the names people write, whole questions in English and Chinese find it, names that
already resolved keep their ids, and its key specs are the sourced values in data/gpus.yaml."""

from __future__ import annotations

import pytest

from engine.catalog import Catalog
from engine.parse import parse

ADDED = ("gt-710", "gt-730", "gt-640m", "gtx-660m", "rx-6500-xt")

# What people type → the catalog id it must resolve to.
NAMES = [
    ("GT 710", "gt-710"),
    ("gt710", "gt-710"),
    ("GeForce GT 710", "gt-710"),
    ("GT 710 2GB", "gt-710"),
    ("710", "gt-710"),
    ("GT 730", "gt-730"),
    ("gt730", "gt-730"),
    ("730", "gt-730"),
    ("GT 730 DDR3", "gt-730"),
    ("gt 730 2gb", "gt-730"),
    ("NVIDIA GeForce GT 730", "gt-730"),
    ("GT 640M", "gt-640m"),
    ("gt640m", "gt-640m"),
    ("640M", "gt-640m"),
    ("GT 640M laptop", "gt-640m"),
    ("GTX 660M", "gtx-660m"),
    ("gtx660m", "gtx-660m"),
    ("660M", "gtx-660m"),
    ("GTX 660M 2GB", "gtx-660m"),
    ("RX 6500 XT", "rx-6500-xt"),
    ("6500 XT", "rx-6500-xt"),
    ("6500xt", "rx-6500-xt"),
    ("Radeon RX 6500 XT 4GB", "rx-6500-xt"),
    # names that already resolved and must keep doing so
    ("1030", "gt-1030"),
    ("GT 1030 DDR4", "gt-1030-ddr4"),
    ("650M", "gt-650m"),
    ("GT 650M 2GB", "gt-650m-2gb"),
    ("1660", "gtx-1660"),
    ("1660 Ti laptop", "gtx-1660-ti-laptop"),
    ("6600 XT", "rx-6600-xt"),
    ("6650 XT", "rx-6650-xt"),
    ("RX 6600", "rx-6600"),
    ("K40", "tesla-k40"),
    ("M4", "apple-m4-16gb"),
    ("M4 Max 128GB", "apple-m4-max-128gb"),
    ("RTX A3000 laptop", "rtx-a3000-laptop"),
]


@pytest.mark.parametrize(("text", "gpu_id"), NAMES)
def test_names_people_type_resolve(catalog: Catalog, text: str, gpu_id: str) -> None:
    assert catalog.resolve(text) == gpu_id


# A variant the catalog does not hold is no match for the one it does: the non-XT RX 6500 is not the XT,
# a 660 (desktop) is not the 660M, and a bare 640 or 6500 names no card.
@pytest.mark.parametrize("text", ["6500", "RX 6500", "660", "GTX 660", "640", "GT 640"])
def test_other_variants_name_no_added_card(catalog: Catalog, text: str) -> None:
    assert catalog.resolve(text) not in ADDED


# Whole questions → the cards the parser reads from them.
QUESTIONS = [
    ("Is my GT 730 supported by RVC?", ("gt-730",)),
    ("我的GT730能跑吗", ("gt-730",)),
    ("GT 1030 vs GT 730", ("gt-1030", "gt-730")),
    ("I have an i7 with 16gb ram and a gt 730 2gb", ("gt-730",)),
    ("can a GT 710 run llama?", ("gt-710",)),
    ("GT710能跑SD吗", ("gt-710",)),
    ("my laptop has a GT 640M, can it train?", ("gt-640m",)),
    ("笔记本GT640M能用CUDA吗", ("gt-640m",)),
    ("GTX 660M显卡", ("gtx-660m",)),
    ("GTX 660M显卡能跑stable diffusion吗", ("gtx-660m",)),
    ("RX 6500 XT for stable diffusion?", ("rx-6500-xt",)),
    ("6500XT能跑SD吗", ("rx-6500-xt",)),
    ("rx 6500 xt 4gb vs gtx 1650", ("rx-6500-xt", "gtx-1650")),
    # the names without the new cards keep their cards
    ("M4 Mac mini 16GB for llama", ("apple-m4-16gb",)),
    ("3050能跑SD吗", ("rtx-3050",)),
]


@pytest.mark.parametrize(("text", "gpus"), QUESTIONS)
def test_questions_name_the_added_cards(text: str, gpus: tuple[str, ...]) -> None:
    query = parse(text, standalone=True).query
    assert query is not None
    assert query.gpus == gpus


# id → (memory_gb, bandwidth_gbs, tdp_w, form_factor, platform) as sourced.
SPECS = {
    "gt-710": (2, 14.4, 19, "pcie", "desktop"),
    "gt-730": (2, 14.4, 23, "pcie", "desktop"),
    "gt-640m": (1, 28.8, 32, "mxm", "laptop"),
    "gtx-660m": (2, 64, 50, "mxm", "laptop"),
    "rx-6500-xt": (4, 144, 107, "pcie", "desktop"),
}


@pytest.mark.parametrize("gpu_id", sorted(SPECS))
def test_sourced_specs(catalog: Catalog, gpu_id: str) -> None:
    gpu = catalog.get(gpu_id)
    memory, bandwidth, tdp, form, platform = SPECS[gpu_id]
    assert gpu.memory_gb == memory
    assert gpu.bandwidth_gbs == bandwidth
    assert gpu.tdp_w == tdp
    assert gpu.form_factor == form
    assert gpu.platform == platform
    assert gpu.sources and all(len(s) > 10 for s in gpu.sources)
    assert not gpu.has_tensor_cores


@pytest.mark.parametrize("gpu_id", sorted(SPECS))
def test_bandwidth_is_bus_times_data_rate(catalog: Catalog, gpu_id: str) -> None:
    gpu = catalog.get(gpu_id)
    assert gpu.memory_bus_bits is not None and gpu.memory_data_rate_gbps is not None
    assert gpu.bandwidth_gbs == pytest.approx(gpu.memory_bus_bits * gpu.memory_data_rate_gbps / 8, rel=0.01)


# Kepler: GK208 desktop cards are compute capability 3.5 (last official PyTorch builds: 1.12 conda CUDA 10.2),
# the GK107 laptop parts 3.0 (dropped after 0.3). Nothing current runs on any of them.
KEPLER = {"gt-710": ("3.5", "1.12"), "gt-730": ("3.5", "1.12"), "gt-640m": ("3.0", "0.3"), "gtx-660m": ("3.0", "0.3")}


@pytest.mark.parametrize("gpu_id", sorted(KEPLER))
def test_kepler_cards_run_no_current_pytorch(catalog: Catalog, gpu_id: str) -> None:
    gpu = catalog.get(gpu_id)
    cc, last = KEPLER[gpu_id]
    assert gpu.vendor == "nvidia"
    assert gpu.architecture == "kepler"
    assert gpu.software.cuda_cc == cc
    assert gpu.software.pytorch == "dropped"
    assert gpu.software.pytorch_last == last


def test_rx_6500_xt_runs_rocm_only_through_the_override(catalog: Catalog) -> None:
    gpu = catalog.get("rx-6500-xt")
    assert gpu.vendor == "amd" and gpu.architecture == "rdna2"
    assert gpu.software.gfx == "gfx1034"
    assert (gpu.software.pytorch, gpu.software.rocm, gpu.software.hsa_override) == ("community", "community", "10.3.0")
    assert gpu.sm_count == 16
    assert gpu.launch_price is not None and gpu.launch_price.usd == 199


def test_laptop_parts_are_not_buyable_cards(catalog: Catalog) -> None:
    for gpu_id in ("gt-640m", "gtx-660m"):
        gpu = catalog.get(gpu_id)
        assert gpu.gpu_class == "laptop"
        assert gpu.cooling == "laptop"
        assert not gpu.buyable(organization=True)


def test_the_added_cards_sit_where_their_bandwidth_says(catalog: Catalog) -> None:
    bw = {gpu_id: catalog.get(gpu_id).bandwidth_gbs for gpu_id in (*ADDED, "gt-1030", "gt-1030-ddr4", "rx-6600")}
    # the DDR3 GT 710/730 have less bandwidth than even the DDR4 GT 1030
    assert bw["gt-710"] == bw["gt-730"] < bw["gt-1030-ddr4"] < bw["gt-1030"]
    # the GTX 660M's GDDR5 is over twice the DDR3 GT 640M's bandwidth on the same GK107
    assert bw["gtx-660m"] > 2 * bw["gt-640m"]
    # the RX 6500 XT's 64-bit bus is well below the RX 6600's 128-bit one
    assert bw["rx-6500-xt"] < bw["rx-6600"]
