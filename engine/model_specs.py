"""The models people ask about: shapes from ``data/models.yaml`` and the resolver for their names.

A :class:`ModelSpec` holds what the published config says about one model: parameter count,
transformer shape, context lengths and the attention features that change the size of the KV cache
(grouped-query heads, sliding-window layers, DeepSeek's compressed MLA cache). Fields a model does
not have (ResNet-50 has no attention heads) or whose value is not published stay ``None``.

``ModelCatalog.resolve`` turns what people type ("llama3-8b", "Qwen2.5-14B-Instruct", "ds r1 distill
32b", "a 70b model") into a catalog id. Like the GPU resolver it prefers no answer to a wrong one:
an exact alias wins, and a fuzzy match may only fix spelling, never change a number. A parameter
size ("8b", "8x7b", "a3b") or a version number must be exactly the same on both sides, so "llama 3
8b" can never become a 70B model and "llama 3.2 8b" (no such model) stays unresolved.

Names without a version go to the newest generation that has that size, through explicit aliases in
the data file ("llama 8b" is Llama 3.1 8B, "qwen 14b" is Qwen3 14B). A name that is a real model
resolves to that model: "llama 3 8b" is Meta-Llama-3-8B, not 3.1. A bare size ("70B", "a 70b
model") resolves to a ``generic-<size>`` entry whose shape is a named representative model.
"""

from __future__ import annotations

import re
import unicodedata
from collections import OrderedDict
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Literal, NoReturn

from pydantic import BaseModel, Field, ValidationError, model_validator
from pydantic_core import InitErrorDetails, PydanticCustomError
from rapidfuzz import fuzz, process

from engine.datafiles import DataError, data_dir, read_yaml, validate_entries
from engine.memo import per_object, remembered
from engine.specs import Frozen

ModelKind = Literal["llm", "diffusion", "speech", "encoder", "vision", "cnn"]
# Precisions a checkpoint ships in; the can-run ladder starts there (a bf16 copy of an FP8 model adds nothing).
ReleasePrecision = Literal["fp32", "fp16", "bf16", "fp8", "mxfp4"]

MODELS_FILE = "models.yaml"
FUZZY_CUTOFF = 86.0
# Two different models scoring this close to each other make a fuzzy match ambiguous: no answer.
AMBIGUITY_MARGIN = 3.0
# Words that make a model another model of its family (a vision, code, audio… variant), not a spelling of it
_VARIANT_WORDS = frozenset({"vl", "vision", "coder", "code", "omni", "audio", "math", "image", "video", "embedding"})

_PositiveInt = Field(default=None, gt=0)
_LLM_REQUIRED = (
    "layers",
    "hidden_size",
    "attention_heads",
    "kv_heads",
    "head_dim",
    "vocab_size",
    "default_context",
    "max_context",
)


def _fail(model: BaseModel, field: str, message: str) -> NoReturn:
    """Reject a cross-field inconsistency as an error located at ``field``, so DataError names it."""
    detail = InitErrorDetails(
        type=PydanticCustomError("inconsistent", message), loc=(field,), input=getattr(model, field, None)
    )
    raise ValidationError.from_exception_data(type(model).__name__, [detail])


