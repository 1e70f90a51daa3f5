"""Can it run? A model on the GPUs someone has, or the cheapest GPUs that would run it.

The memory comes from :mod:`engine.memory` (named terms, per GPU, never pooled across cards); the
speed from two ceilings: decoding one token reads every active weight and the KV cache once, so it is
bound by memory bandwidth; a prompt (prefill) and training are bound by Tensor Core throughput. Every
speed is a low-high range from a stated efficiency, not a point: real kernels land somewhere in it.

For a named GPU the verdict walks a quality ladder (BF16 → 8-bit → Q6_K → Q5_K_M → Q4_K_M → Q3_K_M
for inference; LoRA at BF16 → QLoRA for fine-tuning) and reports the best rung that fits. When
nothing named fits, or no GPU was named, it prices the cheapest cards and card counts that do, from
the same dated snapshots as the rest of the advisor. Equations and sources: docs/canrun.md.

Every verdict, note, assumption and speed basis is a message (:mod:`engine.message`) whose values
are the figures and names; the words, per language, are in ``data/locales/messages/canrun.yaml``.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Callable
from decimal import Decimal
from functools import lru_cache
from typing import Literal

from engine.catalog import load_catalog
from engine.cost import PriceCondition, PriceQuote, cheapest_card, price_quote
from engine.datafiles import data_dir, read_yaml
from engine.memory import (
    DEFAULT_INFERENCE_CONTEXT,
    GB,
    TENSOR_PARALLEL_COUNTS,
    TRAINING_MODES,
    MemoryEstimate,
    MemoryFloor,
    Mode,
    Runtime,
    Split,
    capacity_gb,
    clauses,
    estimate,
    get_precision,
    gpus_needed,
    has_kv_cache,
    kind_words,
    kv_bytes,
    memory_floor,
    model_words,
    precision_suits,
    resolve_model,
)
from engine.memory import active_params_b as _active_b
from engine.message import Frozen, Msg, Value, msg
from engine.model_specs import ModelSpec, load_model_catalog, normalize_model_name
from engine.money import local_estimate
from engine.performance import RelativeSpeed, scaling_efficiency
from engine.power import plan
from engine.query import SIZES_JOIN, Query
from engine.specs import Gpu
from engine.support import EGPU_SOURCE, first_build, mac_and_nvidia, runs_cuda_projects

# Single-stream decoding reaches 60-80 % of peak memory bandwidth in llama.cpp, vLLM and
# TensorRT-LLM measurements of memory-bound matmuls; the range is the answer, not its middle.
DECODE_EFFICIENCY = (0.6, 0.8)
# Tensor Core utilisation for large matmuls: the guide's 45-65 % (GPT-3-scale training on A100s).
COMPUTE_UTILISATION = (0.45, 0.65)
# Tensor-parallel prefill loses time to all-reduces: 5 % (NVLink) to 20 % (PCIe) per doubling.
TP_EFFICIENCY_PER_DOUBLING = (0.8, 0.95)
# Decoding one token under tensor parallelism waits for two small all-reduces per layer; NCCL's
# small-message latency is ~10 µs over NVLink and ~25 µs over PCIe (slow end first).
ALL_REDUCE_S = (25e-6, 10e-6)
# How long a fine-tune or pre-training run is, for the time estimate in a verdict.
FINETUNE_TOKENS = 100e6
PRETRAIN_TOKENS_PER_PARAM = 20  # Hoffmann et al. 2022 (Chinchilla): compute-optimal ≈ 20 tokens per parameter
# A fit with less than this share of the card left is "tight".
TIGHT_SHARE = 0.9
ALTERNATIVES_PER_TARGET = 3
# Card counts priced as alternatives: up to 4 desktop cards (the guide's largest consumer builds),
# up to 8 datacenter cards (one server).
MAX_DESKTOP_GPUS = 4
MAX_SERVER_GPUS = 8
# What "a job for a server" is counted in: the 80 GB card most clouds rent, up to a small cluster.
SERVER_GPU = "h100-sxm"
MAX_CLUSTER_GPUS = 256

_BARE_SIZE = re.compile(
    r"^\s*(?:an?\s+)?(?P<size>\d+(?:\.\d+)?)\s*b(?:illion)?(?:\s*param(?:eter)?s?)?(?:\s*(?:dense\s*)?(?:model|llm))?\s*$",
    re.IGNORECASE,
)

_SIZE_IN_NAME = re.compile(r"(?<![0-9.x])(?P<size>\d+(?:\.\d+)?)\s*b(?![a-z0-9])", re.IGNORECASE)


class SpeedRange(Frozen):
    """A throughput as a range: ``bound`` at 100 % efficiency, ``low``-``high`` at the stated efficiencies."""

    low: float
    high: float
    bound: float
    unit: str
    basis: Msg


class TimeEstimate(Frozen):
    """Wall-clock time to train on ``tokens`` tokens, fastest (``hours_low``) to slowest (``hours_high``)."""

    tokens: float
    flops: float
    hours_low: float
    hours_high: float
    basis: Msg


class Rung(Frozen):
    """One step of the quality ladder, tried on one GPU setup. ``offload``: FSDP CPU offload (the
    sharded states in system RAM), the last rung for fine-tuning over several GPUs."""

    mode: Mode
    precision: str
    estimate: MemoryEstimate
    fits: bool
    offload: bool = False


class OffloadOption(Frozen):
    """llama.cpp's partial offload (``-ngl``): the layers that fit stay on the GPUs, the rest are read
    from system RAM by the CPU each token, at RAM bandwidth. An option, never a plain yes."""

    precision: str
    layers_on_gpu: int
    layers: int
    gpu_gb: float
    ram_gb: float
    decode: SpeedRange


class GpuVerdict(Frozen):
    """Whether ``count`` × one GPU runs the model, at which rung, how fast, and what it would take."""

    gpu_id: str
    name: str
    count: int
    memory_gb: float
    fits: bool
    mode: Mode
    precision: str | None
    need_gib: float
    estimate: MemoryEstimate
    tried: tuple[Rung, ...]
    decode: SpeedRange | None = None
    prefill: SpeedRange | None = None
    training: TimeEstimate | None = None
    needed: tuple[tuple[Mode, str, int | None], ...] = ()
    verdict: Msg
    notes: tuple[Msg, ...] = ()
    split: Split = "tensor"
    offload: bool = False
    tensor_decode: SpeedRange | None = None
    cpu_offload: OffloadOption | None = None
    own_fix: bool = False  # it fits on this very setup another way: a lower precision, a raised Mac limit


class MemoryVerdict(Frozen):
    """ "Is 8 GB enough?": the ladder against a bare memory size (per GPU, ``count`` GPUs)."""

    memory_gb: float
    count: int
    fits: bool
    mode: Mode
    precision: str | None
    need_gib: float
    estimate: MemoryEstimate
    tried: tuple[Rung, ...]
    verdict: Msg

    # A bare size has no bandwidth and runs no offload: read like a card's verdict without them.
    @property
    def decode(self) -> SpeedRange | None:
        return None

    @property
    def offload(self) -> bool:
        return False


class Alternative(Frozen):
    """A priced setup that fits: ``count`` × a GPU, at a mode and precision."""

    gpu_id: str
    name: str
    count: int
    memory_gb: float
    mode: Mode
    precision: str
    need_gib: float
    price: PriceQuote
    gpus_usd: Decimal
    decode: SpeedRange | None = None
    split: Split = "tensor"


class CardRow(Frozen):
    """What a card can do with one reference model: the best rung that fits, or the smallest if none."""

    use: Literal["chat", "image", "qlora", "lora", "full_finetune"]
    model_id: str
    model_name: str
    verdict: GpuVerdict | MemoryVerdict  # a MemoryVerdict for a bare memory size ("what runs in 12 GB?")


class CanRunReport(Frozen):
    """The answer to a can-it-run question, with every input and assumption it used."""

    query: Query
    model_text: str | None
    model_id: str | None = None
    model_name: str | None = None
    model: ModelSpec | None = None
    model_basis: Msg | None = None
    unresolved: str | None = None
    suggestions: tuple[str, ...] = ()
    mode: Mode | None = None
    mode_reason: Msg | None = None
    alternative_mode: Mode | None = None
    context: int | None = None
    verdicts: tuple[GpuVerdict, ...] = ()
    memory_verdict: MemoryVerdict | None = None
    floor: MemoryFloor | None = None
    alternatives: tuple[Alternative, ...] = ()
    headline: Msg
    notes: tuple[Msg, ...] = ()
    assumptions: tuple[Msg, ...] = ()
    snapshot_id: str | None = None
    price_date: dt.date | None = None
    card: tuple[CardRow, ...] = ()
    needs: tuple[Need, ...] = ()  # no card or size named: what the model needs in all, per rung
    # No model the engine can size ("how much VRAM does WriteGPT need?"): what a model of each common size
    # needs, so the user reads off theirs from its parameter count.
    by_size: tuple[SizeNeed, ...] = ()
    # With needs and no card: the first rung's memory terms (weights, gradients, optimizer states, KV cache),
    # which "how is the optimizer's memory estimated?" asks for.
    breakdown: MemoryEstimate | None = None
    published_fits: tuple[bool, ...] = ()  # per named setup, from a published requirement (diffusion training)
    # Training, or running a model that is no LLM, on named cards ("can one 4090 train GET3D, and how long?",
    # "fps on a Jetson Orin?"): each setup's speed for that work (16-bit training or inference) against the
    # reference card, which the time a run or an image takes scales with (set by the advisor).
    speeds: tuple[RelativeSpeed, ...] = ()
    # No model's figures (none named, or unknown): the yes/no the headline leans to — the card meets the
    # guide's floor for the work, makes images, runs a reference LLM — or None when it says none.
    lean: bool | None = None


class Need(Frozen):
    """ "How much VRAM does it need?": one rung's whole need on one GPU."""

    mode: Mode
    precision: str
    gib: float


class SizeNeed(Frozen):
    """What a dense model of one size needs on one GPU, at full quality and at the smallest sensible rung."""

    size_b: float
    needs: tuple[Need, ...]


# ---- speed ----------------------------------------------------------------------------------


def _card(gpu: Gpu | str) -> Gpu:
    return gpu if isinstance(gpu, Gpu) else load_catalog().get(gpu)


def _tp_factor(gpus: int, split: Split) -> tuple[float, float]:
    """Speed-up of ``gpus`` tensor-parallel GPUs (low, high); a pipeline runs one sequence serially."""
    if gpus == 1 or split == "pipeline":
        return 1.0, 1.0
    doublings = math.log2(gpus)
    return gpus * TP_EFFICIENCY_PER_DOUBLING[0] ** doublings, gpus * TP_EFFICIENCY_PER_DOUBLING[1] ** doublings


# CPU offload (llama.cpp -ngl below the layer count): the layers left in system RAM are read by the CPU
# at RAM bandwidth each token. Dual-channel DDR5-5600 is 89.6 GB/s peak; CPU decode reaches ~60-70 % of it.
RAM_BANDWIDTH_GBS = 60.0
# The range an offload option states: dual-channel DDR4-3200 (2 × 3200 MT/s × 8 B = 51.2 GB/s peak) to
# dual-channel DDR5-5600 (2 × 5600 MT/s × 8 B = 89.6 GB/s peak), at the share of peak llama.cpp's CPU decode
# reached in a published run: LLaMA 65B q4_0 (65.2B × 5 bits = 40.8 GB) at 1,089 ms per token on a Ryzen 7
# 3700X with dual-channel DDR4 = 37.4 GB/s, 73 % of 51.2 GB/s (github.com/ggml-org/llama.cpp/issues/34).
RAM_PEAK_GBS = (51.2, 89.6)
RAM_EFFICIENCY = 0.73
RAM_SOURCE = "https://github.com/ggml-org/llama.cpp/issues/34"
# An offload option is offered up to this much in system RAM (a desktop board's usual ceiling, 4 × 32 GB).
MAX_OFFLOAD_RAM_GB = 128.0
FSDP_QLORA_SOURCE = "https://www.answer.ai/posts/2024-03-06-fsdp-qlora.html"


def inference_split(gpu: Gpu, count: int) -> Split:
    """How several cards share a model for chat: tensor parallel (vLLM, TensorRT-LLM) on datacenter
    cards linked by NVLink or sitting on a server board (SXM, OAM); otherwise a layer split, llama.cpp's
    default ``--split-mode layer`` and what desktop rigs run (a 3090's NVLink bridge is rare, and the
    default does not use it). One card: no split."""
    linked = gpu.gpu_class == "datacenter" and (gpu.nvlink or gpu.form_factor in ("sxm", "oam"))
    return "tensor" if count <= 1 or linked else "pipeline"


def runtime_of(gpu: Gpu) -> Runtime:
    """Whose runtime a card's overhead is: CUDA on NVIDIA, Metal on Apple silicon, else the vendor's."""
    return {"nvidia": "cuda", "apple": "metal"}.get(gpu.vendor, "other")  # type: ignore[return-value]


def decode_speed(
    model: ModelSpec | str,
    gpu: Gpu | str,
    precision: str = "bf16",
    *,
    context: int | None = None,
    batch: int = 1,
    kv_precision: str | None = None,
    gpus: int = 1,
    split: Split = "tensor",
    offload_gb: float = 0.0,
    ram_gbs: float = RAM_BANDWIDTH_GBS,
    moe_share: bool = True,
    tp_factor: bool = True,
) -> SpeedRange | None:
    """Tokens per second while generating, summed over ``batch`` sequences; None without a KV cache.

    Each step reads every active weight once (MoE: only the routed experts) plus each sequence's KV
    cache at ``context`` tokens (the end of the context, the slowest point), at the share of peak
    bandwidth the card's usual backend reaches in published runs, plus a fixed cost per step
    (kernel launches, sampling) — both fitted in :mod:`engine.calibration`:
    ``tok/s = batch / (bytes / (fraction · bandwidth) + t0 [+ all-reduces] [+ offloaded bytes / RAM bandwidth])``.
    The range is that point scaled by the 10th-90th percentile of the fit's residuals. A layer split
    (``pipeline``) runs the cards one after another: the sum of per-card times is one card's time for
    all the bytes, so it is never faster than one card. ``offload_gb`` of weights kept in system RAM
    are read at ``ram_gbs`` (llama.cpp's CPU offload). An MoE model's range is scaled by the share of that
    estimate its routed experts reach in published runs (``moe_share``; engine.moe_decode). A tensor-parallel
    range on linked data-centre cards (:func:`inference_split`) is scaled by the median of measured / estimated
    over published tensor-parallel runs (``tp_factor``; engine.tp_decode): the single-card fit does not carry
    over to the backends and step costs of a TP split. A desktop pair's tensor-parallel alternative is not
    scaled, nor a GGUF or MLX model split over cards: no such runs were found.
    """
    from engine.calibration import decode_calibration
    from engine.moe_decode import moe_decode_share
    from engine.tp_decode import tp_decode_factor, tp_precisions

    spec, card = resolve_model(model), _card(gpu)
    if not has_kv_cache(spec):
        return None
    prec = get_precision(precision)
    length = context or min(spec.default_context or DEFAULT_INFERENCE_CONTEXT, DEFAULT_INFERENCE_CONTEXT)
    weight_bytes = _active_b(spec) * 1e9 * prec.bits / 8
    kv = (spec.kv_cache_bytes(length, kv_bytes(kv_precision)) or 0.0) * batch
    offload = min(max(offload_gb, 0.0) * GB, weight_bytes)
    share = 1 / gpus if split == "tensor" else 1.0  # a layer split reads all of it, one GPU after another
    seconds = (weight_bytes - offload + kv) * share / (card.bandwidth_gbs * GB)
    cpu_seconds = offload / (ram_gbs * GB)
    syncs = 2 * (spec.layers or 0) if gpus > 1 and split == "tensor" else 0
    cal = decode_calibration(card, prec.name)
    if cal is not None:
        fraction, overhead = cal.fraction, cal.overhead_s
        spread = cal.spread
    else:
        fraction, overhead = sum(DECODE_EFFICIENCY) / 2, 0.0
        spread = (DECODE_EFFICIENCY[0] / fraction, DECODE_EFFICIENCY[1] / fraction)

    def rate(efficiency: float, sync_s: float, fixed: float) -> float:
        return batch / (seconds / efficiency + fixed + syncs * sync_s + cpu_seconds)

    point = rate(fraction, sum(ALL_REDUCE_S) / 2, overhead)
    basis = msg(
        "canrun.basis.decode",
        bandwidth=card.bandwidth_gbs,
        weights_gb=weight_bytes / GB,
        bits=prec.bits,
        kv_gb=kv / GB,
        context=length,
        batch=batch,
        low=fraction * spread[0],
        high=min(fraction * spread[1], 1.0),
    )
    if cal is not None:
        basis = clauses(
            basis,
            msg("canrun.basis.decode_measured", backend=cal.backend, rows=cal.rows, overhead_ms=overhead * 1e3),
        )
    if gpus > 1 and split == "tensor":
        basis = clauses(
            basis,
            msg(
                "canrun.basis.decode_tensor",
                gpus=gpus,
                syncs=syncs,
                fast_us=ALL_REDUCE_S[1] * 1e6,
                slow_us=ALL_REDUCE_S[0] * 1e6,
            ),
        )
    elif gpus > 1:
        basis = clauses(basis, msg("canrun.basis.decode_pipeline", gpus=gpus))
    if offload:
        basis = clauses(basis, msg("canrun.basis.decode_offload", gb=offload / GB, ram_gbs=ram_gbs))
    low = min(point * spread[0], rate(fraction, ALL_REDUCE_S[0], overhead))
    high = max(point * spread[1], rate(fraction, ALL_REDUCE_S[1], overhead))
    if moe_share and spec.active_params_b is not None:  # routed experts reach less than a dense model's weights
        moe = moe_decode_share()
        low, high = low * moe.point, high * moe.point
        basis = clauses(
            basis, msg("canrun.basis.decode_moe", share=moe.point, rows=moe.rows, low=moe.low, high=moe.high)
        )
    linked_tp = gpus > 1 and split == "tensor" and inference_split(card, gpus) == "tensor"
    if tp_factor and linked_tp and prec.name in tp_precisions():
        # published TP runs on server cards, not the single-card fit, say how fast (desktop cards: none measured)
        tp = tp_decode_factor(card.id, moe=spec.active_params_b is not None)
        if tp is not None:
            low, high = low * tp.point, high * tp.point
            key, cards = (
                ("canrun.basis.decode_tp_card", {})
                if tp.on_card
                else ("canrun.basis.decode_tp_all", {"cards": tp.cards})
            )
            basis = clauses(basis, msg(key, factor=tp.point, rows=tp.rows, low=tp.low, high=tp.high, **cards))
    bound = batch / ((weight_bytes - offload + kv) * share / (card.bandwidth_gbs * GB) + cpu_seconds)
    return SpeedRange(
        low=min(low, bound),
        high=min(high, bound),
        bound=bound,
        unit="tokens/s",
        basis=basis,
    )


