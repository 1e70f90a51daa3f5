"""The classifier applied without numpy (issue #24): the file read by engine.classify.read_npz is what
numpy reads, and the integer sums give the scores of the float32 matrix product numpy used to compute.
numpy is only the reference here (it stays a dependency for training and charts)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.catalog import load_catalog
from engine.classify import FILE, Classifier, gram_keys, grams, key_text, load_classifier, pack, read_npz, unpack
from engine.datafiles import data_dir
from engine.parse import _parser_for

ROOT = Path(__file__).resolve().parents[2]
FLOAT16 = st.floats(width=16, allow_nan=False, allow_infinity=False)


def test_the_file_reads_as_numpy_reads_it() -> None:
    ours = read_npz(data_dir() / FILE)
    with np.load(data_dir() / FILE, allow_pickle=False) as reference:
        assert set(ours) == set(reference.files)
        for name in reference.files:
            assert ours[name] == reference[name].tolist(), name


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(FLOAT16, min_size=3, max_size=3), max_size=40))
def test_packed_rows_add_up_to_the_sums_of_their_weights(rows: list[list[float]]) -> None:
    total = unpack(sum(map(pack, rows)), 3)
    assert total == [sum(column) for column in zip(*rows, strict=True)] if rows else [0.0, 0.0, 0.0]


def test_a_weight_that_is_not_a_float16_is_refused() -> None:
    with pytest.raises(ValueError, match="float16"):
        pack([0.1])


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=30))
def test_an_ngrams_key_names_it(text: str) -> None:
    assert [key_text(k) for k in gram_keys(text)] == grams(text)


def _numpy_logits(model: Classifier, low: str, signals: frozenset[str]) -> list[float]:
    """The full model's scores as engine.classify computed them with numpy until 2026-12-06: float32
    weights, each distinct n-gram once over sqrt(distinct n-grams), the signals at 1."""
    weights = np.array(model.weights(), dtype=np.float32)
    distinct = set(grams(low))
    index = {g: i for i, g in enumerate(model.gram_rows)}
    rows = [index[g] for g in distinct if g in index]
    offset = len(index)
    sig = [offset + i for i, s in enumerate(model.signals) if s in signals]
    values = np.full(len(rows) + len(sig), 1 / np.sqrt(len(distinct)), dtype=np.float32)
    values[len(rows) :] = 1.0
    out: list[float] = (np.array(model.bias, dtype=np.float32) + values @ weights[rows + sig]).tolist()
    return out


def test_the_scores_are_numpys_on_every_corpus_question() -> None:
    """The same scores to float32's precision, and the same likeliest label of each head."""
    model = load_classifier()
    assert model is not None and model.binary
    parser = _parser_for(load_catalog())
    path = ROOT / "data" / "corpus" / "questions.jsonl"
    texts = [json.loads(line)["text"] for line in path.read_text(encoding="utf-8").splitlines() if line]
    for text in texts:
        reading = parser.read(text, standalone=True)
        ours = model.logits(reading.low, reading.signals)
        theirs = _numpy_logits(model, reading.low, reading.signals)
        assert ours == pytest.approx(theirs, abs=1e-5), text
        for a, b in model.spans.values():
            assert ours.index(max(ours[a:b]), a) == theirs.index(max(theirs[a:b]), a), text
