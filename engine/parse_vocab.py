"""The parser's vocabularies: ``data/locales/parse.yaml`` compiled to regexes, and a GPU-name index.

Words live in YAML so that a new phrasing ("second-hand", "拆機") is a data change, not a code
change. Everything here is compiled once per process; parsing itself only runs the compiled
patterns and dictionary look-ups.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from engine.catalog import Catalog
from engine.datafiles import data_dir, read_yaml

_LATIN = re.compile(r"[a-z0-9]")
NEVER = re.compile(r"(?!x)x")


def _phrase(entry: str) -> str:
    """One vocabulary entry as a regex: raw after ``re:``, else a word-bounded, spacing-tolerant phrase.

    Spaces and hyphens inside a phrase match any run of them or none, because people write
    "fine-tune", "fine tune" and "finetune" alike; a plural ending is allowed for the same reason.
    """
    if entry.startswith("re:"):
        return entry[3:]
    text = entry.strip().lower()
    words = [w for w in re.split(r"[\s\-]+", text) if w]
    body = r"[\s\-]*".join(map(re.escape, words))
    if _LATIN.match(text[-1:]):
        body += "(?:s|es)?(?![a-z0-9])"
    if _LATIN.match(text[:1]):
        # The boundary is checked after the first character, so that the pattern still starts with
        # a literal and the regex engine can skip positions that cannot match (several times faster).
        first = re.escape(text[0])
        body = first + "(?<![a-z0-9]." + ")" + body[len(first):]
    return body


class PhraseSet:
    """A vocabulary list compiled as two alternations, longest first ("lambda labs" before "lab"):
    the plain phrases, which start with a literal and so let the regex engine skip ahead, and the
    raw ``re:`` entries, which would take that shortcut away from the phrases if mixed in."""

    def __init__(self, entries: Iterable[str]) -> None:
        items = sorted({str(e) for e in entries}, key=len, reverse=True)
        plain = [f"(?:{_phrase(e)})" for e in items if not e.startswith("re:")]
        raw = [f"(?:{_phrase(e)})" for e in items if e.startswith("re:")]
        self.pattern = "|".join(plain + raw) or NEVER.pattern
        self._parts = tuple(re.compile("|".join(part)) for part in (plain, raw) if part) or (NEVER,)
        if len(self._parts) == 1:  # the common case, without a Python-level wrapper
            self.search = self._parts[0].search  # type: ignore[method-assign]

    def search(self, text: str) -> re.Match[str] | None:
        """The earliest match of any entry."""
        found = [m for m in (p.search(text) for p in self._parts) if m]
        return min(found, key=lambda m: m.start()) if found else None

    def match(self, text: str, pos: int = 0) -> re.Match[str] | None:
        return next((m for m in (p.match(text, pos) for p in self._parts) if m), None)

    def finditer(self, text: str) -> list[re.Match[str]]:
        return sorted((m for p in self._parts for m in p.finditer(text)), key=lambda m: m.start())


def compile_keyed(mapping: Mapping[str, Iterable[str]]) -> dict[str, PhraseSet]:
    return {key: PhraseSet(entries) for key, entries in mapping.items()}


def squash(text: str) -> str:
    """A lookup key for a matched phrase: lower case without spaces or hyphens."""
    return re.sub(r"[\s\-]+", "", text.lower())


@dataclass(frozen=True, eq=False)  # hashed by identity: it is built once
class Vocab:
    """Everything the parser matches against, compiled."""

    raw: dict[str, Any]
    hant: frozenset[str]
    hans: frozenset[str]
    kana: PhraseSet
    follow_up: PhraseSet
    kinds: dict[str, PhraseSet]
    topic_any: PhraseSet  # every topic phrase: most questions name none, and one search says so
    topic_strong: re.Pattern[str]  # one named group per topic
    topic_weak: re.Pattern[str]
    domains: dict[str, PhraseSet]
    domain_priority: tuple[str, ...]
    stages: dict[str, PhraseSet]
    llm_train: PhraseSet
    conditions: dict[str, PhraseSet]
    negated_used: PhraseSet
    organization: PhraseSet
    workloads: dict[str, PhraseSet]
    laptop: PhraseSet
    power_limit_cues: PhraseSet
    not_vram: PhraseSet
    vram_words: PhraseSet
    versions: re.Pattern[str]
    models: re.Pattern[str]
    model_llm_families: frozenset[str]
    gpu_noise: frozenset[str]
    gpu_lines: frozenset[str]
    gpu_like: frozenset[str]
    gpu_form: frozenset[str]
    gpu_laptop: frozenset[str]
    memory_units: frozenset[str]
    count_words: dict[str, int]
    numbers: dict[str, dict[str, int]]
    money: dict[str, Any] = field(repr=False)


def _model_pattern(families: list[str], name_words: list[str]) -> re.Pattern[str]:
    """A model name: family, then versions and name words, then an optional size ("Llama 3.1 70B").

    Each repeated piece must end where its digits or letters end, so the pattern cannot split one
    run of digits in several ways: matching stays linear even on hostile input.
    """
    def family(name: str) -> str:  # digits may follow at once ("qwen2.5"), letters may not ("phi" ≠ "philips")
        body = r"[\s\-]*".join(map(re.escape, name.lower().split()))
        return re.escape(name[0].lower()) + "(?<![a-z0-9].)" + body[len(re.escape(name[0].lower())):] + "(?![a-z])"

    fam = "|".join(sorted(map(family, families), key=len, reverse=True))
    words = "|".join(sorted(map(re.escape, name_words), key=len, reverse=True))
    piece = rf"[\s\-_]*(?:v?[0-9]+(?:\.[0-9]+)?(?![0-9.]|\s?b\b)|(?:{words})(?![a-z0-9]))"
    size = r"[0-9]+x[0-9]+\s?b|[0-9]+(?:\.[0-9]+)?\s?b"
    return re.compile(
        rf"(?P<fam>{fam})(?:{piece}){{0,4}}(?:[\s\-_]*(?P<size>{size}))?(?![a-z0-9])"
        rf"|(?P<bare>[0-9](?<![a-z0-9.][0-9])(?:[0-9]*x[0-9]+\s?b|[0-9]*(?:\.[0-9]+)?\s?b))(?![a-z0-9])"
    )


@cache
def load_vocab() -> Vocab:
    """``parse.yaml``, compiled; loaded once per process."""
    raw = read_yaml(data_dir() / "locales" / "parse.yaml")
    lang, tasks, names, models = raw["language"], raw["tasks"], raw["gpu_names"], raw["models"]
    def topics(strength: str) -> re.Pattern[str]:
        """One search finds the first topic named: each topic's phrases are a named group."""
        groups = [f"(?P<{name}>{PhraseSet(cues[strength]).pattern})"
                  for name, cues in raw["topics"].items() if cues.get(strength)]
        return re.compile("|".join(groups))

    families = [*models["llm_families"], *models["other_families"]]
    return Vocab(
        raw=raw,
        hant=frozenset(lang["hant"]),
        hans=frozenset(lang["hans"]),
        kana=PhraseSet([lang["kana"]]),
        follow_up=PhraseSet(raw["follow_up"]),
        kinds=compile_keyed(raw["kinds"]),
        topic_any=PhraseSet(e for cues in raw["topics"].values() for es in cues.values() for e in es),
        topic_strong=topics("strong"),
        topic_weak=topics("weak"),
        domains=compile_keyed(tasks["domains"]),
        domain_priority=tuple(tasks["priority"]),
        stages=compile_keyed(tasks["stages"]),
        llm_train=PhraseSet(tasks["llm_train"]),
        conditions=compile_keyed({k: v for k, v in raw["condition"].items() if k in ("used", "new")}),
        negated_used=PhraseSet([raw["condition"]["negated_used"]]),
        organization=PhraseSet(raw["organization"]),
        workloads=compile_keyed(raw["workloads"]),
        laptop=PhraseSet(raw["laptop"]),
        power_limit_cues=PhraseSet(raw["power_limit_cues"]),
        not_vram=PhraseSet(raw["not_vram"]),
        vram_words=PhraseSet(raw["vram_words"]),
        versions=re.compile(
            "(?:" + PhraseSet(raw["version_words"]).pattern + r")[\s\-]*v?[0-9]+(?:\.[0-9]+){0,3}"
        ),
        models=_model_pattern(families, models["name_words"]),
        model_llm_families=frozenset(squash(f) for f in models["llm_families"]),
        gpu_noise=frozenset(names["noise"]),
        gpu_lines=frozenset(names["lines"]),
        gpu_like=frozenset(names["gpu_like"]),
        gpu_form=frozenset(names["form"]),
        gpu_laptop=frozenset(names["laptop_tokens"]),
        memory_units=frozenset(names["memory_units"]),
        count_words={squash(k): int(v) for k, v in raw["gpu_count"]["words_en"].items()},
        numbers={k: {str(n): int(v) for n, v in m.items()} for k, m in raw["numbers"].items()},
        money=raw["money"],
    )


