"""data/measurements/published_requirements.yaml: tools' published GPU-memory figures are well formed,
name catalog models, cite an https source and have their settings worded in every language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.words import LANGS, catalog
from engine.datafiles import read_yaml
from engine.model_specs import load_model_catalog_from

DATA_DIR = Path(__file__).resolve().parents[2] / "data"
REQUIREMENTS = DATA_DIR / "measurements" / "published_requirements.yaml"
MODES = {"inference", "lora", "full_finetune"}
FIELDS = {"id", "model", "mode", "min_gb", "recommended_gb", "condition", "tool", "source", "date"}
OPTIONAL = {"notes"}


def _rows() -> list[dict]:
    return read_yaml(REQUIREMENTS)["requirements"]


ROWS = _rows()
IDS = [row["id"] for row in ROWS]


def test_there_are_rows_and_their_ids_are_unique():
    assert len(ROWS) >= 30
    assert len(set(IDS)) == len(IDS), sorted(i for i in IDS if IDS.count(i) > 1)


def test_one_row_per_model_mode_and_tool():
    keys = [(row["model"], row["mode"], row["tool"]) for row in ROWS]
    assert len(set(keys)) == len(keys)


@pytest.mark.parametrize("row", ROWS, ids=IDS)
def test_row_fields(row):
    assert FIELDS <= set(row) <= FIELDS | OPTIONAL, set(row) ^ FIELDS
    assert re.fullmatch(r"[a-z0-9]+(?:[-.][a-z0-9]+)*", row["id"])
    assert row["mode"] in MODES
    assert isinstance(row["condition"], str) and row["condition"].strip()
    assert isinstance(row["tool"], str) and row["tool"].strip()
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", str(row["date"]))


@pytest.mark.parametrize("row", ROWS, ids=IDS)
def test_gigabytes_are_ordered_and_plausible(row):
    low, high = row["min_gb"], row["recommended_gb"]
    assert isinstance(low, (int, float)) and isinstance(high, (int, float))
    assert 0 < low <= high <= 200


@pytest.mark.parametrize("row", ROWS, ids=IDS)
def test_source_is_an_https_url(row):
    assert re.fullmatch(r"https://[^\s\"']+", row["source"])


def test_every_model_is_in_the_catalog_and_resolves_to_itself():
    models = load_model_catalog_from(DATA_DIR)
    missing = sorted({row["model"] for row in ROWS} - set(models.ids()))
    assert not missing, missing
    for row in ROWS:
        assert models.resolve(row["model"]) == row["model"], row["id"]


def test_every_row_has_its_settings_in_every_language():
    known = catalog()
    for row_id in IDS:
        templates = known.get(f"canrun.published.settings.{row_id}")
        assert templates is not None, row_id
        for lang in LANGS:
            assert templates[lang].strip(), (row_id, lang)


def test_no_settings_message_is_left_without_its_row():
    keys = {k for k in catalog() if k.startswith("canrun.published.settings.")}
    rows = {f"canrun.published.settings.{i}" for i in IDS}
    # diffusion_training.yaml's rows keep their words in canrun.yaml
    training = {
        f"canrun.published.settings.{r['id']}"
        for r in read_yaml(DATA_DIR / "measurements" / "diffusion_training.yaml")["training"]
    }
    assert not sorted(keys - rows - training)
