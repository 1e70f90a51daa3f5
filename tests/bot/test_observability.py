"""Logs never carry the token or raw user text; /healthz and /metrics answer."""

from __future__ import annotations

import json
import logging

from aiohttp.test_utils import TestClient, TestServer

from bot.observability import JsonFormatter, Metrics, excerpt, health_app, redact

TOKEN = "MTA5ODc2NTQzMjEwOTg3NjU0MzI.GhIjKl.abcdefghijklmnopqrstuvwxyz012345"


def test_token_is_redacted_everywhere():
    assert TOKEN not in redact(f"login failed for {TOKEN}")
    record = logging.makeLogRecord({"msg": "token %s", "args": (TOKEN,), "levelname": "ERROR", "guild": 1})
    line = JsonFormatter().format(record)
    assert TOKEN not in line and json.loads(line)["guild"] == 1


def test_excerpt_is_short_and_deidentified():
    text = "<@123456789012> @everyone my card id 98765432 " + "x" * 200
    out = excerpt(text, enabled=True)  # opt-in (LOG_EXCERPTS); tests/bot/test_privacy.py has the rest
    assert (
        out is not None
        and len(out) <= 41
        and "123456789012" not in out
        and "@everyone" not in out
        and "98765432" not in out
    )


def test_answers_are_counted_by_source_and_kind():
    metrics = Metrics()
    for _ in range(3):
        metrics.answered("chat", "recommend", 0.004)
    metrics.answered("command", "compare", None)
    sample = metrics.registry.get_sample_value
    assert sample("gpu_advisor_answers_total", {"source": "chat", "kind": "recommend"}) == 3
    assert sample("gpu_advisor_answers_total", {"source": "command", "kind": "compare"}) == 1
    assert sample("gpu_advisor_answer_seconds_count", {"source": "chat"}) == 3
    assert sample("gpu_advisor_answer_seconds_bucket", {"source": "chat", "le": "0.005"}) == 3
    assert sample("gpu_advisor_answer_seconds_count", {"source": "command"}) == 0


async def test_health_and_metrics_endpoints():
    metrics = Metrics()
    metrics.answers.labels("chat", "recommend").inc()
    state = {"gateway": True}

    async def check():
        return dict(state)

    async with TestClient(TestServer(health_app(metrics, check, lambda: None))) as client:
        ok = await client.get("/healthz")
        assert ok.status == 200 and (await ok.json()) == {"gateway": True}
        state["gateway"] = False
        assert (await client.get("/healthz")).status == 503
        body = await (await client.get("/metrics")).text()
        assert 'gpu_advisor_answers_total{kind="recommend",source="chat"} 1.0' in body


def test_settings_read_shard_lists_in_every_form(monkeypatch):
    from bot.config import Settings

    for raw, expected in (("0", [0]), ("0,1", [0, 1]), ("[2, 3]", [2, 3])):
        monkeypatch.setenv("SHARD_IDS", raw)
        assert Settings(_env_file=None).shard_ids == expected


async def test_memory_diagnostics_write_object_counts_and_holders(tmp_path, monkeypatch):
    import asyncio
    import json

    from bot.observability import trace_memory_from_env

    monkeypatch.setenv("TRACEMALLOC_DIR", str(tmp_path))
    monkeypatch.setenv("TRACEMALLOC_EVERY", "0.05")
    monkeypatch.setenv("TRACEMALLOC_HOLDERS", "builtins.dict")
    task = trace_memory_from_env()
    assert task is not None
    for _ in range(200):
        if list(tmp_path.glob("objects-*.json")):
            break
        await asyncio.sleep(0.05)
    task.cancel()
    written = json.loads(sorted(tmp_path.glob("objects-*.json"))[0].read_text())
    assert any(name == "builtins.dict" for name, _ in written["types"]) and "builtins.dict" in written["holders"]
    monkeypatch.delenv("TRACEMALLOC_DIR")
    assert trace_memory_from_env() is None


def test_memory_diagnostics_find_the_remembering_functions_in_a_frozen_heap():
    """The warm-up freezes the start-up heap, which hides the module-level caches from
    ``gc.get_objects``: the diagnostics find them through the modules."""
    import gc

    from bot.observability import _remembering_functions
    from engine import memory

    gc.freeze()
    try:
        found = dict(_remembering_functions())
    finally:
        gc.unfreeze()
    assert found["engine.memory._estimate"] is memory._estimate
