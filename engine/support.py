"""What software runs on a GPU today: CUDA and PyTorch's wheels, ROCm, Intel's XPU backend, Apple's
MPS and MLX, NVIDIA's JetPack, Huawei's CANN (torch_npu) on Ascend NPUs, Moore Threads' MUSA
(torch_musa), Cambricon's Neuware (torch_mlu), and how much of a unified
memory the GPU may use.

Pure functions over the catalog's facts (``Gpu.software``, typed per entry in ``data/gpus.yaml``,
sources per architecture in ``data/architectures.yaml``); the words are in
``data/locales/messages/support.yaml``. ``software_notes`` says everything worth saying (a spec
card); ``software_caveats`` only what limits the card (compare, recommend, can-run answers).
"""

from __future__ import annotations

from engine.catalog import load_catalog
from engine.message import Msg, msg
from engine.specs import Architecture, Gpu

Precision = str  # "fp16", "bf16", "fp8", "int8"
ASCEND_910 = "davinci-c100"  # the first Ascend 910's architecture (2019)
# Vendors whose PyTorch is a plugin on their own stack, and their notes' key (support.<key>, support.<key>.no_cuda):
# Moore Threads' torch_musa on MUSA, Cambricon's torch_mlu on Neuware (data/architectures.yaml, software_sources).
_PLUGIN_VENDORS = {"moore_threads": "musa", "cambricon": "mlu"}


def precisions(gpu: Gpu, arch: Architecture) -> tuple[Precision, ...]:
    """The low precisions a card's matrix units (or, without them, its shader units) run natively:
    FP16 always; BF16, FP8 and INT8 where the architecture's matrix units have them."""
    out: list[Precision] = ["fp16"]
    matrix = gpu.has_tensor_cores and arch.features.matrix_unit != "none"
    if arch.features.bf16:
        out.append("bf16")
    if matrix and arch.features.fp8:
        out.append("fp8")
    if matrix and arch.features.int8:
        out.append("int8")
    return tuple(out)


# Where "this card has no BF16" is settled for a user: vLLM's own refusal, which says what to do instead
NO_BF16_SOURCE = (
    "vLLM's dtype check (vllm/worker/worker.py): BF16 needs compute capability 8.0 or higher, float16 (--dtype=half) "
    "instead; guide 2023 §features of newer generations: BF16 keeps FP32's range, FP16 needs loss scaling"
)


def missing_precision(gpu: Gpu, precision: str | None) -> Msg | None:
    """ "V100 不支持BF16？", "bf16 on my 2080 Ti?": a card whose architecture has no BF16 (NVIDIA before Ampere)
    or no FP8 (before Ada and Hopper), asked about that precision, is told so and what runs instead."""
    if precision not in ("bf16", "fp8") or gpu.vendor != "nvidia":  # others' BF16 and FP8 are their own stories
        return None
    arch = load_catalog().architectures[gpu.architecture]
    if precision in precisions(gpu, arch):
        return None
    return msg(f"support.no_{precision}", gpu=gpu.short_name, arch=arch.name)


def _arch_name(gpu: Gpu) -> str:
    return load_catalog().architectures[gpu.architecture].name


def _nvidia(gpu: Gpu) -> Msg:
    sw = gpu.software
    said = {"gpu": gpu.short_name, "cc": sw.cuda_cc, "arch": _arch_name(gpu)}
    if sw.jetpack is not None:
        if sw.pytorch == "dropped":
            return msg("support.jetson.dropped", jetpack=sw.jetpack, last=sw.pytorch_last, **said)
        return msg("support.jetson.vendor", gpu=gpu.short_name, cc=sw.cuda_cc, jetpack=sw.jetpack)
    if sw.pytorch == "dropped":
        return msg("support.cuda.dropped", last=sw.pytorch_last, cuda=sw.pytorch_last_cuda, **said)
    if sw.pytorch == "legacy":
        return msg("support.cuda.legacy", **said)
    return msg("support.cuda.current", gpu=gpu.short_name, cc=sw.cuda_cc)


