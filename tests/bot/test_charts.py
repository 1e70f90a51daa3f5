"""Charts: every kind renders a readable 1200×675 PNG in every language, with no missing glyph,
cached by exactly what it draws, and never on the event loop."""

from __future__ import annotations

import asyncio
import datetime as dt
import io
import logging
import os
import signal
import subprocess
import sys
import threading
import warnings
from decimal import Decimal

import pytest
from PIL import Image

from bot import charts
from engine.advisor import AdviceContext, advise
from engine.cloud import break_even, guide_example
from engine.cost import PriceQuote, rank_by_value
from engine.power import plan
from engine.query import Query

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
# A 7B model fully fine-tuned in 16-bit with Adam, as (term, GB): the shape engine.memory gives.
MEMORY_TERMS = [
    ("weights", 14.0),
    ("gradients", 14.0),
    ("optimizer states", 56.0),
    ("activations", 9.3),
    ("KV cache", 0.0),  # zero terms are left out
    ("runtime overhead", 1.0),
]
GLYPH_TROUBLE = ("missing from font", "does not have a glyph", "findfont", "substituting")


def representative(lang: charts.Lang) -> dict[str, charts.ChartSpec]:
    """One or two specs per kind, built from the real engine."""
    return {
        "performance": charts.performance_spec(["rtx-4090", ("rtx-3090", 2), "rtx-4070-ti", "rx-7900-xtx"], lang=lang),
        "value": charts.value_spec(rank_by_value("infer8", snapshot="2023-01"), lang=lang, min_memory_gb=12),
        "breakeven": charts.breakeven_spec(guide_example(), lang=lang),
        "breakeven-never": charts.breakeven_spec(
            break_even(2200, Decimal("0.05"), utilisation=0.15, electricity_usd_per_kwh=Decimal("0.5")), lang=lang
        ),
        "memory": charts.memory_spec(
            MEMORY_TERMS, charts.gpu_lines(["rtx-4090", "a100-80gb-sxm"]), lang=lang, model="Llama 2 7B"
        ),
        "power": charts.power_spec(plan("rtx-3090", 4), lang=lang),
        "power-limited": charts.power_spec(plan("rtx-3090", 4, power_limit_w=300), lang=lang),
    }


@pytest.fixture(autouse=True)
def fresh_cache():
    charts.cache_clear()
    yield
    charts.cache_clear()


class GlyphWatch:
    """Collects matplotlib's missing-glyph warnings (warnings module) and font log records."""

    def __init__(self) -> None:
        self.messages: list[str] = []

    def __enter__(self) -> GlyphWatch:
        self._warnings = warnings.catch_warnings(record=True)
        self._caught = self._warnings.__enter__()
        warnings.simplefilter("always")
        self._handler = logging.Handler(logging.WARNING)
        self._handler.emit = lambda record: self.messages.append(record.getMessage())  # type: ignore[method-assign]
        self._logger = logging.getLogger("matplotlib")
        self._logger.addHandler(self._handler)
        return self

    def __exit__(self, *exc: object) -> None:
        self._logger.removeHandler(self._handler)
        self.messages += [str(w.message) for w in self._caught]
        self._warnings.__exit__(*exc)

    @property
    def trouble(self) -> list[str]:
        return [m for m in self.messages if any(t in m for t in GLYPH_TROUBLE)]


def assert_readable_png(png: bytes) -> Image.Image:
    assert png[:8] == PNG_MAGIC
    assert 15_000 < len(png) < 600_000, len(png)
    image = Image.open(io.BytesIO(png))
    image.load()
    assert image.size == (charts.WIDTH_PX, charts.HEIGHT_PX)
    colours = image.convert("RGB").getcolors(maxcolors=charts.WIDTH_PX * charts.HEIGHT_PX)
    assert len(colours) > 50, "a chart is more than a few flat colours"
    biggest = max(count for count, _ in colours)
    assert biggest < 0.97 * charts.WIDTH_PX * charts.HEIGHT_PX, "all one colour: nothing was drawn"
    return image


