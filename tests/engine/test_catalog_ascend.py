"""Huawei Ascend parts beyond the 910B family (added 2026-12-06): the original Ascend 910 (910A) and the
Ascend 310P inference cards (Atlas 300I Pro, Atlas 300I Duo). Each loads with its sourced figures, resolves
from the names people type, and whole questions find it; the 910B family still resolves as before."""

from __future__ import annotations

import pytest

from engine.catalog import Catalog
from engine.parse import parse

NEW_IDS = ("ascend-910", "atlas-300i-pro", "atlas-300i-duo")

# id → (architecture, memory_gb, memory_type, bandwidth_gbs, AI cores, INT8 TOPS, FP16 TFLOPS, tdp_w)
SPECS = {
    # Huawei's 2019 launch: 256 TFLOPS FP16, 512 TOPS INT8, 310 W; 32 GB HBM2 and 32 cores (Linley)
    "ascend-910": ("davinci-c100", 32, "HBM2", 1200, 32, 512, 256, 310),
    # one 310P: half the Duo's per-board figures (no Huawei datasheet in the sources)
    "atlas-300i-pro": ("davinci-m200", 24, "LPDDR4X", 204, 8, 140, None, 75),
    # two 310P: 96 GB LPDDR4X, 408 GB/s, 280 TOPS INT8, 150 W (3DNews / Elektronikpraxis)
    "atlas-300i-duo": ("davinci-m200", 96, "LPDDR4X", 408, 16, 280, None, 150),
}


@pytest.mark.parametrize("gpu_id", sorted(SPECS))
def test_each_card_loads_with_its_sourced_figures(catalog: Catalog, gpu_id: str) -> None:
    gpu = catalog.get(gpu_id)
    arch, memory, memory_type, bandwidth, cores, int8, fp16, tdp = SPECS[gpu_id]
    assert (gpu.vendor, gpu.architecture, gpu.gpu_class, gpu.platform) == ("huawei", arch, "datacenter", "server")
    assert (gpu.memory_gb, gpu.memory_type, gpu.bandwidth_gbs) == (memory, memory_type, bandwidth)
    assert (gpu.sm_count, gpu.tensor_cores) == (cores, cores)  # AI cores, one Cube each
    assert (gpu.int8_tensor_tops, gpu.fp16_tensor_tflops, gpu.tdp_w) == (int8, fp16, tdp)
    assert gpu.fp8_tensor_tflops is None and gpu.fp32_tflops is None  # no FP8; no published FP32 figure
    assert gpu.form_factor == "pcie"
    sw = gpu.software
    assert (sw.pytorch, sw.npu, sw.cuda_cc, sw.rocm) == ("vendor", True, None, None)
    # every figure is sourced, and the notes say what is estimated or derived
    assert len(gpu.sources) >= 3 and all("(http" in s for s in gpu.sources), gpu_id
    assert gpu.notes and ("estimate" in gpu.notes or "derived" in gpu.notes or "totals" in gpu.notes)


def test_the_sources_behind_the_headline_figures(catalog: Catalog) -> None:
    a910 = catalog.get("ascend-910")
    assert any("pureai.com" in s and "256 TFLOPS" in s and "512 TOPS" in s and "310 W" in s for s in a910.sources)
    assert any("linleygroup.com" in s and "32 GB of HBM2" in s for s in a910.sources)
    assert any("Project-HAMi/ascend-device-plugin" in s and "910A" in s for s in a910.sources)
    assert "not a Huawei figure" in (a910.notes or "")  # the bandwidth is an estimate, and says so
    duo = catalog.get("atlas-300i-duo")
    assert any("3dnews.ru" in s and "408 GB/s" in s and "280 TOPS" in s for s in duo.sources)
    assert any("elektronikpraxis.de" in s for s in duo.sources)
    assert (duo.pcie_gen, duo.cooling) == (4, "passive")
    pro = catalog.get("atlas-300i-pro")
    assert any("310P3" in s and "24576 MB" in s for s in pro.sources)