def _amd(gpu: Gpu) -> Msg:
    sw = gpu.software
    said = {"gpu": gpu.short_name, "gfx": sw.gfx}
    if sw.rocm == "official":
        return msg("support.rocm.official", **said)
    if sw.rocm == "community":
        if sw.hsa_override is not None:
            return msg("support.rocm.community.override", override=sw.hsa_override, **said)
        return msg("support.rocm.community.native", **said)
    if sw.rocm == "dropped":
        return msg("support.rocm.dropped.community" if sw.pytorch == "community" else "support.rocm.dropped", **said)
    return msg("support.rocm.none", **said)


def _backend(gpu: Gpu) -> Msg:
    if gpu.vendor == "nvidia":
        return _nvidia(gpu)
    if gpu.vendor == "amd":
        return _amd(gpu)
    if gpu.vendor == "intel":
        return msg("support.xpu", gpu=gpu.short_name)
    if gpu.vendor == "huawei":
        # vllm-ascend lists the Atlas A2/A3 (910B/910C) and 300I (310P) series, not the first Ascend 910
        # (data/architectures.yaml, davinci-c100's sources)
        return msg("support.ascend.no_vllm" if gpu.architecture == ASCEND_910 else "support.ascend", gpu=gpu.short_name)
    if gpu.vendor in _PLUGIN_VENDORS:
        return msg(f"support.{_PLUGIN_VENDORS[gpu.vendor]}", gpu=gpu.short_name)
    if gpu.vendor == "apple":
        return msg("support.apple", gpu=gpu.short_name)
    return msg("support.other", gpu=gpu.short_name)  # a vendor added without its own note: never Apple's


def _no_cuda(gpu: Gpu) -> Msg | None:
    """What does not run on a card without CUDA whose users expect CUDA libraries: a Huawei Ascend
    NPU runs no CUDA kernels (FlashAttention's, bitsandbytes', llama.cpp's CUDA build)."""
    if gpu.vendor == "huawei":
        return msg("support.ascend.no_cuda", gpu=gpu.short_name)
    if gpu.vendor in _PLUGIN_VENDORS:
        return msg(f"support.{_PLUGIN_VENDORS[gpu.vendor]}.no_cuda", gpu=gpu.short_name)
    return None


def _unified(gpu: Gpu) -> Msg | None:
    """How much of a unified memory the GPU may use, by the platform's own mechanism."""
    total = gpu.unified_memory_gb
    if gpu.platform != "unified_memory" or total is None:
        return None
    if gpu.vendor == "apple":
        return msg("support.unified.macos", gpu=gpu.short_name, gb=gpu.memory_gb, total=total)
    if gpu.vendor == "amd":
        return msg("support.unified.vgm", gpu=gpu.short_name, gb=gpu.memory_gb, total=total)
    return msg("support.unified.arm", gpu=gpu.short_name, total=total)


def _neural_accelerators(gpu: Gpu) -> Msg | None:
    """An Apple GPU whose cores each carry a Neural Accelerator (the M5 family): what they are, what uses
    them, and that Apple publishes no throughput for them (data/architectures.yaml, apple-m5)."""
    arch = load_catalog().architectures[gpu.architecture]
    if arch.features.matrix_unit != "neural_accelerator" or not gpu.tensor_cores:
        return None
    return msg("support.apple.neural_accelerators", chip=arch.name, cores=gpu.tensor_cores)


def first_build(gpu: Gpu) -> Msg | None:
    """For a card of an architecture newer than some PyTorch builds still in use (Blackwell): the first
    PyTorch release and CUDA version that run it. Projects pinning an older PyTorch fail on it, the
    question behind "does X support the 50 series?"."""
    first = load_catalog().architectures[gpu.architecture].first_build
    if first is None or gpu.software.cuda_cc not in first.cuda_cc:
        return None
    sm = gpu.software.cuda_cc.replace(".", "")
    return msg(
        "support.cuda.first_build",
        gpu=gpu.short_name,
        arch=_arch_name(gpu),
        sm=sm,
        pytorch=first.pytorch,
        cuda=first.cuda,
        wheel="cu" + first.cuda.replace(".", ""),
        source=first.source,
    )


