"""GPU Advisor's engine: Tim Dettmers' GPU guide as pure, tested models.

Nothing here does I/O beyond reading the bundled YAML once; the bot and the terminal are adapters.
``engine.advise`` is imported lazily so that ``import engine.catalog`` stays light.
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    if name in ("advise", "AdviceContext"):
        from engine import advisor

        return getattr(advisor, name)
    raise AttributeError(f"module 'engine' has no attribute {name!r}")
