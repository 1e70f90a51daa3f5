"""Chart specs: frozen pydantic models of exactly what a chart draws, and the builders that fill them.

A spec holds figures, never words: the drawing turns them into labels in the spec's language. Its
JSON is the render cache's key, so everything that changes the picture must be a field here.

Builders read figures an engine result already carries (an ``Answer``'s options, comparison rows,
break-even, power plan, can-run verdicts) and only look up a GPU's display name in the catalog by
id. The one exception is :func:`engine_relative_speeds`, used by :func:`performance_spec` for a
list of cards no Answer covers; its docstring says why.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Literal, cast

from pydantic import BaseModel, ConfigDict

from bot.charts.wording import short_source, text
from bot.locales import Lang
from engine.specs import WORKLOADS, Workload

if TYPE_CHECKING:
    from engine.answer import Answer, Comparison, Option
    from engine.catalog import Catalog
    from engine.cloud import BreakEven
    from engine.cost import ValueOption
    from engine.power import PowerPlan

Kind = Literal["performance", "value", "breakeven", "memory", "power"]
KINDS: tuple[Kind, ...] = ("performance", "value", "breakeven", "memory", "power")

MAX_PERFORMANCE_GPUS = 8
DEFAULT_VALUE_BARS = 10


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


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


# ---- the catalog, for display names -----------------------------------------------------------


def _catalog() -> Catalog:
    """The engine's catalog, imported on first use so that ``import bot.charts`` stays cheap."""
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


def _short_name(gpu_id: str) -> str:
    return _catalog().get(gpu_id).short_name


# ---- builders ---------------------------------------------------------------------------------


def _drawn(workloads: Sequence[Workload]) -> tuple[Workload, ...]:
    """The workloads the bar charts have a colour for (the guide's three; batch-1 decode is a
    ranking metric, not drawn beside them)."""
    from bot.charts.style import WORKLOAD_COLOURS

    return tuple(w for w in workloads if w in WORKLOAD_COLOURS)


def engine_relative_speeds(
    gpus: Sequence[tuple[str, int]], reference: str, workloads: Sequence[Workload]
) -> list[tuple[float, ...]]:
    """Modelled throughput of each ``(gpu id, count)`` relative to one ``reference`` card, per workload.

    The one place the charts ask the engine for figures instead of reading them from an Answer:
    ``/chart performance`` (and :func:`render` with ``"performance"``) draws up to eight cards the
    user lists, and no Answer carries speeds for more than the two cards of a ``Comparison``. An
    Answer's comparison is drawn from its own rows by :func:`comparison_spec`. Remove this once the
    engine answers a many-card comparison."""
    from engine.performance import speed, throughput

    return [tuple(throughput(gpu_id, w, count) / speed(reference, w) for w in workloads) for gpu_id, count in gpus]


def performance_spec(
    gpus: Sequence[str | tuple[str, int]],
    *,
    lang: Lang = "en",
    reference: str = "rtx-3090",
    workloads: Sequence[Workload] = WORKLOADS,
) -> PerformanceSpec:
    """Relative speed of each GPU (or ``(gpu, count)``) for ``workloads``, from the engine's model
    (see :func:`engine_relative_speeds`)."""
    if not gpus:
        raise ValueError("a performance chart needs at least one GPU")
    if len(gpus) > MAX_PERFORMANCE_GPUS:
        raise ValueError(f"a performance chart shows at most {MAX_PERFORMANCE_GPUS} GPUs")
    ref = _gpu_id(reference)
    workloads = _drawn(workloads)
    entries = [(entry, 1) if isinstance(entry, str) else entry for entry in gpus]
    resolved = [(_gpu_id(gpu), count) for gpu, count in entries]
    speeds = engine_relative_speeds(resolved, ref, workloads)
    bars = tuple(
        PerformanceBar(gpu_id=gpu_id, name=_short_name(gpu_id), count=count, values=values)
        for (gpu_id, count), values in zip(resolved, speeds, strict=True)
    )
    return PerformanceSpec(
        lang=lang,
        reference=_short_name(ref),
        workloads=tuple(workloads),
        bars=bars,
        caption=Caption(source=text(lang, "source.performance")),
    )


def comparison_spec(comparison: Comparison, *, lang: Lang = "en") -> PerformanceSpec:
    """The compared setups' speed relative to the first, from the answer's rows.

    Each row's ``speeds`` are the answer's own figures (each setup's modelled speed, counts and
    scaling included, over the first setup's), so the chart's numbers agree with the answer's table."""
    drawn = _drawn(tuple(row.workload for row in comparison.rows))
    rows = [row for row in comparison.rows if row.workload in drawn]
    bars = [
        PerformanceBar(
            gpu_id=gpu_id, name=_short_name(gpu_id), count=count, values=tuple(row.speeds[i] for row in rows)
        )
        for i, (gpu_id, count) in enumerate(zip(comparison.gpu_ids, comparison.counts, strict=True))
    ]
    first = _short_name(comparison.gpu_ids[0])
    return PerformanceSpec(
        lang=lang,
        reference=f"{comparison.counts[0]}× {first}" if comparison.counts[0] > 1 else first,
        workloads=drawn,
        bars=tuple(bars),
        caption=Caption(source=text(lang, "source.performance")),
    )


def value_bar(option: ValueOption | Option | ValueBar | Mapping[str, Any]) -> ValueBar:
    """A value-chart bar from an engine ValueOption, an advisor Option, or a mapping of its fields."""
    if isinstance(option, ValueBar):
        return option
    if isinstance(option, Mapping):
        return ValueBar.model_validate(dict(option))
    if getattr(option, "name", None) is None:  # a ValueOption: names and memory come from the catalog
        ranked = cast("ValueOption", option)
        gpu = _catalog().get(ranked.gpu_id)
        name, memory, gpus_usd = gpu.short_name, gpu.memory_gb, ranked.price.usd * ranked.gpu_count
    else:
        advised = cast("Option", option)
        name, memory, gpus_usd = advised.name, advised.memory_gb, advised.gpus_usd
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
        workload = next((w for o in options if (w := getattr(o, "workload", None))), None)
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
    """The PowerPlan's load, stacked per GPU plus CPU/board, against its PSU (the user's or the advised).

    The 95 % line is the engine's own sizing rule (``MAX_PSU_LOAD``), so the chart draws the limit
    the plan was sized against."""
    from engine.power import MAX_PSU_LOAD

    limit = plan.power_limit
    stock = limit.tdp_w if limit else None
    return PowerSpec(
        lang=lang,
        gpu_name=_short_name(plan.gpu_id),
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
    """The chart that fits an advisor Answer, or None when it has nothing to draw.

    Reads only the figures the Answer carries (see the module docstring), so a chart always shows
    the numbers the answer's text states."""
    if answer.comparison is not None:
        return comparison_spec(answer.comparison, lang=lang)
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
    if report is None:
        return None
    verdict = next((v for v in report.verdicts if v.estimate is not None), None)
    if verdict is None:
        return None
    gib = 1e9 / 2**30  # terms are decimal GB; card sizes are GiB, as the verdict compares them
    terms = [(t.name, t.per_gpu_gb * gib) for t in verdict.estimate.terms]
    gpus = [(v.name, v.memory_gb) for v in report.verdicts]
    return memory_spec(terms, gpus, model=report.model_name, lang=lang)