def software_notes(gpu: Gpu) -> tuple[Msg, ...]:
    """Everything worth saying about what runs on ``gpu`` today: its backend, the first PyTorch that
    runs it where older builds are still in use, its matrix units where only a note says what they are
    (Apple's Neural Accelerators), what does not run on a card without CUDA (Ascend) and, for a unified
    memory, the GPU's share of it."""
    extra = [m for m in (first_build(gpu), _neural_accelerators(gpu), _no_cuda(gpu), _unified(gpu)) if m is not None]
    return (_backend(gpu), *extra)


def runs_cuda_projects(gpu: Gpu) -> bool | None:
    """Whether a project written for CUDA runs on ``gpu`` as shipped: yes on NVIDIA; no on Intel's GPUs and Moore
    Threads' (PyTorch's XPU backend and torch_musa need the project to target them); unsaid elsewhere — on AMD,
    ROCm's PyTorch answers to ``torch.cuda`` and pure-PyTorch code often runs; Apple's MPS, Ascend and Cambricon
    are targeted by many projects (the large Chinese frameworks adapt to Ascend themselves)."""
    if gpu.vendor == "nvidia":
        return True
    return False if gpu.vendor in ("intel", "moore_threads") else None


def limited(gpu: Gpu) -> bool:
    """Whether the card runs less than today's official PyTorch builds for its vendor, or none of
    CUDA (the caveat an answer about it should carry)."""
    sw = gpu.software
    if gpu.vendor in ("intel", "apple", "huawei", *_PLUGIN_VENDORS):
        return True
    if gpu.vendor == "amd":
        return sw.rocm != "official"
    return sw.pytorch != "current" or sw.jetpack is not None


def software_caveats(gpu: Gpu) -> tuple[Msg, ...]:
    """What limits ``gpu``'s software today, for answers that show it among others: nothing for a
    card today's official builds support."""
    if not limited(gpu):
        return ()
    return software_notes(gpu)


def caveats_for(gpu_ids: tuple[str, ...], *, compared: bool = False) -> tuple[Msg, ...]:
    """The software caveats of the named cards, each card once, in the order named; ``compared``:
    also say that a unified-memory computer or an embedded module is not a card one adds to a PC."""
    catalog = load_catalog()
    out: list[Msg] = []
    for gpu_id in dict.fromkeys(gpu_ids):
        gpu = catalog.get(gpu_id)
        out.extend(software_caveats(gpu))
        if gpu.modified:
            out.append(msg("support.modified", gpu=gpu.short_name))
        if compared and gpu.platform in ("unified_memory", "embedded"):
            out.append(msg("support.not_a_card", gpu=gpu.short_name))
    if compared and (pair := mac_and_nvidia([catalog.get(gpu_id) for gpu_id in dict.fromkeys(gpu_ids)])):
        # an NVIDIA card weighed against an Apple silicon Mac ("M4 Max or 2× 3090?"): one sentence that the two do
        # not combine later (the whole eGPU story is for questions that combine them, in can-run answers)
        apple, nvidia = pair
        out.append(msg("support.no_egpu", apple=apple.short_name, nvidia=nvidia.short_name))
    return _merged_macs(out)


