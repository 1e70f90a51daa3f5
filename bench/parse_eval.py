"""Score the parser on questions in the format of shared/questions/dev.jsonl.

    python bench/parse_eval.py FILE.jsonl [FILE.jsonl ...] [--show-errors]

Prints per-field accuracy and the share of questions with every field right, by the rule of
questions/README.md: amounts within 1 %, hours within 0.1, and an expected GPU id matches a parsed
id equal to it or extended only by a memory and/or form-factor suffix.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.parse import parse
from engine.query import Query

FIELDS = ("kind", "task", "budget_amount", "budget_currency", "min_memory_gb", "hours_per_day",
          "num_gpus", "gpus", "condition", "cloud_interest")
_SUFFIX = re.compile(r"^(?:-[0-9]+gb)?(?:-(?:sxm|pcie))?$")


def load(path: str | Path) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def as_fields(query: Query) -> dict[str, Any]:
    """A Query in the flat form of the question files."""
    return {
        "kind": query.kind,
        "task": query.task,
        "budget_amount": float(query.budget.amount) if query.budget else None,
        "budget_currency": query.budget.currency if query.budget else None,
        "min_memory_gb": query.min_memory_gb,
        "hours_per_day": query.hours_per_day,
        "num_gpus": query.num_gpus,
        "gpus": list(query.gpus),
        "condition": query.condition,
        "cloud_interest": query.cloud_interest,
    }


def gpu_matches(expected: str, parsed: str) -> bool:
    """`a100` accepts `a100-80gb-sxm`; `gtx-1080` does not accept `gtx-1080-ti`."""
    return parsed == expected or (parsed.startswith(expected + "-") and bool(_SUFFIX.match(parsed[len(expected):])))


def field_right(name: str, expected: Any, got: Any) -> bool:
    if name == "gpus":
        return len(expected) == len(got) and all(gpu_matches(e, g) for e, g in zip(expected, got, strict=True))
    if expected is None or got is None:
        return expected is None and got is None
    if name == "budget_amount":
        return abs(got - expected) <= 0.01 * abs(expected)
    if name in ("hours_per_day", "min_memory_gb"):
        return abs(got - expected) <= 0.1
    return bool(got == expected)


def score(rows: Iterable[dict[str, Any]]) -> tuple[dict[str, float], float, list[tuple[str, str, Any, Any]]]:
    """Per-field accuracy, the share fully right, and the errors as (id, field, expected, got)."""
    rows = list(rows)
    right = dict.fromkeys(FIELDS, 0)
    full = 0
    errors = []
    for row in rows:
        got = as_fields(parse(row["text"]).query)
        ok = True
        for name in FIELDS:
            if field_right(name, row["expected"][name], got[name]):
                right[name] += 1
            else:
                ok = False
                errors.append((row["id"], name, row["expected"][name], got[name]))
        full += ok
    n = max(len(rows), 1)
    return {k: v / n for k, v in right.items()}, full / n, errors


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--show-errors", action="store_true")
    args = ap.parse_args(argv)
    for path in args.files:
        rows = load(path)
        fields, full, errors = score(rows)
        print(f"{path}: {len(rows)} questions")
        for name, acc in fields.items():
            print(f"  {name:16s} {acc:7.1%}")
        print(f"  {'fully right':16s} {full:7.1%}")
        if args.show_errors:
            texts = {r["id"]: r["text"] for r in rows}
            for qid, name, exp, got in errors:
                print(f"    {qid} {name}: expected {exp!r}, got {got!r}  | {texts[qid]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
