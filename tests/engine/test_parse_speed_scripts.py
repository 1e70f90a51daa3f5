"""The thirteenth session's shortcuts find what the plain searches find (docs/performance.md, "Thirteenth
session"): regexes searched by their literal starts (:func:`engine.parse_vocab.quick`), plain phrases
searched as two regexes by the script of their first character (``_ByScript``), and the needles that
open gates read with one regex per script instead of one substring test each (``_needle_gates``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine.parse
from engine.catalog import load_catalog
from engine.parse import _parser_for, clean, lower
from engine.parse_vocab import _NEEDLES, Words, _ByScript, _phrase, _StartsAt, quick

CORPUS = Path(__file__).resolve().parents[2] / "data" / "corpus" / "questions.jsonl"
# Pieces that start matches of the quick regexes, pieces that look like them, and glue
PIECES = st.sampled_from(
    [
        " ",
        "-",
        "?",
        ".",
        "x",
        "this",
        "is",
        " is it normal?",
        "why",
        "so slow",
        "too long",
        "gpu utilization 0%",
        "how long",
        "only the first gpu is used",
        "use both gpus",
        "egpu",
        "external gpu",
        "vllm",
        "ollama",
        "llama.cpp",
        "fa2",
        "flash-attn",
        "than",
        "vs",
        "oom",
        "enough",
        "which is better",
        "does foo support",
        "what hardware",
        "best models",
        "any plans to support",
        "infer",
        "为什么",
        "慢",
        "正常吗",
        "只用了",
        "第一张",
        "都",
        "使用",
        "显存",
        "不够",
        "比",
        "a卡",
        "卡",
        "中",
    ]
)
TEXTS = st.lists(PIECES, max_size=12).map("".join)


def _quick_searches() -> dict[str, _StartsAt]:
    """Every regex of engine.parse that quick() searches by its literal starts."""
    out = {name: value for name, value in vars(engine.parse).items() if isinstance(value, _StartsAt)}
    out.update({f"_LIBRARIES.{name}": p for name, p in engine.parse._LIBRARIES if isinstance(p, _StartsAt)})
    return out


QUICK = _quick_searches()


def _corpus() -> list[str]:
    rows = (json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines() if line)
    return [lower(clean(row["text"])[0]) for row in rows]


def _span(found: re.Match[str] | None) -> tuple[int, int] | None:
    return found.span() if found else None


def test_the_slow_regexes_are_searched_by_their_starts() -> None:
    assert {"_SPEED_CUE", "_EGPU", "_ASKS_MAINTAINERS", "_ONE_GPU_USED", "_LIBRARIES.vllm"} <= set(QUICK)


@pytest.mark.parametrize("name", sorted(QUICK))
def test_a_quick_search_finds_in_real_questions_what_its_regex_finds(name: str) -> None:
    searcher = QUICK[name]
    for low in _corpus():
        assert _span(searcher.search(low)) == _span(searcher.pattern.search(low)), low


@settings(max_examples=300, deadline=None)
@given(TEXTS)
def test_quick_searches_find_what_their_regexes_find(text: str) -> None:
    for name, searcher in QUICK.items():
        assert _span(searcher.search(text)) == _span(searcher.pattern.search(text)), name


def test_quick_leaves_a_regex_it_cannot_read_as_it_is() -> None:
    case_free = re.compile(r"\bwhy\b", re.IGNORECASE)  # its literals do not spell "WHY"
    assert quick(case_free) is case_free
    anything = re.compile(r"\b\w+ing\b")  # no literal start
    assert quick(anything) is anything


def test_quick_looks_for_a_word_start_only_in_the_alternatives_that_begin_with_one() -> None:
    searcher = quick(re.compile(r"\bis\s+it\b|is正常"))
    assert isinstance(searcher, _StartsAt)
    assert _span(searcher.search("this is it")) == (5, 10)
    assert _span(searcher.search("this正常")) == (2, 6)  # "is" inside a word, from the alternative without \b


@settings(max_examples=300, deadline=None)
@given(TEXTS)
def test_phrases_split_by_script_match_like_one_alternation(text: str) -> None:
    phrases = [_phrase(p) for p in ("a卡", "n卡", "显卡", "卡", "gpu", "显存不够", "is it", "比")]
    flat = re.compile("|".join(f"(?:{p})" for p in phrases))
    latin = [p for p in phrases if p[0].isascii()]
    split = _ByScript(latin, [p for p in phrases if p not in latin])
    assert _span(split.search(text)) == _span(flat.search(text))


@settings(max_examples=300, deadline=None)
@given(TEXTS)
def test_every_needle_in_a_text_opens_its_gates(text: str) -> None:
    _parser_for(load_catalog())  # every vocabulary compiled, so every needle known
    opened = Words(text).opened
    for needle, bits in _NEEDLES.items():
        if needle in text:
            assert opened & bits == bits, needle


def test_every_needle_in_a_real_question_opens_its_gates() -> None:
    _parser_for(load_catalog())
    for low in _corpus():
        opened = Words(low).opened
        assert all(opened & bits == bits for needle, bits in _NEEDLES.items() if needle in low), low
