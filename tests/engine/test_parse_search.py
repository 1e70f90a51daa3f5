"""The parser's faster searches find exactly what the plain ones find (docs/parsing.md, "Speed").

Each shortcut (phrases grouped by first character, raw entries tried only where a match can start,
numbers tried only at digits, gates before the count, wattage and model searches) must leave every
match as it was; these tests compare each with the plain regex over the vocabularies' own phrases
and over random text built from the pieces that make them fire.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.parse import clean, lower
from engine.parse_numbers import (
    _MAYBE_WATTS,
    _NUMBER_START,
    _matches_from,
    count_patterns,
    money_patterns,
    unit_patterns,
)
from engine.parse_vocab import (
    PhraseSet,
    Words,
    _by_first_character,
    _phrase,
    _starts_with_check,
    _StartsAt,
    load_vocab,
)

PIECES = st.sampled_from(
    [
        " ",
        "  ",
        "-",
        ".",
        "?",
        "can ",
        "can i run",
        "can i",
        "c",
        "what ",
        "which gpu",
        "should i buy",
        "is it",
        "would it fit",
        "4090",
        "3 ",
        "2x",
        "70b",
        "7b model",
        "8-bit",
        "16 bit",
        "gpt",
        "learning",
        "deep learning",
        "fine-tune",
        "finetune",
        "used",
        "not used",
        "brand new",
        "80°c",
        "300w",
        "1.5 kw",
        "two gpus",
        "4 cards",
        "8卡",
        "两张",
        "三萬五千",
        "1,200",
        "$800",
        "llama 3.1 70b",
        "qwen2.5",
        "显存",
        "能跑",
        "吗",
        "a",
        "x",
        "s",
        "\n",
        "_",
    ]
)
TEXTS = st.lists(PIECES, max_size=14).map("".join)


def _phrase_sets() -> dict[str, PhraseSet]:
    vocab = load_vocab()
    out: dict[str, PhraseSet] = {}
    for name, value in vars(vocab).items():
        if isinstance(value, PhraseSet):
            out[name] = value
        elif isinstance(value, dict):
            out.update({f"{name}.{key}": v for key, v in value.items() if isinstance(v, PhraseSet)})
    return out


SETS = _phrase_sets()
CORPUS = Path(__file__).resolve().parents[2] / "data" / "corpus" / "questions.jsonl"


def _plain_find(phrases: PhraseSet, text: str) -> tuple[int, int] | None:
    """What one search of the set as a single plain alternation finds (``PhraseSet.pattern``, every
    entry in order, not grouped): the earliest match, a phrase before a raw entry at one place."""
    found = re.search(phrases.pattern, text)
    return found.span() if found else None


def _corpus() -> list[str]:
    rows = (json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines() if line)
    return [lower(clean(row["text"])[0]) for row in rows]


@pytest.mark.parametrize("name", sorted(SETS))
def test_every_list_finds_in_real_questions_what_a_plain_search_finds(name: str) -> None:
    phrases = SETS[name]
    for low in _corpus():
        words = Words(low)
        expected = _plain_find(phrases, low)
        found = phrases.find(words)
        assert (found.span() if found else None) == expected, low
        assert phrases.could_match(words) or expected is None, low


@settings(max_examples=300, deadline=None)
@given(TEXTS)
def test_lists_find_what_plain_alternations_find(text: str) -> None:
    words = Words(text)
    for name, phrases in SETS.items():
        found = phrases.find(words)
        assert (found.span() if found else None) == _plain_find(phrases, text), name
        searched = phrases.search(text)
        assert (searched.span() if searched else None) == _plain_find(phrases, text), name


@settings(max_examples=200, deadline=None)
@given(TEXTS)
def test_grouped_phrases_match_like_the_flat_alternation(text: str) -> None:
    phrases = [_phrase(p) for p in ("can", "can i", "c", "fine tune", "显存", "显卡", "$", "4-bit", "a100")]
    flat = re.compile("|".join(f"(?:{p})" for p in phrases))
    grouped = re.compile(_by_first_character(phrases))
    assert [m.span() for m in grouped.finditer(text)] == [m.span() for m in flat.finditer(text)]


@settings(max_examples=200, deadline=None)
@given(TEXTS)
def test_numbers_are_tried_only_where_they_start_with_the_same_matches(text: str) -> None:
    number = money_patterns(load_vocab()).number
    expected = [(m.span(), m.groupdict()) for m in number.finditer(text)]
    assert [(m.span(), m.groupdict()) for m in _matches_from(number, _NUMBER_START, text)] == expected


@settings(max_examples=200, deadline=None)
@given(TEXTS)
def test_gates_never_hide_a_match(text: str) -> None:
    vocab = load_vocab()
    counts = count_patterns(vocab)
    if counts.generic.search(text):
        assert counts.generic_tail.search(text)
    if unit_patterns(vocab).watts.search(text):
        assert _MAYBE_WATTS.search(text)


def test_grouping_by_first_character_keeps_the_order_within_a_group() -> None:
    longest_first = re.match(_by_first_character(["ab", "a", "b"]), "ab")
    shortest_first = re.match(_by_first_character(["a", "ab"]), "ab")
    assert longest_first is not None and longest_first.group() == "ab"  # "ab" before "a", as flat
    assert shortest_first is not None and shortest_first.group() == "a"


def test_a_phrase_not_starting_with_one_character_falls_back_to_the_flat_alternation() -> None:
    assert _by_first_character([r"\s+x", "y"]) == r"(?:\s+x)|(?:y)"


def test_only_regexes_starting_with_a_check_are_searched_where_they_can_start() -> None:
    assert _starts_with_check(r"\bwhat\b")
    assert _starts_with_check(r"(?:(?<![a-z])gpu)")
    assert not _starts_with_check(r"[0-9]{2,3}\s?°")
    assert not _starts_with_check("gpu")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="xab c", max_size=12))
def test_a_raw_alternation_is_tried_at_every_place_it_can_start(text: str) -> None:
    pattern = re.compile(r"(?:(?<!x)(?:aa|ab))|(?:\bca)")
    starts = _StartsAt(pattern, [("aa", False), ("ab", False), ("ca", True)])
    expected = pattern.search(text)
    found = starts.search(text)
    assert (found.span() if found else None) == (expected.span() if expected else None)


def test_a_failed_start_does_not_hide_the_next_one() -> None:
    pattern = re.compile(r"(?<!x)(?:aa|ab)")
    found = _StartsAt(pattern, [("aa", False), ("ab", False)]).search("xaab")
    assert found is not None and found.span() == (2, 4)
