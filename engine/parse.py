"""Free text → :class:`~engine.query.ParseResult`: what a user asked, in English, Chinese or a mix.

The parser is rules over vocabularies (``data/locales/parse.yaml``) and the GPU catalog, not a
model: every decision can be read, tested and extended by adding words. It works in passes over
one lower-cased copy of the text, each pass taking the characters it explains so later passes
cannot misread them (a model size, a GPU name, a count, a wattage, hours and memory are taken
before anything may be read as money). A ``Query`` gets only the fields the text states, so a
follow-up ("what about used?") refines the previous question through ``Query.merged``.
See docs/parsing.md.
"""

from __future__ import annotations

import re
import unicodedata
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from decimal import Decimal
from functools import cache, lru_cache
from typing import Any, NamedTuple

from engine import query as _query
from engine.catalog import Catalog, load_catalog
from engine.classify import NONE, Classifier, load_classifier
from engine.libraries import libraries
from engine.memo import ANSWERS_REMEMBERED, per_object, remembered
from engine.memory import TRAINING_MODES
from engine.message import Msg, msg
from engine.model_specs import load_model_catalog
from engine.money import Money, exchange_rates
from engine.parse_numbers import (
    CLOUDS,
    Count,
    Scan,
    count_after,
    count_before,
    count_patterns,
    currency_hints,
    find_amounts,
    find_deadline,
    find_hours,
    find_memory,
    find_wattages,
    generic_counts,
    money_patterns,
    resolve_currency,
    take_context,
    take_hourly,
    take_kwh_price,
    take_monthly_spend,
    take_oom_capacity,
    take_percents,
)
from engine.parse_vocab import (
    GpuIndex,
    PhraseSet,
    Searcher,
    Vocab,
    Words,
    build_gpu_index,
    gpu_tokens,
    load_vocab,
    quick,
    squash,
)
from engine.query import BOUNDS, SIZES_JOIN, ParseResult, Query
from engine.specs import Gpu
from engine.support import (
    BIG_MODEL_LOADING_SOURCE,
    DATA_PARALLEL_SOURCE,
    DEVICES_SOURCE,
    EGPU_SOURCE,
    PYTORCH_INSTALL_SOURCE,
    RESERVED_SOURCES,
    SYSMEM_FALLBACK_SOURCE,
    WSL_MEMORY_SOURCE,
)

FUZZY_REMEMBERED = 4096  # GPU-like names whose fuzzy match is remembered (an LRU; see _resolve_fuzzy)
LIMIT = 2000  # characters read; longer text is cut before any regex runs
_MODEL_TEXT_BYTES: int = getattr(_query, "MODEL_TEXT_BYTES", 100)  # what a Query keeps of an unknown model
FOLLOW_UP_MAX = 60  # a follow-up is short: "what about used?", "and with €800?"

_INVISIBLE = dict.fromkeys(
    map(
        ord,
        "\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
        "\u2060\u2061\u2062\u2063\u2064\u2066\u2067\u2068\u2069\ufeff\u00ad\u180e",
    ),
    None,
)
_DISCORD = re.compile(r"<a?:\w{1,32}:[0-9]{1,20}>|<(?:@[!&]?|#)[0-9]{1,20}>|@(?:everyone|here)\b|https?://\S{1,300}")
_MARKDOWN = re.compile(
    r"(?<![0-9A-Za-z])\*{1,3}|\*{1,3}(?![0-9A-Za-z])|`{1,3}|~~|\|\||__|^[ \t]{0,3}(?:#{1,6}|>{1,3})[ \t]", re.M
)
_MARKUP_CHARS = frozenset("*`~|_#>")
_TIMES = re.compile(r"(?<=[0-9])[ \t]?\*[ \t]?(?=[0-9A-Za-z])|(?<=[0-9][gG])[ \t]?\*[ \t]?(?=[0-9])")
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
# What may stand between two words of one GPU name: a space, hyphen or underscore, and "魔改" (modded),
# which Chinese sellers put between a card and its doubled memory ("2080ti 魔改22G", "4090 魔改 48G").
# How far after a bare size ("5B and 2B …") a family it sizes may be named.
_SIZE_TO_FAMILY = 24
# What may stand between such a size and the family: more sizes ("5B and 2B", "7B/13B", "7B、13B").
_SIZES_BETWEEN = re.compile(r"(?:\s*(?:and|or|&|,|/|和|或|、)?\s*[0-9]+(?:\.[0-9]+)?\s?b)*\s*(?:的|the\s)?\s*")
# Below this a card asked about Stable Diffusion is asked whether SD itself runs (AUTOMATIC1111: 4 GB with
# --medvram), not what images it makes in general.
_SD_SMALL_CARD_GB = 8
# What a run costs, asked ("how much would it cost to fine-tune …", "what does a LoRA … cost", "要花多少钱").
_RUN_COST = re.compile(
    r"\bhow\s+much\s+(?:does|did|would|will|should)\s+(?:it|this|that|a\s+run|the\s+run)\s+cost\b"
    r"|\bwhat\s+(?:does|did|would|will)\b[^?!。？\n]{0,60}\bcost\b|(?:要|得|需要)?花(?:费)?多少钱"
)
# The next bare size in a list of them ("7B, 13B and 70B", "1.5B、7B和14B"), after the one found.
_NEXT_SIZE = re.compile(
    r"\s*(?:,|/|、|&|\band\b|\bor\b|和|或|及|与|與)\s*(?:a\s+|an\s+)?([0-9]+(?:\.[0-9]+)?)\s?b(?![a-z0-9])"
)


def _size_run(scan: Scan, m: re.Match[str]) -> tuple[list[str], int] | None:
    """Several bare sizes listed together, from the one ``m`` found: their sizes ("7B", "13B", …) and where the
    list ends, while they fit a button's model text joined ("7B/13B/70B"); None for one size alone."""
    sizes = [m.group("bare").replace(" ", "").upper()]
    end = m.end()
    while (nxt := _NEXT_SIZE.match(scan.low, end)) is not None and scan.free(nxt.start(1), nxt.end()):
        size = f"{nxt.group(1)}B"
        if len(SIZES_JOIN.join([*sizes, size]).encode()) > _MODEL_TEXT_BYTES:
            break
        sizes.append(size)
        end = nxt.end()
    unique = list(dict.fromkeys(sizes))
    return (unique, end) if len(unique) > 1 else None


# A GeForce RTX number ("rtx 6090") and a catalog id of one ("rtx-5090-d"): their series (60, 50).
# (xx50 to xx90: the workstation RTX 6000 / 4000 are no GeForce series)
_GEFORCE_NUMBER = re.compile(r"rtx\s*([1-9][0-9])(?:[5-9]0(?:\s*ti)?)?")  # a card ("rtx 6090") or its series ("rtx 60")
_GEFORCE_ID = re.compile(r"rtx-([1-9][0-9])[5-9]0(?:-|$)")
# Precisions a training question keeps: a card may lack them, which the answer must say (engine.support).
_TRAINING_PRECISIONS = frozenset({"bf16"})


@dataclass(frozen=True)
class _VendorLine:
    """A vendor's line named without a card the catalog has, and the card that stands for it — a guess, with the
    line's other cards as options: they share one software stack (CANN and torch_npu, DTK), which is what such
    questions turn on, and the user's own accelerator is answered rather than an NVIDIA shopping list."""

    words: re.Pattern[str]  # the line's name
    gate: tuple[str, ...]  # one of these is in any text the name is in (a substring test before the search)
    owns: tuple[str, ...]  # id prefixes of the line's cards (the first: those offered): one named, no stand-in
    chip: re.Pattern[str]  # right after the name, a chip the stand-in is not: no stand-in
    stand_in: str


_VENDOR_LINES = (
    # "Does Xinference support Ascend NPUs?", "PaddleX适配昇腾910C吗": the 910B; "Ascend 310" is an inference chip
    _VendorLine(
        re.compile(r"昇[腾騰]|(?<![a-z])ascend(?![a-z])"),
        ("昇", "ascend"),
        ("ascend-", "atlas-"),
        re.compile(r"[\s\-_]{0,2}(?!910)[0-9]{3}"),
        "ascend-910b",
    ),
    # "海光DCU能跑chatglm3-6b吗", "does vLLM support Hygon DCUs?": the K100-AI; "海光K100" and "Z100L" are other cards,
    # "海光3350" and "海光CPU" Hygon's CPUs
    _VendorLine(
        re.compile(r"海光|(?<![a-z])hygon(?![a-z])"),
        ("海光", "hygon"),
        ("hygon-",),
        re.compile(r"[\s\-_]{0,2}(?:dcu[\s\-_]{0,2})?[a-z]{0,2}[0-9]|[\s\-_]{0,2}(?:cpu|处理器|處理器|c86)"),
        "hygon-k100-ai",
    ),
)
# Intel's Arc line named without a card ("Intel Arc GPUs", "XPU / Intel Arc support"), and the card that stands for it
_ARC_LINE = re.compile(
    r"(?<![a-z])intel\s*arc(?![a-z])|(?<![a-z])arc\s*(?:gpus?|graphics|cards?|显卡|顯卡)(?![a-z])|(?<![a-z])xpu(?![a-z])"
)
ARC_STAND_IN = "arc-b580"
_ARC_MEMORY = re.compile(r"([0-9]{1,2})\s?(?:gb|g)\b")
# Hardware asked for ("what kind of hardware is needed", "a PC configuration", "the cheapest computer", "需要什么配置",
# "硬件推荐")
_HARDWARE_ASKED = quick(
    re.compile(
        r"\b(?:what|which)\s+(?:kind\s+of\s+|sort\s+of\s+|type\s+of\s+)?(?:hardware|pc|computer|configuration|config|setup"
        r"|rig|specs?|machine|workstation)\b|\b(?:pc|hardware|computer)\s+(?:configuration|config|recommendations?"
        r"|requirements?|specs?)\b|\bcheapest\s+(?:computer|pc|machine|setup|rig)"
        r"|(?:什么|甚麼|什麼|哪种|哪種|怎样的|怎樣的)(?:样的|樣的)?(?:硬件|硬體|配置|电脑|電腦|机器|機器)"
        r"|(?:硬件|硬體|电脑|電腦)(?:配置)?(?:推荐|推薦|建议|建議)|推荐(?:一下)?(?:硬件|配置)|推薦(?:一下)?(?:硬體|配置)"
    ),
    most=100,
)
# The noun for the cards right after a name ("8 L40S GPUs", "two 2070S cards"): the name's own "s" is no plural
_CARDS_NOUN = re.compile(r"\s*(?:gpus?|cards?|graphics\s+cards?|显卡|顯卡|卡)\b")
_PLURAL_V100 = re.compile(r"(?<![A-Za-z0-9])[Vv]100s(?![A-Za-z0-9])")
# Buying words: a generation named beside them is a market to choose from ("a 40-series GPU for $1000?")
_BUYS = re.compile(r"\bbuy|\bbudget|\$|dollars?\b|预算|預算|买|買|购|購|元|块钱|塊錢")
_AND_ABOVE = re.compile(
    r"\s?(?:[^，。,.?？]{0,6}(?:及以上|以上|或以上|或更新|或更高)|\+|\s?or\s(?:above|newer|later|higher|better))"
)
_RUN_ON_IT = re.compile(
    r"\b(?:can|could|will|would)\s+(?:it|i|they|this|that|mine)\s+(?:run|train|fine-?tune|handle)\b"
)
# A GeForce RTX generation said as one: "RTX 50 series", "rtx50系", "the 40-series GPUs", "50系显卡", "30系列" —
# with the line word, or "series"/"系" and a word for a card after it.
_GENERATION = re.compile(
    r"\b(?:rtx|geforce)\s?(?P<a>[2-5]0)(?:\s?-?\s?(?:series|系列?|xx))?(?![0-9a-z])"
    r"|(?<![0-9.])(?P<b>[2-5]0)\s?-?\s?(?:series|xx)\s?(?:gpus?|cards?|graphics|nvidia|geforce|rtx)\b"
    r"|(?<![0-9.])(?P<c>[2-5]0)\s?系"
)
_ASCEND_BEFORE = re.compile(r"(?:昇[腾騰]|华为|華為|ascend)[\s\-_]{0,2}$")  # a chip number right after the name
_SEPARATOR = re.compile(r"[\s\-_]{0,2}(?:魔改版?[\s\-_]{0,2})?")
_NX = re.compile(r"^([0-9]{1,4})x([a-z][a-z0-9]*|[0-9]{3,4}[a-z]*)$")
_VARIANT = frozenset({"ti", "super", "xt", "xtx"})
_MEMORY_BEFORE = re.compile(
    r"(?<![0-9.])(?P<n>[0-9]{1,3})\s*(?:gb|g|gib|gigs?)(?![a-z])(?P<tail>\s*(?:[x×*]\s*[0-9]{1,2}\s*)?"
    r"(?:的|of|vram|显存|顯存)?\s*)$"
)
_MEMORY_AFTER = re.compile(r"\s*(?:\(|（|with\s+|w/\s*)\s*(?P<n>[0-9]{1,3})\s*(?:gb|g|gib)(?![a-z])")
_STAGES = ("llm_pretrain", "llm_finetune", "llm_inference")
_KIND_CUES = ("cloud", "power", "compare", "can_run", "can_run_weak", "recommend", "explain")
_RULES = object()  # decide_task: keep the rules' task
_SIZE_GATE = re.compile(r"[0-9]\s?b(?![a-z0-9])")  # every bare model size ("70b", "8x7b", "13 b") has one
_HARDWARE = frozenset({"gpus:1", "gpus:2", "unknown_gpu", "memory", "apple"})
_SUBJECTS = frozenset({"model", "budget", "topic", "hours", "count"})
_TRAINED_WHOLE = frozenset(
    {"cnn", "vision", "encoder", "speech", "diffusion"}
)  # "train" is a whole training (LoRA is named)
_NOT_FIT = frozenset({"cue:power", "cue:cloud", "compare_strong"})
QUICK_CONFIDENCE = 0.9  # the quick model's kind is taken from this probability (else the full model decides)
KIND_CONFIDENCE = 0.6  # below this, the kind is asked about ("kind" in missing, with kind_choices); chosen on dev
CHOICE_FLOOR = 0.12  # a kind this likely is offered as a choice
TASK_CONFIDENCE = 0.7  # the classifier's task fills a task the rules did not find from this probability
MAX_GPUS = int(BOUNDS["gpus"].high)  # cards a Query holds
_BLOCKING_DOMAINS = ("image_generation", "computer_vision", "rl", "other")


@dataclass(frozen=True)
class Mention:
    """One GPU name in the text."""

    gpu_id: str
    start: int
    end: int
    memory: float | None  # a memory size typed with the name ("3060 12GB")
    guessed: bool  # one of several variants, or a fuzzy match
    count: Count | None
    options: tuple[str, ...] = ()  # the variants a guessed name may mean ("V100": 16 or 32 GB)
    variants: bool = False  # its memory only tells it from another variant offered ("A100 40GB or 80GB")


class Hits(dict[str, bool]):
    """Which of several phrase lists the text matches, each searched only when first asked."""

    def __init__(self, patterns: dict[str, Any], words: Words) -> None:
        super().__init__()
        self.patterns, self.words = patterns, words

    def __missing__(self, key: str) -> bool:
        hit = self[key] = self.patterns[key].find(self.words) is not None
        return hit


@dataclass(slots=True)
class Reading:
    """What the passes read from one question, before the kind and task are decided."""

    low: str  # the cleaned, lower-cased text
    language: str
    fields: dict[str, Any]  # Query fields the text states (kind not yet)
    rule_kind: str | None  # what the rules alone say
    signals: frozenset[str]  # the rules' findings, as classifier features
    follow_up: bool
    model_sized: bool
    memory: list[float]
    mentions: list[Mention]
    topic: str | None
    uncertain: tuple[str, ...]
    unknown: tuple[str, ...]
    notes: list[Msg]
    task_from_stage: bool = False  # the task is an llm_* stage read from a stage word alone
    about_gpus: bool = False  # a word about GPUs or machine learning is there (see _relevant)
    text: str = ""  # the cleaned text in its own case, where project names are read (see project_name)
    words: Words | None = None  # ``low``'s anchors (see Words), so that later passes skip phrase lists it lacks
    needs: tuple[float, ...] = ()  # memory figures the text quotes as needs ("requires 24GB"), not as the user's

    def has(self, phrases: PhraseSet) -> bool:
        """Whether one of ``phrases`` is in the text: :meth:`PhraseSet.find` with the anchors already read."""
        return phrases.find(self.words or Words(self.low)) is not None


class Cues(NamedTuple):
    kinds: Hits
    topic: str | None
    topic_strong: bool


def clean(text: str) -> tuple[str, bool]:
    """Text safe to scan: cut to ``LIMIT`` first, NFKC (full-width digits → ASCII), without
    invisible and bidi characters, Discord mentions, links and Markdown marks."""
    if not isinstance(text, str):
        text = ""
    cut = len(text) > LIMIT
    text = text[:LIMIT]
    if not text.isascii():  # ASCII is already NFKC and has no invisible characters
        text = unicodedata.normalize("NFKC", text)[:LIMIT].translate(_INVISIBLE)
    if "<" in text or "@" in text or "http" in text:
        text = _DISCORD.sub(" ", text)
    if _MARKUP_CHARS.intersection(text):
        if "*" in text:  # "8 * A100", "32G * 2": a multiplication, not Markdown emphasis
            text = _TIMES.sub("×", text)
        text = _MARKDOWN.sub(" ", text)
    return text, cut


def lower(text: str) -> str:
    """Lower case with offsets kept (a few characters grow when lower-cased; those stay as they are)."""
    low = text.lower()
    if len(low) == len(text):
        return low
    return "".join(c if len(c.lower()) != 1 else c.lower() for c in text)


def language(low: str, vocab: Vocab, default_currency: str) -> str:
    """en, zh-Hant or zh-Hans, by which script's distinctive characters the text uses."""
    if low.isascii() or not _CJK.search(low) or vocab.kana.search(low):
        return "en"
    hant = sum(map(vocab.hant.__contains__, low))  # map: no Python frame per character
    hans = sum(map(vocab.hans.__contains__, low))
    if hant != hans:
        return "zh-Hant" if hant > hans else "zh-Hans"
    return "zh-Hant" if default_currency in ("TWD", "HKD") else "zh-Hans"


