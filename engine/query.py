"""The Query: the one contract between the parser, slash-command options and the advisor.

Whatever way a question arrives (free text, a slash command, a terminal flag), it becomes a
``Query``; the advisor never sees raw text. Fields follow ``questions/README.md``.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.money import Money, exchange_rates
from engine.specs import Workload

Kind = Literal["recommend", "compare", "can_run", "cloud_vs_buy", "power", "explain", "other"]
Task = Literal[
    "kaggle",
    "learning",
    "llm_inference",
    "llm_finetune",
    "llm_pretrain",
    "image_generation",
    "computer_vision",
    "nlp",
    "rl",
    "research",
    "other",
]
Condition = Literal["new", "used"]
KINDS: tuple[Kind, ...] = ("recommend", "compare", "can_run", "cloud_vs_buy", "power", "explain", "other")
TASKS: tuple[Task, ...] = (
    "kaggle",
    "learning",
    "llm_inference",
    "llm_finetune",
    "llm_pretrain",
    "image_generation",
    "computer_vision",
    "nlp",
    "rl",
    "research",
    "other",
)


class Query(BaseModel):
    """A question, structured. ``None`` means "not stated", never "zero"."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Kind = "other"
    task: Task | None = None
    budget: Money | None = None
    min_memory_gb: float | None = Field(default=None, gt=0, le=4096)
    hours_per_day: float | None = Field(default=None, ge=0, le=24)
    num_gpus: int | None = Field(default=None, ge=1, le=4096)
    gpus: tuple[str, ...] = ()
    gpu_counts: tuple[int, ...] = Field(default=(), description="per entry of gpus when stated ('2x 3090')")
    condition: Condition | None = None
    cloud_interest: bool | None = None
    model: str | None = Field(default=None, description="model named in a can-run question, as typed")
    workload: Workload | None = Field(default=None, description="metric asked for explicitly ('8-bit inference')")
    organization: bool | None = Field(default=None, description="a lab, company or cluster rather than one person")
    topic: str | None = Field(default=None, description="explain: which of the guide's answers")
    power_limit_w: int | None = Field(default=None, gt=0, le=2000)

    def budget_usd(self) -> Decimal | None:
        """The budget in US dollars at the dated rates; None without a budget or a rate for its currency."""
        if self.budget is None:
            return None
        try:
            return exchange_rates().convert(self.budget, "USD").amount
        except ValueError:
            return None

    def merged(self, newer: Query) -> Query:
        """A follow-up refines this query: fields the newer one states win, the rest carry over."""
        stated = newer.model_dump(exclude_unset=True)
        return self.model_copy(update={k: getattr(newer, k) for k in stated})


class ParseResult(BaseModel):
    """What the parser read, and what it could not: the bot asks about ``missing`` and says ``notes``."""

    model_config = ConfigDict(frozen=True)

    query: Query
    language: Literal["en", "zh-Hant", "zh-Hans"] = "en"
    missing: tuple[Literal["task", "budget", "gpu", "model"], ...] = ()
    uncertain: tuple[str, ...] = Field(default=(), description="fields the parser guessed")
    unknown_gpus: tuple[str, ...] = Field(default=(), description="GPU-like names that matched no catalog card")
    notes: tuple[str, ...] = Field(default=(), description="short messages for the user, e.g. 'ignored budget -500'")
