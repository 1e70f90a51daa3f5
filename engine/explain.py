"""The guide's answers to common questions, with their numbers computed by the engine.

Texts live in ``data/explain.yaml``; figures in braces are filled from the cycle, performance and
cloud models, so the explanation and the models can never disagree.
"""

from __future__ import annotations

from functools import cache

from pydantic import BaseModel, ConfigDict

from engine.answer import Explanation
from engine.cloud import guide_example
from engine.cycles import worked_example
from engine.datafiles import data_dir, read_yaml, validate_entries

TOPICS = (
    "tensor_cores",
    "memory_bandwidth",
    "cache",
    "tma",
    "precision",
    "sparsity",
    "pcie",
    "nvlink",
    "amd",
    "cloud_vs_desktop",
    "next_generation",
    "carbon",
    "cpu",
    "cooling",
    "multi_gpu",
)


class _Entry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    topic: str
    title: str
    text: str
    figures: tuple[str, ...]
    source: str


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
    return Explanation(
        topic=entry.topic,
        title=entry.title,
        text=entry.text.format(**values),
        figures=tuple(f.format(**values) for f in entry.figures),
        source=entry.source,
    )
