"""The catalog: every fact in ``data/`` loaded once, validated, cross-checked and immutable.

``resolve`` turns what people type ("3090", "rtx3090", "a100 80g", "3060 12G", "4070 laptop",
"笔记本 4060", "4090D", "M2 Max 96GB", "7900xtx", "orin nano") into a catalog id. It prefers no
answer to a wrong one: a fuzzy match may fix a typo but never adds or drops a variant word (Ti,
Super, laptop, Max, Ultra, D, X, ...) or a number, so "3060" never becomes "3060 Ti" and "MI250"
never becomes "MI250X".
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field
from rapidfuzz import fuzz, process

from engine.datafiles import DataError, data_dir, read_yaml, validate_document, validate_entries
from engine.memo import per_object
from engine.specs import Architecture, BuildCost, CloudInstance, Gpu, PriceEntry, PriceSnapshot

Condition = Literal["new", "used"]

# Chinese words people type around a GPU name: "笔记本 4060" is the laptop part, "A卡"/"N卡" name a
# vendor, "显卡" is "graphics card". Folded to English words before anything else.
_LOCAL_WORDS = (
    ("笔记本电脑", " laptop "),
    ("筆記型電腦", " laptop "),
    ("笔记本", " laptop "),
    ("筆記本", " laptop "),
    ("筆電", " laptop "),
    ("移动版", " laptop "),
    ("行動版", " laptop "),
    ("移动端", " laptop "),
    ("摩尔线程", " moore threads "),
    ("摩爾線程", " moore threads "),
    ("寒武纪", " cambricon "),
    ("寒武紀", " cambricon "),
    ("昇腾", " ascend "),
    ("昇騰", " ascend "),
    ("华为", " huawei "),
    ("華為", " huawei "),
    ("苹果", " apple "),
    ("蘋果", " apple "),
    ("a卡", " amd "),
    ("n卡", " nvidia "),
    ("i卡", " intel "),
    ("独显", " "),
    ("獨顯", " "),
    ("显卡", " "),
    ("顯卡", " "),
)
# Words that name a brand, product line or machine but never tell two catalog entries apart.
_NOISE = re.compile(
    r"\b(nvidia|geforce|amd|radeon|instinct|intel|apple|jetson|founders?\s*edition|graphics\s*card"
    r"|video\s*card|developer\s*kit|dev\s*kit|gpu|card|mac\s*book\s*(?:pro|air)?|mac\s*(?:studio|mini|pro)|imac)\b"
)
# "laptop", "mobile", "notebook" anywhere in a name: one canonical word at the end, so that
# "laptop 4060", "4060 mobile" and "笔记本 4060" meet "4060 laptop".
_LAPTOP = re.compile(r"\b(laptop|mobile|notebook)\b")
# Words that do tell cards apart; a fuzzy match must keep exactly the same ones. The long ones may
# end a chunk ("rtx4070ti"); the short ones count only as a whole chunk ("4090d", "mi250x").
_VARIANT_WORDS = (
    "ti", "super", "laptop", "mobile", "xtx", "xt", "ada", "sxm", "pcie", "pro", "max", "ultra",
    "gre", "nano", "nx", "spark",
)  # fmt: skip
_VARIANT_PREFIXES = ("agx",)
# A single letter between or after numbers is always a variant: "4090d", "mi250x", "l40s", "4090m",
# "m3max", "a100" — never a typo to fix.
_MEMORY = re.compile(r"(\d+)\s*(?:gb|g|gig|gigs)\b")
FUZZY_CUTOFF = 88.0
SUGGEST_CUTOFF = 70.0  # "did you mean" only for a close name: "rtx 4099", "1660s", "m3 maxx"; not "banana"


def normalize_name(text: str) -> str:
    """Fold a GPU name to a key: lower case, no brand words, memory as ``NNgb``, laptop last, no separators."""
    text = unicodedata.normalize("NFKC", text).lower()
    for word, english in _LOCAL_WORDS:
        text = text.replace(word, english)
    text = _NOISE.sub(" ", text)
    text = _MEMORY.sub(r"\1gb", text)
    if _LAPTOP.search(text):
        text = _LAPTOP.sub(" ", text) + " laptop"
    return re.sub(r"[^a-z0-9]+", "", text)


def _variant_signature(key: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The numbers and variant words in a normalized key, which fuzzy matching must preserve."""
    numbers = tuple(re.findall(r"\d+", key))
    letters = re.sub(r"\d+", " ", key).split()
    words = [w for chunk in letters for w in _VARIANT_WORDS if chunk.endswith(w) or chunk == w]
    words += [w for chunk in letters for w in _VARIANT_PREFIXES if chunk.startswith(w)]
    words += [chunk for chunk in letters if len(chunk) == 1]
    return numbers, tuple(sorted(words))


