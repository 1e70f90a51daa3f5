"""The kind and task of a question from a small linear model, applied in pure Python.

The rules in ``engine.parse`` read what is certain in a question (numbers, money, counts, GPU and
model names); what a question *asks* is read here, by a linear model over two kinds of features:

- character n-grams of the cleaned, lower-cased text, digits folded to ``0`` (they work for Chinese
  and English alike, and for the spellings nobody listed: "finetuning", "显存不够", "OOM"), each
  counted, or, where the file's meta says ``binary``, each distinct one once;
- the rules' findings as named binary signals (``rule:can_run``, ``gpus:1``, ``fit``, ``cue:power``…),
  so the model learns when the rules are right and when the words say otherwise.

The weights are trained offline with scikit-learn (``data/corpus/train_classifier.py``) and shipped as
``data/classifier.npz``: the n-gram vocabulary, the signal names, one weight matrix for both heads and
their labels. Nothing is downloaded, and neither scikit-learn nor numpy is imported at run time: the
file is read with ``zipfile`` and ``struct`` (:func:`read_npz`), and the model is applied with integer
sums (:class:`Classifier`), so a bot process never loads numpy (≈20 MB of RSS, issue #24).
"""

from __future__ import annotations

import json
import math
import re
import struct
import zipfile
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import repeat
from operator import add
from pathlib import Path
from typing import Any

from engine.datafiles import data_dir

FILE = "classifier.npz"
NONE = "none"  # the task label for "no domain stated"
ORDERS = (1, 2, 3)  # character n-gram lengths
_FOLD = {**dict.fromkeys(range(ord(" ")), " "), **dict.fromkeys(map(ord, "123456789"), "0")}  # see grams
_BASE = 0x110000  # one more than the largest code point: an n-gram's key packs its code points in this base

# A weight row packs into one integer (see Classifier): one unsigned 64-bit field per label, in units of
# 2**-24, the smallest step of a float16 (the file's weights are float16, so every weight is a whole
# number of units, below 2**40 in size). Each field holds the weight plus _OFFSET, so a sum of rows
# never borrows from the field above it; a last field holds 1, so a sum says how many rows it adds up
# (and how many offsets to take away). A field overflows only past 2**23 rows, far beyond the
# parser's text limit.
_UNIT = 2**24
_OFFSET = 2**40


def grams(low: str) -> list[str]:
    """Every character 1-, 2- and 3-gram of the text, repeats kept.

    The text is the cleaned, lower-cased question padded with a space at each end (so word starts and
    ends are n-grams too), with digits folded to 0 and line breaks and tabs read as spaces. The folding
    is one str.translate, and the 2- and 3-grams are joined pairwise by map() (C loops, which keeps the
    parser fast)."""
    text = f" {low} ".translate(_FOLD)
    two = [*map(add, text, text[1:])]
    return [*text, *two, *map(add, two, text[2:])]


def gram_set(low: str) -> set[str]:
    """``set(grams(low))``, built as a set at once (no list of every n-gram first): what a ``binary``
    model reads."""
    text = f" {low} ".translate(_FOLD)
    two = [*map(add, text, text[1:])]
    return {*text, *two, *map(add, two, text[2:])}


def gram_key(gram: str) -> int:
    """The integer an n-gram is stored as in the file: its code points in base 0x110000, which is exact
    (3 × 21 bits < 64) and tells the lengths apart (no text holds code point 0)."""
    key = 0
    for char in gram:
        key = key * _BASE + ord(char)
    return key


def gram_keys(low: str) -> list[int]:
    """:func:`grams` as the file's integer keys (for training, which builds the vocabulary of keys)."""
    return [gram_key(g) for g in grams(low)]


def key_text(key: int) -> str:
    """The n-gram an integer key stands for (to read the vocabulary)."""
    chars = []
    while key:
        key, cp = divmod(key, _BASE)
        chars.append(chr(cp))
    return "".join(reversed(chars))


def pack(row: Iterable[float]) -> int:
    """One weight row (one weight per label) as one integer, so that adding rows is adding integers."""
    units = [weight * _UNIT for weight in row]
    if any(u != int(u) or abs(u) >= _OFFSET for u in units):
        raise ValueError(f"weights that are not float16 values: {[u / _UNIT for u in units]}")
    fields = [int(u) + _OFFSET for u in units] + [1]
    return int.from_bytes(struct.pack(f"<{len(fields)}Q", *fields), "little")


def unpack(total: int, labels: int) -> list[float]:
    """Each label's sum of the weights in ``total``, a sum of :func:`pack` results (0: no rows)."""
    *sums, rows = struct.unpack(f"<{labels + 1}Q", total.to_bytes(8 * (labels + 1), "little"))
    offsets = rows * _OFFSET
    return [(s - offsets) / _UNIT for s in sums]


# ---- the file: numpy's .npz (a zip of .npy files) read without numpy ---------------------------