@pytest.mark.parametrize("lang", charts.LANGS)
def test_every_kind_renders_a_readable_png_without_missing_glyphs(lang):
    for name, spec in representative(lang).items():
        with GlyphWatch() as watch:
            png = charts.render_spec(spec, use_cache=False)
        assert not watch.trouble, (name, watch.trouble)
        image = assert_readable_png(png)
        # the card is opaque (readable on Discord's dark and light themes alike)
        assert image.convert("RGBA").getpixel((2, 2))[3] == 255


def test_cjk_font_is_installed_and_resolves_for_chinese_text():
    assert charts.cjk_font_installed(), f"no CJK font for the charts: {charts.CJK_INSTALL_HINT}"
    families = charts.font_families("zh-Hant")
    assert families[0] == charts.LATIN_FAMILY
    assert families[1] in charts.CJK_FAMILIES
    hant = charts.resolve_fonts("顯存需求：每 1,000 美元", "zh-Hant")
    assert {hant[c] for c in "顯存需求每美元："} == {families[1]}
    assert hant["1"] == charts.LATIN_FAMILY  # digits and Latin stay in DejaVu Sans
    hans = charts.resolve_fonts("显存需求", "zh-Hans")
    assert set(hans.values()) == {charts.font_families("zh-Hans")[1]}
    if "Noto Sans CJK TC" in charts._mpl().installed:  # regional faces where the font has them
        assert families[1] == "Noto Sans CJK TC"
        assert charts.font_families("zh-Hans")[1] == "Noto Sans CJK SC"
    assert set(charts.resolve_fonts("Memory (GB)", "en").values()) == {charts.LATIN_FAMILY}


def test_cjk_fonts_installed_after_matplotlibs_font_cache_are_found(monkeypatch):
    fm = charts._mpl().font_manager
    without = [f for f in fm.fontManager.ttflist if f.name not in charts.CJK_FAMILIES]
    monkeypatch.setattr(fm.fontManager, "ttflist", without)  # as if the cache predates the font
    charts._ensure_cjk_fonts(fm)
    assert {f.name for f in fm.fontManager.ttflist} & set(charts.CJK_FAMILIES), charts.CJK_INSTALL_HINT


def test_a_chinese_title_renders_without_missing_glyphs():
    spec = charts.memory_spec(MEMORY_TERMS, [("RTX 4090", 24)], lang="zh-Hant", model="通義千問 7B 全參數微調")
    with GlyphWatch() as watch:
        assert_readable_png(charts.render_spec(spec, use_cache=False))
    assert not watch.trouble, watch.trouble


def test_the_glyph_watch_sees_a_missing_glyph():
    """The check above would catch one: a glyph no installed font has is reported."""
    spec = charts.memory_spec([("weights", 1.0)], lang="en", model="\N{UPSIDE-DOWN FACE}")
    with GlyphWatch() as watch:
        charts.render_spec(spec, use_cache=False)
    assert any("missing from font" in m for m in watch.trouble)


def test_a_cache_hit_returns_the_same_bytes_without_rendering():
    spec = charts.power_spec(plan("rtx-4090", 2))
    first = charts.render_spec(spec)
    assert charts.cache_stats()["renders"] == 1
    again = charts.render_spec(charts.power_spec(plan("rtx-4090", 2)))  # an equal spec, built anew
    assert again is first
    stats = charts.cache_stats()
    assert (stats["renders"], stats["hits"], stats["size"]) == (1, 1, 1)
    charts.render_spec(charts.power_spec(plan("rtx-4090", 2), lang="zh-Hans"))  # another language draws anew
    assert charts.cache_stats()["renders"] == 2


def test_render_by_kind_uses_the_same_cache():
    png = charts.render("breakeven", guide_example(), lang="en")
    assert charts.render("breakeven", guide_example(), lang="en") is png
    assert charts.cache_stats()["renders"] == 1


