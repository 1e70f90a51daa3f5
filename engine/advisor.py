"""The advisor: the guide's flowchart and TL;DR as rules over the models.

For a recommendation (guide §9, 2023 method): find the memory the task needs, choose the metric
(8-bit or 16-bit, training or inference), then the highest performance per dollar with that
memory within the budget, then the caveats (power, cooling, slots, used market, cloud). The 2023
flowchart's pick is reported beside it as a rule, not used as a table of answers.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine import flowchart
from engine.answer import ANSWERS_REMEMBERED, Answer, CompareRow, Comparison, FollowUp, Option, Rule
from engine.canrun import assess
from engine.catalog import load_catalog
from engine.cloud import BreakEven, break_even
from engine.cost import (
    PriceQuote,
    ValueOption,
    base_system,
    best_per_count,
    forget_rows,
    price_quote,
    rank_by_value,
    value,
)
from engine.cycles import worked_example
from engine.explain import explain
from engine.memory import memory_floor
from engine.money import Money, exchange_rates
from engine.performance import WORKLOAD_NAMES, compare, speed
from engine.power import plan
from engine.query import Query, Task
from engine.specs import WORKLOADS, Gpu, Workload

TASK_WORKLOAD: dict[Task, Workload] = {
    "llm_inference": "infer8",
    "image_generation": "infer16",
}
MAX_OPTIONS = 5
LOW_UTILISATION_HOURS = 2.4  # 10 % of the day: "most personal machines 5-10 %" (guide §8)

TASK_CHOICES = (
    ("learning", "Learning"),
    ("kaggle", "Kaggle"),
    ("llm_inference", "Run LLMs"),
    ("llm_finetune", "Fine-tune LLMs"),
    ("image_generation", "Image generation"),
    ("computer_vision", "Computer vision"),
    ("nlp", "NLP"),
    ("research", "Research"),
)
BUDGET_CHOICES = (("300", "$300"), ("600", "$600"), ("1000", "$1,000"), ("2000", "$2,000"), ("5000", "$5,000+"))


class AdviceContext(BaseModel):
    """What the engine needs besides the question: prices, currency, electricity, overrides."""

    model_config = ConfigDict(frozen=True)

    snapshot: str | None = None
    currency: str = Field(default="USD", pattern=r"^[A-Z]{3}$")
    electricity_usd_per_kwh: Decimal = Field(default=Decimal("0.12"), ge=0, le=100)
    price_overrides: Mapping[str, PriceQuote] = Field(default_factory=dict)
    reference_gpu: str = "rtx-3090"
    max_options: int = Field(default=MAX_OPTIONS, ge=1, le=20)

    def __hash__(self) -> int:
        """Hashable despite the overrides mapping, so answers can be remembered per context."""
        return hash((self.snapshot, self.currency, self.electricity_usd_per_kwh,
                     frozenset(self.price_overrides.items()), self.reference_gpu, self.max_options))


def workload_for(query: Query) -> Workload:
    if query.workload:
        return query.workload
    return TASK_WORKLOAD.get(query.task, "train16") if query.task else "train16"


def advise(query: Query, context: AdviceContext | None = None) -> Answer:
    """Answer any Query; the kind picks the model.

    Answers are remembered per (query, context): the engine is a pure function of both and of data
    loaded once per process, answers are frozen, and people ask the same things again
    ("/recommend kaggle 500"), so a repeated question costs a lookup instead of a ranking.
    """
    return _advise(query, context or AdviceContext())


@lru_cache(maxsize=ANSWERS_REMEMBERED)
def _advise(query: Query, ctx: AdviceContext) -> Answer:
    handlers = {
        "recommend": recommend,
        "compare": compare_gpus,
        "cloud_vs_buy": cloud_vs_buy,
        "power": power,
        "explain": explain_topic,
        "can_run": can_run,
    }
    return handlers.get(query.kind, other)(query, ctx)


def forget_answers() -> None:
    """Drop the remembered answers and the rows they are built from, so a benchmark times the
    computation rather than the lookup."""
    _advise.cache_clear()
    can_run.cache_clear()
    _option.cache_clear()
    forget_rows()


# ---- recommend -------------------------------------------------------------------------------


def _buyable(gpu: Gpu, organization: bool) -> bool:
    """Cards a buyer can put in their machine: no laptop chips, no SXM/OAM modules outside servers."""
    if gpu.gpu_class == "laptop":
        return False
    return organization or gpu.form_factor == "pcie"


@lru_cache(maxsize=8)
def _candidates(organization: bool, tensor_cores_only: bool) -> tuple[str, ...]:
    return tuple(
        g.id
        for g in load_catalog().gpus.values()
        if _buyable(g, organization) and (g.has_tensor_cores or not tensor_cores_only)
    )


def _local(usd: Decimal, currency: str) -> Money | None:
    if currency == "USD":
        return None
    rates = exchange_rates()
    return rates.convert(Money(amount=usd, currency="USD"), currency).rounded() if rates.supports(currency) else None


@lru_cache(maxsize=ANSWERS_REMEMBERED * 8)
def _option(v: ValueOption, best: float, reference_gpu: str, currency: str, reasons: tuple[str, ...] = ()) -> Option:
    """One row of a recommendation. Remembered: budgets differ from question to question, but the
    cards that fit and their figures mostly do not. Keyed by the two parts of the context it uses
    (hashing a whole AdviceContext, overrides and all, for every row was a tenth of a ranking)."""
    gpu = load_catalog().get(v.gpu_id)
    gpus_usd = v.price.usd * v.gpu_count
    caveats = list(_card_caveats(gpu, v.gpu_count))
    if v.price.basis == "used":
        caveats.append("Used price: test the card before paying; mining cards may have worn fans.")
    return Option(
        gpu_id=v.gpu_id,
        name=gpu.short_name,
        gpu_count=v.gpu_count,
        memory_gb=gpu.memory_gb,
        workload=v.workload,
        speed_vs_reference=v.speed / speed(reference_gpu, v.workload),
        reference_id=reference_gpu,
        perf_per_kusd=v.perf_per_kusd,
        value_vs_best=v.perf_per_kusd / best,
        price=v.price,
        gpus_usd=gpus_usd,
        system_usd=v.system_usd,
        gpus_local=_local(gpus_usd, currency),
        reasons=reasons,
        caveats=tuple(caveats),
    )


def _card_caveats(gpu: Gpu, count: int) -> tuple[str, ...]:
    out = []
    if not gpu.has_tensor_cores:
        out.append("No Tensor Cores: much slower for deep learning; the guide recommends against it.")
    if gpu.vendor == "amd":
        out.append("AMD: PyTorch on ROCm works, but the community and tooling are smaller (guide §10).")
    if gpu.slot_width and gpu.slot_width >= 3 and count >= 2:
        out.append(f"{gpu.slot_width:g}-slot card: several need risers, blower variants or water cooling.")
    if gpu.tdp_w >= 350:
        out.append(f"{gpu.tdp_w} W: check your PSU (/power).")
    if gpu.gpu_class == "datacenter" and gpu.form_factor == "pcie":
        out.append("Passively cooled data-centre card: needs server airflow.")
    return tuple(out)


def recommend(query: Query, ctx: AdviceContext) -> Answer:
    if query.budget is not None and query.budget.currency != ctx.currency:
        ctx = ctx.model_copy(update={"currency": query.budget.currency})  # show prices in the budget's currency
    catalog = load_catalog()
    workload = workload_for(query)
    rules: list[Rule] = []
    caveats: list[str] = []
    suggestions: list[str] = []

    floor_gb = query.min_memory_gb
    if floor_gb is not None:
        rules.append(Rule(id="memory.stated", text=f"You need at least {floor_gb:g} GB.", source="your question"))
    elif query.task and (floor := memory_floor(query.task)):
        floor_gb = floor.gb
        rules.append(
            Rule(id=f"memory.{floor.edition}.{floor.task}", text=floor.rule, source=f"Guide {floor.edition} §memory")
        )
    rules.append(
        Rule(
            id=f"metric.{workload}",
            text=f"Metric: {WORKLOAD_NAMES[workload]} performance per dollar.",
            source="Guide 2023 §recommendations, step 2",
        )
    )

    budget = query.budget_usd()
    organization = bool(query.organization)
    counts = (query.num_gpus,) if query.num_gpus else (1,)
    snapshot = catalog.snapshot(ctx.snapshot)

    def ranked(tensor_cores_only: bool) -> list[ValueOption]:
        return rank_by_value(
            workload,
            gpu_counts=counts,
            candidates=_candidates(organization, tensor_cores_only),
            min_memory_gb=floor_gb,
            max_gpus_usd=budget,
            snapshot=ctx.snapshot,
            condition=query.condition,
            overrides=ctx.price_overrides,
            limit=ctx.max_options * len(counts),
        )

    found = ranked(tensor_cores_only=True)
    if not found and budget is not None:
        found = ranked(tensor_cores_only=False)
        if found:
            rules.append(
                Rule(
                    id="tldr.2020.little_money",
                    text="Little money: a used card without Tensor Cores "
                    "still teaches the basics (GTX 1070 / 1070 Ti / 1650 Super / 980 Ti).",
                    source="Guide 2020 TL;DR",
                )
            )

    if query.task is None and not query.workload:
        suggestions.append(
            "Tell me what you'll do (Kaggle, LLMs, image generation, research…) for the right memory floor."
        )
    if budget is None:
        suggestions.append("Add a budget to rank only what you can afford.")
    if query.condition is None:
        suggestions.append("Say 'used' to include second-hand prices, or 'new' for new only.")

    chart = flowchart.pick(
        query, budget, snapshot=ctx.snapshot, condition=query.condition, overrides=ctx.price_overrides
    )
    if chart:
        rules.append(chart)

    if query.hours_per_day is not None and query.hours_per_day < LOW_UTILISATION_HOURS:
        caveats.append(f"At {query.hours_per_day:g} h a day a cloud GPU may be cheaper: see /breakeven.")
    if query.cloud_interest:
        caveats.append("Renting instead? /breakeven compares this card with a cloud instance.")
    if organization:
        caveats.append("GeForce cards are barred from data centres by NVIDIA's CUDA licence terms; universities can "
                       "often get an exemption — ask NVIDIA (guide 2020, GPU clusters).")

    if not found and not any(b.gpus >= max(counts) for b in catalog.builds):
        return Answer(
            kind="recommend",
            query=query,
            rules=tuple(rules),
            suggestions=tuple(suggestions),
            headline=f"I can't price a {max(counts)}-GPU system yet: the data has no dated base system "
            f"(board, CPU, PSU) that holds {max(counts)} GPUs.",
            notes=("Per-card speeds still apply: try /compare, or ask for 1-2 GPUs.",),
        )
    if not found:
        cheapest = _cheapest_fitting(floor_gb, query, ctx)
        rules.append(
            Rule(
                id="tldr.2020.no_money",
                text="Almost no money: use free cloud credits (Colab, Kaggle notebooks) until you can buy a GPU.",
                source="Guide 2020 TL;DR",
            )
        )
        limit = f" with ≥ {floor_gb:g} GB" if floor_gb else ""
        budget = query.budget.format() if query.budget else "that budget"
        headline = (  # whole sentences, so the bot's phrases can translate each (data/locales/phrases.yaml)
            f"No priced GPU{limit} fits {budget}. The cheapest is the "
            f"{catalog.get(cheapest.gpu_id).short_name} at ${cheapest.usd:,.0f}."
            if cheapest else f"No priced GPU{limit} fits {budget}."
        )
        return Answer(
            kind="recommend",
            query=query,
            headline=headline,
            rules=tuple(rules),
            caveats=tuple(caveats),
            suggestions=tuple(suggestions),
            follow_up=_follow_up(query),
            price_date=snapshot.date,
            price_source="; ".join(snapshot.sources),
        )

    best = found[0].perf_per_kusd
    seen: set[str] = set()
    options: list[Option] = []
    for v in found:
        if v.gpu_id in seen:
            continue
        seen.add(v.gpu_id)
        options.append(_option(v, best, ctx.reference_gpu, ctx.currency))
        if len(options) == ctx.max_options:
            break
    top = options[0]
    count = f"{top.gpu_count}× " if top.gpu_count > 1 else ""
    headline = (
        f"{count}{top.name} ({top.memory_gb:g} GB): the best {WORKLOAD_NAMES[workload]} per dollar"
        f"{' within your budget' if budget is not None else ''}, "
        f"{top.speed_vs_reference:.2f}× an {catalog.get(ctx.reference_gpu).short_name}, "
        f"${top.price.usd:,.0f} ({top.price.basis}, {top.price.date:%b %Y})."
    )
    alternatives = _multi_gpu(query, workload, floor_gb, budget, ctx, best, organization) if not query.num_gpus else ()
    community = tuple(f"{o.name}: {o.price.source}" for o in options if o.price.basis == "override")
    return Answer(
        kind="recommend",
        query=query,
        headline=headline,
        options=tuple(options),
        alternatives=alternatives,
        rules=tuple(rules),
        caveats=tuple(caveats),
        suggestions=tuple(suggestions),
        follow_up=_follow_up(query),
        price_date=snapshot.date,
        notes=community,
        price_source="; ".join(snapshot.sources),
    )


def _cheapest_fitting(floor_gb: float | None, query: Query, ctx: AdviceContext) -> PriceQuote | None:
    catalog = load_catalog()
    quotes = [
        q
        for g in catalog.gpus.values()
        if _buyable(g, bool(query.organization))
        and (floor_gb is None or g.memory_gb >= floor_gb)
        and (q := price_quote(g.id, snapshot=ctx.snapshot, condition=query.condition, overrides=ctx.price_overrides))
        is not None
    ]
    return min(quotes, key=lambda q: q.usd, default=None)


def _multi_gpu(
    query: Query,
    workload: Workload,
    floor_gb: float | None,
    budget: Decimal | None,
    ctx: AdviceContext,
    best: float,
    organization: bool,
) -> tuple[Option, ...]:
    """The best 2- and 4-GPU systems within budget, for users who want more speed than one card."""
    found = best_per_count(
        workload,
        gpu_counts=(2, 4),
        candidates=_candidates(organization, True),
        min_memory_gb=floor_gb,
        max_gpus_usd=budget,
        snapshot=ctx.snapshot,
        condition=query.condition,
        overrides=ctx.price_overrides,
    )
    out = [_option(v, best, ctx.reference_gpu, ctx.currency, reasons=(f"best {v.gpu_count}-GPU system per dollar",))
           for v in found]
    return tuple(out)


def _follow_up(query: Query) -> FollowUp | None:
    if query.kind != "recommend":
        return None
    if query.task is None and query.workload is None:
        return FollowUp(field="task", question="What will you mainly use it for?", choices=TASK_CHOICES)
    if query.budget is None:
        return FollowUp(field="budget", question="What's your budget for the GPU?", choices=BUDGET_CHOICES)
    return None


# ---- compare ---------------------------------------------------------------------------------


def compare_gpus(query: Query, ctx: AdviceContext) -> Answer:
    catalog = load_catalog()
    if len(query.gpus) < 2:
        ids = (*query.gpus, ctx.reference_gpu) if query.gpus and query.gpus[0] != ctx.reference_gpu else ()
        if not ids:
            return Answer(
                kind="compare",
                query=query,
                headline="Which two GPUs should I compare?",
                follow_up=FollowUp(field="gpu", question="Name two GPUs, e.g. '4090 vs 2x 3090'.", choices=()),
            )
    else:
        ids = query.gpus[:2]
    counts = tuple((query.gpu_counts[i] if i < len(query.gpu_counts) else 1) for i in range(2))
    a, b = (catalog.get(i) for i in ids)
    workload = workload_for(query)
    rows = tuple(
        CompareRow(workload=w, ratio=(r := compare(a.id, b.id, w, counts[0], counts[1])).ratio, detail=r)
        for w in WORKLOADS
    )
    values = [
        value(g, workload, n, snapshot=ctx.snapshot, condition=query.condition, overrides=ctx.price_overrides)
        for g, n in zip(ids, counts, strict=True)
    ]
    comparison = Comparison(
        gpu_ids=(a.id, b.id),
        counts=counts,
        rows=rows,
        memory_gb=(a.memory_gb, b.memory_gb),
        bandwidth_gbs=(a.bandwidth_gbs, b.bandwidth_gbs),
        tdp_w=(a.tdp_w, b.tdp_w),
        prices=tuple(v.price if v else None for v in values),
        perf_per_kusd=tuple(v.perf_per_kusd if v else None for v in values),
        workload=workload,
    )
    main = next(r for r in rows if r.workload == workload)
    label = [f"{n}× {g.short_name}" if n > 1 else g.short_name for g, n in ((a, counts[0]), (b, counts[1]))]
    faster, slower, ratio = (
        (label[0], label[1], main.ratio) if main.ratio >= 1 else (label[1], label[0], 1 / main.ratio)
    )
    headline = f"{faster} is {ratio:.2f}× {slower} for {WORKLOAD_NAMES[workload]}"
    if all(values):
        better = label[0] if values[0].perf_per_kusd >= values[1].perf_per_kusd else label[1]
        headline += f"; {better} gives more per dollar."
    else:
        headline += "."
    caveats = []
    if max(counts) > 1:
        caveats.append("Memory does not pool: each GPU holds its own copy or shard; 2× 24 GB is not one 48 GB card.")
        caveats.append("Multi-GPU speed assumes good data-parallel scaling (guide: 1→8 A100 = 7.0×).")
    if a.memory_gb != b.memory_gb:
        caveats.append(
            f"Memory: {a.short_name} {a.memory_gb:g} GB vs {b.short_name} {b.memory_gb:g} GB — "
            "memory decides what fits before speed matters."
        )
    rules = (
        Rule(
            id="performance.bandwidth",
            text="Between Tensor-Core GPUs, memory bandwidth is the best single "
            "predictor of speed; architecture factors on top.",
            source="Guide 2020/2023 §memory bandwidth",
        ),
    )
    snap = load_catalog().snapshot(ctx.snapshot)
    return Answer(
        kind="compare",
        query=query,
        headline=headline,
        comparison=comparison,
        rules=rules,
        caveats=tuple(caveats),
        price_date=snap.date,
        price_source="; ".join(snap.sources),
    )


# ---- cloud vs buy ----------------------------------------------------------------------------


def cloud_vs_buy(query: Query, ctx: AdviceContext) -> Answer:
    catalog = load_catalog()
    gpu_id = next((g for g in query.gpus if catalog.get(g).gpu_class != "datacenter"), None) or "rtx-4090"
    gpu = catalog.get(gpu_id)
    cloud_gpu = next((g for g in query.gpus if catalog.get(g).gpu_class == "datacenter"), None)
    instance = _cloud_instance(cloud_gpu or gpu_id) or _cloud_instance("a100-80gb-sxm")
    quote = price_quote(gpu_id, snapshot=ctx.snapshot, condition=query.condition, overrides=ctx.price_overrides)
    suggestions = []
    if quote is None:
        return Answer(
            kind="cloud_vs_buy",
            query=query,
            headline=f"I have no price for the {gpu.short_name}.",
            suggestions=("Name a card with a known price, or use /breakeven with desktop_cost.",),
        )
    base = base_system(1, quote.date)
    desktop = base.usd + quote.usd
    hours = query.hours_per_day
    if hours is None:
        hours = 24 * 0.15
        suggestions.append("Assumed 15 % utilisation (the guide's PhD desktop); tell me your hours a day.")
    rate = instance.on_demand_usd_per_hour or instance.spot_usd_per_hour
    per_gpu = rate / instance.gpu_count
    result = break_even(
        desktop,
        per_gpu,
        hours_per_day=hours,
        gpu_power_w=gpu.tdp_w,
        electricity_usd_per_kwh=ctx.electricity_usd_per_kwh,
    )
    when = _when(result)
    headline = (
        f"A ${desktop:,.0f} {gpu.short_name} desktop beats renting {instance.name} at "
        f"${per_gpu:.2f}/GPU-hour {when}, at {hours:g} h a day."
    )
    rules = (_break_even_rule(result),)
    return Answer(
        kind="cloud_vs_buy",
        query=query,
        headline=headline,
        break_even=result,
        rules=rules,
        suggestions=tuple(suggestions),
        notes=(f"Cloud price: {instance.provider} {instance.name}, {instance.date:%Y-%m-%d}, {instance.source}",),
        price_date=quote.date,
        price_source=quote.source,
    )


def _when(result: BreakEven) -> str:
    return f"after {result.days:.0f} days ({result.months:.1f} months)" if result.days is not None else "never"


def _break_even_rule(result: BreakEven) -> Rule:
    return Rule(id="cloud.breakeven", text="days = capex / (utilisation × 24 × (cloud $/h − kW × $/kWh)); "
                "deep learning for more than a year → buy, less → cloud.", source=result.source)


def break_even_answer(
    desktop_usd: float, cloud_usd_per_hour: float, hours_per_day: float, ctx: AdviceContext
) -> Answer:
    """Break-even for figures the user gives directly (no catalog GPU or cloud instance)."""
    result = break_even(
        desktop_usd,
        cloud_usd_per_hour,
        hours_per_day=hours_per_day,
        electricity_usd_per_kwh=ctx.electricity_usd_per_kwh,
    )
    when = _when(result)
    headline = (
        f"A ${desktop_usd:,.0f} desktop beats renting at ${cloud_usd_per_hour:.2f}/GPU-hour {when}, "
        f"at {hours_per_day:g} h a day."
    )
    rules = (_break_even_rule(result),)
    return Answer(
        kind="cloud_vs_buy",
        query=Query(kind="cloud_vs_buy", hours_per_day=hours_per_day),
        headline=headline,
        break_even=result,
        rules=rules,
    )


def _cloud_instance(gpu_id: str):
    current = [
        c for c in load_catalog().clouds.values() if c.gpu == gpu_id and not c.historical and c.on_demand_usd_per_hour
    ]
    return max(current, key=lambda c: (c.date, -c.on_demand_usd_per_hour / c.gpu_count), default=None)


# ---- power, explain, other ------------------------------------------------------------


def power(query: Query, ctx: AdviceContext) -> Answer:
    if not query.gpus:
        return Answer(
            kind="power",
            query=query,
            headline="Which GPU, and how many?",
            follow_up=FollowUp(field="gpu", question="Which GPU and how many? e.g. '4x 3090'.", choices=()),
        )
    gpu_id = query.gpus[0]
    count = query.num_gpus or (query.gpu_counts[0] if query.gpu_counts else 1)
    result = plan(gpu_id, count, power_limit_w=query.power_limit_w)
    name = load_catalog().get(gpu_id).short_name
    headline = (
        f"{count}× {name}: about {result.load_w} W under load → a {result.recommended_psu_w} W PSU (≤ 95 % load)."
    )
    if result.power_limit:
        pl = result.power_limit
        headline += (
            f" At {pl.limit_w} W each: about {pl.slowdown_percent:.0f} % slower, "
            f"{pl.watts_saved_per_gpu * count} W saved."
        )
    notes = []
    if query.hours_per_day:
        kwh = result.load_w / 1000 * query.hours_per_day * 365
        notes.append(
            f"At {query.hours_per_day:g} h a day: {kwh:,.0f} kWh a year ≈ "
            f"${kwh * float(ctx.electricity_usd_per_kwh):,.0f} at ${ctx.electricity_usd_per_kwh}/kWh."
        )
    rules = (
        Rule(
            id="power.psu",
            text="A 1,600 W PSU leaves ~200 W for CPU and board: fine for 4× RTX 3080, "
            "tight for 4× RTX 3090 (prefer ≥ 1,700 W).",
            source=result.source,
        ),
    )
    return Answer(
        kind="power",
        query=query,
        headline=headline,
        power=result,
        rules=rules,
        caveats=result.warnings,
        notes=tuple(notes),
    )


def explain_topic(query: Query, ctx: AdviceContext) -> Answer:
    item = explain(query.topic)
    return Answer(
        kind="explain",
        query=query,
        headline=item.title,
        explanation=item,
        rules=(Rule(id=f"explain.{item.topic}", text=item.title, source=item.source),),
    )


@lru_cache(maxsize=ANSWERS_REMEMBERED)
def can_run(
    query: Query, ctx: AdviceContext, *, mode: str | None = None, precision: str | None = None,
    context: int | None = None,
) -> Answer:
    """Will a named model fit and how fast; otherwise the cheapest GPUs that fit (engine.canrun).
    ``mode``, ``precision`` and ``context`` come from /canrun's options; chat questions leave them to
    the engine's defaults. Remembered like :func:`advise`."""
    report = assess(query, snapshot=ctx.snapshot, condition=query.condition, mode=mode, precision=precision,
                    context=context)
    follow_up = None
    if report.model_id is None and report.memory_verdict is None and report.floor is None:
        follow_up = FollowUp(field="model", question="Which model? e.g. 'Llama 3 8B', 'Qwen2.5 14B', '70B'.",
                             choices=())
    rules = (Rule(id="canrun.memory", text="Memory = weights + KV cache (GQA-aware) + activations + runtime "
                  "overhead; decode speed from memory bandwidth, prefill from Tensor Core FLOPS.",
                  source="docs/canrun.md; guide §memory for task floors"),)
    return Answer(kind="can_run", query=query, headline=report.headline, can_run=report, rules=rules,
                  notes=tuple(report.notes), suggestions=tuple(report.assumptions[:2]), follow_up=follow_up,
                  price_date=report.price_date)


