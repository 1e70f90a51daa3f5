"""How many answers (and parsed questions) a process remembers, so a repeated question is a lookup.

A module of its own so that the bot can size its caches before it loads the engine (start-up,
issue #24); GPU_ADVISOR_ANSWERS_REMEMBERED=0 turns remembering off (bench/e2e_bench.py --forgetful).

128, not 512 (2026-12-06, issue #24): on real traffic a question is seldom asked twice, and the
answers and parses beyond 128 held ≈3–5 MB for no measurable CPU (``bench/e2e_bench.py --variant
answers128:GPU_ADVISOR_ANSWERS_REMEMBERED=128``: 1.00× the CPU per answer of 512 at 100 events/s,
90 % interval 0.97–1.02; RSS 153 against 158 MB after the bench's answers; docs/performance.md).
The repeated workload's 14 questions still fit many times over.

``per_object``: what the engine builds once per catalog object (the parser, alias groups, model families).
``remembered``: a bounded LRU lookup, for names people type (a flood of made-up ones only pushes out the oldest).
"""

from __future__ import annotations

import os
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)

ANSWERS_REMEMBERED = int(os.environ.get("GPU_ADVISOR_ANSWERS_REMEMBERED", "128"))


def per_object(store: dict[int, tuple[Any, T]], owner: object, build: Callable[[], T]) -> T:
    """What ``build`` makes for ``owner``, made once per owner object (a catalog: a pydantic model, unhashable).
    Keyed by its id, the owner kept beside it, so a new object at a reused id is never handed another's."""
    held = store.get(id(owner))
    if held is None or held[0] is not owner:
        held = store[id(owner)] = (owner, build())
    return held[1]


def remembered(memo: OrderedDict[K, T], key: K, compute: Callable[[], T], most: int) -> T:
    """``compute()`` for ``key``, kept in ``memo``, a least-recently-used store of at most ``most`` entries: names
    people repeat stay cheap, and a flood of made-up names only pushes out the oldest (an unbounded memo once
    stopped resolving anything for everyone until a restart)."""
    if key in memo:
        memo.move_to_end(key)
        return memo[key]
    value = memo[key] = compute()
    while len(memo) > most:
        memo.popitem(last=False)
    return value
