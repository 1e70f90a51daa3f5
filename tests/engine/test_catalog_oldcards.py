"""Old GeForce cards people ask about (Kepler GTX 600/700 desktop, Maxwell GTX 900M and Pascal GTX 1050/1050 Ti
laptop parts): each loads with its sourced key figures, resolves from the names people write, whole questions
find it, and names that already resolved keep their cards (bare "1050 Ti" is still the desktop card)."""

from __future__ import annotations

import pytest

from engine.catalog import Catalog
from engine.parse import parse

# id → (memory_gb, bandwidth_gbs, sm_count, fp32_tflops, tdp_w, release_year, architecture, cuda_cc)
SPECS = {
    "gtx-650": (1, 80, 2, 0.81, 64, 2012, "kepler", "3.0"),
    "gtx-650-ti": (1, 86.4, 4, 1.42, 110, 2012, "kepler", "3.0"),
    "gtx-650-ti-boost": (2, 144.2, 4, 1.59, 134, 2013, "kepler", "3.0"),
    "gtx-660": (2, 144.2, 5, 1.98, 140, 2012, "kepler", "3.0"),
    "gtx-660-ti": (2, 144.2, 7, 2.63, 150, 2012, "kepler", "3.0"),
    "gtx-670": (2, 192.3, 7, 2.63, 170, 2012, "kepler", "3.0"),
    "gtx-680": (2, 192.3, 8, 3.25, 195, 2012, "kepler", "3.0"),
    "gtx-760": (2, 192.3, 6, 2.38, 170, 2013, "kepler", "3.0"),
    "gtx-770": (2, 224.4, 8, 3.33, 230, 2013, "kepler", "3.0"),
    "gtx-780": (3, 288.4, 12, 4.15, 250, 2013, "kepler", "3.5"),
    "gtx-780-ti": (3, 336, 15, 5.35, 250, 2013, "kepler", "3.5"),
    "gtx-960m": (2, 80, 5, 1.51, 75, 2015, "maxwell", "5.0"),
    "gtx-965m": (2, 80, 8, 1.93, 60, 2015, "maxwell", "5.2"),
    "gtx-970m": (3, 120, 10, 2.66, 75, 2014, "maxwell", "5.2"),
    "gtx-980m": (4, 160, 12, 3.46, 100, 2014, "maxwell", "5.2"),
    "gtx-1050-laptop": (2, 112, 5, 1.91, 50, 2017, "pascal", "6.1"),
    "gtx-1050-ti-laptop": (4, 112, 6, 2.49, 70, 2017, "pascal", "6.1"),
}
ADDED = tuple(SPECS)
LAPTOPS = ("gtx-960m", "gtx-965m", "gtx-970m", "gtx-980m", "gtx-1050-laptop", "gtx-1050-ti-laptop")


@pytest.mark.parametrize("gpu_id", ADDED)
def test_sourced_key_figures(catalog: Catalog, gpu_id: str) -> None:
    gpu = catalog.get(gpu_id)
    memory, bandwidth, sms, fp32, tdp, year, arch, cc = SPECS[gpu_id]
    assert gpu.vendor == "nvidia"
    assert (gpu.memory_gb, gpu.bandwidth_gbs, gpu.sm_count, gpu.fp32_tflops) == (memory, bandwidth, sms, fp32)
    assert (gpu.tdp_w, gpu.release_year, gpu.architecture, gpu.software.cuda_cc) == (tdp, year, arch, cc)
    assert gpu.memory_type == "GDDR5"
    assert not gpu.has_tensor_cores
    assert gpu.launch_price is None  # old cards are unpriced
    # each source is a public address or a named public repository file
    assert len(gpu.sources) >= 3 and all("http" in s or s.startswith("repo ") for s in gpu.sources)
    assert gpu.notes


@pytest.mark.parametrize("gpu_id", ADDED)
def test_bandwidth_is_bus_times_data_rate(catalog: Catalog, gpu_id: str) -> None:
    gpu = catalog.get(gpu_id)
    assert gpu.memory_bus_bits is not None and gpu.memory_data_rate_gbps is not None
    assert gpu.bandwidth_gbs == pytest.approx(gpu.memory_bus_bits * gpu.memory_data_rate_gbps / 8, rel=0.01)


