"""Charts: the engine's figures as 1200×675 PNG images, for Discord and the terminal.

Five kinds, each drawn from numbers the engine already computed (a renderer never computes one):

- ``performance``: relative speed for 16-bit training, 16-bit inference and 8-bit inference;
- ``value``: speed per $1,000 of a whole system, memory and price on each bar, cards under a
  memory floor in grey;
- ``breakeven``: cumulative cloud and desktop spend over time, with the break-even day;
- ``memory``: a stacked bar of memory terms against the chosen GPUs' memory;
- ``power``: GPUs plus CPU/board against the PSU rating and its 95 % load line.

Every chart goes through a *spec*: a frozen pydantic model of exactly what will be drawn (bars,
values, labels' inputs, caption, language). The spec's JSON is the cache key, so a changed price,
GPU, language or count always draws a new picture and an unchanged one never does. Rendering
uses matplotlib's Agg canvas directly (no pyplot, no GUI), imported on first use so that
``import bot.charts`` stays cheap, and always off the event loop: use :func:`render_async` from
async code. See docs/charts.md.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import io
import math
import os
import re
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from decimal import Decimal
from functools import cache, partial
from glob import glob
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict

from bot.locales import LANGS, Lang, lookup
from bot.locales import table as locale_table
from bot.render import counted
from engine.specs import WORKLOADS, Workload

if TYPE_CHECKING:
    from engine.answer import Answer, Option
    from engine.cloud import BreakEven
    from engine.cost import ValueOption
    from engine.power import PowerPlan

# Agg for any pyplot imported later in this process; this module itself never imports pyplot.
os.environ.setdefault("MPLBACKEND", "Agg")

Kind = Literal["performance", "value", "breakeven", "memory", "power"]
KINDS: tuple[Kind, ...] = ("performance", "value", "breakeven", "memory", "power")

WIDTH_PX, HEIGHT_PX, DPI = 1200, 675, 100
FIGSIZE = (WIDTH_PX / DPI, HEIGHT_PX / DPI)  # 12 × 6.75 in
CHART_VERSION = 1  # part of every cache key: bump when the drawing code changes
CACHE_SIZE = 128  # PNGs are 70-130 kB: at most ~17 MB held
MAX_PERFORMANCE_GPUS = 8
DEFAULT_VALUE_BARS = 10

# ---- theme ------------------------------------------------------------------------------------
# An opaque, neutral mid-dark card with light text. Discord shows a transparent PNG on the
# viewer's theme colour, so dark text vanishes in dark mode and light text in light mode; an
# opaque card reads the same on both (it looks like an embedded card in light mode and like a
# slightly darker panel in dark mode). Series colours are Okabe-Ito (safe for colour-blind
# readers), all at ≥ 3:1 contrast against the card.
BG = "#2B2D31"
FG = "#F2F3F5"
MUTED = "#B5BAC1"
GRID = "#4E5058"
DARK_TEXT = "#1E1F22"
GREY_BAR = "#5C5F66"
PALETTE = ("#56B4E9", "#E69F00", "#009E73", "#CC79A7", "#F0E442", "#D55E00", "#A6A9F0", "#9AA0A6")
WORKLOAD_COLOURS: dict[Workload, str] = {"train16": "#56B4E9", "infer16": "#E69F00", "infer8": "#009E73"}
DESKTOP_COLOUR, CLOUD_COLOUR = "#56B4E9", "#E69F00"
PSU_COLOUR, MAX_LOAD_COLOUR = "#F0E442", "#D55E00"
GPU_SEGMENT_COLOURS = ("#56B4E9", "#3D8FC2")
CPU_COLOUR = "#E69F00"

TITLE_PT, LABEL_PT, TICK_PT, VALUE_PT, CAPTION_PT = 22, 18, 16, 16, 14

# ---- fonts ------------------------------------------------------------------------------------
# DejaVu Sans (shipped with matplotlib) draws Latin text; CJK glyphs fall back to the first
# installed family below, the regional face first (matplotlib ≥ 3.11 reads every face of a .ttc).
# Debian: `apt-get install -y fonts-noto-cjk` (Noto Sans CJK, SIL OFL). GPU_ADVISOR_CJK_FONT may
# name a font file to add when none is installed system-wide.
LATIN_FAMILY = "DejaVu Sans"
CJK_PREFERRED: dict[Lang, tuple[str, ...]] = {
    "en": ("Noto Sans CJK SC",),
    "zh-Hant": ("Noto Sans CJK TC", "Noto Sans CJK HK", "Source Han Sans TC"),
    "zh-Hans": ("Noto Sans CJK SC", "Source Han Sans SC"),
}
CJK_FAMILIES: tuple[str, ...] = (
    "Noto Sans CJK SC",
    "Noto Sans CJK TC",
    "Noto Sans CJK HK",
    "Noto Sans CJK JP",  # face 0 of the .ttc: the only one matplotlib < 3.11 sees; covers all Han
    "Source Han Sans SC",
    "Source Han Sans TC",
    "WenQuanYi Micro Hei",
    "WenQuanYi Zen Hei",
    "Droid Sans Fallback",
)
_FONT_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", str(Path.home() / ".local/share/fonts"))
_FONT_PATTERNS = ("*CJK*.tt[cf]", "*CJK*.otf", "wqy*.tt[cf]", "SourceHanSans*", "DroidSansFallback*")
CJK_INSTALL_HINT = "apt-get install -y fonts-noto-cjk"


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# ---- localized text ---------------------------------------------------------------------------


def text(lang: Lang, key: str, **values: object) -> str:
    """The chart text for ``key`` in ``lang`` (``data/locales/charts.yaml``)."""
    return lookup("charts.yaml", lang, key, **values)


def term_label(lang: Lang, name: str) -> str:
    """A memory term's name in ``lang``; names the table lacks are shown as given."""
    key = f"term.{name}"
    return text(lang, key) if key in locale_table("charts.yaml")["en"] else name


