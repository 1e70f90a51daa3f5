"""The real bot under the local Discord double, against a minimal echo bot in the same run.

GPU Advisor remembers answers, and the question mix repeats some questions, as real servers do;
``--forgetful`` adds a bot with remembering turned off, where every question is worked out anew;
``--rich-echo`` adds the echo bot replying with a real GPU Advisor answer (embed and six buttons),
which splits GPU Advisor's ratio into what its reply costs discord.py and what its own work costs.

Each bot runs in its own process with its own double; the doubles and the load generator run
here. All bots stay up for the whole run and are measured in turns: a segment is N chat questions
(mentions) and N slash commands sent to one bot while the others idle, first at a fixed rate, then
as fast as they can be sent; segments go round the bots in a fixed order, so the drift of a shared
machine over the run falls on all of them alike and each idles as long between its segments.
Chat questions never repeat across segments (each segment goes on where the bot's last one
stopped). Printed per bot and phase: answers per second, p50/p99 from event sent to reply
received, CPU seconds of the bot process per answer (counting what it does until it is idle
again), the most CPU the VM's host stole during a segment — and GPU Advisor's ratios to the echo
bot, the median over the pairs of segments of the same round, with the interval that median could
move in by chance.
Targets (issue #10): p99 < 25 ms at 100 events/s; CPU per answer ≤ 1.5× the echo bot's.

Run: .venv/bin/python bench/e2e_bench.py [--n 250] [--rate 100] [--rounds 12] [--forgetful] [--rich-echo]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import save  # noqa: E402
from bot.chat import BATCH_SECONDS  # noqa: E402
from tests.e2e.bot_process import bot_env  # noqa: E402
from tests.e2e.discord_double import DiscordDouble, FakeGuild  # noqa: E402

# Varied questions (budgets, counts, cards, languages), so no answer is simply repeated.
CHAT_TEMPLATES = [
    "which GPU for Kaggle under ${b}?",
    "{c}x 3090 or 4090 for llama finetuning?",
    "PSU for {c}x 3090?",
    "can a 3060 12GB run llama 3 {m}b?",
    "每天大概用 {h} 小時，租雲端 GPU 還是自己買比較划算？",
    "best used card for stable diffusion under {b} bucks",
    "预算 {b}0 块，想本地跑大模型，买什么显卡？",
]


def chat_question(i: int) -> str:
    """The i-th chat question: three in seven carry a budget of their own, the rest repeat now and then,
    as questions in a server do (GPU Advisor remembers answers; --forgetful shows the cost without)."""
    return CHAT_TEMPLATES[i % len(CHAT_TEMPLATES)].format(b=300 + 7 * i, c=2 + i % 3, m=(8, 70)[i % 2], h=1 + i % 12)


SLASH = [
    ("recommend", {"task": "kaggle", "budget": 500.0}),
    ("compare", {"gpu_a": "rtx-4090", "gpu_b": "rtx-3090"}),
    ("power", {"gpu": "rtx-3090", "count": 4}),
    ("info", {"gpu": "rtx-3090"}),
    ("canrun", {"model": "Llama 3 8B", "gpu": "rtx-3060-12gb"}),
    ("ask", {"question": "4090 vs 2x 3090?"}),
]
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


def steal_seconds() -> float:
    """CPU time the hypervisor gave to other guests, all of this VM's CPUs together (/proc/stat).
    On a shared VM this is what stalls every process at once and shows up as latency spikes."""
    return int(Path("/proc/stat").read_text().split(maxsplit=9)[8]) / TICKS


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def start_bot(double: DiscordDouble, argv: list[str], extra_env: dict | None = None) -> subprocess.Popen:
    env = bot_env(double, SYNC_COMMANDS="true", LOG_LEVEL="WARNING", LOG_JSON="false", **(extra_env or {}))
    # The bot's stderr goes to a file, not a pipe: nobody reads it during the run, and a full pipe would block it.
    with tempfile.TemporaryFile("w+") as log:
        proc = subprocess.Popen(
            argv, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log, text=True
        )
        try:
            await double.wait_ready(0, timeout=30)
        except Exception:
            proc.kill()
            log.seek(0)
            raise RuntimeError(f"{' '.join(argv)} did not connect:\n{log.read()[-3000:]}") from None
    for _ in range(300):  # the client settles (on_ready) a moment after the double sent READY
        if double.find_command("ping" if "echo" in " ".join(argv) else "recommend") is not None:
            break
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.3)
    return proc


async def settle(pid: int, quiet: float = 0.02, window: float = 0.5, limit: float = 30.0) -> None:
    """Wait until the process uses less than ``quiet`` CPU seconds per ``window``."""
    deadline = time.monotonic() + limit
    before = cpu_seconds(pid)
    while time.monotonic() < deadline:
        await asyncio.sleep(window)
        now = cpu_seconds(pid)
        if now - before < quiet:
            return
        before = now


async def run_phase(double: DiscordDouble, slash_name: str | None, n: int, rate: float | None, first: int = 0) -> dict:
    """Send n chat mentions (questions first … first + n - 1) and n slash commands, interleaved;
    latency from send to the reply."""
    sent_at: dict[str, float] = {}
    handles = []
    mention = f"<@{double.bot_user.id}> "
    start = time.monotonic()
    for i in range(2 * n):
        if rate:
            await asyncio.sleep(max(0.0, start + i / rate - time.monotonic()))
        if i % 2 == 0:
            msg = await double.send_message(
                double.channel.id, mention + chat_question(first + i // 2), mentions=[double.bot_user.id]
            )
            sent_at[str(msg["id"])] = time.monotonic()
        else:
            name, options = SLASH[i // 2 % len(SLASH)] if slash_name is None else (slash_name, {"text": "x"})
            handle = await double.send_slash(name, options)
            handles.append((handle, time.monotonic()))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        replies = {
            str(s.payload.get("message_reference", {}).get("message_id")): s.at
            for s in double.sent
            if s.kind == "create" and s.payload.get("message_reference")
        }
        done_chat = [replies[m] - t for m, t in sent_at.items() if m in replies]
        done_slash = [h.callback.at - t for h, t in handles if h.callback is not None]
        if len(done_chat) == n and len(done_slash) == n:
            break
        await asyncio.sleep(0.01)
    latencies = done_chat + done_slash
    elapsed = max(time.monotonic() - start, 1e-9)
    return {
        "answered": len(latencies),
        "expected": 2 * n,
        "per_second": len(latencies) / elapsed,
        "latencies": latencies,
    }


@dataclass
class Running:
    """One bot process and its own double, kept up for the whole run."""

    double: DiscordDouble
    proc: subprocess.Popen
    slash: str | None
    asked: int = 0  # chat questions asked so far: each segment goes on where the last one stopped


async def start(stack: contextlib.AsyncExitStack, argv: list[str], slash: str | None, env: dict | None) -> Running:
    double = await stack.enter_async_context(
        DiscordDouble(guilds=[FakeGuild(name="Bench", channels=["general"])], interaction_timeout=None)
    )
    proc = await start_bot(double, argv, env)
    stack.callback(stop, proc)
    return Running(double, proc, slash)


def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    proc.wait(timeout=15)


async def segment(run: Running, n: int, rate: float | None) -> dict:
    """n chat questions and n slash commands, then the CPU the bot used for them, including what it
    did after the last reply (the conversation store writes in batches a moment later)."""
    run.double.sent.clear()
    gc.collect()
    gc.disable()  # a collection here would stall the sender and hand the bot a burst of events
    try:
        cpu0, steal0, wall0 = cpu_seconds(run.proc.pid), steal_seconds(), time.monotonic()
        result = await run_phase(run.double, run.slash, n, rate, first=run.asked)
        result["steal_percent"] = 100 * (steal_seconds() - steal0) / (time.monotonic() - wall0) / os.cpu_count()
    finally:
        gc.enable()
    run.asked += n
    await asyncio.sleep(BATCH_SECONDS + 0.2)
    await settle(run.proc.pid)
    result["cpu_ms_per_answer"] = 1000 * (cpu_seconds(run.proc.pid) - cpu0) / max(result["answered"], 1)
    return result


def pooled(segments: list[dict]) -> dict:
    """One phase's segments as one figure each: rates and CPU per answer as medians, latency
    percentiles over every answer."""
    latencies = sorted(x for s in segments for x in s["latencies"])
    return {
        "answered": sum(s["answered"] for s in segments),
        "expected": sum(s["expected"] for s in segments),
        "per_second": statistics.median(s["per_second"] for s in segments),
        "p50_ms": 1000 * statistics.median(latencies) if latencies else None,
        "p99_ms": 1000 * latencies[max(0, int(len(latencies) * 0.99) - 1)] if latencies else None,
        "cpu_ms_per_answer": statistics.median(s["cpu_ms_per_answer"] for s in segments),
        "cpu_ms_per_answer_segments": [round(s["cpu_ms_per_answer"], 3) for s in segments],
        "steal_percent_segments": [round(s["steal_percent"], 1) for s in segments],
    }


async def measure(
    bots: dict[str, tuple[list[str], str | None, dict | None]], n: int, rate: float, rounds: int
) -> dict[str, dict]:
    """All bots run side by side, each idle while another is measured; segments go round the bots
    in the same order every round, so the machine's drift over the run falls on every bot alike
    and every bot idles for the same time between its segments. That time matters: a discord.py
    bot idle for longer than aiohttp's 15-s keep-alive opens its REST connections anew in the next
    burst (about 250 at full load), which cost the echo bot 20 % and GPU Advisor 30 % more CPU per
    answer in that segment; an order reversed every other round gave each bot different idle
    times, and with four bots put the penalty on GPU Advisor alone."""
    async with contextlib.AsyncExitStack() as stack:
        runs = {name: await start(stack, *spec) for name, spec in bots.items()}
        # A warm-up segment each, in turn: one-time work after READY (data, caches, fonts) is not
        # per-answer cost (a segment waits until its bot is idle again), and the bots, started one
        # after the other, idle alike from here on.
        for run in runs.values():
            await segment(run, 5, None)
        out: dict[str, dict] = {name: {"rss_mb_after_ready": rss_mb(run.proc.pid)} for name, run in runs.items()}
        for phase, phase_rate in (("fixed_rate", rate), ("max_rate", None)):
            segments: dict[str, list[dict]] = {name: [] for name in runs}
            for _ in range(rounds):
                for name, run in runs.items():
                    segments[name].append(await segment(run, n, phase_rate))
            for name in runs:
                out[name][phase] = pooled(segments[name])
        for name, run in runs.items():
            out[name]["rss_mb_after_answers"] = rss_mb(run.proc.pid)
        return out


def ratio(value: float | None, baseline: float | None) -> float:
    """value / baseline, NaN when the baseline is zero or missing (a run too short for the CPU clock's
    10 ms ticks to register)."""
    return value / baseline if value is not None and baseline else math.nan


def _finite(values: list[float]) -> list[float]:
    """The pairs with a ratio (see ``ratio``: NaN where the run was too short to measure)."""
    return [v for v in values if not math.isnan(v)]


def median(values: list[float]) -> float:
    finite = _finite(values)
    return statistics.median(finite) if finite else math.nan


def median_interval(values: list[float], level: float = 0.9, draws: int = 2000) -> tuple[float, float]:
    """How far the median of these pairs could move by chance: the central ``level`` of medians over
    ``draws`` resamples of the pairs (bootstrap, fixed seed). On a shared machine one run's median
    can land anywhere in this interval, so a target is met in a run when the interval stays below it."""
    finite = _finite(values)
    if not finite:
        return math.nan, math.nan
    rng = random.Random(0)
    medians = sorted(statistics.median(rng.choices(finite, k=len(finite))) for _ in range(draws))
    cut = int(draws * (1 - level) / 2)
    return medians[cut], medians[draws - 1 - cut]


def show(name: str, result: dict) -> None:
    print(
        f"{name:12s} RSS {result['rss_mb_after_ready']:.0f} MB after READY, "
        f"{result['rss_mb_after_answers']:.0f} MB after answering"
    )
    for phase in ("fixed_rate", "max_rate"):
        r = result[phase]
        spread = ", ".join(f"{x:.2f}" for x in r["cpu_ms_per_answer_segments"])
        print(
            f"{name:12s} {phase:10s} {r['answered']:5d}/{r['expected']:<5d} {r['per_second']:7.1f}/s  "
            f"p50 {r['p50_ms']:6.1f} ms  p99 {r['p99_ms']:6.1f} ms  CPU {r['cpu_ms_per_answer']:5.2f} ms/answer "
            f"(segments {spread}; host steal up to {max(r['steal_percent_segments']):.0f} %)"
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=250, help="chat questions and slash commands per segment")
    parser.add_argument("--rate", type=float, default=100.0, help="events per second in the fixed-rate phase")
    parser.add_argument(
        "--rounds", type=int, default=12, help="segments per bot and phase: rounds of every bot in turn"
    )
    parser.add_argument(
        "--forgetful",
        action="store_true",
        help="also run GPU Advisor remembering no answers, so every question is worked out",
    )
    parser.add_argument(
        "--rich-echo",
        action="store_true",
        help="also run the echo bot replying with a real GPU Advisor answer (embed and buttons)",
    )
    args = parser.parse_args()
    python = sys.executable
    bots = {
        "echo bot": ([python, str(ROOT / "bench" / "echo_bot.py")], "ping", None),
        "gpu-advisor": ([python, "-m", "bot"], None, None),
    }
    if args.forgetful:
        bots["forgetful"] = ([python, "-m", "bot"], None, {"GPU_ADVISOR_ANSWERS_REMEMBERED": "0"})
    if args.rich_echo:
        bots["rich echo"] = ([python, str(ROOT / "bench" / "echo_bot.py"), "--rich"], "ping", None)
    results = asyncio.run(measure(bots, args.n, args.rate, args.rounds))
    for name in bots:
        show(name, results[name])
    print(f"-- ratios to the echo bot: median over {args.rounds} pairs of segments, one per round")
    summary: dict[str, dict[str, float]] = {}
    echo = results["echo bot"]
    for name in list(bots)[1:]:
        for phase in ("fixed_rate", "max_rate"):
            cpu = [
                ratio(a, b)
                for a, b in zip(
                    results[name][phase]["cpu_ms_per_answer_segments"],
                    echo[phase]["cpu_ms_per_answer_segments"],
                    strict=True,
                )
            ]
            p99 = ratio(results[name][phase]["p99_ms"], echo[phase]["p99_ms"])
            mid, (low, high) = median(cpu), median_interval(cpu)
            summary[f"{name} {phase}"] = {"cpu_ratio": mid, "cpu_ratio_interval": [low, high], "p99_ratio": p99}
            print(
                f"ratio {name:11s} {phase:10s} CPU/answer {mid:.2f}× (90 % interval {low:.2f}–{high:.2f}; "
                f"pairs {', '.join(f'{x:.2f}' for x in cpu)})  p99 {p99:.2f}×"
            )
    for result in results.values():
        for phase in ("fixed_rate", "max_rate"):
            result[phase].pop("latencies", None)
    save("e2e", {"n": args.n, "rate": args.rate, "rounds": args.rounds, "results": results, "summary": summary})


if __name__ == "__main__":
    main()