@pytest.mark.parametrize("gpu_id", ADDED)
def test_software_follows_the_architecture(catalog: Catalog, gpu_id: str) -> None:
    """Kepler GK10x (CC 3.0): no binaries after PyTorch 0.3; GK110 (CC 3.5): the 1.12 conda CUDA 10.2
    builds were the last; Maxwell and Pascal run only the legacy CUDA 12.6 build."""
    sw = catalog.get(gpu_id).software
    if sw.cuda_cc == "3.0":
        assert (sw.pytorch, sw.pytorch_last) == ("dropped", "0.3")
    elif sw.cuda_cc == "3.5":
        assert (sw.pytorch, sw.pytorch_last) == ("dropped", "1.12")
    else:
        assert (sw.pytorch, sw.pytorch_last) == ("legacy", None)


def test_laptop_parts_are_laptop_chips_and_desktop_cards_are_cards(catalog: Catalog) -> None:
    for gpu_id in ADDED:
        gpu = catalog.get(gpu_id)
        if gpu_id in LAPTOPS:
            assert (gpu.gpu_class, gpu.form_factor, gpu.platform, gpu.cooling) == ("laptop", "mxm", "laptop", "laptop")
            assert not gpu.buyable(organization=True)
        else:
            assert (gpu.gpu_class, gpu.form_factor, gpu.platform) == ("consumer", "pcie", "desktop")


# What people type → the catalog id it must resolve to.
NAMES = [
    ("GTX 650", "gtx-650"),
    ("gtx650", "gtx-650"),
    ("GTX 650 1GB", "gtx-650"),
    ("GTX 650 Ti", "gtx-650-ti"),
    ("650ti", "gtx-650-ti"),
    ("GTX 650 Ti Boost", "gtx-650-ti-boost"),
    ("GTX 660", "gtx-660"),
    ("GeForce GTX 660 2GB", "gtx-660"),
    ("660 Ti", "gtx-660-ti"),
    ("gtx660ti", "gtx-660-ti"),
    ("GTX 670", "gtx-670"),
    ("NVIDIA GeForce GTX 680", "gtx-680"),
    ("GTX 760", "gtx-760"),
    ("gtx770", "gtx-770"),
    ("GTX 780", "gtx-780"),
    ("GTX 780 Ti", "gtx-780-ti"),
    ("780ti", "gtx-780-ti"),
    ("960M", "gtx-960m"),
    ("GTX 960M", "gtx-960m"),
    ("gtx960m", "gtx-960m"),
    ("GeForce GTX 960M 2GB", "gtx-960m"),
    ("965M", "gtx-965m"),
    ("GTX 970M", "gtx-970m"),
    ("GTX 980M", "gtx-980m"),
    ("GTX 1050 laptop", "gtx-1050-laptop"),
    ("1050 mobile", "gtx-1050-laptop"),
    ("GTX 1050 Max-Q", "gtx-1050-laptop"),
    ("1050 Ti laptop", "gtx-1050-ti-laptop"),
    ("1050ti mobile", "gtx-1050-ti-laptop"),
    ("GTX 1050 Ti Max-Q", "gtx-1050-ti-laptop"),
    ("笔记本 1050 Ti", "gtx-1050-ti-laptop"),
    # names that already resolved and must keep doing so
    ("1050 Ti", "gtx-1050-ti"),
    ("GTX 1050 Ti", "gtx-1050-ti"),
    ("1050", "gtx-1050"),
    ("1050 2GB", "gtx-1050"),
    ("GTX 1060", "gtx-1060-6gb"),
    ("1060 laptop", "gtx-1060-laptop"),
    ("GTX 960", "gtx-960"),
    ("GTX 970", "gtx-970"),
    ("GTX 980", "gtx-980"),
    ("750 Ti", "gtx-750-ti"),
    ("GTX 660M", "gtx-660m"),
    ("650M", "gt-650m"),
    ("GT 730", "gt-730"),
    ("K40", "tesla-k40"),
    ("1650 laptop", "gtx-1650-laptop"),
]


@pytest.mark.parametrize(("text", "gpu_id"), NAMES)
def test_names_people_type_resolve(catalog: Catalog, text: str, gpu_id: str) -> None:
    assert catalog.resolve(text) == gpu_id