def short_source(source: str | None, limit: int = 44) -> str | None:
    """A source's short name for a caption: the part before the first ':', '(', ',' or ';'."""
    if not source:
        return None
    head = re.split(r"[:(,;]| — | - ", source, maxsplit=1)[0].strip().strip("'\"").strip()
    head = head or source.strip()
    return head if len(head) <= limit else head[: limit - 1].rstrip() + "…"


# ---- specs: exactly what a chart draws --------------------------------------------------------


class Caption(Frozen):
    price_date: dt.date | None = None
    source: str | None = None


class PerformanceBar(Frozen):
    gpu_id: str
    name: str
    count: int
    values: tuple[float, ...]  # one per workload of the spec, relative to the reference


class PerformanceSpec(Frozen):
    kind: Literal["performance"] = "performance"
    lang: Lang = "en"
    reference: str
    workloads: tuple[Workload, ...]
    bars: tuple[PerformanceBar, ...]
    caption: Caption


class ValueBar(Frozen):
    """One bar of the value chart: a system of ``gpu_count`` × one GPU."""

    name: str
    perf_per_kusd: float
    memory_gb: float
    price_usd: Decimal  # what the GPUs cost, all cards together
    gpu_count: int = 1
    price_date: dt.date | None = None
    price_source: str | None = None


class ValueSpec(Frozen):
    kind: Literal["value"] = "value"
    lang: Lang = "en"
    workload: Workload | None
    min_memory_gb: float | None
    bars: tuple[ValueBar, ...]
    caption: Caption


class BreakEvenSpec(Frozen):
    kind: Literal["breakeven"] = "breakeven"
    lang: Lang = "en"
    horizon_days: int
    desktop_usd: tuple[float, float]  # spend on day 0 and on horizon_days
    cloud_usd: tuple[float, float]
    electricity_per_year: float
    cloud_usd_per_hour: Decimal
    utilisation: float
    days: float | None
    months: float | None
    crossing_usd: float | None
    caption: Caption


class MemorySpec(Frozen):
    kind: Literal["memory"] = "memory"
    lang: Lang = "en"
    title: str | None
    terms: tuple[tuple[str, float], ...]
    gpus: tuple[tuple[str, float], ...]
    caption: Caption


class PowerSpec(Frozen):
    kind: Literal["power"] = "power"
    lang: Lang = "en"
    gpu_name: str
    gpu_count: int
    gpu_power_w: int
    stock_gpu_power_w: int | None  # the TDP, when a power limit applies
    cpu_and_board_w: int
    load_w: int
    stock_load_w: int | None
    psu_w: int
    max_load_fraction: float
    wall_draw_w: int
    caption: Caption


ChartSpec = PerformanceSpec | ValueSpec | BreakEvenSpec | MemorySpec | PowerSpec


def _catalog():
    from engine.catalog import load_catalog

    return load_catalog()


def _gpu_id(text_or_id: str) -> str:
    catalog = _catalog()
    if text_or_id in catalog.gpus:
        return text_or_id
    resolved = catalog.resolve(text_or_id)
    if resolved is None:
        raise KeyError(f"unknown GPU {text_or_id!r}")
    return resolved


def performance_spec(
    gpus: Sequence[str | tuple[str, int]],
    *,
    lang: Lang = "en",
    reference: str = "rtx-3090",
    workloads: Sequence[Workload] = WORKLOADS,
) -> PerformanceSpec:
    """Relative speed of each GPU (or ``(gpu, count)``) for ``workloads``, from the engine's model."""
    from engine.performance import speed, throughput

    if not gpus:
        raise ValueError("a performance chart needs at least one GPU")
    if len(gpus) > MAX_PERFORMANCE_GPUS:
        raise ValueError(f"a performance chart shows at most {MAX_PERFORMANCE_GPUS} GPUs")
    catalog = _catalog()
    ref = _gpu_id(reference)
    bars = []
    for entry in gpus:
        gpu, count = (entry, 1) if isinstance(entry, str) else entry
        gpu_id = _gpu_id(gpu)
        values = tuple(throughput(gpu_id, w, count) / speed(ref, w) for w in workloads)
        bars.append(PerformanceBar(gpu_id=gpu_id, name=catalog.get(gpu_id).short_name, count=count, values=values))
    return PerformanceSpec(
        lang=lang,
        reference=catalog.get(ref).short_name,
        workloads=tuple(workloads),
        bars=tuple(bars),
        caption=Caption(source=text(lang, "source.performance")),
    )


def value_bar(option: ValueOption | Option | ValueBar | Mapping[str, Any]) -> ValueBar:
    """A value-chart bar from an engine ValueOption, an advisor Option, or a mapping of its fields."""
    if isinstance(option, ValueBar):
        return option
    if isinstance(option, Mapping):
        return ValueBar.model_validate(dict(option))
    name = getattr(option, "name", None)
    if name is None:  # a ValueOption: names and memory come from the catalog
        gpu = _catalog().get(option.gpu_id)
        name, memory, gpus_usd = gpu.short_name, gpu.memory_gb, option.price.usd * option.gpu_count
    else:
        memory, gpus_usd = option.memory_gb, option.gpus_usd
    return ValueBar(
        name=name,
        perf_per_kusd=option.perf_per_kusd,
        memory_gb=memory,
        price_usd=gpus_usd,
        gpu_count=option.gpu_count,
        price_date=option.price.date,
        price_source=option.price.source,
    )