def usable_tflops(gpu: Gpu, compute: str) -> tuple[float | None, Msg]:
    """Dense throughput for a precision's matmuls, and which units give it: FP8/INT8 Tensor Cores
    where the card has them, else FP16 (weight-only quantizations dequantize to FP16); FP32 units
    without Tensor Cores."""
    if not gpu.has_tensor_cores or compute == "fp32":
        return gpu.fp32_tflops, msg("canrun.units.fp32")
    fp16 = gpu.fp16_tensor_tflops_fp16acc or gpu.fp16_tensor_tflops
    if compute == "fp8" and gpu.fp8_tensor_tflops:
        return gpu.fp8_tensor_tflops, msg("canrun.units.tensor", precision="FP8")
    if compute == "int8" and gpu.int8_tensor_tops:
        return gpu.int8_tensor_tops, msg("canrun.units.tensor", precision="INT8")
    return fp16, msg("canrun.units.tensor", precision="FP16")


def prefill_speed(
    model: ModelSpec | str, gpu: Gpu | str, precision: str = "bf16", *, gpus: int = 1, split: Split = "tensor"
) -> SpeedRange | None:
    """Prompt tokens per second: ``TFLOPS · utilisation / (2 · active params)``; None without figures.

    Leaves out attention's quadratic term (small below ~8K tokens) and kernel launch overheads.
    """
    spec, card = resolve_model(model), _card(gpu)
    prec = get_precision(precision)
    tflops, unit = usable_tflops(card, prec.compute)
    if tflops is None:
        return None
    per_token = 2 * _active_b(spec) * 1e9
    bound = tflops * 1e12 / per_token
    tp_low, tp_high = _tp_factor(gpus, split)
    basis = msg(
        "canrun.basis.prefill",
        tflops=tflops,
        units=unit,
        active_b=_active_b(spec),
        low=COMPUTE_UTILISATION[0],
        high=COMPUTE_UTILISATION[1],
    )
    return SpeedRange(
        low=bound * COMPUTE_UTILISATION[0] * tp_low,
        high=bound * COMPUTE_UTILISATION[1] * tp_high,
        bound=bound * (gpus if split == "tensor" else 1),
        unit="tokens/s",
        basis=basis,
    )


def training_time(
    model: ModelSpec | str,
    gpu: Gpu | str,
    tokens: float,
    *,
    mode: Mode = "full_finetune",
    gpus: int = 1,
    gradient_checkpointing: bool = True,
) -> TimeEstimate | None:
    """Hours to train on ``tokens``: ``k · active params · tokens / (TFLOPS · utilisation · n · scaling)``.

    k = 6 for full training (forward 2 + backward 4, Kaplan et al. 2020), 4 for LoRA/QLoRA (no
    weight gradients for the frozen base), +2 for recomputing the forward under checkpointing.
    Training runs FP16/BF16 with FP32 accumulate, so GeForce cards count at their half rate. The
    utilisation is calibrated (engine.calibration.training_utilisation): Llama 2 7B's published
    A100 GPU-hours give 52 % on the A100, scaled to other cards by Lambda's measured BERT-large
    utilisation; its range is the spread of those measurements (docs/canrun.md, "Training time").
    """
    spec, card = resolve_model(model), _card(gpu)
    if tokens <= 0 or mode == "inference":
        raise ValueError("training_time needs a training mode and a positive token count")
    k = (4 if mode in ("lora", "qlora") else 6) + (2 if gradient_checkpointing else 0)
    flops = k * _active_b(spec) * 1e9 * tokens
    tflops = card.fp16_tensor_tflops if card.has_tensor_cores else card.fp32_tflops
    if tflops is None:
        return None
    from engine.calibration import training_utilisation

    util = training_utilisation(card.id)
    scale = gpus * scaling_efficiency(gpus)
    fastest = flops / (tflops * 1e12 * util.high * scale) / 3600
    slowest = flops / (tflops * 1e12 * util.low * scale) / 3600
    figures = {
        "k": k,
        "active_b": _active_b(spec),
        "tokens": tokens,
        "flops": flops,
        "tflops": tflops,
        "low": util.low,
        "high": util.high,
    }
    basis = clauses(
        (
            msg("canrun.basis.training_gpus", **figures, gpus=gpus, scaling=scaling_efficiency(gpus))
            if gpus > 1
            else msg("canrun.basis.training", **figures)
        ),
        msg(f"canrun.basis.utilisation.{util.basis}", point=util.point, rows=util.rows),
    )
    return TimeEstimate(tokens=tokens, flops=flops, hours_low=fastest, hours_high=slowest, basis=basis)


IMAGENET_TRAIN_IMAGES = 1_281_167  # ILSVRC-2012 training set


class EpochEstimate(Frozen):
    """Hours for one ImageNet epoch of ResNet-50 training (AMP, the largest batch that fits)."""

    images_per_s: float
    hours_low: float
    hours_high: float
    measured: bool
    basis: Msg


def imagenet_epoch(gpu: Gpu | str, *, gpus: int = 1) -> EpochEstimate:
    """One ImageNet epoch of ResNet-50 on ``gpus`` cards: Lambda's measured images/s where it measured the
    card (the range spans its two benchmark sets), else the RTX 3090's measured rate × the calibrated
    16-bit training ratio (engine.calibration), with the training fit's spread. Data loading is assumed
    to keep up (it often does not on a desktop CPU: the answer says so)."""
    from engine.calibration import calibrated_ratio, training_rows, training_spread

    card = _card(gpu)
    rows = [r.resnet50_img_s for r in training_rows() if r.gpu == card.id and r.resnet50_img_s]
    scale = gpus * scaling_efficiency(gpus)
    if rows:
        slow, fast, measured = min(rows), max(rows), True
    else:
        ref = [r.resnet50_img_s for r in training_rows() if r.gpu == "rtx-3090" and r.resnet50_img_s]
        point = sum(ref) / len(ref) * calibrated_ratio(card.id)
        spread = training_spread()
        slow, fast, measured = point * spread[0], point * spread[1], False
    hours = [IMAGENET_TRAIN_IMAGES / (rate * scale) / 3600 for rate in (fast, slow)]
    one = measured and slow == fast  # one benchmark set measured the card: one rate, not a range
    basis = msg(
        "canrun.basis.imagenet_measured_one"
        if one
        else "canrun.basis.imagenet_measured"
        if measured
        else "canrun.basis.imagenet_estimated",
        images=IMAGENET_TRAIN_IMAGES,
        low=slow * scale,
        high=fast * scale,
        gpus=gpus,
    )
    return EpochEstimate(
        images_per_s=(slow + fast) / 2 * scale, hours_low=hours[0], hours_high=hours[1], measured=measured, basis=basis
    )


# ---- the ladder -----------------------------------------------------------------------------

_LLM_INFERENCE = ("bf16", "8bit", "q6_k", "q5_k_m", "q4_k_m", "q3_k_m")
_OTHER_INFERENCE = ("fp16", "8bit")
# An LLM on Huawei's Ascend: BF16 and W8A8 INT8 (MindIE, vllm-ascend), then the GGUF types llama.cpp's
# CANN backend runs — FP16, Q8_0 and Q4_0, no k-quants (github.com/ggml-org/llama.cpp, docs/backend/CANN.md).
_ASCEND_LLM_INFERENCE = ("bf16", "int8", "q4_0")
# Image and video diffusion models also run with their transformer in 4-bit NF4 (bitsandbytes): Forge's
# flux1-dev-bnb-nf4 checkpoint, "recommended" for 6/8/12 GB cards by Forge's author
# (github.com/lllyasviel/stable-diffusion-webui-forge/discussions/981, 2024-08-11), and diffusers'
# BitsAndBytesConfig(load_in_4bit) for the same models.
_DIFFUSION_INFERENCE = ("fp16", "8bit", "nf4")


def _eight_bit(gpu: Gpu | None, llm: bool = False) -> str:
    """FP8 on cards whose architecture has it, INT8 elsewhere (same memory, different kernels); an LLM
    on a Mac, an AMD or Intel card, or a card without Tensor Cores (a GTX 1080 Ti, a Tesla P40) runs 8-bit as GGUF
    Q8_0 (llama.cpp/MLX): LLM.int8 and W8A8 kernels are CUDA's, for Tensor Cores (bitsandbytes' INT8 matmul needs
    compute capability 7.5)."""
    if gpu is None:
        return "int8"
    if llm and (gpu.vendor in ("apple", "amd", "intel") or (gpu.vendor == "nvidia" and not gpu.has_tensor_cores)):
        return "q8_0"
    return "fp8" if load_catalog().architecture(gpu.id).features.fp8 else "int8"


def ladder(spec: ModelSpec, mode: Mode, gpu: Gpu | None = None) -> list[tuple[Mode, str]]:
    """The (mode, precision) rungs to try, best quality first.

    A model released below 16 bits (DeepSeek V3 in FP8, gpt-oss in MXFP4) starts at its release
    precision: a wider copy of those weights is no better.
    """
    if mode == "inference":
        names = (
            (_ASCEND_LLM_INFERENCE if gpu is not None and gpu.vendor == "huawei" else _LLM_INFERENCE)
            if spec.kind == "llm"
            else _DIFFUSION_INFERENCE
            if spec.kind == "diffusion"
            else _OTHER_INFERENCE
        )
        rungs = [_on_card(n, gpu, spec.kind == "llm") for n in names]
        if spec.release_precision and spec.release_precision not in ("fp32", "fp16", "bf16"):
            release = get_precision(spec.release_precision)
            rungs = [release.name] + [r for r in rungs if get_precision(r).bits < release.bits]
        return [("inference", r) for r in rungs]
    half = _half(gpu)
    if mode in ("lora", "qlora"):
        return [("lora", half), ("qlora", "nf4")] if mode == "lora" else [("qlora", "nf4")]
    return [(mode, half)]


def _splits(spec: ModelSpec) -> bool:
    """Whether the usual tools split the model over several cards: a language model's layers or tensors
    are; an image, video or vision model runs on one card ("FLUX.1 on 3× RTX 3070" is no setup)."""
    return spec.kind == "llm"


def _on_card(precision: str, gpu: Gpu | None, llm: bool = False) -> str:
    """A precision in the type the card runs it in (same memory): 8 bits as FP8 or INT8 ("8bit", "fp8" and
    "int8" alike), 16 bits as BF16 or FP16 (a V100 or P100 runs FP16: no BF16 before Ampere)."""
    if precision in ("8bit", "fp8", "int8"):
        return _eight_bit(gpu, llm)
    return _half(gpu) if precision == "bf16" else precision


def _half(gpu: Gpu | None) -> str:
    """The 16-bit type a card trains in: BF16 where its architecture has it (Ampere on), else FP16
    (same memory; Pascal, Volta and Turing have no BF16)."""
    if gpu is None:
        return "bf16"
    return "bf16" if load_catalog().architecture(gpu.id).features.bf16 else "fp16"


# What to leave to macOS when raising the GPU's wired limit (sudo sysctl iogpu.wired_limit_mb=…): an
# assumption said in the answer, not an Apple figure (Apple publishes none; the default share is ~75 %).
MACOS_RESERVE_GB = 8


def _try(
    spec: ModelSpec,
    rungs: list[tuple[Mode, str]],
    capacity: float,
    count: int,
    context: int | None,
    split: Split = "tensor",
    runtime: Runtime = "cuda",
) -> list[Rung]:
    """Estimates down the ladder until one fits ``capacity`` GB per GPU (all rungs if none does)."""
    out: list[Rung] = []
    for mode, prec in rungs:
        est = estimate(spec, mode, prec, gpus=count, context=context, split=split, runtime=runtime)
        ok = est.per_gpu_gb <= capacity
        out.append(Rung(mode=mode, precision=prec, estimate=est, fits=ok))
        if ok:
            break
    return out


def _label(mode: Mode, precision: str, offload: bool = False) -> Msg:
    """How a rung reads in a sentence: "GGUF Q4_K_M", "LoRA (BF16 base)", "QLoRA (4-bit NF4 base)"."""
    prec = get_precision(precision)
    if mode == "qlora" and offload:
        return msg("canrun.rung.qlora_offload")
    if mode == "qlora":
        return msg("canrun.rung.qlora")
    if mode == "lora" and prec.bits == 8:  # "LoRA in 8bit": the base as bitsandbytes loads it
        return msg("canrun.rung.lora_8bit")
    if mode == "lora":
        return msg("canrun.rung.lora", precision=prec.label)
    if mode in ("full_finetune", "pretrain"):
        return msg("canrun.rung.mixed_precision", precision=prec.label)
    return msg("canrun.rung.inference", precision=prec.label)


def rung_label(mode: Mode, precision: str, offload: bool = False) -> Msg:
    """A rung's name for tables and sentences ("GGUF Q4_K_M", "QLoRA (4-bit NF4 base)")."""
    return _label(mode, precision, offload)


def _setup(name: str | Msg, count: int) -> str | Msg:
    """A GPU (or a memory size) as named, or "2× RTX 4090" for several."""
    return msg("canrun.setup.count", count=count, gpu=name) if count > 1 else name


def _sentences(first: Msg, *more: Msg) -> Msg:
    """Sentences said one after another (space-separated in English, run on in Chinese)."""
    out = first
    for then in more:
        out = msg("canrun.sentences", first=out, then=then)
    return out


def _fit(need: float, per_gpu: bool, capacity: float, decode: SpeedRange | None, training: TimeEstimate | None) -> Msg:
    """ "needs 16.8 GB of 24 GB, ~41-55 tokens/s": what a fitting rung uses, and how fast it decodes
    (or, for training, how long 100M tokens take)."""
    fit = msg("canrun.fit.per_gpu" if per_gpu else "canrun.fit.one", need=need, capacity=capacity)
    if decode:
        return msg("canrun.fit.with_speed", fit=fit, low=decode.low, high=decode.high)
    if training:
        return msg(
            "canrun.fit.with_time",
            fit=fit,
            low=training.hours_low,
            high=training.hours_high,
            tokens=training.tokens / 1e6,
        )
    return fit


def _verdict_text(
    setup: str | Msg,
    tried: list[Rung],
    cap_gib: float,
    decode: SpeedRange | None,
    *,
    memory_only: bool = False,
    training: TimeEstimate | None = None,
) -> Msg:
    """No (even the last rung is too big), yes at the first rung, or yes lower down the ladder with
    what the first rung would have needed. ``memory_only``: the user gave a memory size, not a card
    ("the 6 GB you have", not "6 GB's 6 GB")."""
    last = tried[-1]
    need = last.estimate.per_gpu_gib
    per_gpu = last.estimate.gpus > 1
    rung = _label(last.mode, last.precision, last.offload)
    if not last.fits:
        return msg(
            ("canrun.verdict.no_memory" if memory_only else "canrun.verdict.no")
            + ("_per_gpu" if per_gpu else "")
            + (".at" if len(tried) == 1 else ""),  # one precision tried (the user's): no "even"
            rung=rung,
            need=need,
            setup=setup,
            capacity=cap_gib,
        )
    fit = _fit(need, per_gpu, cap_gib, decode, training)
    if len(tried) == 1:
        return msg("canrun.verdict.yes", rung=rung, fit=fit)
    first = tried[0]
    instead = msg(
        "canrun.would_need_per_gpu" if per_gpu else "canrun.would_need",
        rung=_label(first.mode, first.precision),
        need=first.estimate.per_gpu_gib,
    )
    return msg("canrun.verdict.yes_lower", rung=rung, fit=fit, instead=instead)