class Catalog(BaseModel):
    """All data files, validated. Built by :func:`load_catalog`; never mutated."""

    model_config = {"frozen": True, "arbitrary_types_allowed": True}

    gpus: dict[str, Gpu]
    architectures: dict[str, Architecture]
    snapshots: dict[str, PriceSnapshot]
    current_snapshot: str
    builds: tuple[BuildCost, ...]
    clouds: dict[str, CloudInstance]
    alias_index: dict[str, str] = Field(repr=False)

    def get(self, gpu_id: str) -> Gpu:
        try:
            return self.gpus[gpu_id]
        except KeyError:
            raise KeyError(f"unknown GPU id {gpu_id!r}") from None

    def ids(self) -> list[str]:
        return list(self.gpus)

    def architecture(self, gpu_id: str) -> Architecture:
        return self.architectures[self.get(gpu_id).architecture]

    def resolve(self, text: str) -> str | None:
        """A catalog id for what a person typed, or None when no card is a safe match."""
        key = normalize_name(text)
        if not key:
            return None
        if key in self.alias_index:
            return self.alias_index[key]
        signature = _variant_signature(key)
        if not signature[0]:
            return None
        candidates = _aliases_by_signature(self).get(signature, [])
        match = process.extractOne(key, candidates, scorer=fuzz.ratio, score_cutoff=FUZZY_CUTOFF)
        return self.alias_index[match[0]] if match else None

    def suggest(self, text: str, limit: int = 3) -> list[str]:
        """Close catalog ids for a name that did not resolve, for "did you mean ...?"."""
        key = normalize_name(text)
        if not key:
            return []
        found = process.extract(
            key, list(self.alias_index), scorer=fuzz.ratio, limit=limit * 8, score_cutoff=SUGGEST_CUTOFF
        )
        numbers = _variant_signature(key)[0]
        found.sort(key=lambda hit: (_variant_signature(hit[0])[0] != numbers, -hit[1]))  # same numbers first
        out: list[str] = []
        for alias, _, _ in found:
            gpu_id = self.alias_index[alias]
            if gpu_id not in out:
                out.append(gpu_id)
        return out[:limit]

    def snapshot(self, snapshot_id: str | None = None) -> PriceSnapshot:
        sid = snapshot_id or self.current_snapshot
        try:
            return self.snapshots[sid]
        except KeyError:
            raise KeyError(f"unknown price snapshot {sid!r}; known: {', '.join(self.snapshots)}") from None

    def price_entry(self, gpu_id: str, snapshot_id: str | None = None) -> PriceEntry | None:
        return self.snapshot(snapshot_id).prices.get(gpu_id)


_SIGNATURES: dict[int, tuple[Catalog, dict[tuple[tuple[str, ...], tuple[str, ...]], list[str]]]] = {}


def _aliases_by_signature(catalog: Catalog) -> dict[tuple[tuple[str, ...], tuple[str, ...]], list[str]]:
    """The catalog's aliases grouped by their variant signature, built once per catalog: a fuzzy match only
    weighs aliases with the same numbers and variant words, and reading every alias's signature again for each
    name was a tenth of the parser's time (issue #24)."""

    def build() -> dict[tuple[tuple[str, ...], tuple[str, ...]], list[str]]:
        groups: dict[tuple[tuple[str, ...], tuple[str, ...]], list[str]] = {}
        for alias in catalog.alias_index:
            groups.setdefault(_variant_signature(alias), []).append(alias)
        return groups

    return per_object(_SIGNATURES, catalog, build)


