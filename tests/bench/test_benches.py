"""Every benchmark runs and reports: with tiny inputs, each script prints its figures and appends one
JSON line. Timings are never asserted here; they belong in docs/performance.md."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

CASES = [
    (
        "engine_bench.py",
        ["--runs", "5", "--no-scaling"],
        "engine",
        "recommend, asked again",
        {"parse", "recommend", "compare", "can_run", "gpus"},
    ),
    ("parse_bench.py", ["--seconds", "0.2"], "parse", "questions/s on one core", {"questions_per_second"}),
    (
        "chart_bench.py",
        ["--runs", "1", "--langs", "en"],
        "charts",
        "targets: first render",
        {"import_ms", "warm_up_ms", "value/en"},
    ),
    (
        "chart_bench.py",
        ["--cold", "--langs", "en"],
        "charts_cold",
        "cold first render: at most",
        {"value/en", "power/en", "load_average"},
    ),
    (
        "chart_bench.py",
        ["--stalls", "process", "--langs", "en"],
        "charts_stalls",
        "longest stall",
        {"value/en", "worker_rss_mb", "mode"},
    ),
    (
        "startup_bench.py",
        ["--guilds", "20", "--runs", "1"],
        "startup",
        "once settled",
        {"echo bot", "gpu-advisor", "charts warmed"},
    ),
    (
        "startup_bench.py",
        ["--users", "3", "--batch", "2"],
        "memory",
        "distinct users",
        {"users", "checkpoints", "rss_mb_start"},
    ),
    (
        "e2e_bench.py",
        ["--n", "16", "--rate", "50", "--rounds", "1", "--rich-echo", "--repeated", "--repeated-n", "3"],
        "e2e",
        "ratio rich echo   repeated_max_rate",
        {"rounds", "summary", "workload"},
    ),
]


@pytest.mark.parametrize(
    ("script", "args", "name", "printed", "keys"), CASES, ids=[f"{c[0]} {' '.join(c[1][:1])}" for c in CASES]
)
def test_benchmark_prints_figures_and_records_them(tmp_path, script, args, name, printed, keys):
    env = dict(os.environ, BENCH_RESULTS_DIR=str(tmp_path))
    run = subprocess.run(
        [sys.executable, str(ROOT / "bench" / script), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert printed in run.stdout
    lines = (tmp_path / f"{name}.jsonl").read_text().splitlines()
    assert len(lines) == 1
    record = json.loads(lines[0])
    assert keys <= set(record) and {"time", "machine", "python"} <= set(record)


def test_answer_eval_checks_each_labelled_property():
    """bench/answer_eval.py: a question's answer passes only when it has every labelled property."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    import answer_eval

    from bot.chat import respond, understand
    from engine.advisor import AdviceContext

    row = {
        "text": "can a 3090 run llama 3 8b?",
        "answer": {"kind": "can_run", "must_cover": ["rtx-3090"], "yes_no": True, "metric": "memory_fit"},
    }
    answer = respond(understand(row["text"], None, "USD"), AdviceContext())
    assert answer_eval.check(row, answer) == {"kind": True, "covers": True, "yes_no": True, "metric": True}
    wrong = {**row, "answer": {**row["answer"], "yes_no": False, "must_cover": ["rtx-4090"], "kind": "compare"}}
    assert answer_eval.check(wrong, answer) == {"kind": False, "covers": False, "yes_no": False, "metric": True}
    assert answer_eval._covers("a100", ["a100-80gb-sxm"]) and not answer_eval._covers("rtx-3060", ["rtx-3060-ti"])
