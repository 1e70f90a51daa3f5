"""The engine's remembered results in their lighter forms (issue #24, docs/performance.md "Eleventh
session"): each is the same value as the form it replaced, and what callers do with it still works."""

from __future__ import annotations

import contextlib
import json
import sys
from decimal import Decimal

import pytest
from pydantic import ValidationError

from engine import cost, memory, performance
from engine.catalog import load_catalog
from engine.model_specs import load_model_catalog
from engine.specs import WORKLOADS


def _estimates() -> list[memory.MemoryEstimate]:
    models = load_model_catalog()
    out = []
    for model_id in models.ids()[::20]:
        for mode in memory.MODES:
            for options in ({}, {"gpus": 2, "offload": mode in ("full_finetune", "lora")}, {"context": 4096}):
                with contextlib.suppress(ValueError):  # a mode the model or precision cannot take
                    out.append(memory.estimate(models.get(model_id), mode, "bf16", **options))
    return out


def test_memory_estimates_equal_validated_models_and_share_one_field_set():
    estimates = _estimates()
    assert len(estimates) > 50
    fields = memory.MemoryEstimate.model_fields
    for est in estimates:
        validated = memory.MemoryEstimate(**dict(est))
        assert est == validated and hash(est) == hash(validated)
        assert est.model_dump_json() == validated.model_dump_json()
        assert est.model_fields_set == validated.model_fields_set == set(fields)
        assert all(type(getattr(est, name)) is type(getattr(validated, name)) for name in fields)
    assert len({id(est.model_fields_set) for est in estimates}) == 1
    with pytest.raises(ValidationError):
        estimates[0].batch = 2  # still frozen


def test_messages_that_recur_from_estimate_to_estimate_are_one_object():
    models = load_model_catalog()
    small, large = models.get("llama-3.1-8b"), models.get("qwen2.5-14b")
    a = memory.estimate(small, "full_finetune", "bf16", gpus=2)
    b = memory.estimate(large, "full_finetune", "bf16", gpus=2, context=1024)
    assert a.term("runtime overhead").basis is b.term("runtime overhead").basis
    assert memory.kind_words(small) is memory.kind_words(large)
    assert memory._said("memory.basis.sharded", gpus=2) is not memory._said("memory.basis.sharded", gpus=2.0)


def test_copying_an_estimate_leaves_the_shared_field_set_alone():
    est = _estimates()[0]
    shared = set(est.model_fields_set)
    copied = est.model_copy(update={"batch": 3})
    assert copied.batch == 3 and est.batch != 3
    assert est.model_fields_set == shared and copied.model_fields_set is not est.model_fields_set


def test_speed_estimates_share_their_recurring_messages_and_read_as_before():
    catalog = load_catalog()
    card = catalog.get("rtx-4090")
    first, second = performance.estimate(card, "train16"), performance.estimate(card, "infer16")
    assert first.factors[0].basis is second.factors[0].basis  # the card's bandwidth, said once
    assert first.factors[0].name is performance.estimate(catalog.get("rtx-3090"), "decode").factors[0].name
    assert performance.estimate_of("rtx-4090", "train16") == first
    assert not hasattr(first, "__dict__")  # slotted: no instance dict
    relative = performance.compare("rtx-4090", "rtx-3090", "infer16")
    assert relative.gpu is performance.estimate_of("rtx-4090", "infer16")  # the model holds it as it is
    assert json.loads(relative.model_dump_json())["gpu"]["factors"][0]["name"]["key"] == "perf.factor.bandwidth"
    for gpu_id in ("rtx-4090", "rtx-3090", "mi300x"):
        for workload in WORKLOADS:
            est = performance.estimate_of(gpu_id, workload)
            assert performance.speed(gpu_id, workload) == est.speed and isinstance(est.speed, float)


def test_a_snapshot_quote_is_the_same_whether_or_not_the_snapshot_prices_the_card():
    catalog = load_catalog()
    for snapshot in catalog.snapshots:
        for gpu_id in sorted(catalog.gpus)[::5]:
            for condition in (None, "new", "used"):
                quote = cost._snapshot_quote(gpu_id, snapshot, condition)
                entry = catalog.snapshot(snapshot).prices.get(gpu_id)
                if entry is None:
                    assert quote is None
                elif quote is not None:
                    assert quote.gpu_id == gpu_id and quote.snapshot_id == snapshot and quote.usd > 0
    assert cost._priced_quote.cache_info().currsize <= 3 * sum(len(s.prices) for s in catalog.snapshots.values())


def test_value_rows_are_slotted_hashable_cache_keys():
    row = cost.value("rtx-3090", "train16", 2)
    again = cost._value_from.__wrapped__("rtx-3090", "train16", 2, row.price, None)
    assert row == again and hash(row) == hash(again) and row is not again
    assert sys.getsizeof(row) < 200 and not hasattr(row, "__dict__")
    assert isinstance(row.system_usd, Decimal) and isinstance(row.perf_per_kusd, float)


def test_rankings_that_filter_the_same_market_differently_share_its_scores():
    plain = cost._row("train16", None, None, 1, None, None, ())
    filtered = cost._row("train16", None, None, 1, None, 24.0, ())
    assert plain is not None and filtered is not None
    assert filtered[0] is plain[0] and list(filtered[1]) != list(plain[1])
    assert set(filtered[1]) < set(plain[1])