def _with_needed(
    verdict: Msg,
    name: str,
    needed: list[tuple[Mode, str, int | None]],
    fitted: bool,
    speed: Callable[[Mode, str, int], SpeedRange | None] = lambda mode, precision, count: None,
    most: int | None = None,
) -> Msg:
    """The verdict, then "It would take 7× RTX 4090 at BF16 or 2× RTX 4090 at GGUF Q4_K_M (~16-20 tokens/s)." for a
    setup that does not fit as asked — the fewest cards with their decode speed where it is an LLM run (``speed``).
    Counts over ``most`` (one machine's cards) are no build anyone makes of a desktop card ("31× RTX 4090"): left
    out, and when none is left, said to be beyond one machine."""
    options = []
    beyond = None
    needed = list(dict.fromkeys(needed))  # "2× RTX 5090 at MXFP4" once, though two rungs led to it
    for i, (m, p, n) in enumerate(needed):
        if not n:
            continue
        if most is not None and n > most:
            beyond = msg("canrun.take.beyond_machine", gpu=name, most=most, rung=_label(m, p))
            continue
        fast = speed(m, p, n) if i == len(needed) - 1 else None  # the fewest cards: the setup worth timing
        said: dict[str, Value] = {"count": n, "gpu": name, "rung": _label(m, p)}
        options.append(
            msg("canrun.take.speed", low=fast.low, high=fast.high, **said) if fast else msg("canrun.take", **said)
        )
    if fitted:
        # "Yes at INT8 … BF16 would need 70.0 GB per GPU": on datacenter cards, which serve models unquantized, how
        # many of them that is ("At BF16 it takes 4× A100 40GB"), what "要几张？" asks (``most`` None: no desktop card)
        if most is not None or len(needed) < 2:  # (one rung tried: the one that fits is the top)
            return verdict
        top_mode, top_precision, top_count = needed[0]
        if not top_count or top_count < 2:
            return verdict
        top_speed = speed(top_mode, top_precision, top_count)
        top: dict[str, Value] = {"count": top_count, "gpu": name, "rung": _label(top_mode, top_precision)}
        take = (
            msg("canrun.take.top_speed", low=top_speed.low, high=top_speed.high, **top)
            if top_speed
            else msg("canrun.take.top", **top)
        )
        return _sentences(verdict, take)
    if not options:
        return _sentences(verdict, beyond) if beyond is not None else verdict
    return msg("canrun.verdict.with_needed", verdict=verdict, options=tuple(options))


def _full_finetune_notes(spec: ModelSpec, setups: list[tuple[Gpu, int]], context: int | None) -> list[Msg]:
    """ "Can 8 A100s fine-tune Llama 2 70B?": answered at LoRA (the default), then whether a full fine-tune
    (all weights, BF16 mixed precision with AdamW, sharded over the cards) fits each setup too — often what a
    "fine-tune" with Megatron or DeepSpeed means, and a very different need."""
    out = []
    for gpu, count in setups:
        half = _half(gpu)
        (full,) = _try(spec, [("full_finetune", half)], capacity_gb(gpu), count, context, runtime=runtime_of(gpu))
        key = "canrun.note.full_finetune." + ("fits" if full.fits else "no") + ("_per_gpu" if count > 1 else "")
        said = {"rung": _label("full_finetune", half), "setup": _setup(gpu.short_name, count)}
        out.append(msg(key, need=full.estimate.per_gpu_gib, capacity=gpu.memory_gb, **said))
    return out


# The largest batch a fine-tune's note names; more is said as "this many or more".
MAX_BATCH_SAID = 64


def _batch_note(spec: ModelSpec, rung: Rung, capacity: float, count: int, runtime: Runtime = "cuda") -> Msg:
    """The room a fine-tune that fits leaves, said as a batch of the rung's sequence length (``_max_batch``)."""
    batch = _max_batch(spec, rung, capacity, count, runtime)
    key = "canrun.note.batch_many" if batch >= MAX_BATCH_SAID else "canrun.note.batch"
    return msg(key, batch=batch, tokens=rung.estimate.context)


def _max_batch(spec: ModelSpec, rung: Rung, capacity: float, count: int, runtime: Runtime = "cuda") -> int:
    """ "What batch size for a LoRA of Llama 3 8B on 24 GB?": the most sequences per GPU (at the rung's sequence
    length, gradient checkpointing on) whose estimate still fits ``capacity`` GB — doubled until it does not, then
    the gap halved; ``MAX_BATCH_SAID`` at most."""

    def fits(batch: int) -> bool:
        est = estimate(
            spec,
            rung.mode,
            rung.precision,
            gpus=count,
            context=rung.estimate.context,
            batch=batch,
            offload=rung.offload,
            runtime=runtime,
        )
        return est.per_gpu_gb <= capacity

    low, high = 1, 2
    while high <= MAX_BATCH_SAID and fits(high):
        low, high = high, high * 2
    high = min(high, MAX_BATCH_SAID + 1)
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if fits(middle) else (low, middle)
    return low


def _fsdp_offload_rung(spec: ModelSpec, gpu: Gpu, count: int, context: int | None) -> Rung:
    """QLoRA with FSDP CPU offload: Answer.AI's setup for a 70B model on two 24 GB cards."""
    est = estimate(spec, "qlora", "nf4", gpus=count, context=context, offload=True, runtime=runtime_of(gpu))
    return Rung(mode="qlora", precision="nf4", estimate=est, fits=est.per_gpu_gb <= capacity_gb(gpu), offload=True)


def cpu_offload_option(
    spec: ModelSpec, gpu: Gpu, count: int, context: int | None, precision: str = "q4_k_m"
) -> OffloadOption | None:
    """llama.cpp with ``-ngl`` below the layer count: whole layers on the GPUs as far as they fit next to
    the KV cache, activations and runtime, the rest in system RAM read by the CPU each token. None when
    no layer fits on the GPUs, or more than ``MAX_OFFLOAD_RAM_GB`` would sit in RAM."""
    if not has_kv_cache(spec) or not spec.layers:
        return None
    split = inference_split(gpu, count)
    est = estimate(spec, "inference", precision, gpus=count, context=context, split=split, runtime=runtime_of(gpu))
    weights = est.term("weights")
    if weights is None:
        return None
    others = est.per_gpu_gb - weights.per_gpu_gb  # KV cache, activations, runtime: per card
    layer_gb = weights.gb / spec.layers
    per_card = max(0, math.floor((capacity_gb(gpu) - others) / layer_gb))
    on_gpu = min(per_card * count, spec.layers)
    ram = weights.gb - on_gpu * layer_gb
    if on_gpu == 0 or on_gpu >= spec.layers or ram > MAX_OFFLOAD_RAM_GB:
        return None
    slow, fast = (
        decode_speed(
            spec,
            gpu,
            precision,
            context=est.context,
            gpus=count,
            split=split,
            offload_gb=ram,
            ram_gbs=peak * RAM_EFFICIENCY,
        )
        for peak in RAM_PEAK_GBS
    )
    if slow is None or fast is None:
        return None
    basis = clauses(
        slow.basis,
        msg(
            "canrun.basis.ram_range",
            low_peak=RAM_PEAK_GBS[0],
            high_peak=RAM_PEAK_GBS[1],
            efficiency=RAM_EFFICIENCY,
            source=RAM_SOURCE,
        ),
    )
    decode = SpeedRange(low=slow.low, high=fast.high, bound=fast.bound, unit="tokens/s", basis=basis)
    return OffloadOption(
        precision=precision,
        layers_on_gpu=on_gpu,
        layers=spec.layers,
        gpu_gb=on_gpu * layer_gb,
        ram_gb=ram,
        decode=decode,
    )


def _gpu_verdict(
    spec: ModelSpec,
    mode: Mode,
    gpu: Gpu,
    count: int,
    context: int | None,
    precision: str | None = None,
    offload_asked: bool = False,
    rented: bool = False,
) -> GpuVerdict:
    if precision == "bf16":
        precision = _half(gpu)  # "BF16 on my T4": it runs FP16 at the same size (and is told it has no BF16)
    rungs = [(mode, precision)] if precision else ladder(spec, mode, gpu)
    inference = mode == "inference"
    split = inference_split(gpu, count) if inference else "tensor"
    runtime = runtime_of(gpu)
    # an image, video or vision model is never split: each card holds all of it (the count adds speed, not memory)
    tried = _try(spec, rungs, capacity_gb(gpu), count if _splits(spec) else 1, context, split, runtime)
    sharded_training = mode in ("lora", "qlora") and count > 1 and spec.kind == "llm"
    if sharded_training and not tried[-1].fits and rungs[-1] == ("qlora", "nf4"):
        tried.append(_fsdp_offload_rung(spec, gpu, count, context))
    best = tried[-1]
    decode = prefill = training = tensor_decode = None
    if best.mode == "inference":
        decode = decode_speed(spec, gpu, best.precision, context=best.estimate.context, gpus=count, split=split)
        prefill = prefill_speed(spec, gpu, best.precision, gpus=count, split=split) if spec.kind == "llm" else None
        if split == "pipeline" and count in TENSOR_PARALLEL_COUNTS and decode is not None:
            # the alternative, where it is one: head counts divide by powers of two, and it must be faster
            faster = decode_speed(spec, gpu, best.precision, context=best.estimate.context, gpus=count)
            tensor_decode = faster if faster is not None and faster.high > decode.high else None
    else:
        tokens = PRETRAIN_TOKENS_PER_PARAM * spec.params_b * 1e9 if best.mode == "pretrain" else FINETUNE_TOKENS
        # Time per training token is a language model's yardstick; a CNN's is images per epoch.
        training = training_time(spec, gpu, tokens, mode=best.mode, gpus=count) if spec.kind == "llm" else None
    needed: list[tuple[Mode, str, int | None]] = []
    notes: list[Msg] = []
    # No "2× MacBook" or "8× laptop GPU", and no "7× GTX 1050 Ti for Stable Diffusion" (_splits)
    if (not best.fits or len(tried) > 1) and gpu.stacks and _splits(spec):

        def cards(rung_mode: Mode, prec: str) -> int | None:
            split_as = inference_split(gpu, 2) if rung_mode == "inference" else "tensor"
            return gpus_needed(spec, gpu, rung_mode, prec, context=context, split=split_as, runtime=runtime)

        for rung_mode, prec in (rungs[0], rungs[-1]) if len(rungs) > 1 else (rungs[0],):
            needed.append((rung_mode, prec, cards(rung_mode, prec)))
        fewest = needed[-1][2]
        if len(needed) > 1 and fewest:
            # "how many 4090s for a 70B?": the fewest cards, at the best rung they hold (2× at Q4_K_M, not Q3_K_M)
            needed[-1] = next(
                ((m, p, fewest) for m, p in rungs if (n := cards(m, p)) is not None and n <= fewest), needed[-1]
            )
    offload = None
    if inference and not best.fits and spec.kind == "llm" and gpu.platform != "unified_memory":
        # (on a Mac the "system RAM" is the same pool the GPU share already came from)
        # at Q4_K_M, or the model's own release precision where that is smaller (gpt-oss ships in MXFP4)
        released = get_precision(spec.release_precision) if spec.release_precision else None
        at = released.name if released is not None and released.bits < get_precision("q4_k_m").bits else "q4_k_m"
        offload = cpu_offload_option(spec, gpu, count, context, precision=at)
    if best.fits and best.estimate.per_gpu_gib > TIGHT_SHARE * gpu.memory_gb:
        notes.append(msg("canrun.note.tight"))
        if sharded_training and not best.offload:
            alt = _fsdp_offload_rung(spec, gpu, count, context)
            notes.append(
                msg(
                    "canrun.note.offload_if_oom",
                    need=alt.estimate.per_gpu_gib,
                    ram=alt.estimate.ram_gb,
                    source=FSDP_QLORA_SOURCE,
                )
            )
    if best.offload:
        notes.append(msg("canrun.note.fsdp_offload", ram=best.estimate.ram_gb, gpus=count, source=FSDP_QLORA_SOURCE))
    if count > 1:
        if not _splits(spec):  # "FLUX on 2× 3060": each card holds all of it, which the verdict above weighed
            notes.append(msg("canrun.note.whole_model" + ("" if inference else ".training"), count=count))
        elif not inference:
            notes.append(msg("canrun.note.fsdp", count=count))
        elif split == "pipeline":
            notes.append(
                msg("canrun.note.layer_split", count=count)
                if tensor_decode is None or not best.fits
                else msg(
                    "canrun.note.layer_split_tensor",
                    count=count,
                    low=tensor_decode.low,
                    high=tensor_decode.high,
                )
            )
        else:
            notes.append(msg("canrun.note.split", count=count))
    if training is not None and best.fits:
        notes.append(msg("canrun.note.training_time", basis=training.basis))
        notes.append(_batch_note(spec, best, capacity_gb(gpu), count, runtime_of(gpu)))
    if gpu.gpu_class == "laptop":
        notes.append(msg("canrun.note.laptop"))
    if not gpu.has_tensor_cores and gpu.platform != "unified_memory":  # a Mac's case is its own note
        notes.append(msg("canrun.note.no_tensor_cores"))
    if gpu.vendor == "amd":
        notes.append(msg("canrun.note.amd"))
    if not rented:  # a card in the cloud is in a server's case
        notes.extend(_passive_note(gpu, count))
    verdict = _with_needed(
        _verdict_text(
            _setup(gpu.short_name, count),
            tried,
            gpu.memory_gb,
            decode if best.fits else None,
            training=training if best.fits else None,
        ),
        gpu.short_name,
        needed,
        best.fits,
        lambda m, p, n: (
            decode_speed(spec, gpu, p, context=context, gpus=n, split=inference_split(gpu, n))
            if m == "inference" and spec.kind == "llm"
            else None
        ),
        most=None if gpu.gpu_class == "datacenter" else MAX_SERVER_GPUS,  # 8× 4090 servers are built; 31× are not
    )
    if offload is not None:
        said = msg(
            "canrun.offload.asked" if offload_asked else "canrun.offload.option",
            rung=_label("inference", offload.precision),
            ngl=offload.layers_on_gpu,
            layers=offload.layers,
            ram=offload.ram_gb,
            low=offload.decode.low,
            high=offload.decode.high,
        )
        # "is 64 GB of RAM enough for a 70B with offloading on my 4090?": the offload is the answer, said first
        verdict = (
            _sentences(said, msg("canrun.offload.gpu_alone", verdict=verdict))
            if offload_asked
            else _sentences(verdict, said)
        )
    own_fix = False
    if precision is not None and not best.fits:
        # The user's precision does not fit their card: say which one does, on the same card.
        lower = _try(spec, ladder(spec, mode, gpu), capacity_gb(gpu), count, context, split, runtime)[-1]
        if lower.fits:
            own_fix = True
            verdict = _sentences(
                verdict,
                msg(
                    "canrun.precision.fits_at",
                    rung=_label(lower.mode, lower.precision),
                    need=lower.estimate.per_gpu_gib,
                    have=gpu.memory_gb,
                ),
            )
    if not best.fits and gpu.unified_memory_gb is not None and gpu.vendor == "apple" and count == 1:
        raised = gpu.unified_memory_gb - MACOS_RESERVE_GB
        need = best.estimate.per_gpu_gib
        if need <= raised:  # macOS lets the GPU wire more than its default share when told to
            own_fix = True
            verdict = _sentences(
                verdict,
                msg(
                    "canrun.apple.wired_limit",
                    need=need,
                    total=gpu.unified_memory_gb,
                    reserve=MACOS_RESERVE_GB,
                    limit=raised,
                    mb=int(raised * 1024),
                ),
            )
    return GpuVerdict(
        gpu_id=gpu.id,
        name=gpu.short_name,
        count=count,
        memory_gb=gpu.memory_gb,
        fits=best.fits,
        mode=best.mode,
        precision=best.precision if best.fits else None,
        need_gib=best.estimate.per_gpu_gib,
        estimate=best.estimate,
        tried=tuple(tried),
        decode=decode if best.fits else None,
        prefill=prefill if best.fits else None,
        training=training if best.fits else None,
        needed=tuple(needed),
        verdict=verdict,
        notes=tuple(notes),
        split=split if count > 1 else "tensor",
        offload=best.offload,
        tensor_decode=tensor_decode if best.fits else None,
        cpu_offload=offload,
        own_fix=own_fix,
    )


def _memory_verdict(
    spec: ModelSpec, mode: Mode, memory_gb: float, count: int, context: int | None, precision: str | None = None
) -> MemoryVerdict:
    rungs = [(mode, precision)] if precision else ladder(spec, mode)
    tried = _try(spec, rungs, memory_gb * 2**30 / GB, count if _splits(spec) else 1, context)
    best = tried[-1]
    return MemoryVerdict(
        memory_gb=memory_gb,
        count=count,
        fits=best.fits,
        mode=best.mode,
        precision=best.precision if best.fits else None,
        need_gib=best.estimate.per_gpu_gib,
        estimate=best.estimate,
        tried=tuple(tried),
        verdict=_verdict_text(
            _setup(msg("canrun.setup.memory", gb=memory_gb), count), tried, memory_gb, None, memory_only=True
        ),
    )


# ---- alternatives ---------------------------------------------------------------------------


@lru_cache(maxsize=32)
def _price_index(
    catalog_key: int, snapshot: str | None, condition: PriceCondition | None, organization: bool, vendor: str | None
) -> tuple[tuple[tuple[float, bool, bool], tuple[tuple[Gpu, PriceQuote], ...]], ...]:
    """The priced cards a setup may use, grouped by what decides how many are needed (memory size;
    datacenter or desktop, which sets the largest count; tensor parallel or layer split), each group
    cheapest first and, at one price, the higher bandwidth (the faster decode) first.
    Built once per market: a search then asks one count per group, not one per card."""
    groups: dict[tuple[float, bool, bool], list[tuple[Gpu, PriceQuote]]] = {}
    for gpu in load_catalog().gpus.values():
        if not gpu.buyable(organization) or (vendor is not None and gpu.vendor != vendor):
            continue  # a person's setup: no laptops, Macs, modules or passive server cards
        quote = price_quote(gpu.id, snapshot=snapshot, condition=condition, ranked=True)
        if quote is None:
            continue
        key = (gpu.memory_gb, gpu.gpu_class == "datacenter", inference_split(gpu, 2) == "tensor")
        groups.setdefault(key, []).append((gpu, quote))
    by_price = {key: sorted(cards, key=lambda c: (c[1].usd, -c[0].bandwidth_gbs)) for key, cards in groups.items()}
    return tuple((key, tuple(cards)) for key, cards in sorted(by_price.items()))


