"""The summary rules on their own (no database): per-user latest value, the MAD rule, its floor, dates."""

from __future__ import annotations

import datetime as dt
import random
from decimal import Decimal

from bot.store import PriceReport, summarize
from bot.store.prices import date_range
from engine.money import Money, exchange_rates

T0 = dt.datetime(2026, 11, 1, tzinfo=dt.UTC)
convert = exchange_rates().convert


def rep(i: int, user: int, amount, currency="USD", day: int = 0) -> PriceReport:
    when = T0 + dt.timedelta(days=day, minutes=i)
    return PriceReport(
        id=i,
        guild_id=1,
        user_id=user,
        gpu_id="rtx-3090",
        price=Money(amount=Decimal(amount), currency=currency),
        condition="used",
        where="x",
        reported_at=when,
        created_at=when,
    )


def median_of(reports) -> Decimal | None:
    got = summarize(reports, "guild", "USD", convert).median
    return None if got is None else got.amount


def test_latest_report_per_user_counts():
    s = summarize(
        [rep(1, 1, 500, day=0), rep(2, 1, 800, day=5), rep(3, 2, 790), rep(4, 3, 810)], "guild", "USD", convert
    )
    assert s.median.amount == 800 and s.count == 3 and s.reports == 4
    assert [(e.id, e.reason) for e in s.excluded] == [(1, "superseded")]
    assert (s.first, s.last) == (dt.date(2026, 11, 1), dt.date(2026, 11, 6))


def test_mad_rule_and_its_floor():
    # A tight cluster (MAD 0): the 5 % floor keeps values within ±17.5 % ...
    tight = [rep(i, i, 700) for i in range(1, 6)]
    assert median_of([*tight, rep(9, 9, 820)]) == 700
    assert summarize([*tight, rep(9, 9, 820)], "guild", "USD", convert).outliers == ()
    # ... and leaves out what is beyond.
    s = summarize([*tight, rep(9, 9, 830)], "guild", "USD", convert)
    assert [e.id for e in s.outliers] == [9]
    # Two reporters: no outlier test, the median is their mean.
    assert median_of([rep(1, 1, 100), rep(2, 2, 10_000)]) == Decimal(5050)
    assert median_of([]) is None


def test_one_user_is_one_voice_and_moves_the_median_at_most_one_position():
    rng = random.Random(7)
    for _ in range(300):
        n = rng.randint(3, 12)
        honest = [rep(i, i, rng.randint(500, 900)) for i in range(1, n + 1)]
        v = sorted(r.price.amount for r in honest)
        attack = [
            rep(100 + k, 999, rng.choice([1, 2, 400, 650, 950, 5000, 10**6]), day=k) for k in range(rng.randint(1, 9))
        ]
        summary = summarize(honest + attack, "guild", "USD", convert)
        # However many reports, the attacker weighs exactly as much as their latest one.
        assert summary.median == summarize([*honest, attack[-1]], "guild", "USD", convert).median
        honest_ids = {r.id for r in honest}
        if any(e.id in honest_ids for e in summary.excluded):
            continue  # the outlier rule trimmed honest values too; the bound below is about one voice
        # One more value among n moves the median at most one position either way.
        assert v[max(0, (n - 1) // 2 - 1)] <= summary.median.amount <= v[min(n - 1, n // 2 + 1)], (v, summary)


def test_date_range_text():
    d = dt.date
    assert date_range(d(2026, 11, 12), d(2026, 11, 30)) == "12–30 Nov"
    assert date_range(d(2026, 10, 28), d(2026, 11, 3)) == "28 Oct – 3 Nov"
    assert date_range(d(2025, 12, 30), d(2026, 1, 2)) == "30 Dec 2025 – 2 Jan 2026"
    assert date_range(d(2026, 11, 12), d(2026, 11, 12)) == "12 Nov"
