"""The Query: the whole question, and the one contract between every front end and the advisor.

Whatever way a question arrives (free text, a slash command, a terminal flag, a button), it becomes
a ``Query``, and ``engine.advise(query, context)`` is the only door to an answer: a can-run's mode,
precision and context length, a break-even's own desktop cost and cloud price, the card a spec card
describes and the cycle example's edition are fields here, never extra arguments beside it. So an
answer is a function of (query, context) alone, and a query written into a button rebuilds it.

A Query validates itself against one table of bounds (``BOUNDS``), so chat, slash commands and the
terminal accept exactly the same values; constructing one with a value out of range, an unknown GPU
or precision raises ``engine.errors.UserError`` with a message key per field, never a pydantic dump.
Fields follow ``questions/README.md``; ``None`` means "not stated", never "zero".
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal
from typing import Annotated, Any, Literal, NamedTuple, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from engine.catalog import load_catalog
from engine.cycles import Edition
from engine.errors import UserError, listed
from engine.message import Msg, msg
from engine.money import Money, exchange_rates
from engine.specs import WORKLOADS, Workload

Kind = Literal["recommend", "compare", "can_run", "cloud_vs_buy", "power", "explain", "info", "cycles", "other"]
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
Mode = Literal["inference", "full_finetune", "lora", "qlora", "pretrain"]  # what a can-run question runs
# "upgrade": a step up from the one card named, the user's own ("I have a 3060, what should I upgrade to?")
Objective = Literal["best_value", "cheapest", "fastest", "upgrade"]  # append only: engine.codec encodes by index
Vendor = Literal["nvidia", "amd", "intel", "apple", "huawei"]  # append only: engine.codec encodes by index
# A cloud provider named in a rent question ("which GPU on RunPod for SDXL LoRA?"): the offers the answer weighs.
# The slugs of data/clouds.yaml's providers (engine.advisor.PROVIDER_NAMES); append only: engine.codec encodes by index
Provider = Literal["aws", "azure", "gcp", "lambda", "runpod", "vast", "nebius", "verda", "autodl", "tencent"]
KINDS: tuple[Kind, ...] = get_args(Kind)
TASKS: tuple[Task, ...] = get_args(Task)
MODES: tuple[Mode, ...] = get_args(Mode)


class Bound(NamedTuple):
    """Accepted values: ``low`` ≤ value ≤ ``high`` (``low`` < value when ``low_open``); for text
    and lists, their length."""

    low: int | Decimal
    high: int | Decimal
    low_open: bool = False

    def field(self) -> dict[str, Any]:
        """The pydantic constraints for a number."""
        return {"gt" if self.low_open else "ge": self.low, "le": self.high}

    def error(self, name: str) -> UserError:
        return UserError(f"error.bound.{name}", min=self.low, max=self.high)


# Every bound on a question, in one place: the fields below are constrained by it and front ends take their
# option ranges from it. Counts reach 4,096 and budgets 10^10 in any currency (₩15,000,000 is a normal
# budget) because chat questions name clusters ("200 H100s"); a power answer says it sizes one machine.
BOUNDS: dict[str, Bound] = {
    "budget": Bound(0, 10_000_000_000, low_open=True),  # amount, in the budget's own currency
    "min_memory_gb": Bound(0, 4096, low_open=True),
    "vram_need_gb": Bound(0, 4096, low_open=True),
    "hours_per_day": Bound(0, 24),
    "num_gpus": Bound(1, 4096),
    "gpu_counts": Bound(1, 4096),  # each entry
    "gpus": Bound(0, 4),  # entries (gpu_counts has at most as many)
    "model": Bound(1, 100),  # characters, stripped
    "topic": Bound(1, 40),  # characters
    "precision": Bound(1, 20),  # characters
    "power_limit_w": Bound(1, 2000),
    "psu_w": Bound(100, 5000),
    "context_tokens": Bound(128, 10_000_000),
    "desktop_usd": Bound(1, 10_000_000),
    "cloud_usd_per_hour": Bound(Decimal("0.01"), 10_000),
    "cloud_usd_per_month": Bound(Decimal("0.01"), 10_000_000),
    "deadline_hours": Bound(0, 87_600, low_open=True),
    "electricity_usd_per_kwh": Bound(0, 100),
}
# Several bare model sizes asked together travel in Query.model joined by this ("7B/13B/70B"; engine.canrun)
SIZES_JOIN = "/"
MODEL_TEXT_BYTES = 13  # of a model name the catalog does not know: what a button can carry (engine.codec)
# The guide's explanations a question may name (data/explain.yaml has one entry per topic; engine.explain
# re-exports this). Kept here, beside the other choices, so that naming a topic needs no explanations.
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
    "memory_estimate",
)
CHOICES: dict[str, tuple[str, ...]] = {
    "kind": KINDS,
    "task": TASKS,
    "condition": get_args(Condition),
    "workload": WORKLOADS,
    "mode": MODES,
    "edition": get_args(Edition),
    "objective": get_args(Objective),
    "vendor": get_args(Vendor),
    "provider": get_args(Provider),
}


def _length(name: str) -> dict[str, Any]:
    return {"max_length": int(BOUNDS[name].high)}


Count = Annotated[int, Field(**BOUNDS["gpu_counts"].field())]


class Query(BaseModel):
    """A question, structured: everything an answer depends on besides the server's context.

    Built by ``engine.parse`` from text, by front ends from options and flags, by ``decode`` from a
    button; answered by ``engine.advise`` alone. Raises ``UserError`` when a value is not accepted.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Kind = "other"
    task: Task | None = None
    budget: Money | None = None
    min_memory_gb: float | None = Field(default=None, **BOUNDS["min_memory_gb"].field())
    hours_per_day: float | None = Field(default=None, **BOUNDS["hours_per_day"].field())
    num_gpus: int | None = Field(default=None, **BOUNDS["num_gpus"].field())
    gpus: tuple[str, ...] = Field(
        default=(), description="catalog ids; a name that resolves is read as its id", **_length("gpus")
    )
    gpu_counts: tuple[Count, ...] = Field(
        default=(), description="per entry of gpus when stated ('2x 3090')", **_length("gpus")
    )
    condition: Condition | None = None
    cloud_interest: bool | None = None
    model: str | None = Field(
        default=None, description="model named in a can-run question, as typed", **_length("model")
    )
    workload: Workload | None = Field(default=None, description="metric asked for explicitly ('8-bit inference')")
    organization: bool | None = Field(default=None, description="a lab, company or cluster rather than one person")
    topic: str | None = Field(default=None, description="explain: which of the guide's answers", **_length("topic"))
    power_limit_w: int | None = Field(default=None, **BOUNDS["power_limit_w"].field())
    # can_run: what to check (None: the engine chooses, as for a chat question)
    mode: Mode | None = None
    precision: str | None = Field(
        default=None, description="a precision name, read as its canonical form", **_length("precision")
    )
    context_tokens: int | None = Field(default=None, **BOUNDS["context_tokens"].field())
    # cloud_vs_buy: the user's own figures (None: priced from the catalog and the cloud data)
    desktop_usd: Decimal | None = Field(default=None, **BOUNDS["desktop_usd"].field())
    cloud_usd_per_hour: Decimal | None = Field(
        default=None, description="per GPU-hour", **BOUNDS["cloud_usd_per_hour"].field()
    )
    electricity_usd_per_kwh: Decimal | None = Field(
        default=None, description="None: the server's setting", **BOUNDS["electricity_usd_per_kwh"].field()
    )
    # cycles: which of the guide's worked examples (None: 2023, with Tensor Cores, without TMA)
    edition: Edition | None = None
    tensor_cores: bool | None = None
    tma: bool | None = None
    # recommend: what "best" means to the user (None: with a budget, the strongest setup it buys; without,
    # the best value), and a vendor they opted into (None: NVIDIA leads, as the guide advises)
    objective: Objective | None = None
    vendor: Vendor | None = None
    # can_run: the user has no GPU ("没显卡", "CPU only"): the model runs from system RAM on the CPU
    cpu_only: bool | None = None
    # power: the user's own PSU ("is my 750W PSU enough?"), judged before the guide's sizing
    psu_w: int | None = Field(default=None, description="watts", **BOUNDS["psu_w"].field())
    # can_run: the user reports running out of memory ("OOM on my 3090", "爆显存") — what they ran did not fit
    ran_out: bool | None = None
    # cloud_vs_buy: the provider the user rents from or asks about ("on RunPod"): its offers are the answer's
    provider: Provider | None = None
    # can_run: the user asks about offloading layers to system RAM ("with offloading", "-ngl", "卸载到内存"): said first
    offload: bool | None = None
    # can_run: a memory need the user quotes ("it requires 24 GB: will it run in 16 GB?", "README里写了要19g"), weighed
    # against their card or memory size; min_memory_gb stays what they have
    vram_need_gb: float | None = Field(default=None, **BOUNDS["vram_need_gb"].field())
    # cloud_vs_buy: what the user spends renting a month ("I spend $300 a month on RunPod"), in dollars: the hours it
    # buys at the rate the answer weighs, in place of the guide's assumed 15 %
    cloud_usd_per_month: Decimal | None = Field(default=None, **BOUNDS["cloud_usd_per_month"].field())
    # can_run: the time a training run must fit in ("train a 7B from scratch in a week": 168 h), in hours
    deadline_hours: float | None = Field(default=None, **BOUNDS["deadline_hours"].field())

    def __init__(self, **data: Any) -> None:
        """Validate, turning what pydantic rejects into the one error front ends catch."""
        try:
            super().__init__(**data)
        except ValidationError as exc:
            raise user_error(exc) from exc

    @field_validator("model", "topic", "precision", mode="before")
    @classmethod
    def _stripped(cls, value: object) -> object:
        return (value.strip() or None) if isinstance(value, str) else value

    @field_validator("budget")
    @classmethod
    def _budget_in_bounds(cls, value: Money | None) -> Money | None:
        """In bounds, and to the currency's minor unit (a cent of a budget changes no answer)."""
        bound = BOUNDS["budget"]
        if value is not None and not bound.low < value.amount <= bound.high:
            raise bound.error("budget")
        if value is None:
            return None
        if value.rounded().amount <= 0:
            raise bound.error("budget")
        return value.rounded()

    @field_validator("min_memory_gb", "vram_need_gb", "hours_per_day", "deadline_hours")
    @classmethod
    def _hundredths(cls, value: float | None, info: Any) -> float | None:
        """To 0.01 GB or hour: finer figures change no answer, and a button carries the figure exactly."""
        if value is None:
            return None
        rounded = round(value, 2)
        if info.field_name in ("min_memory_gb", "vram_need_gb", "deadline_hours") and rounded <= 0:
            raise BOUNDS[info.field_name].error(info.field_name)
        return rounded

    @field_validator("psu_w")
    @classmethod
    def _tens_of_watts(cls, value: int | None) -> int | None:
        """To 10 W: PSUs are sold in steps of 50 W or more, and a button carries the figure exactly."""
        return None if value is None else int(Decimal(value).quantize(Decimal("1E1"), rounding=ROUND_HALF_UP))

    @field_validator("desktop_usd", "cloud_usd_per_hour", "electricity_usd_per_kwh", "cloud_usd_per_month")
    @classmethod
    def _decimal_places(cls, value: Decimal | None, info: Any) -> Decimal | None:
        """Dollars to the cent; hourly and kWh prices to a hundredth of a cent."""
        if value is None:
            return None
        step = Decimal("0.01") if info.field_name in ("desktop_usd", "cloud_usd_per_month") else Decimal("0.0001")
        return value.quantize(step, rounding=ROUND_HALF_UP)

    @field_validator("model")
    @classmethod
    def _model_id(cls, value: str | None) -> str | None:
        """A model the catalog knows is read as its id; an unknown name keeps its first
        ``MODEL_TEXT_BYTES`` bytes, all that an answer shows of it ("I don't know the model …")."""
        if value is None:
            return None
        from engine.model_specs import load_model_catalog  # engine.model_specs loads a data file

        catalog = load_model_catalog()
        known = catalog.resolve(value)
        if known is not None:
            return known
        kept = _cut_name(value)
        # A cut name may name a model the whole did not ("70B" and noise): read as that model, as a button's
        # round trip through this validator would read it; else the cut is shown where it leaves room
        # ("Real-Time-Voice-Cloning" → "Real-Time…", not a name the user never typed)
        if kept == value:
            return kept
        return catalog.resolve(kept) or _shown_cut(kept)

    @field_validator("gpus")
    @classmethod
    def _catalog_ids(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        """Catalog ids; what a person typed ("3090") is read as the card it names, or refused."""
        catalog = load_catalog()
        return tuple(g if g in catalog.gpus else _resolved(g) for g in value)

    @field_validator("precision")
    @classmethod
    def _known_precision(cls, value: str | None) -> str | None:
        if value is None:
            return None
        from engine.memory import PRECISIONS, get_precision  # engine.memory imports this module

        try:
            return get_precision(value).name
        except ValueError:
            raise UserError("error.unknown_precision", name=value, known=listed(tuple(PRECISIONS))) from None

    @field_validator("topic")
    @classmethod
    def _known_topic(cls, value: str | None) -> str | None:
        if value is not None and value not in TOPICS:
            raise UserError("error.unknown_topic", name=value, known=listed(TOPICS))
        return value

    @model_validator(mode="after")
    def _answerable(self) -> Query:
        if self.edition == "2020" and self.tma:
            raise UserError("error.cycles.tma_2020")
        if self.mode is not None and self.precision is not None:
            from engine.memory import precision_suits  # engine.memory imports this module

            if not precision_suits(self.mode, self.precision):
                raise UserError("error.precision_for_mode", mode=self.mode, precision=self.precision)
        return self

    def budget_usd(self) -> Decimal | None:
        """The budget in US dollars at the dated rates; None without a budget or a rate for its currency."""
        if self.budget is None:
            return None
        try:
            return exchange_rates().convert(self.budget, "USD").amount
        except ValueError:
            return None

    def merged(self, newer: Query) -> Query:
        """A follow-up refines this query: fields the newer one states win, the rest carry over — except a carried
        mode or precision the newer one's other does not run at ("INT8" asked before, "全量微调" now), which goes."""
        from engine.memory import precision_suits  # engine.memory imports this module

        stated = newer.model_dump(exclude_unset=True)
        out = self.model_copy(update={k: getattr(newer, k) for k in stated})
        if out.mode is not None and out.precision is not None and not precision_suits(out.mode, out.precision):
            out = out.model_copy(update={"precision": None} if "mode" in stated else {"mode": None})
        return out


_TRAILING_SEPARATORS = re.compile(r"[\s\-_.]+$")
_CUT = "…"  # marks an unknown model's name cut to what a button holds


def _cut_name(value: str) -> str:
    """An unknown model's name in the first ``MODEL_TEXT_BYTES`` bytes a button holds: whole when it fits;
    else ended where a part of it ends ("index-tts-vllm" → "index-tts", no separator left trailing, which a
    round trip would strip; the Query shows that cut too where there is room: "index-tts…"), or with the cut
    shown ("visual-chatgpt" → "visual-cha…")."""
    kept = value.encode()[:MODEL_TEXT_BYTES].decode(errors="ignore").strip() or value
    if len(kept) == len(value):
        return kept
    cut = max(kept.rfind(c) for c in " -_.")
    if cut > 0 and any(c in kept[:cut] for c in " -_."):
        return _TRAILING_SEPARATORS.sub("", kept[:cut]) or kept[:cut]
    room = value.encode()[: MODEL_TEXT_BYTES - len(_CUT.encode())].decode(errors="ignore")
    return (_TRAILING_SEPARATORS.sub("", room) or room) + _CUT


def _shown_cut(kept: str) -> str:
    """A name cut where a part ends, with the cut shown when the button has room for the mark."""
    if kept.endswith(_CUT) or len(kept.encode()) + len(_CUT.encode()) > MODEL_TEXT_BYTES:
        return kept
    return kept + _CUT


def _resolved(text: str) -> str:
    found = load_catalog().resolve(text)
    if found is None:
        raise unknown_gpu(text)
    return found


def unknown_gpu(typed: str, shown: str | None = None) -> UserError:
    """'I don't know the GPU “…”. Did you mean …?' with the catalog's closest cards: the one wording for
    Query, slash commands, chat and the terminal (``shown``: the name as it may safely be displayed)."""
    catalog = load_catalog()
    close = [catalog.get(g).short_name for g in catalog.suggest(typed)]
    hint = msg("error.did_you_mean", names=listed(close)) if close else None
    return UserError("error.unknown_gpu", name=typed if shown is None else shown, hint=hint)


_BOUND_ERRORS = {
    "greater_than",
    "greater_than_equal",
    "less_than",
    "less_than_equal",
    "too_long",
    "too_short",
    "string_too_long",
    "string_too_short",
    "finite_number",
}


def user_error(exc: ValidationError) -> UserError:
    """What was wrong with a question, as the message a user reads: the first rejected field's bound,
    choices or "not valid" (a UserError raised by a validator comes through as it was)."""
    first = exc.errors()[0]
    if isinstance(error := (first.get("ctx") or {}).get("error"), UserError):
        return error
    field = str(first["loc"][0]) if first["loc"] else ""
    kind = first["type"]
    if kind == "too_long" and field in ("gpus", "gpu_counts"):
        return BOUNDS["gpus"].error("gpus")
    if field in BOUNDS and (kind in _BOUND_ERRORS or kind.endswith(("_parsing", "_type"))):
        return BOUNDS[field].error(field)  # a number out of range, or not a number: say what is accepted
    if kind in ("literal_error", "enum") and field in CHOICES:
        return UserError("error.choice", field=field, choices=listed(CHOICES[field]))
    return UserError("error.invalid", field=field)


class ParseResult(BaseModel):
    """What the parser read, and what it could not: the bot asks about ``missing`` and says ``notes``."""

    model_config = ConfigDict(frozen=True)

    query: Query
    language: Literal["en", "zh-Hant", "zh-Hans"] = "en"
    missing: tuple[Literal["kind", "task", "budget", "gpu", "model"], ...] = ()
    kind_choices: tuple[Kind, ...] = Field(
        default=(),
        description="the likeliest kinds, best first, when the parser is unsure of the kind ('kind' in missing)",
    )
    uncertain: tuple[str, ...] = Field(default=(), description="fields the parser guessed")
    unknown_gpus: tuple[str, ...] = Field(default=(), description="GPU-like names that matched no catalog card")
    notes: tuple[Msg, ...] = Field(default=(), description="what the user should know, e.g. an ignored budget")
