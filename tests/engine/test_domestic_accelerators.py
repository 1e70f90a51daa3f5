"""Hygon DCUs (海光, added 2026-12-07): the Z100 and the K100-AI. Each loads with its sourced figures, resolves
from the names people type in English and Chinese (and only those: a bare "K100" or "Z100L" is another card),
carries the "no CUDA" caveat in every language, and a can-run verdict on each is worked by hand."""

from __future__ import annotations

import math

import pytest

from bot.words import render
from engine import advise
from engine.canrun import assess
from engine.catalog import Catalog, load_catalog, normalize_name
from engine.query import Query
from engine.support import limited, runs_cuda_projects, software_caveats, software_notes

# id → (architecture, memory_gb, memory_type, bandwidth_gbs, FP16 TFLOPS, FP32 TFLOPS, INT8 TOPS, CUs, tdp_w, year)
SPECS = {
    # Hygon's IPO prospectus, Deep Computing No. 1: 32 GB HBM2 on 4,096 bit, 1,024 GB/s, 64 CUs, 350 W
    "hygon-z100": ("hygon-gfx906", 32, "HBM2", 1024, None, None, None, 64, 350, 2021),
    # Hygon's peak table (hblas-bench): 64 GB, 896 GB/s, FP16/BF16 196, FP32 49, INT8 392, 120 CUs; 400 W (SEU)
    "hygon-k100-ai": ("hygon-gfx928", 64, "HBM", 896, 196, 49, 392, 120, 400, 2024),
}
NAMES = [
    ("Hygon DCU Z100", "hygon-z100"),
    ("Z100", "hygon-z100"),
    ("z100", "hygon-z100"),
    ("DCU Z100", "hygon-z100"),
    ("海光Z100", "hygon-z100"),
    ("海光 Z100", "hygon-z100"),
    ("海光DCU Z100", "hygon-z100"),
    ("Hygon DCU K100-AI", "hygon-k100-ai"),
    ("K100-AI", "hygon-k100-ai"),
    ("K100 AI", "hygon-k100-ai"),
    ("k100ai", "hygon-k100-ai"),
    ("K100_AI", "hygon-k100-ai"),  # hy-smi's and DTK's spelling
    ("DCU K100-AI", "hygon-k100-ai"),
    ("海光K100 AI", "hygon-k100-ai"),
    ("海光 K100 AI", "hygon-k100-ai"),
    ("海光K100-AI", "hygon-k100-ai"),
    ("海光DCU K100-AI", "hygon-k100-ai"),
]
# Another card, a family or a count: never one of these two
NOT_THESE = ["K100", "海光K100", "DCU K100", "Z100L", "Hygon Z100L", "海光DCU", "DCU", "100", "海光"]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


@pytest.mark.parametrize("gpu_id", sorted(SPECS))
def test_each_card_loads_with_its_sourced_figures(catalog: Catalog, gpu_id: str) -> None:
    gpu = catalog.get(gpu_id)
    arch, memory, memory_type, bandwidth, fp16, fp32, int8, cus, tdp, year = SPECS[gpu_id]
    assert (gpu.vendor, gpu.architecture, gpu.gpu_class, gpu.form_factor) == ("hygon", arch, "datacenter", "pcie")
    assert (gpu.memory_gb, gpu.memory_type, gpu.bandwidth_gbs) == (memory, memory_type, bandwidth)
    assert (gpu.fp16_tensor_tflops, gpu.fp32_tflops, gpu.int8_tensor_tops) == (fp16, fp32, int8)
    assert (gpu.sm_count, gpu.tdp_w, gpu.release_year) == (cus, tdp, year)
    assert gpu.fp8_tensor_tflops is None
    assert catalog.architectures[arch].vendor == "hygon"
    sw = gpu.software
    assert (sw.pytorch, sw.cuda_cc, sw.rocm, sw.gfx, sw.npu) == ("vendor", None, None, None, False)
    assert len(gpu.sources) >= 3 and all("(http" in s for s in gpu.sources), gpu_id
    assert gpu.notes and "DTK" in gpu.notes and "光合开发者社区" in gpu.notes
    assert gpu.launch_price is None  # no dated public price
    for snapshot in catalog.snapshots.values():
        assert gpu_id not in snapshot.prices, (gpu_id, snapshot.id)


def test_the_sources_behind_the_headline_figures(catalog: Catalog) -> None:
    z100 = catalog.get("hygon-z100")
    prospectus = next(s for s in z100.sources if "prospectus" in s)
    assert "32 GB HBM2" in prospectus and "1,024 GB/s" in prospectus and "350 W" in prospectus
    assert (z100.memory_bus_bits, z100.pcie_gen) == (4096, 4)
    assert z100.bandwidth_gbs == z100.memory_bus_bits / 8 * 2.0  # 4,096 bit at HBM2's 2.0 Gbps per pin
    assert "not a Z100 datasheet" in (z100.notes or "")  # matched to the prospectus's generation, said so
    k100 = catalog.get("hygon-k100-ai")
    assert any("hblas-bench" in s and "896 GB/s" in s and "FP16 196" in s for s in k100.sources)
    assert any("400 W" in s for s in k100.sources)
    assert "not a Hygon datasheet figure" in (k100.notes or "")
    assert "gfx928" in (k100.notes or "") and "gfx906" in (z100.notes or "")


