"""The advisor: the guide's flowchart and TL;DR as rules over the models.

``advise(query, context)`` is the only door: every kind of question — recommend, compare, can-run,
cloud or buy, power, explain, a spec card, the cycle example — is a ``Query`` and gets an ``Answer``
of figures and messages (keys with plain values; the words are chosen at the edge, per language).

For a recommendation (guide §9, 2023 method): find the memory the task needs, choose the metric
(8-bit or 16-bit, training or inference), then the highest performance per dollar with that
memory within the budget, then the caveats (power, cooling, slots, used market, cloud). The 2023
flowchart's pick is reported beside it as a rule, not used as a table of answers.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from decimal import Decimal
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine import flowchart
from engine.answer import Answer, CompareRow, Comparison, FollowUp, Option, Rental, Rule, RunCost
from engine.canrun import (
    FINETUNE_TOKENS,
    TIGHT_SHARE,
    CanRunReport,
    assess,
    imagenet_epoch,
    named_setups,
    rung_label,
    training_time,
)
from engine.catalog import load_catalog
from engine.cloud import HOURS_PER_YEAR, BreakEven, break_even
from engine.cloud import SOURCE as CLOUD_SOURCE
from engine.cost import (
    PriceQuote,
    ValueOption,
    base_system,
    best_per_count,
    cheapest_card,
    forget_rows,
    price_quote,
    rank_by_value,
    value,
)
from engine.cycles import worked_example
from engine.errors import UserError
from engine.explain import explain
from engine.libraries import LibraryVerdict, library_named, library_verdict
from engine.memo import ANSWERS_REMEMBERED
from engine.memory import TRAINING_MODES, memory_floor, model_words
from engine.message import Msg, Value, msg
from engine.model_specs import ModelSpec, load_model_catalog
from engine.money import local_estimate
from engine.performance import compare, relative_speed, scaling_efficiency, speed
from engine.power import (
    CPU_AND_BOARD_W,
    GUIDE_LIMITED_TDP_W,
    MAX_PSU_LOAD,
    SUGGESTED_CUT_W,
    plan,
    power_limit_tradeoff,
)
from engine.power import SOURCE as POWER_SOURCE
from engine.query import BOUNDS, Objective, Query, Task
from engine.specs import WORKLOADS, CloudInstance, Gpu, Workload
from engine.support import (
    DATA_PARALLEL_SOURCE,
    NO_BF16_SOURCE,
    SYSMEM_FALLBACK_SOURCE,
    caveats_for,
    first_build,
    limited,
    missing_precision,
    software_caveats,
    software_notes,
)
from engine.waiting import wait_messages

# Local LLM use is batch-1 chat: bandwidth-bound decode (issue 21 item 4); "8-bit inference" stays for
# batched serving, asked for explicitly (Query.workload).
TASK_WORKLOAD: dict[Task, Workload] = {
    "llm_inference": "decode",
    "image_generation": "infer16",
}
MAX_OPTIONS = 5
LOW_UTILISATION_HOURS = 2.4  # 10 % of the day: "most personal machines 5-10 %" (guide §8)

DEFAULT_DESKTOP_GPU = "rtx-4090"  # the desktop a rent-or-buy question is priced for when it names none
FALLBACK_CLOUD_GPU = "a100-80gb-sxm"
# Query.provider's slugs → the provider's name in data/clouds.yaml (every current offer's provider has a slug:
# tests/engine/test_advisor.py)
PROVIDER_NAMES: dict[str, str] = {
    "aws": "AWS",
    "azure": "Azure",
    "gcp": "GCP",
    "lambda": "Lambda",
    "runpod": "RunPod",
    "vast": "vast.ai",
    "nebius": "Nebius",
    "verda": "Verda (formerly DataCrunch)",
    "autodl": "AutoDL",
    "tencent": "腾讯云",
}
ASSUMED_UTILISATION = 0.15  # "the guide's PhD desktop", when a rent-or-buy question gives no hours
MACHINE_MAX_GPUS = 16  # engine.power.plan sizes one machine

TASK_CHOICES: tuple[tuple[str, Msg], ...] = tuple(
    (task, msg(f"advice.task.{task}"))
    for task in (
        "learning",
        "kaggle",
        "llm_inference",
        "llm_finetune",
        "image_generation",
        "computer_vision",
        "nlp",
        "research",
    )
)
BUDGET_CHOICES: tuple[tuple[str, Msg], ...] = (
    *((str(usd), msg("advice.budget.choice", usd=usd)) for usd in (300, 600, 1000, 2000)),
    ("5000", msg("advice.budget.choice.more", usd=5000)),
)


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
        return hash(
            (
                self.snapshot,
                self.currency,
                self.electricity_usd_per_kwh,
                frozenset(self.price_overrides.items()),
                self.reference_gpu,
                self.max_options,
            )
        )


# The card a spec card measures the reference card against (the reference against itself says nothing): the one
# most often weighed beside it in the corpus's questions ("3090 or 4090?").
SECOND_REFERENCE = "rtx-4090"


def workload_for(query: Query) -> Workload:
    """The yardstick: the one asked for, else the task's (16-bit inference when the text says the work is
    inference, as for a vision or speech model run in real time), else — a model named to run, no task —
    decode speed for an LLM and 16-bit inference for an image model; 16-bit training otherwise."""
    if query.workload:
        return query.workload
    if query.task:
        if query.mode in TRAINING_MODES:
            return "train16"  # "a GPU for SD LoRA training": training speed, whatever the task runs later
        if query.mode == "inference" and not query.task.startswith("llm"):
            return "infer16"  # "a GPU for real-time detection": running a vision or speech model, not training it
        return TASK_WORKLOAD.get(query.task, "train16")
    if query.mode == "inference" and not query.model:
        return "infer16"  # "what GPU to run this project's inference?": an unnamed model run, not trained
    if query.model and query.mode in (None, "inference"):
        model_id = load_model_catalog().resolve(query.model)
        kind = load_model_catalog().get(model_id).kind if model_id else None
        return "decode" if kind == "llm" else "infer16" if kind == "diffusion" else "train16"
    return "train16"


def advise(query: Query, context: AdviceContext | None = None) -> Answer:
    """Answer any Query — the only door: everything the answer depends on is in ``query`` (the
    question) or ``context`` (the server's prices, currency, electricity); the kind picks the model.
    Raises ``UserError`` for a question the models cannot answer as asked (e.g. PSU sizing for more
    GPUs than one machine holds).

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
        "info": info,
        "cycles": cycles,
    }
    return handlers.get(query.kind, other)(query, ctx)


def forget_answers() -> None:
    """Drop the remembered answers and the rows they are built from, so a benchmark times the
    computation rather than the lookup."""
    _advise.cache_clear()
    _option.cache_clear()
    forget_rows()


# ---- recommend -------------------------------------------------------------------------------


@lru_cache(maxsize=32)
def _candidates(organization: bool, tensor_cores_only: bool, vendor: str | None = None) -> tuple[str, ...]:
    """The cards a buyer can put in their machine (``Gpu.buyable``), of ``vendor`` when one is given."""
    return tuple(
        g.id
        for g in load_catalog().gpus.values()
        if g.buyable(organization)
        and (g.has_tensor_cores or not tensor_cores_only)
        and (vendor is None or g.vendor == vendor)
    )


def setup(name: str, count: int) -> Msg:
    """A GPU with its count: "RTX 3090", "2× RTX 3090"."""
    return msg("advice.setup.many", count=count, name=name) if count > 1 else msg("advice.setup.one", name=name)


@lru_cache(maxsize=ANSWERS_REMEMBERED * 8)
def _option(v: ValueOption, best: float, reference_gpu: str, currency: str, reasons: tuple[Msg, ...] = ()) -> Option:
    """One row of a recommendation. Remembered: budgets differ from question to question, but the
    cards that fit and their figures mostly do not. Keyed by the two parts of the context it uses
    (hashing a whole AdviceContext, overrides and all, for every row was a tenth of a ranking)."""
    gpu = load_catalog().get(v.gpu_id)
    gpus_usd = v.price.usd * v.gpu_count
    caveats = list(_card_caveats(gpu, v.gpu_count))
    if v.price.basis == "used":
        caveats.append(msg("advice.caveat.used_price"))
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
        gpus_local=local_estimate(gpus_usd, currency),
        reasons=reasons,
        caveats=tuple(caveats),
    )


def _card_caveats(gpu: Gpu, count: int) -> tuple[Msg, ...]:
    out = []
    if not gpu.has_tensor_cores:
        out.append(msg("advice.caveat.no_tensor_cores"))
    if gpu.vendor == "amd" and gpu.software.rocm == "official":
        out.append(msg("advice.caveat.amd"))
    out.extend(software_caveats(gpu))  # what the card runs, when that is less than today's official builds
    if gpu.slot_width and gpu.slot_width >= 3 and count >= 2:
        out.append(msg("advice.caveat.wide_card", slots=gpu.slot_width))
    if gpu.tdp_w >= 350:
        out.append(msg("advice.caveat.tdp", watts=gpu.tdp_w))
    if gpu.cooling == "passive" and gpu.form_factor == "pcie":
        out.append(msg("advice.caveat.passive_cooling"))
    return tuple(out)


_OPT_IN_VENDORS = {"amd": "AMD", "intel": "Intel"}  # vendors a user asks for instead of NVIDIA, by name

# A step up worth buying (our threshold, not the guide's): this much more speed for the work, or memory.
UPGRADE_FACTOR = 1.5


def _budget_beyond_the_need(query: Query, report: CanRunReport, ctx: AdviceContext) -> Answer | None:
    """ "Best GPU under €1,500 to QLoRA a 7B?": one card holds the model for far less than the budget, so the
    budget is what the user means to spend on speed — the market for the work within it leads, with the model's
    need per card as the memory floor, said first. None when memory still decides (a 70B) or the cheapest is
    asked for."""
    budget = query.budget_usd()
    single = [a for a in report.alternatives if a.count == 1]
    if budget is None or not single or query.objective == "cheapest":
        return None
    asked = [a for a in single if a.mode == query.mode]  # "LoRA of a 7B": its need at LoRA, not the QLoRA beside it
    cheapest = min(asked or single, key=lambda a: a.gpus_usd)
    if cheapest.gpus_usd * 2 > budget:
        return None  # the money is about what holding the model costs: the setups that hold it answer
    need = math.ceil(cheapest.need_gib * 10) / 10
    ranked = recommend(query.model_copy(update={"model": None, "min_memory_gb": need}), ctx)
    assert report.model is not None  # the caller's: an LLM the catalog sizes
    said = msg(
        "advice.recommend.model_need",
        model=model_words(report.model),
        precision=rung_label(cheapest.mode, cheapest.precision),
        need=need,
    )
    return ranked.model_copy(update={"query": query, "headline": msg("sentences", items=(said, ranked.headline))})


def _upgrade(query: Query, ctx: AdviceContext) -> Answer:
    """ "I have a 3060 12GB, what should I upgrade to for SDXL LoRAs?": the market ranked as for any
    recommendation, among the cards that are a step up from the user's own — no less memory, and
    ``UPGRADE_FACTOR`` × its speed for the work or its memory — led by how it stands today."""
    catalog = load_catalog()
    own = catalog.get(query.gpus[0])
    workload = workload_for(query)
    mine = speed(own.id, workload)
    steps = frozenset(
        g.id
        for g in catalog.gpus.values()
        if g.memory_gb >= own.memory_gb
        and (speed(g.id, workload) >= UPGRADE_FACTOR * mine or g.memory_gb >= UPGRADE_FACTOR * own.memory_gb)
    )
    said: dict[str, Value] = {
        "own": own.short_name,
        "gb": own.memory_gb,
        "speed": relative_speed(own.id, workload, ctx.reference_gpu),
        "reference": catalog.get(ctx.reference_gpu).short_name,
        "workload": msg(f"workload.{workload}"),
        "factor": UPGRADE_FACTOR,
    }
    floor = memory_floor(query.task) if query.task else None
    # Whether the card already does the work by the guide's measure: "is my 3060 enough, or should I upgrade?"
    stands = (
        (msg(f"advice.recommend.upgrade.floor_{'meets' if own.memory_gb >= floor.gb else 'under'}", gb=floor.gb),)
        if floor is not None
        else ()
    )
    market = query.model_copy(update={"gpus": (), "gpu_counts": (), "objective": None})
    answer = recommend(market, ctx, among=steps)
    if not answer.options:
        key = "advice.recommend.upgrade.none" + (".budget" if query.budget is not None else "")
        return Answer(
            kind="recommend",
            query=query,
            headline=msg("sentences", items=(msg(key, budget=query.budget, **said), *stands)),
            rules=tuple(r for r in answer.rules if r.id.startswith(("metric.", "memory."))),
            price_date=answer.price_date,
            price_source=answer.price_source,
        )
    top = answer.options[0]
    ratio = speed(top.gpu_id, workload) * top.gpu_count / mine if mine else 0.0
    lead = msg("advice.recommend.upgrade", pick=setup(top.name, top.gpu_count), ratio=ratio, **said)
    headline = msg("sentences", items=(lead, *stands, answer.headline))
    return answer.model_copy(update={"query": query, "headline": headline})


def _unpriced_build(query: Query, ctx: AdviceContext, workload: Workload, count: int) -> Answer | None:
    """ "8× 4090 server for training, good idea?": no base system for that many cards is priced, so no ranking — but
    the build itself is answered: its speed for the work (the guide's scaling), the GPUs' price, and what it takes to
    power, fit and cool (the power answer). None where the power model does not take that many cards."""
    catalog = load_catalog()
    gpu = catalog.get(query.gpus[0])
    try:
        built = power(
            Query(kind="power", gpus=(gpu.id,), gpu_counts=(count,), num_gpus=count, condition=query.condition), ctx
        )
    except UserError:
        return None
    quote = price_quote(gpu.id, snapshot=ctx.snapshot, condition=query.condition, overrides=ctx.price_overrides)
    ratio = speed(gpu.id, workload) * count * scaling_efficiency(count) / speed(ctx.reference_gpu, workload)
    said: dict[str, Value] = {
        "setup": setup(gpu.short_name, count),
        "ratio": ratio,
        "workload": msg(f"workload.{workload}"),
        "reference": catalog.get(ctx.reference_gpu).short_name,
    }
    lead = (
        msg("advice.recommend.build.priced", usd=quote.usd * count, **said)
        if quote is not None
        else msg("advice.recommend.build", **said)
    )
    return built.model_copy(
        update={"kind": "recommend", "query": query, "headline": msg("sentences", items=(lead, built.headline))}
    )


def _unpriced_card(query: Query, ctx: AdviceContext) -> Answer:
    """ "Is a Tesla P40 worth it for local LLMs?" with no price for it: what the card does (the can-run
    headline), that there is no current price to weigh it by, and the best buys among the priced cards
    with at least its memory (NVIDIA's, for an NVIDIA card) — what the user would pay instead."""
    catalog = load_catalog()
    card = catalog.get(query.gpus[0])
    does = _can_run(query.model_copy(update={"kind": "can_run"}), ctx)
    peers = frozenset(
        g.id
        for g in catalog.gpus.values()
        if g.memory_gb >= card.memory_gb
        and (card.vendor != "nvidia" or query.vendor not in (None, "nvidia") or g.vendor == "nvidia")
    )
    market = recommend(query.model_copy(update={"gpus": (), "gpu_counts": ()}), ctx, among=peers)
    note = msg("advice.note.named_no_price", gpu=card.short_name)
    if not market.options:  # nothing priced has its memory: what it does is the answer
        return does.model_copy(update={"notes": (note, *does.notes)})
    said = msg("advice.recommend.named.no_price", gpu=card.short_name, gb=card.memory_gb)
    headline = msg("sentences", items=(does.headline, said, market.headline))
    own = (*((msg("advice.caveat.no_tensor_cores"),) if not card.has_tensor_cores else ()), *does.caveats)
    caveats = (*own, *(c for c in market.caveats if c not in own))  # what limits the card first
    # what the card runs (its table, and the yes or no its headline gives) comes with the market's best buys
    return market.model_copy(update={"query": query, "headline": headline, "caveats": caveats, "can_run": does.can_run})


def recommend(query: Query, ctx: AdviceContext, among: frozenset[str] | None = None) -> Answer:
    """What to buy (:func:`_recommend`), with a model named that the catalog cannot size said first: the ranking is
    then for the work in general ("a server to run MOSS", "hardware for Wan2.2-Animate")."""
    answer = _recommend(query, ctx, among)
    if answer.kind == "recommend" and (unknown := _unknown_model(query)) is not None:
        answer = answer.model_copy(update={"headline": msg("sentences", items=(unknown, answer.headline))})
    return answer


