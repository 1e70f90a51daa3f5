"""Performance per dollar of a whole system (guide §5, "performance per dollar").

A GPU's value depends on what else you pay for: the guide divides each card's speed by the cost
of a desktop (or an 8-GPU barebone) plus the cards, at dated street prices, and a later revision
adds years of electricity. Prices come from the dated snapshots in ``data/prices/``: a market is
one snapshot (the guide's own 2020-09 and 2023-01, or by default the newest) together with every
older one, so each card gets the newest price known on the market's date (docs/data.md, "Prices"):

1. the server's community median (``overrides``), when it has one;
2. the market's own snapshot;
3. an older snapshot, marked ``older_snapshot`` (the answer says "older price" and its month);
4. the card's launch MSRP (``launch_price`` in gpus.yaml), basis "launch".

Rankings (``rank_by_value``, ``best_per_count``, the catalog-wide scores behind them) take steps 1-3 only, and
step 3 only from snapshots at most ``RANKING_WINDOW_DAYS`` older than the market: a price list a
year old, or a launch price, says little about what a card costs today, and ranking cards on
prices of different years would compare years, not cards.
"""

from __future__ import annotations

import datetime as dt
import heapq
import math
from array import array
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from itertools import compress, islice
from typing import Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from engine.catalog import load_catalog
from engine.message import Msg, msg
from engine.performance import count_factor, speed
from engine.specs import BuildCost, PriceSnapshot, Workload

PriceCondition = Literal["new", "used"]
PriceBasis = Literal["new", "used", "average of new and used", "override", "launch", "quoted"]  # quoted: the user's
P = TypeVar("P", float, Decimal)
SOURCE = "Guide 2020/2023 §performance per dollar: speed / (base system + GPUs) at average street prices"
# Rankings use snapshot prices at most this much older than the market's own snapshot (docs/data.md).
RANKING_WINDOW_DAYS = 365


class PriceQuote(BaseModel):
    """One GPU's price in USD, with where and when it was seen.

    ``basis`` says which price it is: "new", "used", their average, a community "override", or the
    card's "launch" MSRP. ``older_snapshot`` is set when the price comes from a snapshot older than
    the market asked for: the answer then says so beside the price's date."""

    model_config = ConfigDict(frozen=True)

    gpu_id: str
    usd: Decimal = Field(gt=0)
    basis: PriceBasis
    date: dt.date
    source: str
    snapshot_id: str | None = None
    older_snapshot: bool = False

    @property
    def current(self) -> bool:
        """A price from the market's own snapshot or the server's community: nothing to warn about."""
        return not self.older_snapshot and self.basis != "launch"

    def basis_message(self) -> Msg:
        """Which price this is ("used", "launch MSRP", "used, older price"), to say beside its date."""
        said = msg(f"price.basis.{_BASIS_KEYS[self.basis]}")
        return msg("price.basis.older", basis=said) if self.older_snapshot else said


_BASIS_KEYS = {
    "new": "new",
    "used": "used",
    "average of new and used": "average",
    "override": "override",
    "launch": "launch",
    "quoted": "quoted",
}


class Electricity(BaseModel):
    """Running cost to add to the purchase: ``years`` of ``hours_per_day`` at a price per kWh."""

    model_config = ConfigDict(frozen=True)

    usd_per_kwh: Decimal = Field(ge=0, le=100)
    hours_per_day: float = Field(gt=0, le=24)
    years: float = Field(default=5, gt=0, le=20)
    system_power_w: float = Field(default=100, ge=0)


@dataclass(frozen=True, slots=True, kw_only=True)
class ValueOption:
    """A system of ``gpu_count`` × one GPU: its speed, full cost and speed per $1,000.

    A slotted dataclass, not a pydantic model (issue #24): rankings remember thousands of rows
    (``_value_from``), and a model's instance dict and field set were most of each one's size.
    Built only by ``_value_from``, from validated prices and builds."""

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

    def __hash__(self) -> int:
        """Rows are cache keys (the advisor's ``_option``): hashing these fields instead of every
        nested model is a fraction of the cost, and equal rows still hash alike."""
        return hash((self.gpu_id, self.gpu_count, self.workload, self.perf_per_kusd))


