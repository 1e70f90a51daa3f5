"""bot.embeds lays tables out as Table.text() does (issue #24: cheaper, never different)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot import embeds
from bot.compose import compose
from bot.document import Table
from engine.advisor import advise
from engine.parse import parse

CORPUS = Path(__file__).resolve().parents[2] / "data" / "corpus" / "questions.jsonl"


def reference(table: Table) -> str:
    """What bot.embeds did before: render, and render again without the optional columns."""
    text = table.text()
    if table.optional and max(map(len, text.splitlines())) > embeds.CODE_WIDTH:
        text = table.without_optional().text()
    return embeds._code(text)


def corpus_tables(limit: int = 160) -> list[Table]:
    texts = [json.loads(line)["text"] for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]
    tables = []
    for text in texts[:limit]:
        try:
            answer = advise(parse(text).query)
        except Exception:  # a question the engine refuses has no table
            continue
        for lang in ("en", "zh-Hans", "zh-Hant"):
            tables += [b.table for b in compose(answer, lang).blocks if b.table is not None]  # type: ignore[arg-type]
    return tables


def test_answer_tables_are_laid_out_as_before():
    tables = corpus_tables()
    assert len(tables) > 50
    assert any(t.optional for t in tables)
    for table in tables:
        assert embeds._table(table) == reference(table)


@pytest.mark.parametrize(
    "table",
    [
        Table(headers=("卡", "显存", "价格"), rows=(("RTX 4090", "24 GB", "¥12,999"), ("二手 3090", "24", "¥5,000"))),
        Table(
            headers=("card", "memory", "a long optional column", "another optional one", "x"),
            rows=(("RTX 4090 24GB", "24 GB", "1" * 30, "全角文字" * 4, ""), ("A100", "", "", "", "y ")),
            optional=(2, 3),
        ),
        Table(headers=("a", "b"), rows=(), optional=(1,)),
        Table(headers=("ｗｉｄｅ", " "), rows=(("x", "  "),), optional=(0,)),
    ],
)
def test_edge_tables_are_laid_out_as_before(table):
    assert embeds._table(table) == reference(table)