def value_spec(
    options: Iterable[ValueOption | Option | ValueBar | Mapping[str, Any]],
    *,
    lang: Lang = "en",
    min_memory_gb: float | None = None,
    workload: Workload | None = None,
    limit: int | None = DEFAULT_VALUE_BARS,
    price_date: dt.date | None = None,
    source: str | None = None,
) -> ValueSpec:
    """Speed per $1,000 for each option in the order given (best first), at most ``limit`` bars."""
    options = list(options)
    if limit is not None:
        options = options[:limit]
    if not options:
        raise ValueError("a value chart needs at least one priced option")
    if workload is None:
        workload = next((o.workload for o in options if getattr(o, "workload", None)), None)
    bars = tuple(value_bar(o) for o in options)
    if price_date is None:
        price_date = max((b.price_date for b in bars if b.price_date), default=None)
    if source is None:
        shorts = list(dict.fromkeys(s for b in bars if (s := short_source(b.price_source))))
        source = " / ".join(shorts[:2]) + (f" +{len(shorts) - 2}" if len(shorts) > 2 else "") if shorts else None
    return ValueSpec(
        lang=lang,
        workload=workload,
        min_memory_gb=min_memory_gb,
        bars=bars,
        caption=Caption(price_date=price_date, source=source),
    )


def breakeven_spec(
    break_even: BreakEven,
    *,
    lang: Lang = "en",
    horizon_days: int | None = None,
    price_date: dt.date | None = None,
    source: str | None = None,
) -> BreakEvenSpec:
    """Cumulative desktop and cloud spend from day 0 to a horizon past the break-even day."""
    days = break_even.days
    if horizon_days is None:
        if days is None:
            horizon_days = 3 * 365
        else:
            horizon_days = max(365, int(math.ceil(days * 1.6 / 30) * 30))
            horizon_days = min(horizon_days, max(10 * 365, math.ceil(days * 1.2)))
    crossing = break_even.cumulative(days)[1] if days is not None else None
    return BreakEvenSpec(
        lang=lang,
        horizon_days=horizon_days,
        desktop_usd=(break_even.cumulative(0)[0], break_even.cumulative(horizon_days)[0]),
        cloud_usd=(break_even.cumulative(0)[1], break_even.cumulative(horizon_days)[1]),
        electricity_per_year=break_even.electricity_cost_per_year,
        cloud_usd_per_hour=break_even.inputs.cloud_usd_per_hour,
        utilisation=break_even.inputs.utilisation,
        days=days,
        months=break_even.months,
        crossing_usd=crossing,
        caption=Caption(price_date=price_date, source=source or text(lang, "source.cloud")),
    )


def gpu_lines(gpus: Iterable[str]) -> list[tuple[str, float]]:
    """``(short name, memory GB)`` per catalog GPU, as the catalog states it, for :func:`memory_spec`."""
    catalog = _catalog()
    return [(catalog.get(g).short_name, catalog.get(g).memory_gb) for g in map(_gpu_id, gpus)]


def memory_spec(
    terms: Iterable[tuple[str, float]],
    gpus: Iterable[tuple[str, float]] = (),
    *,
    lang: Lang = "en",
    model: str | None = None,
    price_date: dt.date | None = None,
    source: str | None = None,
) -> MemorySpec:
    """A stacked bar of ``(term name, GB)`` against ``(GPU label, memory GB)`` lines.

    Give the terms and the GPU memory in the same unit; terms of 0 GB are left out. Known term
    names (weights, gradients, optimizer states, activations, KV cache, runtime overhead, …) are
    translated, others shown as given."""
    kept = tuple((str(name), float(gb)) for name, gb in terms if gb > 0)
    if not kept:
        raise ValueError("a memory chart needs at least one term above 0 GB")
    return MemorySpec(
        lang=lang,
        title=model,
        terms=kept,
        gpus=tuple((str(name), float(gb)) for name, gb in gpus),
        caption=Caption(price_date=price_date, source=source or text(lang, "source.memory")),
    )


def power_spec(plan: PowerPlan, *, lang: Lang = "en", price_date: dt.date | None = None) -> PowerSpec:
    """The PowerPlan's load, stacked per GPU plus CPU/board, against its PSU (the user's or the advised)."""
    from engine.power import MAX_PSU_LOAD

    limit = plan.power_limit
    stock = limit.tdp_w if limit else None
    return PowerSpec(
        lang=lang,
        gpu_name=_catalog().get(plan.gpu_id).short_name,
        gpu_count=plan.gpu_count,
        gpu_power_w=plan.gpu_power_w,
        stock_gpu_power_w=stock,
        cpu_and_board_w=plan.cpu_and_board_w,
        load_w=plan.load_w,
        stock_load_w=stock * plan.gpu_count + plan.cpu_and_board_w if stock else None,
        psu_w=plan.psu_w or plan.recommended_psu_w,
        max_load_fraction=MAX_PSU_LOAD,
        wall_draw_w=plan.wall_draw_w,
        caption=Caption(price_date=price_date, source=text(lang, "source.power")),
    )


SPEC_BUILDERS: dict[Kind, Callable[..., ChartSpec]] = {
    "performance": performance_spec,
    "value": value_spec,
    "breakeven": breakeven_spec,
    "memory": memory_spec,
    "power": power_spec,
}


