"""The guide's 2023 recommendation flowchart, walked for one query.

Each arrow of the chart asks "within your budget?": yes → that card, no → the next. The chart's
cards are priced from the same snapshot as everything else, so its pick moves with the market;
the advisor reports it as a rule beside its performance-per-dollar ranking.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from functools import lru_cache

from engine.answer import Rule
from engine.catalog import load_catalog
from engine.cost import PriceCondition, PriceQuote, dearest_within, price_quote
from engine.query import Query

SOURCE = "Guide 2023 recommendation flowchart (the guide's gpu_recommendations chart)"

# (chain id, description, [(gpu ids tried together, condition)])
_TRAIN_TRANSFORMERS = (
    "train.transformers",
    "training transformers",
    [(("rtx-4090",), "new"), (("rtx-3090", "rtx-3090-ti"), "used")],
)
_TRAIN_OTHER = (
    "train.other",
    "training other models",
    [(("rtx-4080",), "new"), (("rtx-4070-ti",), "new"), (("rtx-2080-ti",), "used"), (("rtx-3060-12gb",), "used")],
)
_USE_LLMS = ("use.llms", "using LLMs", [(("rtx-4090",), "new"), (("rtx-3090", "rtx-3090-ti"), "used")])
_USE_OTHER = (
    "use.other",
    "using other models",
    [(("rtx-4070-ti", "rtx-4080"), "new"), (("rtx-2080-ti",), "used"), (("rtx-3060-12gb",), "used")],
)

TRANSFORMER_TASKS = {"llm_finetune", "llm_pretrain", "nlp"}


def _chain(task: str | None):
    if task in ("llm_inference",):
        return _USE_LLMS
    if task in ("image_generation",):
        return _USE_OTHER
    if task in TRANSFORMER_TASKS:
        return _TRAIN_TRANSFORMERS
    return _TRAIN_OTHER


def _pick(
    query: Query,
    budget_usd: Decimal | None,
    *,
    snapshot: str | None = None,
    condition: PriceCondition | None = None,
    overrides: Mapping[str, PriceQuote] | None = None,
) -> Rule | None:
    """The flowchart's answer for this query as a Rule, or None when the task is unknown."""
    if query.organization:
        big_llm = query.task in ("llm_pretrain", "llm_finetune")
        text = (
            "Organisation training LLMs ≥ 13B: rent A100/H100 in the cloud (Azure if rich, AWS otherwise)."
            if big_llm
            else "Organisation: H100 SXM if rich; otherwise about 80 % RTX 6000 Ada / L40 and 20 % H100."
        )
        return Rule(id="flowchart.2023.organization", text=text, source=SOURCE)
    if query.task is None:
        return None
    chain_id, label, steps = _chain(query.task)
    catalog = load_catalog()
    for gpu_ids, step_condition in steps:
        wanted = condition or step_condition
        quotes = [
            q
            for g in gpu_ids
            if (q := price_quote(g, snapshot=snapshot, condition=wanted, overrides=overrides)) is not None
        ]
        affordable = [q for q in quotes if budget_usd is None or q.usd <= budget_usd]
        if affordable:
            best = min(affordable, key=lambda q: q.usd)
            name = catalog.get(best.gpu_id).short_name
            return Rule(
                id=f"flowchart.2023.{chain_id}",
                text=f"The guide's flowchart for {label}: {name} ({best.basis} ${best.usd:,.0f}).",
                source=SOURCE,
            )
    small = (
        "Flowchart fallback: with only small or streaming datasets, rent (vast.ai, Lambda Cloud); "
        "otherwise it's complicated — pick memory, metric, then best performance per dollar."
    )
    return Rule(id=f"flowchart.2023.{chain_id}.fallback", text=small, source=SOURCE)


def pick(query: Query, budget_usd: Decimal | None, *, snapshot: str | None = None,
         condition: PriceCondition | None = None, overrides: Mapping[str, PriceQuote] | None = None) -> Rule | None:
    """The flowchart's answer for this query as a Rule, or None when the task is unknown.

    Without price overrides the answer depends only on the task, organisation, market and which of
    the chart's cards the budget covers, so it is remembered per dearest card covered."""
    if overrides:
        return _pick(query, budget_usd, snapshot=snapshot, condition=condition, overrides=overrides)
    if budget_usd is not None:
        budget_usd = dearest_within(_chart_prices(query.task, snapshot, condition), budget_usd, Decimal(0))
    return _pick_cached(query.task, bool(query.organization), budget_usd, snapshot, condition)


@lru_cache(maxsize=64)
def _chart_prices(task: str | None, snapshot: str | None, condition: PriceCondition | None) -> tuple[Decimal, ...]:
    """The prices of every card on this task's chain, as the walk prices them, cheapest first."""
    _, _, steps = _chain(task)
    return tuple(sorted({
        q.usd
        for gpu_ids, step_condition in steps
        for g in gpu_ids
        if (q := price_quote(g, snapshot=snapshot, condition=condition or step_condition)) is not None
    }))


@lru_cache(maxsize=1024)
def _pick_cached(task: str | None, organization: bool, budget_usd: Decimal | None, snapshot: str | None,
                 condition: PriceCondition | None) -> Rule | None:
    fields: dict = {"organization": organization}
    if task:
        fields["task"] = task
    return _pick(Query(**fields), budget_usd, snapshot=snapshot, condition=condition)
