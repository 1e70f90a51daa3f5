"""Start-up of one shard process: time from process start to READY, and RSS after READY, with
1,000 guilds in the local Discord double — GPU Advisor beside the minimal echo bot in the same run.

``--users N`` measures memory over real traffic instead: GPU Advisor answers N events from N distinct
users (bench/e2e_bench.py's mix: the corpus's questions first, then questions with a budget of their
own, so answers stay distinct; slash commands with new options; clicks by the askers) in 100
channels across 20 servers, sent in batches as fast as it answers; its RSS and CPU per answer are
printed at every tenth of the way.

Targets (issues #10, #24): under 2 s to READY (also with 10,000 guilds), under 150 MB RSS per shard
process, also after 50,000 distinct users and answers.

Bytecode: a deployed bot runs from compiled bytecode (``pip install`` writes the ``.pyc`` files of the
wheel, deploy/Dockerfile), but a development checkout with ``PYTHONDONTWRITEBYTECODE=1`` (the project's
VMs set it) compiles every module of bot/ and engine/ from source at every start — ≈1 s of a start on
a 2-vCPU VM. So the bots start as deployed: bot/ and engine/ are compiled once into a cache of this
benchmark's own (``PYTHONPYCACHEPREFIX``), which every start then reads; ``--from-source`` measures
a start that compiles from source, as this benchmark did before 2026-12-03 22:30 UTC.

Database: a deployed shard starts against a database that is already at the newest schema
(deploy/compose.yaml runs ``gpu-advisor migrate`` before the shards; a restart finds its own), which
costs one read at start-up, not alembic. So each start gets a new SQLite database migrated
beforehand by ``gpu-advisor migrate``, untimed; ``--unmigrated`` starts against an empty one, which
the bot migrates itself (the first start ever), as this benchmark did before 2026-12-06 10:30 UTC.
Run: .venv/bin/python bench/startup_bench.py [--guilds 1000] [--runs 3] [--from-source] [--unmigrated]
     .venv/bin/python bench/startup_bench.py --users 50000 [--batch 500] [--unmigrated]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import save  # noqa: E402
from bench.e2e_bench import (  # noqa: E402
    BATCH_SECONDS,
    Traffic,
    cpu_seconds,
    migrated_data_dir,
    rss_mb,
    run_phase,
    settle,
    start,
    warm_up_events,
)
from tests.e2e.bot_process import bot_env  # noqa: E402
from tests.e2e.discord_double import DiscordDouble, FakeGuild  # noqa: E402


def bytecode_env(from_source: bool = False) -> dict[str, str]:
    """The environment that makes a bot start from compiled bytecode, as deployed (see the module):
    bot/ and engine/ compiled into this benchmark's own cache, which the started bots read. Empty
    with ``from_source``: the caller's environment as it is (with PYTHONDONTWRITEBYTECODE=1, every
    start compiles from source)."""
    if from_source:
        return {}
    env = {
        "PYTHONPYCACHEPREFIX": str(Path(tempfile.gettempdir()) / "gpu-advisor-bench-pycache"),
        "PYTHONDONTWRITEBYTECODE": "",
    }
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", "-j", "0", "bot", "engine"],
        cwd=ROOT,
        env={**os.environ, **env},
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return env


async def one_start(
    argv: list[str], guilds: int, extra_env: dict[str, str], data_dir: str | None = None
) -> tuple[float, float, float]:
    """Seconds from exec to the bot's "ready" log line, its RSS in MB right then, and its RSS once the
    work it starts after READY (data, caches, chart fonts) is done. ``data_dir``: where its SQLite
    database is (default: a new, empty directory)."""
    async with DiscordDouble(guilds=[FakeGuild(name=f"g{i}") for i in range(guilds)]) as double:
        env = bot_env(
            double,
            SYNC_COMMANDS="true",
            LOG_JSON="false",
            LOG_LEVEL="INFO",
            DATA_DIR=data_dir or tempfile.mkdtemp(prefix="gpu-advisor-startup-"),
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


async def many_users(users: int, batch: int, migrated: bool = True) -> dict:
    """GPU Advisor's RSS and CPU per answer over ``users`` events from distinct users (see the module);
    ``migrated``: its database is at the newest schema before it starts (see the module)."""
    traffic = Traffic(seed=2, templated=True)
    checkpoints = sorted({max(1, users * k // 10) for k in range(1, 11)})
    rows = []
    async with contextlib.AsyncExitStack() as stack:
        run = await start(stack, [sys.executable, "-m", "bot"], False, None, migrated=migrated)
        await run_phase(run, warm_up_events(traffic), 10, None)  # answers with buttons for the first clicks
        await settle(run.proc.pid)
        rss0, started = rss_mb(run.proc.pid), time.monotonic()
        print(f"gpu-advisor after READY and 10 answers: RSS {rss0:.1f} MB", flush=True)
        done = answered = missing = late = 0
        cpu0, at0, answered0 = cpu_seconds(run.proc.pid), time.monotonic(), 0
        for checkpoint in checkpoints:
            while done < checkpoint:
                size = min(batch, checkpoint - done)
                run.double.sent.clear()
                result = await run_phase(run, traffic.plan(size, len(run.channels)), size, None)
                done += size
                answered += result["answered"]
                missing += result["expected"] - result["answered"]
                late += result["late"]
            cpu = cpu_seconds(run.proc.pid)
            await asyncio.sleep(BATCH_SECONDS + 0.2)
            await settle(run.proc.pid)
            row = {
                "events": done,
                "users": traffic.users,
                "corpus_or_templated_questions": traffic.asked,
                "answered": answered,
                "unanswered": missing,
                "late_in_channel": late,
                "rss_mb": round(rss_mb(run.proc.pid), 1),
                "cpu_ms_per_answer": round(1000 * (cpu - cpu0) / max(answered - answered0, 1), 3),
                "answers_per_s": round((answered - answered0) / (time.monotonic() - at0), 1),
            }
            rows.append(row)
            print(
                f"{row['events']:7d} events, {row['users']:7d} distinct users, {row['answered']:7d} answered: "
                f"RSS {row['rss_mb']:6.1f} MB, {row['cpu_ms_per_answer']:.2f} ms CPU per answer, "
                f"{row['answers_per_s']:.0f} answers/s since the last line; {missing} unanswered so far "
                f"({late} of them late, in the channel); load average {os.getloadavg()[0]:.2f}",
                flush=True,
            )
            cpu0, at0, answered0 = cpu_seconds(run.proc.pid), time.monotonic(), answered
    print(f"{time.monotonic() - started:.0f} s; target: RSS < 150 MB after 50,000 distinct users and answers")
    return {"users": users, "batch": batch, "migrated": migrated, "rss_mb_start": rss0, "checkpoints": rows}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--guilds", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--users", type=int, help="instead: RSS after this many events from distinct users")
    parser.add_argument("--batch", type=int, default=500, help="--users: events sent at once")
    parser.add_argument("--from-source", action="store_true", help="compile bot/ and engine/ at every start")
    parser.add_argument(
        "--unmigrated", action="store_true", help="start against an empty database (the bot migrates it: a first start)"
    )
    args = parser.parse_args()
    compiled = bytecode_env(args.from_source)
    if args.users:
        result = asyncio.run(many_users(args.users, args.batch, not args.unmigrated))
        save("memory", {**result, "load_average": os.getloadavg()})
        return
    bots = {
        "echo bot": ([sys.executable, str(ROOT / "bench" / "echo_bot.py")], {}),
        "gpu-advisor": ([sys.executable, "-m", "bot"], {}),
        "charts warmed": ([sys.executable, "-m", "bot"], {"CHARTS_WARM_UP": "true"}),
    }
    results = {}
    for name, (argv, env) in bots.items():
        runs = []
        for _ in range(args.runs):
            data_dir = None if args.unmigrated or name == "echo bot" else migrated_data_dir(ROOT, compiled)
            runs.append(asyncio.run(one_start(argv, args.guilds, {**compiled, **env}, data_dir)))
        ready = statistics.median(r[0] for r in runs)
        rss = statistics.median(r[1] for r in runs)
        settled = statistics.median(r[2] for r in runs)
        results[name] = {"ready_s": ready, "rss_mb": rss, "rss_settled_mb": settled, "runs": runs}
        print(
            f"{name:16s} {args.guilds} guilds: READY in {ready:5.2f} s (median of {args.runs}), "
            f"RSS {rss:6.1f} MB at READY, {settled:6.1f} MB once settled"
        )
    how = "compiled from source at every start" if args.from_source else "from compiled bytecode, as deployed"
    database = "an empty database (migrated by the bot)" if args.unmigrated else "a migrated database, as deployed"
    print(
        f"targets: READY < 2 s, RSS < 150 MB per shard process; {how}; {database}; "
        f"load average {os.getloadavg()[0]:.2f}"
    )
    save(
        "startup",
        {
            "guilds": args.guilds,
            "from_source": args.from_source,
            "unmigrated": args.unmigrated,
            "load_average": os.getloadavg(),
            **results,
        },
    )


if __name__ == "__main__":
    main()
