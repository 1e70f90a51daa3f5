"""Train the question classifier (kind and task) shipped as data/classifier.npz.

    .venv/bin/python data/corpus/train_classifier.py                    # train with the chosen settings, write the file
    .venv/bin/python data/corpus/train_classifier.py --search           # also try a C grid on the dev split
    .venv/bin/python data/corpus/train_classifier.py --cv 5             # 5-fold cross-validation of the chosen settings
    .venv/bin/python data/corpus/train_classifier.py --search --cv 5    # ... and of the settings grid (GRID)
    .venv/bin/python data/corpus/train_classifier.py --cv 5 --repeats 6 # the folds drawn 6 times (less noise)

Needs scikit-learn (the ``dev`` extra); the bot does not, nor numpy: engine/classify.py reads the file and applies
the weights in pure Python.
Set OPENBLAS_NUM_THREADS=1 for bit-identical files run to run (threaded BLAS may change the last digits).

Training data: the corpus' train split (data/corpus/questions.jsonl), /work/shared/questions/dev.jsonl and
tests/engine/parse_questions.jsonl. Model selection: ``--cv K``, stratified (by kind) K-fold cross-validation
over the corpus' train and dev splits together (the two question files are in every fold's training data;
the folds drawn with seed ``SEED``, or ``--repeats R`` times with seeds from it), mean ± standard deviation
over the folds: the dev split alone (271 questions) is too small to choose between settings. The file itself
is trained on the train split and the two files only, and the dev figures printed are for it. The test
split is never read.

Features (engine/classify.py): character 1-3-grams of the cleaned, lower-cased text with digits folded to 0,
each distinct n-gram counted once (``BINARY``) and scaled by 1/sqrt(number of distinct n-grams in the text),
plus the parser's rule findings as binary signals. One multinomial logistic regression per head (kind, task)
over both, and a quick one for the kind over the signals alone (the parser asks it first). While training
the full models the signals' value is ``SIGNAL_SCALE`` (under 1: more regularised, so the models lean more on
the words), folded into their weights so that at run time a signal is 1. N-grams seen in fewer than
``MIN_DF`` training questions are dropped, then all but the ``MAX_NGRAMS`` strongest, so the file stays
small; weights are stored as float16. All figures are computed through the parser's own decision
(engine.parse.Parser.decide), so they are what parse() does with the file.
"""

from __future__ import annotations

import argparse
import collections
import datetime as dt
import json
import statistics
import sys
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

import numpy as np
from scipy import sparse
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from engine.catalog import load_catalog  # noqa: E402
from engine.classify import FILE, NONE, Classifier, gram_key, gram_keys  # noqa: E402
from engine.parse import _RULES, Parser, Reading, _parser_for  # noqa: E402

CORPUS = ROOT / "data" / "corpus" / "questions.jsonl"
SHARED_DEV = Path("/work/shared/questions/dev.jsonl")
OWN = ROOT / "tests" / "engine" / "parse_questions.jsonl"
OUT = ROOT / "data" / FILE

# The chosen settings: by 5-fold cross-validation over train + dev (--search --cv 5), not by the dev split alone.
C_KIND = 20.0
C_TASK = 10.0
C_QUICK = 3.0  # the quick model (signals only, kind only)
SIGNAL_SCALE = 0.35  # the signals' value while training the full model: it leans more on the n-grams
BINARY = True  # an n-gram present counts once, however often it is there
MIN_DF = 2
PRUNE = 0.02  # n-grams whose largest absolute weight (float32) is below this are dropped
MAX_NGRAMS = 2000  # and only the strongest this many are kept: a small table stays in the CPU's cache
HEADS = ("kind", "task")
SEED = 0  # cross-validation folds


@dataclass(frozen=True)
class Settings:
    """What a training run may vary (the defaults are the chosen settings)."""

    c_kind: float = C_KIND
    c_task: float = C_TASK
    c_quick: float = C_QUICK
    min_df: int = MIN_DF
    prune: float = PRUNE
    max_ngrams: int = MAX_NGRAMS
    class_power: float = 0.0  # each class weighted by (its share of the questions) ** -class_power: 1 is "balanced"
    signal_scale: float = SIGNAL_SCALE  # the signals' value while training the full model (folded into their weights)
    binary: bool = BINARY  # each distinct n-gram counts once (scaled by 1/sqrt(distinct n-grams)), not its count
    idf: float = 0.0  # each n-gram's value while training times idf ** this (folded into its weights)

    def changed(self) -> str:
        """The settings that differ from the defaults, for printing."""
        base = Settings()
        diff = [
            f"{f.name}={getattr(self, f.name)}" for f in fields(self) if getattr(self, f.name) != getattr(base, f.name)
        ]
        return ", ".join(diff) or "defaults"


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

    def __init__(
        self, parser: Parser | None, rows: list[dict[str, Any]], readings: list[Reading] | None = None
    ) -> None:
        self.rows = rows
        if readings is None:
            assert parser is not None
            readings = [parser.read(r["text"], standalone=True) for r in rows]
        self.readings: list[Reading] = readings
        self.labels = {head: [label(r, head) for r in rows] for head in HEADS}
        self.grams = [gram_keys(r.low) for r in self.readings]

    def take(self, index: list[int] | np.ndarray[Any, Any]) -> Data:
        """The questions at ``index`` (read once: no parsing again)."""
        return Data(None, [self.rows[i] for i in index], [self.readings[i] for i in index])

    def __add__(self, other: Data) -> Data:
        return Data(None, self.rows + other.rows, self.readings + other.readings)


