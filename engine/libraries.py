"""Whether a library users name runs on a card: FlashAttention-2, vLLM, Ollama and llama.cpp, from their own
documentation (``data/libraries.yaml``, a source per entry).

"Can I use FlashAttention on my V100?" is answered by the library's requirement against the card's facts
— CUDA compute capability for NVIDIA, the LLVM target for AMD, the vendor for the others — and, where
it does not run, what does the same job on the card. Pure functions; the words are in
``data/locales/messages/support.yaml``.
"""

from __future__ import annotations

from functools import cache
from typing import Literal

from pydantic import BaseModel, ConfigDict

from engine.datafiles import data_dir, read_yaml, validate_entries
from engine.message import Msg, msg
from engine.specs import Gpu

_WORD = {True: "yes", False: "no", None: "unlisted"}


class Library(BaseModel):
    """What a library needs of a GPU, as its documentation says."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    name: str
    short: str  # what Query.model holds when a question names the library (engine/parse.py)
    aliases: tuple[str, ...]
    nvidia_min_cc: str
    amd_gfx: tuple[str, ...] | Literal["all"]
    intel: bool | None
    apple: bool | None
    huawei: bool | None = None  # Ascend NPUs, where the library's own documentation speaks of them
    source: str


class LibraryVerdict(BaseModel):
    """``runs``: True or False where the documentation settles it, None where it says nothing of the card's
    vendor; ``said``: the verdict, then what runs instead where it does not."""

    model_config = ConfigDict(frozen=True)

    library: Library
    runs: bool | None
    said: tuple[Msg, ...]


@cache
def libraries() -> dict[str, Library]:
    path = data_dir() / "libraries.yaml"
    return {e.id: e for e in validate_entries(path, read_yaml(path), Library)}


def library_named(text: str | None) -> Library | None:
    """The library a query's model text names ("flash-attn", "vLLM"), if it names one."""
    if not text:
        return None
    folded = text.casefold()
    return next((lib for lib in libraries().values() if folded in {lib.short.casefold(), *lib.aliases}), None)


def _cc(value: str) -> tuple[int, int]:
    major, minor = value.split(".")
    return int(major), int(minor)


def _runs(library: Library, gpu: Gpu) -> bool | None:
    sw = gpu.software
    if gpu.vendor == "nvidia" and sw.cuda_cc is not None:
        return _cc(sw.cuda_cc) >= _cc(library.nvidia_min_cc)
    if gpu.vendor == "amd":
        return library.amd_gfx == "all" or sw.gfx in library.amd_gfx
    if gpu.vendor == "intel":
        return library.intel
    if gpu.vendor == "apple":
        return library.apple
    if gpu.vendor == "huawei":
        return library.huawei  # mostly None: Ascend runs the vendors' own ports (vllm-ascend, …), not the library
    return None  # Moore Threads, Cambricon, Hygon: their vendors' own ports


def library_verdict(library_id: str, gpu: Gpu) -> LibraryVerdict:
    """Does ``library_id`` run on ``gpu``, by the library's documented requirement?"""
    library = libraries()[library_id]
    runs = _runs(library, gpu)
    said = {"library": library.name, "gpu": gpu.short_name}
    if gpu.vendor == "nvidia" and gpu.software.cuda_cc is not None:
        cc = {"need": library.nvidia_min_cc, "cc": gpu.software.cuda_cc}
        first = msg(f"support.library.{_WORD[bool(runs)]}.cc", **said, **cc)
    elif gpu.vendor == "amd" and library.amd_gfx == "all" and gpu.software.rocm not in ("official", "community"):
        first = msg("support.library.yes.vulkan", **said)  # "Ollama on an RX 580": not ROCm's card, Vulkan's
    else:
        first = msg(f"support.library.{_WORD[runs]}.vendor", **said)
    instead = (msg(f"support.library.instead.{library.id}", gpu=gpu.short_name),) if runs is False else ()
    return LibraryVerdict(library=library, runs=runs, said=(first, *instead))
