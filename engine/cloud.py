"""Cloud or desktop: when does buying a GPU pay for itself? (guide §8)

The guide's case: a $2,200 desktop with one RTX 3090 (350 W + 100 W for the rest) used 15 % of
the time, against an AWS V100 at $2.14/h with electricity at $0.12/kWh: 591 kWh and about $71 a
year, break-even after about 300 days (the exact formula gives 293).

    days = capex / (utilisation × 24 × (cloud $/h − system kW × electricity $/kWh))
"""

from __future__ import annotations

from decimal import Decimal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.message import Msg, msg

HOURS_PER_YEAR = 24 * 365

# Typical utilisation (guide §8), for when a user gives none.
TYPICAL_UTILISATION = {
    "personal machine": 0.075,  # "most personal machines 5-10 %"
    "PhD desktop": 0.15,  # "< 15 %"
    "PhD Slurm cluster": 0.35,  # "> 35 %"
    "company Slurm cluster": 0.60,  # "> 60 %"
}
DATED_AFTER_YEARS = 3  # a break-even further away than this outlives the hardware's relevance
SOURCE = "Guide 2020 §'when is it better to use the cloud vs a dedicated GPU desktop/server?'"


class BreakEvenInputs(BaseModel):
    model_config = ConfigDict(frozen=True)

    desktop_cost_usd: Decimal = Field(gt=0, le=10_000_000)
    cloud_usd_per_hour: Decimal = Field(gt=0, le=10_000)
    utilisation: float = Field(gt=0, le=1)
    gpu_power_w: float = Field(ge=0, le=100_000)
    system_power_w: float = Field(default=100, ge=0, le=100_000)
    electricity_usd_per_kwh: Decimal = Field(default=Decimal("0.12"), ge=0, le=100)


class BreakEven(BaseModel):
    """When the desktop's purchase plus electricity equals the cloud bill; ``days`` is None if never."""

    model_config = ConfigDict(frozen=True)

    inputs: BreakEvenInputs
    kwh_per_year: float
    electricity_cost_per_year: float
    cloud_cost_per_year: float
    days: float | None
    months: float | None
    verdict: Msg
    source: str = SOURCE
    notes: tuple[Msg, ...] = ()

    @model_validator(mode="after")
    def _months_follow_days(self) -> BreakEven:
        if (self.days is None) != (self.months is None):
            raise ValueError("days and months are both set or both None")
        return self

    @property
    def cloud_cost_per_month(self) -> float:
        """The cloud bill of a month at the same hours ("A100 租一个月多少钱？"): a year's over twelve."""
        return self.cloud_cost_per_year / 12

    def cumulative(self, day: float) -> tuple[float, float]:
        """(desktop, cloud) total spend in dollars after ``day`` days, for a chart."""
        desktop = float(self.inputs.desktop_cost_usd) + self.electricity_cost_per_year * day / 365
        return desktop, self.cloud_cost_per_year * day / 365


def break_even(
    desktop_cost_usd: Decimal | float | int,
    cloud_usd_per_hour: Decimal | float,
    *,
    utilisation: float | None = None,
    hours_per_day: float | None = None,
    gpu_power_w: float = 350,
    system_power_w: float = 100,
    electricity_usd_per_kwh: Decimal | float = Decimal("0.12"),
) -> BreakEven:
    """Days until a desktop costs less than renting; give ``utilisation`` (0-1) or ``hours_per_day``."""
    if (utilisation is None) == (hours_per_day is None):
        raise ValueError("give exactly one of utilisation (0-1) or hours_per_day (0-24)")
    if hours_per_day is not None:
        if not 0 < hours_per_day <= 24:
            raise ValueError("hours_per_day must be more than 0 and at most 24")
        utilisation = hours_per_day / 24
    inputs = BreakEvenInputs(
        desktop_cost_usd=Decimal(str(desktop_cost_usd)),
        cloud_usd_per_hour=Decimal(str(cloud_usd_per_hour)),
        utilisation=utilisation,
        gpu_power_w=gpu_power_w,
        system_power_w=system_power_w,
        electricity_usd_per_kwh=Decimal(str(electricity_usd_per_kwh)),
    )
    kw = (inputs.gpu_power_w + inputs.system_power_w) / 1000
    price = float(inputs.electricity_usd_per_kwh)
    hours = inputs.utilisation * HOURS_PER_YEAR
    kwh_per_year = kw * hours
    electricity = kwh_per_year * price
    cloud = float(inputs.cloud_usd_per_hour) * hours
    saving_per_day = inputs.utilisation * 24 * (float(inputs.cloud_usd_per_hour) - kw * price)
    notes: list[Msg] = []
    if saving_per_day <= 0:
        days = months = None
        verdict = msg("cloud.break_even.verdict.never")
    else:
        days = float(inputs.desktop_cost_usd) / saving_per_day
        months = days / (365 / 12)
        verdict = msg("cloud.break_even.verdict.buy" if days <= 365 else "cloud.break_even.verdict.rent")
        if days > DATED_AFTER_YEARS * 365:
            notes.append(msg("cloud.break_even.note.dated", years=DATED_AFTER_YEARS))
    notes.append(msg("cloud.break_even.note.rule_of_thumb"))
    return BreakEven(
        inputs=inputs,
        kwh_per_year=kwh_per_year,
        electricity_cost_per_year=electricity,
        cloud_cost_per_year=cloud,
        days=days,
        months=months,
        verdict=verdict,
        notes=tuple(notes),
    )


def guide_example() -> BreakEven:
    """The guide's own case, reproduced: 591 kWh/yr, ≈$71/yr, ≈293 days."""
    return break_even(
        2200,
        Decimal("2.14"),
        utilisation=0.15,
        gpu_power_w=350,
        system_power_w=100,
        electricity_usd_per_kwh=Decimal("0.12"),
    )