def test_the_new_architectures_have_fp16_and_int8_cubes_and_no_bf16(catalog: Catalog) -> None:
    """The 910 and the 310P predate BF16 on Ascend (the 910B's dav-c220 has it): answers use FP16."""
    from engine.canrun import _half

    for arch_id, year in (("davinci-c100", 2019), ("davinci-m200", 2021)):
        arch = catalog.architectures[arch_id]
        assert (arch.vendor, arch.year) == ("huawei", year)
        f = arch.features
        assert (f.matrix_unit, f.int8, f.bf16, f.fp8) == ("cube", True, False, False), arch_id
        assert arch.sources and arch.software_sources
    assert catalog.architectures["davinci-c220"].features.bf16  # the 910B's architecture is unchanged
    for gpu_id in NEW_IDS:
        assert _half(catalog.get(gpu_id)) == "fp16", gpu_id
    assert _half(catalog.get("ascend-910b")) == "bf16"


@pytest.mark.parametrize("gpu_id", NEW_IDS)
def test_no_price_is_invented(catalog: Catalog, gpu_id: str) -> None:
    gpu = catalog.get(gpu_id)
    assert gpu.launch_price is None
    for snapshot in catalog.snapshots.values():
        assert gpu_id not in snapshot.prices, (gpu_id, snapshot.id)


def test_server_cards_are_for_organisations(catalog: Catalog) -> None:
    for gpu_id in ("ascend-910", "atlas-300i-duo"):  # passive server cards
        gpu = catalog.get(gpu_id)
        assert not gpu.buyable(organization=False) and gpu.buyable(organization=True), gpu_id
        assert gpu.stacks


NAMES = [
    # the original Ascend 910 (910A)
    ("Ascend 910", "ascend-910"),
    ("ascend910", "ascend-910"),
    ("910A", "ascend-910"),
    ("910a", "ascend-910"),
    ("Ascend 910A", "ascend-910"),
    ("Huawei Ascend 910", "ascend-910"),
    ("huawei 910", "ascend-910"),
    ("昇腾910A", "ascend-910"),
    ("昇騰910A", "ascend-910"),
    ("华为910A", "ascend-910"),
    # the 910B family is unchanged
    ("910B", "ascend-910b"),
    ("910b", "ascend-910b"),
    ("昇腾910B", "ascend-910b"),
    ("Ascend 910B", "ascend-910b"),
    ("910B2", "ascend-910b2"),
    ("910B3", "ascend-910b"),
    ("910B4", "ascend-910b-32gb"),
    # the 310P chip names → the one-chip card
    ("310P", "atlas-300i-pro"),
    ("310p3", "atlas-300i-pro"),
    ("Ascend 310P", "atlas-300i-pro"),
    ("昇腾310P", "atlas-300i-pro"),
    ("昇騰310P", "atlas-300i-pro"),
    ("Atlas 300I Pro", "atlas-300i-pro"),
    ("300I Pro", "atlas-300i-pro"),
    # the two-chip card
    ("Atlas 300I Duo", "atlas-300i-duo"),
    ("atlas 300i duo", "atlas-300i-duo"),
    ("300I Duo", "atlas-300i-duo"),
    ("300i duo", "atlas-300i-duo"),
    ("Atlas 300I Duo 96GB", "atlas-300i-duo"),
    ("Huawei Atlas 300I Duo", "atlas-300i-duo"),
]


@pytest.mark.parametrize(("text", "gpu_id"), NAMES)
def test_names_resolve(catalog: Catalog, text: str, gpu_id: str) -> None:
    assert catalog.resolve(text) == gpu_id


