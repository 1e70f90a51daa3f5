"""How many answers (and parsed questions) a process remembers, so a repeated question is a lookup.

A module of its own so that the bot can size its caches before it loads the engine (start-up,
issue #24); GPU_ADVISOR_ANSWERS_REMEMBERED=0 turns remembering off (bench/e2e_bench.py --forgetful).
"""

from __future__ import annotations

import os

ANSWERS_REMEMBERED = int(os.environ.get("GPU_ADVISOR_ANSWERS_REMEMBERED", "512"))
