"""The benchmark scripts import as ``bench.*`` from the repository root. pytest puts ``tests/`` on
the path (rootdir conftest), where ``tests/bench`` would otherwise be found as a namespace package
named ``bench`` when pytest runs as ``.venv/bin/pytest`` (no current directory on the path)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parents[2])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
