"""Slash-command option ranges, taken from the one bounds table (``engine.query.BOUNDS``), so a
slash command accepts exactly what a chat question or the terminal may ask. Discord shows these
limits in its picker; the Query built from the options validates again either way."""

from __future__ import annotations

from engine.query import BOUNDS

BUDGET_MIN, BUDGET_MAX = 0.01, float(BOUNDS["budget"].high)
MEMORY_MIN, MEMORY_MAX = 0.01, float(BOUNDS["min_memory_gb"].high)
COUNT_MIN, COUNT_MAX = int(BOUNDS["gpu_counts"].low), int(BOUNDS["gpu_counts"].high)
HOURS_MIN, HOURS_MAX = 0.01, float(BOUNDS["hours_per_day"].high)
DESKTOP_MIN, DESKTOP_MAX = float(BOUNDS["desktop_usd"].low), float(BOUNDS["desktop_usd"].high)
HOURLY_MIN, HOURLY_MAX = float(BOUNDS["cloud_usd_per_hour"].low), float(BOUNDS["cloud_usd_per_hour"].high)
KWH_MIN, KWH_MAX = float(BOUNDS["electricity_usd_per_kwh"].low), float(BOUNDS["electricity_usd_per_kwh"].high)
MODEL_MAX = int(BOUNDS["model"].high)
PRECISION_MAX = int(BOUNDS["precision"].high)
CONTEXT_MIN, CONTEXT_MAX = int(BOUNDS["context_tokens"].low), int(BOUNDS["context_tokens"].high)
POWER_LIMIT_MIN, POWER_LIMIT_MAX = int(BOUNDS["power_limit_w"].low), int(BOUNDS["power_limit_w"].high)