def answer_spec(answer: Answer, lang: Lang = "en") -> ChartSpec | None:
    """The chart that fits an advisor Answer, or None when it has nothing to draw."""
    if answer.comparison is not None:
        c = answer.comparison
        return performance_spec(list(zip(c.gpu_ids, c.counts, strict=True)), lang=lang)
    if answer.options or answer.alternatives:
        return value_spec(
            (*answer.options, *answer.alternatives),
            lang=lang,
            min_memory_gb=answer.query.min_memory_gb,
            limit=None,
            price_date=answer.price_date,
        )
    if answer.break_even is not None:
        return breakeven_spec(answer.break_even, lang=lang, price_date=answer.price_date)
    if answer.power is not None:
        return power_spec(answer.power, lang=lang)
    if answer.can_run is not None:
        return _can_run_spec(answer, lang)
    return None


def _can_run_spec(answer: Answer, lang: Lang) -> ChartSpec | None:
    """The memory breakdown of the first verdict against the named GPUs' memory."""
    report = answer.can_run
    verdict = next((v for v in report.verdicts if v.estimate is not None), None)
    if verdict is None:
        return None
    gib = 1e9 / 2**30  # terms are decimal GB; card sizes are GiB, as the verdict compares them
    terms = [(t.name, t.per_gpu_gb * gib) for t in verdict.estimate.terms]
    gpus = [(v.name, v.memory_gb) for v in report.verdicts]
    return memory_spec(terms, gpus, model=report.model_name, lang=lang)


# ---- cache ------------------------------------------------------------------------------------


def cache_key(spec: ChartSpec) -> str:
    """sha256 of the drawing code's version and the spec's JSON (kind and language included)."""
    return hashlib.sha256(f"{CHART_VERSION}\n{spec.model_dump_json()}".encode()).hexdigest()


class _LRU:
    def __init__(self, maxsize: int) -> None:
        self.maxsize = maxsize
        self._data: OrderedDict[str, bytes] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = self.misses = self.renders = 0

    def get(self, key: str) -> bytes | None:
        with self._lock:
            png = self._data.get(key)
            if png is None:
                self.misses += 1
                return None
            self._data.move_to_end(key)
            self.hits += 1
            return png

    def put(self, key: str, png: bytes) -> None:
        with self._lock:
            self._data[key] = png
            self._data.move_to_end(key)
            while len(self._data) > self.maxsize:
                self._data.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._data.clear()
            self.hits = self.misses = self.renders = 0

    def __len__(self) -> int:
        return len(self._data)


_CACHE = _LRU(CACHE_SIZE)


def cache_clear() -> None:
    _CACHE.clear()


def cache_stats() -> dict[str, int]:
    """Hits, misses, real renders since the last clear, and PNGs held."""
    return {"hits": _CACHE.hits, "misses": _CACHE.misses, "renders": _CACHE.renders, "size": len(_CACHE)}


# ---- rendering --------------------------------------------------------------------------------

_RENDER_LOCK = threading.RLock()  # matplotlib's rcParams and font caches are process-wide
_EXECUTOR: ThreadPoolExecutor | None = None
_EXECUTOR_LOCK = threading.Lock()


def render_spec(spec: ChartSpec, *, use_cache: bool = True) -> bytes:
    """The spec's PNG: from the cache when the same spec was drawn before. Blocking: call it
    from a worker thread (or use :func:`render_async`), never on the event loop."""
    key = cache_key(spec)
    if use_cache and (png := _CACHE.get(key)) is not None:
        return png
    png = _draw(spec)
    _CACHE.put(key, png)
    return png


def render(kind: Kind, *args: Any, use_cache: bool = True, **kwargs: Any) -> bytes:
    """Build the ``kind`` spec from the arguments of its ``*_spec`` builder and render it (blocking)."""
    try:
        builder = SPEC_BUILDERS[kind]
    except KeyError:
        raise ValueError(f"unknown chart kind {kind!r}; known: {', '.join(KINDS)}") from None
    return render_spec(builder(*args, **kwargs), use_cache=use_cache)


def _executor() -> ThreadPoolExecutor:
    global _EXECUTOR
    with _EXECUTOR_LOCK:
        if _EXECUTOR is None:
            _EXECUTOR = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gpu-advisor-charts")
        return _EXECUTOR


async def render_async(
    kind: Kind,
    *args: Any,
    loop: asyncio.AbstractEventLoop | None = None,
    executor: Executor | None = None,
    **kwargs: Any,
) -> bytes:
    """:func:`render` in an executor, so the event loop never waits on matplotlib.

    By default the work goes to this module's own one-thread pool (renders are serialised anyway,
    and the bot's default pool stays free); pass ``executor`` to use another."""
    loop = loop or asyncio.get_running_loop()
    return await loop.run_in_executor(executor or _executor(), partial(render, kind, *args, **kwargs))


async def render_spec_async(
    spec: ChartSpec, *, loop: asyncio.AbstractEventLoop | None = None, executor: Executor | None = None
) -> bytes:
    """:func:`render_spec` in an executor (see :func:`render_async`)."""
    loop = loop or asyncio.get_running_loop()
    return await loop.run_in_executor(executor or _executor(), render_spec, spec)


def shutdown() -> None:
    """Stop the charts' worker thread (at bot shutdown); a later render_async starts a new one."""
    global _EXECUTOR
    with _EXECUTOR_LOCK:
        if _EXECUTOR is not None:
            _EXECUTOR.shutdown(wait=True)
            _EXECUTOR = None


def warm_up() -> None:
    """Import matplotlib, load the fonts and draw one small chart per language, so that the first
    real chart is as fast as any other (about half a second; run it in the executor at start-up:
    ``await loop.run_in_executor(None, charts.warm_up)``)."""
    with _RENDER_LOCK:
        _mpl()
        for lang in LANGS:
            resolve_fonts("Aa 1 顯存显存", lang)
            _draw(memory_spec([("weights", 1.0)], [("GPU", 2.0)], lang=lang, model="顯存显存"))


