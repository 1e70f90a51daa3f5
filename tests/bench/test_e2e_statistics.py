"""The e2e benchmark's summary statistics: the median of the pair ratios and how far it could move."""

from __future__ import annotations

import math

from bench.e2e_bench import median, median_interval


def test_identical_pairs_leave_no_room():
    assert median_interval([1.25] * 8) == (1.25, 1.25)


def test_interval_holds_the_median_and_widens_with_spread():
    tight = [1.28, 1.30, 1.31, 1.29, 1.32, 1.30, 1.27, 1.33]
    loose = [1.05, 1.62, 1.78, 1.08, 1.29, 1.13, 1.06, 1.35]
    for pairs in (tight, loose):
        low, high = median_interval(pairs)
        assert min(pairs) <= low <= median(pairs) <= high <= max(pairs)
    (tl, th), (ll, lh) = median_interval(tight), median_interval(loose)
    assert th - tl < lh - ll


def test_interval_is_reproducible_and_ignores_missing_pairs():
    pairs = [1.2, math.nan, 1.4, 1.1, 1.6, 1.3]
    assert median_interval(pairs) == median_interval(pairs)
    assert median_interval(pairs) == median_interval([p for p in pairs if not math.isnan(p)])
    assert all(math.isnan(x) for x in median_interval([math.nan]))
