"""Questions parsed per second on one core, over the dev set and the parser's own questions.

    python bench/parse_bench.py [--seconds 3]

Vocabularies and the catalog load before timing (once per process, as in the bot); what is
timed is parse() alone, on one thread, with the catalog passed explicitly so that parse()'s memory
of earlier questions is bypassed and every call does the work.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import save
from engine.catalog import load_catalog
from engine.parse import parse

FILES = (Path("/work/shared/questions/dev.jsonl"),
         Path(__file__).resolve().parent.parent / "tests" / "engine" / "parse_questions.jsonl")


def questions() -> list[str]:
    out = []
    for path in FILES:
        if path.exists():
            out += [json.loads(line)["text"] for line in path.read_text(encoding="utf-8").splitlines() if line]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    args = ap.parse_args(argv)
    texts = questions()
    catalog = load_catalog()
    for text in texts:  # warm up: load vocabularies and catalog, build the GPU index
        parse(text, catalog=catalog)
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        for text in texts:
            parse(text, catalog=catalog)
        done += len(texts)
    elapsed = time.perf_counter() - start
    print(f"{done / elapsed:,.0f} questions/s on one core ({done} parses of {len(texts)} questions, {elapsed:.1f} s)")
    save("parse", {"questions_per_second": done / elapsed, "parses": done, "questions": len(texts)})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
