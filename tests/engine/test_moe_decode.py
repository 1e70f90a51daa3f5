"""The share of the dense decode estimate MoE models reach (engine/moe_decode.py), from published runs."""

from __future__ import annotations

import statistics

import pytest

from engine.canrun import decode_speed
from engine.catalog import load_catalog
from engine.model_specs import load_model_catalog
from engine.moe_decode import moe_decode_share, moe_rows, ratios


def test_every_run_is_a_known_moe_model_on_a_known_card_with_its_source() -> None:
    rows = moe_rows()
    assert len(rows) >= 20 and len({r.gpu for r in rows}) >= 8
    for row in rows:
        assert load_model_catalog().get(row.model).active_params_b is not None  # an MoE
        load_catalog().get(row.gpu)
        assert row.source.startswith("https://") and row.tg > 0


def test_the_share_is_the_median_of_measured_over_estimated() -> None:
    found = ratios()
    share = moe_decode_share()
    assert share.rows == len(found) == len(moe_rows())
    assert share.point == pytest.approx(statistics.median(found))
    assert share.low < share.point < share.high
    assert 0.6 < share.point < 1.0  # routed experts reach less than a dense model's weights, not far less


def test_an_moe_estimate_is_scaled_by_the_share_and_a_dense_one_is_not() -> None:
    # Qwen3 30B-A3B at Q4_K_M on a 3090 (3.3B active): the dense bandwidth estimate times the share
    share = moe_decode_share().point
    moe = decode_speed("qwen3-30b-a3b", "rtx-3090", "q4_k_m")
    raw = decode_speed("qwen3-30b-a3b", "rtx-3090", "q4_k_m", moe_share=False)
    assert moe.low == pytest.approx(raw.low * share) and moe.high == pytest.approx(raw.high * share)
    assert "canrun.basis.decode_moe" in moe.basis.all_keys()
    dense = decode_speed("llama-3.1-8b", "rtx-3090", "q4_k_m")
    assert dense == decode_speed("llama-3.1-8b", "rtx-3090", "q4_k_m", moe_share=False)
    assert "canrun.basis.decode_moe" not in dense.basis.all_keys()
