"""Calibration of the guide's models against published measurements (docs/models.md, "Calibration").

Three fits, each made once per process from the measurement files in ``data/measurements/``:

**16-bit training** (``training.yaml``: Lambda Labs' deeplearning-benchmark, one GPU, relative to an
RTX 3090). The guide's model is a roofline: the bandwidth-bound speed ``B`` (bandwidth × the
architecture, L2 and TMA factors) capped by the compute ceiling ``C = TFLOPS · 1000 / 68``. Measured
training is slower than the cap near the ridge — a step spends time on both — so the calibrated speed
adds the two times, with the compute share ``k`` fitted, and multiplies by an efficiency per
architecture (Tensor Core generation; Pascal and older for the non-Tensor-Core FP16/FP32 path):

    speed_cal(g) = e[arch(g)] / (1/B(g) + k/C(g))

``k`` and ``e`` (and one scale per measurement set) are least squares in log space; ``k`` by grid.
The correction shown with an answer is ``(speed_cal(g)/speed_cal(3090)) / (speed(g)/speed(3090))``:
how far the measurements move the guide's ratio. An architecture's factor applies to its cards of
the tier that was measured (data-centre or desktop/workstation), or to all its cards when two or
more of them were measured; elsewhere (AMD, Apple, Intel, RTX 50) the guide's figure stands alone.

**16-bit inference for image generation** (``diffusion_inference.yaml``: Stable Diffusion 1.x it/s — the
Hugging Face diffusers PyTorch 2.0 benchmark, OneDiff's PyTorch baseline, Tom's Hardware's RTX 4060 review,
and the medians of the crowd-submitted SD WebUI System Info benchmark runs; each set relative to its own
reference card). 33 rows on 25 cards, Pascal to Ada, so the fit is the simplest that explains them: the
guide's infer16 speed ``G`` (bandwidth × architecture factors × L2, capped by the FP16-accumulate ceiling)
times one efficiency per architecture, one scale per set, least squares in log space, ``e[ampere] = 1``:

    log(relative) = log G(g) + log e[arch(g)] + log s[set]

A compute share as in training (``1/B + k/C``) was tried and left out: it takes the median error from
0.068 to 0.061 at best, for a parameter more. The architecture factor alone misses compute-rich cards by
up to 36 % (RTX A4000, 2080 Ti, 3070 run faster than their bandwidth) and can move a measured card away
from its own runs (the RTX 2080 Ti: guide 0.63×, measured 0.64×, Turing's factor 0.47×), so a measured
card takes its own factor — the geometric mean of its rows over ``G · s[set]`` — and the architecture's
applies to the cards no run measured, by the training rule (tier measured, or two cards or more): Pascal,
Turing, Ampere and Ada everywhere; RTX 50, Hopper, AMD, Apple and Intel keep the guide's figure. Unlike
training, the corrected figure *is* the infer16 speed (engine.performance._inference_calibrated): the
guide's bandwidth model puts the RTX 3060 12GB ahead of the RTX 4060 Ti for image generation, which the
collected runs contradict for Ada against Ampere (the RTX 4060, 272 GB/s, beats the RTX 3060 12GB, 360
GB/s, by 6-9 %; the RTX 4070, 504 GB/s, ties the RTX 3080 10GB, 760 GB/s), and rankings should not carry
that.

**Decode** (``decode.yaml``: llama.cpp, MLX, ExLlama, MLC batch-1 decode). A token reads every
active weight once; kernels reach a fraction ``f`` of peak bandwidth that depends on the backend,
and each token pays a fixed launch/synchronisation cost ``t0``:

    seconds/token = bytes / (f[backend] · bandwidth) + t0

``t0`` is shared (grid), ``f`` per backend (median). The range quoted is the point scaled by the
10th-90th percentile of the fit's residuals (per backend when it has ≥ 6 rows, else all rows).
Rows marked ``held_out`` are not fitted; bench/calibration_eval.py reports them separately.
"""

from __future__ import annotations

import math
import statistics
from functools import cache, lru_cache
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from engine.catalog import load_catalog
from engine.datafiles import data_dir, read_yaml
from engine.memory import GB, get_precision
from engine.message import Frozen
from engine.specs import Gpu

