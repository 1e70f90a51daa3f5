"""A process killed with SIGKILL in the middle of writing leaves a sound SQLite file with every committed row.

(PostgreSQL's crash safety is the server's; this is about the file the bot owns.)
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from bot.store import open_store

WRITER = textwrap.dedent("""
    import asyncio, sys
    from bot.store import open_store

    async def writer(store, worker):
        n = 0
        while True:
            n += 1
            # A new user each time, so the daily limit never stops the loop.
            saved = await store.prices.report(1, worker * 1_000_000 + n, "rtx-3090", 700 + n % 50, "USD", "used",
                                              "x" * 150)
            await store.conversations.put((worker, n % 7), __import__("engine.query").query.Query(kind="power"))
            print(saved.id, flush=True)  # only after the commit returned

    async def main():
        store = await open_store(sys.argv[1])
        print("ready", flush=True)
        await asyncio.gather(*(writer(store, w) for w in range(1, 5)))

    asyncio.run(main())
""")


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
async def test_sigkill_mid_write_loses_no_committed_row(tmp_path: Path):
    path = tmp_path / "crash.sqlite3"
    child = subprocess.Popen(
        [sys.executable, "-c", WRITER, f"sqlite:///{path}"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    committed: list[int] = []
    try:
        assert child.stdout is not None
        deadline = time.monotonic() + 30
        line = child.stdout.readline()
        assert line.strip() == "ready", child.stderr.read() if child.stderr else line
        while len(committed) < 120 and time.monotonic() < deadline:
            line = child.stdout.readline()
            if not line:
                break
            committed.append(int(line))
        os.kill(child.pid, signal.SIGKILL)
        child.wait(10)
        committed += [int(rest) for rest in child.stdout.read().split()]  # printed before the kill
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == -signal.SIGKILL
    assert len(committed) >= 120, child.stderr.read() if child.stderr else ""

    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        stored = {row[0] for row in raw.execute("SELECT id FROM price_reports")}
    assert set(committed) <= stored
    assert len(stored) - len(committed) <= 4  # at most one commit per writer was not yet printed

    store = await open_store(f"sqlite:///{path}")  # and the bot starts again on it
    try:
        assert len(await store.prices.recent(limit=500)) == min(len(stored), 500)
        await store.prices.report(1, 42, "rtx-3090", 700, "USD", "used", "after the crash")
    finally:
        await store.close()
