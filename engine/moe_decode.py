"""How much of a dense model's decode speed an MoE model's routed experts reach.

A dense model reads every weight each token in a few large matrix products; an MoE model reads only the
experts its router picks, as many smaller products over scattered memory, plus the routing itself. So at
the same bytes per token an MoE decodes slower than the bandwidth estimate fitted on dense models
(engine.calibration) says. ``data/measurements/moe_decode.yaml`` holds published batch-1 runs of MoE models
fully in GPU memory; each is set against the engine's own dense estimate for that card, model and
precision, and the median of measured / estimated (with its 10th-90th percentiles) is the share an MoE
estimate is given (engine.canrun.decode_speed). Made once per process.
"""

from __future__ import annotations

from functools import cache

from pydantic import BaseModel, ConfigDict

from engine.calibration import MeasuredShare, measured_share
from engine.datafiles import data_dir, read_yaml, validate_entries


class MoeDecodeRow(BaseModel):
    """One published run: ``tg`` tokens/s of ``model`` at ``precision`` on ``gpu`` with ``backend``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    gpu: str
    backend: str
    model: str
    precision: str
    tg: float
    source: str
    note: str | None = None


def moe_rows() -> tuple[MoeDecodeRow, ...]:
    path = data_dir() / "measurements" / "moe_decode.yaml"
    return tuple(validate_entries(path, read_yaml(path)["rows"], MoeDecodeRow, key="model"))


def ratios() -> tuple[float, ...]:
    """Each run's tokens/s over the middle of the engine's dense estimate for it (context of a benchmark's
    512 tokens; the MoE share itself left out, so the figure does not feed on itself)."""
    from engine.canrun import decode_speed

    out = []
    for row in moe_rows():
        estimate = decode_speed(row.model, row.gpu, row.precision, context=512, moe_share=False)
        if estimate is not None:
            out.append(row.tg / ((estimate.low + estimate.high) / 2))
    return tuple(out)


@cache
def moe_decode_share() -> MeasuredShare:
    """Measured / estimated decode over the published MoE runs."""
    return measured_share(list(ratios()))
