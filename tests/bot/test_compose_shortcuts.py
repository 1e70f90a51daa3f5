"""The composing layer's shortcuts (issue #24) say exactly what the long way says."""

from __future__ import annotations

import dataclasses
import datetime as dt
import unicodedata

import pytest
from babel.dates import format_skeleton

from bot import embeds, words
from bot.compose import rung_words
from bot.document import Table, width
from bot.words import catalog, render
from engine.canrun import rung_label
from engine.message import Msg
from tests.bot.test_cpu_embeds import reference


def test_no_character_before_the_first_wide_one_is_wide():
    """Cells of such characters are measured by their length, not by ``width``."""
    first = ord(embeds._FIRST_WIDE)
    assert unicodedata.east_asian_width(embeds._FIRST_WIDE) in "WF"
    assert all(unicodedata.east_asian_width(chr(i)) not in "WF" for i in range(first))


@pytest.mark.parametrize(
    "cells",
    [
        ("1.23×", "—", "café", "Ω 24 GB"),  # narrow beyond ASCII: before U+0378, or after it and narrow
        ("可以", "ＲＴＸ", "显存 24 GB", "≈ 1.5×"),  # wide, and a narrow mark after U+0378
    ],
)
def test_tables_of_narrow_and_wide_cells_are_laid_out_as_before(cells):
    table = Table(headers=("a", "b", "c", "d"), rows=(cells, tuple(reversed(cells))), optional=(2,))
    assert embeds._table(table) == reference(table)
    assert all(len(cell) == width(cell) for cell in cells if max(cell) < embeds._FIRST_WIDE)


def test_plain_values_are_formatted_as_the_template_says():
    """Numbers, names and flags skip the conversions; the template still formats each by its own type."""
    key = next(k for k, t in catalog().items() if t["en"].count("{") == 1 and "{count}" in t["en"])
    for value in (1, 1.0, True, "2"):
        assert render(Msg(key, {"count": value}), "en") == catalog()[key]["en"].format(count=value)


def test_a_month_reads_as_babel_writes_it():
    september = dt.date(2026, 9, 1)
    for lang, locale in (("en", "en"), ("zh-Hans", "zh_Hans"), ("zh-Hant", "zh_Hant")):
        for _ in range(2):  # worded, then remembered
            assert format(words._Date(september, lang), "month") == format_skeleton("yMMM", september, locale=locale)
    assert format(words._Date(september, "en"), "month") == "Sep 2026"


def test_rung_words_are_the_rung_labels_rendered():
    for mode, precision, offload in (("inference", "q4_k_m", False), ("qlora", "nf4", True), ("lora", "bf16", False)):
        for lang in ("en", "zh-Hans"):
            assert rung_words(mode, precision, offload, lang) == render(rung_label(mode, precision, offload), lang)


def _tuples_only(value: object) -> bool:
    """No list anywhere in a Document: pydantic made tuples of lists; the dataclasses keep what they get."""
    if isinstance(value, list):
        return False
    if isinstance(value, tuple):
        return all(_tuples_only(v) for v in value)
    if dataclasses.is_dataclass(value):
        return all(_tuples_only(getattr(value, f.name)) for f in dataclasses.fields(value))
    return True


def test_documents_are_frozen_values_made_of_tuples():
    """The Document, its Blocks and Tables are frozen slotted dataclasses (issue #24): equal and hashable by
    value, unchangeable, and what ``compose`` builds holds tuples only, as the pydantic models did."""
    from bot.chat import respond, understand
    from bot.compose import compose
    from engine.advisor import AdviceContext

    table = Table(headers=("a", "b"), rows=(("1", "2"),), optional=(1,))
    assert table == Table(headers=("a", "b"), rows=(("1", "2"),), optional=(1,))
    assert hash(table) == hash(Table(headers=("a", "b"), rows=(("1", "2"),), optional=(1,)))
    assert table.without_optional() == Table(headers=("a",), rows=(("1",),))
    with pytest.raises(dataclasses.FrozenInstanceError):
        table.headers = ()  # type: ignore[misc]
    assert not hasattr(table, "__dict__")
    for text in ("which GPU for Kaggle under $500?", "rtx 4090 vs 2x 3090 for llms?", "can a 3060 run llama 3 8b?"):
        answer = respond(understand(text, None), AdviceContext())
        for lang in ("en", "zh-Hans"):
            doc = compose(answer, lang)
            assert doc.blocks and _tuples_only(doc)
            hash(doc)
