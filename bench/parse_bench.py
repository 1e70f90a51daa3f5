"""Questions parsed per second on one core, over the dev set and the parser's own questions, or over the
real-question corpus.

    python bench/parse_bench.py [--seconds 3] [--corpus]

``--corpus`` times the texts of data/corpus/questions.jsonl (all splits: only the texts are read, never
the labels), which are longer and messier than the hand-written sets. Vocabularies, the catalog and
the kind classifier load before timing (once per process, as in the bot); what is timed is parse()
alone, on one thread, with the catalog passed explicitly so that parse()'s memory of earlier questions
is bypassed and every call does the work. Questions per second of CPU time are printed beside the wall
clock figure: on a machine shared with other jobs they move less.
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

ROOT = Path(__file__).resolve().parent.parent
FILES = (Path("/work/shared/questions/dev.jsonl"), ROOT / "tests" / "engine" / "parse_questions.jsonl")
CORPUS = ROOT / "data" / "corpus" / "questions.jsonl"


def questions(corpus: bool = False) -> list[str]:
    out = []
    for path in (CORPUS,) if corpus else FILES:
        if path.exists():
            out += [json.loads(line)["text"] for line in path.read_text(encoding="utf-8").splitlines() if line]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--corpus", action="store_true", help="time the corpus texts instead of the two question files")
    args = ap.parse_args(argv)
    texts = questions(args.corpus)
    catalog = load_catalog()
    for text in texts:  # warm up: load vocabularies, catalog and classifier, build the GPU index
        parse(text, catalog=catalog)
    done = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < args.seconds:
        for text in texts:
            parse(text, catalog=catalog)
        done += len(texts)
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu_start  # on a shared machine, the time this process actually ran
    which = "corpus" if args.corpus else "question files"
    print(
        f"{done / elapsed:,.0f} questions/s on one core, {done / cpu:,.0f}/s of CPU time ({done} parses of "
        f"{len(texts)} questions from the {which}, {elapsed:.1f} s)"
    )
    save(
        "parse",
        {
            "questions_per_second": done / elapsed,
            "questions_per_cpu_second": done / cpu,
            "parses": done,
            "questions": len(texts),
            "set": which,
        },
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
