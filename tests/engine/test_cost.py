"""Rankings by performance per dollar: remembered per price interval, and still exact at every price."""

from __future__ import annotations

from decimal import Decimal
from itertools import pairwise

import pytest

from engine.catalog import load_catalog
from engine.cost import _rank, _selection, best_per_count, price_quote, rank_by_value, value

SNAPSHOTS = (None, "2023-01", "2020-09")


def _budgets(snapshot: str | None, condition: str | None, counts: tuple[int, ...]) -> list[Decimal]:
    """Every system price of the snapshot, and a cent either side of it: where a remembered
    ranking would go wrong if a budget were rounded to the wrong neighbouring price."""
    out = {Decimal("1")}
    for gpu_id in load_catalog().ids():
        quote = price_quote(gpu_id, snapshot=snapshot, condition=condition)
        if quote is None:
            continue
        for n in counts:
            at = quote.usd * n
            out |= {at - Decimal("0.01"), at, at + Decimal("0.01")}
    return sorted(out)


@pytest.mark.parametrize("snapshot", SNAPSHOTS)
@pytest.mark.parametrize("condition", [None, "used"])
def test_a_remembered_ranking_equals_ranking_with_the_exact_budget(snapshot, condition):
    for budget in _budgets(snapshot, condition, (1,)):
        kept = rank_by_value("train16", max_gpus_usd=budget, snapshot=snapshot, condition=condition, limit=5)
        exact = _selection("train16", (1,), None, None, budget, snapshot, condition, plain=False)
        assert kept == _rank(exact, 5, None, None), budget
        assert all(v.price.usd <= budget for v in kept)


@pytest.mark.parametrize("snapshot", SNAPSHOTS)
def test_best_per_count_is_exact_at_every_price_of_two_and_four_gpus(snapshot):
    for budget in _budgets(snapshot, None, (2, 4))[::3]:
        kept = best_per_count("infer8", gpu_counts=(2, 4), max_gpus_usd=budget, snapshot=snapshot)
        for option in kept:
            assert option.price.usd * option.gpu_count <= budget
            systems = [value(g, "infer8", option.gpu_count, snapshot=snapshot) for g in load_catalog().ids()]
            fitting = [v for v in systems if v and v.price.usd * v.gpu_count <= budget]
            assert option.perf_per_kusd == max(v.perf_per_kusd for v in fitting)


def test_budgets_between_two_neighbouring_prices_share_one_ranking():
    prices = sorted({q.usd for g in load_catalog().ids() if (q := price_quote(g))})
    low, high = next((a, b) for a, b in pairwise(prices) if b - a > 2)
    first = rank_by_value("train16", max_gpus_usd=low + 1, limit=3)
    second = rank_by_value("train16", max_gpus_usd=high - 1, limit=3)
    assert first and all(a is b for a, b in zip(first, second, strict=True))
    # at the next price a new card becomes affordable
    assert high not in {v.price.usd for v in rank_by_value("train16", max_gpus_usd=high - 1)}
    assert high in {v.price.usd for v in rank_by_value("train16", max_gpus_usd=high)}


def test_a_budget_below_every_price_finds_nothing():
    assert rank_by_value("train16", max_gpus_usd=Decimal("1")) == []
    assert best_per_count("train16", gpu_counts=(2,), max_gpus_usd=Decimal("1")) == []
