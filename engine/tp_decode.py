"""How far published tensor-parallel decode runs are from the engine's tensor-parallel estimate.

``engine.canrun.decode_speed`` estimates several cards in tensor parallel as one card reading 1/n of the bytes at the
single-card calibration (fitted on llama.cpp-class runs of one card) plus two all-reduces per layer. Tensor-parallel
runs are made with other backends (vLLM, SGLang, TensorRT-LLM, LMDeploy, gpt-fast) and their cost per step is not
only bandwidth, so that estimate is off in a way one card's fit cannot say: published batch-1 runs on A100s reach
~1.3× it, Qwen3-235B-A22B on H20s ~0.6× (an H20 alone already reaches less of its bandwidth than the fit says).
``data/measurements/tp_decode.yaml`` holds those runs; each is set against the engine's own estimate for the same
card, count, model and precision at the run's middle context, and the median of measured / estimated (with its
10th-90th percentiles) is the factor a tensor-parallel estimate is given: over the runs on that card where there
are at least ``MIN_CARD_ROWS``, else over all runs (a dense model only). Made once per process.
"""

from __future__ import annotations

import datetime as dt
from functools import cache

from pydantic import BaseModel, ConfigDict, Field

from engine.calibration import MeasuredShare, measured_share
from engine.datafiles import data_dir, read_yaml, validate_entries

# A card's own runs set its factor only when there are at least this many; one run could be one backend's quirk.
MIN_CARD_ROWS = 2


class TpDecodeRow(BaseModel):
    """One published run: ``tokens_per_s`` of ``model`` at ``precision`` on ``count`` × ``gpu`` in tensor parallel."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    gpu: str
    count: int = Field(ge=2, le=8)
    model: str
    precision: str
    backend: str
    prompt: int = Field(ge=1)
    generated: int = Field(ge=1)
    tokens_per_s: float = Field(gt=0)
    source: str
    date: dt.date | None = None
    note: str | None = None

    @property
    def context(self) -> int:
        """The run's middle context, where its average step is: the prompt plus half the output."""
        return self.prompt + self.generated // 2


class TpDecodeFactor(MeasuredShare):
    """Measured / estimated tensor-parallel decode over ``rows`` runs on ``cards`` kinds of card: the median and
    its 10th-90th percentiles. ``on_card``: the runs are the asked card's own, not all of them."""

    cards: int
    on_card: bool


def tp_rows() -> tuple[TpDecodeRow, ...]:
    path = data_dir() / "measurements" / "tp_decode.yaml"
    return tuple(validate_entries(path, read_yaml(path)["rows"], TpDecodeRow, key="id"))


def ratio(row: TpDecodeRow) -> float:
    """A run's tokens/s over the middle of the engine's tensor-parallel estimate for it (MoE share applied, the
    tensor-parallel factor itself left out, so the figure does not feed on itself)."""
    from engine.canrun import decode_speed

    estimate = decode_speed(
        row.model, row.gpu, row.precision, context=row.context, gpus=row.count, split="tensor", tp_factor=False
    )
    if estimate is None:
        raise ValueError(f"tp_decode.yaml: entry {row.id!r}: the engine has no decode estimate for it")
    return row.tokens_per_s / ((estimate.low + estimate.high) / 2)


@cache
def ratios() -> tuple[tuple[str, float], ...]:
    """(card, measured / estimated) for every run, in file order."""
    return tuple((row.gpu, ratio(row)) for row in tp_rows())


def summarize(found: list[float], cards: int, on_card: bool) -> TpDecodeFactor:
    return TpDecodeFactor(**measured_share(found).model_dump(), cards=cards, on_card=on_card)


@cache
def tp_precisions() -> frozenset[str]:
    """The precisions the runs were made at (16-bit, FP8, INT8, AWQ, GPTQ): the formats tensor-parallel backends
    serve. A GGUF or MLX model split over cards is llama.cpp's or MLX's, which no run here measured."""
    return frozenset(row.precision for row in tp_rows())


@cache
def tp_decode_factor(gpu_id: str, moe: bool = False) -> TpDecodeFactor | None:
    """The factor for a tensor-parallel estimate on ``gpu_id``: its own runs' median where it has
    ``MIN_CARD_ROWS`` of them (the runs disagree by card more than by GPU count or model), else all runs' — for a
    dense model only. A large MoE model on a card without runs gets none (None): the one card with such runs (the
    H20, Qwen3-235B-A22B) reaches 0.6× the estimate where dense runs elsewhere reach 1.3×, so all runs' median
    would push DeepSeek-V3 on eight H200s further up, not down."""
    found = ratios()
    own = [r for card, r in found if card == gpu_id]
    if len(own) >= MIN_CARD_ROWS:
        return summarize(own, cards=1, on_card=True)
    if moe:
        return None
    return summarize([r for _, r in found], cards=len({card for card, _ in found}), on_card=False)
