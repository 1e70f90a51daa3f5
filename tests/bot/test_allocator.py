"""bot.allocator: a shard process limits glibc's malloc arenas, unless the operator said otherwise."""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys

import pytest

import bot.__main__ as bot_main


def _is_glibc() -> bool:
    try:
        ctypes.CDLL("libc.so.6").mallopt  # noqa: B018
    except (OSError, AttributeError):
        return False
    return True


def _limit_arenas_in_a_new_process(**env: str) -> str:
    """``limit_arenas()``'s result in a fresh process (mallopt changes the process it runs in)."""
    base = {
        k: v for k, v in os.environ.items() if k not in ("MALLOC_ARENA_MAX", "GLIBC_TUNABLES", "GPU_ADVISOR_MALLOC")
    }
    code = "from bot.allocator import limit_arenas; print(limit_arenas())"
    done = subprocess.run([sys.executable, "-c", code], env={**base, **env}, capture_output=True, text=True, check=True)
    return done.stdout.strip()


@pytest.mark.skipif(not _is_glibc(), reason="glibc only")
def test_arenas_are_limited_on_glibc():
    assert _limit_arenas_in_a_new_process() == "True"


def test_the_operators_setting_wins_and_default_leaves_glibcs():
    assert _limit_arenas_in_a_new_process(GPU_ADVISOR_MALLOC="default") == "False"
    assert _limit_arenas_in_a_new_process(MALLOC_ARENA_MAX="4") == "False"
    assert _limit_arenas_in_a_new_process(GLIBC_TUNABLES="glibc.malloc.arena_max=4") == "False"


def test_the_bot_limits_them_before_it_starts(monkeypatch):
    calls: list[str] = []

    async def run_bot(settings: object) -> int:
        calls.append("run_bot")
        return 0

    monkeypatch.setenv("DISCORD_TOKEN", "test-token")
    monkeypatch.setattr(bot_main, "limit_arenas", lambda: calls.append("limit_arenas"))
    monkeypatch.setattr(bot_main, "run_bot", run_bot)
    assert bot_main.main() == 0
    assert calls == ["limit_arenas", "run_bot"]
