"""Train the question classifier (kind and task) shipped as data/classifier.npz.

    .venv/bin/python data/corpus/train_classifier.py            # train with the chosen settings, write the file
    .venv/bin/python data/corpus/train_classifier.py --search   # also try the settings grid on the dev split

Needs scikit-learn (the ``dev`` extra); the bot does not: engine/classify.py applies the weights with numpy.

Training data: the corpus' train split (data/corpus/questions.jsonl), /work/shared/questions/dev.jsonl and
tests/engine/parse_questions.jsonl. Model selection: the corpus' dev split. The test split is never read.

Features (engine/classify.py): character 1-3-grams of the cleaned, lower-cased text with digits folded to 0,
each count scaled by 1/sqrt(number of n-grams in the text), plus the parser's rule findings as binary
signals. One multinomial logistic regression per head (kind, task) over both, and a quick one for the kind
over the signals alone (the parser asks it first). N-grams seen in fewer than ``MIN_DF`` training questions
are dropped, then all but the ``MAX_NGRAMS`` strongest, so the file stays small; weights are stored as
float16. The dev figures are computed through the parser's own decision (engine.parse.Parser.decide), so
they are what parse() does with the file.
"""

from __future__ import annotations

import argparse
import collections
import datetime as dt
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
from scipy import sparse
from sklearn.linear_model import LogisticRegression

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from engine.catalog import load_catalog  # noqa: E402
from engine.classify import FILE, NONE, Classifier, gram_keys  # noqa: E402
from engine.parse import _RULES, Parser, Reading, _parser_for  # noqa: E402

CORPUS = ROOT / "data" / "corpus" / "questions.jsonl"
SHARED_DEV = Path("/work/shared/questions/dev.jsonl")
OWN = ROOT / "tests" / "engine" / "parse_questions.jsonl"
OUT = ROOT / "data" / FILE

# The chosen settings (from --search on the dev split; see docs/parsing.md).
C_KIND = 3.0
C_TASK = 10.0
C_QUICK = 3.0  # the quick model (signals only, kind only)
MIN_DF = 2
PRUNE = 0.02  # n-grams whose largest absolute weight (float32) is below this are dropped
MAX_NGRAMS = 2000  # and only the strongest this many are kept: a small table stays in the CPU's cache
HEADS = ("kind", "task")


def load(path: Path, split: str | None = None) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    if split is not None:
        rows = [r for r in rows if r.get("split") == split]
        assert all(r["split"] != "test" for r in rows)
    return rows


def label(row: dict[str, Any], head: str) -> str:
    value = row["expected"][head]
    return NONE if value is None else str(value)


class Data:
    """Questions read by the parser's rules: the text and signals the classifier sees, and the labels."""

    def __init__(self, parser: Parser, rows: list[dict[str, Any]]) -> None:
        self.rows = rows
        self.readings: list[Reading] = [parser.read(r["text"], standalone=True) for r in rows]
        self.labels = {head: [label(r, head) for r in rows] for head in HEADS}

        self.grams = [gram_keys(r.low) for r in self.readings]


def matrix(data: Data, vocab: dict[int, int], signals: dict[str, int]) -> sparse.csr_matrix:
    """The feature matrix exactly as Classifier.logits computes it."""
    values: list[float] = []
    rows: list[int] = []
    cols: list[int] = []
    for i, (grams, reading) in enumerate(zip(data.grams, data.readings, strict=True)):
        scale = 1.0 / np.sqrt(len(grams)) if len(grams) else 0.0
        keys, counts = np.unique(grams, return_counts=True)
        for key, count in zip(keys.tolist(), counts.tolist(), strict=True):
            if key in vocab:
                rows.append(i)
                cols.append(vocab[key])
                values.append(count * scale)
        for name in reading.signals:
            if name in signals:
                rows.append(i)
                cols.append(len(vocab) + signals[name])
                values.append(1.0)
    return sparse.csr_matrix((values, (rows, cols)), shape=(len(data.rows), len(vocab) + len(signals)))


