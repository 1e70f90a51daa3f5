"""Power, cooling and fit: PSU size, power limits, slot widths, outlets (guide §7).

The guide's judgments this reproduces: 4× RTX 3090 draw 1,400 W and 4× RTX 4090 1,800 W; a
1,600 W PSU leaves about 200 W for CPU and board — fine for 4× RTX 3080, too tight for
4× RTX 3090 (prefer ≥ 1,700 W); many US outlets cannot feed more than about 1,600 W; limiting
each card by 50 W costs about 7 % speed (measured on 4× RTX 2080 Ti).
"""

from __future__ import annotations

import math

from pydantic import BaseModel, ConfigDict, Field

from engine.catalog import load_catalog
from engine.message import Msg, msg

CPU_AND_BOARD_W = 200  # "a 1,600 W PSU leaves ~200 W for CPU and board"
# Keep sustained load at or below 95 % of the PSU rating: the guide calls 1,600 W fine for
# 4× RTX 3080 (1,480 W = 92.5 %) and too tight for 4× RTX 3090 (1,600 W = 100 %).
MAX_PSU_LOAD = 0.95
PSU_STEP_W = 50
OUTLET_LIMIT_W = 1600  # "many outlets (US) cannot feed more than ~1,600 W"
PSU_EFFICIENCY = 0.90  # 80 PLUS Gold-class efficiency at load, to turn DC load into wall draw
# Power-limit curve through the guide's one measurement: 250 W → 200 W on an RTX 2080 Ti = −7 %.
# speed ∝ (P / TDP) ** POWER_EXPONENT, with POWER_EXPONENT = ln(0.93) / ln(200/250).
POWER_EXPONENT = math.log(0.93) / math.log(200 / 250)
SUGGESTED_CUT_W = 50  # the guide's measured cut, suggested per card for builds of four or more (of 100 W+ cards)
GUIDE_LIMITED_TDP_W = 250  # the card the guide measured that cut on: an RTX 2080 Ti (250 W TDP)
ATX_SLOTS = 7
SOURCE = "Guide 2020/2023 §power supply, cooling and power limiting"


class PowerLimit(BaseModel):
    model_config = ConfigDict(frozen=True)

    tdp_w: int
    limit_w: int
    relative_speed: float
    slowdown_percent: float
    watts_saved_per_gpu: int


class PowerPlan(BaseModel):
    model_config = ConfigDict(frozen=True)

    gpu_id: str
    gpu_count: int
    gpu_power_w: int = Field(description="per GPU, after any power limit")
    cpu_and_board_w: int
    load_w: int
    recommended_psu_w: int
    psu_w: int | None
    psu_verdict: Msg | None
    wall_draw_w: int
    power_limit: PowerLimit | None
    warnings: tuple[Msg, ...]
    source: str = SOURCE


def power_limit_tradeoff(tdp_w: int, limit_w: int) -> PowerLimit:
    """Speed at a power limit, on the curve through the guide's "−50 W ≈ −7 %"."""
    if not 0 < limit_w <= tdp_w:
        raise ValueError(f"a power limit must be between 1 W and the card's {tdp_w} W TDP")
    rel = (limit_w / tdp_w) ** POWER_EXPONENT
    return PowerLimit(
        tdp_w=tdp_w,
        limit_w=limit_w,
        relative_speed=rel,
        slowdown_percent=(1 - rel) * 100,
        watts_saved_per_gpu=tdp_w - limit_w,
    )


def recommended_psu(load_w: float) -> int:
    return int(math.ceil(load_w / MAX_PSU_LOAD / PSU_STEP_W) * PSU_STEP_W)


def psu_verdict(share: float) -> Msg:
    """A PSU carrying ``share`` of its rating: fine up to 95 %, tight up to 100 % (no headroom for
    spikes), too small beyond."""
    if share <= MAX_PSU_LOAD:
        return msg("power.plan.psu.fine")
    return msg("power.plan.psu.tight" if share <= 1.0 else "power.plan.psu.too_small")


def plan(
    gpu_id: str,
    gpu_count: int = 1,
    *,
    power_limit_w: int | None = None,
    psu_w: int | None = None,
    cpu_and_board_w: int = CPU_AND_BOARD_W,
) -> PowerPlan:
    """PSU size, wall draw and the slot, cooling and outlet warnings for ``gpu_count`` GPUs."""
    if not 1 <= gpu_count <= 16:
        raise ValueError("gpu_count must be between 1 and 16 for one machine")
    gpu = load_catalog().get(gpu_id)
    limit = power_limit_tradeoff(gpu.tdp_w, power_limit_w) if power_limit_w is not None else None
    per_gpu = limit.limit_w if limit else gpu.tdp_w
    load = per_gpu * gpu_count + cpu_and_board_w
    wall = round(load / PSU_EFFICIENCY)
    warnings: list[Msg] = []

    verdict = None
    if psu_w is not None:
        if psu_w <= 0:
            raise ValueError("psu_w must be positive")
        verdict = psu_verdict(load / psu_w)
    if wall > OUTLET_LIMIT_W:
        warnings.append(msg("power.plan.warning.outlet", wall_w=wall, limit_w=OUTLET_LIMIT_W))
    if gpu.slot_width is not None and gpu_count >= 3 and gpu.slot_width > 2:
        warnings.append(msg("power.plan.warning.wide_cards", gpu=gpu.short_name, slots=gpu.slot_width, count=gpu_count))
    elif gpu.slot_width is not None and gpu.slot_width * gpu_count > ATX_SLOTS:
        warnings.append(msg("power.plan.warning.atx_slots", count=gpu_count, slots=gpu.slot_width, atx=ATX_SLOTS))
    if gpu_count >= 2 and gpu.gpu_class == "consumer":
        warnings.append(msg("power.plan.warning.slot_gap"))
    if gpu.power_connector in ("12vhpwr", "12v-2x6"):
        warnings.append(msg("power.plan.warning.12vhpwr"))
    if gpu_count >= 4 and not limit and gpu.tdp_w >= 2 * SUGGESTED_CUT_W:
        saving = power_limit_tradeoff(gpu.tdp_w, gpu.tdp_w - SUGGESTED_CUT_W)
        warnings.append(
            msg(
                "power.plan.warning.power_limit",
                cut_w=SUGGESTED_CUT_W,
                saved_w=SUGGESTED_CUT_W * gpu_count,
                slowdown=saving.slowdown_percent,
            )
        )
    return PowerPlan(
        gpu_id=gpu_id,
        gpu_count=gpu_count,
        gpu_power_w=per_gpu,
        cpu_and_board_w=cpu_and_board_w,
        load_w=load,
        recommended_psu_w=recommended_psu(load),
        psu_w=psu_w,
        psu_verdict=verdict,
        wall_draw_w=wall,
        power_limit=limit,
        warnings=tuple(warnings),
    )