REFERENCE = "rtx-3090"
COMPUTE_SHARES = tuple(round(0.05 * i, 2) for i in range(0, 21))  # k grid: 0 … 1
OVERHEADS_S = tuple(i * 1e-4 for i in range(0, 81))  # t0 grid: 0 … 8 ms
RANGE_QUANTILES = (0.1, 0.9)
MIN_ROWS_FOR_OWN_RANGE = 6
MIN_ROWS_FOR_OWN_OVERHEAD = 6
OWN_OVERHEAD_SPAN = 8.0
GIB = 1024**3
# Non-Tensor-Core NVIDIA architectures share Pascal's fitted efficiency (same FP32 path for AMP).
SAME_PATH = {"maxwell": "pascal", "kepler": "pascal"}


class TrainingRow(Frozen):
    set_id: str
    gpu: str
    relative: float
    source: str
    bert_large_seq_s: float | None = None
    resnet50_img_s: float | None = None


class DecodeRow(Frozen):
    gpu: str
    backend: str
    model: str
    params_b: float
    precision: str
    file_gib: float | None = None
    tg: float
    pp: float | None = None
    count: int = 1
    source: str
    held_out: bool = False
    note: str | None = None
    test: str | None = None

    @property
    def weight_bytes(self) -> float:
        if self.file_gib is not None:
            return self.file_gib * GIB
        return self.params_b * 1e9 * get_precision(self.precision).bits / 8


class TrainingFit(Frozen):
    compute_share: float
    efficiency: dict[str, float]
    measured_gpus: dict[str, tuple[str, ...]]
    set_scale: dict[str, float]


class DecodeFit(Frozen):
    overhead_s: float  # the per-token cost shared by groups whose runs are all of one size
    fraction: dict[str, float]
    spread: dict[str, tuple[float, float]]  # backend (or "all") → (low, high) multipliers
    # a group's own per-token cost, where its runs span model sizes enough to tell it from the bandwidth share
    group_overhead_s: dict[str, float] = Field(default_factory=dict)

    def overhead(self, group: str) -> float:
        return self.group_overhead_s.get(group, self.overhead_s)


# ---- loading --------------------------------------------------------------------------------


def _read(name: str) -> Any:
    return read_yaml(data_dir() / "measurements" / name)


@cache
def training_rows() -> tuple[TrainingRow, ...]:
    raw = _read("training.yaml")
    return tuple(
        TrainingRow(
            set_id=s["id"],
            gpu=r["gpu"],
            relative=float(r["relative"]),
            source=s["source"],
            bert_large_seq_s=r.get("bert_large_seq_s"),
            resnet50_img_s=r.get("resnet50_img_s"),
        )
        for s in raw["sets"]
        for r in s["rows"]
    )


@cache
def decode_rows() -> tuple[DecodeRow, ...]:
    return tuple(DecodeRow(**r) for r in _read("decode.yaml")["rows"])


# ---- 16-bit training --------------------------------------------------------------------------


def _roofline_parts(gpu: Gpu) -> tuple[float, float, str]:
    """(bandwidth-bound speed B, compute ceiling C, architecture id) from the guide's model."""
    from engine.performance import FLOP_PER_BYTE, guide_estimate

    est = guide_estimate(gpu, "train16")
    bandwidth_bound = math.prod(f.value for f in est.factors)
    tflops = gpu.fp16_tensor_tflops if gpu.has_tensor_cores else gpu.fp32_tflops
    ceiling = (tflops or 0.0) * 1000.0 / FLOP_PER_BYTE or math.inf
    return bandwidth_bound, ceiling, gpu.architecture


def _raw(gpu: Gpu, k: float) -> float:
    b, c, _ = _roofline_parts(gpu)
    return 1.0 / (1.0 / b + k / c)


