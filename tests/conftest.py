"""Shared fixtures: the real catalog, and a scratch copy of data/ to break on purpose."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine.catalog import Catalog, load_catalog

DATA = Path(__file__).resolve().parent.parent / "data"


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture
def data_copy(tmp_path: Path) -> Path:
    """A writable copy of data/ for tests that corrupt one file."""
    target = tmp_path / "data"
    shutil.copytree(DATA, target)
    return target