def matrix(data: Data, vocab: dict[int, int], signals: dict[str, int], binary: bool = False) -> sparse.csr_matrix:
    """The feature matrix exactly as Classifier.logits computes it (``binary``: each distinct n-gram counts once)."""
    values: list[float] = []
    rows: list[int] = []
    cols: list[int] = []
    for i, (grams, reading) in enumerate(zip(data.grams, data.readings, strict=True)):
        keys, counts = np.unique(grams, return_counts=True)
        if binary:
            counts[:] = 1
        scale = 1.0 / np.sqrt(counts.sum()) if len(grams) else 0.0
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


def class_weights(labels: list[str], power: float) -> dict[str, float] | None:
    """Weights that lift the rarer classes: (share of the questions) ** -power, 1 on average; None for power 0."""
    if not power:
        return None
    counts = collections.Counter(labels)
    raw = {k: (n / len(labels)) ** -power for k, n in counts.items()}
    mean = sum(raw[k] * n for k, n in counts.items()) / len(labels)
    return {k: v / mean for k, v in raw.items()}


def fit(train: Data, settings: Settings = Settings()) -> Classifier:
    """Fit both heads and return the pruned model as the parser would load it (float16 weights)."""
    st = settings
    df = collections.Counter(k for grams in train.grams for k in set(grams))
    vocab = {k: i for i, k in enumerate(sorted(k for k, n in df.items() if n >= st.min_df))}
    signals = {s: i for i, s in enumerate(sorted({s for r in train.readings for s in r.signals}))}
    n = len(train.rows)
    idf = np.array([np.log((1 + n) / (1 + df[k])) + 1 for k in sorted(vocab, key=vocab.__getitem__)]) ** st.idf
    scale = np.concatenate([idf, np.full(len(signals), st.signal_scale)])  # each column's factor while training
    raw = matrix(train, vocab, signals, st.binary)
    x = (raw @ sparse.diags(scale)).tocsr()
    x_quick = raw[:, len(vocab) :]  # the signals alone (unscaled: signal_scale weighs them against the n-grams)
    weighted = {head: class_weights(train.labels[head], st.class_power) for head in HEADS}
    weights, biases, quick_weights, quick_biases, heads = [], [], [], [], {}
    for head, c in (("kind", st.c_kind), ("task", st.c_task)):
        model = LogisticRegression(C=c, max_iter=5000, class_weight=weighted[head])
        model.fit(x, train.labels[head])
        heads[head] = tuple(str(k) for k in model.classes_)
        weights.append(model.coef_.T)
        biases.append(model.intercept_)
        if head == "kind":  # the quick model decides the kind only
            quick = LogisticRegression(C=st.c_quick, max_iter=5000, class_weight=weighted[head])
            quick.fit(x_quick, train.labels[head])
            assert tuple(str(k) for k in quick.classes_) == heads[head]
            quick_weights.append(quick.coef_.T)
            quick_biases.append(quick.intercept_)
    w = np.hstack(weights).astype(np.float32)
    w *= scale[:, None]  # at run time the values are unscaled
    b = np.concatenate(biases).astype(np.float32)
    qw = np.hstack(quick_weights).astype(np.float16).astype(np.float32)
    qb = np.concatenate(quick_biases).astype(np.float32)
    keys = np.array(sorted(vocab, key=vocab.__getitem__), dtype=np.uint64)
    strength = np.abs(w[: len(keys)]).max(axis=1)
    floor = np.sort(strength)[-st.max_ngrams] if len(keys) > st.max_ngrams else 0.0
    keep = strength >= max(st.prune, floor)
    w = np.vstack([w[: len(keys)][keep], w[len(keys) :]]).astype(np.float16).astype(np.float32)
    names = sorted(signals, key=signals.__getitem__)
    meta = {
        "orders": [1, 2, 3],
        "C_kind": st.c_kind,
        "C_task": st.c_task,
        "C_quick": st.c_quick,
        "min_df": st.min_df,
        "prune": st.prune,
        "max_ngrams": st.max_ngrams,
        "class_power": st.class_power,
        "signal_scale": st.signal_scale,
        "idf": st.idf,
        "binary": st.binary,
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


def folds(pool: Data, k: int, seed: int = SEED) -> list[tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]]:
    """K stratified folds (by kind) of ``pool``, the same for every setting compared."""
    split = StratifiedKFold(n_splits=k, shuffle=True, random_state=seed)
    return list(split.split(np.zeros(len(pool.rows)), pool.labels["kind"]))