_NPY_HEADER = re.compile(r"\{'descr': '[<|](\w+)', 'fortran_order': False, 'shape': \(([\d, ]*)\), \}")
_NPY_NUMBERS = {"u8": "Q", "f2": "e", "f4": "f", "f8": "d"}  # numpy's dtype → struct's format character


def read_npz(path: Path) -> dict[str, Any]:
    """The arrays of an .npz file as lists (nested per dimension; a 0-d array is its one value).

    An .npy file is a magic string, a header (a Python dict literal: the dtype, the shape, whether the
    order is Fortran's) and the values, raw, little-endian here. Only what the training script writes
    is read: little-endian unsigned integers, floats and unicode strings, in C order."""
    out: dict[str, Any] = {}
    with zipfile.ZipFile(path) as archive:
        for name in archive.namelist():
            data = archive.read(name)
            if data[:8] != b"\x93NUMPY\x01\x00":
                raise ValueError(f"{name}: not an .npy file of version 1.0")
            (length,) = struct.unpack_from("<H", data, 8)
            header = _NPY_HEADER.fullmatch(data[10 : 10 + length].decode("latin-1").rstrip())
            if header is None:
                raise ValueError(f"{name}: an .npy header this reader does not know")
            dtype, dims = header.groups()
            shape = [int(d) for d in dims.split(",") if d.strip()]
            body = data[10 + length :]
            count = math.prod(shape)
            if dtype.startswith("U"):  # fixed-width UTF-32, padded with NULs
                width = int(dtype[1:])
                text = body.decode("utf-32-le")
                values: list[Any] = [text[i * width : (i + 1) * width].rstrip("\0") for i in range(count)]
            else:
                values = list(struct.unpack_from(f"<{count}{_NPY_NUMBERS[dtype]}", body))
            for size in reversed(shape[1:]):
                values = [values[i : i + size] for i in range(0, len(values), size)]
            out[name.removesuffix(".npy")] = values if shape else values[0]
    return out


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
    - the full one reads the n-grams too (:meth:`predict`): ``gram_rows`` holds the n-grams it knows
      and ``signal_rows`` the signals, each with its weight row (one weight per label of both heads)
      packed into one integer (:func:`pack`).

    Packed, a question's weights add up in one ``sum()`` of a hundred or so integers, a C loop, and
    exactly. Inside the parser the full model then costs what it did with numpy (≈55 µs a question),
    whose ≈20 MB every bot process paid (issue #24); alone it takes ≈50 µs a call against numpy's ≈30,
    and rows of floats summed label by label ≈80 (docs/performance.md, "Tenth session"). The parser
    asks the quick model first and the full one only when the quick one is unsure, which costs no
    accuracy (docs/parsing.md)."""

    def __init__(
        self,
        keys: Iterable[int],
        signals: Sequence[str],
        weights: Iterable[Iterable[float]],
        bias: Iterable[float],
        quick_weights: Iterable[Iterable[float]],
        quick_bias: Iterable[float],
        heads: dict[str, tuple[str, ...]],
        meta: dict[str, Any],
    ) -> None:
        """``weights`` has one row per key (in the keys' order), then one per signal, one column per label
        (float16 values: see :func:`pack`); the quick model's ``quick_weights`` one row per signal."""
        texts = [key_text(int(k)) for k in keys]
        rows = [pack(map(float, row)) for row in weights]
        self.gram_rows = dict(zip(texts, rows[: len(texts)], strict=True))
        self.signal_rows = dict(zip(signals, rows[len(texts) :], strict=True))
        self.bias = tuple(float(v) for v in bias)
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
        return len(self.gram_rows)

    @property
    def signals(self) -> list[str]:
        return list(self.signal_rows)

    def weights(self) -> list[list[float]]:
        """The full model's weight rows as floats, the n-grams' then the signals' (to write the file)."""
        return [unpack(row, len(self.bias)) for row in (*self.gram_rows.values(), *self.signal_rows.values())]

    @classmethod
    def load(cls, path: Path) -> Classifier:
        data = read_npz(path)
        return cls(
            keys=data["keys"],
            signals=data["signals"],
            weights=data["weights"],
            bias=data["bias"],
            quick_weights=data["quick_weights"],
            quick_bias=data["quick_bias"],
            heads={name: tuple(data[f"labels_{name}"]) for name in data["heads"]},
            meta=json.loads(data["meta"]),
        )

    def logits(self, low: str, signals: frozenset[str] | set[str]) -> list[float]:
        """The full model's scores of every label: n-gram weights × counts / sqrt(n-grams), plus signal weights.

        A model trained with ``binary`` in its meta counts each distinct n-gram once, over sqrt(distinct n-grams)."""
        found: Collection[str] = gram_set(low) if self.binary else grams(low)
        scale = 1 / math.sqrt(len(found))
        labels = len(self.bias)
        # n-grams it does not know are left out (None); the sum of integers is exact in any order
        text = unpack(sum(filter(None, map(self.gram_rows.get, found))), labels)
        rules = unpack(sum(map(self.signal_rows.get, signals, repeat(0))), labels)
        return [b + t * scale + r for b, t, r in zip(self.bias, text, rules, strict=True)]

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
