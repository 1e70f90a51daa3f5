"""The kind and task of a question from a small linear model, applied with numpy alone.

The rules in ``engine.parse`` read what is certain in a question (numbers, money, counts, GPU and
model names); what a question *asks* is read here, by a linear model over two kinds of features:

- character n-grams of the cleaned, lower-cased text, digits folded to ``0`` (they work for Chinese
  and English alike, and for the spellings nobody listed: "finetuning", "显存不够", "OOM"), each
  counted, or, where the file's meta says ``binary``, each distinct one once;
- the rules' findings as named binary signals (``rule:can_run``, ``gpus:1``, ``fit``, ``cue:power``…),
  so the model learns when the rules are right and when the words say otherwise.

The weights are trained offline with scikit-learn (``data/corpus/train_classifier.py``) and shipped as
``data/classifier.npz``: the n-gram vocabulary, the signal names, one weight matrix for both heads and
their labels. Nothing is downloaded and scikit-learn is not imported at run time.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.datafiles import data_dir

FILE = "classifier.npz"
NONE = "none"  # the task label for "no domain stated"
ORDERS = (1, 2, 3)  # character n-gram lengths
_FOLD = {**dict.fromkeys(range(ord(" ")), " "), **dict.fromkeys(map(ord, "123456789"), "0")}  # see gram_keys
_BASE = np.uint64(0x110000)  # one more than the largest code point: n-grams pack into one integer
_NEVER = np.uint64(2**64 - 1)  # a key no n-gram has (ends the sorted vocabulary)


def gram_keys(low: str) -> npt.NDArray[np.uint64]:
    """Every character 1-, 2- and 3-gram of the text (repeats kept) as an integer.

    The text is the cleaned, lower-cased question padded with a space at each end (so word starts and
    ends are n-grams too), with digits folded to 0 and line breaks and tabs read as spaces. An n-gram's
    key packs its code points in base 0x110000, which is exact (3 × 21 bits < 64) and tells the lengths
    apart (no text holds code point 0). A few array operations compute them all, which keeps the parser
    fast."""
    # The folding is one str.translate (a C loop) rather than masked array assignments.
    cp = np.frombuffer(f" {low} ".translate(_FOLD).encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
    two = cp[:-1] * _BASE + cp[1:]
    three = two[:-1] * _BASE + cp[2:]
    return np.concatenate((cp, two, three))


def key_text(key: int) -> str:
    """The n-gram an integer key stands for (to read the vocabulary)."""
    chars = []
    while key:
        key, cp = divmod(key, 0x110000)
        chars.append(chr(cp))
    return "".join(reversed(chars))


@dataclass(frozen=True)
class Prediction:
    """One head's labels and their probabilities (in the model's label order)."""

    labels: tuple[str, ...]
    probs: tuple[float, ...]

    @property
    def best(self) -> str:
        return self.labels[self.probs.index(max(self.probs))]

    @property
    def confidence(self) -> float:
        return max(self.probs)

    def ranked(self) -> list[tuple[str, float]]:
        """(label, probability), likeliest first."""
        return sorted(zip(self.labels, self.probs, strict=True), key=lambda lp: -lp[1])


class Classifier:
    """The shipped model: two linear models over the same labels (heads ``kind`` and ``task``).

    - the quick one reads only the rules' signals and gives the kind (:meth:`quick`): a few additions;
    - the full one reads the n-grams too (:meth:`predict`): ``keys`` are the n-grams it knows (sorted,
      see :func:`gram_keys`); ``weights`` has one row per key, then one per signal, one column per label.

    The parser asks the quick model first and the full one only when the quick one is unsure, which
    costs no accuracy (docs/parsing.md) and keeps most questions free of array work."""

    def __init__(
        self,
        keys: npt.NDArray[np.uint64],
        signals: list[str],
        weights: npt.NDArray[np.float32],
        bias: npt.NDArray[np.float32],
        quick_weights: npt.NDArray[np.float32],
        quick_bias: npt.NDArray[np.float32],
        heads: dict[str, tuple[str, ...]],
        meta: dict[str, Any],
    ) -> None:
        self.keys = np.append(keys.astype(np.uint64), _NEVER)
        self.signal_rows = {s: len(keys) + i for i, s in enumerate(signals)}
        self.weights = np.ascontiguousarray(weights, dtype=np.float32)
        self.bias = bias.astype(np.float32)
        self.quick_rows = {s: tuple(float(v) for v in row) for s, row in zip(signals, quick_weights, strict=True)}
        self.quick_bias = tuple(float(v) for v in quick_bias)
        self.heads = heads
        self.meta = meta
        self.binary = bool(meta.get("binary", False))  # n-grams present or not (else counted): as trained
        spans: dict[str, tuple[int, int]] = {}
        at = 0
        for name, labels in heads.items():
            spans[name] = (at, at + len(labels))
            at += len(labels)
        self.spans = spans

    @property
    def size(self) -> int:
        """How many n-grams it knows."""
        return len(self.keys) - 1

    @property
    def signals(self) -> list[str]:
        return sorted(self.signal_rows, key=self.signal_rows.__getitem__)

    @classmethod
    def load(cls, path: Path) -> Classifier:
        with np.load(path, allow_pickle=False) as data:
            heads = {str(name): tuple(str(x) for x in data[f"labels_{name}"]) for name in data["heads"]}
            return cls(
                keys=data["keys"],
                signals=[str(s) for s in data["signals"]],
                weights=data["weights"].astype(np.float32),
                bias=data["bias"].astype(np.float32),
                quick_weights=data["quick_weights"].astype(np.float32),
                quick_bias=data["quick_bias"].astype(np.float32),
                heads=heads,
                meta=json.loads(str(data["meta"])),
            )

    def logits(self, low: str, signals: frozenset[str] | set[str]) -> list[float]:
        """The full model's scores of every label: n-gram weights × counts / sqrt(n-grams), plus signal weights.

        A model trained with ``binary`` in its meta counts each distinct n-gram once, over sqrt(distinct n-grams)."""
        grams = gram_keys(low)
        grams.sort()  # sorted needles make the binary searches cheaper (a fresh array: sorted in place)
        if self.binary:  # each distinct n-gram once: drop the repeats (sorted, so they are neighbours)
            first = np.empty(len(grams), dtype=bool)
            first[0] = True
            np.not_equal(grams[1:], grams[:-1], out=first[1:])
            grams = grams[first]
        at = self.keys.searchsorted(grams)
        rows = at[self.keys[at] == grams]
        get = self.signal_rows.get
        sig = [r for r in map(get, signals) if r is not None]
        values = np.full(len(rows) + len(sig), 1 / np.sqrt(len(grams)), dtype=np.float32)
        values[len(rows) :] = 1.0
        # take(): the same rows as fancy indexing, in about half the time on arrays this small
        out: list[float] = (self.bias + values @ self.weights.take(np.concatenate((rows, sig)), axis=0)).tolist()
        return out

    def quick_logits(self, signals: frozenset[str] | set[str]) -> list[float]:
        """The quick model's kind scores: its bias plus the weights of the signals present."""
        rows = [self.quick_bias, *(r for r in map(self.quick_rows.get, signals) if r is not None)]
        return [sum(col) for col in zip(*rows, strict=True)]

    def predict(self, low: str, signals: frozenset[str] | set[str]) -> dict[str, Prediction]:
        """Each head's labels and probabilities by the full model (softmax of its scores)."""
        z = self.logits(low, signals)
        return {name: _softmax(self.heads[name], z[a:b]) for name, (a, b) in self.spans.items()}

    def quick(self, signals: frozenset[str] | set[str]) -> Prediction:
        """The kinds and their probabilities by the quick model, from the signals alone."""
        return _softmax(self.heads["kind"], self.quick_logits(signals))


def _softmax(labels: tuple[str, ...], scores: list[float]) -> Prediction:
    top = max(scores)
    exps = [math.exp(v - top) for v in scores]
    total = sum(exps)
    return Prediction(labels, tuple([e / total for e in exps]))


@cache
def load_classifier() -> Classifier | None:
    """The shipped model, loaded once; None when the file is absent (the rules then decide alone)."""
    path = data_dir() / FILE
    return Classifier.load(path) if path.exists() else None