def test_the_architectures_claim_only_what_is_published(catalog: Catalog) -> None:
    gfx906 = catalog.architectures["hygon-gfx906"].features
    assert (gfx906.matrix_unit, gfx906.bf16, gfx906.int8, gfx906.fp8) == ("none", False, False, False)
    gfx928 = catalog.architectures["hygon-gfx928"].features
    assert (gfx928.matrix_unit, gfx928.bf16, gfx928.int8, gfx928.fp8) == ("matrix_core", True, True, False)


@pytest.mark.parametrize(("text", "gpu_id"), NAMES)
def test_each_resolves_from_english_and_chinese_names(catalog: Catalog, text: str, gpu_id: str) -> None:
    assert catalog.resolve(text) == gpu_id


@pytest.mark.parametrize("text", NOT_THESE)
def test_other_cards_families_and_numbers_name_neither(catalog: Catalog, text: str) -> None:
    assert catalog.resolve(text) not in SPECS


def test_no_alias_is_a_bare_number_or_another_cards(catalog: Catalog) -> None:
    for gpu_id in SPECS:
        gpu = catalog.get(gpu_id)
        for alias in gpu.aliases:
            key = normalize_name(alias)
            assert not key.isdigit(), alias
            assert catalog.alias_index[key] == gpu_id, alias


@pytest.mark.parametrize("gpu_id", sorted(SPECS))
def test_no_cuda_is_said_in_english_and_chinese(gpu_id: str) -> None:
    gpu = load_catalog().get(gpu_id)
    notes = software_notes(gpu)
    assert [m.key for m in notes] == ["support.other"]  # no note of its own yet: the neutral one, never Apple's
    assert limited(gpu) and software_caveats(gpu) == notes
    assert runs_cuda_projects(gpu) is None  # HIP code runs, CUDA binaries do not: unsaid, like AMD
    assert "no CUDA" in render(notes[0], "en")
    assert "没有 CUDA" in render(notes[0], "zh-Hans") and "沒有 CUDA" in render(notes[0], "zh-Hant")
    answer = advise(Query(kind="info", gpus=(gpu_id,)))
    assert "support.other" in [m.key for m in answer.caveats] or "support.other" in repr(answer.headline)


def test_qwen_72b_on_one_k100_ai_worked() -> None:
    """Qwen2.5-72B (72.7B parameters, 80 layers, 8 KV heads of 128) on one 64 GB K100-AI: BF16 needs three cards,
    GGUF Q6_K fits on one.

    weights   72.7e9 × 6.5625 bit / 8            = 59.637 GB
    KV cache  2 × 8 × 128 × 80 × 8,192 × 2 B     =  2.684 GB
    + activations 0.095 GB + runtime 1.0 GB       = 63.416 GB = 59.06 GiB ≤ 64 GB  → fits
    decode    896 GB/s / (59.637 + 2.684) GB      = 14.38 token/s bound, 60-80 % of it: 8.6-11.5 token/s
    """
    report = assess(Query(kind="can_run", gpus=("hygon-k100-ai",), model="Qwen2.5-72B"))
    verdict = report.verdicts[0]
    assert (verdict.fits, verdict.mode, verdict.precision, verdict.count) == (True, "inference", "q6_k", 1)
    terms = {t.name: t.gb for t in verdict.estimate.terms}
    assert terms["weights"] == pytest.approx(72.7e9 * 6.5625 / 8 / 1e9)
    assert terms["KV cache"] == pytest.approx(2 * 8 * 128 * 80 * 8192 * 2 / 1e9)
    assert verdict.estimate.total_gb == pytest.approx(63.416, abs=0.001)
    assert verdict.need_gib == pytest.approx(63.416e9 / 2**30, abs=0.01)
    assert verdict.decode is not None
    bound = 896 / (terms["weights"] + terms["KV cache"])
    assert verdict.decode.bound == pytest.approx(bound) and bound == pytest.approx(14.38, abs=0.01)
    assert (verdict.decode.low, verdict.decode.high) == pytest.approx((0.6 * bound, 0.8 * bound))

    bf16 = assess(
        Query(kind="can_run", gpus=("hygon-k100-ai",), gpu_counts=(3,), model="Qwen2.5-72B"), precision="bf16"
    ).verdicts[0]
    assert (bf16.fits, bf16.count, bf16.precision) == (True, 3, "bf16")
    assert bf16.need_gib < 64 < 2 * bf16.need_gib  # a third of 145 GB of weights each: two cards would not hold it
    assert math.ceil(72.7e9 * 2 / 64e9) == 3


