"""Median and p99 time of engine.advise for a recommend query over the full catalog.

Prints figures and appends a JSON line to bench/results/engine.jsonl. Target (issue #3): median
under 200 µs. Run: .venv/bin/python bench/engine_bench.py [--runs N]
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from pathlib import Path

from engine.advisor import AdviceContext, advise
from engine.catalog import load_catalog
from engine.money import Money
from engine.query import Query

QUERIES = {
    "recommend": Query(kind="recommend", task="kaggle", budget=Money(amount=500, currency="USD")),
    "recommend_eur_llm": Query(kind="recommend", task="llm_inference", budget=Money(amount=1500, currency="EUR")),
    "compare": Query(kind="compare", gpus=("rtx-4090", "rtx-3090"), gpu_counts=(1, 2)),
    "cloud_vs_buy": Query(kind="cloud_vs_buy", gpus=("rtx-3090",), hours_per_day=3),
}


def measure(query: Query, runs: int) -> dict[str, float]:
    ctx = AdviceContext()
    advise(query, ctx)  # warm caches: catalog, speeds
    samples = []
    for _ in range(runs):
        start = time.perf_counter_ns()
        advise(query, ctx)
        samples.append((time.perf_counter_ns() - start) / 1000)
    samples.sort()
    return {"median_us": statistics.median(samples), "p99_us": samples[int(len(samples) * 0.99) - 1]}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=300)
    args = parser.parse_args()
    gpus = len(load_catalog().gpus)
    results = {name: measure(q, args.runs) for name, q in QUERIES.items()}
    for name, r in results.items():
        print(f"{name:20s} median {r['median_us']:9.0f} µs   p99 {r['p99_us']:9.0f} µs   ({gpus} GPUs)")
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    with (out / "engine.jsonl").open("a", encoding="utf-8") as fh:
        fh.write(json.dumps({"time": time.time(), "machine": platform.platform(), "gpus": gpus, **results}) + "\n")


if __name__ == "__main__":
    main()
