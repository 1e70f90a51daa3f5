"""The parser's faster searches find exactly what the plain ones find (docs/parsing.md, "Speed").

Each shortcut (phrases grouped by first character, raw entries tried only where a match can start,
numbers, counts, memory sizes and wattages tried only where they can start, gates before the count,
hours, wattage and model searches, gates split in parts that skip ahead) must leave every match as it
was; these tests compare each with the plain regex over the vocabularies' own phrases
and over random text built from the pieces that make them fire.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.catalog import load_catalog
from engine.classify import gram_keys
from engine.parse import _parser_for, clean, lower
from engine.parse_numbers import (
    _HOURLY,
    _HOURLY_NEEDLES,
    _MAYBE_CARDS,
    _MAYBE_HOURS,
    _MAYBE_WATTS,
    _NUMBER_AT_WORD,
    _NUMBER_START,
    _matches_from,
    count_patterns,
    money_patterns,
    unit_patterns,
)
from engine.parse_vocab import (
    _GLUED_GATE,
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


# --- gates split in two, a word-start check moved after the first letter, cheaper featurisation ------

_ONE_HOURS_GATE = re.compile(r"hour|hr|[0-9]\s*h|%|小[时時]|钟头|鐘頭|24|clock|nonstop|non stop|全天|不停")
_ONE_CARDS_GATE = re.compile(r"[张張片장대块塊×*]|[0-9]\s?x\s?[0-9a-z]")
_LOOKBEHIND_GLUED = re.compile(r"(?<![a-z0-9])(?:rtx|gtx|rx|gt|gpu|geforce|nvidia)[0-9]")
TRICKY = [
    "",
    "24",
    "3h",
    "3 h",
    "8 hours a day",
    "50%",
    "每天12小时",
    "around the clock",
    "non stop",
    "两张3090",
    "4x a100",
    "2 x 3090",
    "32g×2",
    "rtx3090",
    "xrtx3090",
    "gtx1080ti",
    "4rtx3090",
    "gt1030",
    "nvidia3060",
    "gpu3090",
    "xgpu3090",
    "geforce4090",
    "rx7900xtx",
    "art3",
    "g5",
    "rtx 3090",
    "\t\n\x00",
    "１２３",
]
_GATE_TEXTS = st.one_of(TEXTS, st.text(alphabet="rgtx0123h4 %张×*a-", max_size=12))


@settings(max_examples=300, deadline=None)
@given(_GATE_TEXTS)
def test_split_gates_say_what_the_single_alternations_said(text: str) -> None:
    assert bool(_MAYBE_HOURS[0].search(text) or _MAYBE_HOURS[1].search(text)) == bool(_ONE_HOURS_GATE.search(text))
    assert bool(_MAYBE_CARDS[0].search(text) or _MAYBE_CARDS[1].search(text)) == bool(_ONE_CARDS_GATE.search(text))
    expected = _LOOKBEHIND_GLUED.search(text)
    found = _GLUED_GATE.search(text)
    assert (found.span() if found else None) == (expected.span() if expected else None)


@pytest.mark.parametrize("text", TRICKY)
def test_split_gates_on_tricky_texts(text: str) -> None:
    assert bool(_MAYBE_HOURS[0].search(text) or _MAYBE_HOURS[1].search(text)) == bool(_ONE_HOURS_GATE.search(text))
    assert bool(_MAYBE_CARDS[0].search(text) or _MAYBE_CARDS[1].search(text)) == bool(_ONE_CARDS_GATE.search(text))
    assert bool(_GLUED_GATE.search(text)) == bool(_LOOKBEHIND_GLUED.search(text))


def test_split_gates_on_real_questions() -> None:
    for low in _corpus():
        assert bool(_MAYBE_HOURS[0].search(low) or _MAYBE_HOURS[1].search(low)) == bool(_ONE_HOURS_GATE.search(low))
        assert bool(_MAYBE_CARDS[0].search(low) or _MAYBE_CARDS[1].search(low)) == bool(_ONE_CARDS_GATE.search(low))
        assert bool(_GLUED_GATE.search(low)) == bool(_LOOKBEHIND_GLUED.search(low)), low


def _plain_gram_keys(low: str) -> np.ndarray:
    """The n-gram keys as first written: digits and control characters folded with masked assignments."""
    zero, one, nine, space = (np.uint64(ord(c)) for c in "019 ")
    cp = np.frombuffer(f" {low} ".encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
    cp[(cp >= one) & (cp <= nine)] = zero
    cp[cp < space] = space
    two = cp[:-1] * np.uint64(0x110000) + cp[1:]
    three = two[:-1] * np.uint64(0x110000) + cp[2:]
    return np.concatenate((cp, two, three))


@settings(max_examples=300, deadline=None)
@given(st.one_of(TEXTS, st.text(alphabet=st.characters(max_codepoint=0x4E10, exclude_categories=("Cs",)), max_size=20)))
def test_gram_keys_fold_like_masked_assignments(text: str) -> None:
    assert gram_keys(text) == _plain_gram_keys(text).tolist()


@settings(max_examples=200, deadline=None)
@given(TEXTS)
def test_words_keys_are_characters_and_word_starts(text: str) -> None:
    starts = re.findall(r"[a-z0-9](?<![a-z0-9].)[a-z0-9]{1,3}", text)
    assert Words(text).keys == set(text) | set(starts) | {w[:3] for w in starts} | {w[:2] for w in starts}


def test_signals_are_the_same_when_read_passes_what_it_found(monkeypatch: pytest.MonkeyPatch) -> None:
    """read() hands signals() whether domain_words matched; searching them again finds the same."""
    parser = _parser_for(load_catalog())
    texts = [json.loads(line)["text"] for line in CORPUS.read_text(encoding="utf-8").splitlines() if line]
    expected = [parser.read(text).signals for text in texts]
    searched = parser.signals

    def search_again(*args: Any, about_gpus: bool | None = None, **kwargs: Any) -> frozenset[str]:
        return searched(*args, **kwargs)

    monkeypatch.setattr(parser, "signals", search_again)
    assert [parser.read(text).signals for text in texts] == expected


_COUNT_TEXTS = st.one_of(
    TEXTS,
    st.lists(
        st.sampled_from(
            [
                "2",
                "4 ",
                "two ",
                "a couple of ",
                "dual ",
                "x",
                "gpus",
                "cards",
                "卡",
                "两",
                "张",
                "显卡",
                ".",
                ",",
                "$",
                "a",
                "s",
                " ",
            ]
        ),
        max_size=10,
    ).map("".join),
)
_UNIT_TEXTS = st.one_of(
    TEXTS,
    st.lists(
        st.sampled_from(["1", "24", ".", "a", "ddr", " ", "gb", "g", "mb", "2048", "w", "k", "瓦", "watts", ","]),
        max_size=10,
    ).map("".join),
)


def _spans(matches: Iterable[re.Match[str]]) -> list[tuple[tuple[int, int], dict[str, str | None]]]:
    return [(m.span(), m.groupdict()) for m in matches]


@settings(max_examples=300, deadline=None)
@given(_COUNT_TEXTS)
def test_generic_counts_are_tried_only_where_they_can_start_with_the_same_matches(text: str) -> None:
    counts = count_patterns(load_vocab())
    expected = _spans(counts.generic.finditer(text))
    assert _spans(_matches_from(counts.generic, counts.generic_starts, text)) == expected
    assert all(counts.generic_starts.match(text, m.start()) for m in counts.generic.finditer(text))


@settings(max_examples=300, deadline=None)
@given(_UNIT_TEXTS)
def test_memory_and_watts_are_tried_only_where_a_number_starts_with_the_same_matches(text: str) -> None:
    units = unit_patterns(load_vocab())
    for pattern in (units.memory, units.watts):
        assert _spans(_matches_from(pattern, _NUMBER_AT_WORD, text)) == _spans(pattern.finditer(text))


def test_gated_number_searches_on_real_questions_and_tricky_texts() -> None:
    vocab = load_vocab()
    counts, units = count_patterns(vocab), unit_patterns(vocab)
    tricky = [
        "two gpus",
        "a couple of cards",
        "1.5 gpus",
        "$4 gpus",
        "x2 gpus",
        "四卡",
        "8张显卡",
        "24gb",
        "ddr4 32gb",
        "2048mb",
        "1,024 mb",
        "350w",
        "1.2kw",
        "3.5 watts",
        "a100 80gb",
    ]
    for low in _corpus() + tricky:
        assert _spans(_matches_from(counts.generic, counts.generic_starts, low)) == _spans(
            counts.generic.finditer(low)
        ), low
        for pattern in (units.memory, units.watts):
            assert _spans(_matches_from(pattern, _NUMBER_AT_WORD, low)) == _spans(pattern.finditer(low)), low


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        TEXTS,
        st.lists(
            st.sampled_from(["$", "us$", "usd", "2.5", "/h", " per hour", "dollars", "美元", "每小时", "/hr", " "]),
            max_size=8,
        ).map("".join),
    )
)
def test_every_price_per_hour_holds_a_currency_needle(text: str) -> None:
    if _HOURLY.search(text):
        assert any(needle in text for needle in _HOURLY_NEEDLES)
