"""The C allocator's setting for a shard process: at most ``ARENAS`` glibc malloc arenas.

glibc gives each thread that allocates an arena of its own (up to 8 per core) and reuses an arena's
free space only for allocations made in that arena. The bot's threads are few but long-lived (the
warm-up's executor threads, one per SQLite connection for aiosqlite, DNS look-ups): 16 arenas
held 19 MB of RSS at 20,000 users, each with its own high water and free space. Two arenas for
the whole process: RSS after 50,000 distinct users 171.9 and 173.7 MB against 176.8, 179.9 and
180.8 MB with glibc's default, start-up and CPU per answer the same (issue #24,
``bench/startup_bench.py``, docs/performance.md, 2026-12-06).

Set by the bot itself (glibc's ``mallopt``, before any thread starts), so that every way it runs —
deploy/Dockerfile, deploy/systemd, a checkout — gets it. An operator's own ``MALLOC_ARENA_MAX`` or
``GLIBC_TUNABLES`` wins; ``GPU_ADVISOR_MALLOC=default`` leaves glibc's default (for before/after
measurements). With another C library (musl) nothing changes.
"""

from __future__ import annotations

import ctypes
import os

ARENAS = 2
_M_ARENA_MAX = -8  # glibc's malloc.h


def limit_arenas(arenas: int = ARENAS) -> bool:
    """At most ``arenas`` malloc arenas in this process (see the module); whether it was set."""
    if os.environ.get("GPU_ADVISOR_MALLOC", "").strip().lower() == "default":
        return False
    if "MALLOC_ARENA_MAX" in os.environ or "glibc.malloc" in os.environ.get("GLIBC_TUNABLES", ""):
        return False
    try:
        mallopt = ctypes.CDLL("libc.so.6").mallopt
    except (OSError, AttributeError):  # not glibc
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    return mallopt(_M_ARENA_MAX, arenas) == 1
