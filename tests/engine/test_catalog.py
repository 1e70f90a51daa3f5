"""The catalog: loading, precise validation errors, alias resolution, data consistency."""

from __future__ import annotations

import re
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
    _edit(data_copy / "gpus.yaml", lambda d: d[0].update(architecture="fermi"))
    with pytest.raises(DataError, match=r"field 'architecture': 'fermi' is not in architectures\.yaml"):
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


def test_a_snapshot_is_named_after_the_month_of_its_date(data_copy):
    """Markets order snapshots by date and answers name them by id: the two must agree."""
    _edit(data_copy / "prices" / "2023-01.yaml", lambda d: d.update(date="2023-02-01"))
    with pytest.raises(DataError, match=r"2023-01\.yaml: field 'id': '2023-01' must be the file's name"):
        load_catalog_from(data_copy)


def test_a_snapshot_in_another_currency_is_refused(data_copy):
    _edit(data_copy / "prices" / "2026-09.yaml", lambda d: d.update(currency="CNY"))
    with pytest.raises(DataError, match=r"2026-09\.yaml: field 'currency': 'CNY'"):
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
    assert catalog.current_snapshot == max(catalog.snapshots.values(), key=lambda s: s.date).id
    for snap in catalog.snapshots.values():
        assert snap.sources and snap.prices and snap.currency == "USD", snap.id
        assert any("http" in s or "github.com" in s for s in snap.sources), snap.id  # a public address
        for gpu_id, entry in snap.prices.items():
            assert entry.source and len(entry.source) > 10, (snap.id, gpu_id)


def test_guide_cloud_case_is_present(catalog):
    case = catalog.clouds["aws-v100-guide-2020"]
    assert str(case.on_demand_usd_per_hour) == "2.14" and case.historical


# ---- breadth: every family people own or buy -------------------------------------------------

FAMILIES = {
    "GeForce 9xx": ["gtx-960", "gtx-970", "gtx-980", "gtx-980-ti", "titan-x-maxwell"],
    "GeForce 10xx": ["gtx-1050", "gtx-1050-ti", "gtx-1060-3gb", "gtx-1060-6gb", "gtx-1070", "gtx-1080", "gtx-1080-ti"],
    "GeForce 16xx": ["gtx-1650", "gtx-1650-super", "gtx-1660", "gtx-1660-super", "gtx-1660-ti"],
    "MX laptop": ["mx150", "mx250", "mx350", "mx450", "mx550", "mx570"],
    "Quadro M/P/T": [
        "quadro-m4000",
        "quadro-m6000",
        "quadro-p1000",
        "quadro-p2000",
        "quadro-p4000",
        "quadro-p5000",
        "quadro-p6000",
        "quadro-t1000",
        "quadro-t1000-laptop",
        "quadro-t2000-laptop",
    ],
    "RTX A desktop": ["rtx-a400", "rtx-a1000", "rtx-a2000", "rtx-a2000-12gb", "rtx-a4000", "rtx-a5000", "rtx-a6000"],
    "RTX A laptop": ["rtx-a2000-laptop", "rtx-a3000-laptop", "rtx-a4000-laptop", "rtx-a5000-laptop"],
    "Tesla": [
        "tesla-k80",
        "tesla-m40",
        "tesla-m40-24gb",
        "tesla-m60",
        "tesla-p4",
        "tesla-p40",
        "tesla-p100",
        "t4",
        "v100-16gb",
        "v100-32gb",
        "v100-32gb-pcie",
        "v100-16gb-sxm2",
        "v100s",
    ],
    "Ampere/Ada/Hopper data centre": ["a2", "a16", "a30", "l20", "l40", "h20"],
    "RTX 40/50 laptop": [
        "rtx-4050-laptop",
        "rtx-4060-laptop",
        "rtx-4070-laptop",
        "rtx-4080-laptop",
        "rtx-4090-laptop",
        "rtx-5070-laptop",
        "rtx-5070-ti-laptop",
        "rtx-5080-laptop",
        "rtx-5090-laptop",
    ],
    "China market": ["rtx-4090-d", "h20", "l20"],
    "RX 400/500": ["rx-470", "rx-480", "rx-570", "rx-580", "rx-590"],
    "Vega": ["rx-vega-56", "rx-vega-64", "radeon-vii"],
    "RX 5000/6000/7000/9000": [
        "rx-5700-xt",
        "rx-6600",
        "rx-6700-xt",
        "rx-6800-xt",
        "rx-6900-xt",
        "rx-7600",
        "rx-7800-xt",
        "rx-7900-xt",
        "rx-7900-xtx",
        "rx-9060-xt-16gb",
        "rx-9070-xt",
    ],
    "Instinct": ["mi50", "mi60", "mi100", "mi210", "mi250", "mi250x", "mi300x", "mi325x", "mi355x"],
    "Intel Arc": ["arc-a380", "arc-a750", "arc-a770-16gb", "arc-b570", "arc-b580", "arc-pro-b60"],
    "Jetson": [
        "jetson-nano",
        "jetson-orin-nano-8gb",
        "jetson-orin-nano-super",
        "jetson-orin-nx-16gb",
        "jetson-agx-orin-64gb",
    ],
    "Apple": [
        "apple-m1-8gb",
        "apple-m1-pro-32gb",
        "apple-m1-max-64gb",
        "apple-m1-ultra-128gb",
        "apple-m2-max-96gb",
        "apple-m2-ultra-192gb",
        "apple-m3-max-128gb",
        "apple-m3-ultra-512gb",
        "apple-m4-16gb",
        "apple-m4-pro-48gb",
        "apple-m4-max-128gb",
    ],
    "Unified-memory boxes": ["dgx-spark", "ryzen-ai-max-395"],
}