def cheapest_setups(
    spec: ModelSpec,
    mode: Mode,
    precision: str,
    *,
    context: int | None = None,
    snapshot: str | None = None,
    condition: PriceCondition | None = None,
    max_usd: Decimal | None = None,
    organization: bool = False,
    vendor: str | None = None,
    limit: int = ALTERNATIVES_PER_TARGET,
) -> list[Alternative]:
    """The cheapest priced card counts that fit, by GPU price alone (base systems for 4-8 GPUs are
    not sourced): up to 4 desktop cards or 8 datacenter cards. Laptops are skipped; SXM/OAM modules
    only for organisations. Several desktop cards split a model by layers for chat, datacenter cards
    tensor parallel (:func:`inference_split`); training shards (FSDP). No multi-card setup is offered
    when one card that fits costs no more. ``vendor``: only that vendor's cards.

    Cost: one count per (memory size, class) group and a decode speed for the few cheapest cards of
    each, on an index of the priced cards built once per market (:func:`_price_index`), so a search
    does not grow with the catalog beyond its number of memory sizes."""
    index = _price_index(id(load_catalog()), snapshot, condition, organization, vendor)
    candidates: list[tuple[Gpu, PriceQuote, int]] = []
    for (_, server, linked), cards in index:
        most = (MAX_SERVER_GPUS if server else MAX_DESKTOP_GPUS) if _splits(spec) else 1
        split: Split = "tensor" if linked or mode != "inference" else "pipeline"
        # FP8 and INT8 take the same memory: the count does not depend on which one a card runs.
        n = gpus_needed(spec, cards[0][0], mode, precision, max_gpus=most, context=context, split=split)
        if n is None:
            continue
        # cheapest first, the faster of equal prices first; with a budget every card it buys, so the
        # fastest setup within it can be found too
        for gpu, quote in cards if max_usd is not None else cards[:limit]:
            if max_usd is not None and quote.usd * n > max_usd:
                break
            candidates.append((gpu, quote, n))
    found: list[Alternative] = []
    for gpu, quote, n in candidates:
        prec = _on_card(precision, gpu)  # a P100 trains in FP16, not BF16
        split = inference_split(gpu, n) if mode == "inference" else "tensor"
        est = estimate(spec, mode, prec, gpus=n, context=context, split=split, runtime=runtime_of(gpu))
        decode = (
            decode_speed(spec, gpu, prec, context=est.context, gpus=n, split=split) if mode == "inference" else None
        )
        found.append(
            Alternative(
                gpu_id=gpu.id,
                name=gpu.short_name,
                count=n,
                memory_gb=gpu.memory_gb,
                mode=mode,
                precision=prec,
                need_gib=est.per_gpu_gib,
                price=quote,
                gpus_usd=quote.usd * n,
                decode=decode,
                split=split if n > 1 else "tensor",
            )
        )
    found.sort(key=lambda a: (a.gpus_usd, -(a.decode.low if a.decode else 0)))
    single = min((a.gpus_usd for a in found if a.count == 1), default=None)
    if single is not None:  # one card that fits at no higher price beats a split
        found = [a for a in found if a.count == 1 or a.gpus_usd < single]
    # In view beside the cheapest: the cheapest setup with the fewest cards ("2× RTX 3090" beside
    # "4× RTX 3060": four cards need a board, PSU and cooling that two do not; guide §power, cooling
    # and slots) and, with a budget, the fastest setup it buys.
    keep = [min(found, key=lambda a: (a.count, a.gpus_usd), default=None)]
    if max_usd is not None:
        keep.append(max((a for a in found if a.decode), key=_fastest_first, default=None))
    kept = list(dict.fromkeys(a for a in keep if a is not None))
    shown = [a for a in found if a not in kept][: max(limit - len(kept), 1)] + kept
    return sorted(shown, key=lambda a: (a.gpus_usd, -(a.decode.low if a.decode else 0)))


def _fastest_first(alt: Alternative) -> tuple[float, Decimal]:
    """Order for "the fastest setup": decode speed, then the lower price."""
    return (alt.decode.high if alt.decode else 0.0, -alt.gpus_usd)


def _alternative_targets(spec: ModelSpec, mode: Mode, precision: str | None = None) -> list[tuple[Mode, str]]:
    """Full quality and the smallest sensible rung: BF16 and Q4_K_M, LoRA and QLoRA; a precision the user states
    ("at 8-bit") first, beside them."""
    rungs = ladder(spec, mode)
    if mode == "inference" and spec.kind == "llm":
        small = [r for r in rungs if r[1] == "q4_k_m"] or rungs[-1:]
        targets = [rungs[0], *[r for r in small if r != rungs[0]]]
    else:
        targets = rungs[:1] if len(rungs) == 1 else [rungs[0], rungs[-1]]
    if precision is None or (mode, precision) in targets:
        return targets
    return [(mode, precision), *targets]


# ---- the question ---------------------------------------------------------------------------


def _generic_model(text: str) -> tuple[ModelSpec, Msg] | None:
    """A bare size ("33B", "a 33b model") → the nearest generic stand-in, rescaled to that size, and
    what it stands for."""
    match = _BARE_SIZE.match(text)
    if not match:
        return None
    size = float(match.group("size"))
    if size <= 0:
        return None
    catalog = load_model_catalog()
    generics = [catalog.get(i) for i in catalog.ids() if i.startswith("generic-")]
    if not generics:
        return None
    nearest = min(generics, key=lambda g: abs(math.log(g.params_b / size)))
    if math.isclose(nearest.params_b, size):
        return nearest, msg("canrun.model_basis.stand_in", size=nearest.params_b)
    label = f"{size:g}"
    scaled = nearest.model_copy(
        update={
            "id": f"generic-{label}b",
            "name": f"Generic {label}B dense model",
            "aliases": (),
            "params_b": size,
            "notes": None,
        }
    )
    return scaled, msg("canrun.model_basis.rescaled", size=size, shape=model_words(nearest))


# The sizes a "by size" answer lists: from a phone-sized model to the largest one workstation holds at 4-bit.
SIZES_SHOWN: tuple[float, ...] = (1, 3, 7, 14, 32, 70)


@lru_cache(maxsize=8)
def needs_by_size(mode: Mode, context: int | None = None) -> tuple[SizeNeed, ...]:
    """What a generic dense model of each of :data:`SIZES_SHOWN` needs on one GPU for ``mode``, at full
    quality and at the smallest sensible rung: the answer for a model the engine cannot size itself."""
    rows = []
    for size in SIZES_SHOWN:
        generic = _generic_model(f"{size:g}B")
        if generic is None:  # no generic stand-ins in the catalog
            return ()
        spec = generic[0]
        needs = tuple(
            Need(mode=m, precision=p, gib=estimate(spec, m, p, gpus=1, context=context).per_gpu_gib)
            for m, p in _alternative_targets(spec, mode)
        )
        rows.append(SizeNeed(size_b=size, needs=needs))
    return tuple(rows)


def _resolve(text: str) -> tuple[ModelSpec | None, Msg | None, tuple[str, ...]]:
    """(model, basis, suggestions) for what the user typed."""
    catalog = load_model_catalog()
    model_id = catalog.resolve(text)
    if model_id is not None:
        spec = catalog.get(model_id)
        if spec.family == "generic":
            return spec, msg("canrun.model_basis.stand_in", size=spec.params_b), ()
        return spec, msg("canrun.model_basis.catalog", source=spec.source), ()
    generic = _generic_model(text)
    if generic is None and (sized := _SIZE_IN_NAME.search(text)):  # "Baichuan2-13B": answered from its size
        generic = _generic_model(f"{sized.group('size')}B")
    if generic is not None:
        return generic[0], generic[1], ()
    return None, None, tuple(catalog.suggest(text))


def _mode_for(spec: ModelSpec, query: Query, mode: Mode | None) -> tuple[Mode, Msg, Mode | None]:
    """(mode, why, the alternative to mention)."""
    if mode is not None:
        return mode, msg("canrun.mode_reason.given"), None
    if query.task == "llm_pretrain":
        return "pretrain", msg("canrun.mode_reason.pretrain"), "qlora"
    if query.task == "llm_finetune":
        if spec.kind == "llm" and spec.params_b >= 1:
            return "lora", msg("canrun.mode_reason.lora"), "qlora"
        return (
            "full_finetune",
            msg("canrun.mode_reason.full_small", params_b=spec.params_b, kind=kind_words(spec)),
            None,
        )
    return "inference", msg("canrun.mode_reason.inference"), None


# More cards than this are a server's, which comes with the airflow a passively cooled card is built for.
_DESKTOP_MOST_CARDS = 2


def _passive_note(gpu: Gpu, count: int) -> tuple[Msg, ...]:
    """ "Can a P40 run a 13B?", "an H100 PCIe for my home workstation?": a data-centre PCIe card with no fan of its
    own (the reference board's cooler, data/gpus.yaml) overheats in a desktop case without a shroud or blower —
    what home buyers of used Tesla cards learn the hard way. One or two cards: a server of four or eight has the
    airflow."""
    if gpu.cooling == "passive" and gpu.form_factor == "pcie" and count <= _DESKTOP_MOST_CARDS:
        return (msg("canrun.note.passive", name=gpu.short_name),)
    return ()


def _rented(query: Query) -> bool:
    """Cards asked about in the cloud ("a T4 on Colab", "an A10G on AWS"): nobody puts them in a case."""
    return bool(query.cloud_interest or query.provider)


def egpu_notes(gpus: list[Gpu]) -> tuple[Msg, ...]:
    """An Apple silicon Mac and an NVIDIA card named together ("add a 4090 eGPU to my M2 Max?"): no
    CUDA on the Mac; the card runs there only through TinyGPU + tinygrad, slowly (``EGPU_SOURCE``)."""
    pair = mac_and_nvidia(gpus)
    if pair is None:
        return ()
    apple, nvidia = pair
    return (msg("canrun.note.no_egpu", apple=apple.short_name, nvidia=nvidia.short_name, source=EGPU_SOURCE),)


def mixed_layer_split(spec: ModelSpec, setups: list[tuple[Gpu, int]], context: int | None) -> Msg | None:
    """Different cards together, split by layers as llama.cpp does by default (``--split-mode layer``,
    layers in proportion to each card's memory): the best rung whose share fits every card, and its
    speed. The cards take turns, so the time per token is the sum over cards of the bytes on the card
    over its bandwidth: with shares s_i and single-card rates r_i, 1 / Σ s_i / r_i (the per-token cost
    t0 counts once, as Σ s_i = 1). None for one kind of card, a model without a KV cache, or no fit."""
    cards = [gpu for gpu, count in setups for _ in range(count)]
    if len({g.id for g in cards}) < 2 or not has_kv_cache(spec):
        return None
    total = sum(capacity_gb(g) for g in cards)
    for _, prec in ladder(spec, "inference"):
        one = estimate(spec, "inference", prec, context=context)
        split_gb = one.gb_of("weights") + one.gb_of("KV cache")  # what the layers carry
        fixed_gb = one.per_gpu_gb - split_gb  # activations and runtime, on every card
        needs = [split_gb * capacity_gb(g) / total + fixed_gb for g in cards]
        if any(need > capacity_gb(g) for need, g in zip(needs, cards, strict=True)):
            continue
        speeds = [decode_speed(spec, g, prec, context=one.context) for g in cards]
        if any(r is None for r in speeds):
            return None
        shares = [capacity_gb(g) / total for g in cards]
        low = 1 / sum(s / r.low for s, r in zip(shares, speeds, strict=True) if r is not None)
        high = 1 / sum(s / r.high for s, r in zip(shares, speeds, strict=True) if r is not None)
        parts = tuple(
            msg("canrun.mixed.part", gpu=g.short_name, need=need * GB / 2**30, capacity=g.memory_gb)
            for g, need in zip(cards, needs, strict=True)
        )
        return msg("canrun.note.mixed_layer_split", rung=_label("inference", prec), parts=parts, low=low, high=high)
    return None


def named_setups(query: Query) -> list[tuple[Gpu, int]]:
    """The (card, count) setups a question names, in its order ("4× A100 40GB", "a 4090")."""
    catalog = load_catalog()
    out: list[tuple[Gpu, int]] = []
    for i, gpu_id in enumerate(query.gpus):
        if i < len(query.gpu_counts):
            count = query.gpu_counts[i]
        else:
            count = query.num_gpus if len(query.gpus) == 1 and query.num_gpus else 1
        out.append((catalog.get(gpu_id), max(count, 1)))
    return out


# "What can my card do?": reference models per use, smallest first (the largest that fits is the answer). The small
# Llama 3.2 models are there so that a 2-6 GB card is told what it does run (a 3B chat model at 4-bit), not "none".
# A use's precision is fixed where the use names one (LoRA on a BF16 base, QLoRA's NF4, full fine-tuning in
# BF16 mixed precision); inference walks down the quality ladder to the best rung that fits.
CARD_MODELS: tuple[
    tuple[Literal["chat", "image", "qlora", "lora", "full_finetune"], Mode, str | None, tuple[str, ...]], ...
] = (
    (
        "chat",
        "inference",
        None,
        ("llama-3.2-1b", "llama-3.2-3b", "llama-3.1-8b", "qwen2.5-14b", "qwen2.5-32b", "llama-3.3-70b"),
    ),
    ("image", "inference", None, ("sd-1.5", "sdxl", "flux-1-dev")),
    ("qlora", "qlora", "nf4", ("llama-3.2-3b", "llama-3.1-8b", "qwen2.5-14b", "qwen2.5-32b", "llama-3.3-70b")),
    ("lora", "lora", "bf16", ("llama-3.2-1b", "llama-3.2-3b", "llama-3.1-8b", "qwen2.5-14b")),
    ("full_finetune", "full_finetune", "bf16", ("qwen2.5-0.5b", "qwen2.5-1.5b", "llama-3.2-3b", "llama-3.1-8b")),
)


# What a card runs is remembered for this many (card, count) setups: ≈30 KB pickled each (the estimates
# inside are shared with engine.memory's cache), and questions name a few popular cards again and again.
CARDS_REMEMBERED = 64


def card_capabilities(gpu: Gpu | float, count: int = 1) -> tuple[CardRow, ...]:
    """For each use, the largest reference model the setup runs (at the best rung that fits) and,
    when it exists, the next one up that does not fit — what the setup can do, and where it stops.
    ``gpu`` may be a bare memory size in GB ("what runs in 12 GB?"): the same rows, without speeds."""
    return _capabilities(gpu.id if isinstance(gpu, Gpu) else float(gpu), count, id(load_catalog()))


@lru_cache(maxsize=CARDS_REMEMBERED)
def _capabilities(setup: str | float, count: int, catalog_key: int) -> tuple[CardRow, ...]:
    """:func:`card_capabilities`, remembered per card (or memory size) and count: "what does my 3090
    run?" is asked of the same few cards over and over, and each costs 10-18 verdicts. Each use's
    models grow in size, so the first that does not fit ends its walk (none after it would fit)."""
    models = load_model_catalog()
    gpu = load_catalog().get(setup) if isinstance(setup, str) else None
    rows: list[CardRow] = []
    for use, mode, precision, ids in CARD_MODELS:
        fitting: tuple[str, GpuVerdict | MemoryVerdict] | None = None
        stops: tuple[str, GpuVerdict | MemoryVerdict] | None = None
        for i in ids:
            verdict = (
                _gpu_verdict(models.get(i), mode, gpu, count, None, precision)
                if gpu is not None
                else _memory_verdict(models.get(i), mode, float(setup), count, None, precision)
            )
            if not verdict.fits:
                stops = (i, verdict)
                break
            fitting = (i, verdict)
        shown = [pair for pair in (fitting, stops) if pair is not None]
        rows += [CardRow(use=use, model_id=i, model_name=models.get(i).name, verdict=v) for i, v in shown]
    return tuple(rows)


_NOT_LLM_TASKS = frozenset({"computer_vision", "other", "rl", "research", "kaggle", "learning"})


# The least memory the guide names for learning: "trying it out: … GTX 1050 Ti" (4 GB), beside "little money: used
# … 1650 Super / 980 Ti 6 GB" (Guide 2020 §recommendations, TL;DR). Under the 8 GB floor (the RTX 3070 it picks for a
# serious beginner) such a card is still one to learn on, as the guide says, not a no.
LEARNING_TRY_GB = 4


def _under_learning(gb: float, floor: MemoryFloor | None) -> bool:
    """A card under the guide's floor for learning or Kaggle: free notebook GPUs are the way on."""
    return floor is not None and floor.task in ("learning", "kaggle") and gb < floor.gb


def _card_lean(
    gb: float, rows: tuple[CardRow, ...], floor: MemoryFloor | None, task: str | None, asked_learning: bool = False
) -> bool | None:
    """The yes or no a card's headline gives without a model's own figures, as :func:`_card_headline`
    words it: images made or not, the guide's floor met or not, some reference LLM run or none."""
    if task == "image_generation":
        return any(r.verdict.fits for r in rows if r.use == "image")
    if task == "learning" and asked_learning and floor is not None:
        return gb >= LEARNING_TRY_GB  # the guide's "trying it out" card learns, short of its floor (see above)
    if task in _NOT_LLM_TASKS and floor is not None:
        return gb >= floor.gb
    if task in ("llm_inference", "llm_finetune"):
        use = "chat" if task == "llm_inference" else "qlora"
        return any(r.verdict.fits for r in rows if r.use == use)
    return None