@pytest.mark.parametrize("text", ["910", "310", "910D", "Ascend 910D", "昇腾910D", "910 pro"])
def test_bare_numbers_and_unknown_chips_name_no_card(catalog: Catalog, text: str) -> None:
    """910 and 310 alone are too common as plain numbers to be aliases. A 910D is not in the catalog (the 910C is
    since 2026-12-07, tests/engine/test_domestic_accelerators.py), and no fuzzy match reads it as the 910A."""
    assert catalog.resolve(text) is None


def test_no_alias_is_a_bare_number(catalog: Catalog) -> None:
    from engine.catalog import normalize_name

    for gpu_id in NEW_IDS:
        gpu = catalog.get(gpu_id)
        for alias in gpu.aliases:
            assert not normalize_name(alias).isdigit(), (gpu_id, alias)


# Whole questions that name the parts without 昇腾/Ascend/华为 before the chip, or by the card's name.
QUESTIONS = [
    ("910A能训练吗", ("ascend-910",)),
    ("910A能跑qwen 7b吗", ("ascend-910",)),
    ("huawei 910 training", ("ascend-910",)),
    ("910B能跑qwen2.5 72b吗", ("ascend-910b",)),
    ("华为910B能跑qwen 72b吗", ("ascend-910b",)),
    ("昇腾910B能训练吗", ("ascend-910b",)),
    ("310P能跑qwen 7b吗", ("atlas-300i-pro",)),
    ("Atlas 300I Pro能跑yolo吗", ("atlas-300i-pro",)),
    ("Ascend 310 run yolo", ()),  # the 2018 edge chip: not the 310P card, and not in the catalog
    ("300I Duo能跑qwen 72b吗", ("atlas-300i-duo",)),
    ("atlas 300i duo 跑 deepseek 32b", ("atlas-300i-duo",)),
]


@pytest.mark.parametrize(("text", "gpus"), QUESTIONS)
def test_questions_name_the_parts(text: str, gpus: tuple[str, ...]) -> None:
    query = parse(text, standalone=True).query
    assert query is not None
    assert query.gpus == gpus


def test_two_duo_cards_are_two_cards() -> None:
    query = parse("2张300I Duo能跑deepseek 70b吗", standalone=True).query
    assert query is not None
    assert (query.gpus, query.num_gpus) == (("atlas-300i-duo",), 2)


def test_a_bare_910_is_no_card_and_no_count() -> None:
    query = parse("我有910块钱", standalone=True).query
    assert query is not None
    assert query.gpus == () and query.num_gpus is None
    # "910卡" after 昇腾 is the chip, not 910 cards (whether or not the chip is read as the Ascend 910)
    query = parse("昇腾910卡支持lora训练吗？", standalone=True).query
    assert query is not None
    assert query.num_gpus is None and set(query.gpus) <= {"ascend-910"}


# "昇腾910" folds to "ascend 910" (engine.catalog._LOCAL_WORDS and the parser's tokens), and a chip the
# catalog has, right after the name, is read as that card rather than skipped as a chip number.


@pytest.mark.parametrize(
    ("text", "gpu_id"),
    [("昇腾910", "ascend-910"), ("昇騰910", "ascend-910"), ("华为910", "ascend-910")],
)
def test_chinese_names_without_a_letter_resolve(catalog: Catalog, text: str, gpu_id: str) -> None:
    assert catalog.resolve(text) == gpu_id


@pytest.mark.parametrize(
    ("text", "gpus"),
    [
        ("昇腾910能训练吗", ("ascend-910",)),
        ("昇腾910A能训练吗", ("ascend-910",)),
        ("Ascend 910 for training?", ("ascend-910",)),
        ("华为910A能跑qwen 7b吗", ("ascend-910",)),
        ("昇腾310P推理qwen 7b", ("atlas-300i-pro",)),
        ("Ascend 310P run yolo", ("atlas-300i-pro",)),
    ],
)
def test_questions_name_the_parts_next_to_ascend(text: str, gpus: tuple[str, ...]) -> None:
    query = parse(text, standalone=True).query
    assert query is not None
    assert query.gpus == gpus