def cross_validate(
    parser: Parser,
    pool: Data,
    extra: Data,
    settings: Settings,
    k: int = 5,
    repeats: int = 1,
) -> list[dict[str, float]]:
    """Each fold's figures: trained on the other folds plus ``extra``, scored on the fold (parse()'s decision);
    ``repeats`` times over, with the folds drawn with seeds SEED, SEED + 1, ..."""
    out = []
    for seed in range(SEED, SEED + repeats):
        for train_index, test_index in folds(pool, k, seed):
            model = fit(pool.take(train_index) + extra, settings)
            out.append(evaluate(parser, model, pool.take(test_index)))
    return out


def summary(results: list[dict[str, float]]) -> str:
    """Mean ± standard deviation over folds of the kind and task accuracy and the share asked about."""

    def one(key: str) -> str:
        values = [r[key] for r in results]
        spread = statistics.stdev(values) if len(values) > 1 else 0.0
        return f"{key} {statistics.mean(values):.1%} ± {spread:.1%}"

    return ", ".join(one(key) for key in ("kind", "task", "asked"))


# --search --cv K tries these, one change at a time from the chosen settings (and the settings used until
# 2026-12-06: counts, signals at 1, C kind 3).
PREVIOUS = Settings(c_kind=3.0, signal_scale=1.0, binary=False)
GRID: tuple[Settings, ...] = (
    Settings(),
    PREVIOUS,
    *(Settings(c_kind=c) for c in (10.0, 40.0)),
    *(Settings(c_task=c) for c in (3.0, 30.0)),
    *(Settings(signal_scale=v) for v in (0.25, 0.5, 1.0)),
    Settings(binary=False),
    *(Settings(min_df=n) for n in (1, 3)),
    *(Settings(max_ngrams=n) for n in (1000, 4000)),
    Settings(class_power=0.5),
    Settings(idf=0.5),
)


def save(model: Classifier, path: Path, meta: dict[str, Any]) -> None:
    labels = {f"labels_{head}": np.array(model.heads[head]) for head in model.heads}
    np.savez_compressed(
        path,
        keys=np.array([gram_key(g) for g in model.gram_rows], dtype=np.uint64),
        signals=np.array(model.signals),
        weights=np.array(model.weights(), dtype=np.float16),
        bias=np.array(model.bias, dtype=np.float32),
        quick_weights=np.array([model.quick_rows[s] for s in model.signals], dtype=np.float16),
        quick_bias=np.array(model.quick_bias, dtype=np.float32),
        heads=np.array(list(model.heads)),
        meta=np.array(json.dumps(meta, sort_keys=True)),
        **labels,
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--search", action="store_true", help="try the settings grid and report dev (or --cv) figures")
    ap.add_argument("--cv", type=int, metavar="K", help="K-fold cross-validation over train + dev; writes nothing")
    ap.add_argument("--repeats", type=int, default=1, metavar="R", help="with --cv: R draws of the K folds")
    args = ap.parse_args(argv)
    parser = _parser_for(load_catalog())
    extra = Data(parser, load(SHARED_DEV) + load(OWN))
    train = Data(parser, load(CORPUS, "train")) + extra
    dev = Data(parser, load(CORPUS, "dev"))
    if args.cv:
        pool = Data(parser, load(CORPUS, "train") + load(CORPUS, "dev"))
        print(
            f"{args.cv}-fold cross-validation ({args.repeats}×) over {len(pool.rows)} train + dev questions "
            f"(plus {len(extra.rows)} always trained on), mean ± spread over folds:"
        )
        for settings in GRID if args.search else (Settings(),):
            results = cross_validate(parser, pool, extra, settings, args.cv, args.repeats)
            print(f"  {settings.changed()}: {summary(results)}", flush=True)
        return 0
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
                model = fit(train, replace(Settings(), c_kind=c_kind, c_task=c_task))
                got = evaluate(parser, model, dev)
                print(
                    f"  C kind {c_kind:g} task {c_task:g}: kind {got['kind']:.1%} task {got['task']:.1%} "
                    f"asked {got['asked']:.1%} ({model.size} n-grams)"
                )
    model = fit(train)
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
        f"C kind {C_KIND:g} task {C_TASK:g}, signals at {SIGNAL_SCALE:g}, {'binary' if BINARY else 'counted'} n-grams: "
        f"{meta['ngrams_kept']} of "
        f"{meta['ngrams_seen']} n-grams kept, {meta['signals']} signals; {args.out.name} {size / 1024:.0f} KB"
    )
    print(
        f"dev: kind {got['kind']:.1%}, task {got['task']:.1%}, kind asked about {got['asked']:.1%}; "
        f"training set: kind {fitted['kind']:.1%}, task {fitted['task']:.1%}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
