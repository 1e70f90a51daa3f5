"""Questions parsed per second on one core, over the dev set and the parser's own questions, or over the
real-question corpus.

    python bench/parse_bench.py [--seconds 3] [--corpus] [--parts]

``--corpus`` times the texts of data/corpus/questions.jsonl (all splits: only the texts are read, never
the labels), which are longer and messier than the hand-written sets. Vocabularies, the catalog and
the kind classifier load before timing (once per process, as in the bot); what is timed is parse()
alone, on one thread, with the catalog passed explicitly so that parse()'s memory of earlier questions
is bypassed and every call does the work. Questions per second of CPU time are printed beside the wall
clock figure: on a machine shared with other jobs they move less.

``--parts`` says what two parts cost inside parse(), where the caches are cold from everything else it
does: microseconds per question as it is, and with the kind classifier's full model, or the phrase
lists' ``Words``, replaced by what each returned for that question (alternating passes in one process,
medians). In a loop of its own the full model (pure Python since 2026-12-06) takes about half of what
it costs there (≈50 µs a call against ≈90: there its dict and integers are out of the CPU's caches).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine.parse
from bench import save
from engine.catalog import Catalog, load_catalog
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


def parts(texts: list[str], catalog: Catalog, passes: int = 6) -> dict[str, float]:
    """Microseconds per question of parse() as it is and with one part's results precomputed (see --parts)."""
    parser = engine.parse._parser_for(catalog)
    model, words_class = parser.classifier, engine.parse.Words
    readings = [parser.read(text) for text in texts]
    words = {r.low: words_class(r.low) for r in readings}
    predicted = {r.low: model.predict(r.low, r.signals) for r in readings} if model else {}

    def full_model_free() -> None:
        model.predict = lambda low, signals: predicted[low]

    def words_free() -> None:
        engine.parse.Words = lambda low: words.get(low) or words_class(low)

    setups = {"as is": lambda: None, "Words": words_free}
    if model:
        setups["full model"] = full_model_free
    times: dict[str, list[float]] = {name: [] for name in setups}
    for n in range(passes):
        for name, setup in sorted(setups.items(), reverse=n % 2 == 1):
            setup()
            try:
                start = time.process_time()
                for text in texts:
                    parse(text, catalog=catalog)
                times[name].append((time.process_time() - start) / len(texts) * 1e6)
            finally:
                engine.parse.Words = words_class
                if model:
                    vars(model).pop("predict", None)
    return {name: statistics.median(values) for name, values in times.items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--corpus", action="store_true", help="time the corpus texts instead of the two question files")
    ap.add_argument("--parts", action="store_true", help="also say what the full model and Words cost inside parse()")
    args = ap.parse_args(argv)
    texts = questions(args.corpus)
    catalog = load_catalog()
    for text in texts:  # warm up: load vocabularies, catalog and classifier, build the GPU index
        parse(text, catalog=catalog)
    if args.parts:
        cost = parts(texts, catalog)
        whole = cost.pop("as is")
        print(f"parse() as is: {whole:.1f} µs a question (CPU, median of 6 passes)")
        for name, micros in cost.items():
            print(f"  with the {name} precomputed: {micros:.1f} µs (it costs {whole - micros:.1f} µs)")
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
