"""The memory estimates the engine remembers (issue #24): a bounded number of them, and what a caller
gets is the same whether it was remembered, forgotten and computed again, or never remembered at all."""

from __future__ import annotations

import itertools

import pytest

from engine import memory
from engine.catalog import load_catalog
from engine.memory import ESTIMATES_REMEMBERED, MODES, estimate, gpus_needed
from engine.model_specs import load_model_catalog

PRECISIONS = ("bf16", "fp32", "fp8", "int8", "q4_k_m", "nf4")


def _models() -> list:
    catalog = load_model_catalog()
    ids = catalog.ids()
    return [catalog.get(i) for i in ids[:: max(1, len(ids) // 12)]]


def _uncached(spec, mode, precision, **options):
    """The estimate computed afresh, by the function the cache wraps, with estimate()'s defaults."""
    args = dict(
        context=None,
        batch=1,
        kv_precision=None,
        lora_rank=16,
        lora_targets="all-linear",
        optimizer="adamw",
        gradient_checkpointing=True,
        gpus=1,
        split="tensor",
        offload=False,
        runtime="cuda",
    )
    args.update(options)
    return memory._estimate.__wrapped__(spec, mode, precision, *args.values())


def _cases() -> list[tuple]:
    spread = [
        {},
        {"context": 32_768, "batch": 4},
        {"gpus": 2, "split": "pipeline"},
        {"gpus": 4, "kv_precision": "q8_0", "runtime": "metal"},
        {"gpus": 2, "offload": True, "optimizer": "adamw_8bit", "gradient_checkpointing": False},
        {"lora_rank": 64, "lora_targets": "qv", "context": 4096},
    ]
    return [
        (spec, mode, precision, options)
        for spec, mode, precision, options in itertools.product(_models(), MODES, PRECISIONS, spread)
    ]


def _outcome(call):
    try:
        return call()
    except ValueError as error:
        return ("ValueError", str(error))


def test_estimates_equal_an_uncached_computation_before_and_after_being_forgotten():
    cases = _cases()
    assert len(cases) > ESTIMATES_REMEMBERED  # so that the first ones are forgotten on the way
    fresh = [_outcome(lambda c=c: _uncached(c[0], c[1], c[2], **c[3])) for c in cases]
    assert any(isinstance(f, memory.MemoryEstimate) for f in fresh)
    assert any(isinstance(f, tuple) for f in fresh)  # refusals too: the same error, word for word
    for _ in range(2):  # computed (and remembered), then asked again: remembered or computed anew
        got = [_outcome(lambda c=c: estimate(c[0], c[1], c[2], **c[3])) for c in cases]
        assert got == fresh
    # By name and by table entry, as callers ask: the same estimate.
    i = next(i for i, f in enumerate(fresh) if isinstance(f, memory.MemoryEstimate))
    spec, mode, precision, options = cases[i]
    assert estimate(spec.name, mode, memory.get_precision(precision), **options) == fresh[i]


def test_the_estimates_remembered_are_bounded():
    assert memory._estimate.cache_info().maxsize == ESTIMATES_REMEMBERED <= 1024
    memory._estimate.cache_clear()
    spec = load_model_catalog().get(load_model_catalog().ids()[0])
    for context in range(1, ESTIMATES_REMEMBERED + 300):
        estimate(spec, "inference", "bf16", context=context)
    info = memory._estimate.cache_info()
    assert info.currsize == ESTIMATES_REMEMBERED and info.misses == ESTIMATES_REMEMBERED + 299


@pytest.mark.parametrize("split", ["tensor", "pipeline"])
def test_gpus_needed_equals_the_smallest_count_that_fits_computed_afresh(split):
    cards = load_catalog()
    gpus = [cards.get(i) for i in sorted(cards.gpus)[::9]]
    counts = memory.TENSOR_PARALLEL_COUNTS if split == "tensor" else range(1, 17)
    for spec in _models()[:6]:
        for gpu in gpus:
            expected = next(
                (
                    n
                    for n in counts
                    if n <= 16
                    and _uncached(spec, "inference", "bf16", gpus=n, split=split).per_gpu_gb <= memory.capacity_gb(gpu)
                ),
                None,
            )
            assert gpus_needed(spec, gpu, "inference", "bf16", max_gpus=16, split=split) == expected