def _tunes_headline(
    setup: str | Msg, gb: float, rows: tuple[CardRow, ...], floor: MemoryFloor | None, full_first: bool = False
) -> Msg:
    """ "RX 7900 XTX (24 GB) fine-tunes up to Qwen2.5 14B with QLoRA (14.9 GB) and Llama 3.1 8B with
    LoRA (19.2 GB)": for a fine-tuning question, the largest model each adapter method trains. Asked
    about full fine-tuning ("4× A100 40GB, 全参微调"), the largest model trained in full leads."""
    largest = {use: next((r for r in rows if r.use == use and r.verdict.fits), None) for use in ("qlora", "lora")}
    qlora, lora = largest["qlora"], largest["lora"]
    if qlora is None:
        lead = msg("canrun.card.tunes_none", setup=setup)
    else:
        with_lora = (
            msg("canrun.card.tunes_lora", model=lora.model_name, need=lora.verdict.need_gib) if lora is not None else ""
        )
        lead = msg(
            "canrun.card.tunes_offload" if qlora.verdict.offload else "canrun.card.tunes",
            setup=setup,
            model=qlora.model_name,
            need=qlora.verdict.need_gib,
            lora=with_lora,
        )
    if full_first:
        full = next((r for r in rows if r.use == "full_finetune" and r.verdict.fits), None)
        first = (
            msg("canrun.card.tunes_full", setup=setup, model=full.model_name, need=full.verdict.need_gib)
            if full is not None
            else msg("canrun.card.tunes_full_none", setup=setup)
        )
        lead = _sentences(first, lead)
    if floor is not None and gb < floor.gb:
        return _sentences(lead, msg("canrun.card.floor", gb=floor.gb, rule=floor.rule))
    return lead


def _card_headline(
    setup: str | Msg,
    gb: float,
    rows: tuple[CardRow, ...],
    floor: MemoryFloor | None,
    task: str | None = None,
    mode: Mode | None = None,
    unknown: bool = False,
) -> Msg:
    """ "RTX 3060 12GB (12 GB) runs LLMs up to Qwen2.5 14B (GGUF Q4_K_M: 9.0 GB, ~18-24 tokens/s);
    Llama 3.3 70B does not fit (needs 40.5 GB)." — the guide's floor as guidance, never a bare no.
    For image generation the image models lead; for other work that is no LLM's (vision, 3D,
    speech…), the guide's floor for that work leads and the table shows the rest."""
    if task == "image_generation":
        images = [r for r in rows if r.use == "image"]
        made = next((r for r in images if r.verdict.fits), None)
        over = next((r for r in images if not r.verdict.fits), None)
        lead = (
            msg("canrun.card.images", setup=setup, model=made.model_name, need=made.verdict.need_gib)
            if made is not None
            else msg("canrun.card.images_none", setup=setup)
        )
        if over is None:
            return lead
        return _sentences(lead, msg("canrun.card.stops", model=over.model_name, need=over.verdict.need_gib))
    if task in _NOT_LLM_TASKS and floor is not None:
        key = "canrun.card.floor_meets" if gb >= floor.gb else "canrun.card.floor_under"
        # a model named that we have no figures for is not asked for again: its own figures are
        return msg(key + (".unknown" if unknown else ""), setup=setup, floor=floor.gb, rule=floor.rule)
    if task == "llm_finetune" or (task in ("nlp", "llm_pretrain") and mode in TRAINING_MODES):
        # "is a 5060 Ti 16GB good for training small transformers?": what it trains leads, not what it chats with
        return _tunes_headline(setup, gb, rows, floor, full_first=mode in ("full_finetune", "pretrain"))
    chat = [r for r in rows if r.use == "chat"]
    runs = next((r for r in chat if r.verdict.fits), None)
    stops = next((r for r in chat if not r.verdict.fits), None)
    parts: list[Msg] = []
    if runs is not None:
        v = runs.verdict
        speed = (
            msg("canrun.card.speed", low=v.decode.low, high=v.decode.high) if v.decode else msg("canrun.card.no_speed")
        )
        parts.append(
            msg(
                "canrun.card.runs",
                setup=setup,
                model=runs.model_name,
                rung=_label(v.mode, v.precision or "bf16"),
                need=v.need_gib,
                speed=speed,
            )
        )
    else:
        parts.append(msg("canrun.card.runs_none", setup=setup))
    if stops is not None:
        parts.append(msg("canrun.card.stops", model=stops.model_name, need=stops.verdict.need_gib))
    made = next((r for r in rows if r.use == "image" and r.verdict.fits), None)
    if task is None and made is not None:
        # "is the 5060 Ti 16GB good for AI?": no work named — what it generates is the other half of the answer
        v = made.verdict
        rung = _label(v.mode, v.precision or "fp16")
        parts.append(msg("canrun.card.images_too", model=made.model_name, rung=rung, need=v.need_gib))
    if floor is not None and gb < floor.gb:
        parts.append(msg("canrun.card.floor", gb=floor.gb, rule=floor.rule))
    return _sentences(*parts)


class PublishedNeed(Frozen):
    """What a model's own tool or authors publish it takes to run or train it: the least GPU memory
    that works and what they recommend (data/measurements/diffusion_training.yaml and
    published_requirements.yaml). Where arithmetic on parameters cannot say (diffusion training,
    speech, video, vision pipelines), these figures answer."""

    id: str
    model: str
    mode: Mode
    min_gb: float
    recommended_gb: float
    source: str
    # the least a card without NVIDIA Tensor Cores needs (a GTX 10 or 9 series card, an AMD one), where the source
    # gives its own figure for them (Fooocus: 4 GB on RTX cards, 8 GB on those)
    min_gb_no_tensor_cores: float | None = None
    condition: str | None = None  # the settings the figure holds for, as the source says (its words are a message)
    tool: str | None = None  # the program the figures are for
    date: str | None = None
    notes: str | None = None  # for review; what a user reads is the message canrun.published.settings.<id>


_PUBLISHED_FILES = (("diffusion_training.yaml", "training"), ("published_requirements.yaml", "requirements"))


@lru_cache(maxsize=1)
def _published() -> dict[tuple[str, str], tuple[PublishedNeed, ...]]:
    """(model, mode) → the published needs, one per tool, in the files' order (the first is the one answered)."""
    folder = data_dir() / "measurements"
    out: dict[tuple[str, str], tuple[PublishedNeed, ...]] = {}
    for name, key in _PUBLISHED_FILES:
        for row in read_yaml(folder / name)[key] if (folder / name).exists() else ():
            at = (row["model"], row["mode"])
            out[at] = (*out.get(at, ()), PublishedNeed(**row))
    return out


def published_need(model_id: str, mode: Mode) -> PublishedNeed | None:
    """The published requirement for ``model_id`` in ``mode`` (QLoRA reads as LoRA), if any; where two tools
    publish one, the first row in the files."""
    return next(iter(published_needs(model_id, mode)), None)


def published_needs(model_id: str, mode: Mode) -> tuple[PublishedNeed, ...]:
    """Every tool's published requirement for ``model_id`` in ``mode``, the first one first."""
    return _published().get((model_id, "lora" if mode == "qlora" else mode), ())


def _published_cards(
    query: Query, need: PublishedNeed, snapshot: str | None, condition: PriceCondition | None
) -> Msg | None:
    """ "What GPU for FLUX LoRA training?" (no card named): the cheapest card that meets the tool's minimum,
    and the cheapest that meets its recommendation, with their dated prices."""
    low, high = (
        # NVIDIA's cards with Tensor Cores unless the user named a vendor (the guide's advice)
        cheapest_card(
            gb,
            organization=bool(query.organization),
            vendor=query.vendor or "nvidia",
            tensor_cores_only=True,
            snapshot=snapshot,
            condition=condition,
        )
        for gb in (need.min_gb, need.recommended_gb)
    )
    if low is None or high is None:
        return None

    def card(quote: PriceQuote) -> Msg:
        gpu = load_catalog().get(quote.gpu_id)
        return msg(
            "canrun.published.card",
            gpu=gpu.short_name,
            gb=gpu.memory_gb,
            usd=quote.usd,
            basis=quote.basis_message(),
            date=quote.date,
        )

    if low.gpu_id == high.gpu_id:
        return msg("canrun.published.cards.one", card=card(high), recommended_gb=need.recommended_gb)
    return msg(
        "canrun.published.cards",
        low=card(low),
        high=card(high),
        min_gb=need.min_gb,
        recommended_gb=need.recommended_gb,
    )


def _published_report(
    query: Query,
    spec: ModelSpec,
    need: PublishedNeed,
    text: str | None,
    basis: Msg | None,
    snapshot: str | None = None,
    condition: PriceCondition | None = None,
) -> CanRunReport:
    """A model answered from its tool's published figures: from ``min_gb``, comfortable at
    ``recommended_gb``, per GPU (each card holds the whole model); with no card or memory named, the
    cheapest cards that meet each figure."""
    said = msg(
        "canrun.published.need",
        model=model_words(spec),
        work=msg(f"canrun.published.work.{need.mode}"),
        min_gb=need.min_gb,
        recommended_gb=need.recommended_gb,
        settings=msg(f"canrun.published.settings.{need.id}"),
        source=need.source,
    )
    checks: list[tuple[str | Msg, float, Gpu | None]] = [
        (_setup(g.short_name, n), g.memory_gb, g) for g, n in named_setups(query)
    ]
    if not checks and query.min_memory_gb:
        checks = [(f"{query.min_memory_gb:g} GB", query.min_memory_gb, None)]
    lighter = next(
        (o for o in published_needs(spec.id, need.mode)[1:] if checks and o.min_gb <= min(h for _, h, _ in checks)),
        None,
    )
    lines, fits = [], []
    for setup, have, gpu in checks:
        least, recommended = need.min_gb, need.recommended_gb
        if need.min_gb_no_tensor_cores and gpu is not None and (gpu.vendor != "nvidia" or not gpu.has_tensor_cores):
            least = need.min_gb_no_tensor_cores  # "Fooocus on a GTX 1060 6GB": its README asks 8 GB of such cards
            recommended = max(recommended, least)
        key = "yes" if have >= recommended else "tight" if have >= least else "no"
        # beside a lighter tool that fits, a no is that first tool's, not the setup's ("with openai-whisper, no")
        key += ".with_tool" if key == "no" and lighter is not None and need.tool else ""
        lines.append(
            msg(
                f"canrun.published.{key}",
                setup=setup,
                have=have,
                min_gb=least,
                recommended_gb=recommended,
                **({"tool": need.tool} if key.endswith("with_tool") else {}),
            )
        )
        fits.append(not key.startswith("no"))
    several = next(((g, n) for g, n in named_setups(query) if n > 1), None)
    # "Two 3090s for SDXL training, does 24 GB + 24 GB work?": an image or video model is not split over cards —
    # each holds all of it (data parallel; in serving, each its own requests), so a second card adds speed, never
    # memory; said right after the verdict, which leads (the yes or no is what was asked)
    per_card = "canrun.published.per_card" + (".inference" if need.mode == "inference" else "")
    pooled = [msg(per_card, setup=_setup(several[0].short_name, several[1]))] if several else []
    parts = [*lines, *pooled, said]
    cards = _published_cards(query, need, snapshot, condition) if not checks else None
    parts.extend([cards] if cards is not None else [])
    if lighter is not None and not all(fits):
        # "Can my 6 GB 1660 Super run Whisper large-v2?": no by openai-whisper's ~10 GB, yes by faster-whisper's
        # measured 2.9 GB (int8) — the other tool's figures lead, then the first tool's verdict
        parts.insert(  # leads: the setup does run it, with that tool
            0,
            msg(
                "canrun.published.other_tool",
                tool=lighter.tool or "",
                min_gb=lighter.min_gb,
                recommended_gb=lighter.recommended_gb,
                settings=msg(f"canrun.published.settings.{lighter.id}"),
                source=lighter.source,
            ),
        )
        fits = [True] * len(fits)  # every setup holds the lighter tool's minimum
    smaller = _smaller_sibling(spec, need.mode, min(h for _, h, _ in checks)) if checks and not all(fits) else None
    if smaller is not None:
        # "Is 16 GB enough for Wan2.1 14B?": no by its 69.1 GB; the family's largest model that fits is the way in
        sibling, its = smaller
        parts.append(
            msg(
                "canrun.published.smaller" + (".one" if its.min_gb == its.recommended_gb else ""),
                model=model_words(sibling),
                min_gb=its.min_gb,
                recommended_gb=its.recommended_gb,
                settings=msg(f"canrun.published.settings.{its.id}"),
                source=its.source,
            )
        )
    lora = published_need(spec.id, "lora") if need.mode == "full_finetune" else None
    if lora is not None and checks and not all(fits):
        # "Can a 3060 train SDXL?": a whole fine-tune does not fit; a LoRA, by the same tool's figures, may.
        parts.append(msg("canrun.published.lora_instead", min_gb=lora.min_gb, recommended_gb=lora.recommended_gb))
    if query.ran_out and checks and all(fits):
        # "Wan2.1 1.3B on my 4090 runs out of memory after 50 steps": the card meets the published figure, which holds
        # with the settings it states — what ran asked for more
        parts.append(msg("canrun.published.ran_out_fits"))
    return CanRunReport(
        query=query,
        model_text=text,
        model_id=spec.id,
        model_name=spec.name,
        model=spec,
        model_basis=basis,
        mode=need.mode,
        headline=_sentences(*parts),
        needs=(Need(mode=need.mode, precision="bf16", gib=need.min_gb),),
        published_fits=tuple(fits),
    )


def _smaller_sibling(spec: ModelSpec, mode: Mode, have_gb: float) -> tuple[ModelSpec, PublishedNeed] | None:
    """The largest smaller model of ``spec``'s family whose tool publishes a minimum for ``mode`` within
    ``have_gb`` (Wan2.1 1.3B for a 12 GB card asked about Wan2.1 14B), with that figure."""
    fitting = [
        (other, its)
        for other in load_model_catalog().models.values()
        if other.family == spec.family
        and other.params_b < spec.params_b
        and (its := published_need(other.id, mode)) is not None
        and its.min_gb <= have_gb
    ]
    return max(fitting, key=lambda pair: pair[0].params_b, default=None)


CPU_PRECISION = "q4_k_m"  # what people run on a CPU (llama.cpp's usual quantisation)


def _unknown(text: str, suggestions: tuple[str, ...] | list[str]) -> Msg:
    """ "I don't know the model …", with the closest names; for a name every suggestion starts with ("Qwen",
    "LLaMA"), a family of several generations, the question is which one."""
    catalog = load_model_catalog()
    names = tuple(msg("canrun.name", name=catalog.get(s).name) for s in suggestions)
    if not names:
        return msg("canrun.unknown_model", model=text)
    if _is_family(text, suggestions):
        return msg("canrun.family_which", model=text, suggestions=names)
    return msg("canrun.unknown_model_suggest", model=text, suggestions=names)


SIZE_ALIKE = 2.0  # versions of a family within this ratio of parameters are answered as one ("whisper large")


def _alike_in_size(suggestions: tuple[str, ...] | list[str]) -> bool:
    """Whether the models suggested for a family name are of about one size (largest ≤ 2× the smallest)."""
    sizes = [load_model_catalog().get(s).params_b for s in suggestions]
    return bool(sizes) and max(sizes) <= SIZE_ALIKE * min(sizes)


def _is_family(text: str, suggestions: tuple[str, ...] | list[str]) -> bool:
    """A name every suggestion starts with ("Qwen", "MiniCPM"): a family we know, of several sizes."""
    catalog = load_model_catalog()
    key = normalize_model_name(text)
    return bool(key and suggestions) and all(
        normalize_model_name(catalog.get(s).name).startswith(key) and _words_lead(text, catalog.get(s).name)
        for s in suggestions
    )


def _words_lead(text: str, name: str) -> bool:
    """Whether ``text``'s words begin ``name``'s, the last one ending at a word's end or before a digit:
    "whisper large" leads "Whisper large-v3", "qwen" leads "Qwen2.5 0.5B", "minima" does not lead "MiniMax-M2"."""
    said, named = _WORDS.findall(text.lower()), _WORDS.findall(name.lower())
    if not said or len(said) > len(named) or said[:-1] != named[: len(said) - 1]:
        return False
    last, rest = said[-1], named[len(said) - 1]
    return rest.startswith(last) and not rest[len(last) : len(last) + 1].isalpha()


_WORDS = re.compile(r"[a-z0-9]+")


# Words that make a model of a family a specialist, left out of a family named without them ("LLaMA": not Llama 3.2
# 11B Vision, "qwen": not Qwen2.5-VL or Qwen3-Coder)
_SPECIALISED = frozenset({"vision", "vl", "coder", "guard", "math", "audio", "omni"})


def _specialist_beyond(name: str, said: set[str]) -> bool:
    """Whether model ``name`` is a specialist by a word ``said`` (the words of what was asked) does not hold."""
    return bool(_SPECIALISED & set(_WORDS.findall(name.lower())) - said)


def _led_by(text: str) -> list[str]:
    """Every catalog model a name of several generations leads ("llama": Llama 2 7B to Llama 3.3 70B), smallest
    first: the family the user may mean, whole — the closest few suggested could stop short of what fits."""
    catalog = load_model_catalog()
    key = normalize_model_name(text)
    said = set(_WORDS.findall(text.lower()))
    led = [
        spec
        for spec in map(catalog.get, catalog.ids())
        if normalize_model_name(spec.name).startswith(key)
        and _words_lead(text, spec.name)
        and not _specialist_beyond(spec.name, said)  # "LLaMA" means a chat model
    ]
    return [spec.id for spec in sorted(led, key=lambda spec: (spec.params_b, spec.id))]


_VERSIONED = re.compile(r"([a-z]+)[0-9]")  # a name key's family letters, before its version number


