"""The shapes of the facts in ``data/``: GPUs, architectures, prices, builds and clouds.

Every model is frozen, so the catalog loaded once at start-up can be shared by every request
without copying. Optional fields are ``None`` when the spec is unknown: the engine says a figure
is missing rather than inventing one.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Vendor = Literal["nvidia", "amd"]
GpuClass = Literal["consumer", "laptop", "workstation", "datacenter"]
FormFactor = Literal["pcie", "sxm", "oam", "mxm"]
Workload = Literal["train16", "infer16", "infer8"]
WORKLOADS: tuple[Workload, ...] = ("train16", "infer16", "infer8")


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class LaunchPrice(Frozen):
    usd: Decimal = Field(gt=0)
    date: dt.date
    source: str = Field(min_length=3)


class Gpu(Frozen):
    id: str = Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")
    name: str
    aliases: tuple[str, ...] = ()
    vendor: Vendor
    architecture: str
    release_year: int = Field(ge=2010, le=2030)
    gpu_class: GpuClass = Field(alias="class")
    form_factor: FormFactor = "pcie"

    memory_gb: float = Field(gt=0)
    memory_type: str
    memory_bus_bits: int | None = Field(default=None, gt=0)
    memory_data_rate_gbps: float | None = Field(default=None, gt=0, description="per pin")
    bandwidth_gbs: float = Field(gt=0)

    sm_count: int | None = Field(default=None, gt=0, description="SMs (NVIDIA) or CUs (AMD)")
    tensor_cores: int | None = Field(default=None, ge=0, description="0: none; AMD matrix cores count here")
    l2_mb: float | None = Field(default=None, gt=0)
    shared_mem_per_sm_kb: float | None = Field(default=None, gt=0)

    fp32_tflops: float | None = Field(default=None, gt=0, description="non-tensor FP32")
    fp16_tensor_tflops: float | None = Field(default=None, gt=0, description="dense, FP32 accumulate")
    fp16_tensor_tflops_fp16acc: float | None = Field(default=None, gt=0, description="dense, FP16 accumulate")
    half_rate_fp32_accumulate: bool = False
    fp8_tensor_tflops: float | None = Field(default=None, gt=0, description="dense, FP32 accumulate")
    int8_tensor_tops: float | None = Field(default=None, gt=0, description="dense")

    tdp_w: int = Field(gt=0)
    slot_width: float | None = Field(default=None, gt=0)
    pcie_gen: int | None = Field(default=None, ge=1, le=6)
    nvlink: bool = False
    launch_price: LaunchPrice | None = None
    sources: tuple[str, ...] = Field(min_length=1)
    notes: str | None = None

    @property
    def has_tensor_cores(self) -> bool:
        return bool(self.tensor_cores)

    @property
    def short_name(self) -> str:
        """The name without the brand prefix, as people say it: "RTX 4090", "A100 80GB SXM"."""
        for prefix in ("NVIDIA GeForce ", "GeForce ", "NVIDIA ", "AMD Radeon ", "AMD Instinct ", "AMD "):
            if self.name.startswith(prefix):
                return self.name[len(prefix) :]
        return self.name


class Latencies(Frozen):
    """Cycle counts of one edition's latency table (guide §2); ``estimate`` marks values the guide lacks."""

    global_memory: int
    l2: int | None = None
    shared: int
    ffma: int
    tensor_core: int
    estimate: bool = False
    basis: str


class Features(Frozen):
    tensor_core_generation: int = Field(ge=0)
    async_copy: bool
    tma: bool
    fp8: bool
    sparsity_2_4: bool
    bf16: bool
    tf32: bool


class ArchFactor(Frozen):
    """A multiplicative speed factor with the range the guide gives and why this value was chosen."""

    value: float = Field(gt=0)
    low: float | None = None
    high: float | None = None
    basis: str


class Architecture(Frozen):
    id: str
    name: str
    vendor: Vendor
    year: int
    features: Features
    latencies: dict[Literal["2023", "2020"], Latencies]
    shared_mem_per_sm_kb: float | None = None
    l2_mb: float | None = None
    shared_memory_gain: ArchFactor
    tensor_core_gain: ArchFactor
    sources: tuple[str, ...] = Field(min_length=1)


class PriceEntry(Frozen):
    new: Decimal | None = Field(default=None, gt=0)
    used: Decimal | None = Field(default=None, gt=0)
    source: str | None = None

    @model_validator(mode="after")
    def _one_price(self) -> PriceEntry:
        if self.new is None and self.used is None:
            raise ValueError("a price entry needs 'new' or 'used'")
        return self


class PriceSnapshot(Frozen):
    """Street prices of one month, in one currency, with where they came from."""

    id: str
    date: dt.date
    currency: str = Field(pattern=r"^[A-Z]{3}$")
    description: str
    sources: tuple[str, ...] = Field(min_length=1)
    prices: dict[str, PriceEntry]


class BuildCost(Frozen):
    gpus: int = Field(gt=0)
    usd: Decimal = Field(gt=0)
    description: str
    date: dt.date
    source: str


class CloudInstance(Frozen):
    id: str
    provider: str
    name: str
    gpu: str
    gpu_count: int = Field(default=1, gt=0)
    on_demand_usd_per_hour: Decimal | None = Field(default=None, gt=0)
    spot_usd_per_hour: Decimal | None = Field(default=None, gt=0)
    date: dt.date
    source: str
    historical: bool = False
