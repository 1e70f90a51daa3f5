"""Chinese accelerators beyond Huawei (added 2026-12-06): Moore Threads' MTT S80 (MUSA) and Cambricon's
MLU370-X8. Each loads with its sourced figures, resolves from English and Chinese names, and its spec card
leads with its vendor's software note (never Apple's), in English and in Chinese."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from bot.words import render
from engine import advise
from engine.catalog import Catalog, load_catalog
from engine.message import Msg
from engine.parse import parse
from engine.query import Query
from engine.support import limited, software_caveats, software_notes

# id → (vendor, architecture, class, memory_gb, memory_type, bandwidth_gbs, FP16 TFLOPS, INT8 TOPS, tdp_w, year)
SPECS = {
    # press reports of the launch: 16 GB GDDR6 on 256 bit at 14 Gbps, 448 GB/s, 255 W; no matrix figures published
    "mtt-s80": ("moore_threads", "musa-chunxiao", "consumer", 16, "GDDR6", 448, None, None, 255, 2022),
    # Cambricon's launch: 48 GB LPDDR5, 614.4 GB/s, FP16 96 TFLOPS, INT8 256 TOPS, 250 W
    "mlu370-x8": ("cambricon", "mluarch03", "datacenter", 48, "LPDDR5", 614.4, 96, 256, 250, 2022),
}
# id → (the software note's key, what the English note names)
SOFTWARE = {
    "mtt-s80": ("support.musa", ("Moore Threads", "no CUDA", "torch_musa", "MUSA", "'musa'")),
    "mlu370-x8": ("support.mlu", ("Cambricon", "no CUDA", "torch_mlu", "Neuware", "CNToolkit", "'mlu'")),
}
NAMES = [
    ("MTT S80", "mtt-s80"),
    ("mtt s80", "mtt-s80"),
    ("Moore Threads S80", "mtt-s80"),
    ("摩尔线程s80", "mtt-s80"),
    ("摩尔线程 S80", "mtt-s80"),
    ("摩爾線程S80", "mtt-s80"),
    ("S80", "mtt-s80"),  # "我想在S80上用 vllm-musa …": the only S80 a GPU question means
    ("MLU370-X8", "mlu370-x8"),
    ("mlu370", "mlu370-x8"),
    ("Cambricon MLU370", "mlu370-x8"),
    ("寒武纪mlu370-x8", "mlu370-x8"),
    ("寒武纪 MLU370-X8", "mlu370-x8"),
    ("寒武紀MLU370-X8", "mlu370-x8"),
]


@pytest.mark.parametrize("gpu_id", sorted(SPECS))
def test_each_card_loads_with_its_sourced_figures(catalog: Catalog, gpu_id: str) -> None:
    gpu = catalog.get(gpu_id)
    vendor, arch, klass, memory, memory_type, bandwidth, fp16, int8, tdp, year = SPECS[gpu_id]
    assert (gpu.vendor, gpu.architecture, gpu.gpu_class, gpu.form_factor) == (vendor, arch, klass, "pcie")
    assert (gpu.memory_gb, gpu.memory_type, gpu.bandwidth_gbs) == (memory, memory_type, bandwidth)
    assert (gpu.fp16_tensor_tflops, gpu.int8_tensor_tops, gpu.tdp_w, gpu.release_year) == (fp16, int8, tdp, year)
    assert gpu.fp8_tensor_tflops is None
    assert catalog.architectures[arch].vendor == vendor
    sw = gpu.software
    assert (sw.pytorch, sw.cuda_cc, sw.rocm, sw.npu) == ("vendor", None, None, False)
    assert len(gpu.sources) >= 3 and all("(http" in s for s in gpu.sources), gpu_id
    assert gpu.notes
    assert gpu.launch_price is None  # unpriced, like the Ascend cards
    for snapshot in catalog.snapshots.values():
        assert gpu_id not in snapshot.prices, (gpu_id, snapshot.id)


def test_the_sources_behind_the_headline_figures(catalog: Catalog) -> None:
    s80 = catalog.get("mtt-s80")
    assert any("tomshw.it" in s and "448GB/s" in s and "16GB GDDR6" in s for s in s80.sources)
    assert any("255 W" in s for s in s80.sources)
    assert "not a Moore Threads datasheet figure" in (s80.notes or "")  # the TDP is the press's
    x8 = catalog.get("mlu370-x8")
    assert any("48GB LPDDR5" in s and "614.4GB/s" in s and "256 TOPS" in s and "250W" in s for s in x8.sources)
    assert (x8.pcie_gen, x8.cooling) == (4, "passive")


@pytest.mark.parametrize(("text", "gpu_id"), NAMES)
def test_each_resolves_from_english_and_chinese_names(catalog: Catalog, text: str, gpu_id: str) -> None:
    assert catalog.resolve(text) == gpu_id


@pytest.mark.parametrize(
    ("text", "gpus"),
    [
        ("摩尔线程s80能跑qwen 7b吗", ("mtt-s80",)),
        ("MTT S80 vs RTX 4090", ("mtt-s80", "rtx-4090")),
        ("寒武纪mlu370-x8能跑qwen 72b吗", ("mlu370-x8",)),
        ("can a MLU370-X8 run llama 70b", ("mlu370-x8",)),
    ],
)
def test_questions_name_the_cards(text: str, gpus: tuple[str, ...]) -> None:
    query = parse(text, standalone=True).query
    assert query is not None and query.gpus == gpus


def _within(message: Msg) -> Iterator[Msg]:
    for value in message.args.values():
        for inner in value if isinstance(value, tuple) else (value,):
            if isinstance(inner, Msg):
                yield inner
                yield from _within(inner)


def _english_run(text: str) -> bool:
    """Three ordinary English words in a row (tests/engine/test_support.py's rule, names aside)."""
    run = 0
    for token in re.split(r"[\s（）()，。；：、——]+", text):
        run = run + 1 if token.isalpha() and token.isascii() and not token.isupper() and len(token) > 1 else 0
        if run >= 3:
            return True
    return False


@pytest.mark.parametrize("gpu_id", sorted(SOFTWARE))
def test_the_software_notes_say_what_runs_and_what_does_not(gpu_id: str) -> None:
    gpu = load_catalog().get(gpu_id)
    key, words = SOFTWARE[gpu_id]
    notes = software_notes(gpu)
    assert [m.key for m in notes] == [key, f"{key}.no_cuda"]
    said = render(notes[0], "en")
    for word in words:
        assert word in said, said
    cannot = render(notes[1], "en")
    assert "FlashAttention" in cannot and "bitsandbytes" in cannot and "CUDA builds of llama.cpp" in cannot
    assert limited(gpu) and software_caveats(gpu) == notes  # no CUDA: always worth saying beside other cards


@pytest.mark.parametrize("lang", ["en", "zh-Hans", "zh-Hant"])
@pytest.mark.parametrize("gpu_id", sorted(SOFTWARE))
def test_the_spec_card_leads_with_the_vendor_note(gpu_id: str, lang: str) -> None:
    key, _ = SOFTWARE[gpu_id]
    answer = advise(Query(kind="info", gpus=(gpu_id,)))
    led = [answer.headline, *_within(answer.headline)]
    keys = [m.key for m in led]
    assert key in keys, keys
    assert not any(k.startswith("support.apple") for k in keys)
    assert f"{key}.no_cuda" in [m.key for m in answer.caveats]
    note = next(m for m in led if m.key == key)
    text = render(note, lang)
    assert "Apple" not in text and "MPS" not in text
    if lang == "zh-Hans":
        assert ("摩尔线程" if gpu_id == "mtt-s80" else "寒武纪") in text and "没有 CUDA" in text
    if lang == "zh-Hant":
        assert ("摩爾線程" if gpu_id == "mtt-s80" else "寒武紀") in text and "沒有 CUDA" in text
    if lang != "en":
        assert not _english_run(text), text
        cannot = next(m for m in answer.caveats if m.key == f"{key}.no_cuda")
        assert not _english_run(render(cannot, lang))


def test_an_unknown_vendor_never_gets_apples_note() -> None:
    """A vendor added to the catalog without its own note falls back to a neutral one, not MPS/MLX's."""
    gpu = load_catalog().get("mtt-s80").model_copy(update={"vendor": "someone"})
    from engine.support import _backend

    assert _backend(gpu).key == "support.other"


def test_the_query_vendors_are_unchanged() -> None:
    """engine.codec encodes engine.query.Vendor by index: the catalog's new vendors stay out of it."""
    from typing import get_args

    from engine import query, specs

    assert get_args(query.Vendor) == ("nvidia", "amd", "intel", "apple", "huawei")
    assert set(get_args(specs.CatalogVendor)) == {*get_args(query.Vendor), "moore_threads", "cambricon", "hygon"}


@pytest.mark.parametrize(
    ("text", "gpu"),
    [("摩尔线程 S80能跑SD吗", "mtt-s80"), ("寒武纪MLU370能部署qwen吗", "mlu370-x8")],
)
def test_the_chinese_brand_names_fold_to_the_vendors(text: str, gpu: str) -> None:
    from engine.parse import parse

    assert parse(text).query.gpus == (gpu,)