def price_quote(
    gpu_id: str,
    *,
    snapshot: str | None = None,
    condition: PriceCondition | None = None,
    overrides: Mapping[str, PriceQuote] | None = None,
    ranked: bool = False,
) -> PriceQuote | None:
    """The newest price known for this card on the market ``snapshot`` (default: the newest), or None.

    In this order: the community median in ``overrides``; the market's own snapshot; the newest older
    snapshot that prices the card (``older_snapshot``); the card's launch MSRP if it launched by the
    market's date (basis "launch"). ``ranked``: only what rankings use, i.e. no launch MSRP and no
    snapshot more than ``RANKING_WINDOW_DAYS`` older than the market.

    Within a snapshot: no condition → the average of new and used (the guide averaged Amazon and
    eBay); "new" → new only; "used" → the cheaper of used and new, since a buyer open to used cards
    also takes new ones. A snapshot without the wanted price is passed over for an older one.
    """
    if overrides and gpu_id in overrides:
        return overrides[gpu_id]
    return _known_quote(gpu_id, snapshot, condition, ranked)


def cheapest_card(
    min_gb: float | None,
    *,
    organization: bool = False,
    vendor: str | None = None,
    tensor_cores_only: bool = False,
    snapshot: str | None = None,
    condition: PriceCondition | None = None,
    overrides: Mapping[str, PriceQuote] | None = None,
    ranked: bool = True,
) -> PriceQuote | None:
    """The cheapest card a buyer can add (``Gpu.buyable``) with at least ``min_gb`` per GPU, of ``vendor``
    when one is given, at the ranked market's prices: what a memory need costs to meet. ``ranked=False`` takes any
    dated price on file (older snapshots too): "the cheapest 48 GB card?" when no current price has one."""
    quotes = [
        q
        for g in load_catalog().gpus.values()
        if g.buyable(organization)
        and (vendor is None or g.vendor == vendor)
        and (g.has_tensor_cores or not tensor_cores_only)
        and (min_gb is None or g.memory_gb >= min_gb)
        and (q := price_quote(g.id, snapshot=snapshot, condition=condition, overrides=overrides, ranked=ranked))
        is not None
        and (ranked or q.basis != "launch")  # a launch MSRP is no price anyone pays today
    ]
    return min(quotes, key=lambda q: q.usd, default=None)


@lru_cache(maxsize=64)
def market_snapshots(snapshot: str | None = None) -> tuple[PriceSnapshot, ...]:
    """The market ``snapshot`` (default: the newest) and every snapshot dated before it, newest first."""
    catalog = load_catalog()
    market = catalog.snapshot(snapshot)
    older = sorted(
        (s for s in catalog.snapshots.values() if s.id != market.id and s.date <= market.date),
        key=lambda s: (s.date, s.id),
        reverse=True,
    )
    return (market, *older)


def price_history(
    gpu_id: str, *, snapshot: str | None = None, condition: PriceCondition | None = None, within_days: int = 365
) -> tuple[PriceQuote, ...]:
    """The card's snapshot prices over the ``within_days`` before the market ``snapshot``, oldest first,
    each on the basis of the newest one (an average is never compared with a used price)."""
    history = market_snapshots(snapshot)
    market = history[0]
    quotes = [
        q
        for snap in history
        if (market.date - snap.date).days <= within_days
        and (q := _snapshot_quote(gpu_id, snap.id, condition)) is not None
    ]
    if not quotes:
        return ()
    basis = quotes[0].basis
    return tuple(reversed([q for q in quotes if q.basis == basis]))


@lru_cache(maxsize=16384)
def _known_quote(
    gpu_id: str, snapshot: str | None, condition: PriceCondition | None, ranked: bool
) -> PriceQuote | None:
    """Prices never change while the process runs, so each card's quote is looked up once per market."""
    history = market_snapshots(snapshot)
    market = history[0]
    for snap in history:
        if ranked and (market.date - snap.date).days > RANKING_WINDOW_DAYS:
            break
        quote = _snapshot_quote(gpu_id, snap.id, condition)
        if quote is not None:
            return quote if snap is market else quote.model_copy(update={"older_snapshot": True})
    if ranked:
        return None
    launch = load_catalog().get(gpu_id).launch_price
    if launch is None or launch.date > market.date:
        return None
    return PriceQuote(gpu_id=gpu_id, usd=launch.usd, basis="launch", date=launch.date, source=launch.source)