def fit(train: Data, c_kind: float, c_task: float, prune: float = PRUNE, max_ngrams: int = MAX_NGRAMS) -> Classifier:
    """Fit both heads and return the pruned model as the parser would load it (float16 weights)."""
    df = collections.Counter(k for grams in train.grams for k in set(grams.tolist()))
    vocab = {k: i for i, k in enumerate(sorted(k for k, n in df.items() if n >= MIN_DF))}
    signals = {s: i for i, s in enumerate(sorted({s for r in train.readings for s in r.signals}))}
    x = matrix(train, vocab, signals)
    x_quick = x[:, len(vocab) :]  # the signals alone
    weights, biases, quick_weights, quick_biases, heads = [], [], [], [], {}
    for head, c in (("kind", c_kind), ("task", c_task)):
        model = LogisticRegression(C=c, max_iter=5000)
        model.fit(x, train.labels[head])
        heads[head] = tuple(str(k) for k in model.classes_)
        weights.append(model.coef_.T)
        biases.append(model.intercept_)
        if head == "kind":  # the quick model decides the kind only
            quick = LogisticRegression(C=C_QUICK, max_iter=5000)
            quick.fit(x_quick, train.labels[head])
            assert tuple(str(k) for k in quick.classes_) == heads[head]
            quick_weights.append(quick.coef_.T)
            quick_biases.append(quick.intercept_)
    w = np.hstack(weights).astype(np.float32)
    b = np.concatenate(biases).astype(np.float32)
    qw = np.hstack(quick_weights).astype(np.float16).astype(np.float32)
    qb = np.concatenate(quick_biases).astype(np.float32)
    keys = np.array(sorted(vocab, key=vocab.__getitem__), dtype=np.uint64)
    strength = np.abs(w[: len(keys)]).max(axis=1)
    keep = strength >= max(prune, np.sort(strength)[-max_ngrams] if len(keys) > max_ngrams else 0.0)
    w = np.vstack([w[: len(keys)][keep], w[len(keys) :]]).astype(np.float16).astype(np.float32)
    names = sorted(signals, key=signals.__getitem__)
    meta = {
        "orders": [1, 2, 3],
        "C_kind": c_kind,
        "C_task": c_task,
        "min_df": MIN_DF,
        "prune": prune,
        "max_ngrams": max_ngrams,
        "ngrams_seen": len(keys),
        "ngrams_kept": int(keep.sum()),
        "signals": len(names),
        "training_questions": len(train.rows),
    }
    return Classifier(keys[keep], names, w, b, qw, qb, heads, meta)


def evaluate(parser: Parser, model: Classifier, data: Data) -> dict[str, float]:
    """Kind and task accuracy on ``data`` through the parser's own decision, and how often it asks."""
    right = {"kind": 0, "task": 0}
    asked = 0
    for reading, kind, task in zip(data.readings, data.labels["kind"], data.labels["task"], strict=True):
        got, choices, got_task = parser.decide(reading, model)
        right["kind"] += (got or "other") == kind
        asked += bool(choices)
        if got_task is _RULES:
            got_task = reading.fields["task"]
        right["task"] += (got_task or NONE) == task
    n = max(len(data.rows), 1)
    return {"kind": right["kind"] / n, "task": right["task"] / n, "asked": asked / n}


def save(model: Classifier, path: Path, meta: dict[str, Any]) -> None:
    labels = {f"labels_{head}": np.array(model.heads[head]) for head in model.heads}
    np.savez_compressed(
        path,
        keys=model.keys[:-1],
        signals=np.array(model.signals),
        weights=model.weights.astype(np.float16),
        bias=model.bias.astype(np.float32),
        quick_weights=np.array([model.quick_rows[s] for s in model.signals], dtype=np.float16),
        quick_bias=np.array(model.quick_bias, dtype=np.float32),
        heads=np.array(list(model.heads)),
        meta=np.array(json.dumps(meta, sort_keys=True)),
        **labels,
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--search", action="store_true", help="try the settings grid and report dev figures")
    args = ap.parse_args(argv)
    parser = _parser_for(load_catalog())
    train = Data(parser, load(CORPUS, "train") + load(SHARED_DEV) + load(OWN))
    dev = Data(parser, load(CORPUS, "dev"))
    rules = {
        "kind": float(
            np.mean([(r.rule_kind or "other") == k for r, k in zip(dev.readings, dev.labels["kind"], strict=True)])
        ),
        "task": float(
            np.mean([(r.fields["task"] or NONE) == t for r, t in zip(dev.readings, dev.labels["task"], strict=True)])
        ),
    }
    print(
        f"training questions {len(train.rows)}, dev questions {len(dev.rows)}; "
        f"rules alone on dev: kind {rules['kind']:.1%}, task {rules['task']:.1%}"
    )
    if args.search:
        for c_kind in (0.3, 1.0, 3.0, 10.0, 30.0):
            for c_task in (1.0, 3.0, 10.0, 30.0):
                model = fit(train, c_kind, c_task, PRUNE)
                got = evaluate(parser, model, dev)
                print(
                    f"  C kind {c_kind:g} task {c_task:g}: kind {got['kind']:.1%} task {got['task']:.1%} "
                    f"asked {got['asked']:.1%} ({model.size} n-grams)"
                )
    model = fit(train, C_KIND, C_TASK, PRUNE)
    got = evaluate(parser, model, dev)
    fitted = evaluate(parser, model, train)
    meta = {
        **model.meta,
        "trained": dt.date.today().isoformat(),
        "dev_kind": round(got["kind"], 4),
        "dev_task": round(got["task"], 4),
        "dev_asked": round(got["asked"], 4),
        "train_kind": round(fitted["kind"], 4),
        "train_task": round(fitted["task"], 4),
    }
    save(model, args.out, meta)
    size = args.out.stat().st_size
    print(
        f"C kind {C_KIND:g} task {C_TASK:g}: {meta['ngrams_kept']} of {meta['ngrams_seen']} n-grams kept, "
        f"{meta['signals']} signals; {args.out.name} {size / 1024:.0f} KB"
    )
    print(
        f"dev: kind {got['kind']:.1%}, task {got['task']:.1%}, kind asked about {got['asked']:.1%}; "
        f"training set: kind {fitted['kind']:.1%}, task {fitted['task']:.1%}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
