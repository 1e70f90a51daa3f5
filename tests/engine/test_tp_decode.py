"""Tensor-parallel decode against published single-stream runs (engine/tp_decode.py, measurements/tp_decode.yaml)."""

from __future__ import annotations

import statistics
from pathlib import Path

import pytest

from bot.words import english
from engine.canrun import decode_speed, inference_split
from engine.catalog import load_catalog
from engine.datafiles import DataError
from engine.memory import PRECISIONS
from engine.model_specs import load_model_catalog
from engine.tp_decode import MIN_CARD_ROWS, ratio, ratios, tp_decode_factor, tp_precisions, tp_rows


def _mid(low: float, high: float) -> float:
    return (low + high) / 2


def test_every_run_is_a_known_model_on_linked_cards_with_its_source() -> None:
    rows = tp_rows()
    sources = {r.source.split("/blob/")[0] for r in rows}
    assert len(rows) >= 12 and len(sources) >= 3
    assert len({r.id for r in rows}) == len(rows)
    for row in rows:
        gpu = load_catalog().get(row.gpu)
        load_model_catalog().get(row.model)
        assert row.precision in PRECISIONS
        assert inference_split(gpu, row.count) == "tensor"  # the setups the factor is applied to
        assert row.source.startswith("https://") and row.tokens_per_s > 0
        assert row.prompt <= row.generated  # decode, not prefill, is most of the figure
    assert tp_precisions() == {"bf16", "fp16", "fp8", "int8", "awq-4bit", "gptq-4bit"}


def test_a_ratio_is_measured_over_the_middle_of_the_unscaled_estimate() -> None:
    # Qwen3-235B-A22B BF16 on 8× H20 (SGLang, 1-token prompt, 2,048 out): the engine's tensor-parallel formula at
    # the middle context 1 + 1,024 gives 99.6-152.7 tokens/s (MoE share applied); 74.5 / 126.2 = 0.59.
    row = next(r for r in tp_rows() if r.id == "qwen3-235b-a22b/h20x8/bf16")
    raw = decode_speed(row.model, row.gpu, row.precision, context=1025, gpus=8, tp_factor=False)
    assert raw is not None
    assert 99 < raw.low < 100 and 152 < raw.high < 153
    assert ratio(row) == pytest.approx(74.5 / _mid(raw.low, raw.high))
    assert ratio(row) == pytest.approx(0.59, abs=0.01)


def test_the_factor_is_the_cards_own_median_else_all_runs() -> None:
    found = ratios()
    assert len(found) == len(tp_rows()) == 27
    # H20: two runs (Qwen3-235B-A22B BF16 TP8 0.59, FP8 TP4 0.57) → 0.58
    h20 = tp_decode_factor("h20")
    assert h20.on_card and h20.rows == 2 >= MIN_CARD_ROWS
    assert h20.point == pytest.approx(statistics.median(r for card, r in found if card == "h20"))
    assert h20.point == pytest.approx(0.58, abs=0.01)
    # A100 80GB SXM: 24 runs (vLLM, gpt-fast, LMDeploy) → 1.31, 10th-90th percentile 0.88-1.60
    a100 = tp_decode_factor("a100-80gb-sxm")
    assert a100.on_card and a100.rows == 24
    assert a100.point == pytest.approx(1.31, abs=0.01)
    assert a100.low == pytest.approx(0.88, abs=0.01) and a100.high == pytest.approx(1.60, abs=0.01)
    # H100 SXM has one run (NIM, 1.41), fewer than MIN_CARD_ROWS: all 27 runs on 3 cards → 1.31 (0.74-1.60)
    h100 = tp_decode_factor("h100-sxm")
    assert not h100.on_card and h100.rows == 27 and h100.cards == 3
    assert h100.point == pytest.approx(statistics.median(r for _, r in found))
    assert h100.point == pytest.approx(1.31, abs=0.01)
    assert h100.low == pytest.approx(0.74, abs=0.01) and h100.high == pytest.approx(1.60, abs=0.01)
    assert tp_decode_factor("h200") == h100  # no runs on it
    # …for a dense model: a large MoE model on a card without runs gets no factor (H20's MoE runs reach 0.6×,
    # dense runs elsewhere 1.3×): DeepSeek-R1 FP8 on 8× H200 keeps the estimate (129.9-201.9), not × 1.33
    assert tp_decode_factor("h200", moe=True) is None
    assert tp_decode_factor("h20", moe=True) == h20
    r1 = decode_speed("deepseek-r1", "h200", "fp8", gpus=8)
    assert r1 == decode_speed("deepseek-r1", "h200", "fp8", gpus=8, tp_factor=False)