class ModelSpec(Frozen):
    """One model as its config.json / model card / paper describes it."""

    id: str = Field(pattern=r"^[a-z0-9]+(?:[-.][a-z0-9]+)*$", description="lower case, '-' separated")
    name: str = Field(min_length=1)
    family: str = Field(min_length=1)
    aliases: tuple[str, ...] = ()
    kind: ModelKind

    params_b: float = Field(gt=0, description="total parameters, billions")
    active_params_b: float | None = Field(default=None, gt=0, description="MoE: active per token")

    layers: int | None = _PositiveInt
    hidden_size: int | None = _PositiveInt
    intermediate_size: int | None = Field(default=None, gt=0, description="dense MLP; MoE: per expert")
    attention_heads: int | None = _PositiveInt
    kv_heads: int | None = _PositiveInt
    head_dim: int | None = _PositiveInt
    vocab_size: int | None = _PositiveInt

    default_context: int | None = Field(default=None, gt=0, description="tokens the released config serves")
    max_context: int | None = Field(default=None, gt=0, description="longest documented context")

    sliding_window: int | None = Field(default=None, gt=0, description="tokens a local layer attends to")
    sliding_window_layers: int | None = Field(
        default=None, ge=0, description="layers with local attention; None with a window: all of them"
    )
    linear_attention_layers: int | None = Field(
        default=None,
        ge=0,
        description="layers with linear attention (Gated DeltaNet): a fixed-size state, no growing KV cache",
    )

    kv_lora_rank: int | None = Field(default=None, gt=0, description="MLA: compressed KV width")
    qk_rope_head_dim: int | None = Field(default=None, gt=0, description="MLA: decoupled RoPE key width")

    experts: int | None = Field(default=None, gt=0, description="MoE: routed experts per layer")
    experts_per_token: int | None = Field(default=None, gt=0, description="MoE: routed experts per token")

    release_precision: ReleasePrecision | None = Field(
        default=None, description="weights as released when not 16-bit (DeepSeek V3: fp8; gpt-oss: mxfp4)"
    )

    source: str = Field(min_length=3)
    notes: str | None = None

    @model_validator(mode="after")
    def _consistent(self) -> ModelSpec:
        if self.kind == "llm":
            for name in _LLM_REQUIRED:
                if getattr(self, name) is None:
                    _fail(self, name, "an llm entry needs it")
        heads, kv = self.attention_heads, self.kv_heads
        if kv is not None and heads is None:
            _fail(self, "attention_heads", "kv_heads is set, attention_heads is not")
        if kv is not None and heads is not None and heads % kv:
            _fail(self, "kv_heads", f"{kv} does not divide attention_heads {heads}")
        if (self.experts is None) != (self.experts_per_token is None):
            field = "experts_per_token" if self.experts is not None else "experts"
            _fail(self, field, "experts and experts_per_token go together")
        if (self.experts is None) != (self.active_params_b is None):
            _fail(self, "active_params_b", "a MoE entry needs experts, experts_per_token and active_params_b")
        if self.experts and self.experts_per_token and self.experts_per_token > self.experts:
            _fail(self, "experts_per_token", f"{self.experts_per_token} exceeds experts {self.experts}")
        if self.active_params_b is not None and self.active_params_b >= self.params_b:
            _fail(self, "active_params_b", f"{self.active_params_b} is not below params_b {self.params_b}")
        if (self.kv_lora_rank is None) != (self.qk_rope_head_dim is None):
            field = "qk_rope_head_dim" if self.kv_lora_rank is not None else "kv_lora_rank"
            _fail(self, field, "kv_lora_rank and qk_rope_head_dim go together (MLA)")
        local = self.sliding_window_layers
        if local is not None and self.sliding_window is None:
            _fail(self, "sliding_window", "sliding_window_layers is set, sliding_window is not")
        if local is not None and (self.layers is None or local > self.layers):
            _fail(self, "sliding_window_layers", f"{local} exceeds layers {self.layers}")
        linear = self.linear_attention_layers
        if linear is not None and (self.layers is None or linear + self.local_layers >= self.layers):
            left = f"{linear} linear + {self.local_layers} local layers"
            _fail(self, "linear_attention_layers", f"{left} leave no full-attention layer of {self.layers}")
        short, long = self.default_context, self.max_context
        if short is not None and long is not None and short > long:
            _fail(self, "default_context", f"{short} exceeds max_context {long}")
        return self

    @property
    def is_moe(self) -> bool:
        return self.experts is not None

    @property
    def uses_mla(self) -> bool:
        return self.kv_lora_rank is not None

    @property
    def local_layers(self) -> int:
        """Layers whose attention only reaches ``sliding_window`` tokens back."""
        if self.sliding_window is None or self.layers is None:
            return 0
        return self.layers if self.sliding_window_layers is None else self.sliding_window_layers

    @property
    def linear_layers(self) -> int:
        """Layers with linear attention: their state has a fixed size, so they keep no KV cache."""
        return self.linear_attention_layers or 0

    @property
    def global_layers(self) -> int | None:
        """Layers whose KV cache grows with the whole context."""
        return None if self.layers is None else self.layers - self.local_layers - self.linear_layers

    @property
    def kv_values_per_token_layer(self) -> int | None:
        """Cached values per token per layer: K and V of every KV head, or MLA's compressed latent."""
        if self.kv_lora_rank is not None and self.qk_rope_head_dim is not None:
            return self.kv_lora_rank + self.qk_rope_head_dim
        if self.kv_heads is None or self.head_dim is None:
            return None
        return 2 * self.kv_heads * self.head_dim

    def kv_cache_bytes(self, context: int, bytes_per_value: float = 2.0) -> float | None:
        """KV cache of one sequence of ``context`` tokens; local layers keep at most the window, and
        linear-attention layers keep none (their fixed-size recurrent state is not a KV cache)."""
        per_layer = self.kv_values_per_token_layer
        if per_layer is None or self.layers is None:
            return None
        local = self.local_layers
        window = self.sliding_window or context
        tokens = (self.global_layers or 0) * context + local * min(context, window)
        return tokens * per_layer * bytes_per_value


