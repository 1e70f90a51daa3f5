"""Benchmarks: each script prints its figures and appends one JSON line to ``bench/results/``."""

from __future__ import annotations

import json
import os
import platform
import time
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"


def save(name: str, record: dict[str, Any]) -> Path:
    """Append ``record`` (with the time, machine and Python version) to ``results/<name>.jsonl``;
    ``BENCH_RESULTS_DIR`` puts the file elsewhere (the benchmarks' own smoke tests do)."""
    folder = Path(os.environ.get("BENCH_RESULTS_DIR") or RESULTS)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.jsonl"
    line = {"time": time.time(), "machine": platform.platform(), "python": platform.python_version(), **record}
    with path.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps(line, default=str) + "\n")
    return path