def test_qwen3_235b_on_8_h20_now_brackets_the_published_run() -> None:
    """74.5 tokens/s published (SGLang, BF16, TP8). Before: 99.6-152.7, its low end 34 % above the run. After:
    × 0.58 → 57.8-88.5, which brackets it (the midpoint 73.1 is 2 % below). The H20 factor is fitted on this run
    and the FP8 TP4 one, so this is a check of the arithmetic, not a held-out test."""
    before = decode_speed("qwen3-235b-a22b", "h20", "bf16", context=1025, gpus=8, tp_factor=False)
    after = decode_speed("qwen3-235b-a22b", "h20", "bf16", context=1025, gpus=8)
    assert before is not None and after is not None
    assert before.low > 74.5 * 1.25
    assert after.low == pytest.approx(before.low * tp_decode_factor("h20").point)
    assert after.high == pytest.approx(before.high * tp_decode_factor("h20").point)
    assert after.low < 74.5 < after.high
    assert 57.5 < after.low < 58 and 88 < after.high < 89
    assert abs(_mid(after.low, after.high) / 74.5 - 1) < 0.03
    assert "canrun.basis.decode_tp_card" in after.basis.all_keys()
    assert "× 0.58" in english(after.basis) and "2 published single-stream tensor-parallel runs" in english(after.basis)
    # DeepSeek-V3 FP8 on 8× H20 at the default 8K context: 74.3-109.3 after
    ds = decode_speed("deepseek-v3", "h20", "fp8", gpus=8)
    assert ds is not None and 74 < ds.low < 74.5 and 109 < ds.high < 109.5


def test_a_card_without_its_own_runs_takes_all_runs_factor() -> None:
    # Llama 3.3 70B FP8 on 2× H100 SXM (NIM measured 52.85 tokens/s): 32.4-43.3 before, × 1.31 → 42.4-56.7
    before = decode_speed("llama-3.3-70b", "h100-sxm", "fp8", context=1500, gpus=2, tp_factor=False)
    after = decode_speed("llama-3.3-70b", "h100-sxm", "fp8", context=1500, gpus=2)
    assert before is not None and after is not None
    assert before.high < 52.85 and after.low < 52.85 < after.high
    assert after.high == pytest.approx(before.high * tp_decode_factor("h100-sxm").point)
    assert "canrun.basis.decode_tp_all" in after.basis.all_keys()
    assert "27 published single-stream tensor-parallel runs on 3 kinds of card" in english(after.basis)


@pytest.mark.parametrize(
    ("model", "gpu", "precision", "gpus", "split"),
    [
        ("llama-3.1-70b", "h100-sxm", "fp8", 1, "tensor"),  # one card
        ("qwen3-30b-a3b", "h20", "bf16", 1, "tensor"),  # one card, an MoE
        ("llama-3.1-70b", "h100-sxm", "bf16", 2, "pipeline"),  # a layer split
        ("llama-3.3-70b", "rtx-3090", "q4_k_m", 2, "pipeline"),  # a desktop pair, llama.cpp's default
        ("llama-3.3-70b", "rtx-3090", "awq-4bit", 2, "tensor"),  # a desktop pair's TP alternative: none measured
        ("llama-3.3-70b", "v100-32gb", "q6_k", 2, "tensor"),  # GGUF split over cards: none measured
    ],
)
def test_single_card_layer_split_and_unmeasured_setups_are_unchanged(
    model: str, gpu: str, precision: str, gpus: int, split: str
) -> None:
    scaled = decode_speed(model, gpu, precision, gpus=gpus, split=split)  # type: ignore[arg-type]
    plain = decode_speed(model, gpu, precision, gpus=gpus, split=split, tp_factor=False)  # type: ignore[arg-type]
    assert scaled == plain
    assert scaled is not None and not {"canrun.basis.decode_tp_card", "canrun.basis.decode_tp_all"} & set(
        scaled.basis.all_keys()
    )


def test_a_bad_row_is_named_with_its_file_and_entry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "measurements").mkdir()
    (tmp_path / "measurements" / "tp_decode.yaml").write_text(
        "rows:\n"
        "  - {id: llama-2-70b/a100x9/bf16, gpu: a100-80gb-sxm, count: 9, model: llama-2-70b, precision: bf16,"
        " backend: gpt-fast, prompt: 5, generated: 200, tokens_per_s: 62.5, source: 'https://example.org'}\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("GPU_ADVISOR_DATA", str(tmp_path))
    with pytest.raises(DataError, match=r"tp_decode\.yaml: entry 'llama-2-70b/a100x9/bf16': field 'count'"):
        tp_rows()