def test_the_cache_key_changes_when_a_price_changes():
    gpus = ["rtx-4090", "rtx-3090", "rtx-4080"]
    before = charts.value_spec(rank_by_value("train16", snapshot="2023-01", candidates=gpus))
    quote = PriceQuote(
        gpu_id="rtx-3090", usd=Decimal("700"), basis="override", date=dt.date(2023, 1, 20), source="a user's quote"
    )
    after = charts.value_spec(
        rank_by_value("train16", snapshot="2023-01", candidates=gpus, overrides={"rtx-3090": quote})
    )
    assert sorted(b.name for b in before.bars) == sorted(b.name for b in after.bars)  # same GPUs
    assert charts.cache_key(before) != charts.cache_key(after)
    # one price in a bar, nothing else, changes the key too
    bar = before.bars[0]
    cheaper = before.model_copy(
        update={"bars": (bar.model_copy(update={"price_usd": bar.price_usd - 1}), *before.bars[1:])}
    )
    assert charts.cache_key(cheaper) != charts.cache_key(before)
    # and equal inputs give an equal key
    again = charts.value_spec(rank_by_value("train16", snapshot="2023-01", candidates=gpus))
    assert charts.cache_key(again) == charts.cache_key(before)


def test_the_cache_is_a_bounded_lru():
    lru = charts._LRU(2)
    lru.put("a", b"1")
    lru.put("b", b"2")
    assert lru.get("a") == b"1"  # a is now the most recent
    lru.put("c", b"3")
    assert lru.get("b") is None and lru.get("a") == b"1" and lru.get("c") == b"3"
    assert len(lru) == 2


async def test_render_async_runs_off_the_event_loop(monkeypatch):
    threads: list[str] = []
    draw = charts.rendering._draw

    def watched(spec):
        threads.append(threading.current_thread().name)
        return draw(spec)

    monkeypatch.setattr(charts.rendering, "_draw", watched)
    loop_thread = threading.current_thread().name
    pngs = await asyncio.gather(
        charts.render_async("power", plan("rtx-3080-10gb", 4)),
        charts.render_async("breakeven", guide_example(), lang="zh-Hans"),
        charts.render_async("performance", ["rtx-4090", "rtx-3090"], loop=asyncio.get_running_loop()),
    )
    assert all(p[:8] == PNG_MAGIC for p in pngs)
    assert len(threads) == 3 and loop_thread not in threads
    spec = charts.power_spec(plan("rtx-3080-10gb", 4))
    assert await charts.render_spec_async(spec) is pngs[0]  # cached


async def test_render_async_takes_another_executor():
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="mine") as pool:
        png = await charts.render_async("power", plan("rtx-4090", 1), executor=pool)
    assert png[:8] == PNG_MAGIC


def test_importing_the_module_does_not_import_matplotlib():
    code = "import sys, bot.charts; assert 'matplotlib' not in sys.modules, 'matplotlib imported eagerly'"
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize(
    ("query", "kind"),
    [
        (Query(kind="compare", gpus=("rtx-4090", "rtx-3090"), gpu_counts=(1, 2)), "performance"),
        (Query(kind="recommend", task="llm_inference"), "value"),
        (Query(kind="cloud_vs_buy", gpus=("rtx-3090",), hours_per_day=4), "breakeven"),
        (Query(kind="power", gpus=("rtx-3090",), num_gpus=4), "power"),
    ],
)
def test_answer_spec_picks_the_chart_for_an_answer(query, kind):
    answer = advise(query, AdviceContext(snapshot="2023-01"))
    spec = charts.answer_spec(answer, lang="zh-Hans")
    assert spec is not None and spec.kind == kind and spec.lang == "zh-Hans"


def test_answer_spec_is_none_without_figures():
    answer = advise(Query(kind="explain", topic="tensor_cores"))
    assert charts.answer_spec(answer) is None


def test_value_chart_carries_price_date_source_and_floor():
    spec = charts.value_spec(rank_by_value("infer8", snapshot="2023-01"), min_memory_gb=24, limit=4)
    assert len(spec.bars) == 4
    assert spec.workload == "infer8"
    assert spec.caption.price_date == dt.date(2023, 1, 31)
    assert spec.caption.source and spec.caption.source.startswith("Tom's Hardware")
    assert spec.min_memory_gb == 24