# --- GPU names -------------------------------------------------------------------------------------

_TOKEN = re.compile(r"[a-z0-9]+")
_MEMORY_TOKEN = re.compile(r"^([0-9]{1,4})(?:gb|g|gig|gigs|gigabytes?)$")
Key = tuple[str, tuple[str, ...]]


@dataclass(frozen=True)
class GpuIndex:
    """Catalog names split as (core, extras): core keeps model and variant words, extras the memory,
    form factor and laptop tokens, which people write in any order or leave out.

    ``exact`` holds the catalog's own names; ``derived`` adds the shortened forms people type ("3090"
    for "RTX 3090", "a100" for every A100), mapping to every card they could mean, in catalog order.
    """

    exact: dict[Key, str]
    derived: dict[Key, tuple[str, ...]]
    starts: frozenset[str]
    catalog: Catalog = field(repr=False, compare=False)

    def lookup(self, key: Key) -> tuple[str, ...]:
        hit = self.exact.get(key)
        return (hit,) if hit else self.derived.get(key, ())


def gpu_tokens(text: str, vocab: Vocab) -> list[tuple[str, int, int]]:
    """Lower-case alphanumeric tokens with offsets; "12 GB" and "12g" become one token "12gb"."""
    out: list[tuple[str, int, int]] = []
    for m in _TOKEN.finditer(text):
        tok, start, end = m.group(), m.start(), m.end()
        if out and tok in vocab.memory_units and out[-1][0].isdigit() and not text[out[-1][2]:start].strip():
            out[-1] = (out[-1][0] + "gb", out[-1][1], end)
            continue
        mem = _MEMORY_TOKEN.match(tok)
        out.append((f"{mem.group(1)}gb" if mem else tok, start, end))
    return out


