"""How fast the charts render: import, warm-up (matplotlib and fonts), then per kind and language the
first render (empty cache), the median uncached render, and the median cached call.

Engine results (rankings, plans) are computed once before timing; every timed call builds the
chart's spec from them, so the cached figure is what the bot pays for a repeated chart: the spec,
its sha256 key and the LRU lookup. Prints figures and appends a JSON line to bench/results/charts.jsonl.
``--cold`` times instead each kind's first render in a fresh process, with matplotlib and the fonts not
yet loaded (no ``warm_up``): what the first user to ask a live shard for a chart waits for, since a
shard loads them with its first chart (issue #24). Importing ``bot.charts`` is timed apart.
``--stalls process|thread`` times each kind's first render through the bot's async path and the
longest event-loop stall meanwhile: in the charts' worker process (as the bot draws them since
2026-12-03, warmed after READY) or in a thread of the same process (as before).
Targets: first render < 300 ms, cached < 5 ms, no event-loop stall over 5 ms.
Run: .venv/bin/python bench/chart_bench.py [--runs N] [--cold] [--stalls process|thread]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import save  # noqa: E402

FIRST_RENDER_TARGET_MS = 300
CACHED_TARGET_MS = 5


def ms(start: int) -> float:
    return (time.perf_counter_ns() - start) / 1e6


def cases() -> dict[str, Callable[[str], object]]:
    """Spec builders per kind, over engine results computed here once (the engine has its own bench)."""
    from bot import charts
    from engine.cloud import break_even, guide_example
    from engine.cost import rank_by_value
    from engine.power import plan

    ranked = rank_by_value("infer8", snapshot="2023-01")
    guide, never = guide_example(), break_even(2200, Decimal("0.05"), utilisation=0.15, electricity_usd_per_kwh=1)
    lines = charts.gpu_lines(["rtx-4090", "a100-80gb-sxm"])
    limited = plan("rtx-3090", 4, power_limit_w=300)
    terms = [
        ("weights", 14.0),
        ("gradients", 14.0),
        ("optimizer states", 56.0),
        ("activations", 9.3),
        ("runtime overhead", 1.0),
    ]
    gpus = ["rtx-4090", ("rtx-3090", 2), "rtx-4070-ti", "rx-7900-xtx"]
    charts.performance_spec(gpus)  # the engine's speed model, once
    return {
        "performance": lambda lang: charts.performance_spec(gpus, lang=lang),
        "value": lambda lang: charts.value_spec(ranked, lang=lang, min_memory_gb=12),
        "breakeven": lambda lang: charts.breakeven_spec(guide, lang=lang),
        "breakeven_never": lambda lang: charts.breakeven_spec(never, lang=lang),
        "memory": lambda lang: charts.memory_spec(terms, lines, lang=lang, model="Llama 2 7B"),
        "power": lambda lang: charts.power_spec(limited, lang=lang),
    }


def one_cold(kind: str, lang: str) -> None:
    """In this fresh process: import bot.charts, compute the engine's results (untimed), then the
    first render of one kind; prints one JSON line."""
    start = time.perf_counter_ns()
    from bot import charts

    import_ms = ms(start)
    build = cases()[kind]
    spec = build(lang)
    start = time.perf_counter_ns()
    png = charts.render_spec(spec)
    print(
        json.dumps({"import_ms": round(import_ms, 1), "first_cold_ms": round(ms(start), 1), "png_kb": len(png) // 1024})
    )


def cold(langs: list[str]) -> dict[str, dict[str, float]]:
    """Every kind and language's cold first render, each in a process of its own."""
    results = {}
    for lang in langs:
        for kind in ("performance", "value", "breakeven", "breakeven_never", "memory", "power"):
            run = subprocess.run(
                [sys.executable, __file__, "--one-cold", kind, "--langs", lang],
                capture_output=True,
                text=True,
                check=True,
                cwd=ROOT,
            )
            results[f"{kind}/{lang}"] = r = json.loads(run.stdout.strip().splitlines()[-1])
            flag = "" if r["first_cold_ms"] < FIRST_RENDER_TARGET_MS else "  (over target)"
            print(
                f"{kind + '/' + lang:24s} cold first render {r['first_cold_ms']:7.1f} ms "
                f"(import bot.charts {r['import_ms']:6.1f} ms before it){flag}",
                flush=True,
            )
    return results


