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

# Appended at the end only: engine.codec encodes engine.query.Vendor's choices by index (same list there).
Vendor = Literal["nvidia", "amd", "intel", "apple", "huawei"]
# The catalog's vendors: engine.query's (the ones a user opts into) and the Chinese accelerators people ask
# about by name only (Moore Threads, Cambricon, Hygon), which no button or codec encodes.
CatalogVendor = Literal["nvidia", "amd", "intel", "apple", "huawei", "moore_threads", "cambricon", "hygon"]
GpuClass = Literal["consumer", "laptop", "workstation", "datacenter", "embedded"]
# The physical part: a PCIe card, a server module (SXM, OAM), a laptop chip (mxm: the convention for
# every laptop part, soldered or not), a system-on-chip sharing memory with the CPU (Apple M-series,
# GB10, Strix Halo), or a compute module on a carrier board (Jetson). Huawei's Ascend 910B server modules
# are "oam", the nearest form (their entries say so).
FormFactor = Literal["pcie", "sxm", "oam", "mxm", "soc", "module"]
# Where the GPU lives, as a buyer thinks of it. Defaults from the class (laptop → laptop,
# datacenter → server, embedded → embedded, else desktop); unified-memory parts say so.
Platform = Literal["desktop", "laptop", "server", "embedded", "unified_memory"]
# The reference board's power input: none (slot power only), PCIe 6-pin / 8-pin / one of each,
# NVIDIA's 30-series 12-pin, the 16-pin 12VHPWR and its 12V-2x6 revision, an 8-pin EPS12V (CPU-style)
# input on data-centre cards, or through the board (SXM/OAM modules, SoCs).
PowerConnector = Literal["none", "6pin", "8pin", "6pin+8pin", "12pin", "12vhpwr", "12v-2x6", "eps12v", "board"]
Cooling = Literal["open_air", "blower", "passive", "liquid", "laptop", "integrated"]
PyTorchSupport = Literal["current", "legacy", "dropped", "community", "vendor", "none"]
RocmSupport = Literal["official", "community", "dropped", "none"]
# "decode": batch-1 LLM token generation (local chat), bandwidth-bound; not one of the guide's three.
Workload = Literal["train16", "infer16", "infer8", "decode"]
WORKLOADS: tuple[Workload, ...] = ("train16", "infer16", "infer8", "decode")


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class LaunchPrice(Frozen):
    usd: Decimal = Field(gt=0)
    date: dt.date
    source: str = Field(min_length=3)


class Software(Frozen):
    """What runs on a GPU today (the sources of each status: architectures.yaml ``software_sources``).

    ``pytorch``: ``current`` — today's default PyTorch wheels (CUDA 13 on PyPI, ROCm, XPU or MPS)
    run it; ``legacy`` — only PyTorch's legacy CUDA 12.6 build (Maxwell, Pascal, Volta), which
    PyTorch plans to drop; ``dropped`` — no current official build (``pytorch_last`` names the last release
    whose official builds ran it, ``pytorch_last_cuda`` the newest CUDA those builds used);
    ``community`` — runs only with an override or community builds; ``vendor`` — the vendor's own
    builds (Jetson: NVIDIA's JetPack wheels; Huawei Ascend: the torch_npu plugin on CANN); ``none`` — no
    PyTorch GPU backend. ``npu``: a Huawei Ascend NPU, which runs no CUDA (PyTorch through torch_npu on
    Huawei's CANN stack).
    """

    pytorch: PyTorchSupport
    pytorch_last: str | None = Field(default=None, pattern=r"^\d+\.\d+$")
    pytorch_last_cuda: str | None = Field(default=None, pattern=r"^\d+\.\d+$")
    cuda_cc: str | None = Field(default=None, pattern=r"^\d+\.\d$", description="CUDA compute capability")
    rocm: RocmSupport | None = Field(default=None, description="AMD only: ROCm's support for this card")
    gfx: str | None = Field(default=None, pattern=r"^gfx[0-9a-f]+$", description="AMD LLVM target")
    hsa_override: str | None = Field(default=None, pattern=r"^\d+\.\d+\.\d+$", description="HSA_OVERRIDE_GFX_VERSION")
    xpu: bool = False
    mps: bool = False
    mlx: bool = False
    jetpack: str | None = Field(default=None, description="the newest JetPack for a Jetson module")
    npu: bool = Field(default=False, description="Huawei Ascend: PyTorch through torch_npu on CANN, no CUDA")

    @model_validator(mode="after")
    def _consistent(self) -> Software:
        if self.pytorch == "dropped" and self.pytorch_last is None:
            raise ValueError("a dropped card names the last PyTorch release that ran it (pytorch_last)")
        if self.pytorch == "dropped" and self.jetpack is None and self.pytorch_last_cuda is None:
            raise ValueError("a dropped card names the CUDA of the last PyTorch builds that ran it (pytorch_last_cuda)")
        if self.hsa_override is not None and self.rocm != "community":
            raise ValueError("hsa_override is for cards that run ROCm through the community override")
        return self


