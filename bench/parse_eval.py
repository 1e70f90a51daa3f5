"""Score the parser: kind, each field and every-field-right, per split of the real-question corpus and
on the shared and own question files.

    python bench/parse_eval.py                        # corpus train/dev/test, shared dev, own questions
    python bench/parse_eval.py --split train dev --show-errors
    python bench/parse_eval.py FILE.jsonl [FILE.jsonl ...] [--show-errors]

Scoring follows questions/README.md: amounts within 1 %, hours and memory within 0.1, and an expected
GPU id matches a parsed id equal to it or extended only by a memory and/or form-factor suffix.

The corpus (data/corpus/questions.jsonl) names many cards our catalog does not hold (Apple M2 Max, Arc
A770, A800, a modded 2080 Ti 22 GB…). The parser can only answer with catalog ids, so ``gpus`` is
scored over the ids the catalog knows: an expected id is kept when some catalog id matches it by the
rule above, and a parsed id is left out when it is the start of an expected id the catalog lacks
(``rtx-3070`` for ``rtx-3070-laptop``, ``rtx-2080-ti`` for ``rtx-2080-ti-22gb``). Any other parsed id is
scored: a card read that the user did not name is an error.

Ids that differ only in hyphens are the same card (the corpus writes ``rtx-4090d``, the catalog
``rtx-4090-d``).

The test split is frozen: its figures are printed, its rows never are (``--show-errors`` skips it).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.catalog import load_catalog  # noqa: E402
from engine.parse import parse  # noqa: E402
from engine.query import Query  # noqa: E402

FIELDS = (
    "kind",
    "task",
    "budget_amount",
    "budget_currency",
    "min_memory_gb",
    "hours_per_day",
    "num_gpus",
    "gpus",
    "condition",
    "cloud_interest",
)
CORPUS = ROOT / "data" / "corpus" / "questions.jsonl"
SHARED_DEV = Path("/work/shared/questions/dev.jsonl")
OWN = ROOT / "tests" / "engine" / "parse_questions.jsonl"
SPLITS = ("train", "dev", "test")
_SUFFIX = re.compile(r"^(?:-[0-9]+gb)?(?:-(?:sxm|pcie))?$")


def load(path: str | Path, split: str | None = None) -> list[dict[str, Any]]:
    """The rows of a question file; only one split of it when ``split`` is given."""
    with open(path, encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh if line.strip()]
    return [r for r in rows if r.get("split") == split] if split else rows


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
        "gpus": list(dict.fromkeys(query.gpus)),  # each once: a Query names a card twice for two setups of it
        "condition": query.condition,
        "cloud_interest": query.cloud_interest,
    }


def _first_labels(row: dict[str, Any]) -> dict[str, Any]:
    """A corpus row with its first task and memory labels put back (rows without them unchanged)."""
    exp = dict(row["expected"])
    for field, first in (("task", "task_with_source_context"), ("min_memory_gb", "min_memory_gb_with_spec")):
        if first in exp:
            exp[field] = exp[first]
    return {**row, "expected": exp}


def gpu_matches(expected: str, parsed: str) -> bool:
    """`a100` accepts `a100-80gb-sxm`; `gtx-1080` does not accept `gtx-1080-ti`; ids that differ only
    in hyphens are the same card (the corpus writes `rtx-4090d`, the catalog `rtx-4090-d`)."""
    if parsed == expected or parsed.replace("-", "") == expected.replace("-", ""):
        return True
    return parsed.startswith(expected + "-") and bool(_SUFFIX.match(parsed[len(expected) :]))


def known_to_catalog(gpu_id: str) -> bool:
    return any(gpu_matches(gpu_id, c) for c in load_catalog().ids())


def scorable_gpus(expected: list[str], got: list[str]) -> tuple[list[str], list[str]]:
    """The expected ids the catalog knows, and the parsed ids that are not a catalog card's reading of
    an expected card outside the catalog (see the module docstring)."""
    outside = [e for e in expected if not known_to_catalog(e)]
    if not outside:
        return expected, got
    kept = [e for e in expected if e not in outside]
    return kept, [g for g in got if not any(e.startswith(g) for e in outside) or any(gpu_matches(k, g) for k in kept)]


def field_right(name: str, expected: Any, got: Any) -> bool:
    if name == "gpus":
        expected, got = scorable_gpus(list(expected), list(got))
        return len(expected) == len(got) and all(gpu_matches(e, g) for e, g in zip(expected, got, strict=True))
    if expected is None or got is None:
        return expected is None and got is None
    if name == "budget_amount":
        return bool(abs(got - expected) <= 0.01 * abs(expected))
    if name in ("hours_per_day", "min_memory_gb"):
        return bool(abs(got - expected) <= 0.1)
    return bool(got == expected)


def score(rows: Iterable[dict[str, Any]]) -> tuple[dict[str, float], float, list[tuple[str, str, Any, Any]]]:
    """Per-field accuracy, the share fully right, and the errors as (id, field, expected, got)."""
    rows = list(rows)
    right = dict.fromkeys(FIELDS, 0)
    full = 0
    errors = []
    for row in rows:
        got = as_fields(parse(row["text"], standalone=True).query)
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


def sets(split_names: list[str], files: list[str]) -> list[tuple[str, list[dict[str, Any]], bool]]:
    """(label, rows, frozen) for what to score."""
    if files:
        return [(f, load(f), False) for f in files]
    out = [(f"corpus {s}", load(CORPUS, s), s == "test") for s in split_names if s in SPLITS]
    if "shared" in split_names and SHARED_DEV.exists():
        out.append(("shared dev.jsonl", load(SHARED_DEV), False))
    if "own" in split_names:
        out.append(("parse_questions.jsonl", load(OWN), False))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", help="question files in the shared format (default: the sets below)")
    ap.add_argument(
        "--split",
        nargs="+",
        default=[*SPLITS, "shared", "own"],
        help="which sets: train dev test (the corpus), shared, own",
    )
    ap.add_argument("--show-errors", action="store_true", help="print wrong fields (never for the test split)")
    ap.add_argument(
        "--first-labels",
        action="store_true",
        help="score task and min_memory_gb against the corpus' first labels (task_with_source_context, "
        "min_memory_gb_with_spec), as before the 2026-12-03 relabel (data/corpus/README.md)",
    )
    args = ap.parse_args(argv)
    if args.first_labels:
        global load
        plain = load

        def load(path: str | Path, split: str | None = None) -> list[dict[str, Any]]:  # type: ignore[no-redef]
            return [_first_labels(r) for r in plain(path, split)]

    results = []
    for label, rows, frozen in sets(args.split, args.files):
        fields, full, errors = score(rows)
        results.append((label, len(rows), fields, full))
        if args.show_errors and not frozen:
            texts = {r["id"]: r["text"] for r in rows}
            print(f"{label}: errors")
            for qid, name, exp, got in errors:
                print(f"    {qid} {name}: expected {exp!r}, got {got!r}  | {texts[qid]}")
    width = max(len(label) for label, *_ in results) if results else 10
    print(f"{'':16s}" + "".join(f"{label:>{max(width, 10) + 2}s}" for label, *_ in results))
    print(f"{'questions':16s}" + "".join(f"{n:>{max(width, 10) + 2}d}" for _, n, _, _ in results))
    for name in FIELDS:
        print(f"{name:16s}" + "".join(f"{fields[name]:>{max(width, 10) + 2}.1%}" for _, _, fields, _ in results))
    print(f"{'every field':16s}" + "".join(f"{full:>{max(width, 10) + 2}.1%}" for *_, full in results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
