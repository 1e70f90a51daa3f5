"""The composing layer's shortcuts (issue #24) say exactly what the long way says."""

from __future__ import annotations

import dataclasses
import datetime as dt
import unicodedata

import pytest
from babel.dates import format_skeleton
from hypothesis import HealthCheck, given, settings

from bot import embeds, words
from bot.compose import rung_words
from bot.document import Table, width
from bot.words import catalog, render
from engine.canrun import rung_label
from engine.message import Msg
from tests.bot.test_cpu_embeds import reference
from tests.engine.test_codec import queries


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


def _encode_field_by_field(query) -> str:
    """engine.codec.encode as it was written before its plan (issue #24): every field of LAYOUT put
    through ``_Writer.put`` in turn."""
    import base64
    from decimal import Decimal

    from engine import codec

    out = codec._Writer()
    out.put(0, 1)
    out.put(min(codec.VERSION, codec.EXTENDED), codec.VERSION_BITS)
    if codec.VERSION >= codec.EXTENDED:  # the layout's version past the two bits' last value
        out.put(codec.VERSION - codec.EXTENDED, codec.EXTENSION_BITS)
    text = b""
    for name, spec in codec.LAYOUT:
        value = getattr(query, name)
        stated = value is not None and value != ()
        out.put(int(stated), 1)
        if not stated:
            continue
        kind = spec[0]
        if kind == "choice":
            options = codec._options(name, spec)
            out.put(options.index(value), codec._bits(len(options)))
        elif kind == "bool":
            out.put(int(value), 1)
        elif kind == "int":
            out.put(value - spec[1], codec._bits(spec[2] - spec[1] + 1))
        elif kind == "fixed":
            step, bits = codec._scaled(spec[1], spec[2])
            out.put(int(Decimal(str(value)) / step), bits)
        elif kind == "money":
            for letter in value.currency:
                out.put(ord(letter) - ord("A"), codec.CURRENCY_LETTER_BITS)
            out.put(int(value.amount * 100), codec.BUDGET_CENTS_BITS)
        elif kind == "gpus":
            out.put(len(value), codec.MAX_ITEMS_BITS)
            for gpu in value:
                out.put(codec._code(gpu), codec.ID_BITS)
        elif kind == "counts":
            out.put(len(value), codec.MAX_ITEMS_BITS)
            for count in value:
                out.put(count - 1, codec.COUNT_BITS)
        elif kind == "model":
            known = codec._code(value) in codec._model_codes() and codec._model_codes()[codec._code(value)] == value
            out.put(int(known), 1)
            if known:
                out.put(codec._code(value), codec.ID_BITS)
            else:
                text = value.encode()
    payload = out.to_bytes() + text
    return base64.b85encode(payload + codec._check(payload)).decode()


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(queries)
def test_a_button_carries_the_query_as_written_field_by_field(query):
    """``encode`` reads the layout through a plan made once and writes one integer (issue #24): the same
    text as putting every field through the writer in turn."""
    from engine.codec import encode

    assert encode(query) == _encode_field_by_field(query)