def _least_squares(x: list[list[float]], y: list[float]) -> list[float]:
    """The ``b`` that minimises |x·b − y|²: the normal equations xᵀx·b = xᵀy, solved by Gauss-Jordan
    elimination with partial pivoting. ``x`` is a few dozen rows of 0/1 indicators (architecture,
    measurement set) of full column rank, condition number ≈5, so this agrees with an SVD solver
    (numpy's ``lstsq``, which the fit used before) to about 1e-15."""
    n = len(x[0])
    # xᵀx with xᵀy as an extra column
    m = [
        [sum(r[i] * r[j] for r in x) for j in range(n)] + [sum(r[i] * v for r, v in zip(x, y, strict=True))]
        for i in range(n)
    ]
    for c in range(n):
        pivot = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[pivot] = m[pivot], m[c]
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [a - f * b for a, b in zip(m[r], m[c], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def _solve_training(rows: tuple[TrainingRow, ...], k: float) -> tuple[dict[str, float], dict[str, float]]:
    """Least squares in log space: log(measured) = log(raw) + log e[arch] + log s[set], e[ampere] = 1."""
    catalog = load_catalog()
    archs = sorted({catalog.get(r.gpu).architecture for r in rows} - {"ampere"})
    sets = sorted({r.set_id for r in rows})
    x, y = [], []
    for r in rows:
        gpu = catalog.get(r.gpu)
        x.append([float(gpu.architecture == a) for a in archs] + [float(r.set_id == s) for s in sets])
        y.append(math.log(r.relative) - math.log(_raw(gpu, k)))
    sol = _least_squares(x, y)
    eff = {a: float(math.exp(v)) for a, v in zip(archs, sol[: len(archs)], strict=True)}
    eff["ampere"] = 1.0
    scale = {s: float(math.exp(v)) for s, v in zip(sets, sol[len(archs) :], strict=True)}
    return eff, scale


@cache
def guide_ratio(gpu_id: str, reference: str = REFERENCE) -> float:
    """The guide's own 16-bit training ratio (engine.performance without any correction)."""
    from engine.performance import guide_estimate

    catalog = load_catalog()
    return (
        guide_estimate(catalog.get(gpu_id), "train16").speed / guide_estimate(catalog.get(reference), "train16").speed
    )


def training_errors(rows: tuple[TrainingRow, ...], fit: TrainingFit | None) -> list[float]:
    """log(predicted / measured) of each row's ratio to the RTX 3090 (the guide's model when ``fit`` is None)."""
    out = []
    for r in rows:
        if r.gpu == REFERENCE:
            continue
        predicted = guide_ratio(r.gpu) if fit is None else calibrated_ratio(r.gpu, fit)
        out.append(math.log(predicted / r.relative))
    return out


def fit_training(rows: tuple[TrainingRow, ...] | None = None) -> TrainingFit:
    rows = rows if rows is not None else training_rows()
    catalog = load_catalog()
    best: tuple[float, TrainingFit] | None = None
    for k in COMPUTE_SHARES:
        eff, scale = _solve_training(rows, k)
        measured: dict[str, set[str]] = {}
        for r in rows:
            measured.setdefault(catalog.get(r.gpu).architecture, set()).add(r.gpu)
        fit = TrainingFit(
            compute_share=k,
            efficiency=eff,
            measured_gpus={a: tuple(sorted(g)) for a, g in measured.items()},
            set_scale=scale,
        )
        err = statistics.median(map(abs, training_errors(rows, fit)))
        if best is None or err < best[0] - 1e-12:
            best = (err, fit)
    assert best is not None
    return best[1]


@cache
def training_fit() -> TrainingFit:
    return fit_training()


@cache
def training_spread() -> tuple[float, float]:
    """The calibrated training ratio's 10th-90th percentile residual, as multipliers (measured/predicted)."""
    errors = training_errors(training_rows(), training_fit())
    return _quantiles([-e for e in errors])


def _tier(gpu: Gpu) -> str:
    return "datacenter" if gpu.gpu_class == "datacenter" else "desktop"


def _measured_for(gpu: Gpu, measured: tuple[str, ...]) -> bool:
    """Whether an architecture's fitted factor speaks for ``gpu``: its architecture was measured on a card of its
    tier (data-centre or desktop/workstation), or on two cards or more."""
    catalog = load_catalog()
    return _tier(gpu) in {_tier(catalog.get(g)) for g in measured} or len(measured) >= 2


def architecture_efficiency(gpu: Gpu, fit: TrainingFit) -> float | None:
    """The fitted efficiency that applies to this card, or None where no measurement speaks for it."""
    arch = SAME_PATH.get(gpu.architecture, gpu.architecture)
    if arch not in fit.efficiency or arch not in fit.measured_gpus:
        return None
    return fit.efficiency[arch] if _measured_for(gpu, fit.measured_gpus[arch]) else None


def calibrated_ratio(gpu_id: str, fit: TrainingFit | None = None, reference: str = REFERENCE) -> float:
    """Calibrated 16-bit training speed of ``gpu_id`` over ``reference`` (uncorrected architectures: e = 1)."""
    fit = fit or training_fit()
    catalog = load_catalog()
    g, ref = catalog.get(gpu_id), catalog.get(reference)
    e_g = architecture_efficiency(g, fit) or 1.0
    e_r = architecture_efficiency(ref, fit) or 1.0
    return e_g * _raw(g, fit.compute_share) / (e_r * _raw(ref, fit.compute_share))


@cache
def training_correction(gpu_id: str) -> float | None:
    """How much the measurements move the guide's train16 ratio to the RTX 3090 (None: not calibrated)."""
    fit = training_fit()
    gpu = load_catalog().get(gpu_id)
    if architecture_efficiency(gpu, fit) is None:
        return None
    return calibrated_ratio(gpu_id, fit) / guide_ratio(gpu_id)


def leave_one_architecture_out(rows: tuple[TrainingRow, ...] | None = None) -> list[float]:
    """Errors of each architecture's rows when the fit never saw that architecture (its e = mean of the rest)."""
    rows = rows if rows is not None else training_rows()
    catalog = load_catalog()
    errors: list[float] = []
    for arch in sorted({catalog.get(r.gpu).architecture for r in rows} - {"ampere"}):
        train = tuple(r for r in rows if catalog.get(r.gpu).architecture != arch)
        test = tuple(r for r in rows if catalog.get(r.gpu).architecture == arch)
        fit = fit_training(train)
        fallback = statistics.geometric_mean(fit.efficiency.values())
        fit = fit.model_copy(
            update={
                "efficiency": {**fit.efficiency, arch: fallback},
                "measured_gpus": {**fit.measured_gpus, arch: tuple(sorted({r.gpu for r in test}))},
            }
        )
        errors += training_errors(test, fit)
    return errors


# ---- 16-bit image-generation inference ---------------------------------------------------------


class InferenceRow(Frozen):
    set_id: str
    reference: str  # the set's reference card (relative = 1): the RTX 3090 where the set has one
    gpu: str
    relative: float
    source: str
    it_s: float | None = None


class InferenceFit(Frozen):
    efficiency: dict[str, float]  # per architecture: unmeasured cards of a measured architecture
    measured_gpus: dict[str, tuple[str, ...]]
    set_scale: dict[str, float]
    card_efficiency: dict[str, float]  # per measured card: its own rows over G · s[set] (geometric mean)


@cache
def inference_rows() -> tuple[InferenceRow, ...]:
    raw = _read("diffusion_inference.yaml")
    return tuple(
        InferenceRow(
            set_id=s["id"],
            reference=s["reference"],
            gpu=r["gpu"],
            relative=float(r["relative"]),
            source=s["source"],
            it_s=r.get("it_s"),
        )
        for s in raw["sets"]
        for r in s["rows"]
    )


@cache
def guide_inference_speed(gpu_id: str) -> float:
    """The guide's own 16-bit inference speed (engine.performance without any correction)."""
    from engine.performance import guide_estimate

    return guide_estimate(load_catalog().get(gpu_id), "infer16").speed


def fit_inference(rows: tuple[InferenceRow, ...] | None = None) -> InferenceFit:
    """Least squares in log space: log(relative) = log(guide speed) + log e[arch] + log s[set], e[ampere] = 1.

    Architectures measured on no card but the sets' references still get a factor only through the
    other rows; ``measured_gpus`` lists every measured card per architecture (references included)."""
    rows = rows if rows is not None else inference_rows()
    catalog = load_catalog()
    archs = sorted({catalog.get(r.gpu).architecture for r in rows} - {"ampere"})
    sets = sorted({r.set_id for r in rows})
    x, y = [], []
    for r in rows:
        arch = catalog.get(r.gpu).architecture
        x.append([float(arch == a) for a in archs] + [float(r.set_id == s) for s in sets])
        y.append(math.log(r.relative) - math.log(guide_inference_speed(r.gpu)))
    sol = _least_squares(x, y)
    eff = {a: float(math.exp(v)) for a, v in zip(archs, sol[: len(archs)], strict=True)}
    eff["ampere"] = 1.0
    scale = {s: float(math.exp(v)) for s, v in zip(sets, sol[len(archs) :], strict=True)}
    measured: dict[str, set[str]] = {}
    own: dict[str, list[float]] = {}
    for r in rows:
        measured.setdefault(catalog.get(r.gpu).architecture, set()).add(r.gpu)
        own.setdefault(r.gpu, []).append(
            math.log(r.relative) - math.log(guide_inference_speed(r.gpu)) - math.log(scale[r.set_id])
        )
    return InferenceFit(
        efficiency=eff,
        measured_gpus={a: tuple(sorted(g)) for a, g in measured.items()},
        set_scale=scale,
        card_efficiency={g: float(math.exp(statistics.fmean(v))) for g, v in own.items()},
    )


@cache
def inference_fit() -> InferenceFit:
    return fit_inference()


def inference_efficiency(gpu: Gpu, fit: InferenceFit) -> float | None:
    """The fitted image-generation efficiency for this card, or None where no measurement speaks for it: a
    measured card's own, else its architecture's by the training fit's rule (its architecture measured on a
    card of its tier, or on two cards or more)."""
    if gpu.id in fit.card_efficiency:
        return fit.card_efficiency[gpu.id]
    if gpu.architecture not in fit.efficiency or gpu.architecture not in fit.measured_gpus:
        return None
    return fit.efficiency[gpu.architecture] if _measured_for(gpu, fit.measured_gpus[gpu.architecture]) else None


def calibrated_inference_ratio(gpu_id: str, reference: str = REFERENCE, fit: InferenceFit | None = None) -> float:
    """Calibrated 16-bit inference speed of ``gpu_id`` over ``reference`` (uncorrected architectures: e = 1)."""
    fit = fit or inference_fit()
    catalog = load_catalog()
    e_g = inference_efficiency(catalog.get(gpu_id), fit) or 1.0
    e_r = inference_efficiency(catalog.get(reference), fit) or 1.0
    return e_g * guide_inference_speed(gpu_id) / (e_r * guide_inference_speed(reference))


def inference_errors(rows: tuple[InferenceRow, ...], fit: InferenceFit | None) -> list[float]:
    """log(predicted / measured) of each row's ratio to its set's reference card, references left out
    (the guide's model when ``fit`` is None)."""
    out = []
    for r in rows:
        if r.gpu == r.reference:
            continue
        if fit is None:
            predicted = guide_inference_speed(r.gpu) / guide_inference_speed(r.reference)
        else:
            predicted = calibrated_inference_ratio(r.gpu, r.reference, fit)
        out.append(math.log(predicted / r.relative))
    return out


def architecture_only(fit: InferenceFit) -> InferenceFit:
    """The fit without its per-card factors: every card at its architecture's efficiency (what the model
    explains, as against what it merely remembers)."""
    return fit.model_copy(update={"card_efficiency": {}})


def leave_one_set_out(rows: tuple[InferenceRow, ...] | None = None) -> list[float]:
    """Errors of each set's rows when the fit never saw that set: a card measured elsewhere keeps its own
    factor from the other sets, one measured only there gets its architecture's, and an architecture only
    that set measured falls back to the guide (e = 1)."""
    rows = rows if rows is not None else inference_rows()
    errors: list[float] = []
    for set_id in sorted({r.set_id for r in rows}):
        fit = fit_inference(tuple(r for r in rows if r.set_id != set_id))
        errors += inference_errors(tuple(r for r in rows if r.set_id == set_id), fit)
    return errors


@cache
def inference_correction(gpu_id: str) -> float | None:
    """How much image-generation measurements move the guide's infer16 ratio to the RTX 3090 (None: not
    calibrated; the guide's figure stands). engine.performance multiplies the card's infer16 speed by it."""
    fit = inference_fit()
    if inference_efficiency(load_catalog().get(gpu_id), fit) is None:
        return None
    return calibrated_inference_ratio(gpu_id, fit=fit) / (
        guide_inference_speed(gpu_id) / guide_inference_speed(REFERENCE)
    )


# ---- decode ---------------------------------------------------------------------------------


def default_backend(gpu: Gpu, precision: str) -> str:
    """The backend a single user most likely runs: ExLlama for GPTQ/AWQ/EXL2 on NVIDIA, MLX for MLX
    formats, llama.cpp (CUDA, Metal, ROCm, Vulkan for Intel) otherwise."""
    name = get_precision(precision).name
    if name.startswith("mlx-"):
        return "mlx"
    if gpu.vendor == "nvidia" and (name.startswith("exl2") or name in ("gptq-4bit", "awq-4bit")):
        return "exllama"
    return {"nvidia": "llama.cpp-cuda", "apple": "llama.cpp-metal", "amd": "llama.cpp-rocm"}.get(
        gpu.vendor, "llama.cpp-vulkan"
    )


def decode_group(backend: str, gpu: Gpu) -> str:
    """The fit's group: the backend, split where measurements show a different fraction of bandwidth —
    Apple's Ultra chips (two dies: the same bandwidth per die, not twice the speed) and HBM data-centre
    cards (llama.cpp's quantized kernels stop being bandwidth-bound near 2 TB/s)."""
    if gpu.vendor == "apple" and "-ultra-" in gpu.id:
        return f"{backend}/ultra"
    if gpu.memory_type.lower().startswith("hbm") and backend.startswith("llama.cpp"):
        return f"{backend}/hbm"
    return backend


def _group(row: DecodeRow) -> str:
    return decode_group(row.backend, load_catalog().get(row.gpu))


def _predict(row: DecodeRow, fit: DecodeFit) -> float | None:
    frac = fit.fraction.get(_group(row))
    if frac is None:
        return None
    gpu = load_catalog().get(row.gpu)
    return 1.0 / (row.weight_bytes / (frac * gpu.bandwidth_gbs * GB) + fit.overhead(_group(row)))


def decode_errors(rows: tuple[DecodeRow, ...], fit: DecodeFit) -> list[float]:
    """log(predicted / measured) per row (rows of backends the fit lacks are left out)."""
    out = []
    for r in rows:
        p = _predict(r, fit)
        if p is not None:
            out.append(math.log(p / r.tg))
    return out


def _fit_overhead(rows: list[DecodeRow]) -> tuple[float, dict[str, float]]:
    """The per-token cost t0 (grid) and each group's bandwidth share (the median at that t0) that give ``rows``
    the smallest median |log error|."""
    catalog = load_catalog()
    # seconds per token at full bandwidth, measured seconds per token, and each row's group
    ideal = [r.weight_bytes / (catalog.get(r.gpu).bandwidth_gbs * GB) for r in rows]
    seconds = [1.0 / r.tg for r in rows]
    groups = [_group(r) for r in rows]
    names = sorted(set(groups))
    best: tuple[float, float, dict[str, float]] | None = None
    for t0 in OVERHEADS_S:
        left = [s - t0 for s in seconds]
        if any(v <= 0 for v in left):
            continue
        share = [i / v for i, v in zip(ideal, left, strict=True)]
        fractions = {g: statistics.median(v for v, x in zip(share, groups, strict=True) if x == g) for g in names}
        err = statistics.median(
            abs(math.log((1.0 / (i / fractions[g] + t0)) / (1.0 / s)))
            for i, g, s in zip(ideal, groups, seconds, strict=True)
        )
        if best is None or err < best[0] - 1e-12:
            best = (err, t0, fractions)
    assert best is not None
    return best[1], best[2]


def _spans_sizes(rows: list[DecodeRow]) -> bool:
    """Whether a group's runs tell its per-token cost from its bandwidth share: enough runs, of models whose bytes
    differ ≥ ``OWN_OVERHEAD_SPAN``× (a 7B Q4_0 and a 70B F16 on one Mac), else one size cannot separate the two."""
    sizes = [r.weight_bytes for r in rows]
    return len(rows) >= MIN_ROWS_FOR_OWN_OVERHEAD and max(sizes) >= OWN_OVERHEAD_SPAN * min(sizes)


def fit_decode(rows: tuple[DecodeRow, ...] | None = None) -> DecodeFit:
    rows = rows if rows is not None else tuple(r for r in decode_rows() if not r.held_out)
    by_group: dict[str, list[DecodeRow]] = {}
    for r in rows:
        by_group.setdefault(_group(r), []).append(r)
    own = {g: _fit_overhead(rs) for g, rs in by_group.items() if _spans_sizes(rs)}
    shared_rows = [r for g, rs in by_group.items() if g not in own for r in rs]
    overhead, fractions = _fit_overhead(shared_rows) if shared_rows else (0.0, {})
    fractions |= {g: f[g] for g, (_, f) in own.items()}
    fit = DecodeFit(
        overhead_s=overhead, fraction=fractions, spread={}, group_overhead_s={g: t0 for g, (t0, _) in own.items()}
    )
    residuals: dict[str, list[float]] = {}
    for r in rows:
        p = _predict(r, fit)
        if p is not None:
            residuals.setdefault(_group(r), []).append(math.log(r.tg / p))
    every = [v for vs in residuals.values() for v in vs]
    spread = {"all": _quantiles(every)}
    spread |= {b: _quantiles(v) for b, v in residuals.items() if len(v) >= MIN_ROWS_FOR_OWN_RANGE}
    return fit.model_copy(update={"spread": spread})


class MeasuredShare(BaseModel):
    """Published runs' measured / estimated over ``rows`` runs: the median and its 10th-90th percentiles — how far
    a kind of run the fits above do not cover lands from the engine's estimate (engine.moe_decode, engine.tp_decode)."""

    model_config = ConfigDict(frozen=True)

    point: float
    low: float
    high: float
    rows: int


def measured_share(ratios: list[float]) -> MeasuredShare:
    """The median and 10th-90th percentiles of ``ratios`` (measured / estimated, one per published run)."""
    deciles = statistics.quantiles(sorted(ratios), n=10, method="inclusive")
    return MeasuredShare(point=statistics.median(ratios), low=deciles[0], high=deciles[-1], rows=len(ratios))


def _quantiles(values: list[float]) -> tuple[float, float]:
    lo, hi = (quantile(values, q) for q in RANGE_QUANTILES)
    return math.exp(min(lo, 0.0)), math.exp(max(hi, 0.0))


def quantile(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` by linear interpolation between the two nearest order
    statistics (Hyndman and Fan's 7th method), computed as numpy's default ``quantile`` computes it, to
    the last bit: the fits were made with numpy, and ``statistics.quantiles(method='inclusive')``
    gives the same points only for some cuts and rounds differently."""
    ordered = sorted(values)
    at = (len(ordered) - 1) * q
    i = math.floor(at)
    below, above = ordered[i], ordered[min(i + 1, len(ordered) - 1)]
    t = at - i
    step = above - below
    return above - step * (1 - t) if t >= 0.5 else below + step * t  # from the nearer end (numpy's _lerp)


@cache
def decode_fit() -> DecodeFit:
    return fit_decode()


class DecodeCalibration(Frozen):
    backend: str
    fraction: float
    overhead_s: float
    spread: tuple[float, float]
    rows: int


def decode_calibration(gpu: Gpu, precision: str) -> DecodeCalibration | None:
    """The fitted bandwidth fraction, per-token overhead and range for this card's likely backend."""
    return _decode_calibration(gpu.id, get_precision(precision).name)


@lru_cache(maxsize=512)
def _decode_calibration(gpu_id: str, precision: str) -> DecodeCalibration | None:
    """Bounded (issue #24): a card-and-precision pair per entry would grow with every pair asked about (1,181 entries,
    ≈1.2 MB at 35,000 events), and the calibration itself is one of a handful, shared by every pair in its group."""
    gpu = load_catalog().get(gpu_id)
    return _group_calibration(decode_group(default_backend(gpu, precision), gpu))


@cache
def _group_calibration(group: str) -> DecodeCalibration | None:
    fit = decode_fit()
    frac = fit.fraction.get(group)
    if frac is None:
        return None
    rows = sum(1 for r in decode_rows() if _group(r) == group and not r.held_out)
    return DecodeCalibration(
        backend=group,
        fraction=frac,
        overhead_s=fit.overhead(group),
        spread=fit.spread.get(group, fit.spread["all"]),
        rows=rows,
    )


# ---- utilisation for training time --------------------------------------------------------------

# BERT-large SQuAD fine-tuning as Lambda runs it (NVIDIA DeepLearningExamples, max_seq_length 384):
# 6 · 335M parameters · 384 tokens of model FLOP per sequence (Kaplan et al. 2020's 6·N·D).
BERT_LARGE_PARAMS = 335e6
BERT_SEQ_LEN = 384
BERT_FLOP_PER_SEQ = 6 * BERT_LARGE_PARAMS * BERT_SEQ_LEN


class Utilisation(Frozen):
    """Measured model-FLOP utilisation (dense FP16 Tensor, FP32 accumulate) for transformer training."""

    low: float
    point: float
    high: float
    basis: str  # "card", "architecture" or "all": where the figures come from
    rows: int


@cache
def measured_mfu() -> dict[str, float]:
    """Model-FLOP utilisation per measured card: BERT-large seq/s × FLOP/seq over dense TFLOPS (median of sets)."""
    catalog = load_catalog()
    per: dict[str, list[float]] = {}
    for r in training_rows():
        gpu = catalog.get(r.gpu)
        tflops = gpu.fp16_tensor_tflops if gpu.has_tensor_cores else gpu.fp32_tflops
        if r.bert_large_seq_s and tflops:
            per.setdefault(r.gpu, []).append(r.bert_large_seq_s * BERT_FLOP_PER_SEQ / (tflops * 1e12))
    return {g: statistics.median(v) for g, v in per.items()}


# The LLM anchor: Llama 2 7B's pre-training took 184,320 A100-80GB hours for 2T tokens (Touvron et al.
# 2023, Table 2): 8 · N · D (with activation recomputation, engine.canrun.training_time's default) over
# that time is 52 % of the A100's 312 TFLOPS. Other cards scale it by their measured BERT-large
# utilisation relative to the A100's (the card's own, else its architecture's in the same tier, else the
# median of all Tensor Core cards).
LLM_ANCHOR_GPU = "a100-80gb-sxm"
LLM_ANCHOR_UTILISATION = 8 * 6.74e9 * 2e12 / (184_320 * 3600 * 312e12)
MAX_UTILISATION = 0.75
# The same card in Lambda's two sets differs by up to ~20 % (A100 80GB SXM BERT-large: 123 vs 152 seq/s).
SAME_CARD_SPREAD = (0.8, 1.2)


@cache
def training_utilisation(gpu_id: str) -> Utilisation:
    """Hardware utilisation for LLM training on this card (k·N·D FLOP basis, recomputation included),
    from the Llama 2 anchor scaled by measured BERT-large utilisation; the range is the spread of the
    group the figure comes from (10th-90th percentile), or the two Lambda sets' spread for a measured card."""
    catalog = load_catalog()
    mfu = measured_mfu()
    gpu = catalog.get(gpu_id)
    tensor = {g: v for g, v in mfu.items() if catalog.get(g).has_tensor_cores}
    arch = SAME_PATH.get(gpu.architecture, gpu.architecture)
    group = [v for g, v in mfu.items() if catalog.get(g).architecture == arch and _tier(catalog.get(g)) == _tier(gpu)]
    anchor = mfu[LLM_ANCHOR_GPU]
    if gpu_id in mfu:
        ratio, basis, rows = mfu[gpu_id] / anchor, "card", 1
        spread = SAME_CARD_SPREAD
    else:
        pool = group if group else list(tensor.values())
        basis, rows = ("architecture" if group else "all"), len(pool)
        median = statistics.median(pool)
        ratio = median / anchor
        lo, hi = (quantile(pool, q) for q in RANGE_QUANTILES)
        spread = (min(lo / median, SAME_CARD_SPREAD[0]), max(hi / median, SAME_CARD_SPREAD[1]))
    point = min(LLM_ANCHOR_UTILISATION * ratio, MAX_UTILISATION)
    return Utilisation(
        low=point * spread[0],
        point=point,
        high=min(point * spread[1], MAX_UTILISATION),
        basis=basis,
        rows=rows,
    )