@lru_cache(maxsize=ANSWERS_REMEMBERED)
def spec_card(gpu_id: str) -> Answer:
    """A GPU's spec card with its sources (/info). Remembered like :func:`advise`, so a card asked
    for again is the same Answer and its rendered reply is reused."""
    spec = load_catalog().get(gpu_id)
    return Answer(kind="other", query=Query(kind="other", gpus=(spec.id,)), headline=f"**{spec.name}**", spec=spec)


@lru_cache(maxsize=16)
def cycles_answer(edition: Literal["2023", "2020"], tensor_cores: bool, tma: bool = False) -> Answer:
    """The guide's worked matrix-multiplication example (/cycles), one of twelve variants."""
    result = worked_example(edition, tensor_cores, tma=tma)
    return Answer(kind="explain", query=Query(kind="explain", topic="tensor_cores"),
                  headline=f"{result.total} cycles", cycles=result)


def other(query: Query, ctx: AdviceContext) -> Answer:
    return Answer(
        kind="other",
        query=query,
        headline="I answer questions about buying GPUs for deep learning.",
        suggestions=(
            "Try: 'which GPU for Kaggle under $500?'",
            "'4090 vs 2x 3090 for LLM fine-tuning'",
            "'can a 3060 12GB run Llama 3 8B?'",
            "'PSU for 4x 3090?'",
        ),
    )


def warm_up() -> None:
    """Load every data file and fill the ranking caches, so the first real question is as fast as
    the rest (the bot runs this in a thread right after connecting)."""
    from engine.model_specs import load_model_catalog
    from engine.parse import parse

    load_model_catalog()
    for text in ("which GPU for Kaggle under $500?", "4090 vs 2x 3090", "can a 3060 12GB run llama 3 8b?",
                 "PSU for 4x 3090?", "rent or buy a 3090, 3 hours a day?", "what are tensor cores?",
                 "预算 5000 块，想本地跑大模型"):
        advise(parse(text).query)
