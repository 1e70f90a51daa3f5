"""How much GPU memory a task needs (the guide's floors, §6) and a given model needs (estimate).

The 2023 edition gives floors for image generation (12 GB) and transformers (24 GB); the 2020
edition for Kaggle, prototyping, computer vision and transformers. The advisor uses the newest
edition that names a task and says which one it used.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict

from engine.catalog import load_catalog
from engine.model_specs import ModelSpec, load_model_catalog
from engine.query import Task
from engine.specs import Gpu

Edition = Literal["2023", "2020"]


class MemoryFloor(BaseModel):
    model_config = ConfigDict(frozen=True)

    task: Task
    gb: float
    edition: Edition
    rule: str


_FLOORS: dict[Edition, dict[Task, tuple[float, str]]] = {
    "2023": {
        "image_generation": (12, "image generation: ≥ 12 GB"),
        "llm_inference": (24, "working with transformers: ≥ 24 GB"),
        "llm_finetune": (24, "working with transformers: ≥ 24 GB"),
        "llm_pretrain": (24, "working with transformers: ≥ 24 GB"),
        "nlp": (24, "working with transformers: ≥ 24 GB"),
    },
    "2020": {
        "kaggle": (8, "Kaggle competitions: ≥ 8 GB"),
        "learning": (8, "learning deep learning: below 11 GB is fine (the guide's pick, the RTX 3070, has 8 GB)"),
        "computer_vision": (10, "computer vision applications: ≥ 10 GB"),
        "rl": (10, "prototyping neural networks (transformer or CNN): ≥ 10 GB"),
        "other": (10, "prototyping neural networks (transformer or CNN): ≥ 10 GB"),
        "nlp": (11, "using pretrained transformers; training small transformers from scratch: ≥ 11 GB"),
        "llm_inference": (11, "using pretrained transformers: ≥ 11 GB"),
        "llm_finetune": (24, "training large transformers in research/production: ≥ 24 GB"),
        "llm_pretrain": (24, "training large transformers in research/production: ≥ 24 GB"),
        "research": (24, "training large transformers or CNNs in research/production: ≥ 24 GB"),
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
            gb, rule = _FLOORS[ed][task]
            return MemoryFloor(task=task, gb=gb, edition=ed, rule=f"Guide {ed}: {rule}")
    return None


# =============================================================================================
# How much memory a given model needs: weights, KV cache, activations, optimizer states.
# =============================================================================================
#
# Every figure is built from named terms, each with the assumption behind it in words, so an answer
# can say why a model does or does not fit. Bytes are counted exactly and reported in decimal GB
# (1e9 bytes, as Hugging Face file sizes are); GPU memory sizes are binary (a "24 GB" card holds
# 24 GiB, as nvidia-smi shows), so fit checks compare against ``capacity_gb`` = memory_gb × 2^30.
# Equations, sources and tolerances: docs/canrun.md.

Mode = Literal["inference", "full_finetune", "lora", "qlora", "pretrain"]
MODES: tuple[Mode, ...] = ("inference", "full_finetune", "lora", "qlora", "pretrain")
Split = Literal["tensor", "pipeline"]
Optimizer = Literal["adamw", "adamw_8bit", "sgd"]
LoraTargets = Literal["all-linear", "attention", "qv"]
Compute = Literal["fp32", "fp16", "fp8", "int8"]

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
    """A way to store weights: real bits per weight including scales, and what the matmuls run in."""

    model_config = ConfigDict(frozen=True)

    name: str
    bits: float
    compute: Compute
    label: str
    source: str


_GGUF = "llama.cpp tools/quantize/quantize.cpp: file size of LLaMA-v1-7B (6.74B) in GiB × 8 / params"
PRECISIONS: dict[str, Precision] = {
    p.name: p
    for p in (
        Precision(name="fp32", bits=32, compute="fp32", label="FP32", source="IEEE 754 single precision"),
        Precision(name="fp16", bits=16, compute="fp16", label="FP16", source="IEEE 754 half precision"),
        Precision(name="bf16", bits=16, compute="fp16", label="BF16", source="bfloat16: 8-bit exponent, 16 bits"),
        Precision(name="fp8", bits=8, compute="fp8", label="FP8",
                  source="E4M3/E5M2 with per-tensor or per-channel scales (negligible)"),
        Precision(name="int8", bits=8, compute="int8", label="INT8",
                  source="LLM.int8 / W8A8 with per-channel scales (negligible)"),
        Precision(name="int4", bits=4, compute="fp16", label="INT4",
                  source="plain 4-bit weights; real formats add scales (see gptq-4bit, q4_k_m)"),
        Precision(name="q8_0", bits=8.5, compute="fp16", label="GGUF Q8_0",
                  source="llama.cpp block_q8_0: 32 int8 + one fp16 scale = 34 B per 32 weights"),
        Precision(name="q6_k", bits=6.5625, compute="fp16", label="GGUF Q6_K",
                  source="llama.cpp block_q6_K: 210 B per 256 weights (k-quants PR #1684)"),
        Precision(name="q5_k_m", bits=5.67, compute="fp16", label="GGUF Q5_K_M", source=f"{_GGUF}: 4.45G"),
        Precision(name="q4_k_m", bits=4.84, compute="fp16", label="GGUF Q4_K_M", source=f"{_GGUF}: 3.80G"),
        Precision(name="q3_k_m", bits=3.91, compute="fp16", label="GGUF Q3_K_M", source=f"{_GGUF}: 3.07G"),
        Precision(name="q2_k", bits=3.35, compute="fp16", label="GGUF Q2_K", source=f"{_GGUF}: 2.63G"),
        Precision(name="gptq-4bit", bits=4.25, compute="fp16", label="GPTQ 4-bit (group 128)",
                  source="4-bit weights + fp16 scale and packed zero per 128 weights ≈ 4.16-4.25 bits"),
        Precision(name="awq-4bit", bits=4.25, compute="fp16", label="AWQ 4-bit (group 128)",
                  source="4-bit weights + fp16 scale and packed zero per 128 weights ≈ 4.16-4.25 bits"),
        Precision(name="nf4", bits=4.127, compute="fp16", label="NF4 (QLoRA)",
                  source="Dettmers et al. 2023 (QLoRA) §3: double quantization, 4 + 0.127 bits per parameter"),
        Precision(name="mxfp4", bits=4.25, compute="fp16", label="MXFP4",
                  source="OCP MX spec: 32 FP4 (E2M1) values share one 8-bit scale; gpt-oss model card"),
    )
}
_PRECISION_ALIASES = {
    "float32": "fp32", "float16": "fp16", "half": "fp16", "bfloat16": "bf16", "f16": "fp16", "f32": "fp32",
    "8bit": "int8", "8-bit": "int8", "4bit": "int4", "4-bit": "int4", "gptq": "gptq-4bit", "awq": "awq-4bit",
    "q4_k": "q4_k_m", "q5_k": "q5_k_m", "q3_k": "q3_k_m", "nf4-dq": "nf4",
}
# Bytes per cached K or V value.
KV_BYTES: dict[str, float] = {
    "fp32": 4.0, "fp16": 2.0, "bf16": 2.0, "fp8": 1.0,
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


class MemoryTerm(BaseModel):
    """One part of the footprint: its size over all GPUs, on the fullest GPU, and why."""

    model_config = ConfigDict(frozen=True)

    name: str
    gb: float
    per_gpu_gb: float
    basis: str


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
    terms: tuple[MemoryTerm, ...]
    total_gb: float
    per_gpu_gb: float
    notes: tuple[str, ...] = ()

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


def _term(name: str, per_gpu_bytes: float, gpus: int, basis: str, total_bytes: float | None = None) -> MemoryTerm:
    total = per_gpu_bytes * gpus if total_bytes is None else total_bytes
    return MemoryTerm(name=name, gb=total / GB, per_gpu_gb=per_gpu_bytes / GB, basis=basis)


def _split_words(gpus: int, split: Split) -> str:
    if gpus == 1:
        return ""
    how = "tensor parallel: each GPU holds 1/n" if split == "tensor" else "layer (pipeline) split"
    return f"; split over {gpus} GPUs ({how})"


def _weights_term(model: ModelSpec, prec: Precision, gpus: int, split: Split, frozen_4bit: bool) -> MemoryTerm:
    params = model.params_b * 1e9
    if frozen_4bit:
        emb = embedding_params(model)
        total = (params - emb) * prec.bits / 8 + emb * 2
        basis = (f"{model.params_b:g}B params: linear layers at {prec.bits:g} bits ({prec.label}), embedding and "
                 f"output head ({emb / 1e9:.2f}B) kept in BF16 as bitsandbytes does")
    else:
        total = params * prec.bits / 8
        basis = f"{model.params_b:g}B params × {prec.bits:g} bits ({prec.label}; {prec.source})"
    if model.is_moe:
        basis += f"; MoE: all {model.params_b:g}B stay in memory though only {active_params_b(model):g}B are active"
    share = _layer_share(model, gpus, split)
    return _term("weights", total * share, gpus, basis + _split_words(gpus, split), total)


def _kv_term(model: ModelSpec, context: int, batch: int, kv_name: str, gpus: int, split: Split) -> MemoryTerm:
    per_value = kv_bytes(kv_name)
    total = (model.kv_cache_bytes(context, per_value) or 0.0) * batch
    values = model.kv_values_per_token_layer
    if model.uses_mla:
        shape = f"MLA latent {model.kv_lora_rank} + RoPE key {model.qk_rope_head_dim} = {values} values per layer"
    else:
        shape = f"2 × {model.kv_heads} KV heads × {model.head_dim} = {values} values per layer"
        if model.kv_heads != model.attention_heads:
            shape += f" (GQA: {model.attention_heads} query heads share {model.kv_heads} KV heads)"
    basis = f"{shape} × {model.layers} layers × {context:,} tokens × batch {batch} × {per_value:g} B ({kv_name})"
    if model.local_layers:
        basis += f"; {model.local_layers} sliding-window layers keep only {model.sliding_window:,} tokens"
    share = _kv_share(model, gpus, split)
    per_gpu = total * share
    if gpus > 1 and model.uses_mla and split == "tensor":
        basis += "; MLA latent replicated on every GPU"
    return _term("KV cache", per_gpu, gpus, basis + _split_words(gpus, split), per_gpu * gpus)


def _overhead_term(gpus: int) -> MemoryTerm:
    basis = (f"{RUNTIME_OVERHEAD_GB:g} GB per GPU: CUDA context (~0.3-0.5 GB), cuBLAS/cuDNN workspaces and "
             "allocator fragmentation (0.5-1 GB in practice; top of the range)")
    return _term("runtime overhead", RUNTIME_OVERHEAD_GB * GB, gpus, basis)


def _inference_activation_term(model: ModelSpec, context: int, batch: int, gpus: int) -> MemoryTerm:
    if not has_transformer_shape(model):
        gb = ACTIVATION_ALLOWANCE_GB.get(model.kind, DEFAULT_ACTIVATION_ALLOWANCE_GB)
        basis = f"{gb:g} GB allowance: a {model.kind} model's working set depends on resolution, not modelled"
        if model.kind == "diffusion":
            basis += " (denoiser activations and VAE decode at 1024², rough)"
        return _term("activations", gb * GB, gpus, basis)
    h = model.hidden_size or 0
    i = model.intermediate_size or 4 * h
    tokens = batch * min(context, PREFILL_CHUNK_TOKENS)
    work = tokens * (4 * h + 2 * i) * 2
    logits = batch * (model.vocab_size or 0) * 4
    basis = (f"one {min(context, PREFILL_CHUNK_TOKENS)}-token prefill chunk × batch {batch} through one layer: "
             f"(4·h + 2·i) × 2 B per token, h={h}, i={i}; fp32 logits for the last token only; "
             "FlashAttention-style kernels (no seq² score matrix)")
    return _term("activations", work + logits, gpus, basis)


def _training_activation_term(
    model: ModelSpec, seq: int, batch: int, checkpointing: bool, gpus: int, split: Split
) -> MemoryTerm:
    if not has_transformer_shape(model):
        gb = ACTIVATION_ALLOWANCE_GB.get(model.kind, DEFAULT_ACTIVATION_ALLOWANCE_GB) * batch
        return _term("activations", gb * GB, gpus,
                     f"{gb:g} GB allowance (batch {batch}): no transformer shape to compute activations from")
    h, layers, heads = model.hidden_size or 0, model.layers or 0, model.attention_heads or 0
    tokens = batch * seq
    full_layer = 34 * h  # Korthikanti et al. 2022, eq. 2, with FlashAttention (no 5·a·s score term)
    if checkpointing:
        stored = tokens * (layers * 2 * h + full_layer)
        how = (f"gradient checkpointing: each of {layers} layers keeps its input (2·h B per token) and one layer "
               f"at a time is recomputed in full (34·h B per token)")
    else:
        stored = tokens * layers * full_layer
        how = (f"no recomputation: 34·h B per token per layer × {layers} layers (Korthikanti et al. 2022; the "
               f"5·a·s attention-score term, {5 * heads * seq:,} B, is dropped for FlashAttention)")
    logits = tokens * (model.vocab_size or 0) * 8
    basis = (f"{how}; h={h}, {seq:,} tokens × batch {batch}; plus fp32 logits and their log-softmax "
             f"(8 B × vocab {model.vocab_size} per token)")
    if gpus > 1:
        basis += ("; per GPU: each GPU runs its own micro-batch"
                  if split == "tensor" else "; per GPU: a 1F1B pipeline keeps up to n micro-batches in flight")
    return _term("activations", stored + logits, gpus, basis)


def _optimizer_bytes(optimizer: Optimizer, fp32_params: bool) -> tuple[float, str]:
    """Optimizer-state bytes per trained parameter, and what they hold."""
    master = 0.0 if fp32_params else 4.0
    master_words = "" if fp32_params else "fp32 master copy 4 B + "
    if optimizer == "adamw":
        return master + 8, f"{master_words}Adam m 4 B + v 4 B"
    if optimizer == "adamw_8bit":
        return master + 2, f"{master_words}8-bit Adam m 1 B + v 1 B (bitsandbytes; 6 B/param less than AdamW)"
    return master + 4, f"{master_words}SGD momentum 4 B"


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
    where = "" if gpus == 1 else (
        f"; sharded over {gpus} GPUs (ZeRO-3/FSDP or tensor parallel)" if split == "tensor"
        else f"; pipeline: each GPU holds its {share:.0%} of the layers")
    terms = [
        _term("weights", params * width * share, gpus,
              f"{model.params_b:g}B params × {width:g} B ({prec.label} working copy){where}", params * width),
        _term("gradients", params * width * share, gpus,
              f"{model.params_b:g}B params × {width:g} B ({prec.label} gradients){where}", params * width),
        _term("optimizer states", params * opt_b * share, gpus,
              f"{model.params_b:g}B params × {opt_b:g} B ({opt_words}){where}", params * opt_b),
    ]
    return terms


def _adapter_terms(
    model: ModelSpec, rank: int, targets: LoraTargets, optimizer: Optimizer, gpus: int
) -> list[MemoryTerm]:
    """LoRA adapters train in fp32 (PEFT's default): weights 4 B + grads 4 B + optimizer states."""
    n = lora_params(model, rank, targets)
    opt_b, opt_words = _optimizer_bytes(optimizer, fp32_params=True)
    shape = f"{n / 1e6:.1f}M adapter params (rank {rank}, {targets}, {model.layers} layers)"
    return [
        _term("LoRA adapters", n * 4, gpus, f"{shape} × 4 B (fp32)"),
        _term("adapter gradients", n * 4, gpus, f"{shape} × 4 B (fp32)"),
        _term("adapter optimizer states", n * opt_b, gpus, f"{shape} × {opt_b:g} B ({opt_words})"),
    ]


# ---- the estimate ---------------------------------------------------------------------------


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
) -> MemoryEstimate:
    """The memory ``model`` needs in ``mode`` at ``precision``, as named terms per GPU.

    ``context`` is the sequence length (default: the model's default context capped at 8,192 for
    inference, 2,048 for training); ``batch`` sequences at once (per GPU when training). Multi-GPU
    figures are per GPU and never pooled: ``per_gpu_gb`` must fit every card.

    Estimates are pure, so each distinct question is computed once and remembered: searching the
    catalog for setups that fit asks the same few many times.
    """
    name = precision.name if isinstance(precision, Precision) else precision
    return _estimate(resolve_model(model), mode, name, context, batch, kv_precision, lora_rank, lora_targets,
                     optimizer, gradient_checkpointing, gpus, split)


