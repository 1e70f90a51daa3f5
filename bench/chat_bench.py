"""Conversation state at its cap: the cost of one put when 10,000 threads are held (every put evicts).

bot.chat.Conversations is an ordered dict by last use, so evicting the least recently used thread is
O(1); it used to scan every entry for the oldest (772 µs per put at 10,000, issue 23). Prints the
median µs per put for both, at a few sizes, and appends a JSON line to bench/results/chat.jsonl.
Run: .venv/bin/python bench/chat_bench.py [--puts N] [--sizes 1000,10000]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import save  # noqa: E402
from bot.chat import Conversations  # noqa: E402
from engine.query import Query  # noqa: E402


class ScanningConversations:
    """The eviction the bot had before: a scan of every entry for the oldest."""

    def __init__(self, max_size: int) -> None:
        self.max_size = max_size
        self._last: dict[tuple[int, int], tuple[float, Query]] = {}

    def put(self, key: tuple[int, int], query: Query, now: float) -> None:
        if len(self._last) >= self.max_size:
            oldest = min(self._last, key=lambda k: self._last[k][0])
            del self._last[oldest]
        self._last[key] = (now, query)


def per_put_us(store: Conversations | ScanningConversations, size: int, puts: int, query: Query) -> float:
    for i in range(size):  # fill to the cap
        store.put((i, 0), query, now=float(i))
    samples = []
    for j in range(puts):  # each put is a new user: one eviction
        started = time.perf_counter()
        store.put((size + j, 0), query, now=float(size + j))
        samples.append(time.perf_counter() - started)
    return statistics.median(samples) * 1e6


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--puts", type=int, default=2000)
    parser.add_argument("--sizes", default="1000,10000")
    args = parser.parse_args()
    query = Query(kind="recommend", task="kaggle")
    record: dict[str, float] = {}
    for size in (int(s) for s in args.sizes.split(",")):
        ordered = per_put_us(Conversations(ttl=1e12, max_size=size), size, args.puts, query)
        scanning = per_put_us(ScanningConversations(size), size, min(args.puts, 200), query)
        record[f"ordered_us/{size}"] = round(ordered, 2)
        record[f"scanning_us/{size}"] = round(scanning, 2)
        print(f"{size:>6} threads held: {ordered:8.2f} µs per put (ordered dict), {scanning:8.2f} µs (scan)")
    save("chat", record)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
