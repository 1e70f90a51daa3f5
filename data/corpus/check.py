#!/usr/bin/env python3
"""Validate data/corpus/questions.jsonl (stdlib only).

Usage: python3 data/corpus/check.py [path]
Exit status 0 when every check passes, 1 otherwise. Prints counts per split/lang/kind.
"""

import collections
import hashlib
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PATH = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "questions.jsonl")

LANGS = {"en", "zh-Hans", "zh-Hant", "ja", "ko", "es", "de", "fr", "pt", "ru", "it", "vi"}
SPLITS = {"train", "dev", "test"}
KINDS = {"recommend", "compare", "can_run", "cloud_vs_buy", "power", "explain", "other"}
ANSWER_KINDS = KINDS | {"my_card", "cloud", "wait", "apple"}
TASKS = {
    "kaggle",
    "learning",
    "llm_inference",
    "llm_finetune",
    "llm_pretrain",
    "image_generation",
    "computer_vision",
    "nlp",
    "rl",
    "research",
    "other",
    None,
}
CONDITIONS = {"new", "used", None}
MODES = {"inference", "lora", "qlora", "full_finetune", "pretrain", None}
OBJECTIVES = {"best_value", "cheapest_that_works", "fastest_within_budget", "yes_no", None}
METRICS = {"decode_tokens_per_s", "train16", "infer8", "infer16", "memory_fit", "break_even", None}
GPU_ID = re.compile(r"^[a-z0-9][a-z0-9.\-]*$")
ISO = re.compile(r"^[A-Z]{3}$")
TOP_KEYS = {"id", "lang", "text", "source", "split", "expected", "answer"}
EXP_KEYS = {
    "kind",
    "task",
    "task_with_source_context",
    "budget_amount",
    "budget_currency",
    "min_memory_gb",
    "min_memory_gb_with_spec",
    "hours_per_day",
    "num_gpus",
    "gpus",
    "condition",
    "cloud_interest",
    "owned_gpus",
    "considering_gpus",
    "model",
    "model_size_b",
    "mode",
    "vram_need_gb",
    "objective",
}
ANS_KEYS = {"kind", "must_cover", "yes_no", "metric"}


def split_for(qid):
    """The frozen split rule: sha256(id) mod 100 -> <60 train, <75 dev, else test."""
    h = int(hashlib.sha256(qid.encode("utf-8")).hexdigest(), 16) % 100
    return "train" if h < 60 else "dev" if h < 75 else "test"


