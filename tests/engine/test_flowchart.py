"""The guide's 2023 flowchart, walked with the snapshot's prices (remembered per card covered)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from bot.words import english
from engine.flowchart import _chart_prices, _pick, pick
from engine.query import Query


@pytest.mark.parametrize(
    ("task", "budget", "card"),
    [
        ("llm_finetune", None, "RTX 4090 (new $1,599)"),
        ("llm_finetune", Decimal(1000), "RTX 3090 (used $817)"),
        ("llm_finetune", Decimal(700), "Flowchart fallback"),
        ("kaggle", Decimal(300), "RTX 3060 12GB (used $287)"),
        ("kaggle", Decimal(700), "RTX 2080 Ti (used $390)"),
        ("kaggle", Decimal(1000), "RTX 4070 Ti (new $820)"),
        ("image_generation", Decimal(1700), "RTX 4070 Ti (new $820)"),
    ],
)
def test_the_walk_takes_the_first_step_the_budget_covers(task, budget, card):
    assert card in english(pick(Query(task=task), budget, snapshot="2023-01").text)


@pytest.mark.parametrize("task", ["llm_finetune", "kaggle", "llm_inference", "image_generation"])
@pytest.mark.parametrize("condition", [None, "new", "used"])
def test_the_remembered_pick_equals_the_walk_at_every_chart_price(task, condition):
    for price in _chart_prices(task, "2023-01", condition):
        for budget in (price - Decimal("0.01"), price, price + Decimal("0.01")):
            query = Query(task=task)
            assert pick(query, budget, snapshot="2023-01", condition=condition) == _pick(
                query, budget, snapshot="2023-01", condition=condition
            ), budget


def test_an_organisation_gets_the_cloud_or_data_centre_rule_whatever_the_budget():
    rule = pick(Query(task="llm_pretrain", organization=True), Decimal(10), snapshot="2023-01")
    assert rule.id == "flowchart.2023.organization" and "A100/H100" in english(rule.text)


def test_in_the_default_market_the_walk_prices_each_card_with_its_newest_known_price():
    """No new RTX 4090 in September 2026: the chart's first step takes Newegg's March 2026 price and
    says it is an older one; $2,000 does not cover it, so the walk goes on to a used 3090 (September)."""
    assert "RTX 4090 (new, older price $3,395)" in english(pick(Query(task="llm_finetune"), None).text)
    assert "RTX 3090 (used $1,207)" in english(pick(Query(task="llm_finetune"), Decimal(2000)).text)