def test_the_catalog_covers_every_family(catalog):
    assert len(catalog.gpus) >= 160
    missing = {family: [g for g in ids if g not in catalog.gpus] for family, ids in FAMILIES.items()}
    assert {f: m for f, m in missing.items() if m} == {}
    vendors = {"nvidia", "amd", "intel", "apple", "huawei", "moore_threads", "cambricon", "hygon"}
    assert {g.vendor for g in catalog.gpus.values()} == vendors
    assert {g.platform for g in catalog.gpus.values()} == {"desktop", "laptop", "server", "embedded", "unified_memory"}


def test_every_entry_says_what_it_is_and_what_runs_on_it(catalog):
    for gpu in catalog.gpus.values():
        arch = catalog.architectures[gpu.architecture]
        assert gpu.memory_gb > 0 and gpu.bandwidth_gbs > 0 and gpu.tdp_w > 0, gpu.id
        assert arch.vendor == gpu.vendor and arch.software_sources, gpu.id
        assert gpu.platform != "desktop" or gpu.form_factor == "pcie", gpu.id
        sw = gpu.software
        if gpu.vendor == "nvidia":
            assert sw.cuda_cc is not None, gpu.id
        if gpu.vendor == "amd":
            assert sw.rocm is not None and sw.gfx is not None, gpu.id
        if gpu.vendor == "intel":
            assert sw.xpu and sw.pytorch == "current", gpu.id
        if gpu.vendor == "apple":
            assert sw.mps and sw.mlx and gpu.platform == "unified_memory" and gpu.software.cuda_cc is None, gpu.id


def _cc(gpu) -> float:
    return float(gpu.software.cuda_cc)