# ---- matplotlib, lazily -----------------------------------------------------------------------


@cache
def _mpl() -> SimpleNamespace:
    import matplotlib

    if "matplotlib.pyplot" not in sys.modules:
        matplotlib.use("Agg")
    from matplotlib import font_manager
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    from matplotlib.ticker import FuncFormatter, MaxNLocator
    from PIL import Image  # a dependency of matplotlib

    _ensure_cjk_fonts(font_manager)
    installed = {f.name for f in font_manager.fontManager.ttflist}
    return SimpleNamespace(
        matplotlib=matplotlib,
        font_manager=font_manager,
        Figure=Figure,
        FigureCanvasAgg=FigureCanvasAgg,
        Line2D=Line2D,
        Patch=Patch,
        FuncFormatter=FuncFormatter,
        MaxNLocator=MaxNLocator,
        Image=Image,
        installed=installed,
    )


def _ensure_cjk_fonts(font_manager: Any) -> None:
    """Add CJK font files matplotlib's cached font list misses (installed after the cache was built)."""
    names = {f.name for f in font_manager.fontManager.ttflist}
    extra = os.environ.get("GPU_ADVISOR_CJK_FONT")
    paths = [extra] if extra and Path(extra).is_file() else []
    if not names.intersection(CJK_FAMILIES):
        for folder in _FONT_DIRS:
            for pattern in _FONT_PATTERNS:
                paths += glob(os.path.join(folder, "**", pattern), recursive=True)
    for path in sorted(set(paths)):
        try:
            font_manager.fontManager.addfont(path)
        except (OSError, RuntimeError, ValueError):  # an unreadable file: skip it
            continue


def font_families(lang: Lang) -> list[str]:
    """The font family list for ``lang``: DejaVu Sans, then the best installed CJK family (regional
    face first). One fallback is enough, and every extra family costs a font lookup per text."""
    installed = _mpl().installed
    ordered = dict.fromkeys((*CJK_PREFERRED.get(lang, ()), *CJK_FAMILIES))
    return [LATIN_FAMILY, *[f for f in ordered if f in installed][:1]]


def cjk_font_installed() -> bool:
    return len(font_families("zh-Hans")) > 1


def resolve_fonts(sample: str, lang: Lang) -> dict[str, str]:
    """Which family draws each distinct character of ``sample`` in ``lang`` ('' when none has it).

    Mirrors matplotlib's fallback: the first family in :func:`font_families` with the glyph."""
    mpl = _mpl()
    fm = mpl.font_manager
    fonts = []
    for family in font_families(lang):
        path = fm.findfont(fm.FontProperties(family=family), fallback_to_default=False)
        fonts.append((family, fm.get_font(path)))
    out: dict[str, str] = {}
    for ch in dict.fromkeys(sample):
        if ch.isspace():
            continue
        out[ch] = next((family for family, font in fonts if font.get_char_index(ord(ch))), "")
    return out


def _rc(lang: Lang) -> dict[str, Any]:
    return {
        "font.family": font_families(lang),
        "font.size": TICK_PT,
        "axes.titlesize": TITLE_PT,
        "axes.labelsize": LABEL_PT,
        "xtick.labelsize": TICK_PT,
        "ytick.labelsize": TICK_PT,
        "legend.fontsize": TICK_PT,
        "figure.facecolor": BG,
        "axes.facecolor": BG,
        "savefig.facecolor": BG,
        "text.color": FG,
        "axes.labelcolor": FG,
        "axes.edgecolor": GRID,
        "xtick.color": FG,
        "ytick.color": FG,
        "grid.color": GRID,
        "grid.linewidth": 1.0,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "legend.frameon": False,
        "axes.axisbelow": True,
        "text.parse_math": False,  # "$2,200 … $71" is money, not mathtext
    }


def _draw(spec: ChartSpec) -> bytes:
    """Draw one spec to PNG bytes (blocking; serialised by a lock)."""
    drawer = _DRAWERS[spec.kind]
    with _RENDER_LOCK:
        mpl = _mpl()
        return _draw_locked(spec, drawer, mpl)


def _draw_locked(spec: ChartSpec, drawer: Callable[..., str], mpl: SimpleNamespace) -> bytes:
    with mpl.matplotlib.rc_context(_rc(spec.lang)):
        fig = mpl.Figure(figsize=FIGSIZE, dpi=DPI)
        canvas = mpl.FigureCanvasAgg(fig)
        ax = fig.add_subplot()
        title = drawer(spec, fig, ax, mpl)
        fig.text(0.012, 0.985, title, ha="left", va="top", fontsize=TITLE_PT, fontweight="bold", color=FG)
        fig.text(0.012, 0.018, _caption_text(spec), ha="left", va="bottom", fontsize=CAPTION_PT, color=MUTED)
        fig.text(0.988, 0.018, text(spec.lang, "app"), ha="right", va="bottom", fontsize=CAPTION_PT, color=MUTED)
        _fit_axes(fig, ax, canvas.get_renderer())
        canvas.draw()
        # An opaque RGB PNG (the card has no transparency to keep), fast zlib level: a third of the
        # encoding time of savefig's RGBA at level 6, for files about 7 % larger.
        image = mpl.Image.frombuffer("RGBA", canvas.get_width_height(), canvas.buffer_rgba(), "raw", "RGBA", 0, 1)
        buf = io.BytesIO()
        image.convert("RGB").save(buf, format="png", compress_level=1)
        _CACHE.renders += 1
    return buf.getvalue()


