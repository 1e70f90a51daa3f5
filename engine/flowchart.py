"""The guide's 2023 recommendation flowchart, walked for one query.

Each arrow of the chart asks "within your budget?": yes → that card, no → the next. The chart's
cards are priced from the same snapshot as everything else, so its pick moves with the market;
the advisor reports it as a rule beside its performance-per-dollar ranking.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from functools import lru_cache
from typing import Literal

from engine.answer import Rule
from engine.catalog import load_catalog
from engine.cost import PriceCondition, PriceQuote, dearest_within, price_quote
from engine.message import msg
from engine.query import Query

SOURCE = "Guide 2023 recommendation flowchart (the guide's gpu_recommendations chart)"

# (chain id, [(gpu ids tried together, condition)]); the chain's words are flowchart.chain.<id>
_TRAIN_TRANSFORMERS: Chain = ("train.transformers", [(("rtx-4090",), "new"), (("rtx-3090", "rtx-3090-ti"), "used")])
# A flowchart branch: its id and the cards it names, most wanted first, each with the market it is bought on.
Chain = tuple[str, list[tuple[tuple[str, ...], Literal["new", "used"]]]]

_TRAIN_OTHER: Chain = (
    "train.other",
    [(("rtx-4080",), "new"), (("rtx-4070-ti",), "new"), (("rtx-2080-ti",), "used"), (("rtx-3060-12gb",), "used")],
)
_USE_LLMS: Chain = ("use.llms", [(("rtx-4090",), "new"), (("rtx-3090", "rtx-3090-ti"), "used")])
_USE_OTHER: Chain = (
    "use.other",
    [(("rtx-4070-ti", "rtx-4080"), "new"), (("rtx-2080-ti",), "used"), (("rtx-3060-12gb",), "used")],
)

TRANSFORMER_TASKS = {"llm_finetune", "llm_pretrain", "nlp"}


def _chain(task: str | None) -> Chain:
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
        text = msg("flowchart.organization.big_llm" if big_llm else "flowchart.organization")
        return Rule(id="flowchart.2023.organization", text=text, source=SOURCE)
    if query.task is None:
        return None
    chain_id, steps = _chain(query.task)
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
            text = msg(
                "flowchart.pick",
                chain=msg(f"flowchart.chain.{chain_id}"),
                gpu=catalog.get(best.gpu_id).short_name,
                basis=best.basis_message(),
                usd=best.usd,
            )
            return Rule(id=f"flowchart.2023.{chain_id}", text=text, source=SOURCE)
    return Rule(id=f"flowchart.2023.{chain_id}.fallback", text=msg("flowchart.fallback"), source=SOURCE)


def pick(
    query: Query,
    budget_usd: Decimal | None,
    *,
    snapshot: str | None = None,
    condition: PriceCondition | None = None,
    overrides: Mapping[str, PriceQuote] | None = None,
) -> Rule | None:
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
    _, steps = _chain(task)
    return tuple(
        sorted(
            {
                q.usd
                for gpu_ids, step_condition in steps
                for g in gpu_ids
                if (q := price_quote(g, snapshot=snapshot, condition=condition or step_condition)) is not None
            }
        )
    )


@lru_cache(maxsize=1024)
def _pick_cached(
    task: str | None,
    organization: bool,
    budget_usd: Decimal | None,
    snapshot: str | None,
    condition: PriceCondition | None,
) -> Rule | None:
    fields: dict[str, object] = {"organization": organization}
    if task:
        fields["task"] = task
    return _pick(Query(**fields), budget_usd, snapshot=snapshot, condition=condition)
