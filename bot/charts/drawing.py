"""Drawing: one spec onto a matplotlib Agg canvas, to PNG bytes, one function per chart kind.

A drawer only places what its spec holds (bars, lines, labels in the spec's language); it never
computes a figure. matplotlib's rcParams and font caches are process-wide, so renders are
serialised by :data:`RENDER_LOCK`; :mod:`bot.charts.rendering` keeps them off the event loop.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Callable, Iterable
from decimal import Decimal
from types import SimpleNamespace
from typing import Any

from bot.charts.fonts import _mpl
from bot.charts.specs import BreakEvenSpec, ChartSpec, MemorySpec, PerformanceSpec, PowerSpec, ValueSpec
from bot.charts.style import (
    BG,
    CAPTION_PT,
    CLOUD_COLOUR,
    CPU_COLOUR,
    DARK_TEXT,
    DESKTOP_COLOUR,
    DPI,
    FG,
    FIGSIZE,
    GPU_SEGMENT_COLOURS,
    GREY_BAR,
    GRID,
    HEIGHT_PX,
    LABEL_PT,
    MAX_LOAD_COLOUR,
    MUTED,
    PALETTE,
    PSU_COLOUR,
    TICK_PT,
    TITLE_PT,
    VALUE_PT,
    WIDTH_PX,
    WORKLOAD_COLOURS,
    rc,
)
from bot.charts.wording import term_label, text
from bot.render import counted

RENDER_LOCK = threading.RLock()  # matplotlib's rcParams and font caches are process-wide


def draw(spec: ChartSpec) -> bytes:
    """Draw one spec to PNG bytes (blocking; serialised by :data:`RENDER_LOCK`)."""
    drawer = _DRAWERS[spec.kind]
    with RENDER_LOCK:
        mpl = _mpl()
        return _draw_locked(spec, drawer, mpl)


def _draw_locked(spec: ChartSpec, drawer: Callable[..., str], mpl: SimpleNamespace) -> bytes:
    with mpl.matplotlib.rc_context(rc(spec.lang)):
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
    return buf.getvalue()


def _fit_axes(fig: Any, ax: Any, renderer: Any) -> None:
    """Place the axes between the title and the caption, leaving just the room its labels need.

    Measures the tick labels once instead of running a layout engine (which draws the figure an
    extra time): half the cost of a render."""

    def widest(labels: Iterable[Any]) -> float:
        return max(
            (t.get_window_extent(renderer).width for t in labels if t.get_visible() and t.get_text()), default=0.0
        )

    px = DPI / 72  # pixels per point
    left = 14 + widest(ax.get_yticklabels()) + (LABEL_PT * 1.3 * px + 10 if ax.get_ylabel() else 0) + 10
    xticks = max((t.get_window_extent(renderer).height for t in ax.get_xticklabels() if t.get_text()), default=0.0)
    bottom = 46 + (xticks + 14 if xticks else 0) + (LABEL_PT * 1.4 * px if ax.get_xlabel() else 0)
    top = 62
    fig.subplots_adjust(
        left=left / WIDTH_PX, right=1 - 16 / WIDTH_PX, bottom=bottom / HEIGHT_PX, top=1 - top / HEIGHT_PX
    )


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
        ax.text(
            365, top * 0.855, " " + text(lang, "label.one_year"), color=MUTED, fontsize=VALUE_PT, ha="left", va="center"
        )
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
    legend = ax.legend(
        loc="upper left",
        ncols=2,
        fontsize=TICK_PT,
        handlelength=1.6,
        borderaxespad=0.3,
        frameon=True,
        facecolor=BG,
        edgecolor="none",
        framealpha=1.0,
    )
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
            ax.text(
                bar_x, bottom + gb / 2, f"{gb:.1f}", ha="center", va="center", fontsize=VALUE_PT, color=_ink(colour)
            )
        mids.append((bottom + gb / 2, name, gb, colour))
        bottom += gb
    ax.text(
        bar_x,
        total + top * 0.015,
        text(lang, "label.total", gb=total),
        ha="center",
        va="bottom",
        fontsize=VALUE_PT,
        fontweight="bold",
        color=FG,
    )
    # term names beside the bar, spread apart so they never overlap, joined to their segments
    label_x = bar_x + bar_w / 2 + 0.25
    ys = _spread([m[0] for m in mids], gap=top * 0.062, lo=top * 0.03, hi=top * 0.97)
    for (mid, name, gb, colour), y in zip(mids, ys, strict=True):
        ax.plot([bar_x + bar_w / 2, label_x - 0.04], [mid, y], color=colour, linewidth=1.5)
        ax.text(
            label_x,
            y,
            f"{term_label(lang, name)}  {gb:.1f} GB",
            ha="left",
            va="center",
            fontsize=VALUE_PT,
            color=FG,
            zorder=4,
            bbox={"boxstyle": "round,pad=0.1", "facecolor": BG, "edgecolor": "none"},
        )
    for j, (name, gb) in enumerate(spec.gpus):
        style = ["-", (0, (6, 3)), (0, (2, 2)), (0, (8, 2, 2, 2))][j % 4]
        ax.axhline(gb, color=FG, linewidth=2, linestyle=style, zorder=1)
        ax.text(
            3.45,
            gb + top * 0.008,
            text(lang, "label.gpu_line", name=name, gb=gb),
            ha="right",
            va="bottom",
            fontsize=VALUE_PT,
            color=FG,
            fontweight="bold",
            bbox={"boxstyle": "round,pad=0.15", "facecolor": BG, "edgecolor": "none"},
        )
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
        ax.text(
            left + spec.cpu_and_board_w / 2,
            y,
            cpu_label,
            ha="center",
            va="center",
            fontsize=VALUE_PT,
            color=_ink(CPU_COLOUR),
        )
        ax.text(
            load,
            y - height / 2 - 0.03,
            f"{load} W",
            ha="right",
            va="bottom",
            fontsize=VALUE_PT,
            fontweight="bold",
            color=MAX_LOAD_COLOUR if load > max_load else FG,
            zorder=4,
            bbox={"boxstyle": "round,pad=0.1", "facecolor": BG, "edgecolor": "none"},
        )
    ax.axvline(psu, color=PSU_COLOUR, linewidth=3)
    ax.axvline(max_load, color=MAX_LOAD_COLOUR, linewidth=3, linestyle=(0, (6, 3)))
    label_y = -0.5 - 0.03
    ax.text(
        psu,
        label_y,
        " " + text(lang, "line.psu", w=psu),
        ha="left",
        va="bottom",
        fontsize=VALUE_PT,
        fontweight="bold",
        color=PSU_COLOUR,
    )
    ax.text(
        max_load,
        label_y,
        text(lang, "line.max_load", pct=spec.max_load_fraction * 100, w=max_load) + " ",
        ha="right",
        va="bottom",
        fontsize=VALUE_PT,
        fontweight="bold",
        color=MAX_LOAD_COLOUR,
    )
    ax.text(
        0.005,
        0.02,
        text(lang, "label.wall", w=spec.wall_draw_w),
        transform=ax.transAxes,
        ha="left",
        va="bottom",
        fontsize=VALUE_PT,
        color=MUTED,
    )
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