def _snapshot_quote(gpu_id: str, snapshot: str, condition: PriceCondition | None) -> PriceQuote | None:
    """This one snapshot's price for the card under ``condition``, or None.

    Only cards the snapshot prices are remembered (issue #24): most cards have no price in most
    snapshots (260 prices in 11 snapshots of 320 cards): remembering every answer held 7,894 of them,
    ≈1.45 MB, in the bot after 20,000 users, most of them None; now a card without a price is
    answered by one look-up and at most the 780 prices are remembered."""
    if gpu_id not in load_catalog().snapshot(snapshot).prices:
        return None
    return _priced_quote(gpu_id, snapshot, condition)


@lru_cache(maxsize=1024)
def _priced_quote(gpu_id: str, snapshot: str, condition: PriceCondition | None) -> PriceQuote | None:
    """:func:`_snapshot_quote` for a card the snapshot prices (None if not under ``condition``)."""
    snap = load_catalog().snapshot(snapshot)
    entry = snap.prices[gpu_id]
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


@lru_cache(maxsize=256)
def base_system(gpu_count: int, on: dt.date) -> BuildCost:
    """The smallest base build (no GPUs) that holds ``gpu_count`` GPUs, dated closest to ``on``.

    Size comes before date: a 4-GPU workstation is the wrong base for a one-card desktop even when
    it is the more recent price."""
    fitting = [b for b in load_catalog().builds if b.gpus >= gpu_count]
    if not fitting:
        raise ValueError(f"no base system in builds.yaml holds {gpu_count} GPUs")
    return min(fitting, key=lambda b: (b.gpus, abs((b.date - on).days), b.usd))


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
    ranked: bool = False,
) -> ValueOption | None:
    """Speed per $1,000 of a whole system with ``gpu_count`` of this GPU; None without a price or base.

    Priced as :func:`price_quote` prices it (``ranked``: as the rankings do)."""
    quote = price_quote(gpu_id, snapshot=snapshot, condition=condition, overrides=overrides, ranked=ranked)
    return _value_from(gpu_id, workload, gpu_count, quote, electricity) if quote else None


def forget_rows() -> None:
    """Drop the remembered rankings and ValueOption rows (see engine.advisor.forget_answers)."""
    _rank_remembered.cache_clear()
    _best_remembered.cache_clear()
    _value_from.cache_clear()


@lru_cache(maxsize=4096)
def _value_from(
    gpu_id: str, workload: Workload, gpu_count: int, quote: PriceQuote, electricity: Electricity | None
) -> ValueOption | None:
    """Remembered: rankings for different budgets keep meeting the same systems."""
    try:
        base = base_system(gpu_count, quote.date)
    except ValueError:  # no dated base holds this many GPUs (a data gap builds.yaml names)
        return None
    system = base.usd + quote.usd * gpu_count
    power = electricity_cost(load_catalog().get(gpu_id).tdp_w, gpu_count, electricity) if electricity else None
    total = system + (power or 0)
    throughput = speed(gpu_id, workload) * count_factor(workload, gpu_count)
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


@dataclass(frozen=True)
class _Market:
    """A market's ranked prices (``price_quote(..., ranked=True)``) aligned with the catalog, for ranking
    every GPU at once; the numbers as arrays of doubles (8 bytes a GPU, not a float object each)."""

    ids: tuple[str, ...]
    index: dict[str, int]
    quotes: tuple[PriceQuote | None, ...]
    price: array[float]  # USD, NaN where the snapshot has no price
    memory: array[float]
    tdp: array[float]


