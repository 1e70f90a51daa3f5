"""The bot's own work for a new answer: Answer → the embed and buttons Discord gets (issue #24).

Every train and dev question of the real-question corpus (data/corpus/questions.jsonl; the test split is
never read) is parsed and answered once, as the chat cog does (``bot.chat.understand``, ``bot.chat.respond``
with the default ``AdviceContext``); only then is the clock started, around ``bot.views.answer_message`` —
compose, embed, buttons — for each answer in English and in Simplified Chinese. Before each pass the bot's
remembered replies and recommendation embeds are forgotten, so every answer is new to it, as a distinct
question is on real traffic (answers that read the same still share an embed within a pass, as they do
there). The collector is frozen and set as the bot sets it after its warm-up. Prints the median over
passes of CPU time (``time.process_time``) per answer and language, and appends a JSON line, with every
pass's figure, to bench/results/compose.jsonl.

``--profile N`` prints cProfile's N most expensive functions of one more pass (by own time);
``--dump FILE`` writes every reply as JSON lines (the embed's ``to_dict()`` and the buttons'
``to_components()``), so two trees' replies can be diffed: run this script from each tree with that
tree as the working directory.

Run: .venv/bin/python bench/compose_bench.py [--passes 7] [--limit N] [--profile 30] [--dump FILE]
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import json
import pstats
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import save  # noqa: E402

CORPUS = ROOT / "data" / "corpus" / "questions.jsonl"
LANGS = ("en", "zh-Hans")


def questions(limit: int | None) -> list[tuple[str, str]]:
    """(id, text) of the corpus's train and dev questions, in file order."""
    rows = []
    with CORPUS.open(encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            if row.get("split") in ("train", "dev"):
                rows.append((row["id"], row["text"]))
    return rows[:limit] if limit else rows


def answers(rows: list[tuple[str, str]]) -> list[tuple[str, Any]]:
    """Each question parsed and answered once, as a new chat question (no previous one)."""
    from bot.chat import respond, understand
    from engine.advisor import AdviceContext

    context = AdviceContext()
    return [(qid, respond(understand(text, None), context)) for qid, text in rows]


def forget() -> None:
    """The bot's remembered replies and shared recommendation embeds, forgotten: every answer is new."""
    from bot import views

    views._RENDERED.clear()
    views._RECOMMENDATION_EMBEDS.clear()


def settle() -> None:
    """The collector as the bot leaves it after its warm-up (bot.app): what is loaded is frozen, and the
    running thresholds apply, so a pass's collections see what the bot's would, not the whole corpus's answers."""
    from bot.app import _gc_thresholds

    gc.collect()
    gc.freeze()
    gc.set_threshold(*_gc_thresholds())


def one_pass(items: list[tuple[str, Any]]) -> float:
    """CPU seconds for every answer's reply in every language."""
    from bot.views import answer_message

    forget()
    started = time.process_time()
    for lang in LANGS:
        for _, answer in items:
            answer_message(answer, lang)
    return time.process_time() - started


def dump(items: list[tuple[str, Any]], path: Path) -> None:
    """Every reply as Discord gets it: one JSON line per answer and language."""
    from bot.views import answer_message

    forget()
    with path.open("w", encoding="utf-8") as fh:
        for lang in LANGS:
            for qid, answer in items:
                message = answer_message(answer, lang)
                view = message.get("view")
                line = {
                    "id": qid,
                    "lang": lang,
                    "embed": message["embed"].to_dict(),
                    "components": view.to_components() if view is not None else None,
                    "keys": sorted(message),
                }
                fh.write(json.dumps(line, ensure_ascii=False, sort_keys=True, default=str) + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passes", type=int, default=7)
    parser.add_argument("--limit", type=int, default=0, help="only the first N questions")
    parser.add_argument("--profile", type=int, default=0, help="print the N costliest functions of one more pass")
    parser.add_argument("--dump", type=Path, help="write every reply as JSON lines to this file")
    args = parser.parse_args()
    items = answers(questions(args.limit or None))
    if args.dump:
        dump(items, args.dump)
        print(f"{len(items) * len(LANGS)} replies written to {args.dump}")
        return 0
    one_pass(items)  # warm-up: catalogs, imports, the cell widths' cache
    settle()
    replies = len(items) * len(LANGS)
    samples = [one_pass(items) / replies * 1e6 for _ in range(args.passes)]
    median = statistics.median(samples)
    print(
        f"{len(items)} answers × {len(LANGS)} languages, {args.passes} passes: "
        f"{median:.1f} µs per reply (median; passes {min(samples):.1f}-{max(samples):.1f})"
    )
    if args.profile:
        profile = cProfile.Profile()
        profile.enable()
        one_pass(items)
        profile.disable()
        pstats.Stats(profile).sort_stats("tottime").print_stats(args.profile)
    save(
        "compose", {"answers": len(items), "passes": args.passes, "us_per_reply": round(median, 2), "samples": samples}
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