# ---------------------------------------------------------------------------------------------
# Names
# ---------------------------------------------------------------------------------------------

# Words that never tell two models apart: fine-tune flavours, file formats, quantizations, filler.
_NOISE_WORDS = frozenset(
    (
        "instruct",
        "instruction",
        "chat",
        "it",
        "base",
        "hf",
        "gguf",
        "ggml",
        "model",
        "models",
        "llm",
        "the",
        "a",
        "an",
        "meta",
        "original",
        "pretrained",
        "pt",
        "version",
        "awq",
        "gptq",
        "mlx",
        "safetensors",
        "weights",
    )
)
# Quantization and precision tags, which carry digits and so are removed before tokenizing.
_NOISE_PATTERNS = re.compile(
    r"\b(?:q\d(?:_k)?(?:_[a-z0-9]+)?|iq\d_[a-z0-9_]+|\d+[- ]?bits?|(?:fp|bf|int|exl)\d+|w\d+a\d+)\b"
)
# Hugging Face owners people paste with the repo name.
_ORGS = (
    "meta-llama",
    "meta",
    "mistralai",
    "qwen",
    "deepseek-ai",
    "google",
    "microsoft",
    "openai",
    "stabilityai",
    "black-forest-labs",
    "unsloth",
    "bartowski",
    "thebloke",
    "lmstudio-community",
    "mlx-community",
    "nvidia",
    "facebook",
    "timm",
    "torchvision",
    "huggingface",
    "tiiuae",
)
_ORG_PREFIX = re.compile(r"^(?:" + "|".join(re.escape(o) for o in _ORGS) + r")/")
_SYNONYMS = {"ds": "deepseek", "lama": "llama"}
_TOKEN = re.compile(
    r"(?P<size>\d+(?:\.\d+)?x\d+(?:\.\d+)?b(?![a-z])"  # 8x7b
    r"|a\d+(?:\.\d+)?b(?![a-z])"  # a3b: active parameters
    r"|\d+(?:\.\d+)?b(?![a-z]))"  # 8b, 1.5b
    r"|(?P<num>\d+(?:\.\d+)?)"
    r"|(?P<word>[a-z]+)"
)
_SIZE = re.compile(r"(?:\d+(?:\.\d+)?x|a)?\d+(?:\.\d+)?b")


# Chinese names of model families, as Chinese users write them ("千问 14B", "百川 13B"); the key keeps
# only Latin words, so each is folded to its family's Latin name first.
_CJK_FAMILIES = {
    "通义千问": "qwen",
    "通義千問": "qwen",
    "千问": "qwen",
    "千問": "qwen",
    "百川": "baichuan",
    "书生浦语": "internlm",
    "書生浦語": "internlm",
    "浦语": "internlm",
    "浦語": "internlm",
    "智谱": "glm",
    "智譜": "glm",
}
_CJK_FAMILY = re.compile("|".join(sorted(map(re.escape, _CJK_FAMILIES), key=len, reverse=True)))


def _tokens(text: str) -> list[tuple[str, str]]:
    """(kind, value) pairs: ``size`` for parameter sizes, ``num`` for other numbers, ``word``."""
    text = unicodedata.normalize("NFKC", text).lower().strip()
    text = _CJK_FAMILY.sub(lambda m: f" {_CJK_FAMILIES[m.group()]} ", text)
    text = text.replace("×", "x")
    text = _ORG_PREFIX.sub("", text)
    text = re.sub(r"(\d)\s*(?:billion|bn)\b", r"\1b", text)
    text = re.sub(r"(\d)\s+b\b", r"\1b", text)
    text = re.sub(r"(\d)\s*x\s*(\d+(?:\.\d+)?b)\b", r"\1x\2", text)
    text = _NOISE_PATTERNS.sub(" ", text)
    out: list[tuple[str, str]] = []
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup or "word"
        value = match.group()
        if kind == "word":
            if value in _NOISE_WORDS:
                continue
            value = _SYNONYMS.get(value, value)
        out.append((kind, value))
    return out