@lru_cache(maxsize=64)
def _market(snapshot: str | None, condition: PriceCondition | None) -> _Market:
    catalog = load_catalog()
    ids = tuple(catalog.ids())
    quotes = tuple(price_quote(g, snapshot=snapshot, condition=condition, ranked=True) for g in ids)
    return _Market(
        ids=ids,
        index={g: i for i, g in enumerate(ids)},
        quotes=quotes,
        price=array("d", [float(q.usd) if q else math.nan for q in quotes]),
        memory=array("d", [catalog.get(g).memory_gb for g in ids]),
        tdp=array("d", [catalog.get(g).tdp_w for g in ids]),
    )


@lru_cache(maxsize=64)
def _candidate_mask(candidates: tuple[str, ...]) -> tuple[bool, ...]:
    wanted = set(candidates)
    return tuple(g in wanted for g in _market(None, None).ids)


@lru_cache(maxsize=16)
def _speeds(workload: Workload) -> array[float]:
    return array("d", [speed(g, workload) for g in _market(None, None).ids])


@dataclass(frozen=True)
class _Selection:
    """What one ranking looks at, as a hashable key: which systems, for which workload, within
    which limit on the GPUs' price."""

    workload: Workload
    gpu_counts: tuple[int, ...]
    candidates: tuple[str, ...] | None
    min_memory_gb: float | None
    max_gpus_usd: float | None
    snapshot: str | None
    condition: PriceCondition | None


def _selection(
    workload: Workload,
    gpu_counts: Iterable[int],
    candidates: Iterable[str] | None,
    min_memory_gb: float | None,
    max_gpus_usd: Decimal | None,
    snapshot: str | None,
    condition: PriceCondition | None,
    plain: bool,
) -> _Selection:
    """A ranking's key. Over the snapshot's own prices (``plain``) the budget becomes the dearest
    system price it covers (see _dearest_within), so that budgets admitting the same systems meet."""
    counts = tuple(gpu_counts)
    limit = None if max_gpus_usd is None else float(max_gpus_usd)
    if plain and limit is not None:
        limit = _dearest_within(snapshot, condition, counts, limit)
    return _Selection(
        workload, counts, None if candidates is None else tuple(candidates), min_memory_gb, limit, snapshot, condition
    )


@lru_cache(maxsize=64)
def _system_prices(snapshot: str | None, condition: PriceCondition | None, counts: tuple[int, ...]) -> list[float]:
    """Every price of ``counts`` GPUs in the market, sorted, each once."""
    price = _market(snapshot, condition).price
    return sorted({p * n for n in counts for p in price if not math.isnan(p)})


def _dearest_within(
    snapshot: str | None, condition: PriceCondition | None, counts: tuple[int, ...], limit: float
) -> float:
    """The dearest price of ``counts`` GPUs that ``limit`` covers (−inf if none): all budgets
    between two neighbouring prices share one remembered ranking instead of each new budget
    ranking the catalog again."""
    return dearest_within(_system_prices(snapshot, condition, counts), limit, -math.inf)


def dearest_within(prices: Sequence[P], limit: P, below_all: P) -> P:
    """The dearest of the sorted ``prices`` that ``limit`` covers, ``below_all`` when none. Anything
    that only compares a budget with these prices (a ranking, the flowchart) gives every budget
    between two neighbouring prices the same answer, so this one value can stand for all of them."""
    k = bisect_right(prices, limit)
    return prices[k - 1] if k else below_all


@dataclass(frozen=True)
class _Row:
    """One GPU count's systems in a ranking: each GPU's speed per $1,000 (catalog order) and the GPUs
    the ranking may show, best first."""

    count: int
    perf: Sequence[float]
    best_first: Iterable[int]


