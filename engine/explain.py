"""The guide's answers to common questions, with their numbers computed by the engine.

Texts live in ``data/explain.yaml``; figures in braces are filled from the cycle, performance and
cloud models, so the explanation and the models can never disagree.
"""

from __future__ import annotations

from functools import cache

from pydantic import BaseModel, ConfigDict, Field

from engine.answer import Explanation, Wording
from engine.cloud import guide_example
from engine.cycles import worked_example
from engine.datafiles import data_dir, read_yaml, validate_entries

STAND_IN = "generic-7b"  # the model the memory explanation works through


class _Words(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    title: str
    text: str
    figures: tuple[str, ...]


class _Entry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    topic: str
    title: str
    text: str
    figures: tuple[str, ...]
    source: str
    zh_hant: _Words | None = Field(default=None, alias="zh-Hant")
    zh_hans: _Words | None = Field(default=None, alias="zh-Hans")


@cache
def _entries() -> dict[str, _Entry]:
    path = data_dir() / "explain.yaml"
    return {e.topic: e for e in validate_entries(path, read_yaml(path), _Entry, key="topic")}


@cache
def _figures() -> dict[str, float]:
    cloud = guide_example()
    ffma, tc, tma = (
        worked_example("2023", False).total,
        worked_example("2023", True).total,
        worked_example("2023", True, tma=True).total,
    )
    return {
        "cycles_ffma": ffma,
        "cycles_tc": tc,
        "cycles_tma": tma,
        "tc_speedup": ffma / tc,
        "a100_v100": 1555 / 900,
        "kwh": cloud.kwh_per_year,
        "elec": cloud.electricity_cost_per_year,
        "days": cloud.days or 0.0,
        **_seven_b(),
    }


def _seven_b() -> dict[str, float]:
    """What a 7B model takes on one GPU in each mode (GB per GPU, as can-run answers show it), for the
    explanation of how GPU memory is estimated: the same model the can-run answers use."""
    from engine.memory import estimate  # the memory model loads the model catalog: only when explained

    return {
        "inf_bf16": estimate(STAND_IN, "inference", "bf16").per_gpu_gib,
        "inf_q4": estimate(STAND_IN, "inference", "q4_k_m").per_gpu_gib,
        "lora": estimate(STAND_IN, "lora", "bf16").per_gpu_gib,
        "qlora": estimate(STAND_IN, "qlora", "nf4").per_gpu_gib,
        "full": estimate(STAND_IN, "full_finetune", "bf16").per_gpu_gib,
    }


def topics() -> tuple[str, ...]:
    return tuple(_entries())


def explain(topic: str | None) -> Explanation:
    """The guide's answer on ``topic``; unknown or missing topics get the overview of what matters."""
    entries = _entries()
    key = topic or "tensor_cores"
    if key not in entries:
        raise KeyError(f"unknown topic {topic!r}; known: {', '.join(entries)}")
    entry = entries[key]
    values = _figures()

    def filled(words: _Words | _Entry) -> Wording:
        return Wording(
            title=words.title,
            text=words.text.format(**values),
            figures=tuple(f.format(**values) for f in words.figures),
        )

    english = filled(entry)
    translations = {
        lang: filled(words)
        for lang, words in (("zh-Hant", entry.zh_hant), ("zh-Hans", entry.zh_hans))
        if words is not None
    }
    return Explanation(
        topic=entry.topic,
        title=english.title,
        text=english.text,
        figures=english.figures,
        source=entry.source,
        translations=translations,
    )
