"""How fast the engine answers: parse and advise (recommend, compare, breakeven, can_run), and how the
cost of a recommendation grows with the catalog (1×, 10×, 100× synthetic GPUs).

Prints figures and appends a JSON line to bench/results/engine.jsonl. Targets: advise for a
recommend query over the full catalog under 200 µs (median); cost per call growing no worse than
linearly with the catalog. Timed is the computation: advise() remembers answers, so each call
first forgets them; "recommend, new budget" reuses the rankings of earlier budgets, as in the bot;
"recommend, asked again" is the remembered case.
Run: .venv/bin/python bench/engine_bench.py [--runs N] [--no-scaling]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import save  # noqa: E402
from engine.advisor import AdviceContext, advise, forget_answers  # noqa: E402
from engine.catalog import load_catalog  # noqa: E402
from engine.money import Money  # noqa: E402
from engine.parse import parse  # noqa: E402
from engine.query import Query  # noqa: E402

QUERIES = {
    "recommend": Query(kind="recommend", task="kaggle", budget=Money(amount=500, currency="USD")),
    "recommend_eur_llm": Query(kind="recommend", task="llm_inference", budget=Money(amount=1500, currency="EUR")),
    "compare": Query(kind="compare", gpus=("rtx-4090", "rtx-3090"), gpu_counts=(1, 2)),
    "cloud_vs_buy": Query(kind="cloud_vs_buy", gpus=("rtx-3090",), hours_per_day=3),
    "can_run": Query(kind="can_run", model="llama 3 8b", gpus=("rtx-3060-12gb",), gpu_counts=(1,)),
}
QUESTION = "4090 or 2x 3090 for llama finetuning under $2,500?"


def computed(query: Query, ctx: AdviceContext) -> Callable[[], object]:
    """advise() doing the work: the answers it remembers are dropped before each call (forgetting
    costs well under a microsecond; the ranking and estimate caches underneath stay warm)."""

    def call() -> object:
        forget_answers()
        return advise(query, ctx)

    return call


def new_budgets(ctx: AdviceContext) -> Callable[[], object]:
    """recommend for a budget nobody asked before, a cent more each call (the chat's common case):
    nothing is forgotten, so the rankings remembered per price interval are reused."""
    cents = itertools.count(50_000)

    def call() -> object:
        budget = Money(amount=Decimal(next(cents)) / 100, currency="USD")
        return advise(Query(kind="recommend", task="kaggle", budget=budget), ctx)

    return call


def measure(call: Callable[[], object], runs: int) -> dict[str, float]:
    call()  # warm caches
    samples = []
    for _ in range(runs):
        start = time.perf_counter_ns()
        call()
        samples.append((time.perf_counter_ns() - start) / 1000)
    samples.sort()
    return {"median_us": statistics.median(samples), "p99_us": samples[max(0, int(len(samples) * 0.99) - 1)]}


def synthetic_data(factor: int, target: Path) -> Path:
    """A copy of data/ whose catalog and price snapshots hold ``factor`` copies of every GPU (every
    snapshot: the default market prices a card from older snapshots too, engine.cost)."""
    shutil.copytree(ROOT / "data", target)
    gpus = yaml.safe_load((target / "gpus.yaml").read_text())
    snapshots = {path: yaml.safe_load(path.read_text()) for path in (target / "prices").glob("*.yaml")}
    out = list(gpus)
    for k in range(1, factor):
        for gpu in gpus:
            copy = dict(gpu, id=f"{gpu['id']}-syn{k}", name=f"{gpu['name']} syn{k}", aliases=[])
            out.append(copy)
            for prices in snapshots.values():
                if gpu["id"] in prices["prices"]:
                    prices["prices"][copy["id"]] = prices["prices"][gpu["id"]]
    (target / "gpus.yaml").write_text(yaml.safe_dump(out, allow_unicode=True, sort_keys=False))
    for path, prices in snapshots.items():
        path.write_text(yaml.safe_dump(prices, allow_unicode=True, sort_keys=False))
    return target


def scaling(runs: int) -> dict[str, dict[str, float]]:
    """Recommend cost with the catalog at 1×, 10×, 100× — each size in its own process."""
    out = {}
    for factor in (1, 10, 100):
        with tempfile.TemporaryDirectory() as tmp:
            data = synthetic_data(factor, Path(tmp) / "data")
            env = dict(os.environ, GPU_ADVISOR_DATA=str(data))
            result = subprocess.run(
                [sys.executable, __file__, "--child", "--runs", str(runs)],
                env=env,
                capture_output=True,
                text=True,
                check=True,
            )
            out[f"{factor}x"] = json.loads(result.stdout)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--no-scaling", action="store_true")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    ctx = AdviceContext()
    if args.child:
        figures = measure(computed(QUERIES["recommend"], ctx), args.runs)
        print(json.dumps({"gpus": len(load_catalog().gpus), **figures}))
        return
    gpus = len(load_catalog().gpus)
    catalog = load_catalog()  # passing it explicitly bypasses parse()'s memory of earlier questions
    results: dict[str, object] = {"parse": measure(lambda: parse(QUESTION, catalog=catalog), args.runs)}
    results.update({name: measure(computed(q, ctx), args.runs) for name, q in QUERIES.items()})
    results["recommend, new budget"] = measure(new_budgets(ctx), args.runs)
    results["recommend, asked again"] = measure(lambda: advise(QUERIES["recommend"], ctx), args.runs)
    for name, r in results.items():
        print(f"{name:22s} median {r['median_us']:8.0f} µs   p99 {r['p99_us']:8.0f} µs")
    print(f"({gpus} GPUs in the catalog; target: recommend median < 200 µs)")
    if not args.no_scaling:
        grow = scaling(max(50, args.runs // 3))
        base = grow["1x"]["median_us"]
        for size, r in grow.items():
            print(
                f"catalog {size:5s} {r['gpus']:6d} GPUs  recommend median {r['median_us']:8.0f} µs "
                f"({r['median_us'] / base:5.1f}× the 1× cost)"
            )
        results["scaling"] = grow
    save("engine", {"gpus": gpus, **results})


if __name__ == "__main__":
    main()