def _fit_axes(fig: Any, ax: Any, renderer: Any) -> None:
    """Place the axes between the title and the caption, leaving just the room its labels need.

    Measures the tick labels once instead of running a layout engine (which draws the figure an
    extra time): half the cost of a render."""

    def widest(labels: Iterable[Any]) -> float:
        return max((t.get_window_extent(renderer).width for t in labels if t.get_visible() and t.get_text()),
                   default=0.0)

    px = DPI / 72  # pixels per point
    left = 14 + widest(ax.get_yticklabels()) + (LABEL_PT * 1.3 * px + 10 if ax.get_ylabel() else 0) + 10
    xticks = max((t.get_window_extent(renderer).height for t in ax.get_xticklabels() if t.get_text()), default=0.0)
    bottom = 46 + (xticks + 14 if xticks else 0) + (LABEL_PT * 1.4 * px if ax.get_xlabel() else 0)
    top = 62
    fig.subplots_adjust(left=left / WIDTH_PX, right=1 - 16 / WIDTH_PX, bottom=bottom / HEIGHT_PX,
                        top=1 - top / HEIGHT_PX)


def _caption_text(spec: ChartSpec) -> str:
    cap = spec.caption
    if cap.price_date is not None:
        return text(spec.lang, "caption.prices", date=cap.price_date.isoformat(), source=cap.source or "—")
    return text(spec.lang, "caption.source", source=cap.source or "—")


def _money(usd: float | Decimal) -> str:
    return f"${float(usd):,.0f}"


def _luminance(colour: str) -> float:
    r, g, b = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _ink(colour: str) -> str:
    """Dark or light text, whichever reads on ``colour``."""
    return DARK_TEXT if _luminance(colour) > 0.3 else FG


def _two_lines(name: str) -> str:
    """Split a name at the space that makes its longer line shortest."""
    words = name.split(" ")
    if len(words) < 2:
        return name
    cuts = [(" ".join(words[:i]), " ".join(words[i:])) for i in range(1, len(words))]
    first, rest = min(cuts, key=lambda c: max(len(c[0]), len(c[1])))
    return f"{first}\n{rest}"


def _spread(ys: list[float], gap: float, lo: float, hi: float) -> list[float]:
    """Label positions near ``ys`` (sorted ascending) at least ``gap`` apart, within [lo, hi]."""
    out: list[float] = []
    for y in ys:
        out.append(max(y, lo, out[-1] + gap) if out else max(y, lo))
    overflow = out[-1] - hi if out else 0
    if overflow > 0:
        out = [y - overflow for y in out]
        for i in range(len(out) - 2, -1, -1):
            out[i] = min(out[i], out[i + 1] - gap)
    return out


# ---- the five drawings ------------------------------------------------------------------------


def _draw_performance(spec: PerformanceSpec, fig: Any, ax: Any, mpl: SimpleNamespace) -> str:
    lang, n_w = spec.lang, len(spec.workloads)
    width = 0.8 / n_w
    many = len(spec.bars) * n_w > 12
    top = max(max(b.values) for b in spec.bars)
    for j, workload in enumerate(spec.workloads):
        xs = [i + (j - (n_w - 1) / 2) * width for i in range(len(spec.bars))]
        values = [b.values[j] for b in spec.bars]
        label = text(lang, f"workload.{workload}")
        rects = ax.bar(xs, values, width * 0.92, color=WORKLOAD_COLOURS[workload], label=label)
        ax.bar_label(
            rects,
            labels=[f"{v:.2f}" for v in values],
            padding=4,
            fontsize=VALUE_PT,
            color=FG,
            rotation=90 if many else 0,
        )
    ax.axhline(1.0, color=MUTED, linewidth=1.5, linestyle=(0, (4, 4)), zorder=0)
    names = [counted(b.name, b.count) for b in spec.bars]
    if len(names) > 4:  # about 10 characters fit under a group of bars
        names = [_two_lines(n) if len(n) > 10 else n for n in names]
    ax.set_xticks(range(len(spec.bars)), names, fontsize=TICK_PT)
    ax.set_ylabel(text(lang, "axis.speed", reference=spec.reference))
    ax.set_ylim(0, top * (1.32 if many else 1.22))
    ax.yaxis.grid(True)
    ax.yaxis.set_major_formatter(mpl.FuncFormatter(lambda v, _: f"{v:g}×"))
    ax.legend(loc="upper left", ncols=n_w, fontsize=TICK_PT, handlelength=1.2, columnspacing=1.2)
    return text(lang, "title.performance", reference=spec.reference)


def _draw_value(spec: ValueSpec, fig: Any, ax: Any, mpl: SimpleNamespace) -> str:
    lang, floor = spec.lang, spec.min_memory_gb
    bars = spec.bars
    under = [floor is not None and b.memory_gb < floor for b in bars]
    colours = [GREY_BAR if u else PALETTE[0] for u in under]
    ys = list(range(len(bars)))
    values = [b.perf_per_kusd for b in bars]
    rects = ax.barh(ys, values, height=0.7, color=colours)
    labels = [f"{v:,.0f} · {b.memory_gb:g} GB · {_money(b.price_usd)}" for v, b in zip(values, bars, strict=True)]
    texts = ax.bar_label(rects, labels=labels, padding=8, fontsize=VALUE_PT)
    for t, u in zip(texts, under, strict=True):
        t.set_color(MUTED if u else FG)
    ax.set_yticks(ys, [counted(b.name, b.gpu_count) for b in bars], fontsize=TICK_PT)
    for tick, u in zip(ax.get_yticklabels(), under, strict=True):
        tick.set_color(MUTED if u else FG)
    ax.invert_yaxis()
    ax.set_xlim(0, max(values) * 1.55)
    ax.xaxis.grid(True)
    ax.xaxis.set_major_locator(mpl.MaxNLocator(nbins=6))
    ax.xaxis.set_major_formatter(mpl.FuncFormatter(lambda v, _: f"{v:,.0f}"))
    ax.tick_params(axis="y", length=0)
    workload = text(lang, f"workload.{spec.workload}") if spec.workload else None
    ax.set_xlabel(text(lang, "axis.value", workload=workload) if workload else text(lang, "axis.value_any"))
    if floor is not None and any(under):
        handles = [
            mpl.Patch(color=PALETTE[0], label=text(lang, "legend.meets_floor", gb=floor)),
            mpl.Patch(color=GREY_BAR, label=text(lang, "legend.under_floor", gb=floor)),
        ]
        ax.legend(handles=handles, loc="lower right", fontsize=TICK_PT)
    return text(lang, "title.value", workload=workload) if workload else text(lang, "title.value_any")