class Parser:
    """The vocabularies and the GPU index, built once; :meth:`parse` keeps no state between calls."""

    def __init__(self, vocab: Vocab, index: GpuIndex, classifier: Classifier | None = None) -> None:
        self.vocab = vocab
        self.index = index
        self.classifier = classifier
        self._fuzzy: OrderedDict[str, str | None] = OrderedDict()
        self._apple: dict[str, dict[str, list[str]]] | None = None  # Apple chips by generation and tier
        self._family_kinds: dict[str, str] | None = None  # see _model_kind
        self._newest_series: int | None = None  # the newest GeForce RTX series in the catalog (50)
        self._laptops: tuple[str, ...] | None = None  # see _laptop_tiers
        self._models: dict[str, str | None] = {}
        self._max_budget = Decimal(vocab.money["max_plausible"])
        # a start word, or one with an "s" after it: "tok in starts or tok[:-1] in starts" for "…s"
        self._plural_starts = index.starts | {start + "s" for start in index.starts}
        targets = _VARIANT | vocab.gpu_laptop
        self._typo_targets = tuple(sorted(w for w in targets if len(w) >= 3))
        self._typo_exact = frozenset(
            targets
            | {w + s for w in targets for s in ("s", "es")}
            | index.starts
            | vocab.gpu_noise
            | vocab.gpu_lines
            | vocab.gpu_like
        )

    # --- GPU names ---------------------------------------------------------------------------------

    def _token(self, tok: str, start: int, scan: Scan, count_at: int | None = None) -> tuple[str, int]:
        """A token as a name part: "2x3090" → "3090"; a plural "4090s" → "4090", except where the
        catalog has the "s" form ("2070s" is a 2070 Super) and no count says it is a plural. The count
        is looked for before ``count_at``: the name's first word ("two RTX 2070s")."""
        nx = _NX.match(tok) if "x" in tok else None
        if nx and nx.group(2) in self.index.starts:
            return nx.group(2), start + len(nx.group(1)) + 1
        if tok[-1] == "s" and (tok[:-1] in self.index.starts or tok[:-1] in _VARIANT):
            left = scan.left(start if count_at is None else count_at, 24)
            # a count, or "how many", before it says "V100s" is V100s, not the V100S card
            plural = count_patterns(self.vocab).search_before(left) or _HOW_MANY.search(left)
            # …unless a noun for the cards follows: "8 L40S GPUs" are L40S cards, "two 2070s" are 2070s
            named = tok in self.index.starts and _CARDS_NOUN.match(scan.low, start + len(tok))
            if tok not in self.index.starts or (plural and not named):
                return tok[:-1], start
        return tok, start

    def _run(self, toks: list[tuple[str, int, int]], i: int, scan: Scan) -> list[tuple[str, int, int]]:
        """The tokens from ``i`` that may form one name: joined only by spaces or hyphens, at most 6."""
        tok, start = self._token(toks[i][0], toks[i][1], scan)
        end = toks[i][2]
        variant_next = i + 1 < len(toks) and toks[i + 1][0] in _VARIANT
        if tok not in self.index.starts and not (tok.isdigit() and variant_next):
            return []
        if not scan.free(start, end):
            return []
        run = [(tok, start, end)]
        low, last = scan.low, end
        for nxt, s, e in toks[i + 1 : i + 6]:
            gap = low[last:s]
            if (gap != " " and not _SEPARATOR.fullmatch(gap)) or not scan.free(s, e):
                break
            run.append(
                (self._token(nxt, s, scan, count_at=run[0][1])[0] if nxt[-1] == "s" or "x" in nxt else nxt, s, e)
            )
            last = e
        return run

    def _lookup(self, core: str, extras: tuple[str, ...], laptop: bool) -> tuple[str, ...]:
        """The cards a name key means; a laptop word in the text picks the laptop card where one exists."""
        if not core:
            return ()
        if laptop and "laptop" not in extras:
            promoted = self.index.lookup((core, tuple(sorted((*extras, "laptop")))))
            if promoted:
                return promoted
        found = self.index.lookup((core, extras))
        if not found and "laptop" not in extras and any(e.endswith("gb") for e in extras):
            # "3060 6G", "3050 Ti 4GB": a memory size only the laptop card has names the laptop card
            return self.index.lookup((core, tuple(sorted((*extras, "laptop")))))
        return found

    def _apple_chips(self) -> dict[str, dict[str, list[str]]]:
        """Apple chips by generation and tier ("m2" → {"": [apple-m2-8gb, …], "max": […]}), built once."""
        if self._apple is None:
            chips: dict[str, dict[str, list[str]]] = {}
            for gpu_id in self.index.catalog.gpus:
                if m := _APPLE_CHIP.fullmatch(gpu_id):
                    chips.setdefault(m.group("gen"), {}).setdefault(m.group("tier") or "", []).append(gpu_id)
            self._apple = chips
        return self._apple

    def _apple_tier(self, gpu_id: str, memory: list[float], studio: bool) -> str:
        """A base Apple chip read from "M2" is the Pro, Max or Ultra the text implies: a Mac Studio
        has a Max or an Ultra ("M2 Mac Studio" → M2 Max), and a memory size the base chip never had
        names the tier that has it ("Mac Studio M1 64GB" → M1 Max 64 GB)."""
        m = _APPLE_BASE.fullmatch(gpu_id)
        if m is None:
            # "M4 Max、128G内存": a Pro, Max or Ultra named with a memory size is that tier's machine with it
            chip = _APPLE_CHIP.fullmatch(gpu_id)
            if chip is None or not memory:
                return gpu_id
            gpus = self.index.catalog.gpus
            same_tier = self._apple_chips().get(chip.group("gen"), {}).get(chip.group("tier") or "", [])
            return next((g for size in memory for g in same_tier if gpus[g].unified_memory_gb == size), gpu_id)
        tiers = _mac_tiers(studio)
        by_tier = self._apple_chips().get(m.group("gen"), {})
        gpus = self.index.catalog.gpus
        candidates = [g for tier in tiers for g in by_tier.get(tier, ())]
        for size in memory:
            sized = [g for g in candidates if gpus[g].unified_memory_gb == size]
            if sized:
                return sized[0]
        if gpu_id in candidates:
            return gpu_id
        return min(candidates, key=lambda g: gpus[g].unified_memory_gb or 0, default=gpu_id)

    def _tier_as_named(self, ids: list[str]) -> list[str]:
        """ "My M1 Max 64 GB is slow: do M2 owners do better?": a bare chip beside a Max or Ultra named first is that
        tier of its own generation (M2 Max), with the same memory where it was sold with it. (Beside a Pro a bare
        chip is often the base one weighed against it: "M3 Pro or M4?")"""
        first = next((c for i in ids if (c := _APPLE_CHIP.fullmatch(i)) and c.group("tier") in ("max", "ultra")), None)
        if first is None:
            return ids
        gpus = self.index.catalog.gpus
        size = gpus[first.group(0)].unified_memory_gb
        out = []
        for gpu_id in ids:
            base = _APPLE_BASE.fullmatch(gpu_id)
            tier = self._apple_chips().get(base.group("gen"), {}).get(first.group("tier"), []) if base else []
            same = [g for g in tier if gpus[g].unified_memory_gb == size]
            out.append((same or sorted(tier, key=lambda g: gpus[g].unified_memory_gb or 0) or [gpu_id])[0])
        return out

    def _mac_studio_lineup(self) -> list[str]:
        """The newest Max and the newest Ultra the catalog has for a Mac Studio, each at its least memory (today an M4
        Max with 36 GB and an M3 Ultra with 96 GB, _MAC_GENERATIONS): what "a Mac Studio" buys now."""
        gpus, chips = self.index.catalog.gpus, self._apple_chips()
        studio = [gen for gen in _MAC_GENERATIONS["mac studio"] if gen in chips]
        out = []
        for tier in _mac_tiers(studio=True):
            newest = max((gen for gen in studio if chips[gen].get(tier)), key=lambda gen: int(gen[1:]), default=None)
            if newest is not None:
                out.append(min(chips[newest][tier], key=lambda g: gpus[g].unified_memory_gb or 0))
        return out

    def _apple_by_memory(self, size: float, low: str) -> tuple[str, bool] | None:
        """The Apple chip sold with ``size`` GB of unified memory (a Mac Studio's: Max or Ultra; a Mac mini's or an
        iMac's: the generations it shipped with), and whether it was a guess among several (then the newest)."""
        tiers = _mac_tiers("mac studio" in low, laptop="macbook" in low)
        generations = next((gens for name, gens in _MAC_GENERATIONS.items() if name in low), None)
        gpus = self.index.catalog.gpus
        sized = [
            g
            for gen, by_tier in self._apple_chips().items()
            if generations is None or gen in generations
            for tier in tiers
            for g in by_tier.get(tier, ())
            if gpus[g].unified_memory_gb == size
        ]
        if not sized:
            return None
        newest = max(sized, key=lambda g: int(_APPLE_CHIP.fullmatch(g).group("gen")[1:]))  # type: ignore[union-attr]
        return newest, len(sized) > 1

    def _money_context(self, scan: Scan, start: int, end: int) -> bool:
        """A bare number next to a currency ("$1080", "2080 dollars") is money, not a GPU."""
        if re.search(r"[$€£¥]\s*$", scan.left(start, 3)):
            return True
        if _NEXT_PRICE.match(scan.low, end):
            return False  # "4090 $0.40/hr": the symbol is the next amount's prefix
        return bool(money_patterns(self.vocab).suffix.match(scan.low, end)) or scan.low[end : end + 1] == "k"

    def _model_id(self, name: str) -> str | None:
        """The model catalog's id for a name, remembered (a fuzzy look-up is slow; names repeat)."""
        if name not in self._models:
            if len(self._models) >= 4096:
                return load_model_catalog().resolve(name)
            self._models[name] = load_model_catalog().resolve(name)
        return self._models[name]

    def _model_kind(self, model: str | None) -> str | None:
        """The catalog's kind of a model id ("llm", "diffusion"…) or of a family named without a size
        ("Whisper"); None for no model or a name it lacks."""
        if model is None:
            return None
        catalog = load_model_catalog()
        if model in catalog.models:
            return catalog.models[model].kind
        if self._family_kinds is None:  # family → its members' kind, where they share one; built once
            kinds: dict[str, set[str]] = {}
            for spec in catalog.models.values():
                kinds.setdefault(spec.family, set()).add(spec.kind)
            self._family_kinds = {f: k.pop() for f, k in kinds.items() if len(k) == 1}
        return self._family_kinds.get(model.strip().lower())

    def _resolve_fuzzy(self, text: str) -> str | None:
        """The catalog's fuzzy match for a GPU-like name, remembered in a bounded LRU (engine.memo.remembered)."""
        return remembered(self._fuzzy, text, lambda: self._fuzzy_match(text), FUZZY_REMEMBERED)

    def _fuzzy_match(self, text: str) -> str | None:
        found = self.index.catalog.resolve(text)
        line, _, rest = text.partition(" ")
        if (
            found is not None
            and line in self.vocab.gpu_lines
            and rest.endswith("000")
            and line not in _name_words(self.index.catalog.get(found))
        ):
            found = None  # "RX 6000" is a series, no RTX 6000 ("RTX 6600", a typo, is still the RX 6600)
        return found

    def find_gpus(self, scan: Scan, laptop: bool) -> tuple[list[Mention], list[str], list[Count]]:
        """GPU names, longest catalog match first; GPU-like names that match nothing go to unknown,
        with the counts written next to them ("2x 4080 supr")."""
        toks = self._split_variants(gpu_tokens(scan.low, self.vocab))
        mentions: list[Mention] = []
        unknown: list[str] = []
        loose: list[Count] = []
        i = 0  # the first token not yet read
        laptop_at = self._laptop_at(scan.low) if laptop else None
        for at in self._name_starts(toks):
            if at < i:
                continue  # inside a name already read
            glued = _GLUED_TO.search(scan.low, 0, toks[at][1]) if _CHIP_TOKEN.match(toks[at][0]) else None
            if glued and glued.group(1) not in _MAC_WORDS:
                continue  # "MiniMax-M1": a model's version, no Apple chip ("Mac-M2" is one)
            i = at
            run = self._run(toks, i, scan)
            if laptop_at is not None:
                laptop = laptop_at(toks[at][1])
            found = self._match(run, laptop, scan) if run else None
            if found:
                length, (gpu_id, start, end, memory, guessed, options) = found
                if memory is None:
                    variant = self._memory_variant(scan, run[:length], start, end, laptop)
                    if variant:
                        gpu_id, start, end, memory = variant
                        guessed, options = False, (gpu_id,)
                if length < len(run) and self._variant_typo(run[length][0]):
                    # "4080 supr": a misspelt variant word. Ask about it rather than read the base card.
                    end = run[length][2]
                    scan.take(start, end)
                    self._add_unknown([t for t, _, _ in run[: length + 1]], unknown)
                    count = count_before(scan, start, self.vocab) or count_after(scan, end, self.vocab)
                    loose += [count] if count else []
                    i += length + 1
                    continue
                scan.take(start, end)
                last = toks[i + length - 1][0]
                plural = last[-1] == "s" and (last != run[length - 1][0] or last in self.vocab.gpu_noise)
                count = (
                    None  # "32 A100-days", "2000 A100 GPU hours": GPU time, not 32 cards
                    if _GPU_TIME.match(scan.low, end)
                    else count_before(scan, start, self.vocab, plural)
                    or count_after(scan, end, self.vocab)
                    # "two 24GB 3090s", "4个80G A100": the count before the card's memory
                    or (
                        (size := _SIZE_BEFORE.search(scan.low, max(0, start - 12), start))
                        and count_before(scan, size.start(), self.vocab, plural)
                    )
                    or None
                )
                other = self._other_memory(scan, run[:length], end, laptop) if memory is not None else None
                mentions.append(Mention(gpu_id, start, end, memory, guessed, count, options, variants=bool(other)))
                if other:  # "A100 40GB or 80GB": both variants, and the sizes only tell them apart
                    mentions.append(Mention(other[0], other[1], other[2], other[3], False, None, variants=True))
                i += length
                continue
            if run:
                self._unknown(run, scan, laptop, mentions, unknown, loose)
            i += 1
        if not mentions and (generation := self._generation(scan, laptop)):
            mentions.append(generation)
            unknown = [name for name in unknown if name not in scan.low[generation.start : generation.end]]
        for line in (*(self._vendor_line(scan, mentions, v) for v in _VENDOR_LINES), self._arc_line(scan, mentions)):
            if line is not None:
                mentions = sorted([*mentions, line], key=lambda m: m.start)  # in the order named ("昇腾和A100比哪个好")
        return mentions, unknown, loose

    def _laptop_at(self, low: str) -> Callable[[int], bool] | None:
        """ "A laptop with a 4090 or a desktop with a 4080?": with a desktop word beside the laptop word, each card is
        the kind the nearest of the two words says (the laptop's 4090, the desktop's 4080); None without one, when a
        laptop word makes every card named the laptop part."""
        desktops = [m.start() for m in _DESKTOP.finditer(low)]
        if not desktops:
            return None
        forms = [(m.start(), True) for m in self.vocab.laptop.finditer(low)] + [(d, False) for d in desktops]
        cuts = [0, *(m.start() for m in _ALTERNATIVES.finditer(low)), len(low)]  # "… or …", "…还是…": one option each

        def laptop_at(at: int) -> bool:
            start = max(c for c in cuts if c <= at)
            end = min((c for c in cuts if c > at), default=len(low))
            inside = [f for f in forms if start <= f[0] < end]  # the option's own word, else the nearest one
            return min(inside or forms, key=lambda form: abs(form[0] - at))[1]

        return laptop_at

    def _vendor_line(self, scan: Scan, mentions: list[Mention], line: _VendorLine) -> Mention | None:
        """The stand-in for a vendor's line named without a card (:class:`_VendorLine`); None beside one of its
        cards, or for a chip the stand-in is not."""
        low = scan.low
        found = line.words.search(low) if any(word in low for word in line.gate) else None
        if (
            found is None
            or not scan.free(found.start(), found.end())
            or any(m.gpu_id.startswith(line.owns) for m in mentions)
            or line.chip.match(low, found.end())
        ):
            return None
        cards = tuple(g for g in self.index.catalog.gpus if g.startswith(line.owns[0]))
        if line.stand_in not in cards:
            return None
        options = (line.stand_in, *(g for g in cards if g != line.stand_in))
        return Mention(line.stand_in, found.start(), found.end(), None, True, None, options)

    def _arc_line(self, scan: Scan, mentions: list[Mention]) -> Mention | None:
        """ "does FooTTS run on Intel Arc GPUs?", "any chance of XPU / Intel Arc support?": Intel's current Arc card
        stands for the line (they share the XPU backend), a guess with the others as options; with its memory said
        ("the Intel Arc GPU for its 16GB"), the Arc card sold with it. None beside an Arc card, or when buying."""
        low = scan.low
        if any(m.gpu_id.startswith("arc-") for m in mentions) or not ("arc" in low or "xpu" in low):
            return None
        arc = _ARC_LINE.search(low)
        if arc is None or not scan.free(arc.start(), arc.end()) or not self._asks_of_a_card(low):
            return None
        arcs = sorted(
            (g for g in self.index.catalog.gpus.values() if g.id.startswith("arc-") and g.platform == "desktop"),
            key=lambda g: (g.id != ARC_STAND_IN, -g.release_year, -g.memory_gb, g.id),
        )
        if not arcs or arcs[0].id != ARC_STAND_IN:
            return None
        sized = _ARC_MEMORY.search(low, arc.end(), arc.end() + 40)
        by_size = sorted(
            (g for g in arcs if sized and g.memory_gb == float(sized.group(1))),
            key=lambda g: g.gpu_class != "consumer",  # the GeForce-like Arc before the Pro one
        )
        chosen = by_size[0].id if by_size else ARC_STAND_IN
        return Mention(
            chosen, arc.start(), arc.end(), None, True, None, (chosen, *(g.id for g in arcs if g.id != chosen))
        )

    def _runs_on_a_card(self, low: str) -> bool:
        """Whether the text asks if something runs on a card ("can it run", "enough", "supported")."""
        return bool(_RUN_ON_IT.search(low) or self.vocab.support_words.search(low) or self.vocab.fit_intent.search(low))

    def _asks_of_a_card(self, low: str) -> bool:
        """Whether the text asks if something runs on, or supports, a card (not which one to buy)."""
        return not _BUYS.search(low) and (self._runs_on_a_card(low) or _asks_maintainers(low))

    def _variant_by_memory(self, mention: Mention, memory: list[float]) -> Mention:
        """A card sold in several memory sizes, named without one, and a size said elsewhere that only one of them
        has ("my 4060 Ti; can 16G run it?", "V100单卡…32G显存不够用", "22 GB of VRAM (RTX 2080 Ti)"): that one."""
        if mention.memory is not None or len(mention.options) < 2:
            return mention
        gpus = self.index.catalog.gpus
        sizes = {gpus[g].memory_gb for g in mention.options}
        said = [size for size in dict.fromkeys(memory) if size in sizes]
        if len(said) != 1 or len(sizes) < 2 or gpus[mention.gpu_id].memory_gb == said[0]:
            return mention  # (the card read already has it: "a 2060 with 6GB in my laptop" stays the laptop part)
        chosen = next(g for g in mention.options if gpus[g].memory_gb == said[0])
        return replace(mention, gpu_id=chosen, guessed=False)

    def _ti_by_memory(self, mention: Mention, low: str, notes: list[Msg]) -> Mention:
        """A card with its memory typed after it that it is not sold with, where its Ti is ("a 5060 16GB", "my 4060
        16gb"): the Ti with that memory, said so — the user's card, named short, not a size the card lacks."""
        size = _SIZE_AFTER.match(low, mention.end)
        if size is None or mention.memory is not None:
            return mention
        gpus, said_gb = self.index.catalog.gpus, float(size.group(1))
        if any(gpus[g].memory_gb == said_gb for g in (mention.gpu_id, *mention.options)):
            return mention
        base = _MEMORY_SUFFIX.sub("", mention.gpu_id)
        siblings = [g.id for g in gpus.values() if g.id.startswith(base + "-ti") and g.memory_gb == said_gb]
        if len(siblings) != 1:
            return mention
        typed, named = gpus[mention.gpu_id], gpus[siblings[0]]
        notes.append(
            msg(
                "parse.note.ti_by_memory",
                card=typed.short_name,
                gb=typed.memory_gb,
                said=size.group(1),
                ti=named.short_name,
            )
        )
        return replace(mention, gpu_id=named.id, guessed=False, options=(named.id,))

    def _generation(self, scan: Scan, laptop: bool) -> Mention | None:
        """A GeForce RTX generation named as one ("the 50 series", "RTX 50", "50系显卡") where no card is, in a
        question whether something runs on it or supports it: its flagship desktop card (or laptop part)
        stands for it, said as a guess with the others as options — they share their architecture and so their
        software status ("does X support 50 series GPUs?"). "A 40-series GPU for $1000?" buys a card, and
        "30系和40系哪个好" weighs two generations: none."""
        low = scan.low
        if not ("series" in low or "系" in low or "rtx" in low or "geforce" in low):
            return None
        found = list(_GENERATION.finditer(low))
        if len({g.group("a") or g.group("b") or g.group("c") for g in found}) != 1 or _BUYS.search(low):
            return None  # none, or two weighed ("30系的卡和40系比哪个好"), or a market to buy from
        m = found[0]
        if _AND_ABOVE.match(low, m.end()):
            return None  # "需要30系及以上N卡？", "a 30 series or newer": a threshold, no card anyone has
        if not (m.group("c") or self._runs_on_a_card(low)):
            return None
        series = m.group("a") or m.group("b") or m.group("c")
        catalog = self.index.catalog
        members = [
            gpu
            for gpu in catalog.gpus.values()
            if (g := _GEFORCE_ID.match(gpu.id))
            and g.group(1) == series
            and (gpu.platform == "laptop") == laptop
            and not gpu.modified
            and not gpu.id.endswith(("-d", "-d-v2"))  # China's export editions stand for no generation
        ]
        if not members:
            return None
        ranked = sorted(members, key=lambda g: (-g.bandwidth_gbs, -g.memory_gb, g.id))  # the flagship first
        scan.take(m.start(), m.end())
        return Mention(ranked[0].id, m.start(), m.end(), None, True, None, tuple(g.id for g in ranked))

    def _split_variants(self, toks: list[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
        """ "4090ti" → "4090", "ti" where the glued form names no card: read as "4090 Ti" is (the variant
        word then decides, or the name is asked about), not dropped."""
        out = []
        for tok, start, end in toks:
            glued = _GLUED_VARIANT.match(tok) if tok[:1].isdigit() else None
            if glued and tok not in self.index.starts and glued.group(1) in self.index.starts:
                cut = start + glued.end(1)
                out += [(glued.group(1), start, cut), (glued.group(2), cut, end)]
            else:
                out.append((tok, start, end))
        return out

    def _name_starts(self, toks: list[tuple[str, int, int]]) -> list[int]:
        """Where a name may begin, which is only what _run accepts: a start word (maybe as a plural or
        after "2x"), or a number followed by a variant word ("3090 super"). Most words are none, and are
        skipped here in one pass (a start word and its plural are one set: see ``_plural_starts``)."""
        starts, n = self._plural_starts, len(toks)
        names = [t for t, _, _ in toks]
        return [
            i
            for i, tok in enumerate(names)
            if tok in starts
            or ("x" in tok and self._nx_start(tok))
            or (tok.isdigit() and i + 1 < n and names[i + 1] in _VARIANT)
        ]

    def _memory_variant(
        self, scan: Scan, run: list[tuple[str, int, int]], start: int, end: int, laptop: bool
    ) -> tuple[str, int, int, float] | None:
        """A memory size written just before a name ("16GB 4060 Ti", "32G的V100") or just after it
        with "with" or a bracket ("3080 with 12GB", "4090 (24G)") picks the variant with that memory:
        (id, start, end, memory), or None when it picks no other card."""
        before = _MEMORY_BEFORE.search(scan.left(start, 16))
        after = None if before else _MEMORY_AFTER.match(scan.low, end)
        found = before or after
        if not found:
            return None
        offset = max(0, start - 16) if before else 0
        m_start = offset + found.start("n")
        m_end = offset + (found.start("tail") if before else found.end())
        if not scan.free(m_start, m_end):
            return None
        core, extras = self.index.keys([t for t, _, _ in run], self.vocab)[-1]
        size = float(found.group("n"))
        if size != int(size):
            return None
        base = self._lookup(core, extras, laptop)
        ids = self._lookup(core, tuple(sorted({*extras, f"{int(size)}gb"})), laptop)
        if not ids or (base and ids[0] == base[0]):
            return None
        scan.take(m_start, m_end)
        return ids[0], start, end, size

    def _owned_weighed_against(self, mentions: list[Mention], low: str, words: Words) -> str | None:
        """The card the user owns, named first ("my RX 6700 XT", "I have a 1080") and not again, when two or more
        others are named to buy: the one to leave out of the comparison, else None."""
        first = mentions[0]
        if sum(m.gpu_id == first.gpu_id for m in mentions) > 1:
            return None
        if not _owned(low, first.start, self.vocab):
            return None
        buying = _BUY_VERB.search(low, first.end) or self.vocab.upgrade_words.find(words)
        return first.gpu_id if buying else None

    def _other_memory(
        self, scan: Scan, run: list[tuple[str, int, int]], end: int, laptop: bool
    ) -> tuple[str, int, int, float] | None:
        """ "A100 40GB or 80GB": a second memory size offered right after a card's names its other
        variant: (id, start, end, memory), or None."""
        found = _OR_MEMORY.match(scan.low, end)
        if not found or not scan.free(found.start("n"), found.end()):
            return None
        core, extras = self.index.keys([t for t, _, _ in run], self.vocab)[-1]
        size = f"{found.group('n')}gb"
        ids = self._lookup(core, tuple(sorted({*(e for e in extras if not e.endswith("gb")), size})), laptop)
        if not ids:
            return None
        scan.take(found.start("n"), found.end())
        return ids[0], found.start("n"), found.end(), float(found.group("n"))

    def _variant_typo(self, tok: str) -> bool:
        """A word one typo away from a variant or laptop word ("supr", "laptp", "xtxx"), not a plural of one."""
        if len(tok) < 3 or not tok.isalpha() or tok in self._typo_exact:
            return False
        return any(_one_typo(tok, word) for word in self._typo_targets)

    def _add_unknown(self, tokens: list[str], unknown: list[str]) -> None:
        text = " ".join(t for t in tokens if t not in self.vocab.gpu_noise) or tokens[0]
        if text not in unknown:
            unknown.append(text)

    def _nx_start(self, tok: str) -> bool:
        nx = _NX.match(tok)
        return nx is not None and nx.group(2) in self.index.starts

    def _match(
        self, run: list[tuple[str, int, int]], laptop: bool, scan: Scan
    ) -> tuple[int, tuple[str, int, int, float | None, bool, tuple[str, ...]]] | None:
        """The longest start of the run that names a card: (tokens used, (id, start, end, memory,
        guessed, the variants the name may mean))."""
        tokens = [t for t, _, _ in run]
        keys = self.index.keys(tokens, self.vocab)
        for length in range(len(keys), 0, -1):
            core, extras = keys[length - 1]
            ids = self._lookup(core, extras, laptop)
            if not ids:
                continue
            start, end = run[0][1], run[length - 1][2]
            if core.isdigit() and (self._money_context(scan, start, end) or _resolution(scan.low, start, end)):
                return None
            memory = next((float(t[:-2]) for t in tokens[:length] if t.endswith("gb") and t[:-2].isdigit()), None)
            variants = self.index.derived.get((core, extras), ids) if memory is None else ids
            return length, (ids[0], start, end, memory, len(ids) > 1, variants)
        return None

    def _unknown(
        self,
        run: list[tuple[str, int, int]],
        scan: Scan,
        laptop: bool,
        mentions: list[Mention],
        unknown: list[str],
        loose: list[Count],
    ) -> None:
        """A GPU-like name ("rtx 9090", "3090 super") that no catalog name matches: a careful fuzzy
        match (same numbers and variant words) or, failing that, an unknown name to ask about. A
        misspelt variant word ("7900 xtxx") is never guessed: it is asked about."""
        names = [t for t, _, _ in run if t not in self.vocab.gpu_noise] or [run[0][0]]
        digit_at = next((k for k, t in enumerate(names) if any(c.isdigit() for c in t)), None)
        if digit_at is None or digit_at > 1 or (digit_at == 1 and names[0] not in self.vocab.gpu_like):
            return
        if digit_at == 0 and not (len(names) > 1 and names[1] in _VARIANT) and names[0][:1].isdigit():
            return
        stop = digit_at + 1
        while stop < len(names) and names[stop] in _VARIANT:
            stop += 1
        if stop < len(names) and self._variant_typo(names[stop]):
            at = next(k for k, (t, _, _) in enumerate(run) if t == names[stop])
            scan.take(run[0][1], run[at][2])
            self._add_unknown(names[: stop + 1], unknown)
            count = count_before(scan, run[0][1], self.vocab)
            loose += [count] if count else []
            return
        kept_ends = [e for t, _, e in run if t not in self.vocab.gpu_noise]
        members = self._series(names[:stop], scan, kept_ends[stop - 1]) if stop <= len(kept_ends) else ()
        if members:
            # "Will the RX 7900 series be supported by ROCm?": the series' top card stands for it (they share
            # their architecture and software status), said as a guess with the others as options
            start, end = run[0][1], kept_ends[stop - 1]
            scan.take(start, end)
            mentions.append(Mention(members[0], start, end, None, True, None, members))
            return
        text = " ".join(names[:stop])
        gpu_id = self._resolve_fuzzy(text)
        if gpu_id is None and names[0] in _OTHER_LINE and digit_at == 1:
            # "GTX 2080", "RTX 1080 Ti": the number names the card, the line was mistyped
            gpu_id = self._resolve_fuzzy(" ".join([_OTHER_LINE[names[0]], *names[1:stop]]))
        if gpu_id:
            start, end = run[0][1], run[min(stop, len(run)) - 1][2]
            scan.take(start, end)
            mentions.append(Mention(gpu_id, start, end, None, True, count_before(scan, start, self.vocab)))
            return
        # Not a card we know ("RTX 5060", "GTX 1650", "Arc A770"): its number is a model number,
        # never an amount or a count, and a count written before it still counts ("2x RTX 5060").
        kept = 0
        for tok, _, e in run:
            kept += tok not in self.vocab.gpu_noise
            if kept == stop:
                count = count_before(scan, run[0][1], self.vocab)
                loose += [count] if count else []
                scan.take(run[0][1], e)
                break
        if text not in unknown:
            unknown.append(text)

    def _series(self, names: list[str], scan: Scan, end: int) -> tuple[str, ...]:
        """The desktop cards of a series named as one by a four-digit number ("RX 7900 series", "RX 9000 系列"),
        the top card first (most memory, then bandwidth, then power); none unless "series" follows and the
        name has a line word."""
        if len(names) != 2 or names[0] not in self.vocab.gpu_lines or not _SERIES.match(scan.low, end):
            return ()
        if not (len(names[1]) == 4 and names[1].isdigit()):
            return ()  # "the RTX 50 series" is a generation in general, not a card to read
        prefix = names[0] + names[1].rstrip("0")
        catalog = self.index.catalog
        found = {
            gpu_id
            for (core, extras), gpu_id in self.index.exact.items()
            if core.startswith(prefix)
            and core != prefix
            and catalog.get(gpu_id).platform == "desktop"
            and not catalog.get(gpu_id).modified
        }
        ranked = sorted(
            found, key=lambda g: (-catalog.get(g).memory_gb, -catalog.get(g).bandwidth_gbs, -catalog.get(g).tdp_w, g)
        )
        return tuple(ranked)

    # --- everything else ---------------------------------------------------------------------------

    def find_model(self, text: str, scan: Scan, words: Words) -> tuple[str | None, bool, bool]:
        """The first model name the catalog knows, else the first as typed ("Llama 3 8B", "mixtral 8x7b",
        "70B"); whether it is an LLM, and whether it has a size (which says how much memory it needs). A
        known model beats an earlier unknown name ("fine-tune Qwen2.5-0.5B with LLaMA-Factory")."""
        if not (self.vocab.model_families.could_match(words) or _SIZE_GATE.search(scan.low)):
            return None, False, False  # no family named and no size: most questions, one cheap check
        first: tuple[int, int, str, bool, bool] | None = None
        for m in self.vocab.models.finditer(scan.low):
            if not scan.free(m.start(), m.end()):
                continue
            if m.group("bare") and self.index.lookup((squash(m.group("bare")), ())):
                continue  # "910B" is Huawei's Ascend 910B (a catalog card), not a 910-billion-parameter model
            fam = m.group("fam")
            size = m.group("size") or m.group("psize")
            sized = fam is None or bool(size)
            is_llm = sized or squash(fam).rstrip("s") in self.vocab.model_llm_families
            name = text[m.start() : m.end()].strip()
            if fam is None and (named := self._family_after(text, scan, m.end())) is not None:
                # "the 5B and 2B CogVideoX-Fun models": the sizes come before the family they size
                fam_text, fam_llm = named
                name, is_llm = f"{fam_text} {m.group('bare')}", fam_llm
            elif fam is None and first is None and (run := _size_run(scan, m)) is not None:
                # "7B, 13B and 70B on a 3090?": every size, each answered (engine.canrun.several_sizes)
                sizes, end = run
                scan.take(m.start(), end)
                return SIZES_JOIN.join(sizes), True, True
            known = self._model_id(name)
            if known:
                scan.take(m.start(), m.end())
                return known, is_llm, sized  # the catalog's id, which a Query keeps as it is
            if first is None:
                if fam and size and len(name.encode()) > _MODEL_TEXT_BYTES:
                    # A long unknown name keeps what answers need: its family and size ("internlm 20b"),
                    # which a Query keeps whole and the can-run engine sizes from.
                    name = f"{text[m.start('fam') : m.end('fam')]} {size}"
                first = (m.start(), m.end(), name, is_llm, sized)
        if first is None:
            return None, False, False
        scan.take(first[0], first[1])
        return first[2], first[3], first[4]

    def _family_after(self, text: str, scan: Scan, end: int) -> tuple[str, bool] | None:
        """A family named without a size just after a bare size ("5B and 2B CogVideoX-Fun"): its name
        as typed and whether it is an LLM family; taken from the scan."""
        window = scan.low[end : end + _SIZE_TO_FAMILY]
        if not self.vocab.model_families.search(window):
            return None
        for m in self.vocab.models.finditer(scan.low, end, end + _SIZE_TO_FAMILY):
            fam = m.group("fam")
            if fam is None:
                continue  # another bare size ("5B and 2B …"): the family may follow it
            between = scan.low[end : m.start()]
            if not _SIZES_BETWEEN.fullmatch(between):
                return None  # "a 7B LLM or SDXL": other words between, so the size is not the family's
            if fam and not (m.group("size") or m.group("psize")) and scan.free(m.start(), m.end()):
                scan.take(m.start(), m.end())
                return text[m.start("fam") : m.end("fam")], squash(fam).rstrip("s") in self.vocab.model_llm_families
        return None

    def cues(self, words: Words) -> Cues:
        """Which kind cues the text has, and the first explain topic it names (strong cues first)."""
        kinds = Hits(self.vocab.kinds, words)
        strong = topic = None
        first = self.vocab.topic_any.find(words)
        if first:  # no topic phrase starts before the first of all of them
            strong = self.vocab.topic_strong.search(words.low, first.start())
            topic = strong or self.vocab.topic_weak.search(words.low, first.start())
        return Cues(kinds, topic.lastgroup if topic else None, strong is not None)

    def task(self, words: Words, model: str | None, model_llm: bool) -> tuple[str | None, bool]:
        """The domain, with a stage (pretrain, fine-tune, inference) making it an llm_* task when the
        question is about LLMs, NLP or nothing more specific. Priority settles several domains.
        The flag says the task comes from a stage word alone (see :meth:`parse`).

        A model the catalog knows says its own domain (SDXL is no LLM); an unknown one with a size
        ("CogVideoX 5B") is taken for an LLM unless the text names another domain ("video")."""
        domains = Hits(self.vocab.domains, words)
        stage = next((s for s in _STAGES if self.vocab.stages[s].find(words)), None)
        blocked = any(domains[d] for d in _BLOCKING_DOMAINS)
        kind = self._model_kind(model)
        llm_model = kind == "llm" if kind else model_llm and not blocked
        # vLLM, SGLang, TensorRT-LLM: an LLM's engines, unless another domain is named ("index-tts-vllm": speech)
        llm_named = domains["llm"] or (domains["llm_runtime"] and not blocked)
        if domains["kaggle"] and not (llm_model or llm_named):  # "LLaMA 7B on Kaggle's T4": the LLM's
            return "kaggle", False
        if llm_model or llm_named or (stage and domains["nlp"] and not blocked):
            if stage:
                return stage, False
            if self.vocab.llm_train.find(words):  # "train a 7B model": fine-tuning, unless from scratch
                return ("llm_pretrain" if self.vocab.from_scratch.find(words) else "llm_finetune"), False
            return "llm_inference", False
        # A stage word alone ("pretraining", "a startup doing inference") means LLMs, as most such
        # questions do — unless the text is about pictures or another domain (an image model is run
        # and tuned too).
        if stage and not blocked and not self.vocab.not_llm.find(words):
            return stage, True
        return next((d for d in self.vocab.domain_priority if domains[d]), None), False

    def vendor(self, words: Words, ids: list[str]) -> str | None:
        """The GPU vendor the user asks for or opts into ("on AMD GPUs", "A卡能跑吗", a follow-up "AMD",
        "Intel Arc"): AMD or Intel when named without NVIDIA, and no card of another vendor is named."""
        if not any(word in words.low for word in _VENDOR_GATE):
            return None  # most questions name neither: a substring test before any pattern runs
        said = {v for v, words_of in self.vocab.vendors.items() if words_of.find(words)}
        named = {self.index.catalog.gpus[i].vendor for i in ids}
        for vendor in ("amd", "intel"):
            if said - {vendor} or named - {vendor}:
                continue  # "AMD or NVIDIA?", "a 4090 or an AMD card": weighed, not chosen
            if vendor in said:
                return vendor
        # "which NVIDIA GPU for LLMs under $1,000?": asked for by name with no card named, NVIDIA only (it
        # leads anyway; this keeps a Radeon from leading where no NVIDIA card meets the memory floor)
        return "nvidia" if said == {"nvidia"} and not ids else None

    def mode(self, words: Words) -> str | None:
        """What a can-run question runs, where the text says it: the first mode named."""
        return _first_named(self.vocab.modes, self.vocab.mode_any, words)

    def precision(self, words: Words, mode: str | None, ran_out: bool = False) -> str | None:
        """The precision a can-run question runs the model at ("70B in 4-bit", "Q8", "fp16"), the first
        named — after running out of memory the last ("tried int8, still OOM; maybe int4?" asks about int4);
        for LoRA only an 8-bit base ("LoRA in 8bit", bitsandbytes' load_in_8bit), else none for a training
        mode, whose precisions are its own (QLoRA's 4-bit base, BF16 LoRA) — except BF16, which a card may lack
        ("V100能用bf16训练吗？": Volta has no BF16, and the answer says so)."""
        if mode == "qlora":
            return None
        named = _first_named(self.vocab.precisions, self.vocab.precision_any, words, last=ran_out)
        if mode in (None, "inference") or (mode == "lora" and named == "int8"):
            return named
        return named if named in _TRAINING_PRECISIONS else None

    def condition(self, words: Words) -> tuple[str | None, bool]:
        """new, used or None; (None, True) when both are said."""
        low = words.low
        used = False
        if self.vocab.conditions["used"].find(words):
            negated = [m.span() for m in self.vocab.negated_used.finditer(low)]
            used = any(
                not any(s <= m.start() < e for s, e in negated) for m in self.vocab.conditions["used"].finditer(low)
            )
        new = self.vocab.conditions["new"].find(words) is not None
        if used and new:
            return None, True
        return ("used" if used else "new" if new else None), False

    def budget(
        self, scan: Scan, words: Words, lang: str, default_currency: str, mentions: list[Mention] | None = None
    ) -> tuple[Money | None, list[Msg], bool, bool]:
        """The most the user will spend (the top of a range), with notes on amounts ignored, whether
        the currency was guessed, and whether the amount is per card. A total beats a per-card price;
        a named card's price ("a 3070M with 16GB for $290", "A770s are $230") is no budget."""
        notes: list[Msg] = []
        found: list[tuple[Money, bool, bool]] = []
        limit = self._max_budget
        hints: list[str] | None = None
        for amount in find_amounts(scan, self.vocab):
            if not amount.cued or (
                mentions and not amount.per_card and _card_price(scan.low, amount.start, amount.end, mentions)
            ):
                continue
            if _CLOUD_SPEND.match(scan.low, amount.end):
                # "$50K on AWS": what renting cost, no budget for a desktop
                notes.append(msg("parse.note.cloud_spend", amount=_amount(amount.value)))
                continue
            if hints is None:  # place words matter only once there is an amount
                hints = currency_hints(words, self.vocab)
            if amount.negative:
                notes.append(msg("parse.note.negative_budget", amount=_amount(amount.value)))
            elif amount.value <= 0:
                notes.append(msg("parse.note.zero_budget"))
            elif amount.value > limit:
                notes.append(msg("parse.note.implausible_budget", amount=_amount(amount.value)))
            elif not exchange_rates().supports(
                code := resolve_currency(amount.currency, hints, lang, default_currency, self.vocab)
            ):
                # "R$ 4000", "50000 rubles": a currency with no rate here is neither converted nor read as dollars
                notes.append(msg("parse.note.currency_no_rate", amount=_amount(amount.value), currency=code))
            else:
                guessed = amount.currency in (None, "$", "¥", "元") and not hints and lang == "en"
                money = Money(amount=amount.value, currency=code)
                if money.rounded().amount <= 0:  # "$0.001": less than the currency's smallest unit
                    notes.append(msg("parse.note.zero_budget"))
                    continue
                found.append((money, guessed, amount.per_card))
        if not found:
            return None, notes, False, False
        totals = [f for f in found if not f[2]] or found
        money, guessed, per_card = max(totals, key=lambda f: f[0].amount)
        return money, notes, guessed, per_card

    def monthly_spend(self, scan: Scan, words: Words, lang: str, default_currency: str) -> Money | None:
        """What the user spends renting a month ("I spend $300 a month on RunPod", "每个月在autodl上花2000块"), its
        characters taken (no budget), in the currency said or the text's; None when none is said."""
        found = take_monthly_spend(scan)
        if found is None:
            return None
        value, symbol = found
        said = self.vocab.money["prefix"].get(symbol) or self.vocab.money["suffix"].get(symbol) if symbol else None
        code = resolve_currency(said, currency_hints(words, self.vocab), lang, default_currency, self.vocab)
        return Money(amount=value, currency=code) if exchange_rates().supports(code) else None

    def per_card(self, budget: Money, count: int | None, notes: list[Msg]) -> Money | None:
        """A budget per card times the number of cards, with a note saying so."""
        if count is None:
            notes.append(msg("parse.note.per_card_no_count", amount=_amount(budget.amount), currency=budget.currency))
            return budget
        total = budget.amount * count
        if total > self._max_budget:
            notes.append(msg("parse.note.implausible_budget", amount=_amount(total)))
            return None
        notes.append(
            msg(
                "parse.note.per_card",
                amount=_amount(budget.amount),
                currency=budget.currency,
                count=count,
                total=_amount(total),
            )
        )
        return Money(amount=total, currency=budget.currency)

    def read(self, text: str, default_currency: str = "USD", standalone: bool = False) -> Reading:
        """Every pass but the kind's final decision: the fields the text states and the signals the
        kind and task classifier reads."""
        text, cut = clean(text)
        low = lower(text)
        if "100s" in text and len(low) == len(text):
            # "train it on V100s": a plural as written (a lower-case s), not the V100S, which NVIDIA writes in capitals
            for plural in _PLURAL_V100.finditer(text):
                low = low[: plural.end() - 1] + " " + low[plural.end() :]
        scan = Scan(low)
        words = Words(low)
        vocab = self.vocab
        lang = language(low, vocab, default_currency)
        if vocab.version_words.could_match(words):
            for m in vocab.versions.finditer(low):
                scan.take(m.start(), m.end())
        if vocab.ascend_words.could_match(words):
            for m in vocab.ascend_chips.finditer(low):
                if _ASCEND_BEFORE.search(low, max(0, m.start() - 8), m.start()) and self.index.catalog.resolve(
                    "ascend " + m.group()
                ):
                    continue  # "昇腾910", "Ascend 310P": a chip the catalog has, read by find_gpus
                scan.take(m.start(), m.end())
        for engine_name in _LLAMA_CPP.finditer(low) if "cpp" in low else ():
            scan.take(engine_name.start(), engine_name.end())  # "llama.cpp" is an engine, not a Llama model
        for tool in _LLAMA_FACTORY.finditer(low) if "factory" in low else ():
            scan.take(tool.start(), tool.end())  # "LLaMA-Factory" trains models; it is none itself
        capacity = take_oom_capacity(scan)  # a pasted out-of-memory message: the card's size, its usage taken
        model, model_llm, model_sized = self.find_model(text, scan, words)
        laptop = vocab.laptop.find(words) is not None and vocab.laptop_in_general.find(words) is None
        mentions, unknown, loose = self.find_gpus(scan, laptop)
        if mentions and vocab.not_had_words.find(words) is not None:  # most questions rule no card out
            mentions = [m for m in mentions if not _ruled_out(low, m.start, vocab)]
        counts = [m.count for m in mentions if m.count] + loose + generic_counts(scan, vocab)
        if len(mentions) > 1:
            mentions = _same_card(mentions, low)
        power_limit, psu = find_wattages(scan, vocab)
        hours, hours_guessed = find_hours(scan, vocab)
        take_percents(scan, vocab)
        kwh_price = take_kwh_price(scan)  # before the hourly price: "$0.30/kWh" is no GPU-hour
        hourly = take_hourly(scan)
        context = take_context(scan)
        # an Apple chip named bare ("M2 32GB", "32G的M1/M2") is a Mac as much as "Mac" or "M2 Max" is
        apple = vocab.apple.find(words) is not None or any(m.gpu_id.startswith("apple-") for m in mentions)
        # "my MacBook Pro i7 16GB": an Intel Mac — its RAM is no GPU's, and what it runs, it runs on the CPU
        intel_mac = apple and not mentions and _intel_named(low)
        apple = apple and not intel_mac
        memory, needs = find_memory(scan, vocab, unified=apple)
        notes_early: list[Msg] = []
        memory += [capacity] if capacity else []
        need = next((n for n in needs if _MEMORY_SAID <= n <= 4096), None)  # the first quoted ("最低24G…还需要110G")
        had = [f for f in memory if f not in needs]  # what the user has, where they say it
        if memory:
            # (a need quoted beside the card is no size of it: "needs 16GB; will my 4060 Ti do?")
            sizes = had if need is not None and mentions else memory
            mentions = [self._variant_by_memory(m, sizes) for m in mentions] if sizes else mentions
            mentions = [self._ti_by_memory(m, scan.low, notes_early) for m in mentions]
        if len(mentions) == 1 and _REQUIRED_CARD.search(low, max(0, mentions[0].start - 48), mentions[0].start):
            # "the docs mention a requirement for a 80G A100; can it run on a 24G card?": the card is what the project
            # asks, its memory the need, and the other size the user's — no card of theirs named
            card_gb = self.index.catalog.gpus[mentions[0].gpu_id].memory_gb
            others = [f for f in had if f != card_gb]
            if others:
                needs, need, had, memory, mentions = [*needs, card_gb], card_gb, others, others, []
        # Beside a rental price, a card's price is what buying costs ("rent an A100 at $1.80/h or buy a 4090 for
        # $2,500?"), and asked whether it is a good deal, the price weighed ("a 2080 Ti for 350 bucks, good
        # deal?"): kept as the budget, which those answers weigh
        cues = self.cues(words)  # read here: the cloud cue decides what is kept (one search, asked again below)
        kept = hourly or cues.kinds["cloud"] or self.vocab.worth_words.find(words)
        monthly_spend = self.monthly_spend(scan, words, lang, default_currency)  # before the budget: never one
        budget, notes, budget_guessed, budget_per_card = self.budget(
            scan, words, lang, default_currency, [] if kept else mentions
        )
        notes[:0] = notes_early
        if context is not None and not _CONTEXTS[0] <= context <= _CONTEXTS[1]:  # "10000000k context": said, not read
            key = "parse.note.context_ignored" if context > _CONTEXTS[1] else "parse.note.context_short"
            notes.append(msg(key, tokens=context))
        for mention in mentions:
            # "4090 Ti": a variant word after a card that has no such variant is said, not dropped silently
            after = _VARIANT_AFTER.match(scan.low, mention.end)
            name = self.index.catalog.get(mention.gpu_id).short_name
            if after and after.group(1) not in name.lower().split():
                notes.append(msg("parse.note.no_such_variant", typed=f"{name} {after.group(1).title()}", card=name))
            # "I have 99999 RTX 4090s": more cards than a question means, said, not read
            at = mention.start
            if mention.count is None and (huge := _HUGE_COUNT.search(scan.low, max(0, at - 16), at)):
                notes.append(msg("parse.note.huge_count", count=int(huge.group(1)), most=MAX_COUNT))
        num_gpus = _num_gpus(counts)
        if budget is not None and budget_per_card:
            budget = self.per_card(budget, num_gpus, notes)
        condition, condition_unsure = self.condition(words)
        short = not standalone and len(low) <= FOLLOW_UP_MAX
        opt_in = short and vocab.vendor_opt_in.find(words) is not None  # "AMD" after an answer: the vendor only
        if opt_in:
            cues = Cues(Hits(vocab.kinds, Words("")), None, False)
        follow_up = opt_in or (short and vocab.follow_up.find(words) is not None)

        about_gpus = vocab.domain_words.find(words) is not None
        task, task_from_stage = self.task(words, model, model_llm)
        mode = said_mode = self.mode(words)
        known = self._model_kind(model)
        if (
            mode is None
            and (known in _TRAINED_WHOLE if known else not model_llm and not (task or "").startswith("llm"))
            and vocab.llm_train.find(words)
        ):
            # "train YOLO on my 1060", "can a 3090 train HEDNet?", "fine-tune Qwen-VL": a CNN, an encoder, a
            # vision, speech or diffusion model the catalog knows, or a research model, is trained whole
            # unless LoRA is named (an LLM's "training" is left to can-run)
            mode = "full_finetune"
        elif (
            mode is None
            and not model_llm
            and not (task or "").startswith("llm")
            and vocab.realtime_words.find(words)
            and not vocab.llm_train.find(words)
        ):
            mode = "inference"  # "a GPU for 20 FPS with Deep-Live-Cam", "实时检测": running it, no LLM, not training
        fields: dict[str, Any] = {
            "task": task,
            "budget": budget,
            "hours_per_day": hours if hours is not None and 0 <= hours <= 24 else None,
            "num_gpus": num_gpus,
            "condition": condition,
            "cloud_interest": True if cues.kinds["cloud"] else None,
            "model": model,
            "workload": next((w for w, p in vocab.workloads.items() if p.find(words)), None),
            "organization": True if vocab.organization.find(words) else None,
            "power_limit_w": power_limit,
            "psu_w": psu,
            "context_tokens": context if context is None or _CONTEXTS[0] <= context <= _CONTEXTS[1] else None,
            "mode": mode,
            "cpu_only": True
            if not mentions
            and ((intel_mac and not cues.kinds["cloud"]) or vocab.cpu_only.find(words))
            and not _HAS_A_GPU.search(low)  # "only the CPU is used though I have a GPU installed": the GPU idles
            else None,
            "ran_out": True
            if capacity or ((oom := vocab.oom_words.find(words)) and not _supposed(low, oom.start(), vocab))
            else None,
            "cloud_usd_per_hour": hourly,
            "electricity_usd_per_kwh": _per_kwh_usd(kwh_price),
            "provider": _first_named(vocab.providers, vocab.provider_any, words),
            "offload": True if _OFFLOAD.search(low) else None,
            # "it requires 24GB: will it run in 16GB?", "README里写了要19g，我只有16g的v100": the need, weighed against
            # what the user has (another memory figure, or a card) — alone it is the memory asked for (min_memory_gb)
            "vram_need_gb": need if need is not None and (had or mentions) else None,
            "cloud_usd_per_month": _usd(monthly_spend) if monthly_spend is not None else None,
            # "train a 7B from scratch in a week": the time the run must fit in (a training run only: "buying in a week"
            # is no deadline for one)
            "deadline_hours": find_deadline(low, vocab)
            if mode in TRAINING_MODES or (task or "").endswith("pretrain")
            else None,
        }
        fields["precision"] = self.precision(words, mode, ran_out=bool(fields["ran_out"]))
        if fields["ran_out"] and fields["precision"] != self.precision(words, mode):
            # "fp16 ran out of memory; will 8-bit run?": the run that failed was at another precision — what is
            # asked is whether the proposed one fits, not why a run that fits failed
            fields["ran_out"] = None
        ids = list(dict.fromkeys(m.gpu_id for m in mentions))
        if apple:
            ids = list(dict.fromkeys(self._apple_tier(i, memory, "mac studio" in low) for i in ids))
            ids = list(dict.fromkeys(self._tier_as_named(ids)))
            chip_named = any(i.startswith("apple-") for i in ids)
            if not chip_named and memory and _apple_silicon_mac(low):
                # "Mac Studio 192G": a Mac named by its memory alone is the Apple chip sold with that much
                # (the newest one, said so, when several were), beside any other card named
                # "64GB or 128GB Mac for LLMs?": sizes offered as alternatives are as many Macs
                offered = memory[:3] if len(memory) > 1 and _ALTERNATIVES.search(low) else memory[:1]
                for size in offered:
                    mac = self._apple_by_memory(size, low)
                    if mac is None:
                        break
                    ids.append(mac[0])  # its memory is the Mac's, no need the user states; named cards first
                    memory = [m for m in memory if m != size]
                    name = self.index.catalog.gpus[mac[0]].short_name
                    notes.extend([msg("parse.note.mac_chip", name=name)] if mac[1] else [])
            elif (
                not chip_named
                and (at := low.find("mac studio")) >= 0
                and _apple_silicon_mac(low)
                and not _owned(low, at, self.vocab)
                and (not ids or _ALTERNATIVES.search(low) is not None)  # "a Mac Studio + DGX Spark" is one setup
            ):
                # "a Mac Studio or 2× 3090 for local LLMs?": no chip, no memory — the Mac Studios sold today, each at
                # its base memory, weighed with the rest, and said so ("my Mac Studio" is one of them: which, unsaid)
                lineup = self._mac_studio_lineup()
                ids.extend(lineup)
                names = tuple(self.index.catalog.gpus[g].short_name for g in lineup)
                notes.append(msg("parse.note.mac_studio", names=names))
        setups = [setup for gpu_id in ids for setup in _setups_of(gpu_id, mentions, low)]
        if len(ids) >= 3 and (owned := self._owned_weighed_against(mentions, low, words)) is not None:
            # "I had trouble with my RX 6700 XT: should I buy a Quadro M4000 or a GTX 1080?": the cards to buy are
            # weighed, not the one the user is replacing
            setups = [setup for setup in setups if setup[0] != owned]
        if len(setups) > MAX_GPUS:  # a Query holds four cards: keep the first four named, and say so
            notes.append(msg("parse.note.too_many_gpus", count=len(setups), kept=MAX_GPUS))
            setups = setups[:MAX_GPUS]
        ids = list(dict.fromkeys(gpu_id for gpu_id, _ in setups))
        if ids:
            fields["gpus"] = tuple(gpu_id for gpu_id, _ in setups)
            fields["gpu_counts"] = tuple(count for _, count in setups)
            if len(ids) == 1 and num_gpus and not any(m.count for m in mentions):
                fields["gpu_counts"] = (num_gpus,)  # "3090双卡", "a 4 GPU rig of 3090s": the one card named, that many
            elif len(ids) == 1 and not num_gpus and fields["gpu_counts"] == (1,) and vocab.add_another.find(words):
                # "I have a 3090 and want to add another: can they run 70B?": the setup asked about is two of it
                fields["gpu_counts"], fields["num_gpus"] = (2,), 2
        if not fields["cpu_only"]:
            fields["vendor"] = self.vendor(words, ids)
        named = len(mentions) + len(unknown)
        rule_kind = classify(cues, fields, ids, named, memory, model_llm, explicit_only=follow_up)
        if cut:
            notes.insert(0, msg("parse.note.truncated", limit=LIMIT))
        signals = self.signals(
            words,
            cues,
            fields,
            ids,
            unknown,
            memory,
            mentions,
            rule_kind,
            model_llm=model_llm,
            model_sized=model_sized,
            laptop=laptop,
            apple=apple,
            said_mode=said_mode,
            about_gpus=about_gpus,
        )
        uncertain = [
            name
            for name, flag in (
                ("budget", budget_guessed),
                ("gpus", any(m.guessed for m in mentions)),
                ("hours_per_day", hours_guessed),
                ("condition", condition_unsure),
            )
            if flag
        ]
        return Reading(
            low,
            lang,
            fields,
            rule_kind,
            signals,
            follow_up,
            model_sized,
            memory,
            mentions,
            cues.topic,
            tuple(uncertain),
            tuple(unknown),
            notes,
            task_from_stage,
            about_gpus,
            text,
            words,
            tuple(needs),
        )

    def signals(
        self,
        words: Words,
        cues: Cues,
        fields: dict[str, Any],
        ids: list[str],
        unknown: list[str],
        memory: list[float],
        mentions: list[Mention],
        rule_kind: str | None,
        *,
        model_llm: bool,
        model_sized: bool,
        laptop: bool,
        apple: bool,
        said_mode: str | None,
        about_gpus: bool | None = None,
    ) -> frozenset[str]:
        """What the rules found, as the names of the classifier's binary features (the mode only where
        the text names one: a mode inferred from "train" is no sign of the kind). ``about_gpus``: whether
        ``domain_words`` match, where the caller has already searched them."""
        k = cues.kinds
        out = {f"rule:{rule_kind or 'none'}", f"rule_task:{fields['task'] or 'none'}", f"gpus:{min(len(ids), 2)}"}
        out.update(f"cue:{name}" for name in _KIND_CUES if k[name])
        for name, flag in (
            ("unknown_gpu", unknown),
            ("model", fields["model"]),
            ("model_llm", model_llm),
            ("model_sized", model_sized),
            ("budget", fields["budget"]),
            ("memory", memory or any(m.memory for m in mentions)),
            ("count", fields["num_gpus"]),
            ("topic", cues.topic),
            ("topic_strong", cues.topic_strong),
            ("laptop", laptop),
            ("apple", apple),
            ("condition", fields["condition"]),
            ("hours", fields["hours_per_day"]),
        ):
            if flag:
                out.add(name)
        if _HARDWARE & out:  # a fit intent and words that weigh options matter only with a card or memory named
            if self.vocab.fit_intent.find(words):
                out.add("fit")
                if self.vocab.compare_strong.find(words):
                    out.add("compare_strong")
        elif rule_kind is None and (self.vocab.domain_words.find(words) if about_gpus is None else about_gpus):
            out.add("domain")  # about GPUs or models at all (see _relevant)
        if (
            len(ids) == 1
            and not fields["model"]
            and "memory" not in out
            and (
                self.vocab.support_words.find(words)
                or self.vocab.spec_words.find(words)
                or (  # a framework named about a card, and nothing else asked: no count, money, work or error
                    self.vocab.software_words.find(words)
                    and not (fields["num_gpus"] or fields["budget"] or fields["task"] or fields["mode"])
                    and not self.vocab.oom_words.find(words)
                )
            )
        ):
            out.add("support")  # what software runs on this card (see decide)
        if (
            len(ids) == 1
            and not unknown
            and not (fields["model"] and model_sized)
            and self.vocab.worth_words.find(words)
        ):
            out.add("worth")  # is this card a good buy (see decide)
        if (
            not ids
            and not fields["budget"]
            and fields["model"]
            and self._model_id(fields["model"])
            and self.vocab.requirement_words.find(words)
        ):
            out.add("requires")  # what a known model needs (see decide)
        if not fields["ran_out"] and self.vocab.trouble_words.find(words):
            # "is this normal?", "why so slow?": troubleshooting (see decide); "why do I run out of memory on
            # my 2070?" is no trouble of that kind: what the card holds answers it
            out.add("trouble")
        if cues.topic:
            out.add(f"topic:{cues.topic}")
        if len(ids) <= 1 and self.vocab.upgrade_words.find(words):
            out.add("upgrade")  # what to buy next, beside at most one card (see decide)
        if not ids and self.vocab.value_words.find(words):
            out.add("value")  # value for money asked of the market (see decide)
        if len(ids) >= 2 and self.vocab.together_words.find(words):
            out.add("together")  # two kinds of card used at once (see decide)
        if said_mode:
            out.add(f"mode:{said_mode}")
        return frozenset(out)

    def parse(self, text: str, default_currency: str = "USD", standalone: bool = False) -> ParseResult:
        reading = self.read(text, default_currency, standalone)
        fields = reading.fields
        kind, choices, task = self.decide(reading)
        topic = reading.topic
        several = (fields["num_gpus"] or 0) > 1 or "together" in reading.signals
        if kind == "explain" and topic is None and (several or _pools(reading, self.vocab)):
            topic = "multi_gpu"  # "4 T4s train slower than one, why?", "显存能合并吗": the guide on several GPUs
        elif (
            kind == "explain"
            and topic is None
            and (reading.mentions or reading.memory or _apple_silicon_mac(reading.low))
        ):
            # "why does my 1070 Ti 8G run out of memory?", "GPU training for FooTTS on Macs, when?": no concept of the
            # guide named, a card or a Mac is — what it runs answers it (an explanation without a topic would be the
            # default one)
            kind, choices = "can_run", ()
        project = project_name(reading, self.vocab.not_projects) if kind == "can_run" and not fields["model"] else None
        if (
            kind == "can_run"
            and not reading.mentions
            and (fields["model"] or project)
            and _GPU_NEEDED.search(reading.low)
        ):
            # "do I need a GPU for Llama 3 8B?", "cosyvoice…是需要gpu吗": how it runs without one leads (engine.canrun's
            # CPU answer, with the cheapest card that holds it beside)
            fields["cpu_only"] = True
        if task is not _RULES:
            fields["task"] = task
        elif (
            kind == "can_run"
            and reading.task_from_stage
            and fields["task"] != "llm_pretrain"
            and (fields["model"] or project or fields["task"] != "llm_finetune" or not reading.mentions)
        ):
            # "X inference needs how much VRAM?": a question about one model that is no LLM we know;
            # the stage word says nothing of its domain. (Shopping for "inference" means LLMs.)
            fields["task"] = None
        elif (
            kind in ("compare", "info", "other")
            and reading.task_from_stage
            and fields["task"] == "llm_inference"
            and not fields["model"]
            and project_name(reading, self.vocab.not_projects)
        ):
            # "IndexTTS推理在4090D上比L20快": cards weighed for running a named project, no LLM we know — the
            # stage word makes it inference, not an LLM's decode (16-bit inference is the yardstick)
            fields["task"] = None
        if kind:
            fields["kind"] = kind
        if kind != "can_run" and not reading.model_sized:
            # A model named in passing ("Whisper transcription: 3060 or 4060?") is the work, not the subject:
            # run (no training said), it is weighed by what running it takes — decode for an LLM, 16-bit
            # inference for the rest; so is a card's speed on a spec card ("12 min per HunyuanVideo clip
            # on an H100, normal?").
            trains = fields["mode"] in TRAINING_MODES or (fields["task"] or "").endswith(("finetune", "pretrain"))
            run = self._model_kind(fields["model"]) if fields["model"] and not trains else None
            if run and not fields["workload"] and kind in ("compare", "recommend", "info", "other"):
                fields["workload"] = "decode" if run == "llm" else "infer16"
            # …except "which GPU for FLUX.1 dev?" with no card or budget: an image model's memory at each precision
            # is the answer (the cheapest card that holds it at each), which the advisor gives from the model
            keeps = kind == "recommend" and run == "diffusion" and not fields.get("gpus") and not fields["budget"]
            # …and "the cheapest way to run DeepSeek R1?": an LLM the catalog knows by that name has one size, which
            # decides the cards as a size typed out would ("…Llama 3 70B?" keeps its model above)
            keeps = keeps or (kind == "recommend" and run == "llm" and fields["model"] in load_model_catalog().models)
            # …and a model the catalog cannot size ("搭建一台服务器跑MOSS"): kept for the answer to say so
            keeps = keeps or (
                kind == "recommend"
                and bool(fields["model"])
                and run is None
                and not trains
                and not load_model_catalog().family(fields["model"])  # "llama 3": a line of sizes, no model to buy for
            )
            if not keeps:
                fields["model"] = None
        if (
            kind == "can_run"
            and fields["model"] == "sd-1.5"
            and fields.get("gpus")
            and fields["mode"] in (None, "inference")
            and not _SD_VERSION.search(reading.low)
            and any(self.index.catalog.gpus[g].memory_gb >= _SD_SMALL_CARD_GB for g in fields["gpus"])
        ):
            # "Is the 5060 Ti 16GB good for Stable Diffusion?": the name without a version is image generation in
            # general, answered with what the card generates (SD 1.5 to FLUX), not SD 1.5's 4 GB alone; on a small
            # card ("SD on my GTX 1650?") whether SD itself runs is the question, which the web UI's README answers
            fields["model"] = None
        if project:
            # "How much VRAM does SadTalker need?": the project asked about, which the answer names
            # (it has no figures for it) instead of asking "which model?"; "LoRA" with it says nothing of
            # its domain ("a LoRA with VideoX-Fun on a V100?" is no LLM fine-tune)
            fields["model"] = project
        on_colab = kind == "can_run" and not fields.get("gpus") and not reading.memory  # no card of the user's own
        colab = on_colab and _free_colab(reading)
        paid_colab = on_colab and not colab and _paid_colab(reading)
        if colab:
            # "Can I run SD.Next on free Colab?": the free tier's GPU is a T4 (16 GB), said in a note
            fields["gpus"], fields["gpu_counts"] = (FREE_COLAB_GPU,), (1,)
        elif paid_colab:
            # "Can I fine-tune GPT-J in Colab Pro?": each GPU the paid tiers offer, answered side by side
            fields["gpus"], fields["gpu_counts"] = PAID_COLAB_GPUS, (1,) * len(PAID_COLAB_GPUS)
        mac_sizes = (
            kind == "can_run"
            and not fields.get("gpus")
            and not reading.memory
            and not fields["cpu_only"]
            and _apple_silicon_mac(reading.low)
        )
        if mac_sizes:
            # "Can my MacBook run Llama 3 8B?": a Mac with no chip or memory said is answered for Macs of three
            # memory sizes, not with a list of NVIDIA cards to buy; the note asks for theirs ("my Mac Studio": the
            # Mac Studios sold today, which have no 16 GB one)
            macs = tuple(self._mac_studio_lineup()) if "mac studio" in reading.low else MAC_SIZES
            fields["gpus"], fields["gpu_counts"] = macs, (1,) * len(macs)
        # "best laptop for deep learning under $2,000": a laptop is sold whole, so its GPU has no price to rank by
        # value; what a buyer chooses between is the newest laptop GPUs by memory, weighed side by side
        wants_laptop = kind == "recommend" and "laptop" in reading.signals and not fields.get("gpus")
        laptop_tiers = self._laptop_tiers() if wants_laptop else ()
        if laptop_tiers:  # (none in a catalog without GeForce laptop parts)
            fields["gpus"], fields["gpu_counts"] = laptop_tiers, (1,) * len(laptop_tiers)
        fields["min_memory_gb"] = _min_memory(_had(reading.memory, reading.needs), reading.mentions, kind)
        # "SDXL LoRA is extremely slow on my 4090, why?": the spec card gives the card's speed; what else makes a
        # run slow comes with it
        slow = kind in ("other", None) and _too_slow(reading.low)  # read once, for both uses below
        slow_run = slow and kind == "other" and len(reading.mentions) == 1
        slower = kind == "other" and _slower_of_two(reading)  # two cards weighed for a run's speed (decide's reading)
        if (
            kind in ("other", None)
            and (not reading.mentions or slower)
            and not fields["workload"]
            and (slow or slower or (_HOW_LONG.search(reading.low) and _TIME_SPENT.search(reading.low)))
        ):
            # "an epoch takes 10 minutes, why so slow?" with no card named: a question of speed for the work — the
            # answer says what sets it, and asks for the card
            trains = fields["mode"] in TRAINING_MODES or (fields["task"] or "").endswith(("finetune", "pretrain"))
            if fields["task"] == "llm_inference" and not trains:
                fields["workload"] = "decode"  # "Qwen 7B outputs 1 token/s": an LLM answering, bound by bandwidth
            elif reading.mentions and not trains and fields["precision"] == "int8":
                fields["workload"] = "infer8"  # "int8 on my 9060 XT slower than a 7900 XT": two cards' 8-bit inference
            elif reading.mentions and not trains and fields["task"] == "image_generation":
                fields["workload"] = "infer16"  # "my 4060 generates slower than a 3060": making images is running
            else:
                runs = fields["mode"] == "inference" or (not trains and _RUNS.search(reading.low))
                fields["workload"] = "infer16" if runs else "train16"
        if kind == "recommend" and _upgrades_own(reading, self.vocab):
            fields["objective"] = "upgrade"  # a step up from the user's own card, not a verdict on it
        elif kind == "recommend":  # "a budget GPU for learning", "the most powerful card under $2,000"
            said = next((o for o, p in self.vocab.objectives.items() if reading.has(p)), None)
            if said is not None and not (said == "entry" and fields["budget"]):
                fields["objective"] = _OBJECTIVE.get(said, said)
            elif (
                said is None
                and not fields["budget"]
                and not fields.get("gpus")
                and _BEST_GPU.search(reading.low)
                and not reading.has(self.vocab.value_words)  # "best value", "性价比最高": the default, per dollar
            ):
                # "the best GPU for deep learning?", no budget: the strongest on sale leads, the best value beside it
                fields["objective"] = "fastest"
        elif kind == "can_run" and reading.has(self.vocab.objectives["cheapest"]):
            # "the minimum GPU to fine-tune LLaMA, must it be an A100?", "最低配置": the least that does it, said
            # beside a named card's verdict (engine.canrun)
            fields["objective"] = "cheapest"
        if kind in ("explain", "power") and topic:
            fields["topic"] = topic
        if (
            kind in ("explain", "info", "can_run", "compare", "other", None)
            # (a topic asked about outranks a library named in passing — but "can I use an AMD GPU with Ollama?" asks
            # what the library runs on: its own support list answers that)
            and not (kind == "explain" and topic and topic != "amd")
            and (library := _library(reading.low))
            and not (
                fields["model"]
                and (
                    self._model_id(fields["model"])
                    or load_model_catalog().family(fields["model"])
                    or reading.model_sized
                )
            )
        ):
            # "FlashAttention on my V100?", "vLLM支持P40吗": the library asked about, carried as the model (a project
            # we have no figures for gives way: "EasyR1 on a V100? error: FlashAttention needs Ampere"; a family we know
            # does not: "how does Mixtral fit a 3090 in Ollama?" asks about Mixtral); the library
            # alone ("flash-attn?") asks what it needs of a GPU
            fields["model"] = library
            fields["kind"] = kind or "explain"
            if fields.get("topic") == "amd":
                fields["topic"] = None
        killed = _killed(reading.low)
        if fields.get("ran_out") and killed:
            # "被kill了，是显存不够吗？": the machine's RAM ran out (the note says so), not the card's
            fields["ran_out"] = None
        query = Query(**{k: v for k, v in fields.items() if v is not None})
        missing = () if reading.follow_up else _missing(query)
        if choices:
            missing = ("kind", *missing)
        future = [name for name in reading.unknown if self._not_out_yet(name)]
        return ParseResult(
            query=query,
            language=reading.language,
            missing=missing,
            kind_choices=choices,
            uncertain=reading.uncertain,
            unknown_gpus=tuple(name for name in reading.unknown if name not in future),
            notes=(
                *reading.notes,
                *((msg("parse.note.mac_sizes"),) if mac_sizes else ()),
                *(_mac_egpu(reading, fields.get("gpus") or ())),
                *((msg("parse.note.free_colab", source=FREE_COLAB_SOURCE),) if colab else ()),
                *((msg("parse.note.paid_colab", source=FREE_COLAB_SOURCE),) if paid_colab else ()),
                *((msg("parse.note.slow_run", source=SYSMEM_FALLBACK_SOURCE),) if slow_run else ()),
                *killed,
                *((msg("parse.note.reserved", **RESERVED_SOURCES),) if _reserved(reading, kind) else ()),
                *((msg("parse.note.one_gpu", source=DEVICES_SOURCE),) if _one_gpu_used(reading, kind) else ()),
                *(
                    (msg("parse.note.first_card", source=DATA_PARALLEL_SOURCE),)
                    if _first_card_fills(reading, kind)
                    else ()
                ),
                *(
                    (msg("parse.note.cpu_fallback", source=PYTORCH_INSTALL_SOURCE),)
                    if self._cpu_fallback(reading, kind)
                    else ()
                ),
                *((msg("parse.note.nvlink"),) if kind != "explain" and reading.topic == "nvlink" else ()),
                *((msg("parse.note.pc_npu", **PC_NPU_SOURCES),) if _pc_npu(reading) else ()),
                *self._added_to_own(reading, kind),
                *((self._laptop_note(laptop_tiers),) if laptop_tiers else ()),
                *self._unpriced_provider(reading, kind),
                *(msg("parse.note.not_out_yet", name=name.upper().replace(" TI", " Ti")) for name in future),
            ),
        )

    def _added_to_own(self, reading: Reading, kind: str | None) -> tuple[Msg, ...]:
        """ "I have a 3090: add another 3090 or a 4090?": the card added works beside the user's own — data-parallel
        training runs at the slower card's pace and an LLM split by layers gains memory, not speed (the guide: mixed
        GPU types work, the slowest sets the pace) — so a second card of the kind they own does the same work, which
        the comparison of the two candidates alone does not say."""
        mentions = reading.mentions
        if kind not in ("compare", "recommend") or len(mentions) < 3 or not reading.has(self.vocab.add_another):
            return ()
        own = mentions[0].gpu_id
        others = list(dict.fromkeys(m.gpu_id for m in mentions[1:]))
        if len(others) != 2 or own not in others or not _owned(reading.low, mentions[0].start, self.vocab):
            return ()
        gpus = self.index.catalog.gpus
        other = next(g for g in others if g != own)
        # memory bandwidth orders them as the guide's speed model does (the parser computes no speeds)
        key = "parse.note.add_to_own" + (".slower" if gpus[other].bandwidth_gbs < gpus[own].bandwidth_gbs else "")
        return (msg(key, own=gpus[own].short_name, other=gpus[other].short_name),)

    def _cpu_fallback(self, reading: Reading, kind: str | None) -> bool:
        """ "My 3060 isn't used, it runs on the CPU", "1660 Ti … 但是切到cpu去了": a desktop or server NVIDIA card (or
        none named) that a program does not use — most often a CPU-only PyTorch build, which the note says how to
        replace. Not for AMD, Intel or Apple (other builds) nor a Jetson (JetPack's own wheels)."""
        if kind not in ("can_run", "explain", "other", "info", None):
            return False
        if not _gated(reading.low, _CPU_FALLBACK_KEYS, _CPU_FALLBACK) or _NOT_PYTORCH.search(reading.low):
            return False
        cards = [self.index.catalog.gpus[m.gpu_id] for m in reading.mentions]
        # (a card today's PyTorch no longer runs has its own answer: the spec card says which build last did)
        return all(
            g.vendor == "nvidia" and g.software.jetpack is None and g.software.pytorch != "dropped" for g in cards
        )

    def _unpriced_provider(self, reading: Reading, kind: str | None) -> tuple[Msg, ...]:
        """ "autodl租4090多少钱": a rental provider whose prices are not on file, said above the catalogue's
        dated offers instead of answering as if they were its."""
        if kind != "cloud_vs_buy":
            return ()
        named = next((name for name, phrases in self.vocab.unpriced_providers.items() if reading.has(phrases)), None)
        return (msg("parse.note.provider_unpriced", provider=named),) if named else ()

    def _laptop_tiers(self) -> tuple[str, ...]:
        """The newest GeForce series' laptop GPUs, the fastest at each memory size (by bandwidth, then Tensor
        Core throughput), most memory first: at most four, the setups a comparison weighs."""
        if self._laptops is None:
            catalog = self.index.catalog
            series = [
                (int(m.group(1)), gpu)
                for gpu in catalog.gpus.values()
                if gpu.platform == "laptop" and (m := _GEFORCE_ID.match(gpu.id))
            ]
            newest = max((n for n, _ in series), default=0)
            best: dict[float, Gpu] = {}
            for n, gpu in series:
                held = best.get(gpu.memory_gb)
                if n == newest and (held is None or _laptop_speed(gpu) > _laptop_speed(held)):
                    best[gpu.memory_gb] = gpu
            self._laptops = tuple(best[gb].id for gb in sorted(best, reverse=True)[:4])
        return self._laptops

    def _laptop_note(self, tiers: tuple[str, ...]) -> Msg:
        """Why a laptop question is answered with laptop GPUs side by side and no price: what to check in a
        laptop instead, with the largest tier's power limit as the example."""
        top = self.index.catalog.get(tiers[0])
        return msg("parse.note.laptop_tiers", gpu=top.short_name, watts=top.tdp_w)

    def _not_out_yet(self, name: str) -> bool:
        """ "RTX 6090" while the newest GeForce series is the 50: a card not released, which no "did
        you mean RTX 3090?" answers."""
        m = _GEFORCE_NUMBER.fullmatch(name)
        if m is None:
            return False
        if self._newest_series is None:
            series = [int(g.group(1)) for i in self.index.catalog.gpus if (g := _GEFORCE_ID.match(i))]
            self._newest_series = max(series, default=0)
        return int(m.group(1)) > self._newest_series

    def decide(self, reading: Reading, model: Classifier | None = None) -> tuple[str | None, tuple[str, ...], Any]:
        """(kind, the likeliest kinds when unsure, task) for a question the passes have read.

        A follow-up, or text about no GPU or model at all, keeps the rules' kind and task. Otherwise
        the classifier decides, and one rule outranks it: a card or memory size named with a fit
        intent ("is a 16GB 4060 Ti enough?", "would a 4070 or a 7800 XT work?") asks whether it runs,
        unless the question is about power or the cloud or weighs the cards against each other. When
        the classifier is unsure of the kind, its likeliest kinds come back so the bot can ask."""
        model = model or self.classifier
        s = reading.signals
        if model is None or reading.follow_up:
            return reading.rule_kind, (), _RULES
        if (
            reading.fields["cpu_only"]
            and reading.has(self.vocab.fit_intent)
            and (reading.fields["model"] or project_name(reading, self.vocab.not_projects))
        ):
            return "can_run", (), _RULES  # "能跑BarVoice吗？只有核显": whether it runs on the CPU
        if not _relevant(reading):
            return None, (), _RULES
        if (
            "memory" in s
            and not {"gpus:1", "gpus:2", "model", "budget"} & s
            and not reading.fields["ran_out"]
            and _CHEAPEST_MEMORY.search(reading.low)
        ):
            return "recommend", (), _RULES  # "the cheapest way to get 48GB of VRAM?": the market, from that much up
        if (
            "gpus:0" in s
            and _GPU_NEEDED.search(reading.low)
            and (reading.fields["model"] or project_name(reading, self.vocab.not_projects))
        ):
            return "can_run", (), _RULES  # "cosyvoice合成很慢，是需要gpu吗": what the model or project takes
        if (
            reading.fields["cpu_only"]
            and "gpus:0" in s
            and not {"budget", "cue:recommend", "upgrade"} & s
            and reading.topic != "amd"  # "不支持A卡吗？只能CPU跑？": what runs on AMD, the guide on ROCm
        ):
            return "can_run", (), _RULES  # "no NVIDIA GPU, only Iris Xe graphics: can I use it?": what runs without one
        fits = "fit" in s and bool(_HARDWARE & s) and not _NOT_FIT & s and "trouble" not in s
        kinds = model.quick(s)  # the signals alone settle most questions; the n-grams the rest
        task: Any = _RULES
        # The full model when the quick one is unsure: read here where it may fill in the task, else only
        # where the rules below leave the kind to it (most questions that need it; ≈6 % of them return first)
        unsure = not fits and kinds.confidence < QUICK_CONFIDENCE
        if unsure and reading.fields["task"] is None:
            unsure = False
            predicted = model.predict(reading.low, s)
            kinds, tasks = predicted["kind"], predicted["task"]
            # The task's domain is what the text names (the rules); the full model, which reads the
            # words, fills it in only where they find none and it is sure of the kind and the task
            # (guesses from project names often fail).
            if kinds.confidence >= KIND_CONFIDENCE and tasks.best != NONE and tasks.confidence >= TASK_CONFIDENCE:
                task = tasks.best
        if "gpus:1" in s and "model" not in s and not _NOT_FIT & s and _WHICH_MODEL.search(reading.low):
            return "can_run", (), task  # "best model for my 3090?", "我的4090适合跑什么模型": what the card runs
        if "gpus:0" in s and not {"model", "memory"} & s and not _NOT_FIT & s and _BEST_GPU.search(reading.low):
            return "recommend", (), task  # "fastest GPU for deep learning?", "最好的深度学习显卡是哪张？": the market
        if _asks_maintainers(reading.low) and not _NOT_FIT & s:
            # "Do you plan to support the 1080 in FlashAttention?", "什么时候支持昇腾？": a request to a project's
            # maintainers, which we are not; what runs on the card today (its spec card), or the guide on that
            # vendor
            return ("info" if reading.mentions else "explain"), (), task
        if "support" in s and not _NOT_FIT & s:
            if reading.has(self.vocab.software_words) or (
                project_name(reading, self.vocab.not_projects) is None
                and (reading.fields["task"] is None or _library(reading.low))
            ):
                return "info", (), task  # "is the 5090 supported by PyTorch?": its software status
            # "is the 5090 supported by starVLA?", "想用MTT S80跑本地大模型，支持吗？": whether that project, or LLMs,
            # run on it
            return "can_run", (), task
        if (
            {"gpus:1", "model"} <= s
            and reading.has(self.vocab.support_words)
            and not reading.has(self.vocab.software_words)
        ):
            return "can_run", (), task  # "does VoxCPM support the 5060 Ti?": whether that model runs on it
        if (
            "gpus:2" in s
            and not {"compare_strong", "trouble"} & s
            and (asked := _SUPPORT_ASK.search(reading.low))
            and (
                name := _library(reading.low)  # a library is software itself: "a ROCm driver" beside it is no matter
                or (None if reading.has(self.vocab.software_words) else project_name(reading, self.vocab.not_projects))
            )
            and -1 < reading.low.find(name.lower()) < asked.start() + 8
        ):
            # "Dasheng-LM 适配昇腾910B2和910B4吗", "does FooNet support the 3090 and the 4090?", "does Ollama support
            # the RX580 or RX480?": the project or library asked about comes first; whether it runs on each card
            return "can_run", (), task
        if reading.fields["power_limit_w"] and _HARDWARE & s:  # "cap my 4090 at 320W?": the guide on power
            return "power", (), task
        if (
            {"budget", "gpus:0"} <= s
            and not {"model", "count"} & s
            and not _NOT_FIT & s
            and reading.rule_kind == "recommend"
        ):
            return "recommend", (), task  # "our lab, under €3000, to train LLMs": what the money buys
        if reading.fields["cloud_usd_per_hour"]:  # "H100 at $2.50/h or buy a 4090?": a price per hour rents
            return "cloud_vs_buy", (), task
        if "cue:cloud" in s and _RUN_COST.search(reading.low):
            # "what does a LoRA of Llama 3 8B cost on a rented A100?", "在云上微调要花多少钱": what renting it costs
            return "cloud_vs_buy", (), task
        if (
            _free_colab(reading) or (_paid_colab(reading) and not reading.mentions and not _COSTS.search(reading.low))
        ) and (
            reading.fields["model"]
            or reading.has(self.vocab.fit_intent)
            or project_name(reading, self.vocab.not_projects)
        ):
            # "能用免费Colab训练DH_live吗", "Can Colab Pro run HunyuanVideo?": whether it runs on the tier's GPUs
            return "can_run", (), task
        if reading.fields["psu_w"] and _HARDWARE & s and not reading.fields["model"]:  # "850W能带两张3090吗"
            return "power", (), task
        if _slower_of_two(reading):
            # "Why is the same code on Kaggle's P100 faster than on my 3090?", "5080比4090慢3-4倍": what the guide's
            # model expects of the two, and what else sets the pace (engine.advisor._slower_than_expected)
            return "other", (), task
        if (
            _too_slow(reading.low)
            and len(reading.mentions) <= 1  # the card's spec card answers; with none, what sets a run's speed
            and (reading.fields["num_gpus"] or 1) == 1
            and not {"cue:power", "cue:cloud"} & s  # "an epoch takes 40 min and the CPU sits at 85 °C"
        ):
            # "12 minutes per HunyuanVideo clip on an H100, normal?", "SDXL LoRA is extremely slow on my 4090, why?",
            # "为什么跑个视频要1个小时？": how fast the card is, and what else sets the time
            return "other", (), task
        # every slower_than_one pattern holds one of these words
        slower = any(word in reading.low for word in ("slower", "慢", "快", "faster", "提升", "提高", "same speed"))
        if slower and (reading.fields["num_gpus"] or 0) > 1 and reading.has(self.vocab.slower_than_one):
            return "explain", (), task  # "双卡比单卡还慢？": the guide on several GPUs (parse sets the topic)
        if "together" in s and not reading.fields["model"] and not _NOT_FIT & {"cue:power", "cue:cloud"} & s:
            return "explain", (), task  # "will a 4090 and a 3090 work together?": the guide on several GPUs
        split_llm = (reading.fields["num_gpus"] or 0) > 1 and self._model_kind(reading.fields["model"]) in ("llm", None)
        if _pools(reading, self.vocab) and (not reading.fields["model"] or split_llm):
            # "显存能叠加吗？": per GPU, never pooled (parse sets the topic); with a model on several cards
            # ("两块4090的显存能否合并使用？加载Vicuna-13B…"), whether it splits over them
            # (engine.advisor._split_model); an image model is never split ("两张3090能训练SDXL吗，显存能加起来吗":
            # can-run says each card holds it)
            return "explain", (), task
        if (
            "gpus:0" in s
            and (reading.fields["num_gpus"] or 0) > 1
            and not reading.fields["model"]
            and not {"budget", "cue:cloud"} & s
            and _FASTER_WITH_MORE.search(reading.low)
            and _WHETHER.search(reading.low)
            and not _WHICH_TO_BUY.search(reading.low)
            and not reading.memory  # "4 GPUs with 11 GB: necessary, or for speed? Would 24 GB do?": a fit asked
        ):
            # "使用双卡是否可以加速？", "will 2 GPUs make inference faster?": the guide on several GPUs, no card named
            return "explain", (), task
        if (
            "gpus:1" in s
            and not reading.fields["model"]
            and reading.has(self.vocab.add_another)
            and _FASTER_WITH_MORE.search(reading.low)
        ):
            # "I have a 1080 Ti: would another card make training faster?", "再加一张4090速度能翻倍吗": the guide on
            # several GPUs (training scales, one user's LLM does not), not a ranking of pairs to buy
            return "explain", (), task
        if {"topic:next_generation", "topic_strong"} <= s:  # "buy a 5090 now or wait?": the guide on waiting
            return "explain", (), task
        if {"topic:cpu", "topic_strong"} <= s:  # "will my Ryzen 5 5600 bottleneck a 3090?": the guide on CPUs
            return "explain", (), task
        if {"topic:memory_estimate", "topic_strong"} <= s:
            # "how do I estimate the VRAM training needs?": the explanation; for a sized model, its own figures
            return ("can_run" if "model_sized" in s else "explain"), (), task
        if "worth" in s and not _NOT_FIT & s and not _WORTH_TOPICS & s:  # "4090 值得买吗": is that card a good buy
            return "recommend", (), task
        if {"gpus:0", "value"} <= s and "memory" not in s and not _NOT_FIT & s:
            return "recommend", (), task  # "用什么显卡跑SD性价比最高？": the market ranked per dollar
        if (
            {"gpus:0", "topic:amd"} <= s
            and not {"model", "memory", "cue:recommend"} & s
            and project_name(reading, self.vocab.not_projects) is None
        ):
            return "explain", (), task  # "A卡能跑深度学习吗？", "can Radeon GPUs do ML?": the guide on AMD
        if "upgrade" in s and not fits and not _NOT_FIT & s:
            return "recommend", (), task  # "I have a 3060, what should I upgrade to?": what to buy next
        names_a_card = "gpu" in reading.low or "card" in reading.low or "卡" in reading.low  # as each pattern does
        if "gpus:0" in s and "memory" not in s and names_a_card and reading.has(self.vocab.which_gpu_suits):
            return "recommend", (), task  # "什么显卡适合跑SD？", "which GPU is best for YOLO?": a card to buy, ranked
        if {"gpus:2", "cue:compare"} <= s and "trouble" not in s and _WHICH_BETTER.search(reading.low):
            return "compare", (), task  # "a 4090 or 4× 4060 Ti 16GB: which is better for LoRA?": weigh them
        if "gpus:2" in s and "trouble" not in s and _HOW_MUCH_FASTER.search(reading.low):
            # "how much speed will be improved by changing from a T4 cloud server to a 3090?": the two weighed
            return "compare", (), task
        if "requires" in s and (
            not _NOT_FIT & s or (_NOT_FIT & s == {"cue:cloud"} and _MEMORY_ASKED.search(reading.low))
        ):
            # "what GPU do I need for Whisper?": the model's need; "how much VRAM to finetune SDXL? I only have AWS
            # G5s": the memory asked, whatever is rented
            return "can_run", (), task
        if fits:
            return "can_run", (), task
        if unsure:
            kinds = model.predict(reading.low, s)["kind"]
        if kinds.best == "other" and _HARDWARE_ASKED.search(reading.low):
            # "what PC configuration for Deep-Live-Cam at 15-20 fps?", "the cheapest computer for Fooocus?": hardware
            # to get, which the guide answers — not a question outside it
            return "recommend", (), task
        if kinds.confidence >= KIND_CONFIDENCE:
            return kinds.best, (), task
        choices = tuple(k for k, p in kinds.ranked() if p >= CHOICE_FLOOR)[:3]
        return kinds.best, choices if len(choices) > 1 else (), task


# The cheapest card or way to a memory size ("cheapest GPU with 48GB", "最便宜的24G显卡"): a purchase, not a fit
_CHEAPEST_MEMORY = quick(
    re.compile(
        r"\bcheapest\s+(?:way|gpus?|cards?|options?|setups?|graphics\s+cards?)\b"
        r"|最便宜的[^，。？?]{0,8}(?:显卡|顯卡|卡|gpu|方案|办法|辦法)"
    )
)
# The memory a model needs asked for in so many words ("how much VRAM…", "需要多少显存"): a can-run question even where
# a cloud is named beside it
_MEMORY_ASKED = quick(
    re.compile(r"\bhow\s+much\s+(?:vram|gpu\s+memory|video\s+memory)|多少(?:显存|顯存)|(?:显存|顯存)(?:需要|要)多少")
)
# Two cards weighed by the user ("would X or Y be better?", "哪个更适合"): a comparison, whatever topic word is
# beside it ("… will its memory bandwidth be a bottleneck?")
_WHICH_BETTER = quick(
    re.compile(
        r"\b(?:better|faster|worth more)\b|\bwhich\s+(?:one|is|would|should)\b"
        r"|哪个好|哪個好|哪个更|哪個更|更好|更快|更适合|更適合|更划算|更劃算"
    )
)
# Whether a GPU is needed at all ("do I need a GPU for X?", "是需要gpu吗", "跑X需要显卡吗")
_GPU_NEEDED = quick(
    re.compile(
        r"\bneed\s+(?:a|an)\s+(?:nvidia\s+)?(?:gpu|graphics\s+card)\b|\b(?:gpu|graphics\s+card)\s+(?:absolutely\s+)?"
        r"(?:necessary|required|needed)\b|需要(?:gpu|显卡|顯卡|独显|獨顯)吗|需要(?:gpu|显卡|顯卡)嗎|要(?:gpu|显卡|顯卡)吗"
    )
)
# which cards to get ("best 2 gpus for faster training", "推荐哪两张卡"): a recommendation, not the guide on GPUs
_WHICH_TO_BUY = re.compile(r"\b(?:best|which|recommend\w*)\b|推荐|推薦|哪(?:张|張|个|個|款|块|塊|种|種|一)")
# A yes/no asked ("是否可以", "能不能", "will it", "would it", "does it")
_WHETHER = quick(
    re.compile(r"是否|能否|能不能|可不可以|可以吗|可以嗎|会不会|會不會|\b(?:will|would|does|do|can|could)\b")
)
# Speed asked of a card added to one's own ("will it be faster", "would it benefit", "速度能翻倍吗")
_FASTER_WITH_MORE = quick(
    re.compile(r"\bfaster\b|\bspeed|\bfps\b|\bbenefit|\bincrease|\bimprove|速度|更快|翻倍|提升|加速|快多少")
)
# How much faster one card is than another ("how much speed will be improved by changing from T4 to 3090",
# "换成4090能快多少")
_HOW_MUCH_FASTER = quick(
    re.compile(
        r"\bhow\s+much\s+(?:faster|quicker|speed|speedup)\b|\bhow\s+much\s+\w+\s+(?:faster|quicker)\b|快多少|提升多少|提速多少"
    )
)
# A question whether a project supports cards ("Dasheng-LM 适配昇腾910B2和910B4吗", "does FooNet support the 3090
# and the 4090?"), not a report that mentions support
_SUPPORT_ASK = quick(
    re.compile(
        r"(?:适配|適配|支持|支援)[^，。,.]{0,30}[吗嗎？?]"
        r"|\b(?:does|will|can)\s+[\w.-]+\s+(?:support|work\s+with|run\s+on)\b"
    )
)
# A request to a project's maintainers for a card's support ("any plans to support the Arc A770?", "will you support
# Blackwell?", "能增加对A770的支持吗", "何时支持昇腾"): not whether it runs today
_ASKS_MAINTAINERS = quick(
    re.compile(
        r"\bplan(?:s|ning)?\s+(?:on\s+|to\s+)?(?:add\w*\s+|provid\w*\s+)?support|\bany\s+plans?\b|\bwill\s+you\s+support"
        r"|\bhow\s+soon\b|\bconsidering\s+(?:add\w*\s+)?support|\bcould\s+you\s+(?:adapt|add\s+support)|\bplease\s+add\b"
        r"|\bis\s+(?:this|it|that)\s+on\s+the\s+way|\bwill\s+(?:it|they|this)\s+be\s+supported"
        r"|\bwhen\s+will\s+(?:[\w.-]+\s+){1,3}(?:support|be\s+supported|work\s+on)\b"
        r"|增加对|增加對|(?:适配|適配|支持)的?(?:计划|計劃|进度|進度)|什么时候(?:能)?(?:支持|适配)|什麼時候(?:能)?(?:支援|適配)"
        r"|何时(?:支持|适配)|何時(?:支援|適配)|会不会支持|會不會支援|有没有(?:计划|打算)|有沒有(?:計劃|打算)"
        r"|考虑(?:适配|支持|兼容)|考慮(?:適配|支援|相容)|\bany\s+chance\s+(?:of|to|for)\s+(?:add|support)"
    )
)
# Literals one of which every _ASKS_MAINTAINERS match holds (see _gated)
_MAINTAINER_KEYS = (
    "plan",
    "support",
    "soon",
    "consider",
    "could you",
    "please add",
    "on the way",
    "when will",
    "any chance",
    "增加",
    "计划",
    "計劃",
    "进度",
    "進度",
    "什么时候",
    "什麼時候",
    "何时",
    "何時",
    "会不会",
    "會不會",
    "有没有",
    "有沒有",
    "考虑",
    "考慮",
)


def _killed(low: str) -> tuple[Msg, ...]:
    """ "程序在加载模型中被kill了，是因为显存不够吗？", "the process gets Killed while loading": no CUDA error but the
    operating system's OOM killer — the machine's RAM ran out, most often as the weights pass through it on loading;
    under WSL 2 the VM has half the host's RAM by default. (A CUDA out-of-memory error is the card's memory instead.)"""
    if "kill" not in low or not _KILLED.search(low) or _CUDA_OOM.search(low):
        return ()
    wsl = msg("parse.note.killed_ram.wsl", source=WSL_MEMORY_SOURCE) if "wsl" in low else ""
    return (msg("parse.note.killed_ram", source=BIG_MODEL_LOADING_SOURCE, wsl=wsl),)


# "Killed", "被kill了", "gets killed": a process ended by the system, not by an error of its own
_KILLED = re.compile(r"\bkilled\b|被\s*kill|\bkill(?:ed)?\s*(?:了|掉)|\bgets?\s+killed\b")
# the card's own memory error, which a "killed" beside it does not override
_CUDA_OOM = re.compile(r"cuda\s+out\s+of\s+memory|outofmemoryerror|cuda\s+error:\s+out\s+of\s+memory")


def _gated(low: str, keys: tuple[str, ...], pattern: Searcher) -> bool:
    """Whether ``pattern`` matches, searched only when one of ``keys`` (literals every match holds) is in the text:
    most questions skip the pattern on a few substring tests."""
    return any(k in low for k in keys) and pattern.search(low) is not None


def _asks_maintainers(low: str) -> bool:
    """A request to a project's maintainers for a card's support."""
    return _gated(low, _MAINTAINER_KEYS, _ASKS_MAINTAINERS)


# A Stable Diffusion version said ("SD 1.5", "stable diffusion v1.5", "sd15"): the model itself, not image generation
_SD_VERSION = re.compile(r"1\.5|v1\b|sd[\s-]?15\b|sd[\s-]?1\b")
# Running, not training: "inference", "generate", "推理", "生成", fps
_RUNS = quick(re.compile(r"\binfer|\bgenerat|\bfps\b|推理|生成|识别|識別"))
# Which model to run on a card ("best model for my 3090?", "what LLMs can I run", "适合跑什么模型"): what it runs
_WHICH_MODEL = quick(
    re.compile(
        r"\b(?:best|which|what|good|largest|biggest)\s+(?:\w+\s+){0,2}(?:models?|llms?)\b"
        r"|(?:跑|运行|運行|部署|用)[^，。？?]{0,6}(?:什么|什麼|哪个|哪個|哪些|什么样的|哪种|哪種|多大的?)(?:大)?模型"
        r"|(?:什么|什麼|哪个|哪個|哪些|多大的?)(?:大)?模型[^，。？?]{0,4}(?:能跑|可以跑|跑得动|跑得動|合适|合適|适合|適合)"
    )
)
_OBJECTIVE = {"entry": "cheapest"}  # the objective each word list means, where its name is not one

_LLAMA_CPP = re.compile(r"(?<![a-z0-9_-])llama[\s._-]?cpp(?![a-z0-9])")
_LLAMA_FACTORY = re.compile(r"(?<![a-z0-9_-])llama[\s._-]?factory(?![a-z0-9])")
# Libraries whose requirements the engine knows (engine/libraries.py), the most specific first: a FlashAttention
# error inside a vLLM question is what stops the card.
_LIBRARY_PATTERNS = (  # (engine.libraries' id, how the text names it)
    ("flash_attention", re.compile(r"flash[\s_-]?(?:attn|attention)|(?<![a-z0-9_-])fa[23](?![a-z0-9_-])")),
    # no \b: "vLLM支持P40吗" runs into the Chinese; a project named after it ("index-tts-vllm") is no library
    ("vllm", re.compile(r"(?<![a-z0-9_-])vllm(?![a-z0-9_-])")),
    ("ollama", re.compile(r"(?<![a-z0-9_-])ollama(?![a-z0-9_-])")),
    # "llama.cpp", "llama-cpp-python": the engine, never the Llama family ("your llama.cpp fork on my MI50?")
    ("llama_cpp", _LLAMA_CPP),
    ("tensorrt_llm", re.compile(r"(?<![a-z0-9_-])(?:tensorrt|trt)[\s_-]?llm(?![a-z0-9_-])")),
    ("lmdeploy", re.compile(r"(?<![a-z0-9_-])lm[\s_-]?deploy(?![a-z0-9_-])")),
    ("bitsandbytes", re.compile(r"(?<![a-z0-9_-])(?:bitsandbytes|bnb)(?![a-z0-9_-])")),
)
_LIBRARIES = tuple((name, quick(pattern)) for name, pattern in _LIBRARY_PATTERNS)
# All of them as one alternation: a text none of them matches (most questions) is settled by one search
_ANY_LIBRARY = quick(re.compile("|".join(f"(?:{pattern.pattern})" for _, pattern in _LIBRARY_PATTERNS)))


def _library(low: str) -> str | None:
    """The library the text names, as a query carries it (its `short` in data/libraries.yaml), the first of
    _LIBRARIES that matches."""
    if _ANY_LIBRARY.search(low) is None:
        return None
    return next((libraries()[name].short for name, pattern in _LIBRARIES if pattern.search(low)), None)


# "Is it normal?" about the time a run takes ("要12分钟，正常么？", "88 hours for a LoRA, is this normal?"): a
# question of the card's speed, not whether the work fits — unless memory is the trouble ("显存不够，这正常吗？")
_IS_IT_NORMAL = re.compile(
    r"正常[吗么嗎]|是否正常|正常现象|正常現象|正常的[吗嗎]|合理[吗么嗎]|\bis\s+(?:that|this|it)\s+(?:normal|expected)\b|\bnormal\?"
)
_TIME_TAKEN = re.compile(
    r"\d\s*(?:个|個)?\s*(?:小时|小時|分钟|分鐘|秒)|\d\s*(?:hours?|hrs?|minutes?|mins?|seconds?|secs?)\b"
    r"|\bs/it\b|\bit/s\b|\bfps\b|tokens?/s|\bper epoch\b|速度"
)
# "Why so slow?", "how can I speed it up?" ("有点慢，有什么好方法加速吗"): a run's speed questioned
# the GPU barely used ("GPU utilization is 0%", "gpu_load很低", "GPU占用非常低"): the run waits on something else —
# a complaint about speed whether or not "why" follows ("显存占满但利用率很低")
_LOW_UTILISATION = re.compile(
    r"(?:utili[sz]ation|gpu[\s_-]?(?:load|usage|util)|利用率|占用率|使用率|使用效率|利用效率|gpu占用|gpu使用)[^，。,.;；]{0,8}"
    r"(?:低|不高|[为為是]\s*0(?![0-9.])|\b0\s*%|\blow\b|\bzero\b)"
    r"|gpu\s*(?:没有|沒有|没|沒)跑满|gpu\s*(?:跑不满|跑不滿)|(?:没有|沒有|没|沒)(?:跑满|跑滿)"
    # the run on the CPU though a GPU is there ("only CPU is used though I have GPU installed", "没有用到gpu")
    r"|\bonly\s+(?:the\s+)?cpu\s+is\s+(?:being\s+)?used|\b(?:gpu|graphics\s+card)\s+(?:is\s+)?not\s+(?:being\s+)?used"
    r"|(?:没有|沒有|没|沒)(?:用到|用上|调用|調用)\s*(?:gpu|显卡|顯卡)|只用了\s*cpu"
)
# "I only get around 3t/s", "only 2 it/s": a rate said as too little is a slow run, no "slow" needed
_ONLY_RATE = (
    r"\bonly\s+(?:gets?\s+|getting\s+|got\s+|see\s+|have\s+|runs?\s+at\s+)?(?:around\s+|about\s+|~\s*)?"
    r"\d[\d.]*\s*(?:tokens?|tok|t|it|fps)\b"
)
_SLOW = re.compile(
    r"\b(?:slow|slower|slowly)\b|\b(?:too|so|very)\s+long\b|慢|太久|很久|好久|速度提不上|提高速度|提升速度|更快一点|更快一點|"
    + _ONLY_RATE
    + "|"
    + _LOW_UTILISATION.pattern
)
_HOW_LONG = quick(re.compile(r"\bhow\s+long\b|多久|多长时间|多長時間"))
_WHY_OR_FIX = quick(
    re.compile(
        r"\bwhy\b|\bhow\s+(?:can|do|could|should)\s+i\s+(?:make\s+it\s+faster|speed)|\bspeed\s+(?:it\s+)?up\b"
        r"|\baccelerat|\bwhat\s+(?:is\s+)?the\s+(?:reason|cause)|\bwhat\s+(?:am\s+i|did\s+i)\s+do(?:ing)?\s+wrong"
        r"|为什么|為什麼|为啥|為啥|什么原因|什麼原因|加速|提速"
        r"|怎么办|怎麼辦|怎么解决|怎麼解決|如何解决|如何解決|如何提高|怎么提高|怎樣提高|怎样提高|如何提升|怎么提升|还能更快|還能更快"
    )
)
# A time spent, said with a number ("1个小时", "a day for 8 epochs", "11 hours per epoch"): no speed word alone
_TIME_SPENT = re.compile(
    r"\d\s*(?:个|個)?\s*(?:小时|小時|分钟|分鐘|天)|[一两二三四五六七八九十几幾半]\s*(?:个|個)?\s*(?:小时|小時|天)"
    r"|\d\s*(?:hours?|hrs?|minutes?|mins?|days?)\b|\b(?:a|one|two|three)\s+(?:hours?|days?)\b"
)
_WHY = re.compile(r"\bwhy\b|为什么|為什麼|为啥|為啥")
# a rate a run goes at: "1 token/s", "1汉字/s", "2 s/it", "3 it/s", "每秒1个字"
_RATE = re.compile(
    r"\d\s*(?:tokens?|tok|t|字|汉字|漢字|it|frames?|images?)\s*/\s*(?:s|sec|秒)(?![a-z])|\d\s*s\s*/\s*it\b|每秒\s*\d"
)
# hardware asked for beside a slow run ("10 min per epoch is far too slow: the recommended specs?"): what to get
_WHAT_TO_GET = re.compile(r"\brecommend|\bspecs?\b|\bupgrade|推荐|推薦|升级|升級")
_SPEED_CUE = quick(re.compile("|".join(p.pattern for p in (_SLOW, _IS_IT_NORMAL, _WHY))), most=100)  # any of the three
_MEMORY_TROUBLE = quick(
    re.compile(
        r"不够|不夠|不足|显存[^，。？?]{0,4}占用|顯存[^，。？?]{0,4}佔用|占用[^，。？?]{0,4}显存|佔用[^，。？?]{0,4}顯存"
        r"|\boom\b|out of memory|\benough\b"
        r"|显存[^，。？?]{0,6}(?:多少|应)|多大的?显存|多少显存"
    )
)


# a run's speed weighed between two cards ("slower than", "5 times faster", "比…慢", "慢了一倍")
_SLOWER_FASTER = quick(re.compile(r"\b(?:slower|faster)\b|慢|快"))


def _slower_of_two(reading: Reading) -> bool:
    """Whether the question asks why one named card runs slower than another ("why is the P100 on Kaggle faster than
    my 3090?", "GTX1650Ti上推理比RTX2060慢5倍，还有哪些原因？"): two cards, speed weighed, a why — not which to buy."""
    low = reading.low
    cards = {m.gpu_id for m in reading.mentions}
    return (
        len(cards) == 2
        and _SLOWER_FASTER.search(low) is not None
        and _COMPARED.search(low) is not None
        and (_WHY.search(low) is not None or _WHAT_WRONG.search(low) is not None or _RUN_READ.search(low) is not None)
        and not _WHICH_TO_BUY.search(low)
    )


# a run's own reading reported ("5080要10秒（占用率24%）", "GPU utilization 30%"): a run's speed, not a question of
# which card is faster
_RUN_READ = re.compile(
    r"(?:占用率|利用率|使用率|utili[sz]ation|gpu\s+usage)\s*[:：]?\s*(?:只有|仅|僅|only)?\s*\d{1,2}\s*%"
)


# what went wrong asked ("哪里有问题", "what am I doing wrong", "还有哪些会导致", "正常吗")
_WHAT_WRONG = re.compile(
    r"\bwhat\s+(?:am\s+i|did\s+i)\s+do(?:ing)?\s+wrong|\bmissing\s+something|哪里有问题|哪裡有問題|什么问题|什麼問題"
    r"|哪些(?:会|會)?导致|哪些(?:会|會)?導致|原因|正常吗|正常嗎"
)


def _too_slow(low: str) -> bool:
    """Whether the question is about a run's speed, not whether it fits: "is N hours normal?", "why so slow?",
    "how do I speed it up?", "为什么要1个小时？" — unless memory is the trouble ("显存不够，这正常吗？")."""
    if not _SPEED_CUE.search(low):  # one search settles most questions: no "slow", "normal?" or "why" at all
        return False
    timed = (_IS_IT_NORMAL.search(low) and (_TIME_TAKEN.search(low) or _TIME_SPENT.search(low))) or (
        _WHY.search(low) and _TIME_SPENT.search(low)
    )
    idle = _LOW_UTILISATION.search(low)
    # "训练极其慢，30分钟训练1000iter": slow with the time it took is the same complaint as "why so slow?"
    slow = (
        _SLOW.search(low)
        and (
            _WHY_OR_FIX.search(low)
            or _HOW_LONG.search(low)
            # the time it took or the rate it runs at, unless hardware is asked for ("too slow: the recommended specs?")
            or ((_TIME_SPENT.search(low) or _RATE.search(low)) and not _WHAT_TO_GET.search(low))
        )
    ) or idle
    # memory full with the GPU barely used ("显存占用着，但使用效率低") is still a speed question: the run waits on data
    memory_only = _MEMORY_TROUBLE.search(low) and not idle
    return bool(timed or slow) and not memory_only and not _COMPARED.search(low)


# Two things weighed against each other ("slower than my 3090", "比3090慢"): a comparison, not one run's speed
_COMPARED = quick(re.compile(r"\bthan\b|比(?![较較])|不如|\bvs\.?\b|\bversus\b"))
_CLAUSE_BREAK = re.compile(r"[.!?;,。！？；，\n]")


def _supposed(low: str, start: int, vocab: Vocab) -> bool:
    """Whether the words at ``start`` are supposed, not reported: "if I run out of memory", "如果显存不够"
    (a conditional earlier in the same clause)."""
    left = low[max(0, start - 24) : start]
    breaks = list(_CLAUSE_BREAK.finditer(left))
    clause = left[breaks[-1].end() :] if breaks else left
    return vocab.conditional_words.search(clause) is not None


_EGPU = quick(
    re.compile(r"\begpus?\b|external\s+gpu|外接显卡|外接顯卡|外置显卡|外置顯卡|显卡坞|顯卡塢|显卡扩展坞|顯卡擴展塢")
)


def _mac_egpu(reading: Reading, gpus: tuple[str, ...]) -> tuple[Msg, ...]:
    """ "Can I use an eGPU with my MacBook for CUDA?": an Apple silicon Mac takes no NVIDIA card (the can-run note
    with both named says so too; here no NVIDIA card is named), said beside whatever the Mac itself runs."""
    if not _EGPU.search(reading.low):  # rare: most questions stop here
        return ()
    mac = _apple_silicon_mac(reading.low) or any(g.startswith("apple-") for g in gpus)
    if not mac or any(not g.startswith("apple-") for g in gpus):
        return ()
    return (msg("parse.note.mac_egpu", source=EGPU_SOURCE),)


# Colab's free tier: a T4 (16 GB), as Chris McCormick's table of Colab GPUs (updated March 2026) says: "The T4 is
# still free".
FREE_COLAB_GPU = "t4"
FREE_COLAB_SOURCE = "https://mccormickml.com/2024/04/23/colab-gpus-features-and-pricing"
# Colab's paid tiers (Pro, Pro+, pay as you go) choose among more GPUs, by the same table: the T4, the L4 (24 GB),
# the A100 (40 GB SXM4) and, added by 2026, the H100 (80 GB) — each answered as a setup of its own
PAID_COLAB_GPUS = ("t4", "l4", "a100-40gb-sxm", "h100-sxm")
_PAID_COLAB = re.compile(
    r"colab\s*(?:pro(?![a-z])|付费|付費|会员|會員)|(?:pay[- ]as[- ]you[- ]go|付费|付費)[^?!。？！]{0,12}colab"
)
# A PC's NPU ("intel ultra芯片的npu", "the NPU on my Ryzen AI laptop", "Copilot+ PC NPU"): its maker or a laptop named
# within a clause of "NPU" (a Huawei Ascend is an NPU of its own, with its own answers). Where its vendors say what
# runs on it: OpenVINO's NPU device (Intel), Ryzen AI Software (AMD), Windows ML's execution providers (Qualcomm).
_PC_NPU_MAKER = (
    r"intel|英特尔|英特爾|ultra|酷睿|ai ?pc|ryzen ?ai|xdna|snapdragon|骁龙|驍龍|hexagon|copilot"
    r"|laptop|notebook|笔记本|筆記本|筆電"
)
_NPU_WORD = r"(?<![a-z])npus?(?![a-z])"
_PC_NPU = re.compile(
    rf"(?:{_PC_NPU_MAKER})[^.?!。？！]{{0,40}}{_NPU_WORD}|{_NPU_WORD}[^.?!。？！]{{0,40}}(?:{_PC_NPU_MAKER})"
)
_ASCEND = re.compile(r"ascend|昇腾|昇騰|华为|華為|huawei|910|310")
PC_NPU_SOURCES = {
    "intel": "https://docs.openvino.ai/2026/openvino-workflow/running-inference/inference-devices-and-modes/npu-device.html",
    "amd": "https://ryzenai.docs.amd.com/en/latest/",
    "qualcomm": "https://learn.microsoft.com/en-us/windows/ai/new-windows-ml/supported-execution-providers",
}


def _pc_npu(reading: Reading) -> bool:
    """ "Can LLaMA-Factory use the NPU of an Intel Ultra laptop?": a PC's NPU, which runs converted models' inference
    through its vendor's runtime and no PyTorch training or CUDA project — said first, whatever else is answered."""
    return "npu" in reading.low and bool(_PC_NPU.search(reading.low)) and not _ASCEND.search(reading.low)


_FREE_COLAB = re.compile(r"(?:free|免费|免費)[^?!。？！]{0,24}colab|colab[^?!。？！]{0,16}(?:free|免费|免費)")


# Memory seen taken ("占用了近50gb的显存", "每张都会各占20g", "93% of the VRAM occupied", "both GPUs are fully
# occupied", "vLLM grabs all my VRAM"): what a tool reserved, which is not what the model needs
_RESERVED = re.compile(
    r"(?:占用了?|占了|各占|佔用了?|佔了|各佔|吃了|吃掉)(?:近|将近|將近|接近|大约|大約|约|約)?[0-9]+(?:\.[0-9]+)?\s?(?:g|gb|gib|%)"
    r"|(?:显存|顯存)[^，。？?]{0,4}(?:占满|吃满|全占|佔滿|被占满|被佔滿)|(?:占满|佔滿)了?(?:显存|顯存)"
    r"|\b(?:fully|completely|all)\s+(?:occupied|reserved|allocated|used\s+up)"
    r"|[0-9]{2,3}\s?%\s+of\s+(?:the\s+|my\s+)?(?:vram|gpu\s+memory|memory)\s+(?:is\s+|was\s+)?(?:occupied|used|reserved|allocated|taken)"
    r"|\b(?:grabs?|hogs?|reserves?|occupies|pre-?allocates?)\s+(?:almost\s+|nearly\s+)?(?:all|most|[0-9]{2,3}\s?%)"
)


_RESERVED_KEYS = ("占", "佔", "吃", "occup", "reserv", "allocat", "used up", "grab", "hog", "%")


def _reserved(reading: Reading, kind: str | None) -> bool:
    """Memory seen taken, in a question about running something (not a budget or a power question)."""
    return kind in ("can_run", "explain", "other", "info", None) and _gated(reading.low, _RESERVED_KEYS, _RESERVED)


# The first card fuller than the rest: said in English or Chinese (gated by _FIRST_CARD_KEYS)
_FIRST_CARD_FILLS = re.compile(
    r"\b(?:first|1st|main)\s+(?:gpu|card)\b[^.?!\n]{0,40}(?:out\s+of\s+memory|\boom\b|more\s+(?:vram|memory)|fills?\s+up|is\s+full)"
    r"|\b(?:gpu|cuda):?\s?0\b[^.?!\n]{0,30}(?:out\s+of\s+memory|\boom\b|more\s+(?:vram|memory))"
    r"|(?:第一张|第一張|第一块|第一塊|0号|0號)(?:卡|显卡|顯卡|gpu)?[^。？?\n]{0,20}(?:占用|佔用|多占|多佔|显存不足|顯存不足|爆显存|爆顯存|oom|更多|很多|偏大|较大|較大)"
)
_FIRST_CARD_KEYS = ("first", "1st", "main", "gpu0", "gpu 0", "gpu:0", "cuda0", "cuda:0", "cuda 0", "第一", "0号", "0號")

# One of several GPUs used, or which one ("only the first GPU is used", "use both GPUs", "只使用了第一张显卡",
# "另一张3090没有被调用", "用哪一张GPU"): how a program is given GPUs. ("只有一张4090" is a card owned, not used.)
_ONE_GPU_USED = quick(
    re.compile(
        r"\bonly\s+(?:the\s+)?(?:one|first|1|a\s+single)\s+(?:gpu|card)\s+(?:is|was|gets?|being)\s+(?:used|utili[sz]ed|busy)"
        r"|\bonly\s+(?:uses?|using|runs?\s+on)\s+(?:the\s+)?(?:one|first|1|a\s+single)\s+(?:gpu|card)"
        r"|\b(?:use|using|utili[sz]e)\s+(?:both|all)\s+(?:(?:of\s+)?(?:the|my)\s+)?(?:gpus|cards)"
        r"|\bwhich\s+gpu\s+(?:it\s+)?(?:uses|to\s+use)|\bselect\s+(?:a|the|which)\s+gpu"
        r"|只(?:用了?|使用了?|在|调用了?|調用了?)(?:第一张|一张|单卡|單卡|一張|第一張)"
        r"|只有(?:第一张|一张|第一張|一張)(?:卡|显卡|顯卡)?(?:被)?(?:占用|使用|调用|佔用|調用)"
        r"|(?:另一张|另一張|第二张|第二張)[^，。？?]{0,16}(?:没有?被?(?:调用|使用|用到|用上)|沒有?被?(?:調用|使用|用到)|不变|不變|闲置|閒置)"
        r"|用哪一?(?:张|張)|指定(?:用)?(?:哪)?(?:一?(?:张|張))?(?:显卡|顯卡|gpu)"
        r"|(?:(?:卡|gpu)[^，。,.]{0,4}都|两张|兩張|全部)(?:都)?(?:被|能)?(?:使用|用上|用起来|用起來|利用)"
    ),
    most=100,
)


_ONE_GPU_KEYS = (
    "only",
    "both",
    "all",
    "which gpu",
    "select",
    "只",
    "另一",
    "第二",
    "哪",
    "指定",
    "都",
    "两张",
    "兩張",
    "全部",
)


# A program on the CPU instead of the GPU ("runs on the CPU instead", "not using my GPU", "torch.cuda.is_available()
# returns False", "切到cpu去了", "没有调用显卡", "检测不到显卡")
_CPU_FALLBACK = re.compile(  # asked only where a key word is (_gated)
    r"\b(?:runs?|running|ran|falls?\s+back|fell\s+back|switch(?:es|ed)?|goes|went|uses?|using)\s+(?:on\s+|to\s+)?"
    r"(?:the\s+|my\s+)?cpu\s+(?:instead|rather)"
    r"|\b(?:only\s+(?:uses?|using|runs?\s+on)\s+(?:the\s+|my\s+)?cpu)\b"
    r"|\b(?:doesn'?t|does\s+not|won'?t|isn'?t|is\s+not|not|never)\s+(?:use|using|used|detect|detected|see|seeing|find|"
    r"recogni[sz]e)\s+(?:the\s+|my\s+)?(?:gpu|graphics\s+card|nvidia\s+(?:gpu|card))"
    r"|\bcuda\s+(?:is\s+)?not\s+available|is_available\(\)\s*(?:returns?|is|gives|=+)\s*false"
    r"|\bgpu\s+(?:is\s+)?not\s+(?:detected|used|being\s+used|found|recogni[sz]ed)"
    r"|(?:切到|切换到|切換到|跑在|用的是|只用|只能用|走的是|调用的是|使用的是|都在|默认只能|默認只能|默认用|默認用)了?\s*cpu"
    r"|(?:没有|沒有|没|沒|未|不)(?:被)?(?:调用|調用|使用|用上|用到|识别|識別|检测到|檢測到)(?:到)?(?:显卡|顯卡|gpu)"
    r"|(?:检测|檢測|识别|識別)不到(?:显卡|顯卡|gpu)"
)
# (every match holds one of these: "cpu", a negation or is_available — "gpu" alone is in most questions)
_CPU_FALLBACK_KEYS = ("cpu", "not", "n't", "never", "doesnt", "wont", "isnt", "is_available", "不", "没", "沒", "未")
# …where PyTorch is not what runs: llama.cpp's builds (Ollama, LM Studio, KoboldCpp) and JetPack's on a Jetson
_NOT_PYTORCH = re.compile(r"ollama|llama\.?cpp|lm\s?studio|koboldcpp|gguf|jetson|orin|xavier")


def _one_gpu_used(reading: Reading, kind: str | None) -> bool:
    """Several GPUs, and a question of which one a program uses (not a budget, power or cloud question)."""
    kinds = ("can_run", "explain", "other", "info", "compare", None)
    return kind in kinds and _gated(reading.low, _ONE_GPU_KEYS, _ONE_GPU_USED)


def _first_card_fills(reading: Reading, kind: str | None) -> bool:
    """Several GPUs, and the first one holding more than the others or running out alone ("only the first card runs
    out of memory", "第一张卡占用很多显存导致OOM"): the way the work is spread, not the cards, is the question."""
    if kind not in ("can_run", "explain", "other", "info", None) or (reading.fields["num_gpus"] or 0) == 1:
        return False
    return _gated(reading.low, _FIRST_CARD_KEYS, _FIRST_CARD_FILLS)


# Money asked about ("1.86 compute units per hour is too much"): a question of cost, the cloud answer's
_COSTS = re.compile(
    r"\bcosts?\b|\bprices?\b|compute units?|per hour|/h\b|\$|钱|錢|费用|費用|价格|價格|算力单元|計算單元"
)


def _paid_colab(reading: Reading) -> bool:
    """Whether the question is about Colab's paid tiers ("Colab Pro", "Colab Pro+", "付费版Colab")."""
    return "colab" in reading.low and _PAID_COLAB.search(reading.low) is not None


def _free_colab(reading: Reading) -> bool:
    """Whether the question is about Colab's free tier ("free Colab", "免费版Colab", "Colab free T4")."""
    return "colab" in reading.low and _FREE_COLAB.search(reading.low) is not None


_OWNER_WINDOW = 24  # characters before a card's name that may say it is the user's own ("I currently have a …")


def _upgrades_own(reading: Reading, vocab: Vocab) -> bool:
    """An upgrade asked from the one card named, which the words just before it make the user's own
    ("my 3060", "I have an RTX 2060", "我现在用2060")."""
    if "upgrade" not in reading.signals or len({m.gpu_id for m in reading.mentions}) != 1:
        return False
    return _owned(reading.low, reading.mentions[0].start, vocab)


def _owned(low: str, start: int, vocab: Vocab) -> bool:
    """Whether the words just before the card at ``start`` make it the user's own ("my 3060", "I have an RTX 2060")."""
    return vocab.owner_words.search(low[max(0, start - _OWNER_WINDOW) : start]) is not None


# What may stand between words that rule a card out and its name: an article, "buying an NVIDIA", "一张".
_RULED_OUT_GAP = re.compile(
    r"\s*(?:(?:an?|the|one|any|single|new|used|buying|getting|renting|nvidia|rtx|geforce|买|買|租|一张|一張|一块|一塊)\s*)*"
    # …and another card ruled out before it: "I can't get an H100 or H200"
    r"(?:(?:[a-z]*\d[\w-]*|or|nor|and|,|/|或|和|、)\s*(?:(?:an?|the|nvidia|rtx)\s*)*)*"
)


def _ruled_out(low: str, start: int, vocab: Vocab) -> bool:
    """Whether the words just before a card at ``start`` rule it out ("I can't afford an A100, what GPU for
    AlphaFold?", "without a 4090", "我买不起A100"): the question is then about what else does the job."""
    before = low[max(0, start - _OWNER_WINDOW) : start]
    found = vocab.not_had_words.search(before)
    return found is not None and _RULED_OUT_GAP.fullmatch(before, found.end()) is not None


def _pools(reading: Reading, vocab: Vocab) -> bool:
    """Whether the question asks if memory pools across cards ("combine the VRAM", "显存叠加"); most
    questions name no memory at all, which a substring test settles before any pattern runs."""
    low = reading.low
    if not any(word in low for word in _POOLING_GATE):
        return False
    return reading.has(vocab.pooling)


_VENDOR_GATE = (
    "amd",
    "radeon",
    "rocm",
    "a卡",
    "intel",
    "arc",
    "oneapi",
    "英特",
    "nvidia",
    "geforce",
)  # every AMD or Intel phrase holds one
# every pooling pattern holds one of these
_POOLING_GATE = (
    "vram",
    "memory",
    "显存",
    "顯存",
    "act as",
    "平摊",
    "平攤",
    "分摊",
    "分攤",
    "均分",
    "平分",
    "split",
    "each",
    "every",
    "相当于",
    "相當於",
)


# "Is NVLink worth it for 2× 3090?": what is weighed is the guide's topic, not the card named with it
_WORTH_TOPICS = frozenset({"topic:nvlink", "topic:pcie", "topic:sparsity", "topic:cpu", "topic:amd"})
_HOW_MANY = re.compile(r"\bhow many\s+(?:\w+\s+)?$")
_RESOLUTION_LEFT = re.compile(r"[0-9]{3,4}\s*[x×*]\s*$")
_RESOLUTION_RIGHT = re.compile(r"\s*[x×*]\s*[0-9]{3,4}(?![0-9])")


# A project or model name as people type it: Latin letters and digits, joined by - _ . ("GPT-SoVITS",
# "T2I_CL", "dots.ocr"), not a number or a size ("24G", "7B").
# (the check of the character before is made after the first letter, so that the regex engine skips to letters)
_NAME = re.compile(r"([A-Za-z](?<![A-Za-z0-9_.\-].)[A-Za-z0-9]*(?:[-_.][A-Za-z0-9]+)*)(?![A-Za-z0-9_\-])")
# Words before a plain capitalised name that make it the thing run or trained ("run Champ", "for Dolphin").
_NAME_AFTER = re.compile(
    r"(?:\b(?:run|running|train|training|deploy|deploying|use|using|for|of|with|try)\s+(?:the\s+)?)$"
)
# Words after a capitalised name that make it the thing run or trained ("RVC training", "LHM inference").
_NAME_BEFORE = re.compile(r"\s+(?:inference|training|model|models|demo|webui|needs?|requires?)\b", re.IGNORECASE)


def _name_words(gpu: Gpu) -> set[str]:
    """The lower-case words of a card's names ("rtx", "6000", "ada"), for checking a fuzzy match's line."""
    return {w for name in (gpu.name, gpu.short_name, *gpu.aliases) for w in re.split(r"[\s\-]+", name.lower())}


# Between a card's name and an amount, what makes the amount that card's price ("3070M with 16GB for $290",
# "A770s are $230", "A6000 $4,800", "4090卖12000"); "under", "budget" and the like are not among them.
_PRICE_LINK = re.compile(
    r"^(?:s|'s)?(?:\s*(?:with|w/)?\s*[0-9]+\s*gb?)?[\s,:(]*"
    r"(?:(?:is|are|was|were|costs?|for|at|@|goes for|sells? for|selling for|priced at|only|just"
    r"|卖|賣|售价|售價|价格|價格|只要|才|要)\s*)*(?:~|about|around|约|約)?\s*[$€£¥￥]?\s*$"
)


def _card_price(low: str, start: int, end: int, mentions: list[Mention]) -> bool:
    """Whether the amount at ``start``–``end`` is the price of the card named just before it (and not a
    budget said as one: "RTX 4090, $2000 budget")."""
    if _BUDGET_AFTER.match(low, end):
        return False
    before = [m for m in mentions if m.end <= start and start - m.end <= 32]
    return any(_PRICE_LINK.match(low[m.end : start]) for m in before)


_BUDGET_AFTER = re.compile(r"\s*(?:usd|dollars?|元|块钱)?\s*(?:budget|预算|預算|total|in total|max|maximum|以内|以內)")


_NAME_PARTS = re.compile(r"[-_.]")
# Money spent renting, said right after the amount: "$50K on AWS", "$2,000 a month on RunPod", "1万块在AutoDL上"
_CLOUD_SPEND = re.compile(
    r"\s*(?:(?:a|per|each)\s+(?:month|year|week)\s+)?(?:on|in|at|for)\s+(?:the\s+)?" + CLOUDS + r"\b"
    r"|\s*(?:元|块|塊|块钱|塊錢|人民币|人民幣)?\s*(?:花)?在\s*(?:autodl|aws|colab|云|雲|阿里云|腾讯云)"
)
# GPU time right after a card's name ("32 A100-days", "2,000 A100 GPU hours", "8000 A100卡时"): the number is time
_GPU_TIME = re.compile(r"\s*-?\s*(?:gpus?[\s-]*)?(?:days?|hours?|hrs?)\b|\s*(?:gpu\s*)?(?:卡时|卡時|小时|小時|天)")
_VARIANT_AFTER = re.compile(r"\s*(ti|super)(?![a-z0-9])")  # a variant word right after a card's name
_GLUED_VARIANT = re.compile(r"([0-9]{3,4})(ti|super)$")  # "4090ti": a number and a variant word typed as one
_HUGE_COUNT = re.compile(r"(?<![0-9.,$€£¥])([0-9]{5,9})\s*(?:[x张張片]\s*)?$")  # 10,000+ cards before a name
_CONTEXTS = (int(BOUNDS["context_tokens"].low), int(BOUNDS["context_tokens"].high))  # tokens a question is read with
MAX_COUNT = int(BOUNDS["num_gpus"].high)  # the most GPUs a question is read with
_SERIES = re.compile(r"\s*(?:series|系列)")  # "RX 7900 series", "RX 9000系列": a series named as one
_CHIP_TOKEN = re.compile(r"m[1-9]$")  # an Apple chip's token ("m1" … "m9")
_GLUED_TO = re.compile(r"([a-z]+)[-_]$")  # the word a token is glued to by a hyphen ("minimax-" of "minimax-m1")
_DESKTOP = re.compile(r"\bdesktops?\b|台式|桌機|桌机|桌上型")  # a desktop named beside a laptop (Parser._laptop_at)
_MAC_WORDS = frozenset({"mac", "macbook", "imac", "apple", "mbp", "air", "pro", "mini", "studio"})
_HARDWARE_PARTS = frozenset({"gpu", "gpus", "cpu", "cpus", "card", "cards"})


# words that make the card after them what a project requires or was tested on, not the user's ("mentions a
# requirement for a 80G A100 GPU", "it requires an A100 80GB", "官方要求A100")
_REQUIRED_CARD = re.compile(
    r"(?:\brequirements?\s+(?:for|of)|\brequires?|\brecommends?|\brecommended|\btested\s+on|要求|推荐|推薦)"
    r"\s*(?:an?\s+|the\s+|at\s+least\s+(?:an?\s+)?)?(?:[0-9]+\s*g[b]?\s*)?$"
)
# a GPU the user has ("though I have a GPU installed", "我有显卡但只用了cpu"): running on the CPU is then the trouble
_HAS_A_GPU = re.compile(
    r"\b(?:i\s+have|i've\s+got|i\s+got)\s+(?:a\s+|an\s+)?(?:nvidia\s+)?(?:gpu|graphics\s+card)\b"
    r"|\b(?:gpu|graphics\s+card)\s+(?:is\s+)?installed|我有(?:独立)?(?:显卡|顯卡|gpu)"
)
# a memory size typed right before a card's name ("24GB 3090s", "80G A100")
_SIZE_BEFORE = re.compile(r"(?<![0-9.])[0-9]{1,3}\s*(?:gb|g|gig)\s*$")
# a memory size typed right after a card's name ("5060 16GB", "4060 (16gb)"), and a catalog id's memory suffix
_SIZE_AFTER = re.compile(r"\s*[(\[,/-]?\s*([0-9]{1,3})\s*(?:gb|g|gig|gigs)(?![a-z])")
_MEMORY_SUFFIX = re.compile(r"-[0-9]+gb$")
_INTEL_CPU = re.compile(r"[iI][3579]-?[0-9]{4,5}[A-Za-z]{0,2}")  # Intel Core model numbers
# a setting in snake_case ("gpu_memory_utilization", "max_model_len"), or a GPU the catalog lacks
# ("GTX950", "RX580"): neither names a project
_NOT_A_NAME = re.compile(
    r"[a-z0-9_]*_(?:memory|device|devices|utilization|size|rate|len|length|num|max|min|path|dir|gpus?|mode)(?:_[a-z0-9_]+)?"
    r"|(?i:gtx|rtx|gt|rx|mx)[\s-]?[0-9]{2,4}[a-z]{0,2}"
)
# software with its version glued on ("CUDA10.1", "PyTorch2.1", "Python3.10", "cuDNN8", "JetPack6"): the stack the user
# runs, not a project to run
_SOFTWARE_VERSION = re.compile(
    r"(?:cuda|cudnn|pytorch|torch|python|tensorflow|tf|rocm|jetpack|ubuntu|windows|win|macos|opencv|numpy|onnx"
    r"|tensorrt|xformers|driver)[\-_]?v?[0-9][0-9.x]*"
)


# An error message pasted in, to the end of its clause: "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB
# (GPU 0; …)", "torch.OutOfMemoryError: …", "CUDA out of memory" — its words ("out", "Tried") are no project's name
# (an exception's class name with its colon, as Python prints it: the word "error" in a sentence starts none)
_ERROR_TEXT = re.compile(
    r"[A-Za-z_.]*(?:Error|Exception)(?::[^，。？！,?!\n]*)?|(?i:cuda out of memory)[^，。？！,?!\n]*"
)  # ("OutOfMemoryError，GPU 0 …": an error's name alone, without its colon, names no project either)


@cache
def _tool_names() -> frozenset[str]:
    """The one-word names (lower case, as typed: "fooocus", "ai-toolkit") of the catalog's models that are no LLM:
    tools and image, video and speech models people write in lower case, which a project name may be."""
    models = load_model_catalog()
    return frozenset(
        name.lower()
        for spec in models.models.values()
        if spec.kind != "llm"
        for name in (spec.id, spec.name, *spec.aliases)
        if " " not in name and any(c.isalpha() for c in name)
    )


# The longest word read as a project's name: longer ones are pasted hashes, paths or noise (a Query's model holds 100)
_PROJECT_NAME_MAX = 64


def project_name(reading: Reading, not_projects: frozenset[str]) -> str | None:
    """The project or model a can-run question asks about when it is none the catalog knows: in a
    Chinese question any Latin name ("运行WriteGPT这个模型"), in others one typed like a project
    (CamelCase, capitals, digits: "SadTalker", "VToonify", "BM-DETR") or a capitalised word right after
    "run"/"train"/"for" ("requirements for Champ"). GPU names and ``not_projects`` are none."""
    text = reading.text
    if not text:
        return None
    chinese = reading.language != "en"
    taken = [(m.start, m.end) for m in reading.mentions]
    if "rror" in text or "emory" in text or "xception" in text:
        taken += [e.span() for e in _ERROR_TEXT.finditer(text)]  # a pasted error names no project
    if "factory" in reading.low:
        taken += [t.span() for t in _LLAMA_FACTORY.finditer(reading.low)]  # "with LLaMA Factory": a tool
    tools = _tool_names()
    for m in _NAME.finditer(text):
        name = m.group(1)
        if not chinese and name.islower() and name not in tools:
            continue  # an English word in lower case is no name (most of the words: checked first)
        if (
            sum(c.isalpha() for c in name) < 3
            or len(name) > _PROJECT_NAME_MAX  # "A000…0001GPU" (the fuzz test's): no project is named so
            or name.lower() in not_projects
            or any(s < m.end() and m.start() < e for s, e in taken)
        ):
            continue
        if any(name.lower() in unknown or unknown in name.lower() for unknown in reading.unknown):
            continue
        if any(part in _HARDWARE_PARTS for part in _NAME_PARTS.split(name.lower())[1:]):
            continue  # "quad-GPU", "multi-GPU", "dual-CPU": hardware said, not a project
        if _INTEL_CPU.fullmatch(name) or _SOFTWARE_VERSION.fullmatch(name.lower()) or _NOT_A_NAME.fullmatch(name):
            continue  # "i7-7700HQ", "i9-13900HX": the user's processor, not a project; "CUDA10.1" their software
        # CamelCase or capitals with digits ("SadTalker", "AnimeGANv2") read as a name anywhere; a
        # capitalised or all-capitals word ("Champ", "RVC" — or "WAN", "USB") only where the words
        # around it make it the thing run ("train ALAE", "RVC training").
        camel = any(c.islower() for c in name) and any(c.isupper() for c in name[1:])
        typed_as_name = camel or (any(c.isdigit() for c in name) and name[0].isupper())
        placed = name[0].isupper() and (
            _NAME_AFTER.search(text, max(0, m.start() - 24), m.start()) is not None
            or _NAME_BEFORE.match(text, m.end()) is not None
        )
        if chinese or typed_as_name or placed or name.lower() in tools:
            return name
    return None


def _usd(money: Money) -> Decimal | None:
    """A month's rent in dollars at the data's rates, within Query's bounds (else not read)."""
    usd = exchange_rates().convert(money, "USD").amount.quantize(Decimal("0.01"))
    bound = BOUNDS["cloud_usd_per_month"]
    return usd if bound.low <= usd <= bound.high else None


def _per_kwh_usd(price: tuple[Decimal, str] | None) -> Decimal | None:
    """An electricity price in dollars per kWh (yuan converted at the data's rate), within Query's bounds."""
    if price is None:
        return None
    amount, currency = price
    usd = exchange_rates().convert(Money(amount=amount, currency=currency), "USD").amount
    return usd.quantize(Decimal("0.0001")) if 0 < usd <= BOUNDS["electricity_usd_per_kwh"].high else None


def _laptop_speed(gpu: Gpu) -> tuple[float, float]:
    """What orders laptop GPUs of one memory size: bandwidth (the guide's best predictor), then Tensor Cores."""
    return gpu.bandwidth_gbs, gpu.fp16_tensor_tflops or 0.0


def _resolution(low: str, start: int, end: int) -> bool:
    """A bare number that is one side of an image size ("a 1080x1080 video", "2080×1080"), or a length of time
    ("训练要6800分钟", "took 3090 seconds"), is no GPU."""
    return bool(
        _RESOLUTION_LEFT.search(low, max(0, start - 8), start)
        or _RESOLUTION_RIGHT.match(low, end)
        or _TIME_AFTER.match(low, end)
    )


# A unit of time right after a number: "6800分钟", "3090 seconds", "1080 s/it"
_TIME_AFTER = re.compile(
    r"\s*(?:分钟|分鐘|小时|小時|秒|天|minutes?|mins?\b|seconds?|secs?\b|hours?|hrs?\b|s/it|it/s|ms\b)"
)


# A Mac named without its chip or memory: the M4 Macs with 16, 48 and 128 GB stand for the small, middle and
# large ones (see Parser.parse).
MAC_SIZES = ("apple-m4-16gb", "apple-m4-pro-48gb", "apple-m4-max-128gb")
# A Mac, by its product name, or Apple silicon said without one ("Apple silicon", "M-series chips", "苹果芯片",
# "苹果Max芯片", "M系列芯片")
_MAC = re.compile(
    r"(?<![a-z])(?:i?mac|macbook|mac\s?(?:studio|mini|pro))(?![a-z])"
    r"|apple\s+silicon|\bm[\s-]?series\s+chips?|(?:苹果|蘋果)[^，。？?]{0,6}芯片|m\s?系列"
)


# The Apple silicon generations each desktop Mac has shipped with (Apple's newsroom): Mac mini M1 (2020), M2 and
# M2 Pro (2023), M4 and M4 Pro (2024); Mac Studio M1 Max/Ultra (2022), M2 Max/Ultra (2023), M4 Max and M3 Ultra
# (2025); iMac M1 (2021), M3 (2023), M4 (2024). Laptops take any generation (the M5 came in a MacBook Pro first).
_MAC_GENERATIONS = {"mac mini": ("m1", "m2", "m4"), "mac studio": ("m1", "m2", "m3", "m4"), "imac": ("m1", "m3", "m4")}


def _mac_tiers(studio: bool, laptop: bool = False) -> tuple[str, ...]:
    """The chip tiers a Mac may have: a Mac Studio a Max or an Ultra, a MacBook never an Ultra, any other Mac any
    tier."""
    if studio:
        return ("max", "ultra")
    return ("", "pro", "max") if laptop else ("", "pro", "max", "ultra")


def _apple_silicon_mac(low: str) -> bool:
    """Whether the text names a Mac by its product name, and not an Intel Mac (no Apple GPU there)."""
    return not _intel_named(low) and _MAC.search(low) is not None


def _intel_named(low: str) -> bool:
    """Whether the text names Intel or an Intel CPU by its model ("iMac (3.2GHz i5 / 32GB)", "MacBook Pro i7-9750H"):
    beside a Mac, an Intel Mac, its GPU no Apple chip."""
    return "intel" in low or _INTEL_CORE.search(low) is not None


_INTEL_CORE = re.compile(r"\bcore\s+i[3579]\b|(?<![a-z0-9])i[3579](?:-\d{4,5}[a-z]{0,2})?(?![a-z0-9])|\bxeon\b")


_APPLE_BASE = re.compile(r"apple-(?P<gen>m[1-9])-\d+gb")  # a base chip: no Pro, Max or Ultra
_APPLE_CHIP = re.compile(r"apple-(?P<gen>m[1-9])-(?:(?P<tier>pro|max|ultra)-)?\d+gb")
_OTHER_LINE = {"gtx": "rtx", "rtx": "gtx"}  # GeForce numbers are unique across the two lines
_NEXT_PRICE = re.compile(r"\s*[$€£¥₩₹]\s*[0-9]")


def _first_named(keyed: dict[str, PhraseSet], any_of: PhraseSet, words: Words, last: bool = False) -> str | None:
    """The key whose phrase comes first in the text (``last``: the one named last); most questions name none,
    settled by one check."""
    if not any_of.could_match(words):
        return None
    if last:
        named = [(hits[-1].start(), key) for key, phrases in keyed.items() if (hits := phrases.finditer_in(words))]
        return max(named)[1] if named else None
    found = [(m.start(), key) for key, phrases in keyed.items() if (m := phrases.find(words))]
    return min(found)[1] if found else None


# Offloading layers to system RAM asked about ("with offloading", "partial offload", "-ngl 40", "卸载到内存")
_OFFLOAD = re.compile(r"offload|(?<![a-z])-?ngl\b|n_gpu_layers|卸载|卸載|(?:放|挪)到内存|(?:放|挪)到記憶體")


# The best or fastest GPU asked for, no card named ("what's the fastest GPU for deep learning?", "最好的深度学习显卡
# 是哪张？", "哪张显卡最强"): a recommendation, whatever the classifier reads into "best"
_BEST_GPU = re.compile(
    r"\b(?:best|fastest|strongest|most powerful|top)\s+(?:[a-z-]+\s+){0,2}"
    r"(?:gpus?|graphics cards?|video cards?|cards?)\b"
    r"|(?:最好|最快|最强|最強|最适合|最適合|最推荐|最推薦)的?[^，。？！,?!]{0,8}(?:显卡|顯卡|gpu|卡)"
    r"|(?:显卡|顯卡|gpu)[^，。？！,?!]{0,6}(?:最好|最快|最强|最強|最适合|最適合)"
)


# Power words that name the machine's power itself, not "cool" or "temperature", which other talk uses
_POWER_ASKED = re.compile(r"\bpsu|\bpower\b|\bwatts?\b|wattage|功耗|电源|電源|電供|瓦")


def _relevant(reading: Reading) -> bool:
    """Whether the text is about GPUs or models at all: a card, memory size, model, budget or concept of
    the guide named, a word about GPUs or machine learning, renting a cloud server, or the machine's power
    ("这台主机功耗多少？", "what PSU do I need?": the guide's power advice); "what's the weather like?" is not."""
    if reading.about_gpus or (_HARDWARE | _SUBJECTS) & reading.signals:
        return True
    if reading.fields["cpu_only"]:
        return True  # "no NVIDIA GPU, only Iris Xe: is there a CPU-only mode?": running without a GPU is the question
    if "cue:cloud" in reading.signals and reading.rule_kind == "cloud_vs_buy":
        return True  # "可以租云服务器跑吗？": renting compute is the guide's cloud question, no GPU word needed
    return "cue:power" in reading.signals and bool(_POWER_ASKED.search(reading.low))


def classify(
    cues: Cues,
    fields: dict[str, Any],
    ids: list[str],
    mentions: int,
    memory: list[float],
    model_llm: bool,
    *,
    explicit_only: bool = False,
) -> str | None:
    """The kind of question, in the order that settles overlaps: money-for-time questions are about
    the cloud, watts and cooling are power, a concept is explained unless cards or money are on the
    table, two cards are compared, a model or "run"/"fit" asks whether it runs, and what is left
    with a budget, a task or a card asks what to buy. A follow-up gets a kind only from its words."""
    k = cues.kinds
    if k["cloud"] or fields["cloud_usd_per_hour"]:  # a price per hour is a rental
        return "cloud_vs_buy"
    if k["power"] or fields["power_limit_w"]:
        return "power"
    if (
        cues.topic
        and fields["budget"] is None
        and len(ids) < 2
        and not fields["model"]
        and (cues.topic_strong or k["explain"] or not k["recommend"])
    ):
        return "explain"
    if len(ids) >= 2 or (mentions >= 2 and k["compare"]):
        return "compare"
    if model_llm or k["can_run"] or (k["can_run_weak"] and (memory or fields["model"])):
        return "can_run"
    if k["recommend"]:
        return "recommend"
    if explicit_only:
        return "explain" if k["explain"] else None
    if fields["budget"] or fields["task"] or fields["condition"] or memory or fields["num_gpus"]:
        return "recommend"
    if k["explain"]:
        return "explain"
    return "recommend" if ids else None


def _same_card(mentions: list[Mention], low: str) -> list[Mention]:
    """ "V100 … 32G的V100" names one card, the variant the text pins down: a name without memory is
    dropped when another mention pins one of its variants, unless the two are offered as alternatives
    ("4060 Ti 16GB or 4060 Ti")."""
    pinned = [m for m in mentions if m.memory is not None]
    if not pinned:
        return mentions

    def merged(m: Mention) -> bool:
        for p in pinned:
            if p.gpu_id != m.gpu_id and p.gpu_id in m.options:
                a, b = (m, p) if m.start < p.start else (p, m)
                if not _ALTERNATIVES.search(low, a.end, b.start) or b.start - a.end > 24:
                    return True
        return False

    return [m for m in mentions if m.memory is not None or not merged(m)]


_OR_MEMORY = re.compile(
    r"\s*(?:or|/|vs\.?|versus|and|还是|還是|或|或者|和|跟|与|與|对比|對比)\s*(?:the\s+)?(?P<n>[0-9]{1,3})\s*(?:gb|g|gib)(?![a-z])"
)
# Choosing a card to get ("should I get a 4070 or a 3090?", "入手哪张"): the cards weighed are the ones to buy
_BUY_VERB = re.compile(r"\b(?:get|buy|purchase|pick|choose|go\s+for)\b|买|買|入手|换|換|选|選")
_ALTERNATIVES = re.compile(r"\b(?:or|vs|versus)\b|还是|還是|或|/|跟|和|与|與|比(?!如)")


def _one_typo(word: str, target: str) -> bool:
    """One letter added, dropped, changed, or two neighbours swapped: "supr", "suepr", "laptp"."""
    if word == target or abs(len(word) - len(target)) > 1:
        return False
    if len(word) == len(target):
        diff = [k for k in range(len(word)) if word[k] != target[k]]
        return len(diff) == 1 or (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and word[diff[0]] == target[diff[1]]
            and word[diff[1]] == target[diff[0]]
        )
    short, long_ = sorted((word, target), key=len)
    k = next((k for k in range(len(short)) if short[k] != long_[k]), len(short))
    return short[k:] == long_[k + 1 :]


def _num_gpus(counts: list[Count]) -> int | None:
    """The largest count, when one is written in digits or is more than one ("one card" is no count)."""
    if not counts or not any(c.explicit or c.value > 1 for c in counts):
        return None
    top = max(c.value for c in counts)
    return top if 1 <= top <= MAX_COUNT else None


def _count_for(gpu_id: str, mentions: list[Mention]) -> int:
    stated = [m.count.value for m in mentions if m.gpu_id == gpu_id and m.count and m.count.value <= MAX_COUNT]
    return max(stated) if stated else 1


# One card said to be single ("4090单卡", "a single 3090"): a count of one, for telling setups apart
_SINGLE_AFTER = re.compile(r"\s*(?:单卡|單卡|单张|單張|一张|一張|单块|單塊)")
_SINGLE_BEFORE = re.compile(r"(?:\bsingle|\bone|\ba|单张|單張|一张|一張|单块|單塊|单卡|單卡)\s*$")


def _setups_of(gpu_id: str, mentions: list[Mention], low: str) -> list[tuple[str, int]]:
    """The setups of one card the question weighs: one, with the largest count stated ("I have 2 3090s. Can my
    3090s run 70B?"), or one per count where it names the card alone and in a group as options ("one 4090 or
    two?", "4090 vs 2x 4090", "4090单卡能不能…不行的话两张4090"), in the order named."""
    named = [m for m in mentions if m.gpu_id == gpu_id]
    if len(named) < 2:  # most cards are named once: one setup
        return [(gpu_id, _count_for(gpu_id, mentions))]
    counts: list[int] = []
    for m in named:
        if m.count and m.count.value <= MAX_COUNT:
            counts.append(m.count.value)
        elif _SINGLE_AFTER.match(low, m.end) or _SINGLE_BEFORE.search(low, max(0, m.start - 9), m.start):
            counts.append(1)
        elif any(o.count for o in named if o is not m) and _offered_apart(m, mentions, low):
            counts.append(1)  # "4090 vs 2x 4090": the card alone beside a group of it
    distinct = list(dict.fromkeys(counts))
    if len(distinct) < 2:
        return [(gpu_id, _count_for(gpu_id, mentions))]
    return [(gpu_id, count) for count in distinct]


def _offered_apart(m: Mention, mentions: list[Mention], low: str) -> bool:
    """Whether an alternative word ("vs", "or", "还是") stands between this mention and the next or previous one of
    the same card, with no other card named between them ("8张A100还是3090？…几张A100" weighs the A100 and the 3090)."""
    for o in mentions:
        if o is m or o.gpu_id != m.gpu_id:
            continue
        start, end = min(m.end, o.end), max(m.start, o.start)
        between = any(start <= x.start < end for x in mentions if x.gpu_id != m.gpu_id)
        if not between and _ALTERNATIVES.search(low, start, end):
            return True
    return False


# The least memory figure read: Query keeps GB to the hundredth, so "0.0001 GB" would be none (and refused)
_MEMORY_SAID = 0.005


def _had(free: list[float], needs: tuple[float, ...]) -> list[float]:
    """The memory figures less the needs quoted, when any are left: what the user has ("requires 24GB; will it run in
    16GB?" → 16); needs alone stay ("needs 12GB; will my 3060 do?", "最低24G…怎么还需要110G").
    (A figure typed as both — "needs 24GB, I have 24GB" — counts as had.)"""
    rest = [f for f in free if f not in needs]
    return rest or free


def _min_memory(free: list[float], mentions: list[Mention], kind: str | None) -> float | None:
    """The smallest memory figure; one typed with a card only tells variants apart when comparing."""
    figures = list(free)
    if kind != "compare":
        figures += [m.memory for m in mentions if m.memory and not m.variants]
    figures = [f for f in figures if _MEMORY_SAID <= f <= 4096]
    return min(figures) if figures else None


def _missing(query: Query) -> tuple[str, ...]:
    """What the advisor's flowchart needs and the question did not say."""
    if query.kind == "recommend":
        return tuple(name for name, value in (("task", query.task), ("budget", query.budget)) if value is None)
    if query.kind == "can_run":
        out = []
        if query.model is None and query.task is None:
            out.append("model")
        if not query.gpus and query.min_memory_gb is None and query.num_gpus is None:
            out.append("gpu")
        return tuple(out)
    return ()


def _amount(value: Decimal) -> Msg:
    """An amount for a note: plain digits without trailing zeros when reasonable, scientific when absurd."""
    if value >= Decimal(10) ** 12:
        return msg("parse.amount.huge", value=value)
    return msg("parse.amount", value=value.normalize())


_PARSERS: dict[int, tuple[Catalog, Parser]] = {}


def _parser_for(catalog: Catalog) -> Parser:
    """One parser per catalog object (the installed catalog is itself loaded once)."""

    def build() -> Parser:
        vocab = load_vocab()
        return Parser(vocab, build_gpu_index(catalog, vocab), load_classifier())

    return per_object(_PARSERS, catalog, build)


def parse(
    text: str, *, default_currency: str = "USD", catalog: Catalog | None = None, standalone: bool = False
) -> ParseResult:
    """Read a question into a ``ParseResult``; never raises on any text.

    ``default_currency`` (the guild's) settles amounts whose currency the text leaves open;
    ``catalog`` defaults to the installed one and exists for tests. Results for the installed
    catalog are remembered: the same questions come back, and a ParseResult is frozen.
    """
    if catalog is None:
        return _parse_installed(text, default_currency, standalone)
    return _parser_for(catalog).parse(text, default_currency, standalone)


@lru_cache(maxsize=ANSWERS_REMEMBERED)
def _parse_installed(text: str, default_currency: str, standalone: bool = False) -> ParseResult:
    return _parser_for(load_catalog()).parse(text, default_currency, standalone)