def _score(
    selection: _Selection, overrides: Mapping[str, PriceQuote] | None, electricity: Electricity | None
) -> tuple[list[_Row], _Market, tuple[PriceQuote | None, ...]]:
    """Speed per $1,000 for every GPU × count, and the GPUs that pass the filters best first, one row per count.

    Without electricity (the advisor never passes it) the scores and their order come from a cache,
    also with a server's community prices, which change rarely: a call only skips the systems over
    the budget, and only as far as the ranking reads."""
    s = selection
    market = _market(s.snapshot, s.condition)
    quotes = market.quotes
    community: tuple[tuple[str, float], ...] = ()
    if overrides:
        overridden = list(quotes)
        for gpu_id, quote in overrides.items():
            if gpu_id in market.index:
                overridden[market.index[gpu_id]] = quote
        quotes = tuple(overridden)
        community = tuple(sorted((g, float(q.usd)) for g, q in overrides.items() if g in market.index))
    price = _prices(s.snapshot, s.condition, community)
    rows = []
    for n in s.gpu_counts:
        if electricity:
            perf = _perf(s.workload, s.snapshot, n, price, market, electricity)
            mask = _filter(price, market, s.candidates, s.min_memory_gb)
            scored = None if perf is None else (perf, _best_first(perf, mask))
        else:
            scored = _row(s.workload, s.snapshot, s.condition, n, s.candidates, s.min_memory_gb, community)
        if scored is None:  # no dated base holds this many GPUs (a data gap builds.yaml names)
            continue
        perf, order = scored
        rows.append(_Row(n, perf, order if s.max_gpus_usd is None else _within(order, price, n, s.max_gpus_usd)))
    return rows, market, quotes


@lru_cache(maxsize=64)
def _prices(
    snapshot: str | None, condition: PriceCondition | None, community: tuple[tuple[str, float], ...]
) -> array[float]:
    """The market's prices, with a server's ``community`` prices (GPU id, USD) in place of its own."""
    market = _market(snapshot, condition)
    if not community:
        return market.price
    price = array("d", market.price)
    for gpu_id, usd in community:
        price[market.index[gpu_id]] = usd
    return price


@lru_cache(maxsize=256)
def _row(
    workload: Workload,
    snapshot: str | None,
    condition: PriceCondition | None,
    n: int,
    candidates: tuple[str, ...] | None,
    min_memory_gb: float | None,
    community: tuple[tuple[str, float], ...],
) -> tuple[array[float], array[int]] | None:
    """The scores of ``n``-card systems at the market's prices (see _prices) and the GPUs the filters
    let through, best first; None where no dated base holds ``n`` GPUs."""
    market = _market(snapshot, condition)
    price = _prices(snapshot, condition, community)
    perf = _market_perf(workload, snapshot, condition, n, community)
    if perf is None:
        return None
    return perf, _best_first(perf, _filter(price, market, candidates, min_memory_gb))


@lru_cache(maxsize=64)
def _market_perf(
    workload: Workload,
    snapshot: str | None,
    condition: PriceCondition | None,
    n: int,
    community: tuple[tuple[str, float], ...],
) -> array[float] | None:
    """The scores of ``n``-card systems at the market's prices (see _perf), one array for all the
    rows that filter them differently (candidates, memory): each row held a copy of its own, 2.6 KB
    (issue #24)."""
    return _perf(workload, snapshot, n, _prices(snapshot, condition, community), _market(snapshot, condition), None)


def _best_first(perf: Sequence[float], mask: Sequence[bool]) -> array[int]:
    """The GPUs ``mask`` lets through, highest ``perf`` first; equal scores in catalog order (a stable
    sort: a ranking of the same systems always reads the same)."""
    return array("i", sorted(compress(range(len(perf)), mask), key=perf.__getitem__, reverse=True))


def _within(order: Iterable[int], price: Sequence[float], n: int, limit: float) -> Iterator[int]:
    """The GPUs of ``order`` whose ``n`` cards cost at most ``limit``, read lazily: a ranking reads only
    as many as it shows."""
    return (i for i in order if price[i] * n <= limit)


def _filter(
    price: Sequence[float], market: _Market, candidates: tuple[str, ...] | None, min_memory_gb: float | None
) -> tuple[bool, ...]:
    """Which GPUs a ranking may show: priced, among the candidates, with the memory asked for."""
    wanted = _candidate_mask(candidates) if candidates is not None else (True,) * len(price)
    floor = -math.inf if min_memory_gb is None else min_memory_gb
    return tuple(
        not math.isnan(p) and ok and memory >= floor for p, ok, memory in zip(price, wanted, market.memory, strict=True)
    )