def is_num(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def main():
    errors = []
    rows = []
    with open(PATH, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                rows.append((n, json.loads(line)))
            except json.JSONDecodeError as e:
                errors.append(f"line {n}: bad JSON: {e}")

    def err(n, r, msg):
        errors.append(f"line {n} ({r.get('id', '?')}): {msg}")

    ids, texts = collections.Counter(), collections.Counter()
    for n, r in rows:
        if set(r) != TOP_KEYS:
            err(n, r, f"top-level keys {sorted(r)} != {sorted(TOP_KEYS)}")
            continue
        ids[r["id"]] += 1
        texts[r["text"].strip()] += 1
        if not isinstance(r["id"], str) or not re.match(r"^c\d{4}$", r["id"]):
            err(n, r, "id must look like c0001")
        if r["lang"] not in LANGS:
            err(n, r, f"lang {r['lang']!r}")
        if not isinstance(r["text"], str) or len(r["text"].strip()) < 5:
            err(n, r, "text missing/too short")
        if not isinstance(r["source"], str) or not re.match(r"^https?://\S+$", r["source"]):
            err(n, r, "source must be an http(s) URL")
        if r["split"] not in SPLITS:
            err(n, r, f"split {r['split']!r}")
        elif isinstance(r["id"], str) and r["split"] != split_for(r["id"]):
            err(n, r, f"split {r['split']} does not follow the hash rule ({split_for(r['id'])})")

        e = r["expected"]
        if not isinstance(e, dict) or set(e) != EXP_KEYS:
            err(n, r, f"expected keys {sorted(e) if isinstance(e, dict) else e}")
            continue
        if e["kind"] not in KINDS:
            err(n, r, f"kind {e['kind']!r}")
        if e["task"] not in TASKS:
            err(n, r, f"task {e['task']!r}")
        if e["task_with_source_context"] not in TASKS:
            err(n, r, f"task_with_source_context {e['task_with_source_context']!r}")
        if e["condition"] not in CONDITIONS:
            err(n, r, f"condition {e['condition']!r}")
        if e["cloud_interest"] not in (True, None):
            err(n, r, "cloud_interest must be true or null")
        if e["kind"] == "cloud_vs_buy" and e["cloud_interest"] is not True:
            err(n, r, "cloud_vs_buy needs cloud_interest true")
        if e["mode"] not in MODES:
            err(n, r, f"mode {e['mode']!r}")
        if e["objective"] not in OBJECTIVES:
            err(n, r, f"objective {e['objective']!r}")
        ba, bc = e["budget_amount"], e["budget_currency"]
        if (ba is None) != (bc is None):
            err(n, r, "budget_amount and budget_currency must be both set or both null")
        if ba is not None and (not is_num(ba) or ba <= 0):
            err(n, r, "budget_amount must be a positive number")
        if bc is not None and not ISO.match(str(bc)):
            err(n, r, f"budget_currency {bc!r} not ISO 4217-like")
        for k in ("min_memory_gb", "min_memory_gb_with_spec", "hours_per_day", "model_size_b", "vram_need_gb"):
            if e[k] is not None and (not is_num(e[k]) or e[k] <= 0):
                err(n, r, f"{k} must be a positive number or null")
        if e["hours_per_day"] is not None and e["hours_per_day"] > 24:
            err(n, r, "hours_per_day > 24")
        if e["num_gpus"] is not None and (
            not isinstance(e["num_gpus"], int) or isinstance(e["num_gpus"], bool) or e["num_gpus"] < 1
        ):
            err(n, r, "num_gpus must be a positive int or null")
        if e["model"] is not None and not isinstance(e["model"], str):
            err(n, r, "model must be a string or null")
        for k in ("gpus", "owned_gpus", "considering_gpus"):
            v = e[k]
            if not isinstance(v, list) or any(not isinstance(g, str) or not GPU_ID.match(g) for g in v):
                err(n, r, f"{k} must be a list of lowercase hyphenated ids")
            elif len(set(v)) != len(v):
                err(n, r, f"{k} has duplicates")
        if isinstance(e["gpus"], list):
            for k in ("owned_gpus", "considering_gpus"):
                extra = set(e[k]) - set(e["gpus"]) if isinstance(e[k], list) else set()
                if extra:
                    err(n, r, f"{k} not a subset of gpus: {sorted(extra)}")

        a = r["answer"]
        if not isinstance(a, dict) or set(a) != ANS_KEYS:
            err(n, r, "answer keys")
            continue
        if a["kind"] not in ANSWER_KINDS:
            err(n, r, f"answer.kind {a['kind']!r}")
        if a["metric"] not in METRICS:
            err(n, r, f"answer.metric {a['metric']!r}")
        if a["yes_no"] not in (True, False, None):
            err(n, r, "answer.yes_no must be true/false/null")
        mc = a["must_cover"]
        if not isinstance(mc, list) or any(not isinstance(g, str) or not GPU_ID.match(g) for g in mc):
            err(n, r, "answer.must_cover must be a list of ids")
        elif isinstance(e["gpus"], list) and set(mc) - set(e["gpus"]):
            err(n, r, f"must_cover not a subset of gpus: {sorted(set(mc) - set(e['gpus']))}")

    for k, c in ids.items():
        if c > 1:
            errors.append(f"duplicate id {k} x{c}")
    for k, c in texts.items():
        if c > 1:
            errors.append(f"duplicate text x{c}: {k[:60]}")

    recs = [r for _, r in rows if isinstance(r, dict) and "expected" in r]
    total = len(recs)
    print(f"{PATH}: {total} questions, {len({r.get('source') for r in recs})} distinct source URLs")
    for name, key in (
        ("split", lambda r: r.get("split")),
        ("lang", lambda r: r.get("lang")),
        ("kind", lambda r: r["expected"].get("kind") if isinstance(r["expected"], dict) else None),
        ("task", lambda r: r["expected"].get("task") if isinstance(r["expected"], dict) else None),
    ):
        c = collections.Counter(key(r) for r in recs)
        print(
            f"  per {name}: " + ", ".join(f"{k}={v}" for k, v in sorted(c.items(), key=lambda kv: (-kv[1], str(kv[0]))))
        )
    zh = sum(1 for r in recs if str(r.get("lang", "")).startswith("zh"))
    print(f"  Chinese share: {zh}/{total} = {zh / max(total, 1):.1%}")
    sc = collections.Counter((r.get("split"), r["expected"]["kind"]) for r in recs if isinstance(r["expected"], dict))
    for s in ("train", "dev", "test"):
        print(f"  {s} kinds: " + ", ".join(f"{k}={v}" for (sp, k), v in sorted(sc.items()) if sp == s))

    if errors:
        print(f"FAILED: {len(errors)} problem(s)")
        for m in errors[:200]:
            print("  " + m)
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