def split_key(tokens: Iterable[str], vocab: Vocab) -> Key:
    """(core, sorted extras) for a run of name tokens; brand words dropped, "mobile" read as laptop."""
    core: list[str] = []
    extras: set[str] = set()
    for tok in tokens:
        if tok in vocab.gpu_noise:
            continue
        if _MEMORY_TOKEN.match(tok) or tok in vocab.gpu_form:
            extras.add("pcie" if tok == "pci" else tok.rstrip("45") if tok.startswith("sxm") else tok)
        elif tok in vocab.gpu_laptop:
            extras.add("laptop")
        else:
            core.append(tok)
    return "".join(core), tuple(sorted(extras))


def _alias_forms(core: list[str], extras: set[str], memory: str, vocab: Vocab) -> set[Key]:
    """The shortened forms of one catalog name that people type: without the product line, without
    memory or form factor, or with the card's memory added. Laptop is never dropped."""
    cores = {"".join(core)}
    if len(core) > 1 and core[0] in vocab.gpu_lines:
        cores.add("".join(core[1:]))
    mems = {e for e in extras if e.endswith("gb")}
    forms = extras & vocab.gpu_form
    bases = [extras, extras - mems, extras - forms, extras - mems - forms]
    sets = {frozenset(b) for b in bases} | {frozenset(b | {memory}) for b in bases if not (b & mems)}
    return {(c, tuple(sorted(s))) for c in cores if c for s in sets}


def build_gpu_index(catalog: Catalog, vocab: Vocab) -> GpuIndex:
    """Index every catalog name and its shortened forms; only cores with a digit or a known
    digitless name (Titan V) can start a match."""
    exact: dict[Key, str] = {}
    derived: dict[Key, list[str]] = {}
    starts: set[str] = set(vocab.gpu_noise | vocab.gpu_lines | vocab.gpu_like)
    for gpu in catalog.gpus.values():
        memory = f"{round(gpu.memory_gb)}gb"
        for alias in (gpu.id, gpu.name, gpu.short_name, *gpu.aliases):
            toks = [t for t, _, _ in gpu_tokens(alias.lower(), vocab)]
            core, extras = split_key(toks, vocab)
            if not core:
                continue
            exact.setdefault((core, extras), gpu.id)
            core_toks = [t for t in toks if t not in vocab.gpu_noise and split_key([t], vocab)[0]]
            starts.update(core_toks[:2])
            for key in _alias_forms(core_toks, set(extras), memory, vocab):
                ids = derived.setdefault(key, [])
                if gpu.id not in ids:
                    ids.append(gpu.id)
    return GpuIndex(exact, {k: tuple(v) for k, v in derived.items()}, frozenset(starts), catalog)