def _perf(
    workload: Workload,
    snapshot: str | None,
    n: int,
    price: Sequence[float],
    market: _Market,
    electricity: Electricity | None,
) -> array[float] | None:
    """Speed per $1,000 of each GPU's ``n``-card system: NaN where the GPU has no price."""
    try:
        base = float(base_system(n, load_catalog().snapshot(snapshot).date).usd)
    except ValueError:
        return None
    total = [base + p * n for p in price]
    if electricity:
        e = electricity
        usd_per_kwh = float(e.usd_per_kwh)
        total = [
            t + (tdp * n + e.system_power_w) / 1000 * e.hours_per_day * 365 * e.years * usd_per_kwh
            for t, tdp in zip(total, market.tdp, strict=True)
        ]
    factor = count_factor(workload, n)
    return array("d", [v * factor / t * 1000 for v, t in zip(_speeds(workload), total, strict=True)])


def rank_by_value(
    workload: Workload,
    *,
    gpu_counts: Iterable[int] = (1,),
    candidates: Iterable[str] | None = None,
    min_memory_gb: float | None = None,
    max_gpus_usd: Decimal | None = None,
    snapshot: str | None = None,
    condition: PriceCondition | None = None,
    overrides: Mapping[str, PriceQuote] | None = None,
    electricity: Electricity | None = None,
    limit: int | None = None,
) -> list[ValueOption]:
    """Priced systems that meet the memory floor and whose GPUs fit ``max_gpus_usd``, best speed per
    dollar first. The whole catalog is scored at once; result objects are built only for the
    ``limit`` best (all when None). Rankings over the snapshot's own prices are remembered."""
    plain = not overrides and not electricity
    selection = _selection(workload, gpu_counts, candidates, min_memory_gb, max_gpus_usd, snapshot, condition, plain)
    if plain:
        return list(_rank_remembered(selection, limit))
    return _rank(selection, limit, overrides, electricity)


def best_per_count(
    workload: Workload,
    *,
    gpu_counts: Iterable[int] = (1,),
    candidates: Iterable[str] | None = None,
    min_memory_gb: float | None = None,
    max_gpus_usd: Decimal | None = None,
    snapshot: str | None = None,
    condition: PriceCondition | None = None,
    overrides: Mapping[str, PriceQuote] | None = None,
    electricity: Electricity | None = None,
) -> list[ValueOption]:
    """The single best system for each GPU count (counts without any option are left out)."""
    plain = not overrides and not electricity
    selection = _selection(workload, gpu_counts, candidates, min_memory_gb, max_gpus_usd, snapshot, condition, plain)
    if plain:
        return list(_best_remembered(selection))
    return _best(selection, overrides, electricity)


@lru_cache(maxsize=1024)
def _rank_remembered(selection: _Selection, limit: int | None) -> tuple[ValueOption, ...]:
    return tuple(_rank(selection, limit, None, None))


@lru_cache(maxsize=1024)
def _best_remembered(selection: _Selection) -> tuple[ValueOption, ...]:
    return tuple(_best(selection, None, None))


def _rank(
    selection: _Selection,
    limit: int | None,
    overrides: Mapping[str, PriceQuote] | None,
    electricity: Electricity | None,
) -> list[ValueOption]:
    rows, market, quotes = _score(selection, overrides, electricity)
    # Each count's best, merged best first; equal scores by GPU count (in the order asked), then in
    # catalog order, as a stable sort of all GPU × count scores. Only ``limit`` of each count can be
    # among the best.
    merged = heapq.merge(
        *([(-row.perf[i], at, i) for i in islice(row.best_first, limit)] for at, row in enumerate(rows))
    )
    return [
        option
        for _, at, i in islice(merged, limit)
        if (option := _value_from(market.ids[i], selection.workload, rows[at].count, quotes[i], electricity))
        is not None
    ]


def _best(
    selection: _Selection, overrides: Mapping[str, PriceQuote] | None, electricity: Electricity | None
) -> list[ValueOption]:
    rows, market, quotes = _score(selection, overrides, electricity)
    out = []
    for row in rows:
        i = next(iter(row.best_first), None)
        if i is None:  # nothing passes the filters with this many cards
            continue
        if option := _value_from(market.ids[i], selection.workload, row.count, quotes[i], electricity):
            out.append(option)
    return out