def test_pytorch_status_follows_the_compute_capability(catalog):
    """Today's default PyTorch wheels (CUDA 13) start at Turing (7.5); the legacy CUDA 12.6 build
    keeps Maxwell, Pascal and Volta (5.0-7.0); Kepler (3.x) has no current build. Jetson modules
    run NVIDIA's JetPack builds."""
    for gpu in catalog.gpus.values():
        if gpu.vendor != "nvidia":
            continue
        sw = gpu.software
        if sw.jetpack is not None:
            assert sw.pytorch in ("vendor", "dropped"), gpu.id
        elif _cc(gpu) < 5.0:
            assert sw.pytorch == "dropped" and sw.pytorch_last, gpu.id
        elif _cc(gpu) < 7.5:
            assert sw.pytorch == "legacy", gpu.id
        else:
            assert sw.pytorch == "current", gpu.id
    assert catalog.get("tesla-k80").software.pytorch == "dropped"
    assert catalog.get("gtx-980-ti").software.pytorch == "legacy"
    assert catalog.get("rtx-2080-ti").software.pytorch == "current"


def test_rocm_status_per_card(catalog):
    """Official: the RDNA 3/4 Radeons, CDNA Instincts and Strix Halo; community: RDNA 2 (gfx1030 as
    is, gfx1031/1032 with the 10.3.0 override) and gfx906 community builds; none: RDNA 1."""
    official = {g.software.gfx for g in catalog.gpus.values() if g.software.rocm == "official"}
    assert official <= {
        "gfx1100",
        "gfx1101",
        "gfx1102",
        "gfx1151",
        "gfx1200",
        "gfx1201",
        "gfx908",
        "gfx90a",
        "gfx942",
        "gfx950",
    }
    for gpu in catalog.gpus.values():
        sw = gpu.software
        if sw.rocm == "community" and sw.gfx in ("gfx1031", "gfx1032"):
            assert sw.hsa_override == "10.3.0", gpu.id
    assert catalog.get("rx-6700-xt").software.rocm == "community"
    assert catalog.get("rx-6800-xt").software.hsa_override is None
    assert catalog.get("rx-7900-xtx").software.rocm == "official"
    assert catalog.get("rx-5700-xt").software.rocm == "none"
    assert catalog.get("rx-580").software.rocm == "dropped"
    assert catalog.get("mi50").software.pytorch == "community"


def test_unified_memory_parts_give_the_gpus_share(catalog):
    """Apple: macOS's default GPU working set, about 75 % of the unified memory (documented per
    entry); the whole pool is unified_memory_gb."""
    for gpu in catalog.gpus.values():
        if gpu.platform == "unified_memory":
            assert gpu.unified_memory_gb is not None and gpu.memory_gb <= gpu.unified_memory_gb, gpu.id
            assert gpu.launch_price is None, gpu.id  # a whole computer's price is not a GPU price
        if gpu.vendor == "apple":
            assert gpu.memory_gb == pytest.approx(0.75 * gpu.unified_memory_gb, abs=0.05), gpu.id
            assert "75 %" in (gpu.notes or ""), gpu.id
    m3 = catalog.get("apple-m3-max-128gb")
    assert (m3.memory_gb, m3.unified_memory_gb, m3.bandwidth_gbs) == (96, 128, 400)
    assert catalog.get("ryzen-ai-max-395").memory_gb == 96


def test_facts_are_typed_fields_not_prose(catalog):
    """Power connectors, NVLink and cooling are fields; the 16-pin cards say so in the field."""
    for gid in ("rtx-3090-ti", "rtx-4080", "rtx-4090", "rtx-6000-ada", "h100-pcie"):
        assert catalog.get(gid).power_connector == "12vhpwr", gid
    assert catalog.get("rtx-5090").power_connector == "12v-2x6"
    assert (catalog.get("rtx-3090").power_connector, catalog.get("rtx-3090").cooling) == ("12pin", "open_air")
    assert catalog.get("rx-7900-xtx").power_connectors == 2
    assert catalog.get("gtx-1050-ti").power_connector == "none"
    assert catalog.get("rtx-a6000").cooling == "blower" and catalog.get("a100-80gb-pcie").cooling == "passive"
    for gpu in catalog.gpus.values():
        if gpu.form_factor in ("sxm", "oam"):
            assert gpu.power_connector == "board" and gpu.cooling == "passive", gpu.id
        if gpu.platform == "laptop":
            assert gpu.cooling == "laptop" and gpu.slot_width is None, gpu.id
    assert catalog.get("a100-80gb-sxm").nvlink and not catalog.get("rtx-4090").nvlink


