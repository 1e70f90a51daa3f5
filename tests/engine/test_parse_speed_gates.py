"""The phrase lists' gates (engine.parse_vocab, #24): a list is searched only where its anchors, its
first words or its first two Chinese characters are in the text, and a gate may skip a search but
never hide a match. test_parse_search compares every list with the plain regex over the corpus and
random text; these tests pin the gates themselves and the spellings that test the first-word rule.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.parse_vocab import (
    WORDS_REMEMBERED,
    PhraseSet,
    Words,
    _first_word_written,
    _first_words,
    _leading_pair,
    _required_strings,
    load_vocab,
)


def _plain(phrases: PhraseSet, text: str) -> tuple[int, int] | None:
    found = re.search(phrases.pattern, text)
    return found.span() if found else None


def _found(phrases: PhraseSet, text: str) -> tuple[int, int] | None:
    found = phrases.find(Words(text))
    return found.span() if found else None


def test_the_first_words_of_a_phrase_are_each_way_its_words_may_be_joined() -> None:
    assert _first_words("fine tune") == {"fine", "finetune", "finetunes", "finetunees"}
    assert _first_words("fine-tune") == _first_words("fine tune")
    assert _first_words("gpu") == {"gpu", "gpus", "gpues"}
    # Not letters and digits only, or not a Latin start or end: gated by the first characters instead
    assert _first_words("c++") is None
    assert _first_words("显存") is None
    assert _first_words("3090显卡") is None


def test_a_phrase_in_chinese_is_gated_by_its_first_two_characters() -> None:
    assert _leading_pair("显存不够") == "显存"
    assert _leading_pair("算力-卡") == "算力"
    assert _leading_pair("显 存") is None  # its regex lets the space be a hyphen or nothing
    assert _leading_pair("-显存") is None
    assert _leading_pair("显") is None
    assert _leading_pair("gpu") is None  # a Latin phrase: gated by its first words


def test_a_phrase_whose_first_word_runs_into_other_characters_is_gated_by_that_word() -> None:
    assert _first_word_written("a卡") == "a卡"
    assert _first_word_written("i've got") == "i've"
    assert _first_word_written("8比特") == "8比特"
    assert _first_word_written("c++") == "c++"
    assert _first_word_written("8 位") is None  # one character: its anchor is as good
    assert _first_word_written("fine tune") is None  # gated by its first words
    assert _first_word_written("pytorch的") is None  # its anchor, "pyto", already starts a word
    assert _first_word_written("显存") is None
    # "a卡" no longer opens its list in every text with an "a"; where it is written, it is found
    phrases = PhraseSet(["a卡", "显卡"])
    assert not phrases.could_match(Words("a question about a card"))
    for text in ("a卡能跑吗", "用a卡", "a 卡", "amd的a卡行不行", "a-卡"):
        assert _found(phrases, text) == _plain(phrases, text), text


def test_a_raw_entry_with_common_starts_is_gated_by_what_it_must_hold() -> None:
    assert _required_strings(r"[0-9]{2,3}\s?°\s?c?") == {"°"}
    assert _required_strings(r"\b(?:4|8|16)[- ]?bit\b") == {"bit"}
    assert _required_strings(r"\b(?:could|does|do|is)\b[^.?!]{0,40}\b(?:run|fit|fits)\b") == {"run", "fit"}
    assert _required_strings(r"(ab|cd)e") == {"ab", "cd"}
    assert _required_strings(r"(?i)[0-9]+gb") is None  # a case-blind literal may be written otherwise
    assert _required_strings(r"(?:a|b)") is None  # one character of two: a set, no literal
    assert _required_strings(r"[0-9]+") is None


@pytest.mark.parametrize(
    "text",
    [
        "fine-tuning a 7b model",
        "finetunes",
        "fine  tune it",
        "fine_tune",
        "is finetuning on a 4090 ok",
        "it runs at 85°c",
        "85 ° c",
        "4-bit or 8bit",
        "16 bit",
        "is it possible to run llama on it",
        "does it fit",
        "not used please",
        "a 7b model or 13 b params",
        "显存不够怎么办",
        "显卡的显存",
        "用3090跑llama",
        "chatglm2-6b",
        "qwen2.5 7b",
        # spellings the two-word gates read (test_parse_speed_pairs.py)
        "how much vram",
        "how-much vram",
        "howmuch vram",
        "how  much",
        "how, much vram",
        "show much vram",
        "how muchs",
        "how to run it",
        "is it normal?",
        "isit normal",
        "it reboots",
        "my pc shuts  down",
        "显存不够",
        "显存 不够",
        "显存不足",
    ],
)
def test_every_list_finds_what_a_plain_search_finds_on_spellings_the_gates_read(text: str) -> None:
    vocab = load_vocab()
    sets = {name: value for name, value in vars(vocab).items() if isinstance(value, PhraseSet)}
    for group in (vocab.kinds, vocab.domains, vocab.stages, vocab.modes, vocab.precisions, vocab.workloads):
        sets.update(group)
    for name, phrases in sets.items():
        assert _found(phrases, text) == _plain(phrases, text), name


def test_model_families_gate_the_looser_model_pattern() -> None:
    """A family may run into digits in the model pattern ("chatglm2"), where its phrase does not match:
    its list is gated by first characters alone, so find_model still reads those names."""
    vocab = load_vocab()
    for text in ("chatglm2 训练", "qwen2.5 how much vram", "llama3 on a 3090"):
        assert vocab.models.search(text) is not None
        assert vocab.model_families.could_match(Words(text)), text


def test_a_list_made_after_a_text_was_read_is_searched_there() -> None:
    words = Words("how do i fine tune a model")
    later = PhraseSet(["fine tune"])
    assert later.find(words) is not None
    assert Words("nothing here").opened & later._gates[0][2] == 0  # a text read after it: gated as usual


def test_the_remembered_words_are_bounded() -> None:
    load_vocab()
    for n in range(WORDS_REMEMBERED + 10):
        Words(f"w{n}")
    from engine import parse_vocab

    assert len(parse_vocab._WORD_BITS) <= WORDS_REMEMBERED


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "fine",
                "tune",
                "fine-tune",
                "tuning",
                " ",
                "-",
                "s",
                "es",
                "显存",
                "显",
                "存",
                "85",
                "°",
                "c",
                "bit",
                "4",
                "x",
                "a卡",
                "a",
                "卡",
                "i've",
                "i",
                "'",
                "ve got",
            ]
        ),
        max_size=10,
    ).map("".join)
)
def test_gates_never_hide_a_match_of_a_small_list(text: str) -> None:
    phrases = PhraseSet(
        [
            "fine tune",
            "finetuning",
            "显存不够",
            "显存",
            "a卡",
            "i've got",
            "re:[0-9]{2,3}\\s?°\\s?c?",
            "re:\\b4-?bit\\b",
        ]
    )
    assert _found(phrases, text) == _plain(phrases, text)