@lru_cache(maxsize=8192)
def _estimate(
    spec: ModelSpec, mode: Mode, precision: str, context: int | None, batch: int, kv_precision: str | None,
    lora_rank: int, lora_targets: LoraTargets, optimizer: Optimizer, gradient_checkpointing: bool, gpus: int,
    split: Split,
) -> MemoryEstimate:
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    if batch < 1 or gpus < 1:
        raise ValueError("batch and gpus must be at least 1")
    prec = get_precision(precision)
    training = mode != "inference"
    if mode in ("full_finetune", "pretrain") and prec.name not in _TRAINING_PRECISIONS:
        raise ValueError(f"{mode} trains every weight, so it needs fp32, fp16 or bf16, not {prec.name}")
    if mode == "qlora" and prec.bits > 5:
        raise ValueError(f"QLoRA freezes a 4-bit base (use 'nf4'), not {prec.name}")
    if mode == "lora" and prec.bits < 8:
        raise ValueError(f"LoRA on a {prec.name} base is QLoRA: use mode='qlora'")
    default_len = DEFAULT_TRAINING_SEQUENCE if training else DEFAULT_INFERENCE_CONTEXT
    length = context or min(spec.default_context or default_len, default_len)
    if context is not None and context < 1:
        raise ValueError("context must be at least 1 token")
    notes: list[str] = []

    terms: list[MemoryTerm]
    if mode in ("full_finetune", "pretrain"):
        terms = _full_training_terms(spec, prec, optimizer, gpus, split)
    else:
        terms = [_weights_term(spec, prec, gpus, split, frozen_4bit=mode == "qlora")]
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
            terms += _adapter_terms(spec, lora_rank, lora_targets, optimizer, gpus)
        terms.append(_training_activation_term(spec, length, batch, gradient_checkpointing, gpus, split))
        if mode == "qlora":
            buf = _largest_matrix(spec) * 2
            terms.append(_term("dequantization buffer", buf, gpus,
                               "the largest 4-bit matrix dequantized to BF16 for its matmul, one at a time"))
    terms.append(_overhead_term(gpus))
    if spec.max_context and length > spec.max_context:
        notes.append(f"{length:,} tokens exceed {spec.name}'s documented {spec.max_context:,}-token context.")
    if not has_transformer_shape(spec) and spec.kind != "cnn":
        notes.append(f"{spec.name}: activations are an allowance, not computed from a shape.")
    return MemoryEstimate(
        model_id=spec.id,
        mode=mode,
        precision=prec.name,
        bits_per_weight=prec.bits,
        context=length,
        batch=batch,
        kv_precision=kv_name,
        gpus=gpus,
        split=split,
        lora_rank=lora_rank if mode in ("lora", "qlora") else None,
        lora_targets=lora_targets if mode in ("lora", "qlora") else None,
        optimizer=optimizer if training else None,
        gradient_checkpointing=gradient_checkpointing if training else None,
        terms=tuple(terms),
        total_gb=sum(t.gb for t in terms),
        per_gpu_gb=sum(t.per_gpu_gb for t in terms),
        notes=tuple(notes),
    )


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
def _per_gpu_gb(spec: ModelSpec, mode: Mode, precision: str, gpus: int, split: Split,
                options: tuple[tuple[str, object], ...]) -> float:
    """The per-GPU need, which depends on the model and the split but not on the card: searching the
    catalog for setups that fit asks the same question for every card, so it is answered once."""
    return estimate(spec, mode, precision, gpus=gpus, split=split, **dict(options)).per_gpu_gb  # type: ignore[arg-type]