def test_precisions_follow_the_matrix_units(catalog):
    from engine.support import precisions

    def of(gid):
        return precisions(catalog.get(gid), catalog.architecture(gid))

    assert of("rtx-4090") == ("fp16", "bf16", "fp8", "int8")
    assert of("rtx-3090") == ("fp16", "bf16", "int8")
    assert of("rtx-2080-ti") == ("fp16", "int8")
    assert of("gtx-1080-ti") == ("fp16",)
    assert of("mi300x") == ("fp16", "bf16", "fp8", "int8")
    assert of("arc-b580") == ("fp16", "bf16", "int8")
    assert of("apple-m3-max-128gb") == ("fp16",)


# A path on a machine, not a public address: "/work/...", "shared/data/...", a ".csv" file, file://.
_LOCAL = re.compile(
    r"(?:^|[\s('\"])(?:/(?:work|home|tmp|root|mnt)\b|(?:\.\./)*shared/(?:data|questions|guide)\b)|\.csv\b|file://",
    re.IGNORECASE,
)
_SESSION = re.compile(r"this session|in session|in-session|not re-verified|not opened|general knowledge", re.IGNORECASE)


def _cited(catalog) -> list[tuple[str, str]]:
    out = []
    for gpu in catalog.gpus.values():
        out += [(gpu.id, s) for s in gpu.sources]
        if gpu.launch_price:
            out.append((gpu.id, gpu.launch_price.source))
        out.append((gpu.id, gpu.notes or ""))
    for arch in catalog.architectures.values():
        out += [(arch.id, s) for s in (*arch.sources, *arch.software_sources)]
    return out


def test_sources_are_public_and_say_nothing_about_a_session(catalog):
    bad = [(who, s) for who, s in _cited(catalog) if _LOCAL.search(s) or _SESSION.search(s)]
    assert bad == []
    assert not _LOCAL.search("https://www.nvidia.com/en-us/products/workstations/dgx-spark/ 128 KB shared/L1")


@pytest.mark.parametrize(
    "text",
    [
        "shared reference table /work/shared/data/gpu_specs_reference.csv",
        "see shared/data/gpu_specs_reference",
        "MSRP $649 (not re-verified this session)",
        "product specs (general knowledge; not opened in session)",
    ],
)
def test_the_source_check_catches_local_paths_and_session_wording(text):
    assert _LOCAL.search(text) or _SESSION.search(text)