async def stalls(langs: list[str], process: bool) -> dict[str, dict[str, float]]:
    """Each kind's first render through the bot's async path (``render_spec_async``) while a probe on
    the event loop wakes every millisecond: the render's time as the awaiting answer sees it and the
    longest the loop was held up meanwhile (target: no stall over 5 ms). ``process``: in the charts'
    worker process, warmed first as the bot warms it after READY; else in the charts' thread, cold."""
    import asyncio

    from bot import charts

    charts.use_processes(process)
    builders = cases()
    if process:
        start = time.perf_counter_ns()
        await asyncio.get_running_loop().run_in_executor(None, charts.warm_up)
        print(f"worker process started and warmed in {ms(start):.0f} ms (after READY in the bot)")
    results: dict[str, dict[str, float]] = {}
    for lang in langs:
        for name, build in builders.items():
            charts.cache_clear()
            gaps: list[float] = []
            done = asyncio.Event()

            async def probe(gaps: list[float] = gaps, done: asyncio.Event = done) -> None:
                last = time.perf_counter()
                while not done.is_set():
                    await asyncio.sleep(0.001)
                    now = time.perf_counter()
                    gaps.append((now - last - 0.001) * 1000)
                    last = now

            watcher = asyncio.create_task(probe())
            await asyncio.sleep(0.01)
            start = time.perf_counter_ns()
            await charts.render_spec_async(build(lang))
            took = ms(start)
            done.set()
            await watcher
            key = f"{name}/{lang}"
            results[key] = {"render_ms": round(took, 1), "max_stall_ms": round(max(gaps), 2)}
            print(f"{key:24s} render {took:7.1f} ms   longest event-loop stall {max(gaps):6.2f} ms", flush=True)
    worker = charts.worker_pid()
    if worker is not None:
        rss = int(Path(f"/proc/{worker}/status").read_text().split("VmRSS:")[1].split()[0]) / 1024
        print(f"worker process RSS {rss:.0f} MB")
        results["worker_rss_mb"] = {"rss_mb": round(rss, 1)}
    charts.shutdown()
    return results


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5, help="uncached renders per kind and language")
    parser.add_argument("--langs", default="en,zh-Hant", help="comma-separated languages")
    parser.add_argument("--no-save", action="store_true", help="print only, append nothing to results")
    parser.add_argument("--cold", action="store_true", help="each kind's first render in a fresh process")
    parser.add_argument("--one-cold", help=argparse.SUPPRESS)
    parser.add_argument(
        "--stalls", choices=("process", "thread"), help="event-loop stalls while rendering, as the bot renders"
    )
    args = parser.parse_args()
    if args.stalls:
        import asyncio
        import warnings

        warnings.simplefilter("ignore")  # a machine without CJK fonts warns for every glyph
        results = asyncio.run(stalls(args.langs.split(","), args.stalls == "process"))
        worst = max(r.get("max_stall_ms", 0.0) for r in results.values())
        print(
            f"longest stall {worst:.1f} ms; target: none over 5 ms; "
            f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs"
        )
        if not args.no_save:
            save("charts_stalls", {"mode": args.stalls, "load_average": round(os.getloadavg()[0], 2), **results})
        return
    if args.one_cold:
        one_cold(args.one_cold, args.langs)
        return
    if args.cold:
        results = cold(args.langs.split(","))
        worst = max(r["first_cold_ms"] for r in results.values())
        print(
            f"cold first render: at most {worst:.0f} ms; target < {FIRST_RENDER_TARGET_MS} ms; "
            f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs"
        )
        if not args.no_save:
            save("charts_cold", {"cpus": os.cpu_count(), "load_average": round(os.getloadavg()[0], 2), **results})
        return

    start = time.perf_counter_ns()
    from bot import charts

    import_ms = ms(start)
    start = time.perf_counter_ns()
    charts.warm_up()
    warm_ms = ms(start)
    print(f"import bot.charts {import_ms:7.1f} ms   warm_up (matplotlib + fonts) {warm_ms:7.1f} ms")
    print(f"fonts: {', '.join(charts.font_families('zh-Hant'))}")

    results: dict[str, dict[str, float]] = {}
    for lang in args.langs.split(","):
        for name, build in cases().items():
            call = lambda build=build, lang=lang: charts.render_spec(build(lang))  # noqa: E731
            charts.cache_clear()
            start = time.perf_counter_ns()
            png = call()
            first = ms(start)
            uncached = []
            for _ in range(args.runs):
                charts.cache_clear()
                start = time.perf_counter_ns()
                call()
                uncached.append(ms(start))
            cached = []
            for _ in range(max(50, args.runs * 10)):
                start = time.perf_counter_ns()
                call()
                cached.append(ms(start))
            key = f"{name}/{lang}"
            results[key] = {
                "first_ms": round(first, 2),
                "uncached_median_ms": round(statistics.median(uncached), 2),
                "cached_median_ms": round(statistics.median(cached), 3),
                "png_kb": round(len(png) / 1024, 1),
            }
            r = results[key]
            on_target = first < FIRST_RENDER_TARGET_MS and r["cached_median_ms"] < CACHED_TARGET_MS
            flag = "" if on_target else "  (over target)"
            print(
                f"{key:24s} first {first:7.1f} ms   uncached median {r['uncached_median_ms']:7.1f} ms   "
                f"cached median {r['cached_median_ms']:6.3f} ms   {r['png_kb']:6.1f} kB{flag}"
            )
    print(
        f"targets: first render < {FIRST_RENDER_TARGET_MS} ms, cached < {CACHED_TARGET_MS} ms; "
        f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs"
    )
    if args.no_save:
        return
    save(
        "charts",
        {
            "cpus": os.cpu_count(),
            "load_average": round(os.getloadavg()[0], 2),
            "import_ms": round(import_ms, 1),
            "warm_up_ms": round(warm_ms, 1),
            "fonts": charts.font_families("zh-Hant"),
            **results,
        },
    )


if __name__ == "__main__":
    main()
