"""The catalog: loading, precise validation errors, alias resolution, data consistency."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from engine.catalog import load_catalog_from, normalize_name
from engine.datafiles import DataError

REQUIRED = [
    "gtx-980-ti",
    "gtx-1050-ti",
    "gtx-1060-6gb",
    "gtx-1070",
    "gtx-1070-ti",
    "gtx-1080-ti",
    "gtx-1650-super",
    "gtx-1660-ti",
    "rtx-2060",
    "rtx-2060-super",
    "rtx-2070",
    "rtx-2070-super",
    "rtx-2080",
    "rtx-2080-super",
    "rtx-2080-ti",
    "rtx-3060-12gb",
    "rtx-3060-ti",
    "rtx-3070",
    "rtx-3070-ti",
    "rtx-3080-10gb",
    "rtx-3080-12gb",
    "rtx-3080-ti",
    "rtx-3090",
    "rtx-3090-ti",
    "rtx-4060-ti-16gb",
    "rtx-4070",
    "rtx-4070-super",
    "rtx-4070-ti",
    "rtx-4070-ti-super",
    "rtx-4080",
    "rtx-4080-super",
    "rtx-4090",
    "titan-xp",
    "titan-v",
    "titan-rtx",
    "quadro-rtx-6000",
    "quadro-rtx-8000",
    "rtx-a4000",
    "rtx-a4500",
    "rtx-a5000",
    "rtx-a5500",
    "rtx-a6000",
    "rtx-6000-ada",
    "l40",
    "l40s",
    "a10",
    "a40",
    "l4",
    "t4",
    "v100-16gb",
    "v100-32gb",
    "a100-40gb-pcie",
    "a100-40gb-sxm",
    "a100-80gb-pcie",
    "a100-80gb-sxm",
    "h100-pcie",
    "h100-sxm",
    "h200",
    "b200",
    "rtx-5060-ti-16gb",
    "rtx-5070",
    "rtx-5070-ti",
    "rtx-5080",
    "rtx-5090",
    "rtx-pro-6000",
    "tesla-p40",
    "tesla-p100",
    "rx-7900-xtx",
    "mi300x",
]


def test_loads_every_required_gpu(catalog):
    assert len(catalog.gpus) >= 60
    missing = [g for g in REQUIRED if g not in catalog.gpus]
    assert missing == []


def test_every_gpu_has_tdp_sources_and_architecture(catalog):
    for gpu in catalog.gpus.values():
        assert gpu.tdp_w > 0, gpu.id
        assert gpu.sources, gpu.id
        assert gpu.architecture in catalog.architectures, gpu.id


@pytest.mark.parametrize("gpu_id", REQUIRED)
def test_every_alias_resolves_to_its_own_card(catalog, gpu_id):
    gpu = catalog.get(gpu_id)
    for alias in (gpu.id, gpu.name, *gpu.aliases):
        assert catalog.resolve(alias) == gpu_id, alias


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("3090", "rtx-3090"),
        ("rtx3090", "rtx-3090"),
        ("RTX 3090", "rtx-3090"),
        ("GeForce RTX 3090", "rtx-3090"),
        ("4070ti", "rtx-4070-ti"),
        ("4070 Ti Super", "rtx-4070-ti-super"),
        ("a100 80g", "a100-80gb-sxm"),
        ("3060 12G", "rtx-3060-12gb"),
        ("3060", "rtx-3060-12gb"),
        ("7900xtx", "rx-7900-xtx"),
        ("P40", "tesla-p40"),
        ("4090", "rtx-4090"),
        ("rtx 4090 laptop", "rtx-4090-laptop"),
        ("ｒｔｘ　３０９０", "rtx-3090"),
        ("rtx 3090 founders edition", "rtx-3090"),
        ("h100", "h100-sxm"),
        ("1080ti", "gtx-1080-ti"),
    ],
)
def test_resolves_what_people_type(catalog, text, expected):
    assert catalog.resolve(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("rtxx 4090", "rtx-4090"),
        ("4070 tti", "rtx-4070-ti"),
        ("geforce rtx 4080 super", "rtx-4080-super"),
        ("quadro rtx 8000", "quadro-rtx-8000"),
    ],
)
def test_fuzzy_fixes_typos(catalog, text, expected):
    assert catalog.resolve(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "rtx 9090",
        "3070 ti super",
        "banana",
        "",
        "   ",
        "4095",
        "gtx 3090 ti max",
        "@everyone",
        "4090 laptop super",
        "rtx 4090 laptp",
    ],
)
def test_refuses_rather_than_guessing(catalog, text):
    assert catalog.resolve(text) is None


def test_variant_words_are_never_added_or_dropped(catalog):
    assert catalog.resolve("3060") != "rtx-3060-ti"
    assert catalog.resolve("4090") != "rtx-4090-laptop"
    assert catalog.resolve("4080") == "rtx-4080"
    assert catalog.resolve("4080 super") == "rtx-4080-super"


def test_suggest_offers_close_names(catalog):
    assert "rtx-4090" in catalog.suggest("rtx 4099")
    assert "rtx-4090-laptop" in catalog.suggest("rtx 4090 laptp")


def test_normalize_name_folds_brands_memory_and_spacing():
    assert normalize_name("NVIDIA GeForce RTX 3060 12 GB") == "rtx306012gb"
    assert normalize_name("A100-80G") == "a10080gb"


# ---- validation: a broken copy of each file gives a precise message ---------------------------


def _edit(path: Path, mutate) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    mutate(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


def test_gpu_missing_field_names_file_entry_and_field(data_copy):
    _edit(data_copy / "gpus.yaml", lambda d: d[0].pop("bandwidth_gbs"))
    with pytest.raises(DataError, match=r"gpus\.yaml: entry 'gtx-980-ti': field 'bandwidth_gbs': Field required"):
        load_catalog_from(data_copy)


def test_gpu_bad_value_names_field(data_copy):
    def bad(d):
        next(g for g in d if g["id"] == "rtx-4090")["memory_gb"] = -24

    _edit(data_copy / "gpus.yaml", bad)
    with pytest.raises(DataError, match=r"entry 'rtx-4090': field 'memory_gb'"):
        load_catalog_from(data_copy)


def test_duplicate_alias_is_an_error(data_copy):
    def dup(d):
        next(g for g in d if g["id"] == "rtx-3080-ti")["aliases"].append("3090")

    _edit(data_copy / "gpus.yaml", dup)
    with pytest.raises(
        DataError, match=r"gpus\.yaml: entry 'rtx-3090': field 'aliases': '3090' also names 'rtx-3080-ti'"
    ):
        load_catalog_from(data_copy)


def test_unknown_architecture_is_an_error(data_copy):
    _edit(data_copy / "gpus.yaml", lambda d: d[0].update(architecture="kepler"))
    with pytest.raises(DataError, match=r"field 'architecture': 'kepler' is not in architectures\.yaml"):
        load_catalog_from(data_copy)


def test_architecture_error(data_copy):
    _edit(data_copy / "architectures.yaml", lambda d: d[4]["features"].pop("tma"))
    with pytest.raises(DataError, match=r"architectures\.yaml: entry 'ampere': field 'features\.tma'"):
        load_catalog_from(data_copy)


def test_price_for_unknown_gpu(data_copy):
    path = data_copy / "prices" / "2023-01.yaml"
    _edit(path, lambda d: d["prices"].update({"rtx-9090": {"new": 1}}))
    with pytest.raises(DataError, match=r"2023-01\.yaml: entry 'rtx-9090': field 'prices'"):
        load_catalog_from(data_copy)


def test_price_entry_without_price(data_copy):
    _edit(data_copy / "prices" / "2020-09.yaml", lambda d: d["prices"].update({"rtx-3090": {"source": "x"}}))
    with pytest.raises(DataError, match=r"2020-09\.yaml: field 'prices\.rtx-3090'"):
        load_catalog_from(data_copy)


def test_cloud_for_unknown_gpu(data_copy):
    _edit(data_copy / "clouds.yaml", lambda d: d[0].update(gpu="tpu-v5"))
    with pytest.raises(DataError, match=r"clouds\.yaml: entry 'aws-v100-guide-2020': field 'gpu'"):
        load_catalog_from(data_copy)


def test_build_with_negative_cost(data_copy):
    _edit(data_copy / "builds.yaml", lambda d: d[0].update(usd=-5))
    with pytest.raises(DataError, match=r"builds\.yaml: entry 2: field 'usd'"):
        load_catalog_from(data_copy)


def test_yaml_syntax_error_names_file(data_copy):
    (data_copy / "clouds.yaml").write_text("- id: [unclosed\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"clouds\.yaml: not valid YAML"):
        load_catalog_from(data_copy)


def test_missing_file_names_file(data_copy):
    (data_copy / "builds.yaml").unlink()
    with pytest.raises(DataError, match=r"builds\.yaml: file not found"):
        load_catalog_from(data_copy)


# ---- consistency of the specs ----------------------------------------------------------------


def test_bandwidth_matches_bus_width_times_data_rate(catalog):
    for gpu in catalog.gpus.values():
        if gpu.memory_bus_bits and gpu.memory_data_rate_gbps:
            derived = gpu.memory_bus_bits / 8 * gpu.memory_data_rate_gbps
            assert derived == pytest.approx(gpu.bandwidth_gbs, rel=0.015), gpu.id


def test_fp8_only_on_architectures_that_have_it(catalog):
    for gpu in catalog.gpus.values():
        arch = catalog.architectures[gpu.architecture]
        if gpu.fp8_tensor_tflops is not None:
            assert arch.features.fp8, gpu.id
        if arch.id in ("ada", "hopper") and gpu.has_tensor_cores:
            assert gpu.fp8_tensor_tflops is not None, gpu.id


def test_tma_only_on_hopper_and_later(catalog):
    with_tma = {a.id for a in catalog.architectures.values() if a.features.tma}
    assert with_tma == {"hopper", "blackwell"}


def test_half_rate_flag_matches_the_two_fp16_figures(catalog):
    for gpu in catalog.gpus.values():
        if gpu.fp16_tensor_tflops and gpu.fp16_tensor_tflops_fp16acc:
            ratio = gpu.fp16_tensor_tflops_fp16acc / gpu.fp16_tensor_tflops
            assert ratio == pytest.approx(2.0 if gpu.half_rate_fp32_accumulate else 1.0, rel=0.02), gpu.id


def test_no_tensor_figures_without_tensor_cores(catalog):
    for gpu in catalog.gpus.values():
        if not gpu.has_tensor_cores:
            assert gpu.fp16_tensor_tflops is None and gpu.fp8_tensor_tflops is None, gpu.id


def test_every_price_snapshot_is_dated_and_sourced(catalog):
    assert {"2020-09", "2023-01"} <= set(catalog.snapshots)
    for snap in catalog.snapshots.values():
        assert snap.sources and snap.prices
        for entry in snap.prices.values():
            assert entry.source


def test_guide_cloud_case_is_present(catalog):
    case = catalog.clouds["aws-v100-guide-2020"]
    assert str(case.on_demand_usd_per_hour) == "2.14" and case.historical