def _draw_breakeven(spec: BreakEvenSpec, fig: Any, ax: Any, mpl: SimpleNamespace) -> str:
    lang, h = spec.lang, spec.horizon_days
    desktop_label = text(lang, "legend.desktop", capex=spec.desktop_usd[0], power=spec.electricity_per_year)
    use = round(spec.utilisation * 100, 1)
    cloud_label = text(lang, "legend.cloud", hourly=f"{spec.cloud_usd_per_hour:g}", use=use)
    ax.plot([0, h], list(spec.desktop_usd), color=DESKTOP_COLOUR, linewidth=4, label=desktop_label)
    ax.plot([0, h], list(spec.cloud_usd), color=CLOUD_COLOUR, linewidth=4, label=cloud_label)
    top = max(*spec.desktop_usd, *spec.cloud_usd) * 1.3  # the top 23 % holds the legend and labels
    ax.set_xlim(0, h)
    ax.set_ylim(0, top)
    if h > 365:
        ax.axvline(365, color=MUTED, linewidth=1.5, linestyle=(0, (2, 3)), zorder=0)
        ax.text(365, top * 0.855, " " + text(lang, "label.one_year"), color=MUTED, fontsize=VALUE_PT, ha="left",
                va="center")
    if spec.days is not None and spec.crossing_usd is not None:
        ax.axvline(spec.days, color=FG, linewidth=2, linestyle=(0, (6, 4)))
        ax.plot([spec.days], [spec.crossing_usd], "o", color=FG, markersize=11, zorder=5)
        right = spec.days > h * 0.6
        ax.annotate(
            text(lang, "label.breakeven", days=spec.days, months=spec.months),
            xy=(spec.days, spec.crossing_usd),
            xytext=(-14 if right else 14, -34),
            textcoords="offset points",
            ha="right" if right else "left",
            va="top",
            fontsize=VALUE_PT,
            fontweight="bold",
            color=FG,
            bbox={"boxstyle": "round,pad=0.35", "facecolor": BG, "edgecolor": GRID},
        )
    else:
        ax.text(
            0.5,
            0.5,
            text(lang, "label.never"),
            transform=ax.transAxes,
            ha="center",
            va="center",
            fontsize=VALUE_PT + 2,
            fontweight="bold",
            color=FG,
            bbox={"boxstyle": "round,pad=0.5", "facecolor": BG, "edgecolor": MAX_LOAD_COLOUR, "linewidth": 2},
        )
    ax.set_xlabel(text(lang, "axis.days"))
    ax.set_ylabel(text(lang, "axis.cost"))
    ax.yaxis.set_major_formatter(mpl.FuncFormatter(lambda v, _: _money(v)))
    ax.xaxis.set_major_formatter(mpl.FuncFormatter(lambda v, _: f"{v:,.0f}"))
    ax.grid(True)
    legend = ax.legend(loc="upper left", ncols=2, fontsize=TICK_PT, handlelength=1.6, borderaxespad=0.3,
                       frameon=True, facecolor=BG, edgecolor="none", framealpha=1.0)
    legend.set_zorder(6)
    return text(lang, "title.breakeven")


def _draw_memory(spec: MemorySpec, fig: Any, ax: Any, mpl: SimpleNamespace) -> str:
    lang = spec.lang
    total = sum(gb for _, gb in spec.terms)
    top = max([total, *(gb for _, gb in spec.gpus)]) * 1.15
    bottom, mids = 0.0, []
    bar_x, bar_w = 0.0, 0.55
    for i, (name, gb) in enumerate(spec.terms):
        colour = PALETTE[i % len(PALETTE)]
        ax.bar(bar_x, gb, bar_w, bottom=bottom, color=colour, edgecolor=BG, linewidth=1.5)
        if gb / top > 0.06:
            ax.text(bar_x, bottom + gb / 2, f"{gb:.1f}", ha="center", va="center", fontsize=VALUE_PT,
                    color=_ink(colour))
        mids.append((bottom + gb / 2, name, gb, colour))
        bottom += gb
    ax.text(bar_x, total + top * 0.015, text(lang, "label.total", gb=total), ha="center", va="bottom",
            fontsize=VALUE_PT, fontweight="bold", color=FG)
    # term names beside the bar, spread apart so they never overlap, joined to their segments
    label_x = bar_x + bar_w / 2 + 0.25
    ys = _spread([m[0] for m in mids], gap=top * 0.062, lo=top * 0.03, hi=top * 0.97)
    for (mid, name, gb, colour), y in zip(mids, ys, strict=True):
        ax.plot([bar_x + bar_w / 2, label_x - 0.04], [mid, y], color=colour, linewidth=1.5)
        ax.text(label_x, y, f"{term_label(lang, name)}  {gb:.1f} GB", ha="left", va="center",
                fontsize=VALUE_PT, color=FG, zorder=4,
                bbox={"boxstyle": "round,pad=0.1", "facecolor": BG, "edgecolor": "none"})
    for j, (name, gb) in enumerate(spec.gpus):
        style = ["-", (0, (6, 3)), (0, (2, 2)), (0, (8, 2, 2, 2))][j % 4]
        ax.axhline(gb, color=FG, linewidth=2, linestyle=style, zorder=1)
        ax.text(3.45, gb + top * 0.008, text(lang, "label.gpu_line", name=name, gb=gb), ha="right", va="bottom",
                fontsize=VALUE_PT, color=FG, fontweight="bold",
                bbox={"boxstyle": "round,pad=0.15", "facecolor": BG, "edgecolor": "none"})
    ax.set_xlim(-0.6, 3.5)
    ax.set_ylim(0, top)
    ax.set_xticks([])
    ax.spines["bottom"].set_visible(False)
    ax.set_ylabel(text(lang, "axis.memory"))
    ax.yaxis.grid(True)
    return text(lang, "title.memory_model", model=spec.title) if spec.title else text(lang, "title.memory")


