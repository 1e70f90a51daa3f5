"""The Answer: plain data the advisor returns and every front end renders.

An answer carries its own evidence: the figures, the rules of the guide that fired, the price
date and source, and what the user could add to sharpen it. Renderers (Discord embeds, terminal
text, charts) only format; they never compute a number.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Literal

from pydantic import Field

from engine.canrun import CanRunReport, TimeEstimate
from engine.cloud import BreakEven
from engine.cost import PriceQuote
from engine.cycles import CycleBreakdown
from engine.message import Frozen, Msg
from engine.money import Money
from engine.performance import RelativeSpeed
from engine.power import PowerPlan
from engine.query import Kind, Query
from engine.specs import Gpu, Workload


class Rule(Frozen):
    """A rule of the guide that shaped the answer, and where the guide says it."""

    id: str
    text: Msg
    source: str = ""  # a citation (a title or URL), shown as written in every language


class Option(Frozen):
    """One recommended system: ``gpu_count`` × a GPU, with its figures."""

    gpu_id: str
    name: str
    gpu_count: int
    memory_gb: float
    workload: Workload
    speed_vs_reference: float
    reference_id: str
    perf_per_kusd: float
    value_vs_best: float
    price: PriceQuote
    gpus_usd: Decimal
    system_usd: Decimal
    gpus_local: Money | None = None
    reasons: tuple[Msg, ...] = ()
    caveats: tuple[Msg, ...] = ()


class FollowUp(Frozen):
    """One short question the bot asks back, with ready-made choices."""

    field: Literal["task", "budget", "gpu", "model", "kind"]
    question: Msg
    choices: tuple[tuple[str, Msg], ...]  # (value, label)


class CompareRow(Frozen):
    """One workload across the compared setups: ``speeds`` of each relative to the first (whose
    speed is 1.0); ``ratio`` and ``detail`` are the first against the second, with both breakdowns."""

    workload: Workload
    ratio: float
    detail: RelativeSpeed
    speeds: tuple[float, ...] = ()


class Comparison(Frozen):
    """Up to four setups (count × card) side by side, each tuple in the order the user named them,
    and ``verdict``: the pick for the user's workload and memory need (``pick`` its index)."""

    gpu_ids: tuple[str, ...]
    counts: tuple[int, ...]
    rows: tuple[CompareRow, ...]
    memory_gb: tuple[float, ...]
    bandwidth_gbs: tuple[float, ...]
    tdp_w: tuple[int, ...]
    prices: tuple[PriceQuote | None, ...]
    perf_per_kusd: tuple[float | None, ...]
    workload: Workload
    verdict: Msg | None = None
    pick: int | None = None


class RunCost(Frozen):
    """What one fine-tuning run of a named LLM costs on a rented GPU: the run's hours on that card (the
    cycle model of engine.canrun.training_time, for ``time.tokens`` tokens) times its hourly price."""

    model: Msg | str
    mode: str
    time: TimeEstimate
    hourly_usd: Decimal
    usd_low: Decimal
    usd_high: Decimal


class Rental(Frozen):
    """A cloud GPU to rent, priced per GPU-hour and per hour of work: ``usd_per_reference_hour`` is
    what an hour of the reference card's work costs on it (its $/GPU-hour over its relative speed),
    which is how a run is priced — a faster card that costs more an hour can be cheaper per run."""

    gpu_id: str
    name: str
    memory_gb: float
    provider: str
    instance: str
    on_demand_usd_per_hour: Decimal | None
    spot_usd_per_hour: Decimal | None
    speed_vs_reference: float
    usd_per_reference_hour: Decimal
    date: dt.date
    source: str
    run: RunCost | None = None  # a named LLM's fine-tune asked about: one run of it on this card


class Wording(Frozen):
    """An explanation's words in one language (figures already filled in by the engine)."""

    title: str
    text: str
    figures: tuple[str, ...]


class Explanation(Frozen):
    topic: str
    title: str
    text: str
    figures: tuple[str, ...]
    source: str
    translations: dict[str, Wording] = Field(default_factory=dict)

    def wording(self, lang: str) -> Wording:
        """The words in ``lang`` when the guide's answer has them, else English."""
        return self.translations.get(lang) or Wording(title=self.title, text=self.text, figures=self.figures)


class Answer(Frozen):
    kind: Kind
    query: Query
    headline: Msg
    options: tuple[Option, ...] = ()
    alternatives: tuple[Option, ...] = ()
    rules: tuple[Rule, ...] = ()
    caveats: tuple[Msg, ...] = ()
    suggestions: tuple[Msg, ...] = ()
    follow_up: FollowUp | None = None
    price_date: dt.date | None = None
    price_source: str | None = None
    comparison: Comparison | None = None
    break_even: BreakEven | None = None
    power: PowerPlan | None = None
    explanation: Explanation | None = None
    cycles: CycleBreakdown | None = None
    spec: Gpu | None = None
    can_run: CanRunReport | None = None
    rentals: tuple[Rental, ...] = ()
    notes: tuple[Msg, ...] = ()
