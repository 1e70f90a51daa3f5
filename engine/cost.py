"""Performance per dollar of a whole system (guide §5, "performance per dollar").

A GPU's value depends on what else you pay for: the guide divides each card's speed by the cost
of a desktop (or an 8-GPU barebone) plus the cards, at dated street prices, and a later revision
adds years of electricity. Prices come from a snapshot in ``data/prices/`` (the guide's own
2020-09 and 2023-01 markets, or the newest), optionally overridden per GPU (a user's quote, a
server's community median).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from decimal import Decimal
from functools import lru_cache
from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from engine.catalog import Catalog, load_catalog
from engine.performance import scaling_efficiency, speed
from engine.specs import BuildCost, Workload

PriceCondition = Literal["new", "used"]
SOURCE = "Guide 2020/2023 §performance per dollar: speed / (base system + GPUs) at average street prices"


class PriceQuote(BaseModel):
    """One GPU's price in USD, with where and when it was seen."""

    model_config = ConfigDict(frozen=True)

    gpu_id: str
    usd: Decimal = Field(gt=0)
    basis: Literal["new", "used", "average of new and used", "override"]
    date: dt.date
    source: str
    snapshot_id: str | None = None


class Electricity(BaseModel):
    """Running cost to add to the purchase: ``years`` of ``hours_per_day`` at a price per kWh."""

    model_config = ConfigDict(frozen=True)

    usd_per_kwh: Decimal = Field(ge=0, le=100)
    hours_per_day: float = Field(gt=0, le=24)
    years: float = Field(default=5, gt=0, le=20)
    system_power_w: float = Field(default=100, ge=0)


class ValueOption(BaseModel):
    """A system of ``gpu_count`` × one GPU: its speed, full cost and speed per $1,000."""

    model_config = ConfigDict(frozen=True)

    gpu_id: str
    gpu_count: int
    workload: Workload
    speed: float
    price: PriceQuote
    base: BuildCost
    system_usd: Decimal
    electricity_usd: Decimal | None
    total_usd: Decimal
    perf_per_kusd: float
    source: str = SOURCE


def price_quote(
    gpu_id: str,
    *,
    snapshot: str | None = None,
    condition: PriceCondition | None = None,
    overrides: Mapping[str, PriceQuote] | None = None,
) -> PriceQuote | None:
    """The price the guide's method would use; None when the snapshot has none.

    No condition → the average of new and used (the guide averaged Amazon and eBay); "new" → new
    only; "used" → the cheaper of used and new, since a buyer open to used cards also takes new ones.
    """
    if overrides and gpu_id in overrides:
        return overrides[gpu_id]
    return _snapshot_quote(gpu_id, snapshot, condition)


@lru_cache(maxsize=8192)
def _snapshot_quote(gpu_id: str, snapshot: str | None, condition: PriceCondition | None) -> PriceQuote | None:
    """Snapshot prices never change while the process runs, so each quote is built once."""
    snap = load_catalog().snapshot(snapshot)
    entry = snap.prices.get(gpu_id)
    if entry is None:
        return None
    available = {k: v for k, v in (("new", entry.new), ("used", entry.used)) if v is not None}
    if condition == "new":
        if "new" not in available:
            return None
        basis, usd = "new", available["new"]
    elif condition == "used":
        basis = min(available, key=lambda k: available[k])
        usd = available[basis]
    elif len(available) == 2:
        basis, usd = "average of new and used", (available["new"] + available["used"]) / 2
    else:
        basis, usd = next(iter(available.items()))
    return PriceQuote(
        gpu_id=gpu_id,
        usd=usd,
        basis=basis,
        date=snap.date,
        source=entry.source or "; ".join(snap.sources),
        snapshot_id=snap.id,
    )


def base_system(gpu_count: int, on: dt.date, catalog: Catalog | None = None) -> BuildCost:
    """The base build (no GPUs) dated closest to ``on`` that holds ``gpu_count`` GPUs."""
    catalog = catalog or load_catalog()
    fitting = [b for b in catalog.builds if b.gpus >= gpu_count]
    if not fitting:
        raise ValueError(f"no base system in builds.yaml holds {gpu_count} GPUs")
    return min(fitting, key=lambda b: (abs((b.date - on).days) // 180, b.gpus, b.usd))


def electricity_cost(gpu_tdp_w: int, gpu_count: int, electricity: Electricity) -> Decimal:
    kw = (gpu_tdp_w * gpu_count + electricity.system_power_w) / 1000
    kwh = Decimal(str(kw * electricity.hours_per_day * 365 * electricity.years))
    return (kwh * electricity.usd_per_kwh).quantize(Decimal("0.01"))


def value(
    gpu_id: str,
    workload: Workload,
    gpu_count: int = 1,
    *,
    snapshot: str | None = None,
    condition: PriceCondition | None = None,
    overrides: Mapping[str, PriceQuote] | None = None,
    electricity: Electricity | None = None,
) -> ValueOption | None:
    """Speed per $1,000 of a whole system with ``gpu_count`` of this GPU; None without a price or base."""
    catalog = load_catalog()
    quote = price_quote(gpu_id, snapshot=snapshot, condition=condition, overrides=overrides)
    if quote is None:
        return None
    try:
        base = base_system(gpu_count, quote.date, catalog)
    except ValueError:  # no dated base holds this many GPUs (a data gap builds.yaml names)
        return None
    system = base.usd + quote.usd * gpu_count
    power = electricity_cost(catalog.get(gpu_id).tdp_w, gpu_count, electricity) if electricity else None
    total = system + (power or 0)
    throughput = speed(gpu_id, workload) * gpu_count * scaling_efficiency(gpu_count)
    return ValueOption(
        gpu_id=gpu_id,
        gpu_count=gpu_count,
        workload=workload,
        speed=throughput,
        price=quote,
        base=base,
        system_usd=system,
        electricity_usd=power,
        total_usd=total,
        perf_per_kusd=throughput / float(total) * 1000,
    )


def rank_by_value(
    workload: Workload,
    *,
    gpu_counts: Iterable[int] = (1,),
    candidates: Iterable[str] | None = None,
    min_memory_gb: float | None = None,
    max_total_usd: Decimal | None = None,
    snapshot: str | None = None,
    condition: PriceCondition | None = None,
    overrides: Mapping[str, PriceQuote] | None = None,
    electricity: Electricity | None = None,
) -> list[ValueOption]:
    """Every priced system that meets the memory floor and budget, best speed per dollar first."""
    catalog = load_catalog()
    ids = [
        g for g in (candidates or catalog.ids()) if min_memory_gb is None or catalog.get(g).memory_gb >= min_memory_gb
    ]
    options = [
        opt
        for n in gpu_counts
        for g in ids
        if (
            opt := value(
                g, workload, n, snapshot=snapshot, condition=condition, overrides=overrides, electricity=electricity
            )
        )
        is not None
    ]
    if max_total_usd is not None:
        options = [o for o in options if o.total_usd <= max_total_usd]
    if not options:
        return []
    order = np.argsort(-np.array([o.perf_per_kusd for o in options]), kind="stable")
    return [options[i] for i in order]
