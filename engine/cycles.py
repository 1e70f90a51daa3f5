"""The guide's cycle model: how long a tiled matrix multiplication waits, term by term.

The guide's worked example (DIGEST §2) multiplies 32×32 matrices on 8 SMs with 8 warps each,
about a tenth of an RTX 3090, and counts cycles: one global→shared load, then either FFMA dot
products from shared memory or Tensor Core matmuls, optionally with the next tile's load
overlapped (TMA / asynchronous copy). :func:`tile_cycles` is that reasoning for any size, SM and
warp count and latency table; :func:`worked_example` is the guide's own case.
"""

from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.catalog import load_catalog
from engine.message import Msg, msg
from engine.specs import Latencies

Edition = Literal["2023", "2020"]
TermKind = Literal["load", "shared", "tensor_core", "ffma"]

THREADS_PER_WARP = 32
BYTES_PER_THREAD_LOAD = 4  # "one float per thread" (guide §2)
# The guide splits the 32×32 output over 64 warps as 8 sequential dot products per SM ("why it is
# exactly 8 ... is very technical"): 1,024 outputs / (64 warps × 8 steps) = 2 outputs per warp-step.
OUTPUTS_PER_WARP_STEP = 2
TENSOR_CORE_TILE = 4  # a Tensor Core multiplies 4×4 tiles in one cycle (guide §2)

SOURCE = {
    "2023": "Guide 2023 edition, 'matrix multiplication with and without Tensor Cores' worked example",
    "2020": "Guide 2020 edition, 'matrix multiplication with and without Tensor Cores' worked example",
}


class CycleTerm(BaseModel):
    """One step of a tile's work: ``kind`` says which, ``label`` says it to the user."""

    model_config = ConfigDict(frozen=True)

    kind: TermKind
    label: Msg
    count: int
    cycles_each: int
    total: int


class CycleBreakdown(BaseModel):
    """Where the cycles of one tile go; ``total`` is the sum of ``terms``."""

    model_config = ConfigDict(frozen=True)

    size: int
    sms: int
    warps_per_sm: int
    tensor_cores: bool
    tma: bool
    terms: tuple[CycleTerm, ...]
    total: int
    latencies: Latencies
    source: str
    notes: tuple[Msg, ...] = Field(default=())

    def share(self, kind: TermKind) -> float:
        """Fraction of the total spent in terms of ``kind``."""
        return sum(t.total for t in self.terms if t.kind == kind) / self.total


def tile_cycles(
    latencies: Latencies,
    *,
    size: int = 32,
    sms: int = 8,
    warps_per_sm: int = 8,
    tensor_cores: bool = True,
    tma: bool = False,
    source: str = "Guide cycle model, generalised",
) -> CycleBreakdown:
    """Cycles for one ``size``×``size`` tile multiply, split into load, shared-memory and math terms.

    Loads are sequential rounds of one 4-byte value per thread across all warps; the load uses the
    L2 figure where the table has one (as the 2023 text does) and global memory otherwise. With
    ``tma`` the next tile's load overlaps this tile's work, so the load only costs what the work
    does not hide.
    """
    if size <= 0 or sms <= 0 or warps_per_sm <= 0:
        raise ValueError("size, sms and warps_per_sm must be positive")
    threads = sms * warps_per_sm * THREADS_PER_WARP
    load_bytes = 2 * size * size * BYTES_PER_THREAD_LOAD  # A and B tiles
    load_rounds = math.ceil(load_bytes / (threads * BYTES_PER_THREAD_LOAD))
    load_latency = latencies.l2 if latencies.l2 is not None else latencies.global_memory
    load_label = msg("cycles.term.l2_load" if latencies.l2 is not None else "cycles.term.global_load")

    if tensor_cores:
        tile_ops = (math.ceil(size / TENSOR_CORE_TILE)) ** 2
        steps = math.ceil(tile_ops / (sms * warps_per_sm))
        work = [
            _term("shared", "cycles.term.shared_to_tensor_core", steps, latencies.shared),
            _term("tensor_core", "cycles.term.tensor_core_matmul", steps, latencies.tensor_core),
        ]
    else:
        steps = math.ceil(size * size / (sms * warps_per_sm * OUTPUTS_PER_WARP_STEP))
        work = [
            _term("shared", "cycles.term.shared_access", steps, latencies.shared),
            _term("ffma", "cycles.term.ffma", steps, latencies.ffma),
        ]

    work_cycles = sum(t.total for t in work)
    notes: list[Msg] = []
    if tma:
        exposed = max(load_latency - work_cycles, 0)
        load = CycleTerm(
            kind="load",
            label=msg("cycles.term.exposed_load", load=load_label),
            count=load_rounds,
            cycles_each=exposed,
            total=load_rounds * exposed,
        )
        notes.append(msg("cycles.note.tma_overlap", load=load_latency, work=work_cycles, exposed=exposed))
    else:
        load = CycleTerm(
            kind="load", label=load_label, count=load_rounds, cycles_each=load_latency, total=load_rounds * load_latency
        )
    terms = (load, *work)
    return CycleBreakdown(
        size=size,
        sms=sms,
        warps_per_sm=warps_per_sm,
        tensor_cores=tensor_cores,
        tma=tma,
        terms=terms,
        total=sum(t.total for t in terms),
        latencies=latencies,
        source=source,
        notes=tuple(notes),
    )


def _term(kind: TermKind, key: str, count: int, cycles_each: int) -> CycleTerm:
    return CycleTerm(kind=kind, label=msg(key), count=count, cycles_each=cycles_each, total=count * cycles_each)


def latency_table(architecture: str = "ampere", edition: Edition = "2023") -> Latencies:
    return load_catalog().architectures[architecture].latencies[edition]


def worked_example(edition: Edition, tensor_cores: bool, tma: bool = False) -> CycleBreakdown:
    """The guide's own example: 504 / 235 / 200 cycles (2023) and 392 / 221 cycles (2020).

    The 2020 edition predates TMA, so asking it for TMA is an error rather than a made-up figure.
    """
    if edition not in SOURCE:
        raise ValueError(f"edition must be '2023' or '2020', not {edition!r}")
    if tma and edition == "2020":
        raise ValueError("the 2020 edition has no TMA example (TMA arrived with Hopper in 2022)")
    if tma and not tensor_cores:
        raise ValueError("the guide's TMA example uses Tensor Cores")
    result = tile_cycles(latency_table("ampere", edition), tensor_cores=tensor_cores, tma=tma, source=SOURCE[edition])
    if tma:
        result = result.model_copy(update={"notes": (*result.notes, msg("cycles.note.tma_hardware"))})
    return result


def tensor_core_speedup(edition: Edition = "2023") -> float:
    """How much faster the example tile is with Tensor Cores than with FFMAs (504/235 in 2023)."""
    return worked_example(edition, False).total / worked_example(edition, True).total
