"""Start-up of one shard process: time from process start to READY, and RSS after READY, with
1,000 guilds in the local Discord double — GPU Advisor beside the minimal echo bot in the same run.

Targets (issue #10): under 2 s to READY, under 150 MB RSS per shard process.
Run: .venv/bin/python bench/startup_bench.py [--guilds 1000] [--runs 3]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import save  # noqa: E402
from bench.e2e_bench import rss_mb, settle  # noqa: E402
from tests.e2e.bot_process import bot_env  # noqa: E402
from tests.e2e.discord_double import DiscordDouble, FakeGuild  # noqa: E402


async def one_start(argv: list[str], guilds: int, extra_env: dict[str, str]) -> tuple[float, float, float]:
    """Seconds from exec to the bot's "ready" log line, its RSS in MB right then, and its RSS once the
    work it starts after READY (data, caches, chart fonts) is done."""
    async with DiscordDouble(guilds=[FakeGuild(name=f"g{i}") for i in range(guilds)]) as double:
        env = bot_env(
            double,
            SYNC_COMMANDS="true",
            LOG_JSON="false",
            LOG_LEVEL="INFO",
            DATA_DIR=tempfile.mkdtemp(prefix="gpu-advisor-startup-"),
            **extra_env,
        )
        start = time.monotonic()
        proc = await asyncio.create_subprocess_exec(
            *argv,
            cwd=ROOT,
            env=env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        try:
            while True:
                line = await asyncio.wait_for(proc.stderr.readline(), timeout=60)
                if not line:
                    raise RuntimeError(f"{argv} exited before READY")
                if b"ready as" in line:
                    ready, rss_ready = time.monotonic() - start, rss_mb(proc.pid)
                    await settle(proc.pid)
                    return ready, rss_ready, rss_mb(proc.pid)
        finally:
            proc.terminate()
            await proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--guilds", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    bots = {
        "echo bot": ([sys.executable, str(ROOT / "bench" / "echo_bot.py")], {}),
        "gpu-advisor": ([sys.executable, "-m", "bot"], {}),
        "charts warmed": ([sys.executable, "-m", "bot"], {"CHARTS_WARM_UP": "true"}),
    }
    results = {}
    for name, (argv, env) in bots.items():
        runs = [asyncio.run(one_start(argv, args.guilds, env)) for _ in range(args.runs)]
        ready = statistics.median(r[0] for r in runs)
        rss = statistics.median(r[1] for r in runs)
        settled = statistics.median(r[2] for r in runs)
        results[name] = {"ready_s": ready, "rss_mb": rss, "rss_settled_mb": settled, "runs": runs}
        print(
            f"{name:16s} {args.guilds} guilds: READY in {ready:5.2f} s (median of {args.runs}), "
            f"RSS {rss:6.1f} MB at READY, {settled:6.1f} MB once settled"
        )
    print("targets: READY < 2 s, RSS < 150 MB per shard process")
    save("startup", {"guilds": args.guilds, **results})


if __name__ == "__main__":
    main()