def test_breakeven_spec_follows_the_engine():
    be = guide_example()
    spec = charts.breakeven_spec(be)
    assert spec.days == pytest.approx(293, abs=1)
    assert spec.horizon_days > spec.days
    assert spec.desktop_usd[0] == pytest.approx(2200)
    assert spec.crossing_usd == pytest.approx(be.cumulative(be.days)[0])
    never = charts.breakeven_spec(break_even(2200, Decimal("0.05"), utilisation=0.15, electricity_usd_per_kwh=1))
    assert never.days is None and never.crossing_usd is None and never.horizon_days == 3 * 365


def test_power_spec_uses_the_plans_psu():
    spec = charts.power_spec(plan("rtx-3090", 4))
    assert (spec.load_w, spec.psu_w, spec.max_load_fraction) == (1600, 1700, 0.95)
    limited = charts.power_spec(plan("rtx-3090", 4, power_limit_w=300, psu_w=1600))
    assert (limited.load_w, limited.stock_load_w, limited.psu_w) == (1400, 1600, 1600)


def test_bad_inputs_say_what_is_wrong():
    with pytest.raises(ValueError, match="unknown chart kind"):
        charts.render("pie", [])
    with pytest.raises(ValueError, match="at least one term"):
        charts.memory_spec([("weights", 0.0)])
    with pytest.raises(ValueError, match="at least one priced option"):
        charts.value_spec([])
    with pytest.raises(KeyError, match="unknown GPU"):
        charts.performance_spec(["no such card 9999"])
    assert charts.performance_spec(["4090"]).bars[0].gpu_id == "rtx-4090"  # what people type resolves


def test_short_source_names():
    tom = "Tom's Hardware Jan 2023 eBay report"
    assert charts.short_source(f"{tom}: Jan eBay $2,062 (563 sold), retail $1,599") == tom
    assert charts.short_source("GPU Poet Oct 2026 report, September 2026: best resale") == "GPU Poet Oct 2026 report"
    assert charts.short_source(None) is None
    assert len(charts.short_source("x" * 200)) == 44


def test_chart_text_exists_in_every_language():
    from bot.locales import LANGS

    assert charts.LANGS == LANGS
    table = charts.locale_table("charts.yaml")
    for lang in charts.LANGS:
        assert set(table[lang]) == set(table["en"]), lang
    assert charts.text("zh-Hant", "workload.infer8") == "8 位元推論"
    assert charts.term_label("zh-Hans", "KV cache") == "KV 缓存"
    assert charts.term_label("en", "something new") == "something new"


async def test_the_bot_draws_in_a_worker_process_that_comes_back_if_it_dies():
    charts.use_processes(True)
    charts.cache_clear()
    try:
        await asyncio.to_thread(charts.warm_up)
        worker = charts.worker_pid()
        assert worker is not None and worker != os.getpid()
        spec = charts.power_spec(plan("rtx-4090", 2))
        png = await charts.render_spec_async(spec)
        assert png[:8] == PNG_MAGIC and charts.cache_stats()["renders"] == 1
        assert await charts.render_spec_async(spec) is png  # kept in this process's cache
        os.kill(worker, signal.SIGKILL)
        other = await charts.render_spec_async(charts.power_spec(plan("rtx-4090", 3)))
        assert other[:8] == PNG_MAGIC and charts.worker_pid() not in (None, worker)
    finally:
        charts.shutdown()
        charts.use_processes(False)
    assert charts.worker_pid() is None


async def test_a_failed_draw_in_the_worker_is_raised_here():
    charts.use_processes(True)
    try:
        with pytest.raises(charts.rendering.WorkerFailed):
            await asyncio.to_thread(charts.rendering._WORKER.call, "not a spec")
    finally:
        charts.shutdown()
        charts.use_processes(False)