class Gpu(Frozen):
    id: str = Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")
    name: str
    aliases: tuple[str, ...] = ()
    vendor: CatalogVendor
    architecture: str
    release_year: int = Field(ge=2010, le=2030)
    gpu_class: GpuClass = Field(alias="class")
    form_factor: FormFactor = "pcie"

    platform: Platform = "desktop"
    # A board with memory soldered on by a third party (the 22 GB 2080 Ti, 48 GB 4090s sold in China):
    # no NVIDIA warranty, and answers that show it say so (engine.support.caveats_for).
    modified: bool = False

    memory_gb: float = Field(gt=0, description="what the GPU can use; for unified memory, its default share")
    unified_memory_gb: float | None = Field(default=None, gt=0, description="the whole shared pool")
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
    power_connector: PowerConnector | None = Field(default=None, description="reference/FE board")
    power_connectors: int | None = Field(default=None, ge=0, description="how many of power_connector")
    required_system_power_w: int | None = Field(
        default=None, gt=0, description="the vendor's required system power (PSU) for a PC with one of the card"
    )
    cooling: Cooling | None = Field(default=None, description="reference/FE cooler")
    software: Software
    launch_price: LaunchPrice | None = None
    sources: tuple[str, ...] = Field(min_length=1)
    notes: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _default_platform(cls, data: object) -> object:
        """Entries written before ``platform`` existed keep working: it follows from the class."""
        if isinstance(data, dict) and "platform" not in data:
            klass = data.get("class", data.get("gpu_class"))
            platform = {"laptop": "laptop", "datacenter": "server", "embedded": "embedded"}.get(str(klass), "desktop")
            data = {**data, "platform": platform}
        return data

    @model_validator(mode="after")
    def _consistent(self) -> Gpu:
        if self.platform == "unified_memory":
            if self.unified_memory_gb is None or self.memory_gb > self.unified_memory_gb:
                raise ValueError("a unified-memory part gives unified_memory_gb, at least its GPU share memory_gb")
        elif self.unified_memory_gb is not None:
            raise ValueError("unified_memory_gb is only for platform unified_memory")
        if self.power_connectors is not None and self.power_connector in (None, "none", "board"):
            raise ValueError("power_connectors counts a cable connector (power_connector)")
        sw = self.software
        if self.vendor == "nvidia" and sw.cuda_cc is None:
            raise ValueError("an NVIDIA GPU gives its CUDA compute capability (software.cuda_cc)")
        if self.vendor == "amd" and (sw.rocm is None or sw.gfx is None):
            raise ValueError("an AMD GPU gives its ROCm support and LLVM target (software.rocm, software.gfx)")
        if self.vendor != "amd" and (sw.rocm is not None or sw.gfx is not None):
            raise ValueError("software.rocm and software.gfx are for AMD GPUs")
        if self.vendor == "apple" and not (sw.mps or sw.mlx):
            raise ValueError("an Apple GPU says whether MPS and MLX run on it")
        if (self.vendor == "huawei") != sw.npu:
            raise ValueError("software.npu is set for Huawei Ascend NPUs, and only for them")
        if self.vendor == "huawei" and sw.cuda_cc is not None:
            raise ValueError("a Huawei Ascend NPU runs no CUDA: no software.cuda_cc")
        if self.vendor in ("moore_threads", "cambricon", "hygon") and (
            sw.cuda_cc is not None or sw.pytorch != "vendor"
        ):
            raise ValueError(
                "a Moore Threads, Cambricon or Hygon card runs no CUDA; PyTorch through its vendor's build"
            )
        return self

    def buyable(self, organization: bool) -> bool:
        """A card a buyer can put in their machine: no laptop chips, embedded modules or unified-memory
        computers (Macs, DGX Spark, Strix Halo: whole systems, not cards), no SXM/OAM modules outside
        servers, and for a person (not a lab or company) no passively cooled server cards, which need a
        server's airflow that a desktop case does not give (they stay in answers that name them)."""
        if not self.stacks:  # a laptop's chip, an embedded module or a whole computer: no card to add
            return False
        if organization:
            return True
        return self.form_factor == "pcie" and not (self.gpu_class == "datacenter" and self.cooling == "passive")

    @property
    def stacks(self) -> bool:
        """Whether more of this GPU can be added to one machine: never a laptop's chip, an embedded
        module or a unified-memory computer (a Mac takes no second GPU), so "it would take 2×" is
        never said of them."""
        return self.platform not in ("laptop", "embedded", "unified_memory") and self.gpu_class != "laptop"

    @property
    def has_tensor_cores(self) -> bool:
        return bool(self.tensor_cores)

    @property
    def short_name(self) -> str:
        """The name without the brand prefix, as people say it: "RTX 4090", "A100 80GB SXM"."""
        prefixes = (
            "NVIDIA GeForce ",
            "GeForce ",
            "NVIDIA ",
            "AMD Radeon ",
            "AMD Instinct ",
            "AMD ",
            "Intel ",
            "Huawei ",
            "Moore Threads ",
            "Cambricon ",
            "Hygon ",
        )
        for prefix in prefixes:
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