def normalize_model_name(text: str) -> str:
    """Fold a model name to a key: words and numbers run together, parameter sizes kept apart.

    "Llama-3.1-8B-Instruct", "llama3.1 8b" and "meta-llama/Llama-3.1-8B" all give ``llama31 8b``;
    "Qwen3-30B-A3B" gives ``qwen3 30b a3b``.
    """
    segments: list[str] = []
    current = ""
    for kind, value in _tokens(text):
        if kind == "size":
            if current:
                segments.append(current)
                current = ""
            segments.append(value)
        else:
            current += value.replace(".", "")
    if current:
        segments.append(current)
    return " ".join(segments)


def _signature(key: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The parameter sizes and the other numbers in a key, which a fuzzy match must keep."""
    sizes: list[str] = []
    numbers: list[str] = []
    for segment in key.split():
        if _SIZE.fullmatch(segment):
            sizes.append(segment)
        else:
            numbers.extend(re.findall(r"\d+", segment))
    return tuple(sorted(sizes)), tuple(numbers)


_BY_SIGNATURE: dict[int, tuple[dict[str, str], dict[tuple[tuple[str, ...], tuple[str, ...]], list[str]]]] = {}


def _aliases_with(index: dict[str, str], signature: tuple[tuple[str, ...], tuple[str, ...]]) -> list[str]:
    """The aliases of ``index`` with ``signature``, grouped once per index: the parser asks about
    unknown names on every question, and recomputing every alias's signature was ≈30 µs each time."""
    entry = _BY_SIGNATURE.get(id(index))
    if entry is None or entry[0] is not index:
        groups: dict[tuple[tuple[str, ...], tuple[str, ...]], list[str]] = {}
        for alias in index:
            groups.setdefault(_signature(alias), []).append(alias)
        entry = _BY_SIGNATURE[id(index)] = (index, groups)
    return entry[1].get(signature, [])


# ---------------------------------------------------------------------------------------------
# Catalog
# ---------------------------------------------------------------------------------------------


SUGGEST_SCORE = 80  # rapidfuzz WRatio a catalog alias needs to be offered as "did you mean …?"


class ModelCatalog(BaseModel):
    """Every model in ``models.yaml``, validated. Built by :func:`load_model_catalog`; never mutated."""

    model_config = {"frozen": True}

    models: dict[str, ModelSpec]
    alias_index: dict[str, str] = Field(repr=False)

    def get(self, model_id: str) -> ModelSpec:
        try:
            return self.models[model_id]
        except KeyError:
            raise KeyError(f"unknown model id {model_id!r}") from None

    def ids(self) -> list[str]:
        return list(self.models)

    def __len__(self) -> int:
        return len(self.models)

    def resolve(self, text: str) -> str | None:
        """A catalog id for what a person typed, or None when no model is a safe match. Remembered in
        a bounded LRU: the reader and the Query's validator resolve the same name in one question."""
        memo = per_object(_RESOLVED, self, OrderedDict)
        return remembered(memo, text, lambda: self._resolve(text), RESOLVE_REMEMBERED)

    def _resolve(self, text: str) -> str | None:
        key = normalize_model_name(text)
        if not key:
            return None
        if key in self.alias_index:
            return self.alias_index[key]
        signature = _signature(key)
        if not signature[0] or not re.search(r"[a-z]{2}", key):
            # No parameter size, or nothing but sizes: too little to guess from.
            return None
        candidates = _aliases_with(self.alias_index, signature)
        found = process.extract(key, candidates, scorer=fuzz.ratio, score_cutoff=FUZZY_CUTOFF, limit=8)
        # "Qwen2-7B" is no Qwen2-VL 7B: a close name that adds a variant word ("vl", "coder") the text
        # lacks is another model, however few letters it adds
        found = [f for f in found if not any(w in f[0] and w not in key for w in _VARIANT_WORDS)]
        if not found:
            return None
        best_alias, best_score, _ = found[0]
        best_id = self.alias_index[best_alias]
        for alias, score, _ in found[1:]:
            if self.alias_index[alias] != best_id and best_score - score < AMBIGUITY_MARGIN:
                return None
        return best_id

    def family(self, text: str) -> list[str]:
        """The ids a size-less name covers, smallest first: "Llama 3" → Llama 3 8B, Llama 3 70B.

        A name is a family when, without its parameter sizes, it is what a catalog name or alias
        is without theirs; a name that is a model by itself ("Mixtral 8x7B") never gets here."""
        key = normalize_model_name(text)
        if not key or _signature(key)[0]:
            return []
        members = _families(self).get(key, ())
        if len({_bare(normalize_model_name(self.models[m].name)) for m in members}) > 1:
            return []  # "llama" spans Llama 1 to 3.3: which generation is a guess, so none is taken
        return sorted(members, key=lambda i: (self.models[i].params_b, i))

    def suggest(self, text: str, limit: int = 3) -> list[str]:
        """Close catalog ids for a name that did not resolve, for "did you mean ...?". Remembered per name in a
        bounded LRU: the fuzzy scoring against every alias is most of a can-run answer's time (≈0.7 ms), and the
        same unknown projects come back ("GPT-SoVITS", "RVC", "ktransformers": 823 calls, 546 names on the corpus)."""
        key = normalize_model_name(text)
        if not key:
            return []
        memo = per_object(_SUGGESTED, self, OrderedDict)
        found: tuple[str, ...] = remembered(
            memo, (key, limit), lambda: tuple(self._suggest(key, limit)), RESOLVE_REMEMBERED
        )
        return list(found)

    def _suggest(self, key: str, limit: int) -> list[str]:
        # The cutoff drops in C what the loop below would drop (≈30 % less time per call, the same suggestions)
        found = process.extract(
            key, list(self.alias_index), scorer=fuzz.WRatio, limit=limit * 4, score_cutoff=SUGGEST_SCORE
        )
        out: list[str] = []
        for alias, score, _ in found:
            model_id = self.alias_index[alias]
            # Below 80, by a two-letter alias ("r1" inside "T2I-R1") or as a small part of a long alias
            # ("ktransformers" in "zonos-v0.1-transformer") the "match" is another project's name sharing
            # some letters: no suggestion beats a wrong one. A family's prefix ("qwen" → "qwen2.5 7b") is one.
            close = fuzz.ratio(key, alias) >= 60 or alias.startswith(key) or key.startswith(alias)
            if score >= SUGGEST_SCORE and len(alias) > 2 and close and model_id not in out:
                out.append(model_id)
        return out[:limit]


_FAMILIES: dict[int, tuple[ModelCatalog, dict[str, tuple[str, ...]]]] = {}
RESOLVE_REMEMBERED = 4096  # distinct names remembered per catalog (a flood of made-up names pushes out the oldest)
_RESOLVED: dict[int, tuple[ModelCatalog, OrderedDict[str, str | None]]] = {}
_SUGGESTED: dict[int, tuple[ModelCatalog, OrderedDict[tuple[str, int], tuple[str, ...]]]] = {}


def _bare(key: str) -> str:
    """A name key without its parameter sizes: "llama3 8b" → "llama3"."""
    return " ".join(s for s in key.split() if not _SIZE.fullmatch(s))


def _families(catalog: ModelCatalog) -> dict[str, tuple[str, ...]]:
    """Size-less keys → the ids of the sized models they name, built once per catalog."""

    def build() -> dict[str, tuple[str, ...]]:
        groups: dict[str, set[str]] = {}
        for key, model_id in catalog.alias_index.items():
            bare = _bare(key)
            if bare and bare != key and catalog.models[model_id].family != "generic":
                groups.setdefault(bare, set()).add(model_id)
        return {k: tuple(v) for k, v in groups.items()}

    return per_object(_FAMILIES, catalog, build)


def _auto_aliases(model: ModelSpec) -> Iterable[str]:
    yield model.id
    yield model.name
    yield from model.aliases


def _build_alias_index(path: Path, models: dict[str, ModelSpec]) -> dict[str, str]:
    index: dict[str, str] = {}
    for model in models.values():
        for alias in _auto_aliases(model):
            key = normalize_model_name(alias)
            if not key:
                raise DataError(f"{path}: entry {model.id!r}: field 'aliases': {alias!r} has no name in it")
            owner = index.setdefault(key, model.id)
            if owner != model.id:
                raise DataError(f"{path}: entry {model.id!r}: field 'aliases': {alias!r} also names {owner!r}")
    return index


def load_model_catalog_from(path_or_dir: Path | str) -> ModelCatalog:
    """Load ``models.yaml`` (or the file given); raises :class:`DataError` naming entry and field."""
    path = Path(path_or_dir)
    if path.is_dir():
        path = path / MODELS_FILE
    entries = validate_entries(path, read_yaml(path), ModelSpec)
    models: dict[str, ModelSpec] = {}
    for model in entries:
        if model.id in models:
            raise DataError(f"{path}: entry {model.id!r}: field 'id': duplicate id")
        models[model.id] = model
    if not models:
        raise DataError(f"{path}: no models")
    return ModelCatalog(models=models, alias_index=_build_alias_index(path, models))


@cache
def load_model_catalog() -> ModelCatalog:
    """The model catalog from the installed data directory, loaded once per process."""
    return load_model_catalog_from(data_dir() / MODELS_FILE)
