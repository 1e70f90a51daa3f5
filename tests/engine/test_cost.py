"""Prices and rankings by performance per dollar: the newest known price per card, in the documented
order; rankings remembered per price interval, and still exact at every price."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from itertools import pairwise

import pytest

from bot.words import english, render
from engine.catalog import load_catalog
from engine.cost import (
    RANKING_WINDOW_DAYS,
    PriceQuote,
    _market,
    _rank,
    _selection,
    best_per_count,
    market_snapshots,
    price_quote,
    rank_by_value,
    value,
)

SNAPSHOTS = (None, "2023-01", "2020-09")


def _budgets(snapshot: str | None, condition: str | None, counts: tuple[int, ...]) -> list[Decimal]:
    """Every system price of the snapshot, and a cent either side of it: where a remembered
    ranking would go wrong if a budget were rounded to the wrong neighbouring price."""
    out = {Decimal("1")}
    for gpu_id in load_catalog().ids():
        quote = price_quote(gpu_id, snapshot=snapshot, condition=condition, ranked=True)
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
            systems = [
                value(g, "infer8", option.gpu_count, snapshot=snapshot, ranked=True) for g in load_catalog().ids()
            ]
            fitting = [v for v in systems if v and v.price.usd * v.gpu_count <= budget]
            assert option.perf_per_kusd == max(v.perf_per_kusd for v in fitting)


def test_budgets_between_two_neighbouring_prices_share_one_ranking():
    prices = sorted({q.usd for g in load_catalog().ids() if (q := price_quote(g, ranked=True))})
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


# ---- the newest known price per card, and where it came from -----------------------------------


def test_the_default_market_prices_at_least_50_cards():
    """The pool recommendations draw from: every card a ranking can price, new or used."""
    priced = [g for g in load_catalog().ids() if price_quote(g, ranked=True) is not None]
    assert len(priced) >= 50, len(priced)
    assert "rtx-4090" in priced
    market = _market(None, None)
    assert sum(1 for p in market.price if p == p) == len(priced)  # the arrays rank the same pool


def test_the_market_is_the_newest_snapshot_and_every_older_one_newest_first():
    history = market_snapshots()
    assert history[0].id == load_catalog().current_snapshot
    assert [s.date for s in history] == sorted((s.date for s in history), reverse=True)
    assert [s.id for s in market_snapshots("2023-01")] == ["2023-01", "2020-09"]


def test_a_price_in_the_markets_own_snapshot_is_current():
    q = price_quote("rtx-3090")  # September 2026: GPU Poet's best deal
    assert (q.usd, q.basis, q.snapshot_id, q.date.isoformat()) == (1207, "used", "2026-09", "2026-09-30")
    assert q.current and not q.older_snapshot and "GPU Poet" in q.source
    assert english(q.basis_message()) == "used"


def test_without_a_price_in_the_market_the_newest_older_snapshot_prices_it_marked_as_such():
    """RTX 4090: nothing in September 2026; GPU Poet's April 2026 best deal is the newest price."""
    q = price_quote("rtx-4090")
    assert (q.usd, q.basis, q.snapshot_id, q.date.isoformat()) == (2470, "used", "2026-04", "2026-04-30")
    assert q.older_snapshot and not q.current
    assert english(q.basis_message()) == "used, older price"
    assert render(q.basis_message(), "zh-Hans") == "二手，旧价格"
    # a condition looks for a snapshot with that price: the newest new 4090 is Newegg's in March 2026
    new = price_quote("rtx-4090", condition="new")
    assert (new.usd, new.snapshot_id, new.basis) == (3395, "2026-03", "new") and new.older_snapshot


def test_rankings_take_older_snapshots_only_within_a_year_of_the_market():
    """RTX A6000: its newest price is Amazon's of August 2025, 13 months before the market: quoted, not ranked."""
    q = price_quote("rtx-a6000")
    assert (q.usd, q.snapshot_id, q.older_snapshot) == (Decimal("5189.96"), "2025-08", True)
    assert (market_snapshots()[0].date - q.date).days > RANKING_WINDOW_DAYS
    assert price_quote("rtx-a6000", ranked=True) is None
    assert "rtx-a6000" not in {v.gpu_id for v in rank_by_value("train16")}
    assert value("rtx-a6000", "train16") is not None and value("rtx-a6000", "train16", ranked=True) is None
    # the April 2026 4090 is within the year: ranked, and its row says it is an older price
    ranked = next(v for v in rank_by_value("train16") if v.gpu_id == "rtx-4090")
    assert ranked.price == price_quote("rtx-4090") and ranked.price.older_snapshot


def test_a_card_no_snapshot_prices_gets_its_launch_msrp_marked_as_such():
    """GTX 1050 Ti: no snapshot prices it; its launch price is the last resort, never ranked."""
    gpu = load_catalog().get("gtx-1050-ti")
    q = price_quote("gtx-1050-ti")
    assert (q.usd, q.basis, q.date) == (gpu.launch_price.usd, "launch", gpu.launch_price.date)
    assert q.source == gpu.launch_price.source and q.snapshot_id is None and not q.current
    assert english(q.basis_message()) == "launch MSRP"
    assert render(q.basis_message(), "zh-Hant") == "首發建議售價"
    assert price_quote("gtx-1050-ti", ranked=True) is None
    # a card launched after the market's date has no price in that market at all
    assert price_quote("rtx-4090", snapshot="2020-09") is None


def test_the_servers_community_median_comes_first():
    median = PriceQuote(
        gpu_id="rtx-4090", usd=Decimal(1900), basis="override", date=dt.date(2026, 11, 2), source="3 reports"
    )
    for ranked in (False, True):
        assert price_quote("rtx-4090", overrides={"rtx-4090": median}, ranked=ranked) is median
    assert english(median.basis_message()) == "reported"
    best = rank_by_value("train16", candidates=("rtx-4090", "gtx-1050-ti"), overrides={"rtx-4090": median})
    assert [v.gpu_id for v in best] == ["rtx-4090"] and best[0].price is median


def test_the_guides_own_markets_keep_their_prices():
    """Older snapshots never leak into the guide's 2020 and 2023 rankings (they are more than a year older)."""
    for snapshot in ("2020-09", "2023-01"):
        own = load_catalog().snapshot(snapshot).prices
        ranked = {g for g in load_catalog().ids() if price_quote(g, snapshot=snapshot, ranked=True)}
        assert ranked == set(own)
    assert price_quote("rtx-3090", snapshot="2020-09", condition="new").usd == 1499
    assert price_quote("rtx-3090", snapshot="2023-01", condition="used").usd == 817
