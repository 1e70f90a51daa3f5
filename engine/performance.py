"""The guide's performance model: how fast one GPU is relative to another, and why.

Between Tensor-Core GPUs, memory bandwidth is the best single predictor (guide §3). On top of it
sit the architecture factors the guide names — larger shared memory and better Tensor Cores
(Ampere over Volta), a large L2 cache (Ada), TMA (Hopper), FP8 for 8-bit inference — and one
ceiling the guide implies: a card whose Tensor Cores (or FP32 units) cannot keep up with its
memory stops being bandwidth-bound. Every estimate carries its factors, so an answer can say
where a number came from.

Units: a model "speed" is effective gigabytes per second of 16-bit data; only ratios matter.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict

from engine.catalog import Catalog, load_catalog
from engine.cycles import worked_example
from engine.message import Msg, msg
from engine.specs import WORKLOADS, Architecture, Gpu, Workload

# Large L2 (guide §3, Ada): matmul inputs stay in L2, so matmuls run 1.5-2.0x faster; we take the
# midpoint on the half of the step time that is matmul. Cards with at least LARGE_L2_MB qualify
# (Ada's 48-96 MB, Hopper's 50 MB, Blackwell's). The A100's 40 MB does not: the guide's debiased
# A100/V100 transformer speed-up (1.70) sits at the bandwidth ratio (1.73), showing no such gain.
LARGE_L2_MB = 48.0
L2_MATMUL_SPEEDUP = 1.75
MATMUL_TIME_SHARE = 0.5

# 8-bit inference (guide §5): FP8 moves twice the elements per byte; Int8 on GPUs without FP8
# "performs about like 16-bit inference".
FP8_SPEEDUP = 2.0

# The compute ceiling. The guide puts Tensor Core utilisation at 45-65 % in GPT-3-scale training on
# an A100 that is otherwise bandwidth-bound; at the low end that means 16-bit work needs about
#   0.45 × 312 TFLOPS / (1555 GB/s × 1.03 × 1.01 × L2 gain 1.27) ≈ 68 flop per effective byte.
# A card with fewer FLOPS per byte than that is compute-bound: GeForce cards with half-rate FP32
# accumulate and small memory buses, and cards without Tensor Cores (FP32 units only).
FLOP_PER_BYTE = 68.0

# Multi-GPU (guide §4): 1→8 A100 with NVLink 3 = 7.00x; we apply the same loss per doubling
# (7/8)^(1/3) ≈ 0.957 to any count. PCIe-only consumer builds may lose another 5-10 % at 4 GPUs.
EIGHT_GPU_SPEEDUP = 7.0

SOURCE = "Guide 2020 §'Ampere speed, theoretical estimate' and 2023 §caches/TMA/FP8; see docs/models.md"


@dataclass(frozen=True, slots=True)
class Factor:
    """One multiplicative term of a speed estimate: what it is, its value, and why that value.

    A slotted dataclass, not a pydantic model: every remembered speed estimate holds several
    (issue #24), and a model's instance dict and field set were most of each one's size."""

    name: Msg
    value: float
    basis: Msg


@dataclass(frozen=True, slots=True, kw_only=True)
class SpeedEstimate:
    """One GPU's modelled speed for a workload, as a product of named factors (or a ceiling).

    A slotted dataclass, not a pydantic model (issue #24): one is remembered for every card and
    workload (``estimate_of``), and a model's instance dict and field set were half of each one's
    size. Built here only, from floats; the models that hold one (``RelativeSpeed``) pass it through."""

    gpu_id: str
    workload: Workload
    speed: float
    bound: Literal["bandwidth", "compute"]
    factors: tuple[Factor, ...]
    compute_ceiling: float | None
    notes: tuple[Msg, ...] = ()
    source: str = SOURCE
    # Measured data's correction of the guide's figure (16-bit training and inference; engine.calibration), or
    # None where no measurement speaks for this card: the figure is then the guide's model alone. For training
    # it is reported beside the guide's speed; for 16-bit inference ``speed`` already includes it.
    measured_correction: float | None = None


class RelativeSpeed(BaseModel):
    model_config = ConfigDict(frozen=True)

    gpu: SpeedEstimate
    reference: SpeedEstimate
    ratio: float
    gpu_count: int = 1
    reference_count: int = 1
    scaling_efficiency: tuple[float, float] = (1.0, 1.0)


def l2_gain() -> float:
    """Speed-up of the whole step when matmuls (half of it) run 1.75x faster from a large L2."""
    return 1.0 / ((1 - MATMUL_TIME_SHARE) + MATMUL_TIME_SHARE / L2_MATMUL_SPEEDUP)


@cache
def tma_cycles() -> tuple[int, int]:
    """Cycles of the guide's Tensor Core tile without and with TMA (235, 200)."""
    return worked_example("2023", True).total, worked_example("2023", True, tma=True).total


def tma_gain() -> float:
    """Speed-up of the whole step from TMA, taken from the cycle model (235 → 200 cycles per tile)."""
    without, with_tma = tma_cycles()
    return 1.0 / ((1 - MATMUL_TIME_SHARE) + MATMUL_TIME_SHARE * with_tma / without)


def compute_tflops(gpu: Gpu, workload: Workload) -> float | None:
    """The dense throughput a workload can use: FP32-accumulate Tensor math for training,
    FP16-accumulate for 16-bit inference, FP8/INT8 for 8-bit; FP32 units where there are no Tensor Cores."""
    if not gpu.has_tensor_cores:
        return gpu.fp32_tflops
    if workload == "train16":
        return gpu.fp16_tensor_tflops
    infer16 = gpu.fp16_tensor_tflops_fp16acc or gpu.fp16_tensor_tflops
    if workload == "infer16":
        return infer16
    eight_bit = gpu.fp8_tensor_tflops or gpu.int8_tensor_tops
    return eight_bit if eight_bit else infer16


def estimate(gpu: Gpu, workload: Workload, catalog: Catalog | None = None) -> SpeedEstimate:
    """The model's speed for one GPU and workload, with every factor that went into it, and — for
    16-bit training and inference — whether measured data corrects the guide's figure
    (``measured_correction``; for inference the speed includes it, for training it is reported beside)."""
    if workload not in WORKLOADS:
        raise ValueError(f"workload must be one of {', '.join(WORKLOADS)}, not {workload!r}")
    if workload == "decode":
        return _decode_estimate(gpu)
    est = guide_estimate(gpu, workload, catalog)
    if workload == "infer16":
        return _inference_calibrated(est)
    if workload != "train16":
        return est
    from engine.calibration import training_correction

    correction = training_correction(gpu.id)
    note = (
        _said("perf.note.guide_only")
        if correction is None
        else msg("perf.note.measured_training", correction=correction, reference="RTX 3090")
    )
    return replace(est, notes=(*est.notes, note), measured_correction=correction)


def _inference_calibrated(est: SpeedEstimate) -> SpeedEstimate:
    """16-bit inference (image generation) corrected by published Stable Diffusion runs (engine.calibration,
    docs/models.md §8.4). Unlike training, whose correction is only reported beside the guide's figure, the
    corrected figure is the speed itself: every answer that ranks or compares cards for image generation
    uses it. Architectures no run measured keep the guide's figure and say so."""
    from engine.calibration import inference_correction

    correction = inference_correction(est.gpu_id)
    if correction is None:
        return replace(est, notes=(*est.notes, _said("perf.note.guide_only")))
    basis = msg("perf.basis.measured_inference", correction=correction, reference="RTX 3090")
    return replace(
        est,
        speed=est.speed * correction,
        factors=(*est.factors, _factor("measured_inference", correction, basis)),
        notes=(*est.notes, msg("perf.note.measured_inference", correction=correction, reference="RTX 3090")),
        measured_correction=correction,
    )


def guide_estimate(gpu: Gpu, workload: Workload, catalog: Catalog | None = None) -> SpeedEstimate:
    """The guide's model alone (no measured correction) for one of its three workloads."""
    arch = (catalog or load_catalog()).architectures[gpu.architecture]
    factors = [_factor("bandwidth", gpu.bandwidth_gbs, _said("perf.basis.bandwidth", gbs=gpu.bandwidth_gbs))]
    notes: list[Msg] = []
    if gpu.has_tensor_cores:
        factors += _architecture_factors(arch)
    else:
        notes.append(_said("perf.note.no_tensor_cores"))
    if gpu.l2_mb is not None and gpu.l2_mb >= LARGE_L2_MB:
        basis = _said("perf.basis.large_l2", l2_mb=gpu.l2_mb, speedup=L2_MATMUL_SPEEDUP)
        factors.append(_factor("large_l2", l2_gain(), basis))
    if workload == "train16" and arch.features.tma:
        without, with_tma = tma_cycles()
        factors.append(_factor("tma", tma_gain(), _said("perf.basis.tma", without=without, with_tma=with_tma)))
    if workload == "infer8":
        if arch.features.fp8 and gpu.has_tensor_cores:
            factors.append(_factor("fp8", FP8_SPEEDUP, _said("perf.basis.fp8")))
        else:
            notes.append(_said("perf.note.no_fp8"))
    if gpu.half_rate_fp32_accumulate and workload == "train16":
        notes.append(_said("perf.note.half_rate_accumulate"))

    bandwidth_bound = math.prod(f.value for f in factors)
    tflops = compute_tflops(gpu, workload)
    ceiling = tflops * 1000.0 / FLOP_PER_BYTE if tflops else None
    bound: Literal["bandwidth", "compute"]
    if ceiling is not None and ceiling < bandwidth_bound:
        speed, bound = ceiling, "compute"
        notes.append(
            msg(
                "perf.note.compute_bound",
                tflops=tflops,
                ceiling=ceiling,
                bandwidth_bound=bandwidth_bound,
                flop_per_byte=FLOP_PER_BYTE,
            )
        )
    else:
        speed, bound = bandwidth_bound, "bandwidth"
    if tflops is None:
        notes.append(_said("perf.note.compute_unknown"))
    if gpu.vendor == "amd":
        notes.append(_said("perf.note.amd"))
    return SpeedEstimate(
        gpu_id=gpu.id,
        workload=workload,
        speed=speed,
        bound=bound,
        factors=tuple(factors),
        compute_ceiling=ceiling,
        notes=tuple(notes),
    )


# Batch-1 decode (local LLM chat) is bound by memory bandwidth: each token reads every weight once.
# Its speed is the bandwidth the card's usual backend reaches on a 4-bit model (engine.calibration,
# fitted on published llama.cpp / MLX / ExLlama runs), in effective GB/s like the other workloads.
DECODE_PRECISION = "q4_k_m"
DECODE_FALLBACK_FRACTION = 0.7  # no measurement for the backend: the middle of 60-80 %
DECODE_FLOP_PER_BYTE = 2 / (4.84 / 8)
DECODE_SOURCE = (
    "Batch-1 decode: bandwidth × the share published llama.cpp/MLX/ExLlama runs reach "
    "(data/measurements/decode.yaml); see docs/models.md"
)


def _decode_estimate(gpu: Gpu) -> SpeedEstimate:
    from engine.calibration import decode_calibration

    cal = decode_calibration(gpu, DECODE_PRECISION)
    factors = [_factor("bandwidth", gpu.bandwidth_gbs, _said("perf.basis.bandwidth", gbs=gpu.bandwidth_gbs))]
    if cal is None:
        basis = _said("perf.basis.decode_fallback", fraction=DECODE_FALLBACK_FRACTION)
        factors.append(_factor("decode_efficiency", DECODE_FALLBACK_FRACTION, basis))
        notes: tuple[Msg, ...] = (_said("perf.note.guide_only"),)
    else:
        basis = msg("perf.basis.decode_measured", backend=cal.backend, fraction=cal.fraction, rows=cal.rows)
        factors.append(_factor("decode_efficiency", cal.fraction, basis))
        notes = (msg("perf.note.measured_decode", backend=cal.backend, rows=cal.rows),)
    # A batch-1 token does 2 flop per weight: at 4.84 bits per weight, ~3.3 flop per byte, far below the
    # ridge of any card, so the ceiling is reported but never binds.
    tflops = compute_tflops(gpu, "infer16")
    ceiling = tflops * 1000.0 / DECODE_FLOP_PER_BYTE if tflops else None
    if tflops is None:
        notes = (*notes, _said("perf.note.compute_unknown"))
    if gpu.vendor == "amd":
        notes = (*notes, _said("perf.note.amd"))
    bandwidth_bound = math.prod(f.value for f in factors)
    return SpeedEstimate(
        gpu_id=gpu.id,
        workload="decode",
        speed=min(bandwidth_bound, ceiling) if ceiling else bandwidth_bound,
        bound="compute" if ceiling and ceiling < bandwidth_bound else "bandwidth",
        factors=tuple(factors),
        compute_ceiling=ceiling,
        notes=notes,
        source=DECODE_SOURCE,
    )


@lru_cache(maxsize=1024, typed=True)  # typed: 1555 and 1555.0 would read differently
def _said(key: str, /, **args: float) -> Msg:
    """One message object for each of the messages that recur from estimate to estimate (a factor's
    name, an architecture's reasons, a card's bandwidth in its four workloads, the notes without
    figures): every estimate is remembered (``estimate_of``), and its messages, each with a dict of
    its own, were most of its size (issue #24). Messages are never changed, so sharing one is safe."""
    return msg(key, **args)


def _factor(kind: str, value: float, basis: Msg) -> Factor:
    return Factor(name=_said(f"perf.factor.{kind}"), value=float(value), basis=basis)


def _architecture_factors(arch: Architecture) -> list[Factor]:
    """Shared-memory and Tensor Core gains; why each value was chosen is worded per architecture
    (``perf.basis.<factor>.<architecture id>``), since the reasons differ from one to the next."""
    return [
        _factor("shared_memory", arch.shared_memory_gain.value, _said(f"perf.basis.shared_memory.{arch.id}")),
        _factor("tensor_cores", arch.tensor_core_gain.value, _said(f"perf.basis.tensor_cores.{arch.id}")),
    ]


def scaling_efficiency(gpu_count: int) -> float:
    """Per-GPU efficiency of data-parallel training on ``gpu_count`` GPUs (1.0 for one)."""
    if gpu_count < 1:
        raise ValueError("gpu_count must be at least 1")
    per_doubling = (EIGHT_GPU_SPEEDUP / 8) ** (1 / 3)
    return float(per_doubling ** math.log2(gpu_count))


def count_factor(workload: Workload, gpu_count: int) -> float:
    """How many single cards' worth of speed ``gpu_count`` cards give: data-parallel scaling for the
    guide's workloads; 1 for batch-1 decode, whose layer split runs the cards one after another
    (each token still reads every weight once, at one card's bandwidth)."""
    if workload == "decode":
        if gpu_count < 1:
            raise ValueError("gpu_count must be at least 1")
        return 1.0
    return gpu_count * scaling_efficiency(gpu_count)


def throughput(gpu_id: str, workload: Workload, gpu_count: int = 1) -> float:
    """Modelled speed of ``gpu_count`` identical GPUs working together."""
    return speed(gpu_id, workload) * count_factor(workload, gpu_count)


@cache
def estimate_of(gpu_id: str, workload: Workload) -> SpeedEstimate:
    """:func:`estimate` for a catalog card, remembered (the catalog never changes while running)."""
    catalog = load_catalog()
    return estimate(catalog.get(gpu_id), workload, catalog)


def speed(gpu_id: str, workload: Workload) -> float:
    return estimate_of(gpu_id, workload).speed


def relative_speed(gpu_id: str, workload: Workload, reference: str = "rtx-3090") -> float:
    """How many times faster ``gpu_id`` is than ``reference`` for ``workload`` (public API)."""
    return speed(gpu_id, workload) / speed(reference, workload)


def compare(
    gpu_id: str, reference: str, workload: Workload, gpu_count: int = 1, reference_count: int = 1
) -> RelativeSpeed:
    """Relative speed with both breakdowns, for N of one card against M of another."""
    mine = estimate_of(gpu_id, workload)
    theirs = estimate_of(reference, workload)
    if workload == "decode":  # a layer split is no faster than one card
        eff = (1.0 / gpu_count, 1.0 / reference_count)
    else:
        eff = (scaling_efficiency(gpu_count), scaling_efficiency(reference_count))
    ratio = (mine.speed * gpu_count * eff[0]) / (theirs.speed * reference_count * eff[1])
    return RelativeSpeed(
        gpu=mine,
        reference=theirs,
        ratio=ratio,
        gpu_count=gpu_count,
        reference_count=reference_count,
        scaling_efficiency=eff,
    )


class SpeedupRange(BaseModel):
    model_config = ConfigDict(frozen=True)

    bandwidth_ratio: float
    low: float
    point: float
    high: float
    source: str


def theoretical_speedup(gpu_id: str, reference: str) -> SpeedupRange:
    """The guide's 2020 theoretical estimate: bandwidth ratio × shared-memory × Tensor Core gains,
    over the ranges the guide gives (A100 over V100: 1555/900 = 1.73 → 1.78-1.87)."""
    catalog = load_catalog()
    a, b = catalog.get(gpu_id), catalog.get(reference)
    arch_a, arch_b = catalog.architectures[a.architecture], catalog.architectures[b.architecture]
    bw = a.bandwidth_gbs / b.bandwidth_gbs

    def gains(arch: Architecture, end: str) -> float:
        out = 1.0
        for f in (arch.shared_memory_gain, arch.tensor_core_gain):
            out *= getattr(f, end) if getattr(f, end) is not None else f.value
        return out

    return SpeedupRange(
        bandwidth_ratio=bw,
        low=bw * gains(arch_a, "low") / gains(arch_b, "high"),
        point=bw * gains(arch_a, "value") / gains(arch_b, "value"),
        high=bw * gains(arch_a, "high") / gains(arch_b, "low"),
        source="Guide 2020, 'Ampere speed, theoretical estimate'",
    )


# ---- debiasing vendor benchmarks (guide §4) -------------------------------------------------

BATCH_DOUBLING_GAIN = 0.136
EIGHT_GPU_OVERHEAD = {"cnn": 0.05, "transformer": 0.07}


class Debiased(BaseModel):
    model_config = ConfigDict(frozen=True)

    reported: float
    batch_correction: float
    multi_gpu_correction: float
    debiased: float
    source: str = "Guide 2020, 'Ampere speed, practical estimate' (13.6 % per batch doubling; 5 %/7 % 8-GPU overhead)"


def debias(
    reported_speedup: float,
    *,
    batch_ratio: float = 1.0,
    eight_gpu: bool = False,
    network: Literal["cnn", "transformer"] = "transformer",
) -> Debiased:
    """Remove the two biases the guide finds in vendor A-vs-B benchmarks.

    ``batch_ratio`` is the new GPU's batch size over the old one's (each doubling adds 13.6 %
    throughput); ``eight_gpu`` says the figures come from 8-GPU systems whose newer interconnect has
    5 % (CNN) or 7 % (transformer) less parallelisation overhead.
    """
    if reported_speedup <= 0 or batch_ratio <= 0:
        raise ValueError("speed-up and batch ratio must be positive")
    batch = (1 + BATCH_DOUBLING_GAIN) ** math.log2(batch_ratio)
    multi = 1 + EIGHT_GPU_OVERHEAD[network] if eight_gpu else 1.0
    return Debiased(
        reported=reported_speedup,
        batch_correction=batch,
        multi_gpu_correction=multi,
        debiased=reported_speedup / batch / multi,
    )