def _auto_aliases(gpu: Gpu) -> Iterable[str]:
    yield gpu.id
    yield gpu.name
    yield gpu.short_name
    yield from gpu.aliases


def _build_alias_index(path: Path, gpus: dict[str, Gpu]) -> dict[str, str]:
    index: dict[str, str] = {}
    for gpu in gpus.values():
        for alias in _auto_aliases(gpu):
            key = normalize_name(alias)
            if not key:
                continue
            owner = index.setdefault(key, gpu.id)
            if owner != gpu.id:
                raise DataError(f"{path}: entry {gpu.id!r}: field 'aliases': {alias!r} also names {owner!r}")
    return index


def _load_prices(directory: Path, gpus: dict[str, Gpu]) -> dict[str, PriceSnapshot]:
    """Every snapshot in ``prices/``. A market is a snapshot and the ones dated before it (engine.cost),
    so each file is named by its id, and its id is the month of its date ("2026-09" → September 2026)."""
    snapshots: dict[str, PriceSnapshot] = {}
    for path in sorted(directory.glob("*.yaml")):
        snap = validate_document(path, read_yaml(path), PriceSnapshot)
        for gpu_id in snap.prices:
            if gpu_id not in gpus:
                raise DataError(f"{path}: entry {gpu_id!r}: field 'prices': no such GPU in gpus.yaml")
        if snap.id != path.stem or snap.id != f"{snap.date:%Y-%m}":
            raise DataError(f"{path}: field 'id': {snap.id!r} must be the file's name and the month of 'date'")
        if snap.currency != "USD":  # quotes, rankings and conversions all start from USD (engine.cost)
            raise DataError(f"{path}: field 'currency': {snap.currency!r}: price snapshots are read in USD only")
        snapshots[snap.id] = snap
    if not snapshots:
        raise DataError(f"{directory}: no price snapshots")
    return snapshots


def load_catalog_from(directory: Path) -> Catalog:
    """Load and cross-check every data file under ``directory``; raises :class:`DataError`."""
    gpus_path = directory / "gpus.yaml"
    gpu_list = validate_entries(gpus_path, read_yaml(gpus_path), Gpu)
    gpus: dict[str, Gpu] = {}
    for gpu in gpu_list:
        if gpu.id in gpus:
            raise DataError(f"{gpus_path}: entry {gpu.id!r}: field 'id': duplicate id")
        gpus[gpu.id] = gpu

    arch_path = directory / "architectures.yaml"
    architectures = {a.id: a for a in validate_entries(arch_path, read_yaml(arch_path), Architecture)}
    for gpu in gpus.values():
        if gpu.architecture not in architectures:
            raise DataError(
                f"{gpus_path}: entry {gpu.id!r}: field 'architecture': {gpu.architecture!r} "
                f"is not in architectures.yaml"
            )
        if architectures[gpu.architecture].vendor != gpu.vendor:
            raise DataError(
                f"{gpus_path}: entry {gpu.id!r}: field 'vendor': {gpu.vendor!r} does not make "
                f"{architectures[gpu.architecture].name} GPUs"
            )

    builds_path = directory / "builds.yaml"
    builds = tuple(validate_entries(builds_path, read_yaml(builds_path), BuildCost, key="gpus"))

    clouds_path = directory / "clouds.yaml"
    clouds = {c.id: c for c in validate_entries(clouds_path, read_yaml(clouds_path), CloudInstance)}
    for cloud in clouds.values():
        if cloud.gpu not in gpus:
            raise DataError(f"{clouds_path}: entry {cloud.id!r}: field 'gpu': {cloud.gpu!r} is not in gpus.yaml")

    snapshots = _load_prices(directory / "prices", gpus)
    current = max(snapshots.values(), key=lambda s: s.date).id
    return Catalog(
        gpus=gpus,
        architectures=architectures,
        snapshots=snapshots,
        current_snapshot=current,
        builds=builds,
        clouds=clouds,
        alias_index=_build_alias_index(gpus_path, gpus),
    )


@cache
def load_catalog() -> Catalog:
    """The catalog from the installed data directory, loaded once per process."""
    return load_catalog_from(data_dir())