# "cube": the Cube unit of Huawei's Da Vinci AI cores (one per core, a 16x16x16 FP16 matrix multiply per cycle).
# "mlu": the matrix units of Cambricon's MLU cores (MLUarch03, MLU370).
# "neural_accelerator": the Neural Accelerator in each GPU core of Apple's M5 family (matrix multiplies, reached
# through Metal 4's tensor APIs); Apple publishes no throughput for them. Not the Neural Engine, a separate block.
MatrixUnit = Literal["none", "tensor_core", "matrix_core", "wmma", "xmx", "cube", "mlu", "neural_accelerator"]


class Features(Frozen):
    tensor_core_generation: int = Field(ge=0, description="generation of the matrix unit; 0: none")
    matrix_unit: MatrixUnit = "tensor_core"
    int8: bool = Field(default=False, description="INT8 on the matrix units (not DP4A)")
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


class FirstBuild(Frozen):
    """The first PyTorch release with official wheels for an architecture, and the CUDA they are built for:
    a project that pins an older PyTorch does not run on these cards (Blackwell: 2.7, CUDA 12.8)."""

    pytorch: str = Field(pattern=r"^\d+\.\d+$")
    cuda: str = Field(pattern=r"^\d+\.\d+$")
    cuda_cc: tuple[str, ...] = Field(min_length=1, description="the compute capabilities those wheels were built for")
    source: str


class Architecture(Frozen):
    id: str
    name: str
    vendor: CatalogVendor
    year: int
    features: Features
    latencies: dict[Literal["2023", "2020"], Latencies]
    shared_mem_per_sm_kb: float | None = None
    l2_mb: float | None = None
    shared_memory_gain: ArchFactor
    tensor_core_gain: ArchFactor
    sources: tuple[str, ...] = Field(min_length=1)
    software_sources: tuple[str, ...] = Field(min_length=1, description="where the software statuses come from")
    first_build: FirstBuild | None = Field(
        default=None, description="new enough that older PyTorch builds do not run it: the first that does"
    )


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