def test_chatglm3_6b_on_a_z100_runs_in_fp16_worked() -> None:
    """ChatGLM3-6B (6.24B parameters) on a 32 GB Z100: FP16, since the gfx906 generation claims no BF16.

    weights 6.24e9 × 2 B = 12.48 GB; decode bound 1,024 GB/s / (12.48 + 0.235) GB = 80.5 token/s
    """
    verdict = assess(Query(kind="can_run", gpus=("hygon-z100",), model="ChatGLM3-6B")).verdicts[0]
    assert (verdict.fits, verdict.precision) == (True, "fp16")
    assert {t.name: t.gb for t in verdict.estimate.terms}["weights"] == pytest.approx(12.48)
    assert verdict.decode is not None and verdict.decode.bound == pytest.approx(80.5, abs=0.1)


@pytest.mark.parametrize(
    ("text", "gpus"),
    [
        ("海光K100能跑Qwen2.5-72B吗", ()),  # the plain K100 is not in the catalog: no card, rather than the wrong one
        ("海光K100 AI能跑Qwen2.5-72B吗", ("hygon-k100-ai",)),
        ("海光 K100 AI 跑 Qwen2.5-72B 要几张", ("hygon-k100-ai",)),
        ("海光Z100能微调chatglm3-6b吗", ("hygon-z100",)),
        ("Can a Hygon K100-AI run Llama 3 70B?", ("hygon-k100-ai",)),
        # the line named without a card: the K100-AI stands for it (a guess, the other Hygon cards as options)
        ("海光DCU能跑chatglm3-6b吗", ("hygon-k100-ai",)),
        ("Does vLLM support Hygon DCUs?", ("hygon-k100-ai",)),
        ("海光Z100L能微调吗", ()),  # a chip the catalog lacks: no stand-in
        ("电脑处理器是海光3350，能用显卡加速吗", ()),  # Hygon's CPUs are no DCU
        # the Atlas 800T A2 server is built of 910B2 modules: its "A2" is no NVIDIA A2
        ("LMDeploy支持Atlas 800T A2，那是否支持910B2？", ("ascend-910b2",)),
        ("昇腾910C能跑qwen 72b吗", ("ascend-910c",)),
        ("Ascend 910C 跑 DeepSeek-R1 要几张", ("ascend-910c",)),
    ],
)
def test_questions_name_the_cards(text: str, gpus: tuple[str, ...]) -> None:
    from engine.parse import parse

    query = parse(text, standalone=True).query
    assert query is not None and query.gpus == gpus


# ---- Huawei Ascend 910C (added 2026-12-07) ----

ASCEND_910C_NAMES = [
    "910C",
    "910c",
    "Ascend 910C",
    "Huawei 910C",
    "P910C",
    "昇腾910C",
    "昇騰910C",
    "华为910C",
    "華為910C",
]


@pytest.mark.parametrize("text", ASCEND_910C_NAMES)
def test_the_910c_resolves_from_english_and_chinese_names(catalog: Catalog, text: str) -> None:
    assert catalog.resolve(text) == "ascend-910c"


def test_the_910c_loads_with_its_sourced_figures(catalog: Catalog) -> None:
    """Two dies of msmodeling's A3 profile (64 GB, 1.6 TB/s, FP16 376, INT8 752 each): the package's totals."""
    gpu = catalog.get("ascend-910c")
    assert (gpu.vendor, gpu.architecture, gpu.form_factor, gpu.release_year) == ("huawei", "davinci-c220", "oam", 2025)
    assert (gpu.memory_gb, gpu.memory_type, gpu.bandwidth_gbs) == (2 * 64, "HBM2E", 2 * 1600)
    assert (gpu.fp16_tensor_tflops, gpu.int8_tensor_tops, gpu.fp32_tflops) == (2 * 376, 2 * 752, 2 * 11)
    assert (gpu.sm_count, gpu.tensor_cores) == (2 * 20, 2 * 20)  # HAMi's 20 AI cores per die
    assert (gpu.software.pytorch, gpu.software.npu, gpu.software.cuda_cc) == ("vendor", True, None)
    assert any("ATLAS_800_A3_752T_128G_DIE" in s for s in gpu.sources)
    assert any("3,200 GB/s" in s and "HBM2E" in s for s in gpu.sources)
    assert any("350 W" in s for s in gpu.sources)
    assert "not a Huawei figure" in (gpu.notes or "")  # the power is a press report's, said so
    assert gpu.launch_price is None


def test_qwen_72b_on_one_910c_worked() -> None:
    """Qwen2.5-72B on one 128 GB 910C: BF16 (145.4 GB of weights) does not fit, INT8 does.

    weights 72.7e9 × 1 B = 72.7 GB; + KV 2.684 + activations 0.095 + runtime 1.0 = 76.48 GB = 71.23 GiB ≤ 128 GB
    decode  3,200 GB/s / (72.7 + 2.684) GB = 42.4 token/s bound
    """
    verdict = assess(Query(kind="can_run", gpus=("ascend-910c",), model="Qwen2.5-72B")).verdicts[0]
    assert (verdict.fits, verdict.precision, verdict.count) == (True, "int8", 1)
    assert verdict.need_gib == pytest.approx(76.48e9 / 2**30, abs=0.01)
    assert verdict.decode is not None and verdict.decode.bound == pytest.approx(3200 / (72.7 + 2.684), abs=0.01)