def _draw_power(spec: PowerSpec, fig: Any, ax: Any, mpl: SimpleNamespace) -> str:
    lang = spec.lang
    rows: list[tuple[str, int, int]] = []  # (label, per-GPU watts, load)
    if spec.stock_gpu_power_w is not None and spec.stock_load_w is not None:
        rows.append((text(lang, "row.limited", limit=spec.gpu_power_w), spec.gpu_power_w, spec.load_w))
        rows.append((text(lang, "row.stock", tdp=spec.stock_gpu_power_w), spec.stock_gpu_power_w, spec.stock_load_w))
    else:
        rows.append((text(lang, "row.load"), spec.gpu_power_w, spec.load_w))
    psu, max_load = spec.psu_w, spec.psu_w * spec.max_load_fraction
    right = max(psu, *(r[2] for r in rows)) * 1.2
    px_per_w = 1000 / right  # the axes are about 1,000 px wide
    height = 0.6
    for y, (_, per_gpu, load) in enumerate(rows):
        left = 0
        for n in range(spec.gpu_count):
            colour = GPU_SEGMENT_COLOURS[n % 2]
            ax.barh(y, per_gpu, height, left=left, color=colour, edgecolor=BG, linewidth=1.5)
            if per_gpu * px_per_w > 95:
                seg = f"{text(lang, 'segment.gpu', n=n + 1)}\n{per_gpu} W"
            elif per_gpu * px_per_w > 45:
                seg = f"{per_gpu}"
            else:
                seg = ""
            if seg:
                ax.text(left + per_gpu / 2, y, seg, ha="center", va="center", fontsize=VALUE_PT, color=_ink(colour))
            left += per_gpu
        ax.barh(y, spec.cpu_and_board_w, height, left=left, color=CPU_COLOUR, edgecolor=BG, linewidth=1.5)
        cpu_px = spec.cpu_and_board_w * px_per_w
        cpu_name = text(lang, "segment.cpu" if cpu_px > 150 else "segment.cpu_short")
        cpu_label = f"{cpu_name}\n{spec.cpu_and_board_w} W" if cpu_px > 60 else f"{spec.cpu_and_board_w}"
        ax.text(left + spec.cpu_and_board_w / 2, y, cpu_label, ha="center", va="center", fontsize=VALUE_PT,
                color=_ink(CPU_COLOUR))
        ax.text(load, y - height / 2 - 0.03, f"{load} W", ha="right", va="bottom", fontsize=VALUE_PT,
                fontweight="bold", color=MAX_LOAD_COLOUR if load > max_load else FG, zorder=4,
                bbox={"boxstyle": "round,pad=0.1", "facecolor": BG, "edgecolor": "none"})
    ax.axvline(psu, color=PSU_COLOUR, linewidth=3)
    ax.axvline(max_load, color=MAX_LOAD_COLOUR, linewidth=3, linestyle=(0, (6, 3)))
    label_y = -0.5 - 0.03
    ax.text(psu, label_y, " " + text(lang, "line.psu", w=psu), ha="left", va="bottom", fontsize=VALUE_PT,
            fontweight="bold", color=PSU_COLOUR)
    ax.text(max_load, label_y, text(lang, "line.max_load", pct=spec.max_load_fraction * 100, w=max_load) + " ",
            ha="right", va="bottom", fontsize=VALUE_PT, fontweight="bold", color=MAX_LOAD_COLOUR)
    ax.text(0.005, 0.02, text(lang, "label.wall", w=spec.wall_draw_w), transform=ax.transAxes, ha="left",
            va="bottom", fontsize=VALUE_PT, color=MUTED)
    ax.set_yticks(range(len(rows)), [r[0] for r in rows], fontsize=TICK_PT)
    ax.tick_params(axis="y", length=0)
    ax.invert_yaxis()
    ax.set_ylim(len(rows) - 0.5 + 0.35, -0.5 - 0.3)
    ax.set_xlim(0, right)
    ax.set_xlabel(text(lang, "axis.watts"))
    ax.xaxis.grid(True)
    ax.xaxis.set_major_formatter(mpl.FuncFormatter(lambda v, _: f"{v:,.0f}"))
    gpus = counted(spec.gpu_name, spec.gpu_count)
    return text(lang, "title.power", gpus=gpus, count=spec.gpu_count, gpu=spec.gpu_name, psu=psu)


_DRAWERS: dict[str, Callable[[Any, Any, Any, SimpleNamespace], str]] = {
    "performance": _draw_performance,
    "value": _draw_value,
    "breakeven": _draw_breakeven,
    "memory": _draw_memory,
    "power": _draw_power,
}