def test_every_alias_of_the_added_cards_resolves_to_its_card(catalog: Catalog) -> None:
    for gpu_id in ADDED:
        gpu = catalog.get(gpu_id)
        for alias in (gpu.id, gpu.name, *gpu.aliases):
            assert catalog.resolve(alias) == gpu_id, alias


# Whole questions → the cards the parser reads from them.
QUESTIONS = [
    ("Can my GTX 660 2GB run SD?", ("gtx-660",)),
    ("I have a GTX 660 with 2GB of VRAM and ideepcolor fails with out of memory.", ("gtx-660",)),
    ("Can AudioX run on a GTX 650 1GB with CUDA 10.1, or only on CPU?", ("gtx-650",)),
    ("Is my PC not powerful enough for Fooocus? I have a GeForce GTX 960M", ("gtx-960m",)),
    ("my laptop's GTX 960M", ("gtx-960m",)),
    ("960M笔记本能跑SD吗", ("gtx-960m",)),
    ("只有一台960M的Windows笔记本", ("gtx-960m",)),
    ("我的GTX660能跑吗", ("gtx-660",)),
    ("GTX 780 Ti vs GTX 980 for training?", ("gtx-780-ti", "gtx-980")),
    ("760 vs 770", ("gtx-760", "gtx-770")),
    ("GTX 980M vs GTX 980", ("gtx-980m", "gtx-980")),
    ("the graphics is a GTX 1050 laptop with 2G VRAM", ("gtx-1050-laptop",)),
    ("GTX 1050 Ti Max-Q laptop for PyTorch?", ("gtx-1050-ti-laptop",)),
    ("1050 Ti laptop vs 1050 Ti", ("gtx-1050-ti-laptop", "gtx-1050-ti")),
    # the names without the new cards keep their cards
    ("Can my 1050 Ti run SD?", ("gtx-1050-ti",)),
    ("GTX 1060 for deep learning?", ("gtx-1060-6gb",)),
    ("Is it possible to train Stable Diffusion with StableTuner on an Intel Arc 770 GPU?", ("arc-a770-16gb",)),
    ("is a 650w psu enough for a 4080 super?", ("rtx-4080-super",)),
    ("Thinking of a used 3090 for $650, will it run Llama 3 8B?", ("rtx-3090",)),
]


@pytest.mark.parametrize(("text", "gpus"), QUESTIONS)
def test_questions_name_the_cards(text: str, gpus: tuple[str, ...]) -> None:
    query = parse(text, standalone=True).query
    assert query is not None
    assert query.gpus == gpus


def test_a_stated_memory_size_is_kept_for_a_card_sold_in_several(catalog: Catalog) -> None:
    """A GTX 770 4GB is the GTX 770 (2 GB reference) with the user's 4 GB kept as the memory they have."""
    query = parse("Can a GTX 770 4GB run Stable Diffusion?", standalone=True).query
    assert query is not None
    assert query.gpus == ("gtx-770",) and query.min_memory_gb == 4
    assert catalog.get("gtx-770").memory_gb == 2


def test_the_added_cards_sit_where_their_specs_say(catalog: Catalog) -> None:
    g = catalog.get
    # the Ti Boost has the GTX 660's bus, the plain 650 Ti half of it
    assert g("gtx-650-ti").bandwidth_gbs < g("gtx-650-ti-boost").bandwidth_gbs == g("gtx-660").bandwidth_gbs
    # same GK104 configuration: the 660 Ti is a 670 on a narrower bus
    assert g("gtx-660-ti").fp32_tflops == g("gtx-670").fp32_tflops
    assert g("gtx-660-ti").bandwidth_gbs < g("gtx-670").bandwidth_gbs
    # the laptop 1050 Ti is clocked above the desktop card; same memory and bus
    assert g("gtx-1050-ti-laptop").fp32_tflops > g("gtx-1050-ti").fp32_tflops
    assert g("gtx-1050-ti-laptop").bandwidth_gbs == g("gtx-1050-ti").bandwidth_gbs
    # Maxwell laptop ladder
    ladder = [g(i).fp32_tflops or 0 for i in ("gtx-960m", "gtx-965m", "gtx-970m", "gtx-980m")]
    assert ladder == sorted(ladder)