def _of_a_known_family(text: str, suggestions: tuple[str, ...] | list[str]) -> bool:
    """A versioned name whose family letters a close catalog name shares ("DeepSeek V4" beside DeepSeek
    V3, "Kimi K2.5" and "Kimi-K2-Thinking" beside Kimi K2, "GLM-5" beside GLM-4.5): a version or variant
    we lack of a model we know, whose size a 7B stand-in would misstate (DeepSeek V4 Flash has 284B
    parameters). The 7B stand-in is for projects the catalog has no close name for ("Time-LLM")."""
    catalog = load_model_catalog()
    own = _VERSIONED.match(normalize_model_name(text))
    if own is None:
        return False
    for model_id in suggestions:
        other = _VERSIONED.match(normalize_model_name(catalog.get(model_id).name))
        if other is not None and other.group(1) == own.group(1):
            return True
    return False


def _cpu_report(query: Query, spec: ModelSpec | None, model_text: str | None) -> CanRunReport:
    """No GPU at all: a model runs on the CPU from system RAM. For an LLM, the RAM it takes at
    Q4_K_M and the decode speed system RAM allows (every token reads the weights once: dual-channel
    DDR4-3200 to DDR5-5600 at llama.cpp's measured share of peak); training on a CPU only for small
    models. Without a model named, a 7B stands in."""
    named = spec is not None
    model = spec or load_model_catalog().get("generic-7b")
    notes = [msg("canrun.cpu.training")]
    # It runs (slowly) for inference; whether training a model on a CPU is practical the note leaves open.
    lean = True if query.mode in (None, "inference") else None
    unknown = _unknown(model_text, load_model_catalog().suggest(model_text)) if model_text and not named else None
    if unknown is not None and not (query.task or "").startswith("llm"):
        # "GPT-SoVITS on a CPU only?": a project it cannot size, no LLM's work, runs on PyTorch's CPU build
        headline = _sentences(unknown, msg("canrun.cpu.other", model=model_text))
        return CanRunReport(
            query=query, model_text=model_text, unresolved=model_text, headline=headline, notes=tuple(notes), lean=lean
        )
    if model.kind != "llm" or not has_kv_cache(model):
        headline = msg("canrun.cpu.other", model=model_words(model))
        return CanRunReport(query=query, model_text=model_text, headline=headline, notes=tuple(notes), lean=lean)
    est = estimate(model, "inference", CPU_PRECISION, gpus=1, context=query.context_tokens, runtime="other")
    weights = est.gb_of("weights") * ((model.active_params_b or model.params_b) / model.params_b)
    low, high = (peak * RAM_EFFICIENCY / weights for peak in RAM_PEAK_GBS)
    headline = msg(
        "canrun.cpu.headline" if named else "canrun.cpu.headline_generic",
        model=model_words(model),
        rung=_label("inference", CPU_PRECISION),
        ram=est.total_gb,
        low=low,
        high=high,
    )
    if unknown is not None:  # an LLM it cannot size: a 7B's figures, said as a 7B's
        headline = _sentences(unknown, headline)
    notes.append(
        msg(
            "canrun.cpu.basis",
            low_peak=RAM_PEAK_GBS[0],
            high_peak=RAM_PEAK_GBS[1],
            efficiency=RAM_EFFICIENCY,
            source=RAM_SOURCE,
        )
    )
    return CanRunReport(
        query=query,
        model_text=model_text,
        model_id=model.id if named else None,
        model_name=model.name if named else None,
        model=spec,
        mode="inference",
        headline=headline,
        notes=tuple(notes),
        needs=(Need(mode="inference", precision=CPU_PRECISION, gib=est.total_gib),),
        lean=lean,
        unresolved=model_text if unknown is not None else None,
    )


def _card_setup(gpu: Gpu, count: int) -> str | Msg:
    """ "RTX 3070 (8 GB)": a card headline's setup with its memory — unless its name says it already ("RTX 3060 12GB",
    "Ascend 910B4 (32GB)"), which "(12 GB)" after it would only repeat."""
    name = _card_name(gpu, count)
    if gpu.platform != "unified_memory" and f"{gpu.memory_gb:g}gb" in gpu.short_name.lower().replace(" ", ""):
        return name
    return msg("canrun.card.setup", setup=name, gb=gpu.memory_gb)


def _card_name(gpu: Gpu, count: int) -> str | Msg:
    """The setup as a card headline names it; a unified-memory computer by its GPU's share, since the
    name already says the whole memory ("Apple M2 (8 GB)'s GPU share (6 GB)")."""
    if gpu.platform == "unified_memory":
        return msg("canrun.card.gpu_share", name=gpu.short_name)
    return _setup(gpu.short_name, count)


def _other_cards(
    setups: list[tuple[Gpu, int]],
    first: Gpu,
    floor: MemoryFloor | None,
    task: str | None,
    mode: Mode | None,
    unknown: bool = False,
) -> list[Msg]:
    """ "Would a 4070 or a 7800 XT be enough?" with no model: each further card named gets its own line of
    what it runs (the table shows the first); the guide's floor is said once, except where it is the
    answer itself (work that is no LLM's)."""
    said = floor if task in _NOT_LLM_TASKS else None
    out: list[Msg] = []
    for gpu, count in setups[1:4]:
        if gpu.id == first.id:
            continue
        setup = _card_setup(gpu, count)
        out.append(
            _card_headline(setup, gpu.memory_gb, card_capabilities(gpu, count), said, task, mode, unknown=unknown)
        )
    return out


def _floor_lines(
    setups: list[tuple[Gpu, int]], floor: MemoryFloor, unknown: bool, asked_learning: bool = False
) -> list[Msg]:
    """ "Does FooASR run on an Ascend 910B2 and a 910B4?" (work that is no LLM's, the guide's floor the guidance): the
    cards that meet the floor in one sentence and those under it in another, not the floor once per card."""
    seen: dict[str, tuple[Gpu, int]] = {}
    for gpu, count in setups[:4]:
        seen.setdefault(gpu.id, (gpu, count))
    suffix = ".unknown" if unknown else ""
    lines = []
    for key, group in (
        ("canrun.card.floor_meets", [s for s in seen.values() if s[0].memory_gb >= floor.gb]),
        ("canrun.card.floor_under", [s for s in seen.values() if s[0].memory_gb < floor.gb]),
    ):
        if not group:
            continue
        named = tuple(_card_setup(gpu, count) for gpu, count in group)
        learns = asked_learning and all(gpu.memory_gb >= LEARNING_TRY_GB for gpu, _ in group)
        if len(named) == 1 and key == "canrun.card.floor_under" and learns and not unknown:
            # "is my 1660 Super enough to learn deep learning?": yes, as the guide's own low-money picks say
            lines.append(msg("canrun.card.floor_learning", setup=named[0], floor=floor.gb, rule=floor.rule))
        elif len(named) == 1:
            lines.append(msg(key + suffix, setup=named[0], floor=floor.gb, rule=floor.rule))
        else:
            lines.append(msg(key + "_many" + suffix, setups=named, floor=floor.gb, rule=floor.rule))
    return lines


def _concurrency(verdicts: list[GpuVerdict], setups: list[tuple[Gpu, int]]) -> list[Msg]:
    """ "How many concurrent requests can an A100 80GB serve with Llama 2 13B?": each sequence keeps its own KV cache,
    so what is left beside the weights, the runtime and one prefill's activations, over one sequence's cache at
    the verdict's context, is how many full-length requests are in flight at once (a paged cache, as in vLLM and
    SGLang, fits more of shorter ones). Said in the headline, after the verdict: it is what a serving question asks."""
    out = []
    for verdict, (gpu, count) in zip(verdicts, setups, strict=True):
        held = _requests_held(verdict, gpu)
        if held is None:
            continue
        kv = verdict.estimate.term("KV cache")
        assert kv is not None  # (held says there is one)
        out.append(
            msg(
                "canrun.concurrency",
                setup=_card_setup(gpu, count),
                context=verdict.estimate.context or 0,
                kv=kv.gb,
                sequences=held,
            )
        )
    return out


