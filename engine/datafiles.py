"""Where the YAML facts live and how a file is read.

The data directory is the top-level ``data/`` of a source checkout; an installed wheel ships the
same files as the ``gpu_advisor_data`` package. ``GPU_ADVISOR_DATA`` overrides both, which is how
tests load deliberately broken copies.
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

M = TypeVar("M", bound=BaseModel)


# libyaml's SafeLoader parses the data files several times faster than the pure-Python one.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class DataError(ValueError):
    """A data file is missing or wrong; the message names the file, the entry and the field."""


def data_dir() -> Path:
    override = os.environ.get("GPU_ADVISOR_DATA")
    if override:
        return Path(override)
    checkout = Path(__file__).resolve().parent.parent / "data"
    if (checkout / "__init__.py").is_file():
        return checkout
    return Path(str(resources.files("gpu_advisor_data")))


def read_yaml(path: Path) -> Any:
    try:
        with path.open(encoding="utf-8") as fh:
            return yaml.load(fh, Loader=_LOADER)
    except FileNotFoundError as exc:
        raise DataError(f"{path}: file not found") from exc
    except yaml.YAMLError as exc:
        raise DataError(f"{path}: not valid YAML: {exc}") from exc


def validate_entries(path: Path, entries: Any, model: type[M], key: str = "id") -> list[M]:
    """Validate a YAML list of mappings into ``model``, naming path, entry id and field on failure."""
    if not isinstance(entries, list):
        raise DataError(f"{path}: expected a list of entries, got {type(entries).__name__}")
    out: list[M] = []
    for index, raw in enumerate(entries):
        ident = raw.get(key, f"#{index}") if isinstance(raw, dict) else f"#{index}"
        try:
            out.append(model.model_validate(raw))
        except ValidationError as exc:
            raise DataError(f"{path}: entry {ident!r}: {_describe(exc)}") from exc
    return out


def validate_document(path: Path, raw: Any, model: type[M]) -> M:
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        raise DataError(f"{path}: {_describe(exc)}") from exc


def _describe(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err["loc"]) or "(entry)"
        parts.append(f"field {where!r}: {err['msg']}")
    return "; ".join(parts)
