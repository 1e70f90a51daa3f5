"""How many answers (and parsed questions) a process remembers, so a repeated question is a lookup.

A module of its own so that the bot can size its caches before it loads the engine (start-up,
issue #24); GPU_ADVISOR_ANSWERS_REMEMBERED=0 turns remembering off (bench/e2e_bench.py --forgetful).

128, not 512 (2026-12-06, issue #24): on real traffic a question is seldom asked twice, and the
answers and parses beyond 128 held ≈3–5 MB for no measurable CPU (``bench/e2e_bench.py --variant
answers128:GPU_ADVISOR_ANSWERS_REMEMBERED=128``: 1.00× the CPU per answer of 512 at 100 events/s,
90 % interval 0.97–1.02; RSS 153 against 158 MB after the bench's answers; docs/performance.md).
The repeated workload's 14 questions still fit many times over.
"""

from __future__ import annotations

import os

ANSWERS_REMEMBERED = int(os.environ.get("GPU_ADVISOR_ANSWERS_REMEMBERED", "128"))
