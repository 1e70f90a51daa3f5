"""How much GPU memory a task needs (the guide's floors, §6) and a given model needs (estimate).

The 2023 edition gives floors for image generation (12 GB) and transformers (24 GB); the 2020
edition for Kaggle, prototyping, computer vision and transformers. The advisor uses the newest
edition that names a task and says which one it used.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict

from engine.catalog import load_catalog
from engine.message import Msg, Value, msg
from engine.model_specs import ModelSpec, load_model_catalog
from engine.query import Task
from engine.specs import Gpu

Edition = Literal["2023", "2020"]


class MemoryFloor(BaseModel):
    model_config = ConfigDict(frozen=True)

    task: Task
    gb: float
    edition: Edition
    rule: Msg


# Each floor: the size and the guide's wording of it (message ``memory.floor.<wording>``).
_FLOORS: dict[Edition, dict[Task, tuple[float, str]]] = {
    "2023": {
        "image_generation": (12, "image_generation"),
        "llm_inference": (24, "transformers"),
        "llm_finetune": (24, "transformers"),
        "llm_pretrain": (24, "transformers"),
        "nlp": (24, "transformers"),
    },
    "2020": {
        "kaggle": (8, "kaggle"),
        "learning": (8, "learning"),
        "computer_vision": (10, "computer_vision"),
        "rl": (10, "prototyping"),
        "other": (10, "prototyping"),
        "nlp": (11, "pretrained_and_small"),
        "llm_inference": (11, "pretrained"),
        "llm_finetune": (24, "large_transformers"),
        "llm_pretrain": (24, "large_transformers"),
        "research": (24, "research"),
    },
}


@lru_cache(maxsize=64)
def memory_floor(task: Task, edition: Edition | None = None) -> MemoryFloor | None:
    """The guide's minimum memory for ``task``: the 2023 figure if it has one, else 2020's.

    With ``edition`` given, only that edition's table is used (None if it names no such task).
    """
    editions: tuple[Edition, ...] = (edition,) if edition else ("2023", "2020")
    for ed in editions:
        if task in _FLOORS[ed]:
            gb, wording = _FLOORS[ed][task]
            rule = msg("memory.floor.rule", edition=ed, rule=msg(f"memory.floor.{wording}", gb=float(gb)))
            return MemoryFloor(task=task, gb=gb, edition=ed, rule=rule)
    return None


@lru_cache(maxsize=1024, typed=True)  # typed: 2 and 2.0 would read differently
def _said(key: str, /, **args: Value) -> Msg:
    """One message object for each of the messages that recur from estimate to estimate with few
    values (the runtime's overhead, a split over n GPUs, an optimizer's words, a model's kind): the
    bot remembers hundreds of estimates (``_estimate``, engine.canrun's verdicts), and in 512 of them
    6,244 messages were 999 different ones, each message with a dict of its own (issue #24). Messages
    are never changed, so sharing one is safe; their values come from the catalog and the few
    options, never from free text, so the distinct ones are few."""
    return msg(key, **args)


def clauses(first: Msg, *more: Msg) -> Msg:
    """Clauses of one explanation read as one ("a; b; c" in English, "a；b；c" in Chinese), so an
    optional clause is a message of its own rather than English glued onto a sentence."""
    out = first
    for then in more:
        out = msg("memory.clauses", first=out, then=then)
    return out


# =============================================================================================
# How much memory a given model needs: weights, KV cache, activations, optimizer states.
# =============================================================================================
#
# Every figure is built from named terms, each with the assumption behind it as a message, so an answer
# can say why a model does or does not fit. Bytes are counted exactly and reported in decimal GB
# (1e9 bytes, as Hugging Face file sizes are); GPU memory sizes are binary (a "24 GB" card holds
# 24 GiB, as nvidia-smi shows), so fit checks compare against ``capacity_gb`` = memory_gb × 2^30.
# Equations, sources and tolerances: docs/canrun.md.

Mode = Literal["inference", "full_finetune", "lora", "qlora", "pretrain"]
MODES: tuple[Mode, ...] = ("inference", "full_finetune", "lora", "qlora", "pretrain")
TRAINING_MODES: tuple[Mode, ...] = tuple(m for m in MODES if m != "inference")  # the modes that train
Split = Literal["tensor", "pipeline"]
Optimizer = Literal["adamw", "adamw_8bit", "sgd"]
LoraTargets = Literal["all-linear", "attention", "qv"]
Compute = Literal["fp32", "fp16", "fp8", "int8"]
# Whose runtime the overhead belongs to: CUDA (NVIDIA), Apple's Metal (llama.cpp Metal, MLX, PyTorch MPS),
# or another vendor's (ROCm/HIP, oneAPI).
Runtime = Literal["cuda", "metal", "other"]

GB = 1e9
GIB = 2**30

# CUDA context (~0.3-0.5 GB with lazy module loading on CUDA 11.7+), cuBLAS/cuDNN workspaces and
# the caching allocator's fragmentation: 0.5-1 GB in practice; we take the top of that range per GPU.
RUNTIME_OVERHEAD_GB = 1.0
# Inference engines run the prompt in chunks (llama.cpp's default micro-batch is 512 tokens; vLLM
# chunked prefill is similar), so the transient working set is one chunk through one layer.
PREFILL_CHUNK_TOKENS = 512
# Default sequence lengths when none is given: what people usually run, not the model's maximum.
DEFAULT_INFERENCE_CONTEXT = 8192
DEFAULT_TRAINING_SEQUENCE = 2048
# Non-transformer or shape-less models (diffusion, CNN): a rough allowance for activations at
# inference, since their working set depends on resolution rather than tokens.
ACTIVATION_ALLOWANCE_GB: dict[str, float] = {"diffusion": 3.0}
DEFAULT_ACTIVATION_ALLOWANCE_GB = 0.5


class Precision(BaseModel):
    """A way to store weights: real bits per weight including scales, and what the matmuls run in.
    ``label`` is the format's display name ("GGUF Q4_K_M"); ``source`` says where the bits come from."""

    model_config = ConfigDict(frozen=True)

    name: str
    bits: float
    compute: Compute
    label: str
    source: Msg


def _source(what: str, **figures: float) -> Msg:
    """Where a precision's bits per weight come from (message ``memory.precision_source.<what>``);
    the k-quants' ("gguf") are measured from llama.cpp's table of LLaMA-v1-7B file sizes."""
    return msg(f"memory.precision_source.{what}", **figures)


PRECISIONS: dict[str, Precision] = {
    p.name: p
    for p in (
        Precision(name="fp32", bits=32, compute="fp32", label="FP32", source=_source("fp32")),
        Precision(name="fp16", bits=16, compute="fp16", label="FP16", source=_source("fp16")),
        Precision(name="bf16", bits=16, compute="fp16", label="BF16", source=_source("bf16")),
        Precision(name="fp8", bits=8, compute="fp8", label="FP8", source=_source("fp8")),
        Precision(name="int8", bits=8, compute="int8", label="INT8", source=_source("int8")),
        Precision(name="int4", bits=4, compute="fp16", label="INT4", source=_source("int4")),
        Precision(name="q8_0", bits=8.5, compute="fp16", label="GGUF Q8_0", source=_source("q8_0")),
        Precision(name="q6_k", bits=6.5625, compute="fp16", label="GGUF Q6_K", source=_source("q6_k")),
        Precision(name="q5_k_m", bits=5.67, compute="fp16", label="GGUF Q5_K_M", source=_source("gguf", file_gib=4.45)),
        Precision(name="q4_k_m", bits=4.84, compute="fp16", label="GGUF Q4_K_M", source=_source("gguf", file_gib=3.80)),
        Precision(name="q3_k_m", bits=3.91, compute="fp16", label="GGUF Q3_K_M", source=_source("gguf", file_gib=3.07)),
        Precision(name="q2_k", bits=3.35, compute="fp16", label="GGUF Q2_K", source=_source("gguf", file_gib=2.63)),
        Precision(
            name="gptq-4bit", bits=4.25, compute="fp16", label="GPTQ 4-bit (group 128)", source=_source("group_128")
        ),
        Precision(
            name="awq-4bit", bits=4.25, compute="fp16", label="AWQ 4-bit (group 128)", source=_source("group_128")
        ),
        Precision(name="nf4", bits=4.127, compute="fp16", label="NF4", source=_source("nf4")),
        Precision(name="mxfp4", bits=4.25, compute="fp16", label="MXFP4", source=_source("mxfp4")),
        Precision(name="q4_0", bits=4.5, compute="fp16", label="GGUF Q4_0", source=_source("q4_0")),
        Precision(name="mlx-4bit", bits=4.5, compute="fp16", label="MLX 4-bit", source=_source("mlx", bits=4)),
        Precision(name="mlx-8bit", bits=8.5, compute="fp16", label="MLX 8-bit", source=_source("mlx", bits=8)),
        *(
            Precision(
                name=f"exl2-{bpw:.2f}".rstrip("0").rstrip(".") + "bpw",
                bits=bpw,
                compute="fp16",
                label=f"EXL2 {bpw:g} bpw",
                source=_source("exl2", bpw=bpw),
            )
            for bpw in (2.5, 3.0, 3.5, 4.0, 4.65, 5.0, 6.0, 8.0)
        ),
    )
}
_PRECISION_ALIASES = {
    "float32": "fp32",
    "float16": "fp16",
    "half": "fp16",
    "bfloat16": "bf16",
    "f16": "fp16",
    "f32": "fp32",
    "8bit": "int8",
    "8-bit": "int8",
    "4bit": "int4",
    "4-bit": "int4",
    "gptq": "gptq-4bit",
    "awq": "awq-4bit",
    "gguf-q4_0": "q4_0",
    "mlx4": "mlx-4bit",
    "mlx-4": "mlx-4bit",
    "mlx8": "mlx-8bit",
    "mlx-8": "mlx-8bit",
    "exl2": "exl2-4bpw",
    "q4_k": "q4_k_m",
    "q5_k": "q5_k_m",
    "q3_k": "q3_k_m",
    "nf4-dq": "nf4",
}
# Bytes per cached K or V value.
KV_BYTES: dict[str, float] = {
    "fp32": 4.0,
    "fp16": 2.0,
    "bf16": 2.0,
    "fp8": 1.0,
    "q8_0": 8.5 / 8,  # llama.cpp --cache-type-k q8_0: 34 B per 32 values
    "q4_0": 4.5 / 8,  # llama.cpp --cache-type-k q4_0: 18 B per 32 values
}
_TRAINING_PRECISIONS = ("fp32", "fp16", "bf16")


def get_precision(name: str | Precision) -> Precision:
    """The table entry for a precision name ("bf16", "Q4_K_M", "gptq", "4bit"); ValueError if unknown."""
    if isinstance(name, Precision):
        return name
    key = name.strip().lower().replace(" ", "")
    key = _PRECISION_ALIASES.get(key, key)
    try:
        return PRECISIONS[key]
    except KeyError:
        raise ValueError(f"unknown precision {name!r}; known: {', '.join(PRECISIONS)}") from None


def kv_bytes(name: str | None) -> float:
    """Bytes per cached value for a KV-cache precision (None: fp16)."""
    key = (name or "fp16").strip().lower()
    try:
        return KV_BYTES[key]
    except KeyError:
        raise ValueError(f"unknown KV-cache precision {name!r}; known: {', '.join(KV_BYTES)}") from None


@dataclass(frozen=True, slots=True)
class MemoryTerm:
    """One part of the footprint: its size over all GPUs, on the fullest GPU, and why.

    A slotted dataclass, not a pydantic model: the remembered estimates hold thousands of terms
    (issue #24), and a model's instance dict and field set were most of each one's size. Built only
    by ``_term`` and ``_offloaded``, from floats."""

    name: str
    gb: float
    per_gpu_gb: float
    basis: Msg


class MemoryEstimate(BaseModel):
    """What a model needs in one mode and precision, term by term, with the inputs that produced it."""

    model_config = ConfigDict(frozen=True)

    model_id: str
    mode: Mode
    precision: str
    bits_per_weight: float
    context: int | None
    batch: int
    kv_precision: str | None
    gpus: int
    split: Split
    lora_rank: int | None = None
    lora_targets: LoraTargets | None = None
    optimizer: Optimizer | None = None
    gradient_checkpointing: bool | None = None
    offload: bool = False
    runtime: Runtime = "cuda"
    ram_gb: float = 0.0
    terms: tuple[MemoryTerm, ...]
    total_gb: float
    per_gpu_gb: float
    notes: tuple[Msg, ...] = ()

    @property
    def total_gib(self) -> float:
        return self.total_gb * GB / GIB

    @property
    def per_gpu_gib(self) -> float:
        return self.per_gpu_gb * GB / GIB

    def term(self, name: str) -> MemoryTerm | None:
        return next((t for t in self.terms if t.name == name), None)

    def gb_of(self, name: str) -> float:
        """Size of one term in GB, 0 when the estimate has no such term."""
        found = self.term(name)
        return found.gb if found else 0.0


# ---- shapes ---------------------------------------------------------------------------------


def resolve_model(model: ModelSpec | str) -> ModelSpec:
    """A ModelSpec as given, or the catalog entry a name resolves to; ValueError naming suggestions."""
    if isinstance(model, ModelSpec):
        return model
    catalog = load_model_catalog()
    model_id = catalog.resolve(model)
    if model_id is None:
        hint = ", ".join(catalog.suggest(model)) or "no close names"
        raise ValueError(f"unknown model {model!r}; did you mean: {hint}")
    return catalog.get(model_id)


def has_transformer_shape(model: ModelSpec) -> bool:
    return None not in (model.layers, model.hidden_size, model.attention_heads)


def has_kv_cache(model: ModelSpec) -> bool:
    """Autoregressive decoders keep a KV cache; encoders, diffusion models and CNNs do not."""
    return model.kind in ("llm", "speech") and model.kv_values_per_token_layer is not None


def active_params_b(model: ModelSpec) -> float:
    """Parameters one token passes through: MoE models read only the routed experts."""
    return model.active_params_b or model.params_b


def embedding_params(model: ModelSpec) -> float:
    """Input embedding plus output head (assumed untied), capped at half the model for tiny ones."""
    if model.vocab_size is None or model.hidden_size is None:
        return 0.0
    return min(2 * model.vocab_size * model.hidden_size, 0.5 * model.params_b * 1e9)


def _linear_shapes(model: ModelSpec, targets: LoraTargets) -> list[tuple[int, int, int]]:
    """(d_in, d_out, copies per layer) of the linear layers LoRA adapts, from the config's shapes.

    Attention: q (h → heads·d), k and v (h → kv_heads·d), o (heads·d → h). MLP (gated, as in every
    LLM in the catalog): gate and up (h → i), down (i → h), once per routed expert in MoE layers.
    MLA's low-rank projections are counted as plain q/k/v/o, which slightly overstates them.
    """
    h, heads, d = model.hidden_size, model.attention_heads, model.head_dim
    if h is None or heads is None:
        return []
    d = d or h // heads
    kv = model.kv_heads or heads
    q, k, v, o = (h, heads * d, 1), (h, kv * d, 1), (h, kv * d, 1), (heads * d, h, 1)
    if targets == "qv":
        return [q, v]
    shapes = [q, k, v, o]
    if targets == "all-linear" and model.intermediate_size:
        i = model.intermediate_size
        copies = model.experts or 1
        shapes += [(h, i, copies), (h, i, copies), (i, h, copies)]
    return shapes


def lora_params(model: ModelSpec, rank: int = 16, targets: LoraTargets = "all-linear") -> int:
    """Trainable LoRA parameters: rank × (d_in + d_out) for every adapted matrix in every layer."""
    if rank < 1:
        raise ValueError("LoRA rank must be at least 1")
    layers = model.layers or 0
    return layers * sum(rank * (d_in + d_out) * n for d_in, d_out, n in _linear_shapes(model, targets))


def _largest_matrix(model: ModelSpec) -> int:
    shapes = _linear_shapes(model, "all-linear")
    return max((a * b for a, b, _ in shapes), default=0)


# ---- terms ----------------------------------------------------------------------------------


def _layer_share(model: ModelSpec, gpus: int, split: Split) -> float:
    """Fraction of the per-layer tensors on the fullest GPU: 1/n for tensor parallel, the largest
    whole-layer slice for a pipeline (layer) split."""
    if gpus == 1:
        return 1.0
    if split == "pipeline" and model.layers:
        return math.ceil(model.layers / gpus) / model.layers
    return 1.0 / gpus


def _kv_share(model: ModelSpec, gpus: int, split: Split) -> float:
    """Fraction of the KV cache on the fullest GPU. Tensor parallel splits KV heads, but a GPU
    holds at least one head (replicated when there are more GPUs than KV heads), and MLA's
    compressed latent is shared by all heads, so every GPU keeps all of it."""
    if gpus == 1:
        return 1.0
    if split == "pipeline":
        return _layer_share(model, gpus, split)
    if model.uses_mla:
        return 1.0
    kv = model.kv_heads or gpus
    return math.ceil(kv / gpus) / kv


def _term(name: str, per_gpu_bytes: float, gpus: int, basis: Msg, total_bytes: float | None = None) -> MemoryTerm:
    total = per_gpu_bytes * gpus if total_bytes is None else total_bytes
    return MemoryTerm(name=name, gb=total / GB, per_gpu_gb=per_gpu_bytes / GB, basis=basis)


def _split_clauses(gpus: int, split: Split, training: bool = False) -> tuple[Msg, ...]:
    """How the term is spread over several GPUs, as a clause to add (none on one GPU). Training's
    "tensor" split is sharding (ZeRO-3/FSDP: each GPU keeps 1/n and gathers a layer as it runs)."""
    if gpus == 1:
        return ()
    if training and split == "tensor":
        return (_said("memory.basis.sharded", gpus=gpus),)
    return (_said(f"memory.basis.split_{split}", gpus=gpus),)


def _weights_term(
    model: ModelSpec, prec: Precision, gpus: int, split: Split, frozen_4bit: bool, training: bool = False
) -> MemoryTerm:
    params = model.params_b * 1e9
    if frozen_4bit:
        emb = embedding_params(model)
        total = (params - emb) * prec.bits / 8 + emb * 2
        basis = msg(
            "memory.basis.weights_frozen_4bit",
            params_b=model.params_b,
            bits=prec.bits,
            label=prec.label,
            embedding_b=emb / 1e9,
        )
    else:
        total = params * prec.bits / 8
        basis = msg(
            "memory.basis.weights", params_b=model.params_b, bits=prec.bits, label=prec.label, source=prec.source
        )
    moe = (msg("memory.basis.moe_resident", total_b=model.params_b, active_b=active_params_b(model)),)
    share = _layer_share(model, gpus, split)
    return _term(
        "weights",
        total * share,
        gpus,
        clauses(basis, *(moe if model.is_moe else ()), *_split_clauses(gpus, split, training)),
        total,
    )


def _kv_shape(model: ModelSpec) -> Msg:
    """What one layer caches per token: MLA's latent and RoPE key, or K and V of every KV head."""
    values = model.kv_values_per_token_layer
    if model.uses_mla:
        return msg("memory.basis.kv_shape_mla", rank=model.kv_lora_rank, rope=model.qk_rope_head_dim, values=values)
    if model.kv_heads != model.attention_heads:
        return msg(
            "memory.basis.kv_shape_gqa",
            kv_heads=model.kv_heads,
            head_dim=model.head_dim,
            values=values,
            query_heads=model.attention_heads,
        )
    return msg("memory.basis.kv_shape", kv_heads=model.kv_heads, head_dim=model.head_dim, values=values)


def _kv_term(model: ModelSpec, context: int, batch: int, kv_name: str, gpus: int, split: Split) -> MemoryTerm:
    per_value = kv_bytes(kv_name)
    total = (model.kv_cache_bytes(context, per_value) or 0.0) * batch
    extra: list[Msg] = []
    if model.local_layers:
        extra.append(msg("memory.basis.sliding_window", layers=model.local_layers, window=model.sliding_window))
    if model.linear_layers:
        extra.append(msg("memory.basis.linear_attention", layers=model.linear_layers))
    share = _kv_share(model, gpus, split)
    per_gpu = total * share
    if gpus > 1 and model.uses_mla and split == "tensor":
        extra.append(msg("memory.basis.mla_replicated"))
    basis = msg(
        "memory.basis.kv",
        shape=_kv_shape(model),
        layers=model.layers,
        context=context,
        batch=batch,
        bytes=per_value,
        kv_precision=kv_name,
    )
    return _term("KV cache", per_gpu, gpus, clauses(basis, *extra, *_split_clauses(gpus, split)), per_gpu * gpus)


def _overhead_term(gpus: int, runtime: Runtime = "cuda") -> MemoryTerm:
    """The runtime's own memory per GPU. On Apple silicon there is no CUDA context: llama.cpp's Metal
    compute buffers, MLX's and MPS's allocator caches take its place, and the same allowance is kept
    (not measured on Metal; the card's size is already the GPU's default working-set share)."""
    key = {"cuda": "memory.basis.overhead", "metal": "memory.basis.overhead_metal"}.get(
        runtime, "memory.basis.overhead_other"
    )
    return _term("runtime overhead", RUNTIME_OVERHEAD_GB * GB, gpus, _said(key, gb=RUNTIME_OVERHEAD_GB))


def _inference_activation_term(model: ModelSpec, context: int, batch: int, gpus: int) -> MemoryTerm:
    if not has_transformer_shape(model):
        gb = ACTIVATION_ALLOWANCE_GB.get(model.kind, DEFAULT_ACTIVATION_ALLOWANCE_GB)
        key = "allowance_diffusion" if model.kind == "diffusion" else "allowance"
        return _term("activations", gb * GB, gpus, _said(f"memory.basis.{key}", gb=gb, kind=kind_words(model)))
    h = model.hidden_size or 0
    i = model.intermediate_size or 4 * h
    chunk = min(context, PREFILL_CHUNK_TOKENS)
    work = batch * chunk * (4 * h + 2 * i) * 2
    logits = batch * (model.vocab_size or 0) * 4
    return _term(
        "activations",
        work + logits,
        gpus,
        msg("memory.basis.activations_inference", chunk=chunk, batch=batch, h=h, i=i),
    )


def _training_activation_term(
    model: ModelSpec, seq: int, batch: int, checkpointing: bool, gpus: int, split: Split
) -> MemoryTerm:
    if not has_transformer_shape(model):
        gb = ACTIVATION_ALLOWANCE_GB.get(model.kind, DEFAULT_ACTIVATION_ALLOWANCE_GB) * batch
        return _term("activations", gb * GB, gpus, msg("memory.basis.allowance_training", gb=gb, batch=batch))
    h, layers, heads = model.hidden_size or 0, model.layers or 0, model.attention_heads or 0
    tokens = batch * seq
    full_layer = 34 * h  # Korthikanti et al. 2022, eq. 2, with FlashAttention (no 5·a·s score term)
    if checkpointing:
        stored = tokens * (layers * 2 * h + full_layer)
        how = msg("memory.basis.checkpointing", layers=layers)
    else:
        stored = tokens * layers * full_layer
        how = msg("memory.basis.no_recomputation", layers=layers, score_bytes=5 * heads * seq)
    logits = tokens * (model.vocab_size or 0) * 8
    sizes = (msg("memory.basis.training_tokens", h=h, seq=seq, batch=batch),)
    if model.vocab_size:
        sizes = (msg("memory.basis.training_tokens_logits", h=h, seq=seq, batch=batch, vocab=model.vocab_size),)
    per_gpu = (_said(f"memory.basis.micro_batches_{split}"),) if gpus > 1 else ()
    return _term("activations", stored + logits, gpus, clauses(how, *sizes, *per_gpu))


def _optimizer_bytes(optimizer: Optimizer, fp32_params: bool) -> tuple[float, Msg]:
    """Optimizer-state bytes per trained parameter, and what they hold."""
    master = 0.0 if fp32_params else 4.0
    per_param = {"adamw": 8.0, "adamw_8bit": 2.0, "sgd": 4.0}[optimizer]
    words = _said(f"memory.optimizer.{optimizer}")
    return master + per_param, words if fp32_params else _said("memory.optimizer.with_master", optimizer=words)


def _full_training_terms(
    model: ModelSpec, prec: Precision, optimizer: Optimizer, gpus: int, split: Split
) -> list[MemoryTerm]:
    """Mixed precision (ZeRO paper's convention): 2 B weights + 2 B grads + 12 B fp32 master, m, v
    = 16 B/param with AdamW. Sharded (ZeRO-3/FSDP, or tensor parallel) across GPUs when split."""
    params = model.params_b * 1e9
    width = prec.bits / 8
    fp32 = prec.name == "fp32"
    opt_b, opt_words = _optimizer_bytes(optimizer, fp32)
    share = _layer_share(model, gpus, split)
    where = (
        ()
        if gpus == 1
        else (
            (_said("memory.basis.sharded", gpus=gpus),)
            if split == "tensor"
            else (msg("memory.basis.pipeline_share", share=share),)
        )
    )
    b = model.params_b
    return [
        _term(
            "weights",
            params * width * share,
            gpus,
            clauses(msg("memory.basis.working_copy", params_b=b, bytes=width, label=prec.label), *where),
            params * width,
        ),
        _term(
            "gradients",
            params * width * share,
            gpus,
            clauses(msg("memory.basis.gradients", params_b=b, bytes=width, label=prec.label), *where),
            params * width,
        ),
        _term(
            "optimizer states",
            params * opt_b * share,
            gpus,
            clauses(msg("memory.basis.optimizer", params_b=b, bytes=opt_b, optimizer=opt_words), *where),
            params * opt_b,
        ),
    ]


def _adapter_terms(
    model: ModelSpec, rank: int, targets: LoraTargets, optimizer: Optimizer, gpus: int, split: Split
) -> list[MemoryTerm]:
    """LoRA adapters train in fp32 (PEFT's default): weights 4 B + grads 4 B + optimizer states.
    Over several GPUs with FSDP/ZeRO-3 ("tensor" split) they are sharded like the base weights (as
    in FSDP + QLoRA); a pipeline keeps each layer's adapters on its own stage, the same share."""
    n = lora_params(model, rank, targets)
    opt_b, opt_words = _optimizer_bytes(optimizer, fp32_params=True)
    shape = msg("memory.basis.adapter_shape", params_m=n / 1e6, rank=rank, targets=targets, layers=model.layers)
    share = _layer_share(model, gpus, split)
    where = _split_clauses(gpus, split, training=True)

    def term(name: str, total: float, basis: Msg) -> MemoryTerm:
        return _term(name, total * share, gpus, clauses(basis, *where), total_bytes=total)

    return [
        term("LoRA adapters", n * 4, msg("memory.basis.adapter_fp32", shape=shape)),
        term("adapter gradients", n * 4, msg("memory.basis.adapter_fp32", shape=shape)),
        term(
            "adapter optimizer states",
            n * opt_b,
            msg("memory.basis.adapter_optimizer", shape=shape, bytes=opt_b, optimizer=opt_words),
        ),
    ]


# FSDP gathers each wrapped layer in full for its forward and backward and prefetches the next one
# (PyTorch FSDP's default BACKWARD_PRE prefetch), so two layers are whole on a GPU at a time.
FSDP_GATHERED_LAYERS = 2
# The states FSDP CPU offload (``CPUOffload(offload_params=True)``) keeps in system RAM: the sharded
# parameters, their gradients and the optimizer states (the optimizer steps on the CPU).
_OFFLOADED_TERMS = (
    "weights",
    "gradients",
    "optimizer states",
    "LoRA adapters",
    "adapter gradients",
    "adapter optimizer states",
)


def _layer_bytes(model: ModelSpec, prec: Precision) -> float:
    """One transformer layer's weights at ``prec`` (embedding and output head left out)."""
    if not model.layers:
        return 0.0
    return (model.params_b * 1e9 - embedding_params(model)) * prec.bits / 8 / model.layers


def _gather_term(model: ModelSpec, prec: Precision, gpus: int, offload: bool) -> MemoryTerm | None:
    """FSDP's working copy: two whole layers at a time. Sharded, a GPU already holds 1/n of each,
    so it adds the other (n-1)/n; with CPU offload the GPU holds none and both come whole."""
    layer = _layer_bytes(model, prec)
    if not layer:
        return None
    if offload:
        per_gpu = FSDP_GATHERED_LAYERS * layer
        basis = msg("memory.basis.fsdp_gather_offload", layers=FSDP_GATHERED_LAYERS, layer_gb=layer / GB)
    else:
        per_gpu = FSDP_GATHERED_LAYERS * layer * (1 - 1 / gpus)
        basis = msg("memory.basis.fsdp_gather", layers=FSDP_GATHERED_LAYERS, layer_gb=layer / GB, gpus=gpus)
    return _term("gathered layers", per_gpu, gpus, basis)


def _offloaded(term: MemoryTerm) -> MemoryTerm:
    """The term's states kept in system RAM under FSDP CPU offload: none of it on a GPU."""
    basis = clauses(term.basis, msg("memory.basis.in_system_ram", gb=term.gb))
    return MemoryTerm(name=term.name, gb=term.gb, per_gpu_gb=0.0, basis=basis)


def kind_words(model: ModelSpec) -> Msg:
    """The model's kind as words ("a diffusion model"'s "diffusion"), for sentences about it."""
    return _said(f"memory.kind.{model.kind}")


def model_words(model: ModelSpec) -> str | Msg:
    """The model's name for a sentence: as published, or for a stand-in named by its size alone
    ("70B") the words for "a generic 70B dense model" in the reader's language."""
    return msg("memory.model.generic", size=model.params_b) if model.family == "generic" else model.name


# ---- the estimate ---------------------------------------------------------------------------


def precision_suits(mode: str, precision: str) -> bool:
    """Whether ``precision`` is one ``mode`` runs at: a full fine-tune or pre-training trains every weight (FP32,
    FP16 or BF16), QLoRA freezes a 4-bit base, LoRA a base of 8 bits or more; inference takes any."""
    prec = get_precision(precision)
    if mode in ("full_finetune", "pretrain"):
        return prec.name in _TRAINING_PRECISIONS
    if mode == "qlora":
        return prec.bits <= 5
    if mode == "lora":
        return prec.bits >= 8
    return True


def estimate(
    model: ModelSpec | str,
    mode: Mode = "inference",
    precision: str | Precision = "bf16",
    *,
    context: int | None = None,
    batch: int = 1,
    kv_precision: str | None = None,
    lora_rank: int = 16,
    lora_targets: LoraTargets = "all-linear",
    optimizer: Optimizer = "adamw",
    gradient_checkpointing: bool = True,
    gpus: int = 1,
    split: Split = "tensor",
    offload: bool = False,
    runtime: Runtime = "cuda",
) -> MemoryEstimate:
    """The memory ``model`` needs in ``mode`` at ``precision``, as named terms per GPU.

    ``context`` is the sequence length (default: the model's default context capped at 8,192 for
    inference, 2,048 for training); ``batch`` sequences at once (per GPU when training). Multi-GPU
    figures are per GPU and never pooled: ``per_gpu_gb`` must fit every card.

    Training over several GPUs with ``split="tensor"`` is sharded (ZeRO-3/FSDP): weights, gradients,
    optimizer states and LoRA adapters 1/n per GPU, plus the two layers FSDP gathers whole as it runs.
    ``offload`` (training only) is FSDP's CPU offload, as Answer.AI's FSDP + QLoRA runs a 70B model
    on two 24 GB cards: the sharded states live in system RAM (``ram_gb``), the GPUs hold the gathered
    layers and the activations. ``runtime`` names whose runtime overhead is counted (Apple: Metal).

    Estimates are pure, so each distinct question is computed once and remembered: searching the
    catalog for setups that fit asks the same few many times.
    """
    name = precision.name if isinstance(precision, Precision) else precision
    return _estimate(
        resolve_model(model),
        mode,
        name,
        context,
        batch,
        kv_precision,
        lora_rank,
        lora_targets,
        optimizer,
        gradient_checkpointing,
        gpus,
        split,
        offload,
        runtime,
    )


# How many estimates are remembered (issue #24, docs/performance.md, 2026-12-06). One estimate with its
# terms and explanations was ≈7-14 KB of heap (14.2 MB for 1,024 two-GPU estimates), so the 8,192 of
# before held 61-71 MB in the bot after a few thousand distinct questions; ≈6 KB since messages and
# terms are slotted dataclasses (1,024 held 6.4 MB at 10,000 users). Replaying the benchmark's
# traffic (20,000 events; 34,594 estimates asked for, 7,178 distinct) through an LRU of each size gave
# these misses per event: 8,192: 0.36; 4,096: 0.38; 2,048: 0.43; 1,024: 0.49; 512: 0.55; 128: 0.64.
# A miss costs ≈54 µs, two thirds of it building the explanations: remembering only the numbers and
# building the messages at every call would cost more (≈36 µs × 1.4 hits per event) than 512 does
# (≈0.19 more misses per event than 8,192: ≈10 µs of ≈2 ms per answer), for ≈3 MB less than 1,024.
ESTIMATES_REMEMBERED = 512


@lru_cache(maxsize=ESTIMATES_REMEMBERED)
def _estimate(
    spec: ModelSpec,
    mode: Mode,
    precision: str,
    context: int | None,
    batch: int,
    kv_precision: str | None,
    lora_rank: int,
    lora_targets: LoraTargets,
    optimizer: Optimizer,
    gradient_checkpointing: bool,
    gpus: int,
    split: Split,
    offload: bool = False,
    runtime: Runtime = "cuda",
) -> MemoryEstimate:
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    if batch < 1 or gpus < 1:
        raise ValueError("batch and gpus must be at least 1")
    prec = get_precision(precision)
    training = mode != "inference"
    if not precision_suits(mode, precision):  # only the training modes refuse a precision: say why
        if mode == "qlora":
            raise ValueError(f"QLoRA freezes a 4-bit base (use 'nf4'), not {prec.name}")
        if mode == "lora":
            raise ValueError(f"LoRA on a {prec.name} base is QLoRA: use mode='qlora'")
        raise ValueError(f"{mode} trains every weight, so it needs fp32, fp16 or bf16, not {prec.name}")
    default_len = DEFAULT_TRAINING_SEQUENCE if training else DEFAULT_INFERENCE_CONTEXT
    length = context or min(spec.default_context or default_len, default_len)
    if context is not None and context < 1:
        raise ValueError("context must be at least 1 token")
    if offload and not training:
        raise ValueError("offload is FSDP's CPU offload for training; inference offload is decode_speed(offload_gb=)")
    if offload and split != "tensor":
        raise ValueError("FSDP CPU offload shards the states: use split='tensor'")
    notes: list[Msg] = []

    terms: list[MemoryTerm]
    if mode in ("full_finetune", "pretrain"):
        terms = _full_training_terms(spec, prec, optimizer, gpus, split)
    else:
        terms = [_weights_term(spec, prec, gpus, split, frozen_4bit=mode == "qlora", training=training)]
    kv_name = None
    if mode == "inference":
        if has_kv_cache(spec):
            kv_name = (kv_precision or "fp16").lower()
            terms.append(_kv_term(spec, length, batch, kv_name, gpus, split))
        terms.append(_inference_activation_term(spec, length, batch, gpus))
    else:
        if mode in ("lora", "qlora"):
            if not has_transformer_shape(spec):
                raise ValueError(f"{spec.name} has no transformer shape to place LoRA adapters on")
            terms += _adapter_terms(spec, lora_rank, lora_targets, optimizer, gpus, split)
        terms.append(_training_activation_term(spec, length, batch, gradient_checkpointing, gpus, split))
        if mode == "qlora":
            buf = _largest_matrix(spec) * 2
            terms.append(_term("dequantization buffer", buf, gpus, _said("memory.basis.dequantization_buffer")))
        if (gpus > 1 and split == "tensor") or offload:
            gathered = _gather_term(spec, prec, gpus, offload)
            terms += [gathered] if gathered else []
    ram_gb = 0.0
    if offload:
        ram_gb = sum(t.gb for t in terms if t.name in _OFFLOADED_TERMS)
        terms = [_offloaded(t) if t.name in _OFFLOADED_TERMS else t for t in terms]
    terms.append(_overhead_term(gpus, runtime))
    if spec.max_context and length > spec.max_context:
        notes.append(
            msg("memory.note.context_too_long", tokens=length, model=model_words(spec), max_context=spec.max_context)
        )
    if not has_transformer_shape(spec) and spec.kind != "cnn":
        notes.append(msg("memory.note.activation_allowance", model=model_words(spec)))
    return MemoryEstimate.model_construct(
        _ESTIMATE_FIELDS,
        model_id=spec.id,
        mode=mode,
        precision=prec.name,
        bits_per_weight=float(prec.bits),
        context=length,
        batch=batch,
        kv_precision=kv_name,
        gpus=gpus,
        split=split,
        lora_rank=lora_rank if mode in ("lora", "qlora") else None,
        lora_targets=lora_targets if mode in ("lora", "qlora") else None,
        optimizer=optimizer if training else None,
        gradient_checkpointing=gradient_checkpointing if training else None,
        offload=offload,
        runtime=runtime,
        ram_gb=float(ram_gb),
        terms=tuple(terms),
        total_gb=float(sum(t.gb for t in terms)),
        per_gpu_gb=float(sum(t.per_gpu_gb for t in terms)),
        notes=tuple(notes),
    )


# Every field of an estimate is given by ``_estimate``, so every estimate has the same set of fields set,
# and they share this one (issue #24): pydantic gives each validated model a set of its own, ≈2.3 KB for
# these 20 fields, four fifths of an estimate's own size (without its terms), and the bot remembers
# hundreds of estimates here and in engine.canrun's verdicts. ``model_construct`` takes the values as
# they are, so ``_estimate`` gives the float fields floats, as validation did; the values are the same,
# and so are equality, hashing, serialization and a copy's fields (``model_copy`` copies the set first).
_ESTIMATE_FIELDS = set(MemoryEstimate.model_fields)


def capacity_gb(gpu: Gpu) -> float:
    """A card's memory in decimal GB: vendors' "24 GB" are GiB (24,564 MiB on an RTX 4090)."""
    return gpu.memory_gb * GIB / GB


def fits(est: MemoryEstimate, gpu: Gpu) -> bool:
    """Whether every GPU's share fits its card; memory is never pooled across cards."""
    return est.per_gpu_gb <= capacity_gb(gpu)


TENSOR_PARALLEL_COUNTS = (1, 2, 4, 8, 16, 32, 64)


def gpus_needed(
    model: ModelSpec | str,
    gpu: Gpu | str,
    mode: Mode = "inference",
    precision: str | Precision = "bf16",
    *,
    max_gpus: int = 64,
    split: Split = "tensor",
    **kwargs: object,
) -> int | None:
    """The smallest count of ``gpu`` whose per-GPU share fits, or None up to ``max_gpus``.

    Tensor parallel uses power-of-two counts (the head count must divide evenly); a pipeline
    split may use any count. Other keywords go to :func:`estimate`.
    """
    card = gpu if isinstance(gpu, Gpu) else load_catalog().get(gpu)
    spec = resolve_model(model)
    counts = TENSOR_PARALLEL_COUNTS if split == "tensor" else range(1, max_gpus + 1)
    name = precision.name if isinstance(precision, Precision) else precision
    options = tuple(sorted(kwargs.items()))
    for n in counts:
        if n > max_gpus:
            break
        if _per_gpu_gb(spec, mode, name, n, split, options) <= capacity_gb(card):
            return n
    return None


@lru_cache(maxsize=4096)
def _per_gpu_gb(
    spec: ModelSpec, mode: Mode, precision: str, gpus: int, split: Split, options: tuple[tuple[str, object], ...]
) -> float:
    """The per-GPU need, which depends on the model and the split but not on the card: searching the
    catalog for setups that fit asks the same question for every card, so it is answered once."""
    return estimate(spec, mode, precision, gpus=gpus, split=split, **dict(options)).per_gpu_gb  # type: ignore[arg-type]
