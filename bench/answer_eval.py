"""How many real questions get an answer with the properties a good answer must have.

Each question of the real-question corpus (data/corpus/questions.jsonl) carries, in ``answer``, what
an expert's answer to it must do: its kind (a can-run verdict, "what my card runs", a comparison, a
recommendation, a rent-or-buy answer, …), the GPUs it must cover, the yes/no where there is one,
and the yardstick (memory fit, decode tokens/s, 16-bit training, break-even). This script asks the
bot each question the way chat does (parse → respond, one question at a time, no conversation) and
checks each property. The test split is held out: report it as it falls, tune on train and dev.

The yardstick is met by what the answer shows for that work: a comparison or ranking by it; for memory fit,
a need, a verdict, what a card holds, or the guide's floor led by the cheapest card that meets it; for
16-bit training or inference, a can-run answer's speed line for named cards (``CanRunReport.speeds``), an
LLM fine-tune's hours per 100M tokens, or a spec card's speed line for that work; for decode, tokens/s in a
verdict or a spec card's decode line. (The last four counted from 2026-12-06 11:00 UTC; docs/answers.md gives
the figures by the earlier rule beside them.)

    .venv/bin/python bench/answer_eval.py                 # every split
    .venv/bin/python bench/answer_eval.py --split dev -v  # and each failing question of dev
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from parse_eval import gpu_matches  # noqa: E402  (bench/ is on the path: the scripts' own folder)

from bot.chat import respond, understand  # noqa: E402
from engine.advisor import AdviceContext  # noqa: E402
from engine.answer import Answer  # noqa: E402
from engine.catalog import load_catalog  # noqa: E402

CORPUS = ROOT / "data" / "corpus" / "questions.jsonl"
# The answer kinds that answer a question of each labelled kind.
KINDS: dict[str, set[str]] = {
    "can_run": {"can_run"},
    "my_card": {"can_run"},
    "apple": {"can_run", "compare", "recommend", "info"},
    "compare": {"compare"},
    "recommend": {"recommend", "compare"},  # with 2+ cards named, a comparison with a pick recommends
    "cloud": {"cloud_vs_buy"},
    "cloud_vs_buy": {"cloud_vs_buy"},
    "power": {"power"},
    # A spec card leads with the card's software status: the answer to "is X supported by ROCm/CUDA/…?"
    "explain": {"explain", "info"},
    "wait": {"explain", "recommend"},
    "other": {"other", "explain", "info"},
}


def _covers(expected: str, shown: Iterable[str]) -> bool:
    """The scoring rule of shared/questions/README.md, as bench/parse_eval.py applies it."""
    return any(gpu_matches(expected, gpu_id) for gpu_id in shown)


def _gpus_shown(answer: Answer) -> set[str]:
    shown = set(answer.query.gpus)
    shown |= {o.gpu_id for o in (*answer.options, *answer.alternatives)}
    shown |= {r.gpu_id for r in answer.rentals}
    if answer.comparison:
        shown |= set(answer.comparison.gpu_ids)
    if answer.can_run:
        shown |= {v.gpu_id for v in answer.can_run.verdicts} | {a.gpu_id for a in answer.can_run.alternatives}
    if answer.spec:
        shown.add(answer.spec.id)
    if answer.power:
        shown.add(answer.power.gpu_id)
    return shown


def _fits(answer: Answer) -> bool | None:
    report = answer.can_run
    if report is None:
        return None
    if report.published_fits:  # answered from a tool's published requirement (diffusion training)
        return any(report.published_fits)
    if report.verdicts:
        return any(v.fits for v in report.verdicts)
    if report.memory_verdict is not None:
        return report.memory_verdict.fits
    return report.lean  # no model's figures: the card against the guide's floor, or what it runs


_WORKLOADS = {"decode_tokens_per_s": "decode"}  # the labels' metric names that differ from the engine's workloads


def _metric(answer: Answer, metric: str) -> bool:
    report = answer.can_run
    if metric == "memory_fit":
        # A need, a verdict or what a card holds; or, for work we have no figures for, the guide's floor
        # with the cards that meet it led by the cheapest (memory decides, not the best value per dollar)
        floor_led = bool(
            report
            and report.floor
            and answer.options
            and answer.options[0].price.usd == min(o.price.usd for o in answer.options)
        )
        return floor_led or bool(
            report and (report.verdicts or report.memory_verdict or report.card or report.needs or report.by_size)
        )
    if answer.kind == "info":  # a spec card's speed line: for the work named, or for training and LLM decode
        keys = set(answer.headline.all_keys())
        if metric == "decode_tokens_per_s" and keys & {"advice.info.expected_decode", "advice.info.speed"}:
            return True
        if "advice.info.speed_for" in keys and f"workload.{_WORKLOADS.get(metric, metric)}" in keys:
            return True
    if metric == "train16" and report is not None and any(v.training for v in report.verdicts):
        return True  # a fine-tune's verdict: hours per 100M tokens on each setup, from its training throughput
    if report is not None and any(s.gpu.workload == metric for s in report.speeds):
        return True  # training or running a non-LLM on named cards: their speed for that work
    if metric == "decode_tokens_per_s":
        rows = [*(report.verdicts if report else ()), *(r.verdict for r in (report.card if report else ()))]
        ranked = answer.comparison.workload if answer.comparison else None  # a comparison ranked by decode
        return any(v.decode is not None for v in rows) or ranked == "decode"
    if metric == "break_even":
        return answer.break_even is not None or bool(answer.rentals)
    workload = (
        answer.comparison.workload if answer.comparison else answer.options[0].workload if answer.options else None
    )
    return workload == metric


def check(row: dict, answer: Answer) -> dict[str, bool]:
    """Each labelled property of ``row``'s good answer: held (True) or missed (False)."""
    want = row["answer"]
    out = {"kind": answer.kind in KINDS.get(want["kind"], {want["kind"]})}
    if want["must_cover"]:
        shown = _gpus_shown(answer)
        out["covers"] = all(_covers(g, shown) for g in want["must_cover"])
    if want["yes_no"] is not None:
        out["yes_no"] = _fits(answer) == want["yes_no"]
    if want["metric"]:
        out["metric"] = _metric(answer, want["metric"])
    return out


def evaluate(rows: list[dict], verbose: bool = False) -> dict[str, float]:
    context = AdviceContext()
    held, asked, good = Counter(), Counter(), 0
    for row in rows:
        answer = respond(understand(row["text"], None, "USD"), context)
        result = check(row, answer)
        asked.update(result.keys())
        held.update(k for k, ok in result.items() if ok)
        good += all(result.values())
        if verbose and not all(result.values()):
            missed = ", ".join(k for k, ok in result.items() if not ok)
            print(f"  {row['id']} [{missed}] {row['text'][:100]!r} → {answer.kind}")
    figures = {k: held[k] / asked[k] for k in sorted(asked)}
    figures["all"] = good / len(rows) if rows else 0.0
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("train", "dev", "test"), action="append")
    parser.add_argument("-v", "--verbose", action="store_true", help="list the questions that miss a property")
    args = parser.parse_args(argv)
    load_catalog()
    rows = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]
    for split in args.split or ("train", "dev", "test"):
        chosen = [r for r in rows if r["split"] == split]
        figures = evaluate(chosen, verbose=args.verbose and split != "test")  # never read test rows one by one
        parts = "  ".join(f"{k} {v:.1%}" for k, v in figures.items())
        print(f"{split:5s} n={len(chosen):3d}  {parts}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