def _requests_held(verdict: GpuVerdict, gpu: Gpu) -> int | None:
    """How many full-length requests the KV cache leaves room for beside the weights, the runtime and one prefill's
    activations, per card; None where the setup does not run the model or keeps no cache."""
    kv = verdict.estimate.term("KV cache") if verdict.fits and verdict.mode == "inference" else None
    if kv is None or kv.per_gpu_gb <= 0:
        return None
    free = capacity_gb(gpu) - (verdict.estimate.per_gpu_gb - kv.per_gpu_gb)
    return int(free // kv.per_gpu_gb)


# The most cards a deadline is met with in an answer (a cluster's worth: beyond, the training is a lab's project).
MAX_DEADLINE_GPUS = 4096


def _to_deadline(spec: ModelSpec, gpus: list[Gpu], hours: float) -> list[Msg]:
    """ "Train a 7B from scratch in a week": the compute-optimal run (Chinchilla's 20 tokens a parameter) on each named
    card, doubled until its slower estimate (the guide's data-parallel scaling, extrapolated past 8) fits ``hours``."""
    tokens = PRETRAIN_TOKENS_PER_PARAM * spec.params_b * 1e9
    out = []
    for gpu in dict.fromkeys(gpus):
        count = 1
        time = training_time(spec, gpu, tokens, mode="pretrain", gpus=count)
        while time is not None and time.hours_high > hours and count < MAX_DEADLINE_GPUS:
            count *= 2
            time = training_time(spec, gpu, tokens, mode="pretrain", gpus=count)
        if time is None or time.hours_high > hours:
            continue
        out.append(
            msg(
                "canrun.deadline",
                setup=_setup(gpu.short_name, count),
                hours=hours,
                tokens=tokens / 1e9,
                low=time.hours_low,
                high=time.hours_high,
            )
        )
    return out


# Cards a serving question with no card named is answered on: what vLLM and SGLang deployments run (an H100 at FP8, an
# A100 80GB at INT8, an L40S at FP8), each at the fewest cards tensor parallelism splits a model over (1, 2, 4, 8).
SERVING_CARDS = ("h100-sxm", "a100-80gb-sxm", "l40s")


def _serving_setups(spec: ModelSpec, context: int | None) -> list[Msg]:
    """The serving setups of ``SERVING_CARDS`` that hold ``spec`` at 8 bits with room for requests — the fewest cards
    in a tensor-parallel count (doubled once where the weights leave no room for a full-length request) — led by
    ``canrun.serving.lead``, each with how many full-length requests its KV cache holds at once."""
    catalog = load_catalog()
    first: MemoryEstimate | None = None
    said = []
    for gpu_id in SERVING_CARDS:
        if gpu_id not in catalog.gpus:
            continue
        gpu = catalog.get(gpu_id)
        eight = _eight_bit(gpu, llm=True)
        for count in TENSOR_PARALLEL_COUNTS:
            verdict = _gpu_verdict(spec, "inference", gpu, count, context, eight)
            held = _requests_held(verdict, gpu)
            if held is not None and held >= 2:
                said.append(msg("canrun.serving.setup", setup=_card_setup(gpu, count), sequences=held))
                first = first or verdict.estimate
                break
    kv = first.term("KV cache") if first is not None else None
    if first is None or kv is None:
        return []
    return [msg("canrun.serving.lead", context=first.context or 0, kv=kv.gb, setups=tuple(said))]


def _ran_out(query: Query, setup: str | Msg) -> tuple[Msg, ...]:
    """ "I get OOM on my 3090": what the user ran needs more than the card has with those settings — said
    first, with the settings that bring a need down, before what the card runs."""
    return (msg("canrun.ran_out", setup=setup),) if query.ran_out else ()


def _ran_out_though_it_fits(
    query: Query, spec: ModelSpec, verdicts: list[GpuVerdict], memory: MemoryVerdict | None
) -> tuple[Msg, ...]:
    """ "Qwen2.5 1.5B, how much memory? I OOM on 4× 48 GB": it fits as counted (the settings the verdict
    states), so what ran asked for more — said after the verdict, with what usually does it.
    "Yi-34B OOMs on my 48 GB card": it fits only below the ladder's first rung (INT8, not BF16), and the
    first rung is how most tools load a model — that is why it ran out, said instead.
    "INT8 inference of Baichuan-13B on a 24 GB 3090 runs out of memory too": the quantized model fits, but its
    16-bit weights do not, and loading them onto the card before quantizing them is the usual cause."""
    if not query.ran_out:
        return ()
    judged = [v for v in (*verdicts, memory) if v is not None and v.fits]
    if not judged:
        return ()
    if all(len(v.tried) > 1 and not v.tried[0].fits for v in judged):
        return (msg("canrun.ran_out.as_loaded", rung=_label(judged[0].tried[0].mode, judged[0].tried[0].precision)),)
    first = judged[0]
    if first.mode == "inference" and first.precision and get_precision(first.precision).bits < 16:
        half = estimate(spec, "inference", "bf16", gpus=first.estimate.gpus, context=first.estimate.context)
        if half.per_gpu_gib > first.memory_gb:  # both GiB, as a card's size is
            return (
                msg("canrun.ran_out_fits.quantized", rung=_label("inference", first.precision), need=half.per_gpu_gib),
            )
    return (msg("canrun.ran_out_fits"),)


def _stated_need(query: Query, setups: list[tuple[Gpu, int]]) -> float | None:
    """A memory need the question states beside a named card ("the docs say at least 14 GB; will my
    4060 Ti 16G do?"): a size that is no named card's own memory (which only tells variants apart)."""
    if query.vram_need_gb is not None:  # "README里写了要19g，我只有16g的v100": the need quoted, as the parser read it
        return query.vram_need_gb
    need = query.min_memory_gb
    owned = [size for gpu, _ in setups for size in (gpu.memory_gb, gpu.unified_memory_gb) if size is not None]
    if need is None or any(-0.5 < need - size <= 1 for size in owned):
        # the card's own memory, or a Mac's whole unified memory ("M4 Max 128G"); a gigabyte more is the card said
        # loosely ("6块2080ti 12g", "one 1080ti with 12GB"), not a need its 11 GB misses (a need quoted as one is
        # vram_need_gb)
        return None
    return need


def _against_need(gb: float, need: float, ran_out: bool = False, setup: str | Msg | None = None) -> Msg:
    """A named card (``setup``) or a bare memory size against the stated need ("24 GB needed; 16 GB?"), with the
    margin either way; memory is per card, never pooled. Met and still run out of ("needs 10 GB, my 3060 12GB runs
    out"): what that says of the settings."""
    if gb >= need and ran_out:
        return msg("canrun.size.need_met_ran_out", gb=gb, need=need)
    prefix, said = ("canrun.size", {}) if setup is None else ("canrun.card", {"setup": setup})
    if gb >= need:
        return msg(f"{prefix}.need_met", gb=gb, need=need, margin=gb - need, **said)
    return msg(f"{prefix}.need_short", gb=gb, need=need, short=need - gb, **said)


def _floor_report(query: Query, model_text: str | None, unknown: bool = False) -> CanRunReport:
    """No model named, or one we have no figures for (``unknown``): what the named card can do (the
    largest models it runs and trains, how fast, where it stops), with the guide's floor for the task
    as guidance; with only a memory size, that size against the floor."""
    # Training something the question does not place in a domain ("can a 3090 train HEDNet?"), or
    # running a project we have no figures for in no domain named ("can a 4090 run SLMRec?"), is the
    # guide's prototyping: its floor for "other" work (2020: ≥ 10 GB) is the guidance.
    task = query.task or ("other" if unknown or query.mode in ("full_finetune", "pretrain") else None)
    floor = memory_floor(task) if task else None
    setups = named_setups(query)
    if setups:
        gpu, count = setups[0]
        rows = card_capabilities(gpu, count)
        tiny = task is None and query.mode is None and not any(r.verdict.fits for r in rows if r.use != "chat")
        if tiny:
            # "Is a GT 1030 usable for deep learning?": a card that makes no image and fine-tunes nothing (a small
            # chat model at 4-bit at most) is weighed against the guide's most lenient floor, learning's.
            task, floor = "learning", memory_floor("learning")
        need = _stated_need(query, setups)
        # "is my 1660 Super enough to learn deep learning?": the user's own word for the work, not the floor a card
        # that runs nothing else falls back to
        asked_learning = query.task == "learning"
        lean = (
            gpu.memory_gb >= need
            if need is not None
            else _card_lean(gpu.memory_gb, rows, floor, task, asked_learning=asked_learning)
        )
        return CanRunReport(
            query=query,
            model_text=model_text,
            floor=floor,
            card=rows,
            lean=False if query.ran_out else lean,
            headline=_sentences(
                *_ran_out(query, _card_name(gpu, count)),
                *(
                    (_against_need(gpu.memory_gb, need, bool(query.ran_out), _card_name(gpu, count)),)
                    if need is not None
                    else ()
                ),
                *(
                    _floor_lines(setups, floor, unknown, asked_learning=asked_learning)
                    if task in _NOT_LLM_TASKS and floor is not None
                    else (
                        _card_headline(_card_setup(gpu, count), gpu.memory_gb, rows, floor, task, query.mode, unknown),
                        *_other_cards(setups, gpu, floor, task, query.mode, unknown=unknown),
                    )
                ),
            ),
            notes=(
                *egpu_notes([g for g, _ in setups]),
                *(() if _rented(query) else _passive_note(gpu, count)),
                *((msg("canrun.card.free_notebooks"),) if tiny or _under_learning(gpu.memory_gb, floor) else ()),
                msg("canrun.card.its_figures", model=model_text)
                if unknown and model_text
                else msg("canrun.card.name_a_model"),
            ),
            assumptions=_ASSUMPTIONS,
        )
    if query.min_memory_gb:  # "is 12 GB enough?", "what runs in 8 GB?": what that much memory holds
        gb, count = query.min_memory_gb, query.num_gpus or 1
        rows = card_capabilities(gb, count)
        need = query.vram_need_gb  # "it requires 24 GB: will it run in 16 GB?": the size against the need first
        lean = gb >= need if need is not None else _card_lean(gb, rows, floor, task)
        return CanRunReport(
            query=query,
            model_text=model_text,
            floor=floor,
            card=rows,
            lean=False if query.ran_out else lean,
            headline=_sentences(
                *_ran_out(query, f"{gb:g} GB"),
                *((_against_need(gb, need, bool(query.ran_out)),) if need is not None else ()),
                _card_headline(
                    msg("canrun.card.memories", count=count, gb=gb) if count > 1 else msg("canrun.card.memory", gb=gb),
                    gb,
                    rows,
                    floor,
                    task,
                    query.mode,
                    unknown=unknown,
                ),
            ),
            notes=(
                msg("canrun.card.its_figures", model=model_text)
                if unknown and model_text
                else msg("canrun.card.name_a_model"),
            ),
            assumptions=_ASSUMPTIONS,
        )
    if floor is None:
        # No model, card or memory size: the question back, with what each common size needs meanwhile.
        return _by_size_report(query, model_text, msg("canrun.ask_model"), query.context_tokens)
    return CanRunReport(
        query=query, model_text=model_text, floor=floor, headline=msg("canrun.floor.ask_gpu", rule=floor.rule)
    )


def _by_size_report(query: Query, model_text: str | None, first: Msg, context: int | None) -> CanRunReport:
    """A model the engine cannot size, or none named: ``first`` (the question back, or "I don't know
    WriteGPT"), then what a model of each common size needs for the work asked — the user's model card
    gives the size to read off. A fine-tune asked without how is read as LoRA, as for a named model."""
    mode: Mode = query.mode or ("lora" if query.task == "llm_finetune" else "inference")
    if query.ran_out:  # "CUDA out of memory, what can I do?": what brings a need down comes before the question back
        first = _sentences(msg("canrun.ran_out.general"), first)
    rows = needs_by_size(mode, context)
    if not rows:
        return CanRunReport(query=query, model_text=model_text, headline=first)
    return CanRunReport(
        query=query,
        model_text=model_text,
        mode=mode,
        by_size=rows,
        headline=_sentences(first, msg("canrun.by_size.lead", work=msg(f"canrun.by_size.work.{mode}"))),
        assumptions=_ASSUMPTIONS,
    )


def _headline(
    spec: ModelSpec,
    verdicts: list[GpuVerdict],
    memory: MemoryVerdict | None,
    alternatives: list[Alternative],
    need: Msg | None = None,
    needs: list[Need] | None = None,
    within_budget: bool = False,
    asked: Mode | None = None,
    currency: str = "USD",
    runs_instead: tuple[Msg, ...] = (),
    cheapest_first: bool = False,
) -> Msg:
    if need is not None:
        head = _sentences(msg("canrun.headline.model", model=model_words(spec)), need)
    elif needs and not verdicts and memory is None:
        said = tuple(msg("canrun.need_at", rung=_label(n.mode, n.precision), gib=n.gib) for n in needs)
        head = msg("canrun.headline.needs", model=model_words(spec), needs=said)
    elif verdicts:
        head = _sentences(
            *(msg("canrun.headline.verdict", setup=_setup(v.name, v.count), verdict=v.verdict) for v in verdicts),
            *runs_instead,  # what the user's own setup does instead, before what it would take to buy
        )
    elif memory is not None:
        head = memory.verdict
    else:
        head = msg("canrun.headline.model", model=model_words(spec))
    if alternatives and not any(v.fits for v in verdicts) and (memory is None or not memory.fits):
        # One card leads where one fits: a rig of several cheaper ones needs the board and the PSU for them
        # (and splits the layers, so decodes no faster), so it is said beside it, not instead.
        singles = [a for a in alternatives if a.count == 1]
        cheapest = min(singles or alternatives, key=lambda a: a.gpus_usd)
        split = min(alternatives, key=lambda a: a.gpus_usd)
        top = alternatives[0]
        # "Full fine-tune of Qwen 14B": nothing on a desk holds the work asked, so what is offered is
        # another mode (LoRA, QLoRA), and the offer says so rather than calling it the cheapest fit.
        instead = "instead_" if asked is not None and all(a.mode != asked for a in alternatives) else ""
        if (top.mode, top.precision) != (cheapest.mode, cheapest.precision):
            offer = msg(
                f"canrun.{instead}cheapest_and_top",
                cheapest=_alternative_words(cheapest, currency=currency),
                rung=_label(top.mode, top.precision),
                top=_alternative_words(top, with_label=False, currency=currency),
            )
        else:
            offer = msg(f"canrun.{instead}cheapest", cheapest=_alternative_words(cheapest, currency=currency))
        fastest = max(alternatives, key=_fastest_first)
        offers = [offer]
        if split.gpus_usd < cheapest.gpus_usd and split.count <= MAX_SPLIT_OFFERED:
            # (a rig of two cards; three or four 8 GB cards for what one 24 GB card holds is no build to suggest)
            offers.append(msg("canrun.split_cheaper", split=_alternative_words(split, currency=currency)))
        offers.extend(_fsdp_offload_cheaper(spec, alternatives, currency))
        if within_budget and fastest.decode and fastest is not cheapest and fastest is not top:
            # "The best GPU for Llama 3 70B under $2,000": the best setup the budget buys leads (the money is what the
            # user means to spend), the cheapest that holds it beside it — unless the cheapest was asked for
            best = msg("canrun.fastest_in_budget", fastest=_alternative_words(fastest, currency=currency))
            offers = [*offers, best] if cheapest_first else [best, *offers]
        head = _sentences(head, *offers)
    return head


# The least memory per card of the pair offered for FSDP + QLoRA with CPU offload: Answer.AI's two 24 GB cards.
FSDP_OFFLOAD_MIN_GB = 24


def _fsdp_offload_cheaper(spec: ModelSpec, alternatives: list[Alternative], currency: str) -> tuple[Msg, ...]:
    """ "How much VRAM to fine-tune Llama 3 70B?": the cheapest QLoRA rig is four 24 GB cards, but two of them train it
    with FSDP CPU offload (Answer.AI's FSDP+QLoRA: Llama 2 70B on two 24 GB cards) — half the cards, and slower, as the
    frozen 4-bit base streams from system RAM. Said when that pair fits and costs less than every rig offered."""
    catalog = load_catalog()
    qlora = [
        a
        for a in alternatives
        if a.mode == "qlora"
        and a.count > 2
        # Answer.AI's setup: 24 GB cards with Tensor Cores (a Pascal card trains a 70B at no useful speed)
        and a.memory_gb >= FSDP_OFFLOAD_MIN_GB
        and catalog.get(a.gpu_id).has_tensor_cores
    ]
    if spec.kind != "llm" or not qlora:
        return ()
    rig = min(qlora, key=lambda a: a.gpus_usd)
    gpu = catalog.get(rig.gpu_id)
    rung = _fsdp_offload_rung(spec, gpu, 2, None)
    pair = rig.price.usd * 2
    if not rung.fits or pair >= min(a.gpus_usd for a in alternatives):
        return ()
    local = local_estimate(pair, currency)
    cost = msg("canrun.alt.cost_local", usd=pair, local=local) if local else msg("canrun.alt.cost", usd=pair)
    return (
        msg(
            "canrun.fsdp_offload_cheaper",
            setup=_setup(gpu.short_name, 2),
            rung=_label("qlora", "nf4", offload=True),
            cost=cost,
            need=rung.estimate.per_gpu_gib,
        ),
    )


# The most cards a rig offered as cheaper than one card that holds the model may have.
MAX_SPLIT_OFFERED = 2


# The fine-tunes that take less memory than each, lightest last: what a card that cannot do the one asked may do.
_LIGHTER: dict[str, tuple[tuple[Mode, str], ...]] = {
    "full_finetune": (("lora", "bf16"), ("qlora", "nf4")),
    "lora": (("qlora", "nf4"),),
}


def _runs_instead(spec: ModelSpec, mode: Mode, verdicts: list[GpuVerdict]) -> tuple[Msg, ...]:
    """ "Can my M3 Max 36GB run a 70B?" — no; then what the user's own setup does: the same model with a lighter
    fine-tune ("a full fine-tune of Llama 3 8B on a 4090? No; LoRA fits: 19.2 GB"), else the largest reference LLM
    it runs at the work asked ("it runs Qwen2.5 32B: GGUF Q5_K_M, 24.5 GB, ~7-10 tokens/s"): the user's card is
    never only a no. One setup named, an LLM, no verdict that fits."""
    use = {"inference": "chat", "qlora": "qlora", "lora": "lora", "full_finetune": "full_finetune"}.get(mode)
    if spec.kind != "llm" or use is None or len(verdicts) != 1 or verdicts[0].fits or verdicts[0].own_fix:
        return ()  # (a verdict that says its own way in, "at QLoRA it fits", is not told it twice)
    v = verdicts[0]
    gpu = load_catalog().get(v.gpu_id)
    for lighter, precision in _LIGHTER.get(mode, ()):
        fit = _gpu_verdict(spec, lighter, gpu, v.count, None, precision)
        if fit.fits:
            rung = _label(fit.mode, fit.precision or precision)
            return (msg("canrun.lighter_fits", setup=_setup(v.name, v.count), rung=rung, need=fit.need_gib),)
    kin = _kin_that_fits(spec, gpu, v.count) if mode == "inference" else None
    row: GpuVerdict | MemoryVerdict
    if kin is not None:
        name, row = kin
    else:
        rows = card_capabilities(gpu, v.count)
        runs = next((r for r in rows if r.use == use and r.verdict.fits), None)
        if runs is None:
            return ()
        name, row = runs.model_name, runs.verdict
    said = {
        "setup": _setup(v.name, v.count),
        "model": name,
        "rung": _label(row.mode, row.precision or "bf16"),
        "need": row.need_gib,
    }
    if isinstance(row, GpuVerdict) and row.decode is not None:
        return (msg("canrun.runs_instead.speed", low=row.decode.low, high=row.decode.high, **said),)
    return (msg("canrun.runs_instead", **said),)


# A model name's size and what follows it ("Llama 3.3 70B" → "Llama 3.3", "Qwen3 235B-A22B" → "Qwen3"): what is left
# names the line its smaller kin share ("DeepSeek R1" → its "DeepSeek R1 Distill Qwen 32B").
_NAME_SIZE = re.compile(r"\s*\d+(?:\.\d+)?\s?B\b.*$")


def _kin_that_fits(spec: ModelSpec, gpu: Gpu, count: int) -> tuple[str, GpuVerdict] | None:
    """ "DeepSeek on my 4090?" — the 671B R1 does not fit; the largest smaller model of its own line that the
    setup runs (an R1 distill, the 8B of a 70B's line) is what the user most likely can run, before any other
    model. None when the line has no smaller model that fits."""
    line = _NAME_SIZE.sub("", spec.name)
    if spec.family == "generic" or not line:
        return None  # "a 70B model" names no line
    catalog = load_model_catalog()
    own = set(_WORDS.findall(spec.name.lower()))
    kin = sorted(
        (
            other
            for other in map(catalog.get, catalog.ids())
            if other.kind == "llm"
            and other.params_b < spec.params_b
            and other.name.startswith(line)
            and other.name[len(line) : len(line) + 1] in ("", " ", "-")  # "Llama 3" is not "Llama 3.2"
            and not _specialist_beyond(other.name, own)  # nor its Vision model
        ),
        key=lambda other: -other.params_b,
    )
    for other in kin:
        verdict = _gpu_verdict(other, "inference", gpu, count, None)
        if verdict.fits:
            return other.name, verdict
    return None


def _rig_notes(alternatives: list[Alternative]) -> list[Msg]:
    """What three or four desktop cards take beyond their price, for the cheapest such setup shown: the
    PSU the load needs (engine.power, guide §power) and a board with the slots for them."""
    catalog = load_catalog()
    rigs = [a for a in alternatives if a.count >= 3 and catalog.get(a.gpu_id).gpu_class != "datacenter"]
    if not rigs:
        return []
    rig = min(rigs, key=lambda a: a.gpus_usd)
    sized = plan(rig.gpu_id, rig.count)
    return [msg("canrun.note.rig", setup=_setup(rig.name, rig.count), psu=sized.recommended_psu_w, load=sized.load_w)]


def _alternative_words(alt: Alternative, *, with_label: bool = True, currency: str = "USD") -> Msg:
    """ "2× RTX 3090 at GGUF Q4_K_M ($1,600 for the GPUs, ~12-16 tokens/s)"; with a budget in another
    currency, the price in it too ("$1,356 ≈ CN¥9,352")."""
    local = local_estimate(alt.gpus_usd, currency)
    said: dict[str, Value] = {"usd": alt.gpus_usd, **({"local": local} if local else {})}
    suffix = "_local" if local else ""
    cost = (
        msg(f"canrun.alt.cost_speed{suffix}", low=alt.decode.low, high=alt.decode.high, **said)
        if alt.decode
        else msg(f"canrun.alt.cost{suffix}", **said)
    )
    setup = _setup(alt.name, alt.count)
    if with_label:
        return msg("canrun.alt.setup_at", setup=setup, rung=_label(alt.mode, alt.precision), cost=cost)
    return msg("canrun.alt.setup", setup=setup, cost=cost)


_ASSUMPTIONS = (
    msg("canrun.assume.per_gpu"),
    msg("canrun.assume.gib"),
    msg("canrun.assume.inference", context=DEFAULT_INFERENCE_CONTEXT),
    msg(
        "canrun.assume.speed",
        decode_low=DECODE_EFFICIENCY[0],
        decode_high=DECODE_EFFICIENCY[1],
        compute_low=COMPUTE_UTILISATION[0],
        compute_high=COMPUTE_UTILISATION[1],
    ),
    msg("canrun.assume.prices"),
)


def _answers_yes(report: CanRunReport) -> bool:
    """Whether a report's named setups (or memory size) hold the model: by its memory, or by the figure its
    tool publishes (whisper, TTS and video models)."""
    held = any(v.fits for v in report.verdicts) or bool(report.memory_verdict and report.memory_verdict.fits)
    return held or any(report.published_fits)


# A family named without a size lists its members by name up to this many, else first to last.
_FAMILY_LISTED = 5


# Several model sizes asked about together ("7B, 13B and 70B on a 3090?") travel in Query.model as bare sizes
# joined by "/" ("7B/13B/70B": the parser writes them so, short enough for a button's model text).
_SIZE = r"\d+(?:\.\d+)?[bB]"
_SIZES = re.compile(rf"{_SIZE}(?:{re.escape(SIZES_JOIN)}{_SIZE})+")


def several_sizes(text: str) -> list[str] | None:
    """The sizes of a model text that asks about several ("7B/13B/70B" → ["7B", "13B", "70B"]), or None."""
    return text.split(SIZES_JOIN) if _SIZES.fullmatch(text) else None


def _sizes_report(query: Query, sizes: list[str], ask: Callable[[Query], CanRunReport]) -> CanRunReport:
    """Several sizes asked together: each answered as a model of that size would be, one sentence each, in the
    order asked; the table, breakdown and verdicts are the first size's (the question's yes or no is its)."""
    reports = [ask(query.model_copy(update={"model": size})) for size in sizes]
    lines = tuple(msg("canrun.size_line", size=size, line=r.headline) for size, r in zip(sizes, reports, strict=True))
    first = reports[0]
    return first.model_copy(update={"model_text": query.model, "headline": _sentences(*lines)})


def _family_report(
    query: Query, text: str, members: list[str], ask: Callable[[Query], CanRunReport], generations: bool = False
) -> CanRunReport:
    """A family named without a size ("can my 3060 run Llama 3?", "how much VRAM does Qwen2.5 need?"):
    with a card or a memory size, the largest member that fits it (the smallest when none does); with
    neither, the smallest. The headline names the sizes there are, so the user can ask for another.
    ``generations``: a name of several generations ("LLaMA on my 3070?"), weighed over every chat model it
    leads (:func:`_led_by`) and asked which one is meant."""
    catalog = load_model_catalog()
    specs = [catalog.get(m) for m in members]
    if query.objective == "cheapest" and (typical := _typical_size(specs)) is not None:
        # "The minimum GPU to fine-tune LLaMA, must it be an A100?": not the largest a card holds but what the
        # least hardware does for a size people use (7-8B), with the cheapest card that does it
        chosen = ask(query.model_copy(update={"model": typical.name}))
        key = "canrun.family.which_typical" if generations else "canrun.family.typical"
        said = msg(key, family=text, sizes=_family_sizes(specs), model=typical.name)
        return chosen.model_copy(update={"model_text": text, "headline": _sentences(said, chosen.headline)})
    chosen = ask(query.model_copy(update={"model": specs[0].name}))
    largest = False
    if named_setups(query) or query.min_memory_gb:
        for spec in specs[1:]:  # sizes ascend: stop at the first that no longer fits
            if not _answers_yes(chosen):
                break
            bigger = ask(query.model_copy(update={"model": spec.name}))
            if not _answers_yes(bigger):
                break
            chosen = bigger
        largest = _answers_yes(chosen)
    key = ("canrun.family.which_" if generations else "canrun.family.") + ("largest" if largest else "smallest")
    said = msg(key, family=text, sizes=_family_sizes(specs), model=chosen.model_name or specs[0].name)
    return chosen.model_copy(update={"model_text": text, "headline": _sentences(said, chosen.headline)})


def _family_sizes(specs: list[ModelSpec]) -> Msg | tuple[Msg, ...]:
    """A family's members as its headline names them: each, or the range when there are many."""
    names = [s.name for s in specs]
    if len(names) <= _FAMILY_LISTED:
        return tuple(msg("canrun.name", name=n) for n in names)
    return msg("canrun.family.range", count=len(names), first=names[0], last=names[-1])


# The sizes of an LLM line people run and fine-tune most on one card: what "the least hardware for LLaMA" is
# weighed for (the stand-in for LLM projects below is such a size too).
_TYPICAL_B = (6.0, 9.0)


def _typical_size(specs: list[ModelSpec]) -> ModelSpec | None:
    """The newest-listed member of a family in the common 7-8B range, if it has one."""
    typical = [s for s in specs if _TYPICAL_B[0] <= s.params_b <= _TYPICAL_B[1]]
    return typical[-1] if typical else None


# An LLM project we cannot size ("can a 3090 run Time-LLM?") is most often built on an open 7-8B model
# (Time-LLM on LLaMA-7B, Alpaca-LoRA on LLaMA-7B, Bloom-LoRA on BLOOM-7B1): the named card is weighed for a
# 7B at the work asked, and said to be weighed so, with its README named as where the base is stated.
STAND_IN = "generic-7b"
_LLM_TASKS = frozenset({"llm_inference", "llm_finetune"})


def _as_7b(query: Query, text: str, mode: Mode | None, context: int | None) -> tuple[Msg, bool] | None:
    """The first named setup's verdict for a 7B stand-in and its yes or no, for an unknown LLM project
    on a named card; None for other work, or with no card named (the table of sizes answers then)."""
    setups = named_setups(query)
    if query.task not in _LLM_TASKS or not setups:
        return None
    stand_in = load_model_catalog().get(STAND_IN)
    chosen = _mode_for(stand_in, query, mode)[0]
    if chosen == "pretrain":
        return None  # pretraining is sized by its tokens and time, not by a 7B's memory
    gpu, count = setups[0]
    verdict = _gpu_verdict(stand_in, chosen, gpu, count, context, None)
    said = msg("canrun.unknown.as_7b", model=text, setup=_setup(verdict.name, verdict.count), verdict=verdict.verdict)
    return said, verdict.fits


def assess(
    query: Query,
    *,
    snapshot: str | None = None,
    condition: PriceCondition | None = None,
    mode: Mode | None = None,
    context: int | None = None,
    precision: str | None = None,
) -> CanRunReport:
    """Answer "can it run?": the model resolved, a verdict per named GPU (or memory size), and the
    cheapest setups that fit when nothing named does or nothing was named. ``precision`` checks
    only that precision instead of walking down the quality ladder. The mode, precision, context and
    condition not passed are the query's own (what the user stated)."""
    mode = mode or query.mode
    precision = precision or query.precision
    context = context or query.context_tokens
    if precision is not None:
        get_precision(precision)  # unknown names raise ValueError with the known ones
    condition = condition or query.condition
    text = query.model
    if query.cpu_only and not query.gpus:
        cpu = _cpu_report(query, _resolve(text)[0] if text else None, text)
        if cpu.model is None or cpu.model.kind != "llm" or query.mode not in (None, "inference"):
            return cpu
        # "no GPU: can I run Llama 3 8B?", "do I need a GPU for it?": what a card would do beside the CPU's speed
        gpu = assess(query.model_copy(update={"cpu_only": None}), snapshot=snapshot, condition=condition)
        return cpu.model_copy(
            update={"headline": _sentences(cpu.headline, msg("canrun.cpu.with_gpu", said=gpu.headline))}
        )
    if not text:
        return _floor_report(query, text)

    def again(named: Query) -> CanRunReport:
        """The same question of another model: a family's member, the closest version, a generation's size."""
        return assess(named, snapshot=snapshot, condition=condition, mode=mode, context=context, precision=precision)

    if (sizes := several_sizes(text)) is not None:
        return _sizes_report(query, sizes, again)
    spec, basis, suggestions = _resolve(text)

    if spec is None and (members := load_model_catalog().family(text)):
        return _family_report(query, text, members, again)
    if spec is None and _is_family(text, suggestions) and _alike_in_size(suggestions):
        # "whisper large" (large-v3, large-v2, turbo: 0.8-1.6B): versions of one size are answered for the closest
        # match, said so, rather than asked about — their needs hardly differ
        closest = load_model_catalog().get(suggestions[0])
        report = again(query.model_copy(update={"model": closest.name}))
        said = msg("canrun.family.read_as", family=text, model=closest.name)
        return report.model_copy(update={"model_text": text, "headline": _sentences(said, report.headline)})
    if spec is None and _is_family(text, suggestions) and (named_setups(query) or query.min_memory_gb):
        # "Has anyone run LLaMA on a single 3070?": a name of several generations on the user's own card is
        # weighed over every chat model it leads, smallest first — the largest that fits answers, and which is asked
        return _family_report(query, text, _led_by(text), again, generations=True)
    if spec is None:
        headline = _unknown(text, suggestions)
        if named_setups(query) or query.min_memory_gb:
            # An unknown (or size-less) model on a named card or memory size: say so, then what the
            # card runs or how the size stands against the guide's floor for the work —
            # never a dead end ("12 GB runs 7-14B models quantized; which model?").
            card = _floor_report(query, text, unknown=True)
            # The card's lean speaks for an unknown model only as the guide's floor for its work, or as
            # the user's own report that it ran out of memory (then the card's lean is already a no).
            known_floor = card.floor is not None and card.floor.task in _NOT_LLM_TASKS
            lean = card.lean if known_floor or query.ran_out else None
            # "Can ComfyUI-nunchaku use my Arc B580?", "摩尔S80能用Saber-Translator吗": a project we do not know on
            # a card without CUDA is, as shipped, most likely not for it — said, and the lean a no
            first = named_setups(query)[:1]
            no_cuda = [g for g, _ in first if g.platform != "unified_memory" and runs_cuda_projects(g) is False]
            if no_cuda and not query.ran_out:
                headline = _sentences(headline, msg("canrun.project.no_cuda", project=text, gpu=no_cuda[0].short_name))
                lean = False
            stand_in = (
                lean is None
                and not query.ran_out
                and not _is_family(text, suggestions)
                and not _of_a_known_family(text, suggestions)
            )
            as_7b = _as_7b(query, text, mode, context) if stand_in else None
            # "Does Deep-Live-Cam support 50 series GPUs?": what a project needs of a card too new for older
            # PyTorch builds comes first — whether it runs depends on the PyTorch it pins
            builds = [m for gpu, _ in first if (m := first_build(gpu)) is not None]
            return card.model_copy(
                update={
                    "unresolved": text,
                    "suggestions": suggestions,
                    "headline": _sentences(headline, *builds, *((as_7b[0],) if as_7b else ()), card.headline),
                    "lean": as_7b[1] if as_7b else lean,
                }
            )
        # No card either: the guide's floor for work that is no LLM's ("train BM-DETR"), which the
        # advisor answers with the cards that meet it; else what a model of each size needs.
        task = query.task or ("other" if query.mode in ("full_finetune", "pretrain") else None)
        floor = memory_floor(task) if task in _NOT_LLM_TASKS else None
        if floor is None:
            sized = _by_size_report(query, text, headline, context)
            return sized.model_copy(update={"unresolved": text, "suggestions": suggestions})
        return CanRunReport(
            query=query, model_text=text, unresolved=text, suggestions=suggestions, headline=headline, floor=floor
        )
    chosen, why, other = _mode_for(spec, query, mode)
    if precision is not None and not precision_suits(chosen, precision):
        # "llama 3 8b int4 訓練": training on a 4-bit base is QLoRA; a precision no training runs at is dropped
        if chosen == "lora" and get_precision(precision).bits <= 4:
            chosen, precision = "qlora", None
        elif chosen != "inference":
            precision = None
    # An LLM's memory is worked out from its shape; other models' published figures come first.
    published = published_need(spec.id, chosen) if spec.kind != "llm" else None
    if published is None and chosen == "full_finetune" and spec.kind != "llm":
        # "Fine-tune Qwen-VL": its authors publish a LoRA fine-tune only; their figure, said as LoRA, beats
        # arithmetic on a whole fine-tune nobody runs on such a model.
        published = published_need(spec.id, "lora")
    if published is not None:
        return _published_report(query, spec, published, text, basis, snapshot, condition)
    notes: list[Msg] = []
    if chosen in ("lora", "qlora") and not (spec.hidden_size and spec.layers):
        chosen, why = "full_finetune", msg("canrun.mode_reason.no_lora_shape", model=model_words(spec))
    setups = named_setups(query)
    verdicts = [
        _gpu_verdict(
            spec, chosen, gpu, count, context, precision, offload_asked=bool(query.offload), rented=_rented(query)
        )
        for gpu, count in setups
    ]
    notes.extend(egpu_notes([g for g, _ in setups]))
    # serving many requests at once ("how many concurrent users on an A100?"): how many the cache leaves room for
    serving = _concurrency(verdicts, setups) if query.workload == "infer8" else []
    if query.deadline_hours is not None and chosen == "pretrain" and spec.kind == "llm":
        # "how many H100s to train a 7B from scratch in a week?": the cards of each setup named that finish it in time
        serving = [*serving, *_to_deadline(spec, [g for g, _ in setups], query.deadline_hours)]
    if query.workload == "infer8" and not setups and spec.kind == "llm":
        # "serve Llama 70B to 100 users, what hardware?": no card named — the data-centre setups that serve it at
        # 8 bits, each with the full-length requests its KV cache holds at once
        serving = _serving_setups(spec, context)
    # Several Macs are alternatives (one computer's memory each), never one rig, and so are cards to rent ("Colab
    # Pro's GPUs", "an A100 or a 4090 on RunPod?"): no mixed-card notes for them.
    together: Msg | None = None
    alternatives_only = bool(query.cloud_interest) or all(g.platform == "unified_memory" for g, _ in setups)
    if len({g.id for g, _ in setups}) > 1 and not alternatives_only:
        notes.append(msg("canrun.note.mixed_cards"))
        together = mixed_layer_split(spec, setups, context) if chosen == "inference" and precision is None else None
        if together is not None and any(v.fits for v in verdicts):
            notes.append(together)  # one card holds it alone: the split is an aside
    # "A 3090 and a 4090 together for Llama 70B?": no card holds it alone, both split by layers do — that
    # leads, and no shopping list follows (a person who names both usually has both)
    split_holds = together is not None and not any(v.fits for v in verdicts)
    memory = None
    if not setups and query.min_memory_gb:
        memory = _memory_verdict(spec, chosen, query.min_memory_gb, query.num_gpus or 1, context, precision)
        if memory.fits and memory.mode in TRAINING_MODES and spec.kind == "llm":
            # "what batch size for a LoRA of Llama 3 8B on 24 GB?": the room that is left, as batch
            notes.append(_batch_note(spec, memory.tried[-1], query.min_memory_gb * 2**30 / GB, memory.count))
    alternatives: list[Alternative] = []
    quote_date = snapshot_id = None
    need_msg: Msg | None = None
    needs: list[Need] = []
    breakdown: MemoryEstimate | None = None
    if not setups and memory is None:  # "how much VRAM does it need?": the need itself, per rung, leads
        for target_mode, prec in _alternative_targets(spec, chosen, precision):
            est = estimate(spec, target_mode, prec, gpus=1, context=context)
            needs.append(Need(mode=target_mode, precision=prec, gib=est.per_gpu_gib))
            breakdown = breakdown or est
    own_fix = any(v.own_fix for v in verdicts)  # their own machine does it another way: no shopping list
    max_usd = query.budget_usd()

    def search(mode: Mode, vendor: str | None) -> list[Alternative]:
        return [
            alt
            for target_mode, prec in _alternative_targets(spec, mode)
            for alt in cheapest_setups(
                spec,
                target_mode,
                prec,
                context=context,
                snapshot=snapshot,
                condition=condition,
                max_usd=max_usd,
                organization=bool(query.organization),
                vendor=vendor,
            )
        ]

    cheaper_too: Msg | None = None
    beyond_desk = False  # nothing a person puts on a desk holds the model (set below)
    if not any(v.fits for v in verdicts) and not own_fix and not split_holds and (memory is None or not memory.fits):
        if query.budget is not None and max_usd is None:
            notes.append(msg("canrun.note.no_exchange_rate", currency=query.budget.currency))

        # NVIDIA first, as the guide advises, unless the user opted into a vendor; any vendor when
        # no NVIDIA setup fits (the AMD/Intel caveats come with those cards).
        for vendor in (query.vendor,) if query.vendor else ("nvidia", None):
            alternatives = search(chosen, vendor)
            if alternatives:
                break
        single = min((a.gpus_usd for a in alternatives if a.count == 1), default=None)
        if single is not None:  # one card that runs it (at some precision) beats a dearer split
            alternatives = [a for a in alternatives if a.count == 1 or a.gpus_usd < single]
        if not alternatives and not verdicts and memory is None:
            # Nothing a person can put on a desk holds it ("full fine-tune of a 14B"): say how much
            # it needs in all, and what a LoRA/QLoRA fine-tune would take instead — for a person's own
            # machine ("Grok-1 on my gaming PC?") that is a no.
            beyond_desk = not query.organization
            targets = _alternative_targets(spec, chosen)
            top_mode, top_prec = targets[0]
            need = estimate(spec, top_mode, top_prec, gpus=1, context=context)
            need_msg = msg(
                "canrun.headline.need", rung=_label(top_mode, top_prec), gb=need.total_gb, desktop=MAX_DESKTOP_GPUS
            )
            if chosen == "inference" and len(targets) > 1:
                # "The cheapest way to run Grok-1?": what its smallest rung takes too (Q4_K_M, not only BF16),
                # and the servers are counted for that one.
                top_mode, top_prec = targets[-1]
                least = estimate(spec, top_mode, top_prec, gpus=1, context=context)
                need_msg = _sentences(
                    need_msg, msg("canrun.headline.need_least", rung=_label(top_mode, top_prec), gb=least.total_gb)
                )
            # "How many GPUs for a full training of Llama 2 70B?": the count of 80 GB data-centre cards,
            # sharded (FSDP / ZeRO-3 for training, tensor parallel for serving), 8 to a server.
            server = load_catalog().get(SERVER_GPU)
            n = gpus_needed(spec, server, top_mode, top_prec, max_gpus=MAX_CLUSTER_GPUS, context=context)
            if n is not None:
                need_msg = _sentences(
                    need_msg,
                    msg("canrun.headline.servers", count=n, gpu=server.short_name, servers=-(-n // MAX_SERVER_GPUS)),
                )
            if chosen == "full_finetune" and spec.kind == "llm" and spec.hidden_size and spec.layers:
                alternatives = search("lora", query.vendor or "nvidia")
        if alternatives:
            quote_date, snapshot_id = alternatives[0].price.date, alternatives[0].price.snapshot_id
            notes.extend(_rig_notes(alternatives))
        elif max_usd is not None:
            notes.append(msg("canrun.note.none_in_budget", desktop=MAX_DESKTOP_GPUS, server=MAX_SERVER_GPUS))
    elif query.objective == "cheapest" and verdicts and all(v.fits for v in verdicts):
        # "What's the minimum GPU to fine-tune Llama 3 8B, must it be an A100?": yes, the A100 does it, and the
        # least that does it at the work asked is said beside the yes (the cheapest single card, another one)
        named = {v.gpu_id for v in verdicts}
        singles = [a for a in search(chosen, query.vendor or "nvidia") if a.count == 1 and a.gpu_id not in named]
        if singles:
            alternatives = [min(singles, key=lambda a: a.gpus_usd)]
            quote_date, snapshot_id = alternatives[0].price.date, alternatives[0].price.snapshot_id
            currency = query.budget.currency if query.budget else "USD"
            cheaper_too = msg("canrun.cheapest_also", cheapest=_alternative_words(alternatives[0], currency=currency))
    if other == "qlora" and chosen == "lora":
        notes.append(msg("canrun.note.qlora"))
        if mode is None:  # "fine-tune" said without how: what the whole fine-tune would take on each setup
            notes.extend(_full_finetune_notes(spec, setups, context))
    if chosen == "pretrain":
        notes.append(msg("canrun.note.pretrain"))
    if spec.is_moe and chosen == "inference":
        notes.append(msg("canrun.note.moe", total_b=spec.params_b, active_b=_active_b(spec)))
    return CanRunReport(
        query=query,
        model_text=text,
        model_id=spec.id,
        model_name=spec.name,
        model=spec,
        model_basis=basis,
        mode=chosen,
        mode_reason=why,
        alternative_mode=other,
        context=(verdicts[0].estimate.context if verdicts else memory.estimate.context if memory else context),
        verdicts=tuple(verdicts),
        memory_verdict=memory,
        alternatives=tuple(alternatives),
        headline=_sentences(
            *((msg("canrun.together"), together) if split_holds and together is not None else ()),
            _headline(
                spec,
                verdicts,
                memory,
                alternatives,
                need_msg,
                needs,
                within_budget=query.budget_usd() is not None,
                cheapest_first=query.objective == "cheapest",
                asked=chosen,
                currency=query.budget.currency if query.budget else "USD",
                runs_instead=_runs_instead(spec, chosen, verdicts),
            ),
            *serving,
            *((cheaper_too,) if cheaper_too else ()),
            *_ran_out_though_it_fits(query, spec, verdicts, memory),
        ),
        needs=tuple(needs),
        breakdown=breakdown,
        notes=tuple(notes),
        assumptions=_ASSUMPTIONS,
        snapshot_id=snapshot_id,
        price_date=quote_date,
        lean=False if beyond_desk else None,
    )