# NVIDIA on the Windows driver's fallback to system memory when a card's memory is full (driver 536.40 on; it can be
# turned off from 546.01): runs keep going, "albeit at lower speeds" — a common cause of a run far slower than the card.
# PyTorch's install selector: the CUDA builds come from its own index (pip's Windows wheel is CPU-only)
PYTORCH_INSTALL_SOURCE = "https://pytorch.org/get-started/locally/"
SYSMEM_FALLBACK_SOURCE = "https://nvidia.custhelp.com/app/answers/detail/a_id/5490"
# A process "Killed" while loading a model: transformers loads a checkpoint shard by shard with low_cpu_mem_usage or
# device_map (its guide to big models), and WSL 2's VM gets half the host's RAM unless .wslconfig says otherwise
BIG_MODEL_LOADING_SOURCE = "https://huggingface.co/docs/transformers/main/en/big_models"
WSL_MEMORY_SOURCE = "https://learn.microsoft.com/en-us/windows/wsl/wsl-config#configuration-settings-for-wslconfig"
# Where the memory a serving engine or framework takes up front is documented ("why does vLLM fill my 4090?"):
# vLLM's gpu_memory_utilization (the share of each GPU it takes for weights and a KV-cache pool), LMDeploy's
# cache_max_entry_count (its KV cache, allocated up front: OpenGVLab's answer on InternVL), TensorFlow mapping nearly
# all of every GPU's memory by default, and PyTorch's caching allocator (freed blocks still count in nvidia-smi).
# CUDA numbers the GPUs fastest first unless CUDA_DEVICE_ORDER=PCI_BUS_ID, and a process sees only those
# CUDA_VISIBLE_DEVICES lists (CUDA programming guide, environment variables)
DEVICES_SOURCE = "https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#env-vars"
# PyTorch's DataParallel gathers every card's outputs on the first one: why only that card runs out of memory
DATA_PARALLEL_SOURCE = "https://docs.pytorch.org/docs/stable/generated/torch.nn.DataParallel.html"
RESERVED_SOURCES = {
    "vllm": "https://docs.vllm.ai/en/stable/api/vllm/config/cache/",
    "lmdeploy": "https://huggingface.co/OpenGVLab/InternVL-Chat-V1-5-AWQ/discussions/2",
    "tensorflow": "https://www.tensorflow.org/guide/gpu#limiting_gpu_memory_growth",
    "pytorch": "https://pytorch.org/docs/stable/notes/cuda.html#memory-management",
}
# An NVIDIA card on an Apple silicon Mac: Apple silicon has no eGPU support of its own and macOS no NVIDIA
# driver; since March 2026 Tiny Corp's Apple-signed TinyGPU DriverKit extension runs Ampere-or-newer cards
# over Thunderbolt/USB4 for tinygrad compute only (github.com/tinygrad/tinygrad/issues/15843). Measured:
# an RTX 5090 on a Mac mini M4 Pro decoded Llama 3.1 8B at ~7.48 tokens/s.
EGPU_SOURCE = "https://www.techspot.com/news/112082-someone-finally-got-rtx-5090-running-mac-no.html"


def mac_and_nvidia(gpus: list[Gpu]) -> tuple[Gpu, Gpu] | None:
    """The first Apple silicon Mac and the first NVIDIA card among ``gpus``, when both are there: a pair that
    cannot work together (no NVIDIA driver on Apple silicon)."""
    apple = next((g for g in gpus if g.vendor == "apple" and g.platform == "unified_memory"), None)
    nvidia = next((g for g in gpus if g.vendor == "nvidia"), None)
    return (apple, nvidia) if apple is not None and nvidia is not None else None


def _merged_macs(caveats: list[Msg]) -> tuple[Msg, ...]:
    """Several Macs in one answer ("Can my MacBook run it?" answered for three sizes): what runs on an Apple
    GPU said once for all of them, macOS's default GPU share of each in one sentence (a size shared by two
    Macs once), and that each is a whole computer in one sentence, not per Mac."""
    apple = [c for c in caveats if c.key == "support.apple"]
    shares = [c for c in caveats if c.key == "support.unified.macos"]
    whole = [c for c in caveats if c.key == "support.not_a_card"]
    if len(apple) < 2 and len(shares) < 2 and len(whole) < 2:
        return tuple(caveats)
    out: list[Msg] = []
    for c in caveats:
        if c.key == "support.apple.neural_accelerators" and c in out:  # one chip's note, said once
            continue
        if c.key == "support.apple" and len(apple) > 1:
            if c is apple[0]:
                out.append(msg("support.apple.several", gpus=tuple(str(a.args["gpu"]) for a in apple)))
        elif c.key == "support.unified.macos" and len(shares) > 1:
            if c is shares[0]:
                sizes = dict.fromkeys((m.args["gb"], m.args["total"]) for m in shares)  # two 64 GB Macs: said once
                each = tuple(msg("support.unified.share", gb=gb, total=total) for gb, total in sizes)
                out.append(msg("support.unified.macos.several", each=each))
        elif c.key == "support.not_a_card" and len(whole) > 1:
            if c is whole[0]:
                out.append(msg("support.not_a_card.several", gpus=tuple(str(w.args["gpu"]) for w in whole)))
        else:
            out.append(c)
    return tuple(out)
