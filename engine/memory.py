"""How much GPU memory a task needs: the guide's floors per task (guide §6).

The 2023 edition gives floors for image generation (12 GB) and transformers (24 GB); the 2020
edition for Kaggle, prototyping, computer vision and transformers. The advisor uses the newest
edition that names a task and says which one it used.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from engine.query import Task

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