# ---- names people type ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # memory sizes
        ("3060 12G", "rtx-3060-12gb"),
        ("a100 80g", "a100-80gb-sxm"),
        ("a100 40gb pcie", "a100-40gb-pcie"),
        ("4060 ti 16gb", "rtx-4060-ti-16gb"),
        ("1060 3gb", "gtx-1060-3gb"),
        ("m40 24gb", "tesla-m40-24gb"),
        ("a2000 12gb", "rtx-a2000-12gb"),
        # laptop / mobile, in English and Chinese
        ("4070 laptop", "rtx-4070-laptop"),
        ("4090 mobile", "rtx-4090-laptop"),
        ("RTX 4050 Laptop GPU", "rtx-4050-laptop"),
        ("5090 laptop", "rtx-5090-laptop"),
        ("5070 ti laptop", "rtx-5070-ti-laptop"),
        ("笔记本 4060", "rtx-4060-laptop"),
        ("4060 笔记本", "rtx-4060-laptop"),
        ("筆電 4070", "rtx-4070-laptop"),
        ("移动版 4080", "rtx-4080-laptop"),
        ("1650 laptop", "gtx-1650-laptop"),
        ("a3000 laptop", "rtx-a3000-laptop"),
        ("MX450", "mx450"),
        # Ti, Super, D
        ("1660 ti", "gtx-1660-ti"),
        ("1660 super", "gtx-1660-super"),
        ("1660s", "gtx-1660-super"),
        ("2070s", "rtx-2070-super"),
        ("4090D", "rtx-4090-d"),
        ("RTX 4090 D", "rtx-4090-d"),
        ("N卡 4090", "rtx-4090"),
        # older GeForce, Quadro, Tesla
        ("gtx 970", "gtx-970"),
        ("GTX 1050", "gtx-1050"),
        ("Quadro P4000", "quadro-p4000"),
        ("quadro rtx 5000", "quadro-rtx-5000"),
        ("tesla k80", "tesla-k80"),
        ("K80", "tesla-k80"),
        ("Tesla P4", "tesla-p4"),
        ("V100S", "v100s"),
        ("h20", "h20"),
        ("L20", "l20"),
        # AMD
        ("7900xtx", "rx-7900-xtx"),
        ("A卡 7900 XTX", "rx-7900-xtx"),
        ("7900 xt", "rx-7900-xt"),
        ("6700 XT", "rx-6700-xt"),
        ("RX580", "rx-580"),
        ("rx 580 8g", "rx-580"),
        ("Radeon VII", "radeon-vii"),
        ("vega 64", "rx-vega-64"),
        ("9070xt", "rx-9070-xt"),
        ("W7900", "radeon-pro-w7900"),
        ("MI300X", "mi300x"),
        ("mi250x", "mi250x"),
        ("MI 250", "mi250"),
        ("mi50", "mi50"),
        ("Ryzen AI Max+ 395", "ryzen-ai-max-395"),
        ("strix halo", "ryzen-ai-max-395"),
        # Intel
        ("arc a770", "arc-a770-16gb"),
        ("Intel Arc B580", "arc-b580"),
        ("B60", "arc-pro-b60"),
        # Jetson and unified-memory boxes
        ("orin nano", "jetson-orin-nano-8gb"),
        ("jetson orin nano super", "jetson-orin-nano-super"),
        ("Jetson AGX Orin", "jetson-agx-orin-64gb"),
        ("Jetson Orin AGX", "jetson-agx-orin-64gb"),  # the words swapped
        ("jetson orin agx 32gb", "jetson-agx-orin-32gb"),
        ("jetson nano", "jetson-nano"),
        ("DGX Spark", "dgx-spark"),
        # Apple
        ("M2 Max 96GB", "apple-m2-max-96gb"),
        ("m3 max", "apple-m3-max-36gb"),
        ("M3 Max 128GB", "apple-m3-max-128gb"),
        ("MacBook Pro M3 Max 128GB", "apple-m3-max-128gb"),
        ("Mac Studio M2 Ultra 192GB", "apple-m2-ultra-192gb"),
        ("m4 pro 48g", "apple-m4-pro-48gb"),
        ("apple m1", "apple-m1-8gb"),
        ("苹果 M4 Max 128GB", "apple-m4-max-128gb"),
    ],
)
def test_every_family_resolves_by_the_names_people_type(catalog, text, expected):
    assert catalog.resolve(text) == expected


@pytest.mark.parametrize(
    ("text", "not_this"),
    [
        ("4090", "rtx-4090-d"),
        ("4090", "rtx-4090-laptop"),
        ("4060", "rtx-4060-laptop"),
        ("mi250", "mi250x"),
        ("mi300x", "mi300a"),
        ("l40", "l40s"),
        ("m3", "apple-m3-pro-18gb"),
        ("m3 max", "apple-m3-max-128gb"),
        ("orin nano", "jetson-orin-nano-super"),
        ("jetson nano", "jetson-orin-nano-8gb"),
        ("a2000", "rtx-a2000-laptop"),
    ],
)
def test_a_close_name_never_becomes_a_different_card(catalog, text, not_this):
    assert catalog.resolve(text) != not_this


