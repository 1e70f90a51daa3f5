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

The package, by concern (callers import from ``bot.charts`` only; this module re-exports):

- :mod:`~bot.charts.specs`: the spec models and the builders from engine results / an ``Answer``;
- :mod:`~bot.charts.wording`: the charts' words, from ``data/locales/charts.yaml``;
- :mod:`~bot.charts.style`: the card's size, colours, type sizes, matplotlib settings;
- :mod:`~bot.charts.fonts`: matplotlib loaded lazily, font discovery, the CJK fallback;
- :mod:`~bot.charts.drawing`: one drawer per kind, a spec to PNG bytes;
- :mod:`~bot.charts.rendering`: the PNG cache and the blocking and async entry points.

``_mpl``, ``_ensure_cjk_fonts`` and ``_LRU`` are re-exported too, because the tests check font
registration and the cache through them.
"""

from __future__ import annotations

from bot.charts import drawing, fonts, rendering, specs, style, wording
from bot.charts.fonts import (
    CJK_FAMILIES,
    CJK_INSTALL_HINT,
    CJK_PREFERRED,
    LATIN_FAMILY,
    cjk_font_installed,
    font_families,
    resolve_fonts,
)
from bot.charts.fonts import _ensure_cjk_fonts as _ensure_cjk_fonts
from bot.charts.fonts import _mpl as _mpl
from bot.charts.rendering import _LRU as _LRU
from bot.charts.rendering import (
    CACHE_SIZE,
    CHART_VERSION,
    MAX_WAITING,
    ChartsBusy,
    cache_clear,
    cache_key,
    cache_stats,
    max_waiting,
    queue_stats,
    render,
    render_async,
    render_spec,
    render_spec_async,
    set_max_waiting,
    shutdown,
    start_worker,
    use_processes,
    uses_processes,
    warm_up,
    worker_pid,
)
from bot.charts.specs import (
    DEFAULT_VALUE_BARS,
    KINDS,
    MAX_PERFORMANCE_GPUS,
    SPEC_BUILDERS,
    BreakEvenSpec,
    Caption,
    ChartSpec,
    Kind,
    MemorySpec,
    PerformanceBar,
    PerformanceSpec,
    PowerSpec,
    ValueBar,
    ValueSpec,
    answer_spec,
    breakeven_spec,
    comparison_spec,
    engine_relative_speeds,
    gpu_lines,
    memory_spec,
    performance_spec,
    power_spec,
    value_bar,
    value_spec,
)
from bot.charts.style import DPI, FIGSIZE, HEIGHT_PX, WIDTH_PX
from bot.charts.wording import short_source, term_label, text
from bot.locales import LANGS, Lang
from bot.locales import table as locale_table

__all__ = [
    "CACHE_SIZE",
    "CHART_VERSION",
    "CJK_FAMILIES",
    "CJK_INSTALL_HINT",
    "CJK_PREFERRED",
    "DEFAULT_VALUE_BARS",
    "DPI",
    "FIGSIZE",
    "HEIGHT_PX",
    "KINDS",
    "LANGS",
    "LATIN_FAMILY",
    "MAX_PERFORMANCE_GPUS",
    "MAX_WAITING",
    "SPEC_BUILDERS",
    "WIDTH_PX",
    "BreakEvenSpec",
    "Caption",
    "ChartSpec",
    "ChartsBusy",
    "Kind",
    "Lang",
    "MemorySpec",
    "PerformanceBar",
    "PerformanceSpec",
    "PowerSpec",
    "ValueBar",
    "ValueSpec",
    "answer_spec",
    "breakeven_spec",
    "cache_clear",
    "cache_key",
    "cache_stats",
    "cjk_font_installed",
    "comparison_spec",
    "drawing",
    "engine_relative_speeds",
    "font_families",
    "fonts",
    "gpu_lines",
    "locale_table",
    "max_waiting",
    "memory_spec",
    "performance_spec",
    "power_spec",
    "queue_stats",
    "render",
    "render_async",
    "render_spec",
    "render_spec_async",
    "rendering",
    "resolve_fonts",
    "set_max_waiting",
    "short_source",
    "shutdown",
    "specs",
    "start_worker",
    "style",
    "term_label",
    "text",
    "use_processes",
    "uses_processes",
    "value_bar",
    "value_spec",
    "warm_up",
    "wording",
    "worker_pid",
]
