"""The cycle model reproduces the guide's worked example term by term."""

from __future__ import annotations

import pytest

from engine.cycles import tensor_core_speedup, tile_cycles, worked_example


def terms(result):
    return [(t.count, t.cycles_each) for t in result.terms]


def test_2023_without_tensor_cores_is_504():
    result = worked_example("2023", tensor_cores=False)
    assert result.total == 504
    assert terms(result) == [(1, 200), (8, 34), (8, 4)]  # 200 + 8×34 + 8×4


def test_2023_with_tensor_cores_is_235():
    result = worked_example("2023", tensor_cores=True)
    assert result.total == 235
    assert terms(result) == [(1, 200), (1, 34), (1, 1)]


def test_2023_with_tma_is_200():
    result = worked_example("2023", tensor_cores=True, tma=True)
    assert result.total == 200
    assert terms(result) == [(1, 165), (1, 34), (1, 1)]  # 200 − 34 − 1 = 165 exposed
    assert any("only Hopper and Blackwell" in n for n in result.notes)


def test_2020_edition_is_392_and_221():
    assert terms(worked_example("2020", False)) == [(1, 200), (8, 20), (8, 4)]
    assert worked_example("2020", False).total == 392
    assert worked_example("2020", True).total == 221


def test_2020_has_no_tma_example():
    with pytest.raises(ValueError, match="no TMA example"):
        worked_example("2020", True, tma=True)


def test_tensor_core_speedup():
    assert tensor_core_speedup("2023") == pytest.approx(504 / 235)


def test_general_model_scales_with_size_and_parallelism():
    table = worked_example("2023", True).latencies
    bigger = tile_cycles(table, size=64, tensor_cores=False)
    assert bigger.total > 504
    assert tile_cycles(table, size=32, sms=16, tensor_cores=False).total < 504
    assert bigger.share("FFMA") + bigger.share("shared memory access") + bigger.share(
        "L2 → shared load"
    ) == pytest.approx(1.0)


def test_general_model_rejects_nonsense():
    with pytest.raises(ValueError):
        tile_cycles(worked_example("2023", True).latencies, sms=0)