@pytest.mark.parametrize(
    "text", ["mi250y", "rx 6700", "m3 max 96gb", "4080d", "a6000 laptop", "titan x", "rx 7900", "4070 laptop super"]
)
def test_unknown_variants_are_refused(catalog, text):
    assert catalog.resolve(text) is None


def test_did_you_mean_only_for_a_close_name(catalog):
    assert catalog.suggest("banana") == [] and catalog.suggest("hello") == []
    assert "rx-6700-xt" in catalog.suggest("rx 6700")
    assert "gtx-1660-super" in catalog.suggest("1660 supper")
    assert "apple-m3-max-36gb" in catalog.suggest("m3 maxx")
    assert "mi250x" in catalog.suggest("mi250y")


# ---- broken files: the new fields name themselves ------------------------------------------------


def _set(gid: str, **fields):
    def mutate(d):
        entry = next(g for g in d if g["id"] == gid)
        for key, value in fields.items():
            if value is None:
                entry.pop(key, None)
            else:
                entry[key] = value

    return mutate


@pytest.mark.parametrize(
    ("gid", "fields", "message"),
    [
        ("rtx-4090", {"power_connector": "16pin"}, r"entry 'rtx-4090': field 'power_connector'"),
        ("rtx-4090", {"cooling": "water"}, r"entry 'rtx-4090': field 'cooling'"),
        ("rtx-4090", {"software": {"pytorch": "current"}}, r"entry 'rtx-4090': .*cuda_cc"),
        (
            "rtx-4090",
            {"software": {"pytorch": "sometimes", "cuda_cc": "8.9"}},
            r"entry 'rtx-4090': field 'software\.pytorch'",
        ),
        ("tesla-k80", {"software": {"pytorch": "dropped", "cuda_cc": "3.7"}}, r"entry 'tesla-k80': .*pytorch_last"),
        (
            "tesla-k80",
            {"software": {"pytorch": "dropped", "cuda_cc": "3.7", "pytorch_last": "2.0"}},
            r"entry 'tesla-k80': .*pytorch_last_cuda",
        ),
        (
            "rx-6700-xt",
            {"software": {"pytorch": "community", "rocm": "official", "gfx": "gfx1031", "hsa_override": "10.3.0"}},
            r"entry 'rx-6700-xt': .*hsa_override",
        ),
        ("rx-7900-xtx", {"software": {"pytorch": "current"}}, r"entry 'rx-7900-xtx': .*software\.rocm"),
        ("apple-m3-max-128gb", {"unified_memory_gb": None}, r"entry 'apple-m3-max-128gb': .*unified_memory_gb"),
        ("rtx-4090", {"unified_memory_gb": 64}, r"entry 'rtx-4090': .*unified_memory_gb"),
        ("rtx-4090", {"platform": "phone"}, r"entry 'rtx-4090': field 'platform'"),
        ("rtx-4090", {"software": None}, r"entry 'rtx-4090': field 'software': Field required"),
    ],
)
def test_new_fields_give_precise_errors(data_copy, gid, fields, message):
    _edit(data_copy / "gpus.yaml", _set(gid, **fields))
    with pytest.raises(DataError, match=message):
        load_catalog_from(data_copy)


def test_vendor_must_make_the_architecture(data_copy):
    _edit(data_copy / "gpus.yaml", _set("rx-580", architecture="ampere"))
    with pytest.raises(DataError, match=r"entry 'rx-580': field 'vendor': 'amd' does not make Ampere GPUs"):
        load_catalog_from(data_copy)


def test_old_entries_without_platform_keep_working(data_copy):
    _edit(data_copy / "gpus.yaml", _set("a100-80gb-sxm", platform=None))
    _edit(data_copy / "gpus.yaml", _set("rtx-4090-laptop", platform=None))
    catalog = load_catalog_from(data_copy)
    assert catalog.get("a100-80gb-sxm").platform == "server"
    assert catalog.get("rtx-4090-laptop").platform == "laptop"
    assert catalog.get("rtx-4090").platform == "desktop"