def _unknown_model(query: Query) -> Msg | None:
    """ "I don't know the model MOSS …" and what sizes it, for a recommendation that names such a model; None for a
    known model, a size, or none."""
    if not query.model or query.gpus:
        return None
    report = assess(
        query.model_copy(
            update={"kind": "can_run", "gpus": (), "gpu_counts": (), "budget": None, "min_memory_gb": None}
        )
    )
    if report.unresolved is None:
        return None
    said = next((m for m in report.headline.nested() if m.key.startswith(("canrun.unknown", "canrun.family"))), None)
    return msg("advice.recommend.unknown_model", said=said) if said is not None else None


def _recommend(query: Query, ctx: AdviceContext, among: frozenset[str] | None = None) -> Answer:
    """What to buy. Asked with two or more cards named ("a 3050 or a 3070 laptop, which do you
    suggest?", "my 3080 runs out of memory — would an A6000 help?"), the answer weighs those cards
    and picks one: a comparison with its verdict, not a ranking of the whole market. An upgrade from
    the user's own card ranks only the cards that are a step up from it (``among``, see _upgrade)."""
    if query.objective == "upgrade" and len(query.gpus) == 1:
        return _upgrade(query, ctx)
    if len(query.gpus) >= 2:
        return compare_gpus(query.model_copy(update={"kind": "compare"}), ctx)
    quoted = _quoted_price(query, ctx)
    if (
        len(query.gpus) == 1
        and not query.num_gpus
        and price_quote(query.gpus[0], snapshot=ctx.snapshot, condition=query.condition) is None
        and quoted is None
    ):
        return _unpriced_card(query, ctx)
    if query.model and not query.gpus:
        # "The best GPU for Llama 3 70B under $2,000": for a language model the memory it needs decides
        # (setups of one or more cards that hold it, within the budget, with their tokens/s), not the
        # guide's floor for the task; models of other kinds rank as the task does, below.
        answer = _can_run(query.model_copy(update={"kind": "can_run"}), ctx)
        report = answer.can_run
        if report is not None and report.model is not None and report.model.kind == "llm":
            if (roomy := _budget_beyond_the_need(query, report, ctx)) is not None:
                return roomy
            # (also when nothing a desk holds fits: "a job for a server or the cloud" is the answer)
            return answer.model_copy(update={"kind": "recommend", "query": query})  # a recommendation, by its setups
        if report is not None and report.model is not None and report.needs and query.budget is None:
            # "Which GPU for FLUX.1 dev?": what the image model needs at each precision, and the cheapest card that
            # holds it at each
            return answer.model_copy(update={"kind": "recommend", "query": query})
    if query.budget is not None and query.budget.currency != ctx.currency:
        ctx = ctx.model_copy(update={"currency": query.budget.currency})  # show prices in the budget's currency
    catalog = load_catalog()
    workload = workload_for(query)
    rules: list[Rule] = []
    caveats: list[Msg] = []
    suggestions: list[Msg] = []

    floor_gb = query.min_memory_gb
    if floor_gb is not None:
        rules.append(Rule(id="memory.stated", text=msg("advice.rule.memory_stated", gb=floor_gb)))
    elif query.task and (floor := memory_floor(query.task)):
        floor_gb = floor.gb
        rules.append(
            Rule(id=f"memory.{floor.edition}.{floor.task}", text=floor.rule, source=f"Guide {floor.edition} §memory")
        )
    rules.append(
        Rule(
            id=f"metric.{workload}",
            text=msg("advice.rule.metric", workload=msg(f"workload.{workload}"), why=msg(f"workload.why.{workload}")),
            source="Guide 2023 §recommendations, step 2",
        )
    )

    # A price quoted for the one card named ("a used 3090 for ¥5,000") is that card's price, not a budget
    # the market is cut to (see _named_card)
    budget = query.budget_usd() if quoted is None else None
    # "a used A100 40GB for $4,000?": a data-centre card offered to the user is weighed among the cards a lab buys
    organization = bool(query.organization) or (
        quoted is not None and not catalog.get(query.gpus[0]).buyable(organization=False)
    )
    counts = (query.num_gpus,) if query.num_gpus else (1,)
    snapshot = catalog.snapshot(ctx.snapshot)

    def ranked(tensor_cores_only: bool, limit: int | None = ctx.max_options * len(counts)) -> list[ValueOption]:
        candidates = _candidates(organization, tensor_cores_only, "nvidia" if query.vendor == "nvidia" else None)
        return rank_by_value(
            workload,
            gpu_counts=counts,
            candidates=candidates if among is None else tuple(g for g in candidates if g in among),
            min_memory_gb=floor_gb,
            max_gpus_usd=budget,
            snapshot=ctx.snapshot,
            condition=query.condition,
            overrides=ctx.price_overrides,
            limit=limit,
        )

    found = ranked(tensor_cores_only=True)
    if not found and budget is not None:
        found = ranked(tensor_cores_only=False)
        if found:
            rules.append(
                Rule(id="tldr.2020.little_money", text=msg("advice.rule.little_money"), source="Guide 2020 TL;DR")
            )
    guide_floor = floor_gb if query.min_memory_gb is None else None
    other_vendor: ValueOption | None = None
    if (
        query.vendor is None
        and found
        and budget is not None
        and guide_floor is not None
        and all(catalog.get(v.gpu_id).vendor != "nvidia" for v in found)
    ):
        # Only another vendor's card meets the guide's floor within the budget ("local LLMs under $1,000": an
        # RX 7900 XTX): NVIDIA still leads, as the guide advises and unless the user opts in (guide §10) — the
        # NVIDIA card with the most memory the budget buys, under the floor — and that card is said beside it
        other_vendor, found = found[0], []
    if not found and budget is not None and guide_floor is not None:
        # The guide's floor is guidance, not a wall: the budget buys no card with it, so lead with the
        # most memory the budget buys (memory decides what fits first), and say how far that is short.
        floor_gb = _most_memory(query, ctx, budget, organization, counts)
        if floor_gb is not None:
            found = ranked(tensor_cores_only=False)
            cheapest = _cheapest_fitting(guide_floor, query, ctx, vendor=query.vendor or "nvidia")
            key = "advice.caveat.under_floor" + ("" if query.vendor not in (None, "nvidia") else ".nvidia")
            short = msg(key, gb=floor_gb, floor=guide_floor, budget=query.budget)
            if cheapest is not None:
                meets = msg(
                    "advice.caveat.floor_cheapest", gpu=catalog.get(cheapest.gpu_id).short_name, usd=cheapest.usd
                )
                short = msg("sentences", items=(short, meets))
            if workload == "decode" and (pair := _pair_meeting(guide_floor, budget, query, ctx)) is not None:
                short = msg("sentences", items=(short, pair))  # an LLM splits over two cards by layers
            if other_vendor is not None:
                amd = catalog.get(other_vendor.gpu_id)
                beside = msg(
                    "advice.caveat.floor_other_vendor",
                    gpu=amd.short_name,
                    gb=amd.memory_gb,
                    usd=other_vendor.price.usd,
                    vendor=_OPT_IN_VENDORS.get(amd.vendor, amd.vendor),
                )
                short = msg("sentences", items=(short, beside))
            caveats.append(short)

    if query.task is None and not query.workload:
        suggestions.append(msg("advice.suggest.task"))
    if budget is None:
        suggestions.append(msg("advice.suggest.budget"))
    if query.condition is None:
        suggestions.append(msg("advice.suggest.condition"))

    chart = flowchart.pick(
        query, budget, snapshot=ctx.snapshot, condition=query.condition, overrides=ctx.price_overrides
    )
    if chart:
        rules.append(chart)

    if query.hours_per_day is not None and query.hours_per_day < LOW_UTILISATION_HOURS:
        caveats.append(msg("advice.caveat.low_hours", hours=query.hours_per_day))
    if query.cloud_interest:
        caveats.append(msg("advice.caveat.cloud_interest"))
    if query.organization:  # a lab's question (not a data-centre card offered to one person)
        caveats.append(msg("advice.caveat.geforce_licence"))

    if not found and not any(b.gpus >= max(counts) for b in catalog.builds):
        if len(query.gpus) == 1 and (build := _unpriced_build(query, ctx, workload, max(counts))) is not None:
            return build
        if not query.gpus and query.budget is None:
            # "作者的8卡是什么配置？我打算在ImageNet上训练，选用什么显卡合适": no base system holds that many — one card
            # at a time is ranked, said so, rather than nothing
            single = recommend(query.model_copy(update={"num_gpus": None}), ctx)
            one_at_a_time = msg("advice.recommend.no_base_system.per_card", count=max(counts))
            return single.model_copy(update={"query": query, "notes": (one_at_a_time, *single.notes)})
        return Answer(
            kind="recommend",
            query=query,
            rules=tuple(rules),
            suggestions=tuple(suggestions),
            headline=msg("advice.recommend.no_base_system", count=max(counts)),
            notes=(msg("advice.note.per_card_speeds"),),
        )
    if not found:
        if budget is not None:  # (with no budget, money is not what is short)
            rules.append(Rule(id="tldr.2020.no_money", text=msg("advice.rule.no_money"), source="Guide 2020 TL;DR"))
        headline = _nothing_fits(query, floor_gb, _cheapest_fitting(floor_gb, query, ctx))
        if budget is None and floor_gb is not None:
            # "the cheapest way to get 48 GB?": no card with that much has a current price — the cheapest with an
            # older one, and for an LLM the cards that hold it between them, split by layers
            headline = msg(
                "sentences", items=(headline, *_memory_without_current_price(query, floor_gb, workload, ctx))
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
    lead, value_pick, objective = _lead(query, found, budget, ranked)
    named = _named_card(query, ctx, workload, counts[0], quoted) if len(query.gpus) == 1 else None
    if named is not None:  # "is a used 3090 worth it?": that card, against the market, leads
        lead, headline_named, top_peer = named
        value_pick = lead if top_peer == found[0].gpu_id else found[0]  # said once, in the headline
    seen: set[str] = set()
    options: list[Option] = []
    for v in (lead, *found):
        if v.gpu_id in seen:
            continue
        seen.add(v.gpu_id)
        options.append(_option(v, best, ctx.reference_gpu, ctx.currency))
        if len(options) == ctx.max_options:
            break
    top = options[0]
    # the pick weighed against the reference card, or, being it, against the card most often weighed beside it
    # ("RTX 3090: … 0.93× an RTX 4090", not "1.00× an RTX 3090")
    yardstick = SECOND_REFERENCE if (top.gpu_id, top.gpu_count) == (ctx.reference_gpu, 1) else ctx.reference_gpu
    said: dict[str, Value] = {
        "setup": setup(top.name, top.gpu_count),
        "gb": top.memory_gb,
        "workload": msg(f"workload.{workload}"),
        "speed": top.speed_vs_reference
        if yardstick == ctx.reference_gpu
        else speed(top.gpu_id, workload) / speed(yardstick, workload),
        "reference": catalog.get(yardstick).short_name,
        "usd": top.price.usd,
        # in the user's currency too where the table converts ("$1,207 (≈CN¥8,324)"): a 一万块 budget reads in yuan
        "price": _price_words(top.price.usd, ctx.currency),
        "basis": top.price.basis_message(),
        "date": top.price.date,
    }
    # "Best AMD GPU for SD?": the lead is the best of that vendor's cards, and says so
    vendor_name = _OPT_IN_VENDORS.get(query.vendor or "")
    of_vendor = ".vendor" if vendor_name else ""
    if vendor_name:
        said["vendor"] = vendor_name
    if named is not None:
        headline = headline_named
    elif objective == "best_value":
        key = "advice.recommend.headline.budget" if budget is not None else "advice.recommend.headline"
        headline = msg(key + of_vendor, **said)
    else:
        # "the fastest GPU for deep learning?" with no budget: the fastest on sale, not "your budget buys"
        anything = ".any" if objective == "fastest" and budget is None else ""
        headline = msg(f"advice.recommend.headline.{objective}{of_vendor}{anything}", **said)
    passed = found[0] if named is None and _legacy(catalog.get(found[0].gpu_id)) else None
    if passed is not None and passed.gpu_id not in (lead.gpu_id, value_pick.gpu_id):
        # "the best value is a $312 V100": said, and why it is not the pick
        caveats.append(msg("advice.caveat.legacy_not_lead", gpu=catalog.get(passed.gpu_id).short_name))
    better_value = value_pick.perf_per_kusd > lead.perf_per_kusd  # never "Best value: X, -27% per dollar"
    if (value_pick.gpu_id != lead.gpu_id or value_pick.gpu_count != lead.gpu_count) and better_value:
        beside = msg(
            "advice.recommend.value_beside",
            setup=setup(load_catalog().get(value_pick.gpu_id).short_name, value_pick.gpu_count),
            more=value_pick.perf_per_kusd / lead.perf_per_kusd - 1,
            usd=value_pick.price.usd,
            price=_price_words(value_pick.price.usd, ctx.currency),
        )
        headline = msg("sentences", items=(headline, beside))
    if catalog.get(top.gpu_id).vendor != "nvidia" and query.vendor is None:
        # NVIDIA leads unless none meets the memory floor within the budget: then say so, and what the
        # cheapest NVIDIA card that does costs, instead of a pick that seems to ignore the guide.
        nvidia = _cheapest_fitting(floor_gb, query, ctx, vendor="nvidia")
        if nvidia is not None and floor_gb is not None and query.budget is not None:
            caveats.append(
                msg(
                    "advice.caveat.no_nvidia_fits",
                    pick=top.name,
                    gb=floor_gb,
                    budget=query.budget,
                    gpu=catalog.get(nvidia.gpu_id).short_name,
                    usd=nvidia.usd,
                    basis=nvidia.basis_message(),
                    date=nvidia.date,
                )
            )
            # and the NVIDIA card with the most memory the budget buys, as the option beside it
            most = _most_memory(query, ctx, budget, organization, counts) if budget is not None else None
            most_nvidia = (
                rank_by_value(
                    workload,
                    gpu_counts=counts,
                    candidates=_candidates(organization, False, "nvidia"),
                    min_memory_gb=most,
                    max_gpus_usd=budget,
                    snapshot=ctx.snapshot,
                    condition=query.condition,
                    overrides=ctx.price_overrides,
                    limit=1,
                )
                if most is not None
                else []
            )
            options.extend(
                _option(v, best, ctx.reference_gpu, ctx.currency) for v in most_nvidia if v.gpu_id not in seen
            )
        else:
            caveats.append(msg("advice.caveat.nvidia_first"))
    elif any(catalog.get(o.gpu_id).vendor != "nvidia" for o in options) and query.vendor is None:
        intel = next((catalog.get(o.gpu_id) for o in options if catalog.get(o.gpu_id).vendor == "intel"), None)
        caveats.append(msg("advice.caveat.nvidia_first" + (".intel" if intel is not None else "")))
        if intel is not None:  # an Intel card in the table comes with what runs on it (oneAPI, no CUDA)
            caveats.extend(software_caveats(intel))
    # Several cards add memory, not batch-1 decode speed (a layer split takes turns): no "more speed" offer.
    # Learning and Kaggle start on one card: the guide's beginner buys one RTX 3070 and only "after 6–9
    # months 4× RTX 3080"; its Kaggle pick is one RTX 3070 (guide 2020 TL;DR).
    # An image is made on one card (pipelines do not split one image across cards): no offer either, unless
    # image models are trained.
    # Running a model that is no LLM ("a PC for the RVC voice changer in real time") likewise takes one card per
    # input: more cards serve more users at once, not one faster.
    images = query.task == "image_generation" and query.mode in (None, "inference")
    running = query.mode == "inference" and query.task not in ("llm_inference", None)
    more_speed = (
        not query.num_gpus
        and workload != "decode"
        and query.task not in ("learning", "kaggle")
        and not images
        and not running
    )
    alternatives = _multi_gpu(query, workload, floor_gb, budget, ctx, best, organization) if more_speed else ()
    rig = max(alternatives, key=lambda o: o.speed_vs_reference, default=None)
    if query.organization and budget is not None and rig and rig.speed_vs_reference > options[0].speed_vs_reference:
        # "a university lab, $20k": a lab's machine holds several cards, and the best-value rig the money buys
        # outruns the fastest single card (the guide's flowchart for organisations is a multi-GPU one)
        said_rig = msg(
            "advice.recommend.lab_rig",
            setup=setup(rig.name, rig.gpu_count),
            ratio=rig.speed_vs_reference,
            reference=catalog.get(ctx.reference_gpu).short_name,
            price=_price_words(rig.gpus_usd, ctx.currency),
        )
        headline = msg("sentences", items=(headline, said_rig))
    community = tuple(
        msg("advice.note.community_price", gpu=o.name, source=o.price.source)
        for o in options
        if o.price.basis == "override"
    )
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


def _named_card(
    query: Query, ctx: AdviceContext, workload: Workload, count: int, quoted: PriceQuote | None = None
) -> tuple[ValueOption, Msg, str | None] | None:
    """ "Is a used 3090 still worth it?": the card's price and speed, and where it ranks for the
    workload per dollar among the priced cards with at least its memory (what it is bought for) —
    NVIDIA's, for an NVIDIA card, as the guide advises. (its value, the headline, the top peer), or
    None when the card has no price, so the usual ranking answers. ``quoted``: the price the user gives
    for it (_quoted_price), which it is weighed at instead."""
    catalog = load_catalog()
    gpu = catalog.get(query.gpus[0])
    overrides = ctx.price_overrides if quoted is None else {**ctx.price_overrides, gpu.id: quoted}
    mine = value(gpu.id, workload, count, snapshot=ctx.snapshot, condition=query.condition, overrides=overrides)
    if mine is None:
        return None
    same_vendor = gpu.vendor == "nvidia" and query.vendor in (None, "nvidia")
    peers = rank_by_value(
        workload,
        gpu_counts=(count,),
        # a data-centre card's peers are the cards a lab buys ("a used A100 40GB for $4,000?")
        candidates=_candidates(
            bool(query.organization) or not gpu.buyable(organization=False), False, "nvidia" if same_vendor else None
        ),
        min_memory_gb=gpu.memory_gb,
        snapshot=ctx.snapshot,
        condition=query.condition,
        overrides=ctx.price_overrides,
    )
    if quoted is not None:  # their offer, against every other card (and this one) at today's prices
        peers = [p for p in peers if p.gpu_id != gpu.id or p.gpu_count != count]
    rank = next((i for i, p in enumerate(peers) if p.gpu_id == gpu.id), None) if quoted is None else None
    of = len(peers)
    if rank is None:  # priced only outside the ranked market (an older price): placed among the peers by value
        rank, of = sum(p.perf_per_kusd > mine.perf_per_kusd for p in peers), of + 1
    said: dict[str, Value] = {
        "setup": setup(gpu.short_name, count),
        "gb": gpu.memory_gb,
        "workload": msg(f"workload.{workload}"),
        "versus": ""
        if gpu.id == ctx.reference_gpu
        else msg(
            "advice.recommend.named.versus",
            speed=speed(gpu.id, workload) / speed(ctx.reference_gpu, workload),
            reference=catalog.get(ctx.reference_gpu).short_name,
        ),
        "usd": mine.price.usd,
        "basis": mine.price.basis_message(),
        "date": mine.price.date,
    }
    quote = ".quoted" if quoted is not None else ""
    if quoted is not None:
        said["price"] = query.budget  # as they said it ("CN¥5,000"); weighed in dollars
    market = (_against_market(quoted, gpu.id, query, ctx),) if quoted is not None else ()
    if rank == 0 or not peers:
        best = msg("advice.recommend.named.best" + quote, **said)
        return mine, msg("sentences", items=(best, *market)) if market else best, gpu.id
    top = peers[0]
    ranked = msg(
        "advice.recommend.named.ranked" + quote,
        rank=rank + 1,
        of=of,
        better=setup(catalog.get(top.gpu_id).short_name, top.gpu_count),
        more=top.perf_per_kusd / mine.perf_per_kusd - 1,
        **said,
    )
    return mine, msg("sentences", items=(ranked, *market)) if market else ranked, top.gpu_id


def _quoted_price(query: Query, ctx: AdviceContext) -> PriceQuote | None:
    """ "Is a used 3090 for $700 a good deal?", "二手3090 5000元值得买吗": an amount with one card and nothing
    else to buy is the price the user is offered for it — weighed as the card's price (``basis="quoted"``,
    against the market's snapshot), as cloud_vs_buy takes it for the desktop's price."""
    if query.budget is None or query.num_gpus or query.objective is not None or len(query.gpus) != 1:
        return None
    usd = query.budget_usd()
    if usd is None:
        return None
    snapshot = load_catalog().snapshot(ctx.snapshot)
    return PriceQuote(gpu_id=query.gpus[0], usd=usd, basis="quoted", date=snapshot.date, source="the user")


def _against_market(quoted: PriceQuote, gpu_id: str, query: Query, ctx: AdviceContext) -> Msg:
    """How the user's price stands against the card's price on file (below or above it, by how much)."""
    going = price_quote(gpu_id, snapshot=ctx.snapshot, condition=query.condition)
    if going is None:
        return msg("advice.recommend.named.no_market")
    below = quoted.usd <= going.usd
    return msg(
        "advice.recommend.named.market." + ("below" if below else "above"),
        usd=going.usd,
        basis=going.basis_message(),
        date=going.date,
        diff=abs(1 - float(quoted.usd) / float(going.usd)),
    )


def _lead(
    query: Query,
    found: list[ValueOption],
    budget: Decimal | None,
    ranked: Callable[..., list[ValueOption]],
) -> tuple[ValueOption, ValueOption, Objective]:
    """(the setup to lead with, the best value, what "best" meant). With a budget, "best" is the
    strongest setup the money buys, the best value beside it; without one, the best value. NVIDIA
    leads unless the user opted into another vendor (guide §10: AMD works, with less tooling)."""
    asked = query.objective if query.objective != "upgrade" else None  # an upgrade ranks as any recommendation
    # A beginner with no budget said starts on the cheapest card that meets the guide's floor for learning
    # (the guide's beginner buys one modest card first), the best value beside it
    unsaid: Objective = "fastest" if budget is not None else "cheapest" if query.task == "learning" else "best_value"
    objective: Objective = asked or unsaid
    every = ranked(True, limit=None) or ranked(False, limit=None)
    catalog = load_catalog()
    # NVIDIA leads, or the vendor the user asked for ("best AMD GPU for SD"): then the best value of any vendor
    # is said beside it when it is another card (a used RTX 3090 often beats a Radeon per dollar).
    wanted = query.vendor or "nvidia"
    leading = [v for v in every if catalog.get(v.gpu_id).vendor == wanted] or every
    # A card today's default PyTorch builds no longer run (Volta's V100 and Titan V: CUDA 13 dropped them)
    # is shown, with that caveat, but does not lead a purchase while a supported card is on the list.
    leading = [v for v in leading if not _legacy(catalog.get(v.gpu_id))] or leading
    supported = [v for v in every if not _legacy(catalog.get(v.gpu_id))] or every
    value_pick = (supported[0] if query.vendor not in (None, "nvidia") else leading[0]) if leading else found[0]
    if objective == "fastest":
        return max(leading, key=lambda v: v.speed), value_pick, objective
    if objective == "cheapest":
        return min(leading, key=lambda v: v.system_usd), value_pick, objective
    return (leading[0] if leading else value_pick), value_pick, objective


def _price_words(usd: Decimal, currency: str, cents: bool = False) -> Msg:
    """A dollar price as a headline says it: with its estimate in ``currency`` beside it when that is not USD; with
    ``cents``, a rate or a small cost to the cent ("$0.27 (≈ CN¥1.88)": a Chinese server asking what an AutoDL hour
    costs reads the yuan AutoDL bills in)."""
    local = local_estimate(usd, currency, cents=cents)
    key = "price.cents" if cents else "price.usd"
    return msg(f"{key}_local", usd=usd, local=local) if local else msg(key, usd=usd)


def _legacy(gpu: Gpu) -> bool:
    """An NVIDIA card that only PyTorch's legacy CUDA build, or none, still runs."""
    return gpu.vendor == "nvidia" and gpu.software.pytorch in ("legacy", "dropped")


def _most_memory(
    query: Query, ctx: AdviceContext, budget: Decimal, organization: bool, counts: tuple[int, ...]
) -> float | None:
    """The most memory per GPU among the priced cards the budget buys (NVIDIA's unless the user
    opted into a vendor), or None when it buys none."""
    catalog = load_catalog()
    vendor = query.vendor or "nvidia"
    affordable = rank_by_value(
        workload_for(query),
        gpu_counts=counts,
        candidates=_candidates(organization, False, vendor),
        max_gpus_usd=budget,
        snapshot=ctx.snapshot,
        condition=query.condition,
        overrides=ctx.price_overrides,
    )
    return max((catalog.get(v.gpu_id).memory_gb for v in affordable), default=None)


def _nothing_fits(query: Query, floor_gb: float | None, cheapest: PriceQuote | None) -> Msg:
    """No priced GPU (with the memory floor) fits the budget; the cheapest that would, if any."""
    said: dict[str, Value] = {"gb": floor_gb} if floor_gb else {}
    if query.budget:
        said["budget"] = query.budget
    none = msg("advice.recommend.no_fit" + (".floor" if floor_gb else "") + ("" if query.budget else ".any"), **said)
    if cheapest is None:
        return none
    name = load_catalog().get(cheapest.gpu_id).short_name
    return msg("advice.recommend.cheapest", none=none, gpu=name, usd=cheapest.usd)


def _memory_without_current_price(query: Query, floor_gb: float, workload: Workload, ctx: AdviceContext) -> list[Msg]:
    """What buys ``floor_gb`` of memory when no card with that much has a price in the ranked market: the cheapest
    card with a dated older price, and, for an LLM decoded by one user (layers split over cards), the fewest cards of
    the cheapest kind that hold it between them."""
    catalog = load_catalog()
    out: list[Msg] = []
    older = cheapest_card(
        floor_gb,
        organization=bool(query.organization),
        snapshot=ctx.snapshot,
        overrides=ctx.price_overrides,
        ranked=False,
    )
    if older is not None:
        name = catalog.get(older.gpu_id).short_name
        said = msg(
            "advice.recommend.older_price", gpu=name, usd=older.usd, basis=older.basis_message(), date=older.date
        )
        out.append(said)
    if workload == "decode" or query.task is None:  # (no work said: "for an LLM" is said with it)
        for count in range(2, LAYER_SPLIT_MOST + 1):
            card = _cheapest_fitting(
                floor_gb / count, query, ctx, vendor=query.vendor or "nvidia", tensor_cores_only=True
            )
            if card is not None:
                gpu = catalog.get(card.gpu_id)
                out.append(
                    msg(
                        "advice.recommend.split_for_memory",
                        setup=setup(gpu.short_name, count),
                        gb=gpu.memory_gb * count,
                        usd=card.usd * count,
                        date=card.date,
                    )
                )
                break
    return out


# The most desktop cards an LLM is split over by layers to reach a memory size (a board and PSU hold four)
LAYER_SPLIT_MOST = 4


def _cheapest_fitting(
    floor_gb: float | None,
    query: Query,
    ctx: AdviceContext,
    vendor: str | None = None,
    tensor_cores_only: bool = False,
) -> PriceQuote | None:
    return cheapest_card(
        floor_gb,
        organization=bool(query.organization),
        vendor=vendor,
        tensor_cores_only=tensor_cores_only,
        snapshot=ctx.snapshot,
        condition=query.condition,
        overrides=ctx.price_overrides,
    )


def _pair_meeting(floor_gb: float, budget: Decimal, query: Query, ctx: AdviceContext) -> Msg | None:
    """ "¥5,000 for local LLMs" buys no 24 GB card: the cheapest two cards (Tensor Cores, NVIDIA unless asked)
    that hold the floor between them within the budget — a model splits over them by layers."""
    pair = _cheapest_fitting(floor_gb / 2, query, ctx, vendor=query.vendor or "nvidia", tensor_cores_only=True)
    if pair is None or pair.usd * 2 > budget:
        return None
    gpu = load_catalog().get(pair.gpu_id)
    return msg("advice.caveat.floor_pair", setup=setup(gpu.short_name, 2), gb=2 * gpu.memory_gb, usd=2 * pair.usd)


def _multi_gpu(
    query: Query,
    workload: Workload,
    floor_gb: float | None,
    budget: Decimal | None,
    ctx: AdviceContext,
    best: float,
    organization: bool,
) -> tuple[Option, ...]:
    """The best 2- and 4-GPU systems within budget, for users who want more speed than one card —
    of NVIDIA cards unless the user opted into a vendor (the guide's advice holds for every setup)."""
    vendor = query.vendor or "nvidia"
    catalog = load_catalog()
    supported = tuple(g for g in _candidates(organization, True, vendor) if not _legacy(catalog.get(g)))
    found = best_per_count(
        workload,
        gpu_counts=(2, 4),
        candidates=supported,
        min_memory_gb=floor_gb,
        max_gpus_usd=budget,
        snapshot=ctx.snapshot,
        condition=query.condition,
        overrides=ctx.price_overrides,
    )
    return tuple(
        _option(v, best, ctx.reference_gpu, ctx.currency, reasons=(msg("advice.reason.multi_gpu", count=v.gpu_count),))
        for v in found
    )


def _follow_up(query: Query) -> FollowUp | None:
    if query.kind != "recommend":
        return None
    if query.task is None and query.workload is None:
        return FollowUp(field="task", question=msg("advice.followup.task"), choices=TASK_CHOICES)
    if query.budget is None:
        return FollowUp(field="budget", question=msg("advice.followup.budget"), choices=BUDGET_CHOICES)
    return None


# ---- compare ---------------------------------------------------------------------------------


def compare_gpus(query: Query, ctx: AdviceContext) -> Answer:
    """Every setup the user named (up to four, counts included) side by side, ending with a pick:
    the fastest for their workload among those with the memory their task needs per GPU, and the
    best value beside it when that is another setup (guide: memory first, then the metric, then
    performance per dollar)."""
    catalog = load_catalog()
    # "租卡跑 LoRA：A100 40GB 还是 4090 划算？" (one of each card)
    if set(query.gpu_counts) <= {1} and (renting := _renting_named(query, ctx)) is not None:
        return renting
    if len(query.gpus) < 2:
        # one card named: weighed against the yardstick card, or, being it, against the card most often weighed beside
        # it ("my 3090, or …?" is no question to answer with a question)
        beside = ctx.reference_gpu if query.gpus and query.gpus[0] != ctx.reference_gpu else SECOND_REFERENCE
        ids: tuple[str, ...] = (query.gpus[0], beside) if query.gpus else ()
        if not ids:
            return Answer(
                kind="compare",
                query=query,
                headline=msg("advice.compare.ask"),
                follow_up=FollowUp(field="gpu", question=msg("advice.followup.compare"), choices=()),
            )
    else:
        ids = query.gpus[: int(BOUNDS["gpus"].high)]
    counts = tuple((query.gpu_counts[i] if i < len(query.gpu_counts) else 1) for i in range(len(ids)))
    gpus = [catalog.get(i) for i in ids]
    workload = workload_for(query)
    rows = tuple(_compare_row(ids, counts, w) for w in WORKLOADS)
    values = [
        value(g, workload, n, snapshot=ctx.snapshot, condition=query.condition, overrides=ctx.price_overrides)
        for g, n in zip(ids, counts, strict=True)
    ]
    label = [setup(g.short_name, n) for g, n in zip(gpus, counts, strict=True)]
    main = next(r for r in rows if r.workload == workload)
    need = _memory_need(query)
    holds = _holds_model(query, ids, counts) if not library_named(query.model) else []
    # Running an LLM for one user, a model splits over a setup's cards by layers: what it holds is their sum
    # (training and batched work keep a copy, or a shard and more, per card: memory per GPU decides there)
    by_layers = workload == "decode"
    held = [g.memory_gb * (n if by_layers else 1) for g, n in zip(gpus, counts, strict=True)]
    fits = [v.fits for v in holds] if holds else [need is None or gb >= need for gb in held]
    # the guide's floor, no size the user stated, for work that is no LLM's (there memory says which models fit)
    floor_only = need is not None and need != query.min_memory_gb and not (query.task or "").startswith("llm")
    pick, verdict, excluded = _verdict(
        label,
        held,  # what each setup holds for the work: a decode's layer split pools its cards ("5090 or 2× 3090?")
        main.speeds,
        values,
        workload,
        fits,
        need,
        holds[0].model if holds else None,
        floor_only=floor_only,
    )
    comparison = Comparison(
        gpu_ids=tuple(ids),
        counts=counts,
        rows=rows,
        memory_gb=tuple(g.memory_gb for g in gpus),
        bandwidth_gbs=tuple(g.bandwidth_gbs for g in gpus),
        tdp_w=tuple(g.tdp_w for g in gpus),
        prices=tuple(v.price if v else None for v in values),
        perf_per_kusd=tuple(v.perf_per_kusd if v else None for v in values),
        workload=workload,
        verdict=verdict,
        pick=pick,
    )
    if len(ids) == 2 and not excluded and max(main.ratio, 1 / main.ratio) >= LEVEL:
        faster, slower, ratio = (
            (label[0], label[1], main.ratio) if main.ratio >= 1 else (label[1], label[0], 1 / main.ratio)
        )
        said: dict[str, Value] = {
            "faster": faster,
            "slower": slower,
            "ratio": ratio,
            "workload": msg(f"workload.{workload}"),
        }
        if values[0] is not None and values[1] is not None:
            better = label[0] if values[0].perf_per_kusd >= values[1].perf_per_kusd else label[1]
            headline = msg("advice.compare.headline.value", better=better, **said)
        else:
            headline = msg("advice.compare.headline", **said)
    else:
        headline = verdict
    said_holds = [msg("advice.compare.holds", setup=label[i], verdict=h.verdict) for i, h in enumerate(holds)]
    lead_holds = bool(holds) and all(h.fits for h in holds)
    fitting = [said for said, h in zip(said_holds, holds, strict=True) if h.fits]
    if lead_holds:
        # "M4 Max 128GB or 2× 3090 for 70B?": every setup runs it, so how (precision, tokens/s) is the answer and
        # follows the pick; a ratio at one precision would hide that they run it at different ones
        headline = msg("sentences", items=(verdict, *said_holds))
    elif fitting:
        # "a Mac Studio or 2× 3090 for 70B?" where one Mac does not hold it: how the ones that do run it follows the
        # pick too; the ones that do not are said below
        headline = msg("sentences", items=(headline, *fitting))
    budget = query.budget_usd()
    over = [
        label[i]
        for i, v in enumerate(values)
        if budget is not None and v is not None and v.price.usd * counts[i] > budget
    ]
    if over:  # "4070 Ti Super vs a used 3090, budget $800": what the money does not buy at today's prices
        key = "advice.compare.over_budget" + (".all" if len(over) == len(ids) else "")
        headline = msg("sentences", items=(headline, msg(key, names=tuple(over), budget=query.budget)))
    caveats: list[Msg] = [said for said, h in zip(said_holds, holds, strict=True) if not h.fits]
    if excluded and not holds:
        key = "advice.compare.excluded" + (".in_all" if by_layers and max(counts) > 1 else "")
        caveats.append(msg(key, names=tuple(excluded), gb=need))
    many = max(range(len(ids)), key=lambda i: counts[i])  # the setup with the most cards
    if counts[many] > 1 and by_layers:
        caveats.append(msg("advice.caveat.layer_split", setup=label[many], gb=held[many]))
    elif counts[many] > 1:  # the user's own setup as the example ("2× RTX 3060 12GB is not one 24 GB card")
        pooled = gpus[many].memory_gb * counts[many]
        caveats.append(msg("advice.caveat.no_pooling", setup=label[many], total=pooled, per=gpus[many].memory_gb))
        caveats.append(msg("advice.caveat.multi_gpu_scaling"))
    if len(ids) == 2 and by_layers and held[0] != held[1]:  # what each setup holds in all, its cards' sum
        caveats.append(msg("advice.caveat.memory_differs", a=label[0], a_gb=held[0], b=label[1], b_gb=held[1]))
    elif len(ids) == 2 and gpus[0].memory_gb != gpus[1].memory_gb:
        a, b = gpus
        caveats.append(
            msg("advice.caveat.memory_differs", a=a.short_name, a_gb=a.memory_gb, b=b.short_name, b_gb=b.memory_gb)
        )
    if workload in ("train16", "infer16") and len(ids) == 2 and gpus[0].has_tensor_cores != gpus[1].has_tensor_cores:
        # "why is my 3090 no faster than my 1080 Ti?": most of a Tensor Core card's lead is 16-bit work; in FP32
        # the cards stand about as their memory bandwidths do
        tc, other = gpus if gpus[0].has_tensor_cores else gpus[::-1]
        caveats.append(
            msg(
                "advice.caveat.mixed_precision",
                tc=tc.short_name,
                other=other.short_name,
                ratio=tc.bandwidth_gbs / other.bandwidth_gbs,
            )
        )
    caveats.extend(caveats_for(tuple(ids), compared=True))  # what each card runs, where that limits it
    if any(g.vendor == "amd" for g in gpus):
        caveats.append(msg("advice.caveat.amd"))  # an AMD card shown always comes with ROCm's caveat (guide §10)
    verdicts = _library_verdicts(query)  # "FlashAttention on a T4 or a 3090?": the library on each card
    if all(v.runs for v in verdicts):
        verdicts = ()  # it runs on every card compared: nothing to weigh
    caveats.extend(v.said[0] for v in verdicts)
    rules = (
        Rule(id="performance.bandwidth", text=msg("advice.rule.bandwidth"), source="Guide 2020/2023 §memory bandwidth"),
        *_library_rules(verdicts),
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


def _compare_row(ids: tuple[str, ...], counts: tuple[int, ...], workload: Workload) -> CompareRow:
    """One workload: each setup's speed relative to the first; the first against the second in full."""
    against = [compare(ids[0], other, workload, counts[0], n) for other, n in zip(ids, counts, strict=True)]
    return CompareRow(
        workload=workload, ratio=against[1].ratio, detail=against[1], speeds=tuple(1 / r.ratio for r in against)
    )


class _Holds(BaseModel):
    """Whether one compared setup holds the model the user named, as can-run works it out."""

    model_config = ConfigDict(frozen=True)

    fits: bool
    verdict: Msg
    model: Msg | str


def _holds_model(query: Query, ids: tuple[str, ...], counts: tuple[int, ...]) -> list[_Holds]:
    """For "4090 or 2× 3090 for Llama 70B?": each setup against the model, per GPU, with the split
    can-run uses (layers across desktop cards), so the pick is among setups that hold it. Empty when
    no model is named or it is unknown (then the memory the task needs decides)."""
    if not query.model:
        return []
    out = []
    for gpu_id, count in zip(ids, counts, strict=True):
        report = assess(  # at the mode, precision and context the user stated ("a 65B at 4-bit: M2 Ultra or A6000?")
            query.model_copy(update={"kind": "can_run", "gpus": (gpu_id,), "gpu_counts": (count,), "num_gpus": None})
        )
        if report.model is None or not report.verdicts:
            return []
        v = report.verdicts[0]
        out.append(_Holds(fits=v.fits, verdict=v.verdict, model=model_words(report.model)))
    return out


def _model_need(query: Query) -> tuple[float | None, tuple[Msg, ...], str | None]:
    """A model named in a rent question ("which cloud GPU to run Llama 3 70B?"): the least one GPU
    needs for it (its smallest rung, as can-run works it out), the note that says so, and that rung's mode."""
    if not query.model:
        return None, (), None
    report = assess(query.model_copy(update={"kind": "can_run", "gpus": (), "gpu_counts": (), "min_memory_gb": None}))
    if not report.needs or report.model is None:
        return None, (), None
    # a fine-tune asked about at one mode ("a LoRA of Llama 3 8B") is priced at that mode: offers hold it
    asked = [n for n in report.needs if n.mode == query.mode and query.mode in TRAINING_MODES]
    least = min(asked or report.needs, key=lambda n: n.gib)
    said = msg(
        "advice.note.rent_for_model",
        model=model_words(report.model),
        rung=rung_label(least.mode, least.precision),
        gb=least.gib,
    )
    return least.gib, (said,), least.mode


def _fine_tune(query: Query, least_mode: str | None) -> tuple[ModelSpec, str] | None:
    """A named LLM's fine-tune asked about in a rent question ("what does a QLoRA of Qwen2.5 14B cost on a
    rented GPU?"): the model and the mode, whose run each offer is priced for. "Fine-tune" said without how
    ("the cheapest cloud GPU to fine-tune Llama 3 70B?") is the mode whose need the offers were chosen for."""
    mode: str | None = query.mode
    if mode is None and query.task == "llm_finetune":
        mode = least_mode
    if not query.model or mode not in TRAINING_MODES:
        return None
    models = load_model_catalog()
    model_id = models.resolve(query.model)
    spec = models.get(model_id) if model_id else None
    return (spec, mode) if spec is not None and spec.kind == "llm" else None


def _run_cost(run: tuple[ModelSpec, str], gpu_id: str, hourly: Decimal) -> RunCost | None:
    """One fine-tuning run (FINETUNE_TOKENS tokens) of ``run``'s model on one rented ``gpu_id``: its hours by
    the cycle model (engine.canrun.training_time) times the hourly price."""
    spec, mode = run
    time = training_time(spec, gpu_id, FINETUNE_TOKENS, mode=mode)  # type: ignore[arg-type]
    if time is None:
        return None
    return RunCost(
        model=model_words(spec),
        mode=mode,
        time=time,
        hourly_usd=hourly,
        usd_low=hourly * Decimal(str(time.hours_low)),
        usd_high=hourly * Decimal(str(time.hours_high)),
    )


def _memory_need(query: Query) -> float | None:
    """GPU memory per card the question needs: stated, else the guide's floor for its task. A size that is a
    named computer's own unified memory ("4090 or a 32GB M2?") says what it has, not what is needed."""
    catalog = load_catalog()
    own = {catalog.get(g).unified_memory_gb for g in query.gpus if catalog.get(g).platform == "unified_memory"}
    if query.min_memory_gb is not None and query.min_memory_gb not in own:
        return query.min_memory_gb
    floor = memory_floor(query.task) if query.task else None
    return floor.gb if floor else None


def _verdict(
    label: list[Msg],
    memory_gb: list[float],
    speeds: tuple[float, ...],
    values: list[ValueOption | None],
    workload: Workload,
    fits: list[bool],
    need: float | None,
    model: Msg | str | None = None,
    floor_only: bool = False,
) -> tuple[int | None, Msg, list[Msg]]:
    """(the pick's index, the verdict, setups left out): the pick is among the setups that hold the
    named ``model`` (or have the ``need`` GB per GPU), as ``fits`` says. ``floor_only``: the need is the
    guide's floor for the work, not one the user stated."""
    fitting = [i for i in range(len(label)) if fits[i]]
    excluded = [label[i] for i in range(len(label)) if i not in fitting]
    if not fitting:
        closest = max(range(len(label)), key=lambda i: (memory_gb[i], speeds[i]))  # equal memory: the faster
        if model is not None:
            return None, msg("advice.compare.verdict.none_hold", model=model, closest=label[closest]), excluded
        quickest = max(range(len(label)), key=lambda i: speeds[i])
        if floor_only and workload != "decode" and quickest != closest:
            # "Which is faster for transformers, a 1080 Ti or a 2080?": below the guide's floor both make do with
            # smaller batches, so the guide's floor does not choose between them; speed picks, memory is said
            said = msg(
                "advice.compare.verdict.none_fit_speed",
                fastest=label[quickest],
                ratio=speeds[quickest] / speeds[closest],
                roomy=label[closest],
                workload=msg(f"workload.{workload}"),
                roomy_gb=memory_gb[closest],
                fast_gb=memory_gb[quickest],
                gb=need,
            )
            return quickest, said, excluded
        return closest, msg("advice.compare.verdict.none_fit", gb=need, closest=label[closest]), excluded
    if model is not None and len(fitting) == 1:
        return fitting[0], msg("advice.compare.verdict.only_one", pick=label[fitting[0]], model=model), excluded
    if model is not None and excluded:
        only = msg("advice.compare.verdict.only_hold", names=tuple(label[i] for i in fitting), model=model)
        rest = _verdict(label, memory_gb, speeds, values, workload, fits, need)[1]
        return (
            max(fitting, key=lambda i: speeds[i]),
            msg("advice.compare.verdict.then", first=only, then=rest),
            excluded,
        )
    quickest = max(range(len(label)), key=lambda i: speeds[i])
    if model is None and len(fitting) == 1 and quickest != fitting[0]:
        # "2× 3060 12GB or a 4070 Ti Super for LLMs?": memory first — the one that has it is the pick, and
        # what the faster one is for is said with it
        pick = fitting[0]
        said = msg(
            "advice.compare.verdict.only_roomy",
            pick=label[pick],
            gb=need,
            faster=label[quickest],
            ratio=speeds[quickest] / speeds[pick],
            workload=msg(f"workload.{workload}"),
        )
        return pick, said, excluded
    fastest = max(fitting, key=lambda i: speeds[i])
    fastest, said = _by_speed_and_value(label, memory_gb, speeds, values, workload, fitting, fastest)
    roomy = max(fitting, key=lambda i: (memory_gb[i], speeds[i]))
    if model is None and memory_gb[roomy] > memory_gb[fastest]:
        # Memory first (guide): the fastest with less per GPU is picked with what it cannot hold.
        said = msg(
            "advice.compare.verdict.less_memory",
            verdict=said,
            gb=memory_gb[fastest],
            roomy=label[roomy],
            roomy_gb=memory_gb[roomy],
        )
    return fastest, said, excluded


# Setups within this share of the fastest one's speed are level: the guide's model does not tell them apart (an
# M1 Max and an M2 Max decode at the same 400 GB/s), so neither is "the fastest" and price or memory decides.
LEVEL = 1.05


def _by_speed_and_value(
    label: list[Msg],
    memory_gb: list[float],
    speeds: tuple[float, ...],
    values: list[ValueOption | None],
    workload: Workload,
    fitting: list[int],
    fastest: int,
) -> tuple[int, Msg]:
    """(the pick, why) among the setups that fit: the fastest, and the best value beside it when that is
    another setup; setups level with the fastest are said to be level, and among them the one with the most
    memory per card picked where they differ ("the 4060 Ti 8GB or 16GB for AI?": same speed, and memory decides
    what fits — the guide's first step), else the best value where all have a price."""
    priced = [i for i in fitting if values[i] is not None]
    best_value = max(priced, key=lambda i: values[i].perf_per_kusd) if priced else None  # type: ignore[union-attr]
    work = msg(f"workload.{workload}")
    level = [i for i in fitting if speeds[i] * LEVEL >= speeds[fastest]]
    if len(level) > 1:
        names = tuple(label[i] for i in level)
        roomy = max(level, key=lambda i: (memory_gb[i], speeds[i]))
        least = min(memory_gb[i] for i in level)
        if memory_gb[roomy] > least:
            said = msg(
                "advice.compare.verdict.level_memory",
                names=names,
                pick=label[roomy],
                gb=memory_gb[roomy],
                less=least,
                workload=work,
            )
            return roomy, said
        if all(values[i] is not None for i in level):
            pick = max(level, key=lambda i: values[i].perf_per_kusd)  # type: ignore[union-attr]
            return pick, msg("advice.compare.verdict.level_value", names=names, pick=label[pick], workload=work)
        return fastest, msg("advice.compare.verdict.level", names=names, workload=work)
    if best_value is None or len(priced) < len(fitting):
        return fastest, msg("advice.compare.verdict.fastest", pick=label[fastest], workload=work)
    if best_value == fastest:
        return fastest, msg("advice.compare.verdict.both", pick=label[fastest], workload=work)
    fast_v, cheap_v = values[fastest], values[best_value]
    assert fast_v is not None and cheap_v is not None
    return fastest, msg(
        "advice.compare.verdict.split",
        fast=label[fastest],
        value=label[best_value],
        ratio=speeds[fastest] / speeds[best_value],
        more=cheap_v.perf_per_kusd / fast_v.perf_per_kusd - 1,
        workload=work,
    )


# ---- cloud vs buy ----------------------------------------------------------------------------


def cloud_vs_buy(query: Query, ctx: AdviceContext) -> Answer:
    """Rent or buy: the break-even day of a desktop against a cloud GPU, one computation whichever
    figures the user gave. Their desktop cost replaces the catalog's price (so a card without one
    still gets an answer), their $/GPU-hour replaces the cloud data's; without hours a day, the
    guide's PhD desktop (15 %) is assumed and said. An amount stated in a rent-or-buy question ("vs a
    $2,000 card") is what the user would spend on the desktop."""
    if query.desktop_usd is None and query.budget is not None and (usd := query.budget_usd()) is not None:
        query = query.model_copy(update={"desktop_usd": usd})
    if query.budget is not None and query.budget.currency != ctx.currency:
        ctx = ctx.model_copy(update={"currency": query.budget.currency})  # "租还是买，预算一万块": prices in yuan too
    catalog = load_catalog()
    desktop_gpu = next((g for g in query.gpus if catalog.get(g).gpu_class != "datacenter"), None)
    if desktop_gpu is None and query.desktop_usd is None:
        desktop_gpu = DEFAULT_DESKTOP_GPU
    elif desktop_gpu is None and query.desktop_usd is not None and not query.gpus and query.cloud_usd_per_hour is None:
        desktop_gpu = _card_bought(query, ctx)  # "rent, or buy for ¥10,000?": the card that amount buys
    gpu = catalog.get(desktop_gpu) if desktop_gpu else None
    suggestions: list[Msg] = []
    hours = query.hours_per_day
    if hours is None:
        hours = 24 * ASSUMED_UTILISATION
        suggestions.append(msg("advice.suggest.hours_assumed"))
    if hours == 0:
        raise UserError("error.cloud.no_hours", max=BOUNDS["hours_per_day"].high)
    rate, instance = _rental(query, desktop_gpu)
    monthly = query.cloud_usd_per_month if query.hours_per_day is None else None
    if monthly is not None:
        # "I spend $300 a month on RunPod": a desktop that does that work, running the hours the spend buys at the
        # rate weighed (a day at most), against the spend itself — the cloud's cost per hour of the desktop's work is
        # the spend over those hours, so the break-even is the spend less the desktop's electricity
        hours = min(24.0, float(monthly / rate) * 12 / 365)
        rate = monthly * 12 / 365 / Decimal(str(hours))
        suggestions = [m for m in suggestions if m.key != "advice.suggest.hours_assumed"]
    notes = (_cloud_price_note(instance),) if instance else ()
    rules = (_break_even_rule(),)
    need, model_note, least_mode = _model_need(query)
    run = _fine_tune(query, least_mode)
    held = max(need or 0, _memory_need(query) or 0) or None
    provider = _provider(query)
    offers, elsewhere = _at_provider(
        provider, lambda at: rentals(workload_for(query), held, ctx.reference_gpu, run=run, provider=at)
    )
    notes = (*notes, *model_note, *elsewhere)
    if query.vendor is None:  # NVIDIA leads, as the guide advises; AMD's offers follow, with ROCm's caveat
        offers = tuple(sorted(offers, key=lambda r: catalog.get(r.gpu_id).vendor != "nvidia"))
    if any(catalog.get(r.gpu_id).vendor == "amd" for r in offers):
        notes = (*notes, msg("advice.caveat.amd"))
    asks_what_to_rent = (
        not query.gpus
        and query.desktop_usd is None
        and query.cloud_usd_per_hour is None
        and query.cloud_usd_per_month is None  # "I spend $300 a month renting: buy?" asks rent or buy
    )
    # "Rent an A100 or buy a 4090?": a data-centre card and a desktop card named is a rent-or-buy of
    # the two (the break-even below); two of one kind are offers to weigh.
    classes = {catalog.get(g).gpu_class == "datacenter" for g in query.gpus}
    rent_one_buy_other = classes == {True, False}
    if (
        len(query.gpus) >= 2
        and not rent_one_buy_other
        and query.desktop_usd is None
        and query.cloud_usd_per_hour is None
    ):
        # "A100 or H100 on the cloud?": the named cards' offers, priced per unit of work, not a desktop.
        named = rentals(workload_for(query), need, ctx.reference_gpu, named=query.gpus)
        if len({_card_line(r.gpu_id) for r in named}) >= 2:
            return _named_rentals(query, ctx, named, notes)
        # "Colab gives me a V100 or a T4, which is faster?": cards offered on a platform whose prices we
        # do not hold are weighed as cards, by speed for the work; no desktop the user did not ask about.
        answer = compare_gpus(query.model_copy(update={"kind": "compare"}), ctx)
        unpriced = tuple(load_catalog().get(g).short_name for g in query.gpus if g not in {r.gpu_id for r in named})
        return answer.model_copy(
            update={"notes": (msg("advice.cloud.named_unpriced", gpus=unpriced), *answer.notes, *notes)}
        )

    # "Where can I rent a 4090 cheaply?", "租4090一小时多少钱": one card and no prices of the user's own — its
    # offers lead (cheapest first, with how many are on file), and buying one is weighed after; so do the
    # data-centre card's in "what does an A100 cost a month to rent, or buy a 4090?"
    rented = (
        query.gpus[0]
        if len(query.gpus) == 1
        else next(g for g in query.gpus if catalog.get(g).gpu_class == "datacenter")
        if rent_one_buy_other and len(query.gpus) == 2
        else None
    )
    asks_offers = bool(rented) and query.desktop_usd is None and query.cloud_usd_per_hour is None
    card_offers: tuple[Rental, ...] = ()
    if asks_offers and rented:  # "a 4090 on vast.ai?" with no such offer on file: every provider's, said so
        card_offers, elsewhere = _at_provider(
            provider,
            lambda at: rentals(workload_for(query), need, ctx.reference_gpu, named=(rented,), run=run, provider=at),
        )
        notes = (*notes, *elsewhere)
    if card_offers:
        offers = card_offers
    if offers and offers[0].run:  # how the run's hours were worked out, for the offer the answer leads with
        notes = (*notes, msg("canrun.note.training_time", basis=offers[0].run.time.basis))

    def lead(headline: Msg) -> Msg:
        """A question that names no card asks what to rent: the cheapest offer per hour of work first; one
        card named, its own cheapest offer."""
        if card_offers and rented:
            top = min(card_offers, key=lambda r: r.on_demand_usd_per_hour or r.spot_usd_per_hour or Decimal(0))
            line = _card_line(rented)
            at_provider = provider if top.provider == provider else None  # its offers alone, when it has some
            held = [  # every current offer of the card (any variant), per GPU, at the provider asked about
                c
                for c in catalog.clouds.values()
                if not c.historical
                and c.gpu in catalog.gpus
                and _card_line(c.gpu) == line
                and (at_provider is None or c.provider == at_provider)
            ]
            hourly = top.on_demand_usd_per_hour or top.spot_usd_per_hour or Decimal(0)
            # spot is said where it undercuts the cheapest on-demand offer (a cloud's spot can cost more than a
            # marketplace's on-demand hour)
            spots = [c.spot_usd_per_hour / c.gpu_count for c in held if c.spot_usd_per_hour]
            spots = [s for s in spots if s < hourly]
            offer = msg(
                "advice.cloud.card_offer" + (".spot" if spots else ""),
                gpu=top.name,
                provider=top.provider,
                hourly=_price_words(hourly, ctx.currency, cents=True),
                # "租一张A100一个月多少钱": the month of it around the clock (8,760 h a year / 12 = 730 h)
                month=_price_words(hourly * HOURS_PER_YEAR / 12, ctx.currency),
                count=len(held),
                date=top.date,
                **({"spot": _price_words(min(spots), ctx.currency, cents=True)} if spots else {}),
            )
            if top.run:  # "what does a LoRA of Llama 3 8B cost on a rented A100?": the run on that offer
                offer = msg("sentences", items=(offer, _run_words(top, ctx.currency)))
            at = query.gpus.index(rented)
            count = max(query.gpu_counts[at] if at < len(query.gpu_counts) else 1, query.num_gpus or 1)
            if count > 1:  # "四张4090一小时多少钱": the hour of the whole setup asked about, at that rate
                whole = msg(
                    "advice.cloud.card_offer.setup",
                    setup=setup(top.name, count),
                    total=_price_words(hourly * count, ctx.currency, cents=True),
                    month=_price_words(hourly * count * HOURS_PER_YEAR / 12, ctx.currency),
                )
                offer = msg("sentences", items=(offer, whole))
            # with hours a day (or a month's spend) given, rent-or-buy was asked: the break-even leads, the offer after
            weighed = query.hours_per_day is not None or query.cloud_usd_per_month is not None
            return msg("sentences", items=(headline, offer) if weighed else (offer, headline))
        if not (asks_what_to_rent and offers):
            return headline
        top = offers[0]
        if top.run:
            # a named model's fine-tune: what one run costs, on the offer where it costs least, is the answer; a
            # desktop's break-even the user did not ask about stays below, out of the headline
            return msg("advice.cloud.rent_pick.run", run=_run_words(top, ctx.currency))
        pick = msg(
            "advice.cloud.rent_pick",
            gpu=top.name,
            provider=top.provider,
            hourly=_price_words(
                top.on_demand_usd_per_hour or top.spot_usd_per_hour or Decimal(0), ctx.currency, cents=True
            ),
            per=_price_words(top.usd_per_reference_hour, ctx.currency, cents=True),
            reference=catalog.get(ctx.reference_gpu).short_name,
        )
        return msg("sentences", items=(pick, headline))

    quote = None
    owned = _owned_datacenter(query, ctx) if desktop_gpu == DEFAULT_DESKTOP_GPU else None
    if owned is not None:
        # "buy an 8x A100 80GB server or rent a p4d? 10 h a day": buying those cards against renting as many
        return _buy_datacenter(query, ctx, owned, rate, hours, offers, rules, notes, tuple(suggestions), lead)
    if query.desktop_usd is not None:
        desktop = query.desktop_usd
    else:
        assert desktop_gpu is not None and gpu is not None  # without the user's desktop cost, a card is priced
        quote = price_quote(
            desktop_gpu, snapshot=ctx.snapshot, condition=query.condition, overrides=ctx.price_overrides
        )
        if quote is None:  # say what renting costs and the guide's rule, and ask for the desktop's cost
            key = "advice.cloud.no_price.instance" if instance else "advice.cloud.no_price"
            return Answer(
                kind="cloud_vs_buy",
                query=query,
                headline=lead(
                    msg(
                        key,
                        gpu=gpu.short_name,
                        rate=_price_words(rate, ctx.currency, cents=True),
                        **({"instance": _instance_words(instance)} if instance else {}),
                    )
                ),
                rules=rules,
                suggestions=(msg("advice.suggest.desktop_cost"), *suggestions),
                notes=notes,
                rentals=offers,
            )
        desktop = base_system(1, quote.date).usd + quote.usd
    result = break_even(
        desktop,
        rate,
        hours_per_day=hours,
        electricity_usd_per_kwh=_electricity(query, ctx),
        **({"gpu_power_w": gpu.tdp_w} if gpu else {}),
    )
    said: dict[str, Value] = {"desktop": _price_words(desktop, ctx.currency), "when": _when(result)}
    if gpu:
        said["gpu"] = gpu.short_name
    if monthly is not None:  # the spend said back, the rate it stands for being no price anyone quotes
        said["spend"] = _price_words(monthly, ctx.currency)
        key = "advice.cloud.headline.monthly" + (".gpu" if gpu else "")
    else:
        said.update(rate=_price_words(rate, ctx.currency, cents=True), hours=hours)
        if instance:
            said["instance"] = _instance_words(instance)
        key = "advice.cloud.headline" + (".gpu" if gpu else "") + (".instance" if instance else "")
    return Answer(
        kind="cloud_vs_buy",
        query=query,
        headline=lead(msg(key, **said)),
        break_even=result,
        rentals=offers,
        rules=rules,
        suggestions=tuple(suggestions),
        notes=notes,
        price_date=quote.date if quote else None,
        price_source=quote.source if quote else None,
    )


def _owned_datacenter(query: Query, ctx: AdviceContext) -> tuple[str, int, PriceQuote] | None:
    """The data-centre setup a rent-or-buy question weighs buying, where it names one and no desktop card and
    gives the hours it runs ("buy 8x A100 80GB or rent p4d, 10 h a day"): the card (the priced variant of its
    line with its memory: an A100 80GB PCIe's price for an SXM one), its count and its price; None otherwise."""
    catalog = load_catalog()
    if query.hours_per_day is None or len(query.gpus) != 1 or catalog.get(query.gpus[0]).gpu_class != "datacenter":
        return None
    named = catalog.get(query.gpus[0])
    count = max(query.gpu_counts[0] if query.gpu_counts else 1, query.num_gpus or 1)
    line = _card_line(named.id)
    for gpu_id in (named.id, *sorted(g for g in catalog.gpus if g != named.id and _card_line(g) == line)):
        if catalog.get(gpu_id).memory_gb != named.memory_gb:
            continue
        quote = price_quote(gpu_id, snapshot=ctx.snapshot, condition=query.condition, overrides=ctx.price_overrides)
        if quote is not None:
            return gpu_id, count, quote
    return None


def _buy_datacenter(
    query: Query,
    ctx: AdviceContext,
    owned: tuple[str, int, PriceQuote],
    rate: Decimal,
    hours: float,
    offers: tuple[Rental, ...],
    rules: tuple[Rule, ...],
    notes: tuple[Msg, ...],
    suggestions: tuple[Msg, ...],
    lead: Callable[[Msg], Msg],
) -> Answer:
    """Buying the data-centre cards named against renting as many at ``rate`` a GPU-hour: the cards' price (with a
    base system where builds.yaml has one that holds them; the cards alone, said so, for more), their power."""
    gpu_id, count, quote = owned
    catalog = load_catalog()
    gpu = catalog.get(gpu_id)
    fitting = any(b.gpus >= count for b in catalog.builds)
    cost = quote.usd * count + (base_system(count, quote.date).usd if fitting else 0)
    result = break_even(
        cost,
        rate * count,
        hours_per_day=hours,
        electricity_usd_per_kwh=_electricity(query, ctx),
        gpu_power_w=gpu.tdp_w * count,
    )
    said = msg(
        "advice.cloud.headline.setup" + ("" if fitting else ".cards"),
        setup=setup(gpu.short_name, count),
        cost=_price_words(cost, ctx.currency),
        each=_price_words(quote.usd, ctx.currency),
        basis=quote.basis_message(),
        date=quote.date,
        rate=_price_words(rate, ctx.currency, cents=True),
        when=_when(result),
        hours=hours,
    )
    return Answer(
        kind="cloud_vs_buy",
        query=query,
        headline=lead(said),
        break_even=result,
        rentals=offers,
        rules=rules,
        suggestions=suggestions,
        notes=notes,  # (the rental's price note among them)
        price_date=quote.date,
        price_source=quote.source,
    )


MAX_RENTALS = 5
# Offers shown from any one provider: AutoDL's consumer cards undercut every marketplace, and a table of five AutoDL
# rows tells someone outside China (AutoDL signs up Chinese phone numbers) nothing they can rent — the cheapest
# stays first, and the other providers follow.
RENTALS_PER_PROVIDER = 2


def _run_words(offer: Rental, currency: str) -> Msg:
    """One fine-tuning run on ``offer``: hours and dollars (and ``currency``), from the cycle model and the
    offer's price."""
    run = offer.run
    assert run is not None
    low, high = local_estimate(run.usd_low, currency, cents=True), local_estimate(run.usd_high, currency, cents=True)
    cost = (
        msg("price.cents_range_local", low=run.usd_low, high=run.usd_high, local_low=low, local_high=high)
        if low and high
        else msg("price.cents_range", low=run.usd_low, high=run.usd_high)
    )
    return msg(
        "advice.cloud.run_cost",
        work=msg(f"canrun.by_size.work.{run.mode}"),
        model=run.model,
        gpu=offer.name,
        provider=offer.provider,
        tokens=run.time.tokens / 1e6,
        hours_low=run.time.hours_low,
        hours_high=run.time.hours_high,
        cost=cost,
        hourly=_price_words(run.hourly_usd, currency, cents=True),
    )


def _card_line(gpu_id: str) -> str:
    """A card without its memory and form-factor variant ("a100-80gb-sxm" → "a100"): the cloud
    offers of any variant answer "rent an A100"."""
    return re.sub(r"(-\d+gb)?(-(sxm|pcie|nvl))?$", "", gpu_id)


def _provider(query: Query) -> str | None:
    """The provider a question names, by its name in data/clouds.yaml."""
    return PROVIDER_NAMES[query.provider] if query.provider else None


def _at_provider(
    provider: str | None, find: Callable[[str | None], tuple[Rental, ...]]
) -> tuple[tuple[Rental, ...], tuple[Msg, ...]]:
    """The offers ``find`` gives at the provider asked about; where it has none for the work ("on Azure"), every
    provider's, with the note that says so."""
    if provider is not None and (found := find(provider)):
        return found, ()
    return find(None), (msg("advice.cloud.provider_none", provider=provider),) if provider is not None else ()


def rentals(
    workload: Workload,
    min_memory_gb: float | None,
    reference_gpu: str = "rtx-3090",
    named: tuple[str, ...] = (),
    run: tuple[ModelSpec, str] | None = None,
    provider: str | None = None,
) -> tuple[Rental, ...]:
    """The cheapest current cloud offer per GPU type with the memory the work needs, ranked by the
    cost of an hour of the reference card's work (guide §cloud: price the run, not the hour);
    with ``named`` cards, only offers of those cards (any memory or form-factor variant); with a
    ``provider`` (its name in data/clouds.yaml), only its offers. With a named LLM's fine-tune
    (``run``), each offer is priced for one run of it and ranked by that."""
    catalog = load_catalog()
    lines = {_card_line(g) for g in named}
    best: dict[tuple[str, str], tuple[Decimal, CloudInstance]] = {}  # (card, provider) → its cheapest offer
    for c in catalog.clouds.values():
        hourly = c.on_demand_usd_per_hour or c.spot_usd_per_hour
        if c.historical or hourly is None or c.gpu not in catalog.gpus:
            continue
        if lines and _card_line(c.gpu) not in lines:
            continue
        if provider is not None and c.provider != provider:
            continue
        if min_memory_gb is not None and catalog.get(c.gpu).memory_gb < min_memory_gb:
            continue
        per_gpu = hourly / c.gpu_count
        key = (c.gpu, c.provider)
        if key not in best or per_gpu < best[key][0]:
            best[key] = (per_gpu, c)
    out = []
    for (gpu_id, _), (per_gpu, c) in best.items():
        relative = speed(gpu_id, workload) / speed(reference_gpu, workload)
        if relative <= 0:
            continue
        gpu = catalog.get(gpu_id)
        out.append(
            Rental(
                gpu_id=gpu_id,
                name=gpu.short_name,
                memory_gb=gpu.memory_gb,
                provider=c.provider,
                instance=c.name,
                on_demand_usd_per_hour=c.on_demand_usd_per_hour / c.gpu_count if c.on_demand_usd_per_hour else None,
                spot_usd_per_hour=c.spot_usd_per_hour / c.gpu_count if c.spot_usd_per_hour else None,
                speed_vs_reference=relative,
                usd_per_reference_hour=per_gpu / Decimal(str(relative)),
                date=c.date,
                source=c.source,
                run=_run_cost(run, gpu_id, per_gpu) if run else None,
            )
        )
    if run:  # a run's price on each card, where the cycle model has the card's throughput; the others after

        def run_price(r: Rental) -> tuple[bool, Decimal]:
            return (r.run is None, r.run.usd_low + r.run.usd_high if r.run else r.usd_per_reference_hour)

        return _spread_over_providers(sorted(out, key=run_price))
    return _spread_over_providers(sorted(out, key=lambda r: r.usd_per_reference_hour))


def _spread_over_providers(ranked: list[Rental]) -> tuple[Rental, ...]:
    """The first ``MAX_RENTALS`` offers in ranked order, each card once at its best-ranked provider and at most
    ``RENTALS_PER_PROVIDER`` from one provider while other providers have offers left."""
    chosen: list[Rental] = []
    for capped in (True, False):  # a provider past its share only fills places no other provider can
        for rental in ranked:
            if len(chosen) == MAX_RENTALS:
                break
            if any(r.gpu_id == rental.gpu_id for r in chosen):
                continue
            if capped and sum(r.provider == rental.provider for r in chosen) >= RENTALS_PER_PROVIDER:
                continue
            chosen.append(rental)
    return tuple(sorted(chosen, key=ranked.index))


def _renting_named(query: Query, ctx: AdviceContext) -> Answer | None:
    """Two or more different cards asked about renting, no model: their offers per hour of work, when at
    least two of them have current offers (None otherwise, and the question is answered as asked)."""
    if query.model or not query.cloud_interest or len(set(query.gpus)) < 2:
        return None
    named = rentals(workload_for(query), None, ctx.reference_gpu, named=query.gpus)
    if len({_card_line(r.gpu_id) for r in named}) < 2:
        return None
    return _named_rentals(query, ctx, named, ())


def _named_rentals(query: Query, ctx: AdviceContext, named: tuple[Rental, ...], notes: tuple[Msg, ...]) -> Answer:
    """The cloud cards the user named, the cheapest per unit of work first, and by how much."""
    top, others = named[0], named[1:]
    reference = load_catalog().get(ctx.reference_gpu).short_name
    headline = msg(
        "advice.cloud.named_pick",
        gpu=top.name,
        provider=top.provider,
        hourly=_price_words(
            top.on_demand_usd_per_hour or top.spot_usd_per_hour or Decimal(0), ctx.currency, cents=True
        ),
        per=_price_words(top.usd_per_reference_hour, ctx.currency, cents=True),
        reference=reference,
        others=tuple(
            msg(
                "advice.cloud.named_other",
                gpu=r.name,
                per=_price_words(r.usd_per_reference_hour, ctx.currency, cents=True),
            )
            for r in others
        ),
    )
    return Answer(
        kind="cloud_vs_buy",
        query=query,
        headline=headline,
        rentals=named,
        rules=(_break_even_rule(),),
        notes=notes,
    )


def _card_bought(query: Query, ctx: AdviceContext) -> str | None:
    """The fastest NVIDIA card for the work that a stated desktop amount buys, after a one-card base
    system: what the user would own, so the rental it is weighed against does the same work."""
    assert query.desktop_usd is not None
    for_card = query.desktop_usd - base_system(1, load_catalog().snapshot(ctx.snapshot).date).usd
    if for_card <= 0:
        return None
    found = best_per_count(
        workload_for(query),
        candidates=_candidates(bool(query.organization), True, "nvidia"),
        max_gpus_usd=for_card,
        snapshot=ctx.snapshot,
        condition=query.condition,
        overrides=ctx.price_overrides,
    )
    return found[0].gpu_id if found else None


def _rental(query: Query, desktop_gpu: str | None) -> tuple[Decimal, CloudInstance | None]:
    """$ per GPU-hour in the cloud: the user's own figure, else the cheapest current on-demand instance of the
    data-centre card they named, of their desktop's card, of a cloud card at least as fast for the
    work (like for like: the guide weighs a desktop against a cloud GPU of its class), or of an A100."""
    if query.cloud_usd_per_hour is not None:
        return query.cloud_usd_per_hour, None
    catalog = load_catalog()
    cloud_gpu = next((g for g in query.gpus if catalog.get(g).gpu_class == "datacenter"), None)
    provider = _provider(query)
    instance = (
        (_cloud_instance(cloud_gpu or desktop_gpu or FALLBACK_CLOUD_GPU, provider) if provider else None)
        or _cloud_instance(cloud_gpu or desktop_gpu or FALLBACK_CLOUD_GPU)
        or (_as_fast_instance(desktop_gpu, workload_for(query)) if desktop_gpu and not cloud_gpu else None)
        or _cloud_instance(FALLBACK_CLOUD_GPU)
    )
    assert instance is not None, "the cloud data has an on-demand A100 (tests/engine/test_catalog.py)"
    hourly = instance.on_demand_usd_per_hour or instance.spot_usd_per_hour
    assert hourly is not None
    return hourly / instance.gpu_count, instance


def _electricity(query: Query, ctx: AdviceContext) -> Decimal:
    """The user's own electricity price when the question gives one, else the server's."""
    return query.electricity_usd_per_kwh if query.electricity_usd_per_kwh is not None else ctx.electricity_usd_per_kwh


# The years the guide prices a card's electricity over (its 2023 performance per dollar, DIGEST §5): a desktop that
# pays for itself only after that has not paid for itself while in use
CARD_LIFE_YEARS = 5


def _when(result: BreakEven) -> Msg:
    if result.days is None:
        return msg("advice.cloud.when.never")
    if result.days > CARD_LIFE_YEARS * 365:  # "after 4159 days (136.7 months)": renting is cheaper, said so
        return msg("advice.cloud.when.beyond_life", years=result.days / 365, life=CARD_LIFE_YEARS)
    return msg("advice.cloud.when.after", days=result.days, months=result.months)


def _instance_words(instance: CloudInstance) -> Msg:
    """An offer as a sentence names it: the cards and the provider ("RTX 4090 on AutoDL", "AutoDL 上的 RTX 4090"), in
    the asker's words — the provider's own product name ("RTX 4090 24GB, 1 GPU") is English, and stays in the note."""
    gpu = load_catalog().get(instance.gpu).short_name
    key = "advice.cloud.instance" + (".several" if instance.gpu_count > 1 else "")
    return msg(key, gpu=gpu, count=instance.gpu_count, provider=instance.provider)


def _break_even_rule() -> Rule:
    return Rule(id="cloud.breakeven", text=msg("advice.rule.break_even"), source=CLOUD_SOURCE)


def _cloud_price_note(instance: CloudInstance) -> Msg:
    return msg(
        "advice.note.cloud_price",
        provider=instance.provider,
        instance=instance.name,
        date=instance.date,
        source=instance.source,
    )


def break_even_answer(
    desktop_usd: float, cloud_usd_per_hour: float, hours_per_day: float, ctx: AdviceContext
) -> Answer:
    """Break-even for figures the user gives directly: the same question as a Query (see advise)."""
    query = Query(
        kind="cloud_vs_buy", desktop_usd=desktop_usd, cloud_usd_per_hour=cloud_usd_per_hour, hours_per_day=hours_per_day
    )
    return advise(query, ctx)


def _as_fast_instance(gpu_id: str, workload: Workload) -> CloudInstance | None:
    """The cheapest current on-demand cloud card per GPU-hour that is at least as fast as ``gpu_id``
    for the work and holds at least its memory: renting the same work the desktop card would do."""
    catalog = load_catalog()
    own = catalog.get(gpu_id)
    floor = speed(gpu_id, workload)
    offers = [
        c
        for c in catalog.clouds.values()
        if not c.historical
        and c.on_demand_usd_per_hour
        and c.gpu in catalog.gpus
        and catalog.get(c.gpu).memory_gb >= own.memory_gb
        and speed(c.gpu, workload) >= floor
    ]
    return min(offers, key=lambda c: ((c.on_demand_usd_per_hour or 0) / c.gpu_count, c.name), default=None)


def _cloud_instance(gpu_id: str, provider: str | None = None) -> CloudInstance | None:
    """The cheapest current on-demand offer of ``gpu_id`` per GPU-hour (the newer of equal ones), at ``provider``
    when one is named: what renting it costs, and the offer a rent-or-buy answer leads with, so the break-even
    weighs the same price."""
    current = [
        c
        for c in load_catalog().clouds.values()
        if c.gpu == gpu_id
        and not c.historical
        and c.on_demand_usd_per_hour
        and (provider is None or c.provider == provider)
    ]
    return min(
        current, key=lambda c: ((c.on_demand_usd_per_hour or 0) / c.gpu_count, -c.date.toordinal()), default=None
    )


# ---- power, explain, can-run, spec card, cycles, other ----------------------------------------


def power(query: Query, ctx: AdviceContext) -> Answer:
    if not query.gpus:
        # "is this really undervolting, 285 W instead of 385 W?", "power draw of this build?": no card named, so the
        # guide's rules with their figures, and which card asked for; "显卡温度90度正常吗" (heat, no card, no PSU):
        # the guide's remedies for heat — its measured power limit, a slot between cards
        cut = power_limit_tradeoff(GUIDE_LIMITED_TDP_W, GUIDE_LIMITED_TDP_W - SUGGESTED_CUT_W)
        guide = (
            msg("advice.power.heat_general", tdp_w=cut.tdp_w, limit_w=cut.limit_w, slowdown=cut.slowdown_percent)
            if query.topic == "cooling" and not query.psu_w
            else msg(
                "advice.power.general",
                board_w=CPU_AND_BOARD_W,
                max_load=MAX_PSU_LOAD,
                cut_w=SUGGESTED_CUT_W,
                tdp_w=cut.tdp_w,
                limit_w=cut.limit_w,
                slowdown=cut.slowdown_percent,
            )
        )
        return Answer(
            kind="power",
            query=query,
            headline=guide,
            rules=(Rule(id="power.psu", text=msg("advice.rule.psu"), source=POWER_SOURCE),),
            follow_up=FollowUp(field="gpu", question=msg("advice.followup.power"), choices=()),
        )
    if len(query.gpus) > 1 and not query.power_limit_w:
        return _power_per_card(query)
    gpu = load_catalog().get(query.gpus[0])
    count = query.num_gpus or (query.gpu_counts[0] if query.gpu_counts else 1)
    if count > MACHINE_MAX_GPUS:
        raise UserError("error.power.count", max=MACHINE_MAX_GPUS)
    if query.power_limit_w is not None and query.power_limit_w > gpu.tdp_w:
        raise UserError("error.power.limit", gpu=gpu.short_name, tdp=gpu.tdp_w)
    # "a 3090 at 350 W": the card's own limit, which costs nothing and saves nothing — said so, not "0 % slower"
    at_stock = query.power_limit_w == gpu.tdp_w
    limit_w = None if at_stock else query.power_limit_w
    result = plan(gpu.id, count, power_limit_w=limit_w, psu_w=query.psu_w)
    said: dict[str, Value] = {
        "count": count,
        "gpu": gpu.short_name,
        "gpu_w": result.gpu_power_w * count,
        "load_w": result.load_w,
        "psu_w": result.recommended_psu_w,
    }
    if result.power_limit:
        pl = result.power_limit
        headline = msg(
            "advice.power.headline.limited",
            limit_w=pl.limit_w,
            slowdown=pl.slowdown_percent,
            saved_w=pl.watts_saved_per_gpu * count,
            **said,
        )
    else:
        headline = msg("advice.power.headline", **said)
    if at_stock:
        headline = msg("sentences", items=(headline, msg("advice.power.at_stock", gpu=gpu.short_name, watts=gpu.tdp_w)))
    if count == 1 and gpu.required_system_power_w:
        # The vendor's own figure for a PC with the card, beside the guide's sizing: it assumes a high-end CPU
        # and leaves room for the card's brief spikes, so it is often above the sizing
        below = bool(result.psu_w and result.psu_w < gpu.required_system_power_w)
        vendor = msg(
            "advice.power.vendor_psu" + (".below" if below else ""),
            gpu=gpu.short_name,
            watts=gpu.required_system_power_w,
            psu=result.psu_w or 0,
        )
        headline = msg("sentences", items=(headline, vendor))
    if query.topic == "cooling" and not query.power_limit_w and gpu.tdp_w > SUGGESTED_CUT_W * 2:
        # "My 4090 runs at 85 °C while training, is that OK?": the guide's remedy leads — a power limit
        # takes heat away for little speed, and a slot's gap between cards cools them by 10-30 °C.
        cut = power_limit_tradeoff(gpu.tdp_w, gpu.tdp_w - SUGGESTED_CUT_W)
        heat = msg("advice.power.heat", gpu=gpu.short_name, limit_w=cut.limit_w, slowdown=cut.slowdown_percent)
        headline = msg("sentences", items=(heat, headline))
    if result.psu_w and result.psu_verdict is not None:
        # "Is my 750 W PSU enough for a 4090?": their PSU's verdict is the answer, the sizing its reason.
        yours = msg("advice.power.your_psu", psu=result.psu_w, verdict=result.psu_verdict)
        headline = msg("sentences", items=(yours, headline))
    if not query.hours_per_day and query.electricity_usd_per_kwh is not None:
        # "A 4090 at $0.30/kWh: what does running it cost?": the user's price and no hours — the hour at load and a
        # day around the clock lead (the machine's load, GPU and the rest, as sized above)
        rate = query.electricity_usd_per_kwh
        hour = Decimal(result.load_w) / 1000 * rate
        cost = msg("advice.power.running_cost", load_w=result.load_w, rate=rate.normalize(), hour=hour, day=hour * 24)
        headline = msg("sentences", items=(cost, headline))
    if query.hours_per_day:
        # Hours a day given: what running it costs is what was asked ("a 4090 24/7, how much?"), so it leads.
        kwh = result.load_w / 1000 * query.hours_per_day * 365
        rate = _electricity(query, ctx)
        cost = msg(
            "advice.note.electricity", hours=query.hours_per_day, kwh=kwh, cost=kwh * float(rate), rate=rate.normalize()
        )
        headline = msg("sentences", items=(cost, headline))
    rules = (Rule(id="power.psu", text=msg("advice.rule.psu"), source=result.source),)
    # "it restarts under load, 850 W with a 4090": a PSU that meets the load can still trip on the card's brief spikes
    fine = result.psu_verdict is not None and result.psu_verdict.key == "power.plan.psu.fine"
    # no PSU said, a card whose brief spikes trip PSUs ("my used 3090: the PC switches off when I chat with the model"):
    # what switching off under load usually is, beside the PSU it needs
    spiky = (
        result.psu_verdict is None
        and not query.power_limit_w
        and not query.hours_per_day
        and load_catalog().get(result.gpu_id).tdp_w >= SPIKY_TDP_W
    )
    notes = (msg("advice.power.spikes"),) if fine else (msg("advice.power.spikes.sizing"),) if spiky else ()
    return Answer(
        kind="power",
        query=query,
        headline=headline,
        power=result,
        rules=rules,
        caveats=result.warnings,
        notes=notes,
    )


# Cards from this TDP up draw millisecond spikes well above it (Ampere and later flagships: the 3090, 4090, 5090)
SPIKY_TDP_W = 300


def _power_per_card(query: Query) -> Answer:
    """ "Upgrading from my 1660 Super (450 W PSU): 3090, 5060 Ti, 5070 Ti or 5080?": each named card
    (with its stated count) sized on its own, and the user's PSU judged for each."""
    catalog = load_catalog()
    counts = query.gpu_counts or (1,) * len(query.gpus)
    plans = [plan(g, n, psu_w=query.psu_w) for g, n in zip(query.gpus, counts, strict=False)]
    if any(n > MACHINE_MAX_GPUS for n in counts):
        raise UserError("error.power.count", max=MACHINE_MAX_GPUS)
    each = tuple(
        msg(
            "advice.power.each_with_psu" if p.psu_verdict is not None else "advice.power.each",
            setup=setup(catalog.get(p.gpu_id).short_name, p.gpu_count),
            gpu_w=p.gpu_power_w * p.gpu_count,
            load_w=p.load_w,
            psu_w=p.recommended_psu_w,
            **({"verdict": p.psu_verdict} if p.psu_verdict is not None else {}),
        )
        for p in plans
    )
    headline = (
        msg("advice.power.your_psu_each", psu=query.psu_w, items=each)
        if query.psu_w
        else msg("advice.power.per_card", items=each)
    )
    return Answer(
        kind="power",
        query=query,
        headline=headline,  # each card's figures are in it: no single card's detail block or chart
        rules=(Rule(id="power.psu", text=msg("advice.rule.psu"), source=plans[0].source),),
        caveats=tuple(dict.fromkeys(w for p in plans for w in p.warnings)),
    )


def explain_topic(query: Query, ctx: AdviceContext) -> Answer:
    """The guide's text on a topic; "wait for the next generation?" also gets today's facts (the
    generation on sale, FP8, the named cards' price over the last year) and a verdict from them."""
    library = library_named(query.model) if query.topic is None else None
    item = explain(library.id if library else query.topic)  # "does vLLM run on AMD?": what the library needs
    title = msg(f"advice.explain.{item.topic}")
    headline, notes = title, tuple[Msg, ...]()
    comparison = None
    if item.topic == "next_generation":
        headline, notes = wait_messages(query.gpus, snapshot=ctx.snapshot, condition=query.condition)
    if item.topic == "memory_bandwidth":
        # "more VRAM or a faster GPU for LLMs?": the guide's order — the memory the work needs, then speed
        headline = msg("advice.explain.memory_first")
    if item.topic == "multi_gpu":
        headline, comparison = _scaling(query, ctx)
        if split := _split_model(query):
            # "两块4090的显存能否合并使用？加载Vicuna-13B…": no pooling, but the model split over the cards, and whether
            # it fits them so
            headline = msg("sentences", items=(split, headline))
        elif query.ran_out or query.min_memory_gb:
            # "only the first card runs out of memory", "can two 3090s pool to 48 GB?": memory per card leads
            headline = msg("sentences", items=(msg("advice.scaling.memory", source=DATA_PARALLEL_SOURCE), headline))
    if verdicts := _library_verdicts(query):  # "vLLM支持P40吗？": the verdict on the card, then the requirement
        headline = msg("sentences", items=tuple(m for v in verdicts for m in v.said))
    elif item.topic == "amd" and (
        radeon := next((gpu for g in query.gpus if (gpu := load_catalog().get(g)).vendor == "amd"), None)
    ):
        # "My RX 7900 XTX gives 'Torch is not able to use the GPU'": what runs on that card today leads the guide's
        # word on AMD (on ROCm's list or not, which PyTorch build)
        software = software_notes(radeon)
        headline = msg("advice.info.headline", software=software[0])
    return Answer(
        kind="explain",
        query=query,
        headline=headline,
        explanation=item,
        notes=notes,
        comparison=comparison,
        rules=(Rule(id=f"explain.{item.topic}", text=title, source=item.source),),
    )


def _split_model(query: Query) -> Msg | None:
    """Whether memory pools, asked with a model and several cards ("can two 4090s combine their memory for
    Vicuna-13B?"): it does not, but an LLM is split over the cards by layers, each holding its share — with the
    verdict for the user's setup. None without a model the engine sizes, or without several cards."""
    setups = [(g, n) for g, n in named_setups(query) if n > 1]
    if not query.model or len(setups) != 1:
        return None
    gpu, count = setups[0]
    report = assess(query.model_copy(update={"kind": "can_run", "gpus": (gpu.id,), "gpu_counts": (count,)}))
    if report.model is None or report.model.kind != "llm" or not report.verdicts:
        return None
    return msg("advice.scaling.split_model", verdict=report.verdicts[0].verdict)


def _scaling(query: Query, ctx: AdviceContext) -> tuple[Msg, Comparison]:
    """ "4 cards train slower than one — why?": what the guide's model expects of N cards against one for the
    work asked (data-parallel training or batched inference: the guide's scaling, 1→8 A100 = 7×; one user's
    LLM decode: no faster than one card), side by side, so the user's own figure can be set against it."""
    if (mixed := _mixed(query, ctx)) is not None:
        return mixed
    count = min(max(query.num_gpus or 0, *query.gpu_counts, 2), 8)  # the guide's figures cover one 8-GPU machine
    card = query.gpus[0] if query.gpus else ctx.reference_gpu
    side_by_side = compare_gpus(
        Query(kind="compare", gpus=(card, card), gpu_counts=(1, count), task=query.task, mode=query.mode), ctx
    ).comparison
    assert side_by_side is not None  # two setups are always compared
    workload = side_by_side.workload
    name = load_catalog().get(card).short_name
    many = setup(name, count)
    if workload == "decode":
        said = msg("advice.scaling.decode", many=many, one=name)
    else:
        row = next(r for r in side_by_side.rows if r.workload == workload)  # N cards against the first, one card
        said = msg(
            "advice.scaling",
            many=many,
            one=name,
            ratio=row.speeds[1],
            efficiency=row.detail.scaling_efficiency[1],
            workload=msg(f"workload.{workload}"),
        )
    return said, side_by_side.model_copy(update={"verdict": None, "pick": None})


def _mixed(query: Query, ctx: AdviceContext) -> tuple[Msg, Comparison] | None:
    """Different cards used together, one of each, weighed once for the work asked: training (two cards only: with
    more, or counts — "two 4080s or a 4090?" — the cards named are as often alternatives as a rig) or one user's LLM
    chat; None for one card type, or other work (a batch of requests per card needs no lockstep)."""
    cards = tuple(dict.fromkeys(query.gpus))
    if len(cards) < 2 or len(query.gpus) != len(cards) or any(count != 1 for count in query.gpu_counts):
        return None
    each = compare_gpus(
        Query(kind="compare", gpus=cards, gpu_counts=(1,) * len(cards), task=query.task, mode=query.mode), ctx
    ).comparison
    assert each is not None  # two setups or more are always compared
    if each.workload == "train16" and len(cards) == 2:
        return _mixed_training(cards, each, query, ctx)
    if each.workload == "decode":
        return _mixed_decode(cards, each)
    return None


def _mixed_training(
    cards: tuple[str, ...], each: Comparison, query: Query, ctx: AdviceContext
) -> tuple[Msg, Comparison]:
    """ "Can I use a 3060 and a 3090 together for training?": data-parallel training steps every card in
    lockstep, so a rig of different cards trains as that many of its slowest card (the guide: mixed GPU types
    work, the slowest sets the pace), each card holding the whole model in the smallest card's memory. Set side
    by side with the fastest card alone, which the rig may not beat."""
    row = next(r for r in each.rows if r.workload == "train16")
    # the second card against the first: the slower of the two sets the rig's pace
    fastest, slowest = cards if row.speeds[1] <= row.speeds[0] else cards[::-1]
    count = len(cards)
    side_by_side = compare_gpus(
        Query(kind="compare", gpus=(fastest, slowest), gpu_counts=(1, count), task=query.task, mode=query.mode), ctx
    ).comparison
    assert side_by_side is not None
    together = next(r for r in side_by_side.rows if r.workload == "train16").speeds[1]
    catalog = load_catalog()
    slow, fast = catalog.get(slowest), catalog.get(fastest)
    said = msg(
        "advice.scaling.mixed_slower" if together < 1 else "advice.scaling.mixed_faster",
        names=tuple(catalog.get(g).short_name for g in cards),
        many=setup(slow.short_name, count),
        slow=slow.short_name,
        fast=fast.short_name,
        ratio=together,
        gb=min(catalog.get(g).memory_gb for g in cards),
    )
    return said, side_by_side.model_copy(update={"verdict": None, "pick": None})


def _mixed_decode(cards: tuple[str, ...], each: Comparison) -> tuple[Msg, Comparison]:
    """ "Can I run a 3090 and a 3060 together for LLM inference?": split by layers (llama.cpp gives each card a share
    by its memory), the cards hold their memory together and take turns on each token, so a model that fills them
    decodes at 1 / Σ sᵢ/rᵢ of the fastest card alone (shares sᵢ, decode speeds rᵢ against it; as
    engine.canrun.mixed_layer_split works it out for a named model)."""
    catalog = load_catalog()
    gpus = [catalog.get(g) for g in cards]
    speeds = [speed(g.id, "decode") for g in gpus]
    fast = gpus[speeds.index(max(speeds))]
    total = sum(g.memory_gb for g in gpus)
    ratio = 1 / sum(g.memory_gb / total / (s / max(speeds)) for g, s in zip(gpus, speeds, strict=True))
    said = msg(
        "advice.scaling.mixed_decode",
        names=tuple(g.short_name for g in gpus),
        gb=total,
        fast=fast.short_name,
        fast_gb=fast.memory_gb,
        ratio=ratio,
    )
    return said, each.model_copy(update={"verdict": None, "pick": None})


def can_run(query: Query, ctx: AdviceContext) -> Answer:
    """Will a named model fit and how fast; otherwise the cheapest GPUs that fit (engine.canrun). With money to
    spend and no card or memory size of the user's to check ("预算5000元买显卡跑stable diffusion", "can I run 70B
    on a $2,000 budget?"), a card to buy: the recommendation within the budget, where the model's need decides
    first (``recommend``)."""
    if query.budget is not None and not query.gpus and not query.min_memory_gb and not query.cloud_interest:
        return recommend(query.model_copy(update={"kind": "recommend"}), ctx)
    return _can_run(query, ctx)


def _also_tuned(query: Query, report: CanRunReport, ctx: AdviceContext) -> Msg | None:
    """Running and fine-tuning asked together ("推理和微调LlaMA2-70B…4个80G A100可以进行推理和微调嘛"): the run is
    answered (the mode said first), and the fine-tune's verdict on the same setup follows it; None otherwise."""
    if query.mode != "inference" or query.task != "llm_finetune" or report.model is None or not report.verdicts:
        return None
    tuned = assess(query.model_copy(update={"mode": None}), snapshot=ctx.snapshot)
    if not tuned.verdicts or tuned.mode == report.mode:
        return None
    return msg("advice.canrun.also_tuned", verdict=tuned.verdicts[0].verdict)


def _can_run(query: Query, ctx: AdviceContext) -> Answer:
    """The can-run answer itself. The query's mode, precision and context length, when stated, replace the engine's
    defaults. Cards named to rent with no model ("renting for LoRA runs: an A100 40GB or a 4090?") get their offers
    priced per unit of work; several cards to own, each its line of what it runs (engine.canrun)."""
    if (renting := _renting_named(query, ctx)) is not None:
        return renting
    library = library_named(query.model)
    if library and not query.gpus and not query.min_memory_gb:
        # "which GPUs does vLLM support?": what the library needs of a GPU
        return explain_topic(query.model_copy(update={"kind": "explain", "topic": None}), ctx)
    verdicts = _library_verdicts(query)
    if (
        len(verdicts) > 1
        and all(v.runs for v in verdicts)
        and not any(limited(load_catalog().get(g)) for g in query.gpus)
    ):
        # "I run Ollama on a 3060: a 5060 Ti or a 3090 next?": it runs on all, nothing to say of it (but on cards
        # today's builds leave behind, "does Ollama support the RX 580 or RX 480?", how it runs is the answer)
        verdicts = ()
    # a library is no model: what the card runs, after the library's verdict
    runs = query.model_copy(update={"model": None}) if library else query
    report = assess(runs, snapshot=ctx.snapshot)
    if (tuned := _also_tuned(runs, report, ctx)) is not None:
        report = report.model_copy(update={"headline": msg("sentences", items=(report.headline, tuned))})
    report = _with_work_speeds(runs, report, ctx)
    if verdicts:  # "can I use FlashAttention on my V100?": the library's requirement against each card leads
        report = report.model_copy(
            update={
                "headline": msg("sentences", items=(*(m for v in verdicts for m in v.said), report.headline)),
                "lean": False if all(v.runs is False for v in verdicts) else report.lean,
            }
        )
    follow_up = None
    if report.model_id is None and report.memory_verdict is None and report.floor is None and not report.card:
        # A name it does not know ("SadTalker") is asked for its size; no name, for the model.
        asked = (
            msg("advice.followup.size", model=report.unresolved) if report.unresolved else msg("advice.followup.model")
        )
        follow_up = FollowUp(field="model", question=asked, choices=())
    if report.floor is not None and report.model_id is None and not report.card and not query.gpus:
        # "How big a card do I need to train BM-DETR?": the guide's floor for the work, then the cards
        # that meet it, led by the cheapest (memory is what was asked) — an answer, not only "which GPU do
        # you have?", and not the market's best value as if the user had asked for a card to buy
        floor_gb = max(report.floor.gb, query.min_memory_gb or 0)
        shop = recommend(
            query.model_copy(
                update={"kind": "recommend", "min_memory_gb": floor_gb, "objective": query.objective or "cheapest"}
            ),
            ctx,
        )
        if shop.options:
            return shop.model_copy(
                update={
                    "kind": "can_run",
                    "query": query,
                    "headline": msg(
                        "sentences",
                        items=(
                            *((report.headline,) if report.unresolved else ()),  # "I don't know BM-DETR."
                            msg("advice.floor.need", rule=report.floor.rule),
                            shop.headline,
                        ),
                    ),
                    "can_run": report,
                }
            )
    # an image, speech or vision model keeps no KV cache and decodes no tokens: its own terms are said
    not_llm = report.model is not None and report.model.kind != "llm"
    rules = (
        Rule(
            id="canrun.memory",
            text=msg("advice.rule.canrun_memory.not_llm" if not_llm else "advice.rule.canrun_memory"),
            source="docs/canrun.md; guide §memory for task floors",
        ),
        *_library_rules(verdicts),
    )
    caveats = caveats_for(query.gpus)  # what the named GPUs run, where that limits them
    catalog = load_catalog()
    lacks = next((m for g in query.gpus[:2] if (m := missing_precision(catalog.get(g), query.precision))), None)
    headline = report.headline
    if lacks is not None:  # "Llama 3 8B in BF16 on my T4?": it has no BF16, so FP16 it is
        rules = (*rules, *_precision_rules(lacks))
        if report.verdicts:
            caveats = (lacks, *caveats)
        else:  # "V100能用bf16训练吗？": no model to weigh, so the precision is what was asked, and leads
            headline = msg("sentences", items=(lacks, report.headline))
    if report.unresolved is None and query.task != "llm_inference":
        # "Does ComfyUI support the 5070 Ti?": whatever runs on a Blackwell card needs a PyTorch new enough for it
        # (a project we cannot size says it in its headline; chat with an LLM runs on llama.cpp's own builds)
        caveats = (*caveats, *(m for g in query.gpus[:1] if (m := first_build(catalog.get(g))) is not None))
    said_amd = any(n.key == "canrun.note.amd" for v in report.verdicts for n in v.notes)
    shown = {*query.gpus, *(a.gpu_id for a in report.alternatives)}  # named, and offered as what fits
    if not said_amd and any(catalog.get(g).vendor == "amd" for g in shown):
        caveats = (*caveats, msg("advice.caveat.amd"))  # an AMD card shown always comes with ROCm's caveat
    intel = next((a.gpu_id for a in report.alternatives if catalog.get(a.gpu_id).vendor == "intel"), None)
    if intel is not None and intel not in query.gpus:  # and an Intel card with oneAPI's (what runs on it)
        caveats = (*caveats, *caveats_for((intel,)))
    return Answer(
        kind="can_run",
        query=query,
        headline=headline,
        can_run=report,
        caveats=caveats,
        rules=rules,
        notes=tuple(report.notes),
        suggestions=_reminders(query, report),
        follow_up=follow_up,
        price_date=report.price_date,
    )


def _reminders(query: Query, report: CanRunReport) -> tuple[Msg, ...]:
    """The two reminders a can-run answer may end with, only where they bear on it (shared/ANSWERS.md §8: short
    where it can be): memory per GPU, never pooled, where a setup has several cards; card sizes in GiB where a fit
    is close to the card's size (within TIGHT_SHARE) or the user ran out of memory."""
    rows = [*report.verdicts, *((report.memory_verdict,) if report.memory_verdict else ())]
    several = (query.num_gpus or 1) > 1 or any(r.count > 1 for r in (*rows, *report.alternatives))
    close = bool(query.ran_out) or any(r.need_gib >= TIGHT_SHARE * r.memory_gb for r in rows)
    shown = {"canrun.assume.per_gpu": several, "canrun.assume.gib": close}
    return tuple(m for m in report.assumptions[:2] if shown.get(m.key))


def _speed_work(query: Query, report: CanRunReport) -> Workload | None:
    """The work whose speed a can-run answer on named cards adds: training (16-bit training), or running a
    model that is no LLM — an image, video, vision or speech model, or a project we have no figures for run
    for inference (16-bit inference). An LLM's decode speed is in its verdict already."""
    if query.mode in TRAINING_MODES or (query.task or "").endswith(("finetune", "pretrain")):
        return "train16"
    if query.mode not in (None, "inference"):
        return None
    if report.model is not None:
        return None if report.model.kind == "llm" else "infer16"
    if query.mode == "inference" and report.unresolved and not (query.task or "").startswith("llm"):
        return "infer16"
    if (query.task or report.unresolved) and not (query.task or "").startswith("llm") and report.model is None:
        # a project we have no figures for, in work the question names or none ("4 A100s to reproduce the detector:
        # how long?", "can one 4090 run D2LS? how long?"): the task's yardstick (16-bit training when none is said)
        work = workload_for(query)
        return work if work in ("train16", "infer16") else None
    return None


def _with_work_speeds(query: Query, report: CanRunReport, ctx: AdviceContext) -> CanRunReport:
    """Named cards and work whose speed is asked about as often as its fit ("can one 4090 train GET3D? how
    long?", "how many seconds per image on a 3060?", "what fps on a Jetson Orin?"): how fast each setup does
    that work against the reference card (the guide's performance model; training on several cards with
    their scaling, inference per card, since one image or frame runs on one), said after whether it fits,
    with what the time also depends on. A Mac's GPU is left out (the guide's model is of discrete cards); the
    reference card alone is measured against the second reference (1.00× says nothing)."""
    work = _speed_work(query, report)
    if work is None or any(v.training is not None for v in report.verdicts):
        return report  # an LLM fine-tune's verdict already says how long 100M tokens take on each setup
    setups = [
        (gpu, count if work == "train16" else 1)  # one image or frame runs on one card
        for gpu, count in named_setups(query)[:3]
        if gpu.platform != "unified_memory"
    ]
    alone = [(gpu.id, count) for gpu, count in setups] == [(ctx.reference_gpu, 1)]
    yardstick = SECOND_REFERENCE if alone else ctx.reference_gpu  # the reference card against itself says nothing
    setups = [(gpu, count) for gpu, count in setups if not (gpu.id == yardstick and count == 1)]
    if not setups:
        return report
    speeds = tuple(compare(gpu.id, yardstick, work, gpu_count=count) for gpu, count in setups)
    reference = load_catalog().get(yardstick).short_name
    key = "advice.canrun.train_speed" if work == "train16" else "advice.canrun.infer_speed"
    said = tuple(
        msg(key, setup=setup(gpu.short_name, count), speed=s.ratio, reference=reference)
        for (gpu, count), s in zip(setups, speeds, strict=True)
    )
    time = msg("advice.canrun.train_time" if work == "train16" else "advice.canrun.infer_time")
    if work == "train16" and report.model_id == IMAGENET_MODEL:
        # "how long to train ResNet-50 on a 4090?": Lambda measured that very network, so the time is said
        time = msg("sentences", items=tuple(_imagenet_time(gpu, count) for gpu, count in setups))
    headline = msg("sentences", items=(report.headline, *said, time))
    return report.model_copy(update={"speeds": speeds, "headline": headline})


IMAGENET_MODEL = "resnet-50"  # the network Lambda's benchmark times on ImageNet (engine.canrun.imagenet_epoch)
IMAGENET_EPOCHS = 90  # the classic ResNet-50 schedule (He et al. 2015; torchvision's reference recipe)


def _imagenet_time(gpu: Gpu, count: int) -> Msg:
    """One ImageNet epoch of ResNet-50 on a setup and the usual 90 epochs, from Lambda's measured images/s (or
    the 3090's scaled by the calibrated ratio); a user's own dataset scales with its number of images."""
    epoch = imagenet_epoch(gpu, gpus=count)
    one = round(epoch.hours_low * 60) == round(epoch.hours_high * 60)
    return msg(
        "advice.canrun.imagenet_time.one" if one else "advice.canrun.imagenet_time",
        setup=setup(gpu.short_name, count),
        low=epoch.hours_low * 60,
        **({} if one else {"high": epoch.hours_high * 60}),
        epochs=IMAGENET_EPOCHS,
        total_low=epoch.hours_low * IMAGENET_EPOCHS,
        **({} if one else {"total_high": epoch.hours_high * IMAGENET_EPOCHS}),
        basis=epoch.basis,
    )


def info(query: Query, ctx: AdviceContext) -> Answer:
    """A GPU's spec card with its sources (/info): the first GPU the query names."""
    if not query.gpus:
        return Answer(
            kind="info",
            query=query,
            headline=msg("advice.info.ask"),
            follow_up=FollowUp(field="gpu", question=msg("advice.followup.info"), choices=()),
        )
    card = load_catalog().get(query.gpus[0])
    software = software_notes(card)  # what runs on it today: leads, since "is it supported?" is asked most
    verdicts = _library_verdicts(query)[:1]  # "does vLLM run on my P40?": the library asked about, first
    lacks = missing_precision(card, query.precision)  # "V100 不支持BF16？": the card's architecture answers
    said = [
        *(m for v in verdicts for m in v.said),
        *((lacks,) if lacks else ()),
        msg("advice.info.headline", software=software[0]),
    ]
    # Then how fast it is, which "is 50 fps normal on my 2080 Ti?" weighs against: against the reference card,
    # or, for the reference card itself (1.00× says nothing), against the card most often weighed beside it.
    yardstick = ctx.reference_gpu if card.id != ctx.reference_gpu else SECOND_REFERENCE
    reference = load_catalog().get(yardstick).short_name
    work_named = bool(query.task or query.mode or query.model or query.workload)
    if work_named:  # the work the question names
        workload = workload_for(query)
        said.append(
            msg(
                "advice.info.speed_for",
                speed=relative_speed(card.id, workload, yardstick),
                reference=reference,
                workload=msg(f"workload.{workload}"),
            )
        )
        if workload in ("infer16", "infer8"):  # "Unique3D takes 4 minutes on my 3090, is that normal?"
            said.append(msg("advice.canrun.infer_time"))
        elif workload == "train16" and query.kind == "other":  # "a day for 8 epochs on my 2080 Ti, reasonable?"
            said.append(msg("advice.canrun.train_time"))
    else:
        said.append(
            msg(
                "advice.info.speed",
                train=relative_speed(card.id, "train16", yardstick),
                decode=relative_speed(card.id, "decode", yardstick),
                reference=reference,
            )
        )
    said.extend(_expected_decode(query, card, ctx))
    return Answer(
        kind="info",
        query=query,
        headline=msg("sentences", items=tuple(said)),
        spec=card,
        caveats=software[1:],
        rules=(*_library_rules(verdicts), *_precision_rules(lacks)),
    )


def _precision_rules(lacks: Msg | None) -> tuple[Rule, ...]:
    """Where "this card has no BF16 / FP8" comes from, when an answer says it."""
    if lacks is None:
        return ()
    return (Rule(id="support.precision", text=msg("advice.rule.precision_hardware"), source=NO_BF16_SOURCE),)


def _library_verdicts(query: Query) -> tuple[LibraryVerdict, ...]:
    """The library the question names (FlashAttention, vLLM, Ollama: parse carries it as the model) against each
    card named, by the requirement its documentation states (engine/libraries.py)."""
    library = library_named(query.model)
    if library is None:
        return ()
    catalog = load_catalog()
    return tuple(library_verdict(library.id, catalog.get(g)) for g in query.gpus[:3])


def _library_rules(verdicts: tuple[LibraryVerdict, ...]) -> tuple[Rule, ...]:
    """Where a library's requirement comes from: its own documentation."""
    if not verdicts:
        return ()
    library = verdicts[0].library
    return (Rule(id=f"library.{library.id}", text=msg(f"advice.explain.{library.id}"), source=library.source),)


def _expected_decode(query: Query, card: Gpu, ctx: AdviceContext) -> tuple[Msg, ...]:
    """ "Only 10 tokens/s for Qwen2-7B on my 3090, is that normal?": what the card decodes that LLM at
    (the best precision that fits, one user, from its memory bandwidth calibrated on published runs),
    to weigh the user's figure against; far less points to layers offloaded to the CPU. For a fine-tune,
    how long the card takes for 100M training tokens."""
    if not query.model or query.mode not in (None, "inference", *TRAINING_MODES) or library_named(query.model):
        return ()
    report = assess(
        Query(
            kind="can_run",
            model=query.model,
            mode=query.mode,
            precision=query.precision,  # "Nemo 12B at 4-bit on a T4 is slow": the speed at the precision they run
            gpus=(card.id,),
            gpu_counts=(query.gpu_counts or (1,))[:1],
        ),
        snapshot=ctx.snapshot,
    )
    verdict = report.verdicts[0] if report.verdicts and report.model and report.model.kind == "llm" else None
    model = model_words(report.model) if report.model else report.model_name  # "a generic 70B model", translated
    if verdict is not None and verdict.fits and verdict.training is not None:
        # "88 hours for a LoRA of Llama 7B on one 3090, normal?": what the card trains 100M tokens in, to set
        # the user's run against (its tokens are epochs × dataset × sequence length)
        time = verdict.training
        return (
            msg(
                "advice.info.expected_training",
                model=model,
                precision=rung_label(verdict.mode, verdict.precision or "", verdict.offload),
                low=time.hours_low,
                high=time.hours_high,
                tokens=time.tokens / 1e6,
            ),
        )
    if verdict is not None and not verdict.fits and (off := verdict.cpu_offload) is not None:
        # "my 4090 only gets 20 tokens/s on Llama 70B Q4, normal?": it does not fit, so what llama.cpp's partial
        # offload gives — a figure far above it says the user runs something smaller than they think
        return (
            msg(
                "advice.info.expected_offload",
                model=model,
                precision=rung_label("inference", off.precision),
                gb=card.memory_gb,
                ngl=off.layers_on_gpu,
                layers=off.layers,
                ram=off.ram_gb,
                low=off.decode.low,
                high=off.decode.high,
            ),
        )
    if verdict is None or not verdict.fits or verdict.decode is None or verdict.precision is None:
        return ()
    return (
        msg(
            "advice.info.expected_decode",
            model=model,
            precision=rung_label(verdict.mode, verdict.precision, verdict.offload),
            low=verdict.decode.low,
            high=verdict.decode.high,
        ),
    )


def cycles(query: Query, ctx: AdviceContext) -> Answer:
    """The guide's worked matrix-multiplication example (/cycles), one of twelve variants; unstated
    choices are the guide's headline case (2023, Tensor Cores, no TMA)."""
    tensor_cores = query.tensor_cores if query.tensor_cores is not None else True
    result = worked_example(query.edition or "2023", tensor_cores, tma=bool(query.tma))
    return Answer(kind="cycles", query=query, headline=msg("advice.cycles.headline", total=result.total), cycles=result)


def spec_card(gpu_id: str) -> Answer:
    """``advise`` for a spec card (kept for callers that name only the card)."""
    return advise(Query(kind="info", gpus=(gpu_id,)))


def cycles_answer(edition: Literal["2023", "2020"], tensor_cores: bool, tma: bool = False) -> Answer:
    """``advise`` for the cycle example (kept for callers that give only its three choices)."""
    return advise(Query(kind="cycles", edition=edition, tensor_cores=tensor_cores, tma=tma))


def other(query: Query, ctx: AdviceContext) -> Answer:
    """Outside what the bot answers — unless a card is named ("only 50 fps on my 2080 Ti, is that normal?"):
    then that card's spec card, its speed and what runs on it, rather than a list of example questions; or a library
    we know the requirements of: what it needs of a GPU."""
    if len(set(query.gpus)) == 2 and query.workload:
        return _slower_than_expected(query, ctx)
    if query.gpus:
        return info(query, ctx)
    if library_named(query.model):  # "flash-attn?", "ollama 支持哪些显卡": what the library needs of a GPU
        return explain_topic(query.model_copy(update={"kind": "explain", "topic": None}), ctx)
    # "an epoch takes 10 minutes, why so slow?" (parse sets the work): what sets a run's speed — not serving many at
    # once ("a speech server for 10 concurrent users"), which is no slow run
    if query.workload and query.workload != "infer8":
        return Answer(
            kind="other",
            query=query,
            # an LLM answering slowly has causes of its own: layers left on the CPU, not a missing mixed precision
            headline=msg(
                "advice.other.slow_decode" if query.workload == "decode" else "advice.other.slow_run",
                source=SYSMEM_FALLBACK_SOURCE,
            ),
            follow_up=FollowUp(field="gpu", question=msg("advice.followup.slow_gpu"), choices=()),
        )
    return Answer(
        kind="other",
        query=query,
        headline=msg("advice.other.headline"),
        suggestions=tuple(msg(f"advice.other.example.{k}") for k in ("kaggle", "compare", "can_run", "power")),
    )


def _slower_than_expected(query: Query, ctx: AdviceContext) -> Answer:
    """ "Why is the same code faster on Kaggle's P100 than on my 3090?": what the guide's model expects of the two
    cards for the work, side by side with no pick (nobody asked which to buy), and what else sets a run's pace when
    the faster card comes out behind."""
    cards = tuple(dict.fromkeys(query.gpus))
    answer = compare_gpus(
        Query(
            kind="compare",
            gpus=cards,
            gpu_counts=(1, 1),
            task=query.task,
            mode=query.mode,
            model=query.model,
            workload=query.workload,  # the work the run was slow at ranks the two ("int8 speed": 8-bit inference)
        ),
        ctx,
    )
    compared = answer.comparison
    assert compared is not None  # two cards are always compared
    workload = compared.workload  # the query's: compare_gpus ranks by it
    row = next(r for r in compared.rows if r.workload == workload)
    fast, slow = (0, 1) if row.speeds[0] >= row.speeds[1] else (1, 0)
    catalog = load_catalog()
    said = msg(
        "advice.other.slower_than_expected" + (".decode" if workload == "decode" else ""),
        fast=catalog.get(cards[fast]).short_name,
        slow=catalog.get(cards[slow]).short_name,
        ratio=row.speeds[fast] / row.speeds[slow],
        workload=msg(f"workload.{workload}"),
        source=SYSMEM_FALLBACK_SOURCE,
    )
    # the comparison's caveats stay ("most of the 3090's lead over a 1080 Ti is its Tensor Cores: mixed precision")
    return answer.model_copy(
        update={
            "query": query,
            "headline": said,
            "comparison": compared.model_copy(update={"verdict": None, "pick": None}),
        }
    )


def warm_up() -> None:
    """Load every data file and fill the ranking caches, so the first real question is as fast as
    the rest (the bot runs this in a thread right after connecting)."""
    from engine.model_specs import load_model_catalog
    from engine.parse import parse

    load_model_catalog()
    for text in (
        "which GPU for Kaggle under $500?",
        "4090 vs 2x 3090",
        "can a 3060 12GB run llama 3 8b?",
        "PSU for 4x 3090?",
        "rent or buy a 3090, 3 hours a day?",
        "what are tensor cores?",
        "预算 5000 块，想本地跑大模型",
        # can-run's own caches: the cheapest-setups index (NVIDIA, then any vendor), a card's rows,
        # the need per rung, no GPU, a published training figure, waiting, a spec card
        "what do I need to run a 70B model?",
        "what can my 3060 run?",
        "how much VRAM does Qwen2.5 14B need?",
        "can I run Llama 3 8B without a GPU?",
        "can a 3060 train an SDXL LoRA?",
        "should I wait for the next generation or buy a 4090?",
        "is the RX 7900 XTX supported by ROCm?",
    ):
        advise(parse(text).query)
